"""The judge and the corpus of real client replies (``tests/mail/corpus``).

Every usable reply's move is applied by the judge; every unusable one is answered
exactly once (counted by the answers' ``In-Reply-To``), in words that name the
next command to run, however many rounds go by.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import Cli, Keys
from tests.mailcorpus import RED_MOVE, corpus_game, replies
from tests.test_judge import parse
from tests.test_judge_citizen import maildir, smtp_keeping

JUDGE = "judge@example.org"
"""The address the corpus's replies are written to."""


def run_judge(cli: Cli, keys: Keys, games: Path, box: Path, url: str) -> str:
    took = cli("judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
               "--from", JUDGE, "--key", keys.path("referee"))
    assert took.exit_code == 0, took.output
    return took.stdout


def test_every_reply_of_the_corpus_is_applied_or_answered_once(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = corpus_game(cli, keys, tmp_path)
    before = game.path.read_bytes()
    corpus = replies(game.values)
    usable = [reply for reply in corpus if reply.usable]
    unusable = [reply for reply in corpus if not reply.usable]
    assert usable and unusable
    with smtp_keeping() as (url, kept):
        # each usable reply to a judge of its own, with the game as the judge mailed it
        for number, reply in enumerate(usable):
            games = tmp_path / f"judge{number}"
            games.mkdir()
            (games / game.path.name).write_bytes(before)
            monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / f"state{number}"))
            box = maildir(tmp_path / f"box{number}")
            (box / "new" / "1.msg").write_bytes(reply.data)
            said = run_judge(cli, keys, games, box, url)
            assert f"red {RED_MOVE.replace('shoot', 'shoots')}" in said, (reply.name, said)
            assert not list((box / "new").iterdir()), reply.name  # filed
        assert not [e for e in kept if parse(e.content)["In-Reply-To"]]  # none answered

        # every unusable reply in one mailbox, through three rounds
        monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / "state"))
        box = maildir(tmp_path / "box")
        for number, reply in enumerate(unusable):
            (box / "new" / f"{number}.msg").write_bytes(reply.data)
        kept.clear()
        for _ in range(3):
            run_judge(cli, keys, game.path.parent, box, url)
    answers = [parse(e.content) for e in kept if parse(e.content)["In-Reply-To"]]
    count = Counter(str(answer["In-Reply-To"]) for answer in answers)
    for reply in unusable:
        asked = str(parse(reply.data)["Message-ID"])
        assert count[asked] == 1, (reply.name, count)
        [answer] = [a for a in answers if str(a["In-Reply-To"]) == asked]
        assert answer["Auto-Submitted"] == "auto-replied"
        text = answer.get_body(("plain",))
        assert text is not None
        words = text.get_content()
        assert "frogpbem reply" in words or "frogpbem move" in words, (reply.name, words)
    assert len(count) == len(unusable)
    assert game.path.read_bytes() == before  # nothing of them was taken into the game
