"""The referee's clock records: a turn passed when its deadline ran out, a pause, a resume.

The clock is injected with ``$FROGPBEM_NOW``; every record is made through the CLI.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.audit import audit
from frogpbem.gamefile import strictyaml
from frogpbem.games.clock import MAX_REASON, Passed, Paused, Resumed, parse_clock
from tests.conftest import Cli, Keys, here, write_setup
from tests.test_audit import resign

T0 = "2026-12-01T00:00:00Z"


def at(monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    monkeypatch.setenv("FROGPBEM_NOW", when)


def timed_game(cli: Cli, keys: Keys, tmp_path: Path, rules: str = "frogfinder",
               on_timeout: str = "pass", *options: str) -> Path:
    """A two-seat game created at T0 with 4 hours a move (Frog Finder: the known setup)."""
    game = tmp_path / f"{rules}.yaml"
    seats = {"frogfinder": ("red", "blue"), "froglet": ("white", "black"),
             "secretmove": ("red", "blue")}[rules]
    args: list[Any] = ["new", game, "--rules", rules, "--referee", keys.path("referee"),
                       "--seat", f"{seats[0]}={keys.pub('alice')}",
                       "--seat", f"{seats[1]}={keys.pub('bob')}",
                       *([] if any(o.startswith("deadline=") for o in options)
                         else ["--option", "deadline=4h"]),  # an option is given once
                       "--email", f"{seats[0]}=alice@example.org",
                       "--email", f"{seats[1]}=bob@example.org",
                       "--option", f"on_timeout={on_timeout}", *options]
    if rules == "frogfinder":
        args += ["--option", "size=6", "--option", "frogs=2", "--setup", write_setup(tmp_path)]
    made = cli(*args)
    assert made.exit_code == 0, made.output
    return game


def records(game: Path) -> list[dict[str, Any]]:
    return list(strictyaml.loads(game.read_bytes())["log"])


def to_move(cli: Cli, keys: Keys, game: Path) -> str:
    view = cli("view", game, "--key", keys.path("referee"), "--json")
    assert view.exit_code == 0, view.output
    return str(json.loads(view.stdout)["state"]["to_move"])


def referee(cli: Cli, keys: Keys, *args: Any) -> Any:
    return cli(*args, "--key", keys.path("referee"))


def verify_afresh(cli: Cli, monkeypatch: pytest.MonkeyPatch, game: Path, *args: Any) -> Any:
    """``frogpbem verify`` of a forged copy by a tool that has seen nothing of the game (the
    one that saw the real copies would call it a fork first)."""
    home = os.environ["FROGPBEM_HOME"]
    monkeypatch.setenv("FROGPBEM_HOME", str(game.with_name(f"{game.stem}-fresh-home")))
    try:
        return cli("verify", game, *args)
    finally:
        monkeypatch.setenv("FROGPBEM_HOME", home)


def mailed_text(cli: Cli, keys: Keys, game: Path, folder: Path, seat: str) -> str:
    """The plain text of the message ``frogpbem mail`` writes for ``seat``."""
    written = referee(cli, keys, "mail", game, "--out", folder)
    assert written.exit_code == 0, written.output
    data = next(folder.glob(f"*-{seat}.eml")).read_bytes()
    mail = email.message_from_bytes(data, policy=email.policy.default)
    assert isinstance(mail, EmailMessage)
    body = mail.get_body(("plain",))
    assert body is not None
    return " ".join(str(body.get_content()).split())


def test_a_passed_deadline_passes_the_turn_and_audits(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, T0)
    game = timed_game(cli, keys, tmp_path)
    at(monkeypatch, "2026-12-01T03:59:59Z")
    early = referee(cli, keys, "timeout", game)
    assert early.exit_code == 4 and "runs until 2026-12-01T04:00:00Z" in early.stderr
    at(monkeypatch, "2026-12-01T04:00:00Z")
    passed = referee(cli, keys, "timeout", game)
    assert passed.exit_code == 0, passed.output
    assert passed.stdout.strip() == "red's time ran out: the turn passes"
    [record] = records(game)
    assert (record["seat"], record["move"], record["result"], record["timeout"]) == \
        ("red", "pass", {"passed": True}, True)
    assert to_move(cli, keys, game) == "blue"
    forged = tmp_path / "forged.yaml"  # a referee that passed red's turn after one hour
    doc = strictyaml.loads(game.read_bytes())
    doc["log"][0]["at"] = "2026-12-01T01:00:00Z"
    resign(doc, keys.key("referee"))
    forged.write_text(strictyaml.dumps(doc))
    own = verify_afresh(cli, monkeypatch, forged, "--key", keys.path("alice"))
    assert own.exit_code == 1
    assert "FAIL record 1 entered by the referee without red's signed request" in own.stdout
    # blue's clock starts at the pass: too early at 07:00, due at 08:00
    at(monkeypatch, "2026-12-01T07:00:00Z")
    assert referee(cli, keys, "timeout", game).exit_code == 4
    finish = [("bob", "shoot C3"), ("alice", "guess E5"), ("bob", "guess A2"),
              ("alice", "guess F6")]
    for player, move in finish:
        assert cli("move", game, move, "--key", keys.path(player)).exit_code == 0
        applied = referee(cli, keys, "move", game)
        assert applied.exit_code == 0, applied.output
    assert "red's time ran out: the turn passes" in \
        cli("view", game, "--key", keys.path("alice")).stdout
    assert cli("verify", game, "--key", keys.path("alice")).exit_code == 0
    report = audit(game, clock=here().clock)
    assert report.ok and report.unasked == [], report.text()



def test_a_forfeit_game_does_not_pass_and_a_pass_game_does_not_forfeit(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, T0)
    game = timed_game(cli, keys, tmp_path, "frogfinder", "forfeit")
    at(monkeypatch, "2026-12-01T04:00:00Z")
    ended = referee(cli, keys, "timeout", game)
    assert ended.exit_code == 0 and "red forfeits on time (its deadline passed)" in ended.stdout
    # the same log under a pass header: the resignation rests on the referee's word
    doc = strictyaml.loads(game.read_bytes())
    doc["header"]["deadline"]["on_timeout"] = "pass"
    resign(doc, keys.key("referee"))  # a chosen setup: no deal element to re-chain
    forged = tmp_path / "forged.yaml"
    forged.write_text(strictyaml.dumps(doc))
    assert audit(forged, clock=here().clock).unasked == [1]


def test_froglet_first_move_forfeits_then_turns_pass(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first move removes a green frog and cannot be passed; later jumps can."""
    at(monkeypatch, T0)
    (tmp_path / "first").mkdir()
    first = timed_game(cli, keys, tmp_path / "first", "froglet", "pass", "--option", "size=4")
    at(monkeypatch, "2026-12-01T04:00:00Z")
    ended = referee(cli, keys, "timeout", first)
    assert ended.exit_code == 0 and "white forfeits on time (its deadline passed)" in ended.stdout
    assert audit(first, clock=here().clock).ok

    at(monkeypatch, T0)
    game = timed_game(cli, keys, tmp_path, "froglet", "pass", "--option", "size=4")
    view = json.loads(referee(cli, keys, "view", game, "--json").stdout)["state"]
    rows = view["rows"]
    green = next(f"{chr(65 + col)}{len(rows) - row}" for row, line in enumerate(rows)
                 for col, letter in enumerate(line) if letter == "G")
    assert cli("move", game, f"remove {green}", "--key", keys.path("alice")).exit_code == 0
    at(monkeypatch, "2026-12-01T01:00:00Z")
    assert referee(cli, keys, "move", game).exit_code == 0
    at(monkeypatch, "2026-12-01T05:00:00Z")
    passed = referee(cli, keys, "timeout", game)
    assert passed.exit_code == 0 and "black's time ran out" in passed.stdout, passed.output
    assert to_move(cli, keys, game) == "white"
    assert [r["move"] for r in records(game)] == [f"remove {green}", "pass"]
    assert cli("verify", game, "--key", keys.path("bob")).exit_code == 0


def test_secret_move_passes_a_turn_but_a_guess_forfeits(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, T0)
    game = timed_game(cli, keys, tmp_path, "secretmove")
    assert cli("setup", game, "cols=0,3,5 rows=1,2,4", "--key", keys.path("alice")).exit_code == 0
    assert cli("setup", game, "cols=0,1,2 rows=3,4,5", "--key", keys.path("bob")).exit_code == 0
    assert referee(cli, keys, "deal", game).exit_code == 0
    at(monkeypatch, "2026-12-01T04:00:00Z")
    passed = referee(cli, keys, "timeout", game)
    assert passed.exit_code == 0 and "red's time ran out" in passed.stdout, passed.output
    assert to_move(cli, keys, game) == "blue"
    from frogpbem import crypto

    doc = strictyaml.loads(game.read_bytes())  # the game's own pass, dressed as a timeout
    record = doc["log"][0]
    record["result"] = {}
    record["signature"] = crypto.sign_element(keys.key("referee"), "record", record)
    disguised = tmp_path / "disguised.yaml"
    disguised.write_text(strictyaml.dumps(doc))
    own = verify_afresh(cli, monkeypatch, disguised, "--key", keys.path("alice"))
    assert "FAIL record 1 entered by the referee without red's signed request" in own.stdout
    # a passed turn is not the game's own pass: red still moves later
    for player, move in [("bob", "pass"), ("alice", "A1-B2 3"), ("alice", "pass")]:
        assert cli("move", game, move, "--key", keys.path(player)).exit_code == 0
        assert referee(cli, keys, "move", game).exit_code == 0
    at(monkeypatch, "2026-12-01T09:00:00Z")
    ended = referee(cli, keys, "timeout", game)  # both must guess: red forfeits
    assert ended.exit_code == 0 and "red forfeits on time (its deadline passed)" in ended.stdout
    report = audit(game, clock=here().clock)
    assert report.ok, report.text()


def test_pause_and_resume(cli: Cli, keys: Keys, tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, T0)
    game = timed_game(cli, keys, tmp_path)
    at(monkeypatch, "2026-12-01T01:00:00Z")
    assert cli("pause", game, "--key", keys.path("alice")).exit_code == 2
    paused = referee(cli, keys, "pause", game, "--reason", "holidays\nuntil the 3rd")
    assert paused.exit_code == 0, paused.output
    assert paused.stdout.strip() == "the referee pauses the game (holidays until the 3rd)"
    before = game.read_bytes()
    asked = cli("move", game, "shoot C3", "--key", keys.path("alice"))
    assert asked.exit_code == 4 and "paused since 2026-12-01T01:00:00Z" in asked.stderr
    assert referee(cli, keys, "move", game, "shoot C3").exit_code == 4
    at(monkeypatch, "2026-12-02T00:00:00Z")  # a day later: no deadline runs
    stopped = referee(cli, keys, "timeout", game)
    assert stopped.exit_code == 2 and "paused" in stopped.stderr
    again = referee(cli, keys, "pause", game)
    assert again.exit_code == 4 and "only a resume may follow" in again.stderr
    assert game.read_bytes() == before
    assert "The referee paused the game at 2026-12-01T01:00:00Z: no move and no deadline " \
        "until it resumes." in mailed_text(cli, keys, game, tmp_path / "paused", "blue")
    shown = cli("view", game, "--key", keys.path("bob")).stdout
    assert "Paused since 2026-12-01T01:00:00Z" in shown
    assert "1. the referee pauses the game (holidays until the 3rd)" in shown

    doc = strictyaml.loads(game.read_bytes())  # a referee that plays on during the pause
    doc["log"].append({"n": 2, "prev": "", "seat": "red", "move": "shoot C3",
                       "result": {"count": 1}, "scores": {"red": 0, "blue": 0},
                       "at": "2026-12-02T00:00:00Z", "signature": ""})
    resign(doc, keys.key("referee"))
    (tmp_path / "played-on.yaml").write_text(strictyaml.dumps(doc))
    caught = verify_afresh(cli, monkeypatch, tmp_path / "played-on.yaml")
    assert "record 2 (red shoot C3): a move while the game is paused" in caught.stdout

    at(monkeypatch, "2026-12-03T00:00:00Z")
    resumed = referee(cli, keys, "resume", game)
    assert resumed.exit_code == 0
    assert resumed.stdout.strip() == "the referee resumes the game: red to move"
    assert referee(cli, keys, "resume", game).exit_code == 4
    assert "red must move by 2026-12-03 04:00 UTC (4h a move); after that its turn passes." \
        in mailed_text(cli, keys, game, tmp_path / "after", "red")
    at(monkeypatch, "2026-12-03T03:00:00Z")  # the clock restarted at the resume
    assert referee(cli, keys, "timeout", game).exit_code == 4
    at(monkeypatch, "2026-12-03T04:00:00Z")
    assert "red's time ran out" in referee(cli, keys, "timeout", game).stdout
    moves = [r["move"] for r in records(game)]
    assert moves == ["pause", "resume", "pass"]
    # a referee that drops the resume and plays on during the pause is caught
    doc = strictyaml.loads(game.read_bytes())
    del doc["log"][1]
    doc["log"][1]["n"] = 2
    resign(doc, keys.key("referee"))
    forged = tmp_path / "forged.yaml"
    forged.write_text(strictyaml.dumps(doc))
    caught = verify_afresh(cli, monkeypatch, forged)
    assert caught.exit_code == 1
    assert "record 2 (red pass): the game is paused: only a resume may follow" in caught.stdout
    assert records(game)[0]["result"] == {"paused": "holidays until the 3rd"}
    for player, move in [("bob", "shoot C3"), ("alice", "guess E5"), ("bob", "guess A2"),
                         ("alice", "guess F6")]:
        assert cli("move", game, move, "--key", keys.path(player)).exit_code == 0
        assert referee(cli, keys, "move", game).exit_code == 0
    report = audit(game, clock=here().clock)
    assert report.ok and report.unasked == [], report.text()
    assert cli("verify", game, "--key", keys.path("bob")).exit_code == 0


def test_on_timeout_takes_forfeit_or_pass_only(cli: Cli, keys: Keys, tmp_path: Path) -> None:
    made = cli("new", tmp_path / "g.yaml", "--referee", keys.path("referee"),
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--option", "deadline=4h", "--option", "on_timeout=skip")
    assert made.exit_code == 2 and "give forfeit or pass" in made.stderr
    assert not (tmp_path / "g.yaml").exists()


def test_one_running_judge_reminds_times_out_and_respects_a_pause(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same judge over several rounds (it keeps each game's clock between them): a
    reminder once, a passed turn once, and nothing while the referee has the game paused."""

    from frogpbem import crypto
    from frogpbem.mail.judge import Judge, MaildirBox
    from frogpbem.mail.outbox import SmtpOutbox
    from tests.test_judge import started_smtp

    sent: list[str] = []

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            sent.append(envelope.rcpt_tos[0])
            return "250 OK"

    controller, port = started_smtp(Keep())
    try:
        at(monkeypatch, T0)
        games = tmp_path / "games"
        games.mkdir()
        game = timed_game(cli, keys, games)
        box = tmp_path / "Maildir"
        for sub in ("new", "cur", "tmp"):
            (box / sub).mkdir(parents=True)
        judge = Judge(games, crypto.load_private_key(keys.path("referee")), MaildirBox(box),
                      SmtpOutbox(f"smtp://127.0.0.1:{port}"), here(state=tmp_path / "state"))

        def round_at(when: str) -> list[str]:
            at(monkeypatch, when)
            return judge.round()

        game_id = strictyaml.loads(game.read_bytes())["header"]["game"]
        first = round_at(T0)  # the stray setup file is said once and left alone
        assert first[0] == "setup.yaml: skipped: not a frogpbem game file (no 'frogpbem:' " \
            "version)"
        assert "mailed record 0" in first[1] and len(first) == 2 and len(sent) == 2
        assert round_at("2026-12-01T02:00:00Z") == []
        assert round_at("2026-12-01T03:10:00Z") == [
            f"game {game_id}: reminded red of its deadline"]
        assert round_at("2026-12-01T03:20:00Z") == []
        done = round_at("2026-12-01T04:00:00Z")
        assert done[0] == f"game {game_id}: red's time ran out: the turn passes"
        assert "mailed record 1" in done[1] and len(sent) == 5
        at(monkeypatch, "2026-12-01T05:00:00Z")
        assert referee(cli, keys, "pause", game, "--reason", "holidays").exit_code == 0
        assert "mailed record 2" in round_at("2026-12-01T05:00:00Z")[0]
        assert round_at("2026-12-05T00:00:00Z") == []  # days later: paused, nothing runs
        at(monkeypatch, "2026-12-06T00:00:00Z")
        assert referee(cli, keys, "resume", game).exit_code == 0
        assert "mailed record 3" in round_at("2026-12-06T00:00:00Z")[0]
        late = round_at("2026-12-06T04:00:00Z")
        assert late[0] == f"game {game_id}: blue's time ran out: the turn passes", late
        assert [r["move"] for r in records(game)] == ["pass", "pause", "resume", "pass"]
    finally:
        controller.stop()


def _clock_by_shape(data: Any) -> Any:
    """What a clock result is, written out case by case (the reference for parse_clock)."""
    if data == {"passed": True} and data["passed"] is True:
        return Passed()
    if data == {"resumed": True} and data["resumed"] is True:
        return Resumed()
    if isinstance(data, dict) and list(data) == ["paused"] and isinstance(data["paused"], str) \
            and len(data["paused"]) <= MAX_REASON:
        return Paused(data["paused"])
    return None


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "why", "x" * 300]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["passed", "resumed", "paused", "count", "shot"]), inner, max_size=3),
    max_leaves=6)


@given(_JSON)
@settings(max_examples=500, deadline=None)
def test_a_clock_result_is_read_from_its_shape_alone(data: Any) -> None:
    """Every record's result is looked at for a clock result: the quick refusal of other
    shapes reads exactly what the case-by-case reading does."""
    assert parse_clock(data) == _clock_by_shape(data)
