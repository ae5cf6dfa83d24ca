"""Secret Move by the CLI: chosen setups, refused moves, sealed guesses, reveal, audit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from frogpbem import crypto
from frogpbem.audit import audit
from frogpbem.errors import KeyError_
from frogpbem.gamefile import strictyaml
from tests.conftest import Cli, Keys, here


def test_a_whole_game(tmp_path: Path, cli: Cli, keys: Keys) -> None:
    game = tmp_path / "sm.yaml"
    alice, bob, referee = keys.path("alice"), keys.path("bob"), keys.path("referee")
    created = cli("new", game, "--rules", "secretmove", "--referee", referee,
                  "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}")
    assert created.exit_code == 0, created.output
    early = cli("move", game, "A1-B2 1", "--key", alice)
    assert early.exit_code == 4 and "not dealt yet" in early.stderr  # noqa: PT018
    bad = cli("setup", game, "cols=0,3,5 rows=1,2,2", "--key", alice)
    assert bad.exit_code == 3
    assert cli("setup", game, "cols=0,3,5 rows=1,2,4", "--key", alice).exit_code == 0
    twice = cli("setup", game, "cols=0,3,5 rows=1,2,4", "--key", alice)
    assert twice.exit_code == 4
    assert cli("setup", game, "cols=0,1,2 rows=3,4,5", "--key", bob).exit_code == 0
    # the setups are sealed: bob cannot open red's
    doc = strictyaml.loads(game.read_bytes())
    with pytest.raises(KeyError_):
        crypto.unseal(doc["joins"][0]["sealed"], keys.key("bob"))
    started = cli("deal", game, "--key", referee)
    assert started.exit_code == 0, started.output
    assert "every seat has chosen its setup" in started.stdout

    # red's tool refuses a move against red's hidden values; the file is unchanged
    before = game.read_bytes()
    refused = cli("move", game, "B2-A1 1", "--key", alice)
    assert refused.exit_code == 4
    assert "A1 (1) is not worth more than B2 (5)" in refused.stderr
    assert game.read_bytes() == before
    # and so does the referee, for a move entered for red
    assert cli("move", game, "B2-A1 1", "--key", referee).exit_code == 4
    assert game.read_bytes() == before

    for key, move, line in [
        (alice, "A1-B2 3", "red moves A1-B2: 3 stones"),
        (bob, "A1-B1 1", "blue moves A1-B1: 1 stone"),
        (alice, "pass", "red passes"),
        (bob, "pass", "blue passes"),
    ]:
        assert cli("move", game, move, "--key", key).exit_code == 0
        applied = cli("move", game, "--key", referee)
        assert applied.stdout.strip() == line, applied.output

    # the public record shows moves and stones, never values
    blue_view = json.loads(cli("view", game, "--key", bob, "--json").stdout)["state"]
    assert "values" not in blue_view["boards"]["red"]
    assert blue_view["boards"]["red"]["stones"]["B2"] == 6
    assert blue_view["phase"] == "guess"
    assert 1 <= blue_view["boards"]["red"]["grids_left"] < 648

    # red's guess is sealed: in the file, blue's key cannot read it
    asked = cli("move", game, "guess 345/456/567", "--key", alice)
    assert asked.exit_code == 0, asked.output
    assert cli("move", game, "--key", referee).stdout.strip() == "red hands in a sealed guess"
    doc = strictyaml.loads(game.read_bytes())
    record = doc["log"][-1]
    assert record["move"] == "guess" and "guess 345/456/567" not in game.read_text()
    with pytest.raises(KeyError_):
        crypto.unseal(record["sealed"], keys.key("bob"))
    assert b"345/456/567" in crypto.unseal(record["sealed"], keys.key("referee"))
    assert doc["reveal"] is None

    assert cli("move", game, "guess 111/111/111", "--key", bob).exit_code == 0
    final = cli("move", game, "--key", referee)
    assert "game over: only red guessed all nine values; 1. red 147, 2. blue 136" in final.stdout
    doc = strictyaml.loads(game.read_bytes())
    assert doc["reveal"]["sealed_moves"]["5"]["move"] == "guess 345/456/567"
    assert doc["reveal"]["secrets"]["blue"]["secret"] == {"cols": [0, 1, 2], "rows": [3, 4, 5]}
    report = audit(game, clock=here().clock)
    assert report.ok, report.text()
    assert any("chosen by each seat itself" in c.what for c in report.checks)
    record_text = cli("record", game).stdout
    assert '[Result "1-0"]' in record_text and "guess {sealed}" in record_text


def test_a_revealed_guess_must_match_its_commitment(tmp_path: Path, cli: Cli,
                                                    keys: Keys) -> None:
    from tests.test_dealing import rechain_from_deal

    game = tmp_path / "sm.yaml"
    referee = keys.path("referee")
    cli("new", game, "--rules", "secretmove", "--referee", referee,
        "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}")
    cli("setup", game, "cols=0,3,5 rows=1,2,4", "--key", keys.path("alice"))
    cli("setup", game, "--random", "--key", keys.path("bob"))
    assert cli("deal", game, "--key", referee).exit_code == 0
    for index, move in enumerate(("pass", "pass", "guess 345/456/567", "guess 111/111/111")):
        player = keys.path("alice" if index % 2 == 0 else "bob")
        assert cli("move", game, move, "--key", player).exit_code == 0, move
        assert cli("move", game, "--key", referee).exit_code == 0, move
    assert audit(game, clock=here().clock).ok
    doc = strictyaml.loads(game.read_bytes())
    doc["reveal"]["sealed_moves"]["3"]["move"] = "guess 999/999/999"
    rechain_from_deal(doc, keys.key("referee"))
    game.write_text(strictyaml.dumps(doc))
    failures = [c.what for c in audit(game, clock=here().clock).checks if not c.ok]
    assert any("record 3" in f and "does not match its commitment" in f for f in failures), \
        failures


def test_demo_plays_secret_move(tmp_path: Path, cli: Cli) -> None:
    result = cli("demo", tmp_path / "d", "--rules", "secretmove", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "verdict: everything holds" in result.stdout


@pytest.mark.parametrize("secret", [
    {"cols": [0, 1, 2, 3, 4, 5], "rows": []},  # was taken: the game broke at its first move
    {"cols": [0, 1, 2], "rows": [3, 4, True]},
    {"cols": 5, "rows": [0, 1, 2]},  # these ended the referee's deal in a TypeError
    {"cols": [0, 1, 2], "rows": [3, 4, "5"]},
    {"cols": [[0], 1, 2], "rows": [3, 4, 5]},
])
def test_a_seat_that_seals_a_secret_of_another_shape_is_refused_at_the_deal(
        secret: dict[str, Any], tmp_path: Path, cli: Cli, keys: Keys,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's own tool seals whatever it likes (here: the notation's check skipped); the
    referee opens it at the deal and refuses it in a sentence, naming the seat."""
    from frogpbem.games import secretmove

    game = tmp_path / "sm.yaml"
    referee = keys.path("referee")
    assert cli("new", game, "--rules", "secretmove", "--referee", referee, "--seat",
               f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}").exit_code == 0
    with monkeypatch.context() as patch:
        patch.setattr(secretmove.SecretMove, "parse_secret", lambda self, text: secret)
        assert cli("setup", game, "anything", "--key", keys.path("alice")).exit_code == 0
    assert cli("setup", game, "cols=0,1,2 rows=3,4,5", "--key", keys.path("bob")).exit_code == 0
    dealt = cli("deal", game, "--key", referee)
    assert dealt.exit_code != 0 and "Traceback" not in dealt.output, dealt.output
    assert "red's setup is not a valid setup: setup: 'cols' and 'rows' take three whole " \
        "numbers each" in dealt.stderr, dealt.output
