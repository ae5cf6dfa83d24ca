"""The judge without a server: a real Maildir in a temporary folder and an outbox in memory.

The judge hands its letters to an :class:`~frogpbem.mail.outbox.Outbox`; here
one that keeps them (as aiosmtpd's Sink handler does) or refuses an address as
a server would. The same game runs against real servers in ``test_judge.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frogpbem import crypto
from frogpbem.audit import audit
from frogpbem.mail.compose import Refusal
from frogpbem.mail.judge import DONE, REFUSED, Judge, MaildirBox
from frogpbem.mail.marks import Backoff, Mailed, Marks
from frogpbem.mail.outbox import MemoryOutbox
from frogpbem.protocol.game import load
from frogpbem.protocol.times import Clock
from tests.conftest import FINISHING_MOVES, Cli, Keys, here
from tests.test_judge import DOMAIN, reply_with
from tests.test_judge_citizen import club_game, maildir, person

ALICE, BOB, JUDGE = f"alice@{DOMAIN}", f"bob@{DOMAIN}", f"judge@{DOMAIN}"


def a_judge(keys: Keys, tmp_path: Path, outbox: MemoryOutbox) -> Judge:
    return Judge(tmp_path / "games", crypto.load_private_key(keys.path("referee")),
                 MaildirBox(maildir(tmp_path / "Maildir")), outbox,
                 here(state=tmp_path / "state"), JUDGE)


def test_a_whole_game_through_a_maildir_and_an_outbox_in_memory(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    game_id, game = club_game(cli, keys, tmp_path, tmp_path / "games")
    outbox = MemoryOutbox()
    judge = a_judge(keys, tmp_path, outbox)
    assert judge.round() == [f"game {game_id}: mailed record 0 to red: {ALICE}, blue: {BOB}"]
    assert [to for _, to in outbox.sent] == [ALICE, BOB]
    assert judge.round() == []  # nothing new: nothing mailed
    players = {"alice": ALICE, "bob": BOB}
    seats = {"alice": "red", "bob": "blue"}
    for number, (player, move) in enumerate(FINISHING_MOVES, 1):
        folder = tmp_path / f"{player}-games"
        (last,) = outbox.to(players[player])[-1:]
        mail = tmp_path / f"{player}-{number}.eml"
        mail.write_bytes(bytes(last))
        assert cli("receive", mail, "--games", folder, "--key", keys.path(player)).exit_code \
            == 0
        copy = folder / f"{game_id}.yaml"
        assert cli("move", copy, move, "--key", keys.path(player)).exit_code == 0
        reply = reply_with(copy, player, f"Re: [frogpbem {game_id}] my move")
        (tmp_path / "Maildir" / "new" / f"{number}.msg").write_bytes(bytes(reply))
        log = judge.round()
        assert log[-1] == f"game {game_id}: mailed record {number} to red: {ALICE}, " \
                          f"blue: {BOB}", log
        assert log[0].startswith(f"message new/{number}.msg ('Re: [frogpbem {game_id}] my "
                                 f"move'): game {game_id}: {seats[player]} "), log
    assert "game over" in str(outbox.to(ALICE)[-1]["Subject"])
    assert len(outbox.sent) == 2 * (len(FINISHING_MOVES) + 1)
    assert sorted(p.name for p in (tmp_path / "Maildir" / ".frogpbem-done" / "cur").iterdir()) \
        == [f"{n}.msg" for n in range(1, len(FINISHING_MOVES) + 1)]
    report = audit(game, clock=Clock.from_environment())
    assert report.ok, report.text()


def test_the_judges_reads_of_a_changed_game_keep_no_history_part_under_its_home(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge reads a changed game file for its clock and to mail it: it keeps what it
    verified (verified/GAME.json), as it always did, and no history part of the file
    (verified/GAME.history.json), which its reads never wrote."""
    game_id, _ = club_game(cli, keys, tmp_path, tmp_path / "games")
    home = tmp_path / "judge-home"
    monkeypatch.setenv("FROGPBEM_HOME", str(home))
    judge = a_judge(keys, tmp_path, MemoryOutbox())
    assert judge.round() == [f"game {game_id}: mailed record 0 to red: {ALICE}, blue: {BOB}"]
    assert sorted(p.name for p in (home / "verified").iterdir()) == [f"{game_id}.json"]


def test_an_address_refused_for_good_is_told_once_and_mailed_no_more(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    game_id, _ = club_game(cli, keys, tmp_path, tmp_path / "games")
    outbox = MemoryOutbox(refusing={BOB: Refusal(BOB, 550, "no such user")})
    judge = a_judge(keys, tmp_path, outbox)
    assert judge.round() == [
        f"game {game_id}: mailed record 0 to red: {ALICE}",
        f"game {game_id}: blue's address {BOB} refused: 550 no such user: not mailed again "
        f"there; the referee was told at {JUDGE}"]
    assert [to for _, to in outbox.sent] == [ALICE, JUDGE]
    assert judge.round() == []
    assert [to for _, to in outbox.sent] == [ALICE, JUDGE]


def test_a_server_that_says_later_is_tried_again_later(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    game_id, _ = club_game(cli, keys, tmp_path, tmp_path / "games")
    outbox = MemoryOutbox(refusing={BOB: Refusal(BOB, 451, "try again later")})
    judge = a_judge(keys, tmp_path, outbox)
    assert judge.round() == [
        f"game {game_id}: mailed record 0 to red: {ALICE}",
        f"game {game_id}: not mailed yet (blue: {BOB} refused: 451 try again later); trying "
        "again in 60 s"]
    assert judge.round() == []  # the wait is not over
    assert [to for _, to in outbox.sent] == [ALICE]


def test_the_marks_are_the_files_they_always_were(cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """The judge's marks read as typed values, written in the format of the files a judge
    before them wrote (and reads again), damaged ones naming nothing."""
    game_id, game = club_game(cli, keys, tmp_path, tmp_path / "games")
    outbox = MemoryOutbox(refusing={BOB: Refusal(BOB, 451, "try again later")})
    judge = a_judge(keys, tmp_path, outbox)
    judge.round()
    head = load(game, here()).head
    marks = Marks(tmp_path / "games")
    mailed = tmp_path / "games" / ".mailed" / f"{game_id}.json"
    assert json.loads(mailed.read_bytes()) == [head, ["red"]]
    found = marks.mailed(game_id)
    assert found == Mailed(head, frozenset({"red"}))
    assert found.having(head, ["red", "blue"]) == {"red"}
    backoff = json.loads(marks.backoff_path(game_id).read_bytes())
    assert marks.backoff(game_id) == Backoff(*backoff) and backoff[1] == 60
    mailed.write_text(json.dumps(head))  # a mark of before the roles were named: all have it
    assert marks.mailed(game_id) == Mailed(head)
    assert Mailed(head).having(head, ["red", "blue"]) == {"red", "blue"}
    assert Mailed(head).having("another", ["red"]) == set()
    for damaged in ("{", "[]", "[1, 2]", "3"):
        mailed.write_text(damaged)
        assert marks.mailed(game_id) is None
    marks.set_mailed(game_id, Mailed(head, frozenset({"red", "blue"})))
    assert json.loads(mailed.read_bytes()) == [head, ["blue", "red"]]
    marks.set_reminded(game_id, head)
    assert marks.reminded(game_id) == head and \
        json.loads(marks.reminded_path(game_id).read_bytes()) == head
    marks.set_bounced(game_id, {"blue": BOB})
    assert marks.bounced(game_id) == {"blue": BOB}
    marks.set_answered_nothing("Bob@Example.org", 123)
    assert marks.answered_nothing("bob@example.org") == 123
    marks.backoff_path(game_id).write_text("[1, true]")
    assert marks.backoff(game_id) == Backoff(0, 0)


def test_what_the_judge_did_with_a_message_is_a_typed_value(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """``Judge.take`` says where the message was filed and what it held, besides its log
    line; an answer the server will not take now leaves the message waiting."""
    game_id, game = club_game(cli, keys, tmp_path, tmp_path / "games")
    outbox = MemoryOutbox(refusing={BOB: Refusal(BOB, 451, "try again later")})
    judge = a_judge(keys, tmp_path, outbox)
    judge.round()
    new = tmp_path / "Maildir" / "new"
    (new / "1.msg").write_bytes(bytes(person("bob", f"Re: [frogpbem {game_id}] hello")))
    (waiting,) = judge.box.waiting()
    took = judge.take(waiting)
    assert took.filed is None and took.taken is None
    assert took.unused is not None and took.unused.nothing
    assert str(took) == f"message new/1.msg ('Re: [frogpbem {game_id}] hello'): nothing taken: " \
        f"no game file and no request block in it; not answered ({BOB} refused: 451 try " \
        "again later): it waits for the next round"
    assert (new / "1.msg").exists()
    outbox.refusing.clear()
    took = judge.take(waiting)
    assert took.filed == REFUSED and [m["To"] for m in outbox.to(BOB)] == [f"Bob <{BOB}>"]
    copy = tmp_path / "alice.yaml"
    copy.write_bytes(game.read_bytes())
    assert cli("move", copy, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    (new / "2.msg").write_bytes(bytes(reply_with(copy, "alice")))
    (waiting,) = judge.box.waiting()
    took = judge.take(waiting)
    assert took.filed == DONE and took.unused is None and took.taken is not None
    assert took.taken.games == (f"game {game_id}: red shoots C3: 1",)
