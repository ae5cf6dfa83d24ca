"""Deadlines nobody must trust blindly: a referee dating a timeout ahead, or a record back.

Each attack is made as a cheating referee would make it, by the CLI with ``$FROGPBEM_NOW``
set to the time it wants to sign. Each player's tool has a home of its own (its memory of
what it saw and signed), and every command runs at a time set the same way.
"""

from __future__ import annotations

import base64
import calendar
import json
import struct
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature

import frogpbem.protocol.game
import frogpbem.referee
from frogpbem import crypto
from frogpbem.audit import audit
from frogpbem.crypto import sshsig
from frogpbem.crypto.keys import ssh_string
from frogpbem.errors import ChainError, SignatureError
from frogpbem.gamefile.document import game_bytes, parse_game, read_bytes, write_atomic
from frogpbem.gamefile.model import Deadline
from frogpbem.protocol.seen import Seen
from frogpbem.protocol.times import check_observed, signature_mark
from tests.conftest import Cli, Keys, here, write_setup
from tests.test_clock import T0, at, mailed_text, timed_game
from tests.test_notes import SEATS, SETUP, TEAMS

MOVE_1 = "shoot C3"
MOVE_2 = "shoot D4"


def hours(offset: float) -> str:
    """The time ``offset`` hours after T0."""
    start = calendar.timegm(time.strptime(T0, "%Y-%m-%dT%H:%M:%SZ"))
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + int(offset * 3600)))


def as_user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, who: str) -> None:
    """The commands that follow are ``who``'s: its own home, its own memory."""
    monkeypatch.setenv("FROGPBEM_HOME", str(tmp_path / f"{who}-home"))


def run(cli: Cli, keys: Keys, who: str, *args: Any) -> Any:
    return cli(*args, "--key", keys.path(who))


def forfeit_game(cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                 created: str) -> Path:
    """red (alice) against blue (bob), 72 hours a move, forfeit; created at ``created``."""
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, created)
    game = timed_game(cli, keys, tmp_path, "frogfinder", "forfeit", "--option", "deadline=72h")
    return game


def test_a_timeout_dated_ahead_is_refused_by_the_victim_and_the_audit(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = forfeit_game(cli, keys, tmp_path, monkeypatch, T0)
    at(monkeypatch, hours(73))  # the referee's clock, set three days ahead
    cheat = run(cli, keys, "referee", "timeout", game)
    assert cheat.exit_code == 0, cheat.output
    at(monkeypatch, hours(1))  # the real time: one hour after the start
    as_user(monkeypatch, tmp_path, "alice")
    verified = run(cli, keys, "alice", "verify", game)
    assert verified.exit_code == 1, verified.output
    assert "ahead of this computer's clock" in verified.stdout
    moved = run(cli, keys, "alice", "move", game, MOVE_1)
    assert moved.exit_code == 6, moved.output
    assert "record 1" in moved.stderr and "ahead" in moved.stderr
    report = audit(game, clock=here().clock)
    assert not report.ok and "times: record 1 is dated " + hours(73) in report.text()
    assert cli("audit", game).exit_code == 1
    # two days later the forged time has come; alice's tool remembers when it saw it
    at(monkeypatch, hours(80))
    later = run(cli, keys, "alice", "verify", game)
    assert later.exit_code == 1
    assert f"after this tool first saw it ({hours(1)})" in later.stdout


def test_a_record_dated_before_the_game_is_refused_by_the_victim_and_the_audit(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = forfeit_game(cli, keys, tmp_path, monkeypatch, T0)
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(1))
    assert run(cli, keys, "alice", "move", game, MOVE_1).exit_code == 0
    # a cheating referee's tool, without the check that refuses to date a record back
    with monkeypatch.context() as cheat:
        for module in (frogpbem.protocol.game, frogpbem.referee):
            cheat.setattr(module, "check_times", lambda file: None, raising=False)
        as_user(cheat, tmp_path, "referee")
        at(cheat, hours(-79))
        assert run(cli, keys, "referee", "move", game).exit_code == 0
        at(cheat, hours(1))
        forfeit = run(cli, keys, "referee", "timeout", game)  # blue's 72 hours "ran out"
        assert forfeit.exit_code == 0, forfeit.output
    at(monkeypatch, hours(1))
    as_user(monkeypatch, tmp_path, "bob")
    verified = run(cli, keys, "bob", "verify", game)
    assert verified.exit_code != 0, verified.output
    assert f"record 1 is dated {hours(-79)}, before the header ({T0})" in verified.output
    moved = run(cli, keys, "bob", "move", game, MOVE_2)
    assert moved.exit_code == 6, moved.output
    assert "record 1" in moved.stderr and "never go back" in moved.stderr
    report = audit(game, clock=here().clock)
    assert not report.ok and "never go back" in report.text()
    assert cli("audit", game).exit_code == 1


def test_a_record_dated_back_in_order_is_refused_by_the_seat_it_forfeits(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dated back no further than the game's start, only red's own memory shows it: the
    record of its move cannot be older than its request, and blue's cannot be older still."""
    game = forfeit_game(cli, keys, tmp_path, monkeypatch, hours(-200))
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(-5))
    assert run(cli, keys, "alice", "move", game, MOVE_1).exit_code == 0
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(-80))
    assert run(cli, keys, "referee", "move", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "bob")
    at(monkeypatch, hours(-4))
    assert run(cli, keys, "bob", "move", game, MOVE_2).exit_code == 0
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(-80))
    assert run(cli, keys, "referee", "move", game).exit_code == 0
    at(monkeypatch, T0)
    forfeit = run(cli, keys, "referee", "timeout", game)  # red's 72 hours "ran out"
    assert forfeit.exit_code == 0, forfeit.output
    as_user(monkeypatch, tmp_path, "alice")
    verified = run(cli, keys, "alice", "verify", game)
    assert verified.exit_code == 1, verified.output
    assert f"record 1 applies the request you signed at {hours(-5)}, yet is dated " \
        f"{hours(-80)}" in verified.stdout
    moved = run(cli, keys, "alice", "move", game, "shoot E5")
    assert moved.exit_code == 6 and "dated it back" in moved.stderr, moved.output


def test_honest_times_pass_every_check(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each seat's memory, the audit and the skew leave an honest game alone: the referee's
    clock may run a few minutes ahead of a seat's."""
    game = forfeit_game(cli, keys, tmp_path, monkeypatch, T0)
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(1))
    assert run(cli, keys, "alice", "move", game, MOVE_1).exit_code == 0
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(1.1))  # six minutes ahead of alice's clock: within the skew
    assert run(cli, keys, "referee", "move", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(1))
    assert run(cli, keys, "alice", "verify", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(75.1))
    assert run(cli, keys, "referee", "timeout", game).exit_code == 0
    for who in ("alice", "bob"):
        as_user(monkeypatch, tmp_path, who)
        checked = run(cli, keys, who, "verify", game)
        assert checked.exit_code == 0, checked.output
    assert audit(game, clock=here().clock).ok
    # a timeout is listed as one, resting on the referee's clock: no move of the rules
    said = audit(game, clock=here().clock).text()
    assert "1 timeout, record 2 (blue): the seat's deadline ran out by the referee's clock" \
        in said and "the rules make by themselves" not in said, said


def test_a_memory_from_before_times_were_kept_still_reads_and_learns_them(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A memory an older frogpbem wrote (hashes only) is read, and the times of what is
    seen from then on are added to it."""
    import json

    game = forfeit_game(cli, keys, tmp_path, monkeypatch, T0)
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(1))
    assert run(cli, keys, "alice", "move", game, MOVE_1).exit_code == 0
    memory = next((tmp_path / "alice-home" / "seen").glob("*.json"))
    value = json.loads(memory.read_bytes())
    assert value["first_seen"] == [] and len(value["signed"]) == 1
    memory.write_text(json.dumps({k: value[k] for k in ("header", "history", "records")}))
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(1))
    assert run(cli, keys, "referee", "move", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "alice")
    assert run(cli, keys, "alice", "verify", game).exit_code == 0
    value = json.loads(memory.read_bytes())
    assert value["first_seen"] == [hours(1)] and value["signed"] == {}


def test_a_forfeit_on_time_reads_as_one_everywhere(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not as a resignation: the referee's line, the mail's subject, the view, the record
    (its comment and Termination tag), its JSON, the audit and the refusal of a move after
    the end say the seat lost on time."""
    import email
    import email.policy
    import json

    game = forfeit_game(cli, keys, tmp_path, monkeypatch, T0)
    at(monkeypatch, hours(72))
    ended = run(cli, keys, "referee", "timeout", game)
    assert ended.stdout.splitlines() == ["red forfeits on time (its deadline passed)",
                                         "game over: red lost on time; 1. blue 0, 2. red 0"]
    assert run(cli, keys, "referee", "mail", game, "--out", tmp_path / "out").exit_code == 0
    mail = email.message_from_bytes(next((tmp_path / "out").glob("*-red.eml")).read_bytes(),
                                    policy=email.policy.default)
    assert "1. red forfeits on time (its deadline passed)" in str(mail["Subject"])
    shown = cli("view", game).stdout
    assert "Game over: red lost on time." in shown and "red resign" not in shown
    for picture in ("svg", "html"):
        drawn = cli("view", game, "--format", picture).stdout
        assert "Game over: red lost on time." in drawn and "red resigned" not in drawn
    assert "deadline" not in shown.replace("its deadline passed", "")  # no clock after the end
    record = cli("record", game).stdout
    assert "1. resign {time forfeit} 0-1" in record
    assert '[Termination "red lost on time"]' in record
    page = cli("record", game, "--format", "html").stdout
    assert "Game over: red lost on time." in page and "red resigned" not in page
    data = json.loads(cli("record", game, "--json").stdout)
    assert data["termination"] == "red lost on time"
    assert data["moves"][0]["comment"] == "time forfeit"
    assert "end: red lost on time; standing" in audit(game, clock=here().clock).text()
    as_user(monkeypatch, tmp_path, "bob")  # a move after the end: said the same way
    late = run(cli, keys, "bob", "reply", next((tmp_path / "out").glob("*-blue.eml")),
               "resign", "--games", tmp_path / "bob-games")
    assert late.exit_code == 4 and "the game is over (red lost on time)" in late.stderr, \
        late.output


def svg_words(svg: str) -> str:
    """The words a picture shows, its lines joined by spaces."""
    import re
    from html import unescape

    return " ".join(unescape(text) for text in re.findall(r"<text[^>]*>([^<]*)</text>", svg))


def test_views_say_who_must_move_by_when_and_what_then(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    game = forfeit_game(cli, keys, tmp_path, monkeypatch, T0)
    shown = run(cli, keys, "alice", "view", game).stdout
    assert "Clock: red must move by 2026-12-04 00:00 UTC (72h a move); after that it " \
        "forfeits." in shown
    data = json.loads(run(cli, keys, "alice", "view", game, "--json").stdout)
    assert data["clock"] == {"to_move": "red", "per_move": "72h", "due": hours(72),
                             "then": "forfeit", "paused": None}
    page = run(cli, keys, "alice", "view", game, "--format", "html").stdout
    assert "red must move by 2026-12-04 00:00 UTC" in page
    assert "red must move by 2026-12-04 00:00 UTC (72h a move); after that it forfeits." \
        in svg_words(run(cli, keys, "alice", "view", game, "--format", "svg").stdout)
    at(monkeypatch, hours(1))
    assert run(cli, keys, "referee", "pause", game, "--reason", "holidays").exit_code == 0
    data = json.loads(cli("view", game, "--json").stdout)
    assert data["clock"]["paused"] == hours(1) and data["clock"]["due"] is None
    plain = tmp_path / "plain.yaml"  # no deadline: the clock says who moves, and no more
    made = cli("new", plain, "--rules", "frogfinder", "--referee", keys.path("referee"),
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--option", "size=6", "--option", "frogs=2", "--setup", write_setup(tmp_path))
    assert made.exit_code == 0, made.output
    data = json.loads(cli("view", plain, "--json").stdout)
    assert data["clock"]["per_move"] is None and data["clock"]["to_move"] == "red"
    assert "Clock:" not in cli("view", plain).stdout
    assert "must move" not in svg_words(cli("view", plain, "--format", "svg").stdout)
    assert "No deadline is set" in mailed_text(cli, keys, plain, tmp_path / "running", "red")
    assert run(cli, keys, "referee", "move", plain, "resign", "--seat", "red").exit_code == 0
    assert json.loads(cli("view", plain, "--json").stdout)["clock"] is None
    assert "deadline" not in mailed_text(cli, keys, plain, tmp_path / "over", "red")


@pytest.mark.parametrize(("given", "kept", "seconds"), [
    ("72h", "72h", 72 * 3600), ("1h30m", "1h30m", 5400), ("2d12h", "2d12h", 216000),
    (" 2D 12H ", "2d12h", 216000), ("90m", "90m", 5400), ("1h0m", "1h", 3600),
    ("3600s", "3600s", 3600)])
def test_durations_combine_units(given: str, kept: str, seconds: int) -> None:
    from frogpbem.gamefile.model import Deadline

    deadline = Deadline.parse(given)
    assert (deadline.per_move, deadline.seconds) == (kept, seconds)
    assert Deadline.parse(deadline.per_move) == deadline


@pytest.mark.parametrize(("given", "why"), [
    ("30s", "at least 1h"), ("59m", "at least 1h"), ("367d", "at most 366d"),
    ("30m1h", "such as"), ("1h1h", "such as"), ("h", "such as"), ("1.5h", "such as"),
    ("", "such as"), ("1h-30m", "such as"), ("1234567h", "such as")])
def test_durations_out_of_shape_or_range_are_refused(given: str, why: str) -> None:
    from frogpbem.errors import GameFileError
    from frogpbem.gamefile.model import Deadline

    with pytest.raises(GameFileError, match=why):
        Deadline.parse(given)


def test_a_combined_deadline_runs_to_the_second(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, T0)
    game = timed_game(cli, keys, tmp_path, "frogfinder", "forfeit", "--option",
                      "deadline=1h30m")
    at(monkeypatch, "2026-12-01T01:29:59Z")
    assert run(cli, keys, "referee", "timeout", game).exit_code == 4
    at(monkeypatch, "2026-12-01T01:30:00Z")
    assert run(cli, keys, "referee", "timeout", game).exit_code == 0
    assert audit(game, clock=here().clock).ok
    short = cli("new", tmp_path / "short.yaml", "--referee", keys.path("referee"),
                "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                "--option", "deadline=30s")
    assert short.exit_code == 2 and "at least 1h" in short.stderr, short.output


def test_a_referee_whose_clock_went_back_signs_nothing_and_reads_no_copy_from_ahead(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = forfeit_game(cli, keys, tmp_path, monkeypatch, T0)
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(2))
    assert run(cli, keys, "alice", "move", game, MOVE_1).exit_code == 0
    as_user(monkeypatch, tmp_path, "referee")
    assert run(cli, keys, "referee", "move", game).exit_code == 0
    copy = tmp_path / "bob-copy.yaml"
    copy.write_bytes(game.read_bytes())
    as_user(monkeypatch, tmp_path, "bob")
    assert run(cli, keys, "bob", "move", copy, MOVE_2).exit_code == 0
    before = game.read_bytes()
    at(monkeypatch, hours(1))  # the referee's clock, an hour behind the record it signed
    as_user(monkeypatch, tmp_path, "referee")
    taken = run(cli, keys, "referee", "move", game, "--from", copy)
    assert taken.exit_code == 6, taken.output
    assert "bob-copy.yaml: record 1: is dated " + hours(2) + \
        ", 1 hour ahead of this computer's clock" in taken.stderr
    monkeypatch.setenv("FROGPBEM_NOW", hours(1.9))  # within the skew: the copy is read
    refused = run(cli, keys, "referee", "move", game, "--from", copy)
    assert refused.exit_code == 2 and "record 2 would be dated back" in refused.stderr, \
        refused.output
    assert "check this computer's clock" in refused.stderr and game.read_bytes() == before
    at(monkeypatch, "tomorrow")
    wrong = run(cli, keys, "referee", "timeout", game)
    assert wrong.exit_code == 2 and "$FROGPBEM_NOW is 'tomorrow'" in wrong.stderr, wrong.output


def test_a_time_that_is_no_date_is_named(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The schema's pattern lets the 32nd of December through; the check of times names it."""
    from frogpbem.gamefile import strictyaml
    from tests.test_audit import resign

    game = forfeit_game(cli, keys, tmp_path, monkeypatch, T0)
    assert run(cli, keys, "referee", "move", game, MOVE_1, "--seat", "red").exit_code == 0
    doc = strictyaml.loads(game.read_bytes())
    doc["log"][0]["at"] = "2026-12-32T00:00:00Z"
    resign(doc, keys.key("referee"))
    game.write_text(strictyaml.dumps(doc))
    shown = cli("view", game)
    assert shown.exit_code == 7 and "record 1: '2026-12-32T00:00:00Z' is not a UTC time" in \
        shown.stderr, shown.output
    verified = cli("verify", game)
    assert "FAIL times: record 1 '2026-12-32T00:00:00Z' is not a UTC time" in verified.stdout


def rewrite_reserved(signature: str) -> str:
    """``signature`` with its SSHSIG ``reserved`` field filled: bytes the Ed25519 signature
    does not cover, so OpenSSH still verifies it (what a modified referee tool can do)."""
    blob = base64.b64decode(signature)
    pos, fields = 10, []
    for _ in range(5):  # public key, namespace, reserved, hash, signature
        (size,) = struct.unpack(">I", blob[pos:pos + 4])
        fields.append(blob[pos + 4:pos + 4 + size])
        pos += 4 + size
    fields[2] = b"any bytes at all"
    return base64.b64encode(blob[:10] + b"".join(ssh_string(f) for f in fields)).decode()


def forge_last(game: Path, referee: crypto.PrivateKey) -> None:
    """A cheating referee's tool: the last record's request re-written
    (:func:`rewrite_reserved`) and the record signed again."""
    file = parse_game(read_bytes(game), str(game))
    last = file.log[-1]
    forged = replace(last, request=rewrite_reserved(last.request or ""), signature="")
    write_atomic(game, game_bytes(replace(file, log=(*file.log[:-1], forged.signed(referee)))))


def lax_verify(key: crypto.PublicKey, message: bytes, blob: bytes,
               namespace: str = "frogpbem") -> None:
    """Verifying as OpenSSH does, the reserved field skipped (frogpbem before its fix)."""
    raw, hash_name = sshsig._read(key, blob, namespace)
    try:
        key.verifier().verify(raw, sshsig._to_be_signed(message, namespace, hash_name))
    except InvalidSignature:
        raise SignatureError("invalid signature") from None


def test_a_request_signature_re_written_by_the_referee_still_dates_its_record(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee dates red's and blue's moves back, within the game, and re-writes red's
    request signature so that red's tool would not know its own: red forfeits at once.
    The re-written signature does not verify (one text per signature), and red's memory
    knows its request by what it signed, not by that text."""
    game = forfeit_game(cli, keys, tmp_path, monkeypatch, hours(-200))
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(-5))
    assert run(cli, keys, "alice", "move", game, MOVE_1).exit_code == 0
    with monkeypatch.context() as cheat:  # everyone's tool but red's, checking as OpenSSH
        for module in (sshsig, crypto):
            cheat.setattr(module, "verify" if module is sshsig else "verify_blob", lax_verify)
        as_user(cheat, tmp_path, "referee")
        at(cheat, hours(-80))
        assert run(cli, keys, "referee", "move", game).exit_code == 0
        forge_last(game, keys.key("referee"))
        as_user(cheat, tmp_path, "bob")
        at(cheat, hours(-4.9))
        assert run(cli, keys, "bob", "move", game, MOVE_2).exit_code == 0
        as_user(cheat, tmp_path, "referee")
        cheat.setenv("FROGPBEM_STATE", str(tmp_path / "cheat-state"))  # forgets its head
        at(cheat, hours(-80))
        assert run(cli, keys, "referee", "move", game).exit_code == 0
        at(cheat, hours(-8))
        assert run(cli, keys, "referee", "timeout", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(-4.8))
    verified = run(cli, keys, "alice", "verify", game)
    assert verified.exit_code != 0, verified.output
    assert "not in the one form" in verified.output
    assert cli("audit", game).exit_code != 0
    # and were it to verify, red's memory knows the request by its Ed25519 signature
    memory = here().seen.latest(game_id(game))
    assert memory is not None
    with pytest.raises(ChainError, match="record 1: applies the request you signed"):
        check_observed(parse_game(read_bytes(game), str(game)), memory[1].seen_at(),
                       dict(memory[1].signed))


def game_id(game: Path) -> str:
    return parse_game(read_bytes(game), str(game)).game


def test_the_same_move_signed_twice_keeps_its_first_time(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Red, with no answer yet, signs its move again (the same signature: Ed25519 is
    deterministic); the honest record of the first, made before the second, still holds."""
    game = forfeit_game(cli, keys, tmp_path, monkeypatch, T0)
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(0.5))
    assert run(cli, keys, "alice", "move", game, MOVE_1).exit_code == 0
    mine = tmp_path / "alice-copy.yaml"
    mine.write_bytes(game.read_bytes())
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(0.6))
    assert run(cli, keys, "referee", "move", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(1.2))
    again = run(cli, keys, "alice", "move", mine, MOVE_1)
    assert again.exit_code == 0, again.output
    at(monkeypatch, hours(1.3))
    verified = run(cli, keys, "alice", "verify", game)
    assert verified.exit_code == 0, verified.output


def test_a_timeout_seen_sooner_than_the_deadline_after_my_move_is_refused(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The two ten-minute allowances do not add up: red's move dated ten minutes back, its
    forfeit ten minutes ahead, is seen 40 minutes after red signed, with an hour a move."""
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, T0)
    game = timed_game(cli, keys, tmp_path, "frogfinder", "forfeit", "--option", "deadline=1h")
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(1))
    assert run(cli, keys, "alice", "move", game, MOVE_1).exit_code == 0
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(50 / 60))  # red's move dated ten minutes back
    assert run(cli, keys, "referee", "move", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "bob")
    at(monkeypatch, hours(1))
    assert run(cli, keys, "bob", "move", game, MOVE_2).exit_code == 0
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(50 / 60))
    assert run(cli, keys, "referee", "move", game).exit_code == 0
    at(monkeypatch, hours(110 / 60))
    assert run(cli, keys, "referee", "timeout", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(100 / 60))
    verified = run(cli, keys, "alice", "verify", game)
    assert verified.exit_code != 0, verified.output
    assert f"record 3 says red's time ran out, yet this tool first saw it at {hours(100 / 60)}" \
        f", 40 minutes after it signed red's last move ({hours(1)}), less than the 1h a " \
        "move" in verified.stdout
    assert run(cli, keys, "bob", "verify", game).exit_code != 0  # bob's own memory: none
    # the same, honestly: the forfeit seen an hour after red's move holds
    as_user(monkeypatch, tmp_path, "carol")
    at(monkeypatch, hours(2))
    assert run(cli, keys, "alice", "verify", game).exit_code == 0


def join_game(cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """red (alice) against blue (bob), an hour a move, forfeit, each seat joins; created T0;
    both seats join three hours later."""
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, T0)
    game = tmp_path / "joined.yaml"
    made = cli("new", game, "--rules", "frogfinder", "--referee", keys.path("referee"),
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--option", "size=6", "--option", "frogs=2", "--option", "deadline=1h",
               "--option", "on_timeout=forfeit", "--join")
    assert made.exit_code == 0, made.output
    for who in ("alice", "bob"):
        as_user(monkeypatch, tmp_path, who)
        at(monkeypatch, hours(3))
        joined = run(cli, keys, who, "join", game)
        assert joined.exit_code == 0, joined.output
        assert "Once dealt, each seat has 1h a move; after that it forfeits." in joined.output
    return game


@pytest.mark.parametrize(("dealt", "timed_out", "why"), [
    (0, 1, "the deal applies your join at {join}, yet is dated {dealt}, 3 hours before it"),
    (3 - 9 / 60, 4 - 9 / 60, "record 1 says red's time ran out, yet this tool first saw it"),
])
def test_a_deal_dated_before_my_join_cannot_start_my_clock(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        dealt: float, timed_out: float, why: str) -> None:
    """The referee deals at once, dated before the seats joined (at the game's creation, or
    just within the skew), and forfeits red an hour after that date: red's tool knows when
    it joined."""
    game = join_game(cli, keys, tmp_path, monkeypatch)
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(dealt))
    dealt_out = run(cli, keys, "referee", "deal", game)
    assert dealt_out.exit_code == 0, dealt_out.output
    at(monkeypatch, hours(timed_out))
    assert run(cli, keys, "referee", "timeout", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(max(timed_out, 3.1)))
    verified = run(cli, keys, "alice", "verify", game)
    assert verified.exit_code != 0, verified.output
    assert why.format(join=hours(3), dealt=hours(dealt)) in verified.stdout


def test_a_note_re_written_is_not_taken_as_a_second_note(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A copy holding a seat's note with its signature re-written (the same Ed25519
    signature, another text) adds no second note: the referee knows a note by what was
    signed."""
    game = tmp_path / "team.yaml"
    seat_keys = {seat: tmp_path / seat for seat in SEATS}
    args: list[Any] = ["new", game, "--rules", "coan", "--referee", keys.path("referee"),
                       "--option", "size=6", "--option", "frogs=1", "--option", f"teams={TEAMS}",
                       "--setup", write_setup(tmp_path, SETUP)]
    for seat, path in seat_keys.items():
        crypto.generate_key(path, seat)
        args += ["--seat", f"{seat}={path}.pub"]
    assert cli(*args).exit_code == 0
    copy = game.with_name("red-copy.yaml")
    copy.write_bytes(game.read_bytes())
    assert cli("note", copy, "purple's frog is near F1", "--key", seat_keys["red"]).exit_code == 0
    taken = cli("move", game, "--from", copy, "--key", keys.path("referee"))
    assert taken.exit_code == 0, taken.output
    file = parse_game(read_bytes(copy), str(copy))
    note = file.notes[0]
    forged = replace(note, signature=rewrite_reserved(note.signature))
    write_atomic(copy, game_bytes(replace(file, notes=(forged,))))
    cli("move", game, "--from", copy, "--key", keys.path("referee"))
    assert len(parse_game(read_bytes(game), str(game)).notes) == 1


@pytest.mark.parametrize("then", ["forfeit", "pass"])
def test_a_timeout_recorded_though_my_move_was_signed_in_time_is_a_warning(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        then: str) -> None:
    """Red signs its move half an hour into its hour; the referee records red's forfeit (or
    pass) at the deadline instead. Red's tool says so, naming both times, in verify and in
    move's refusal (the game is over, or it is blue's turn): a warning, as only red's own
    clock says when it signed."""
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, T0)
    game = timed_game(cli, keys, tmp_path, "frogfinder", then, "--option", "deadline=1h")
    mine = tmp_path / "alice-copy.yaml"
    mine.write_bytes(game.read_bytes())
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(0.5))
    assert run(cli, keys, "alice", "move", mine, MOVE_1).exit_code == 0
    as_user(monkeypatch, tmp_path, "referee")
    at(monkeypatch, hours(1))
    assert run(cli, keys, "referee", "timeout", game).exit_code == 0
    as_user(monkeypatch, tmp_path, "alice")
    at(monkeypatch, hours(1.1))
    warning = (f"record 1 says red's time ran out (dated {hours(1)}), yet this tool signed "
               f"red's move for that record at {hours(0.5)}, before the deadline ({hours(1)})")
    verified = run(cli, keys, "alice", "verify", game)
    assert verified.exit_code == 0, verified.output
    assert "WARN " + warning in verified.stdout
    assert "no one else can check it" in verified.stdout
    moved = run(cli, keys, "alice", "move", game, MOVE_1)
    assert moved.exit_code != 0 and warning in moved.stderr, moved.output
    as_user(monkeypatch, tmp_path, "referee")  # the referee's mail, read with reply
    assert run(cli, keys, "referee", "mail", game, "--out", tmp_path / "mail").exit_code == 0
    as_user(monkeypatch, tmp_path, "alice")
    [to_red] = (tmp_path / "mail").glob("*-red.eml")
    shown = run(cli, keys, "alice", "reply", to_red, "--games", tmp_path / "alice-games")
    assert shown.exit_code == 0 and shown.stdout.startswith("WARNING: " + warning), shown.output
    as_user(monkeypatch, tmp_path, "bob")
    assert "WARN" not in run(cli, keys, "bob", "verify", game).stdout
    if then == "pass":  # red's next move, signed, still says so
        assert run(cli, keys, "bob", "move", game, MOVE_2).exit_code == 0
        as_user(monkeypatch, tmp_path, "referee")
        assert run(cli, keys, "referee", "move", game).exit_code == 0
        as_user(monkeypatch, tmp_path, "alice")
        moved = run(cli, keys, "alice", "move", game, MOVE_1)
        assert moved.exit_code == 0, moved.output
        assert moved.stdout.startswith("WARNING: " + warning) and "red asks" in moved.stdout


def test_a_header_signed_with_a_deadline_out_of_range_is_refused_where_it_is_read(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``new`` refuses ``deadline=1s``; a header the referee's own tool signed with it (a
    second to answer by mail) is refused by every command that reads it. Before the deal,
    join and the view state the deadline each seat agrees to."""
    game = join_game(cli, keys, tmp_path, monkeypatch)
    shown = cli("view", game)
    assert "Once dealt, each seat has 1h a move; after that it forfeits." in shown.stdout
    assert json.loads(cli("view", game, "--json").stdout)["deadline"] == \
        {"per_move": "1h", "on_timeout": "forfeit"}
    file = parse_game(read_bytes(game), str(game))
    for per_move, why in (("1s", "give at least 1h"), ("366d1s", "at most 366d")):
        header = replace(file.header, deadline=Deadline(per_move, "forfeit"), signature="")
        write_atomic(game, game_bytes(replace(file, header=header.signed(keys.key("referee")),
                                              joins=())))
        for args in (("view", game), ("verify", game), ("join", game, "--key",
                                                        keys.path("alice"))):
            refused = cli(*args)
            assert refused.exit_code == (1 if args[0] == "verify" else 7), refused.output
            assert f"header: deadline {per_move!r}" in refused.stderr + refused.stdout
            assert why in refused.stderr + refused.stdout


def test_a_memory_keyed_by_signature_text_is_read_by_what_was_signed(keys: Keys) -> None:
    """An earlier frogpbem keyed its signed requests by their text: read, each is known by
    the Ed25519 signature inside, two texts of one signature as one, at the earlier time."""
    text = crypto.sign_message(keys.key("alice"), b"frogpbem/1 request\n{}")
    old = {"header": "h", "history": [], "signed": {text: hours(2),
                                                      rewrite_reserved(text): hours(1)}}
    read = Seen.from_json(old)
    assert read.signed == ((signature_mark(text), hours(1)),)
    assert signature_mark(text) == base64.b64encode(base64.b64decode(text)[-64:]).decode()
    assert signature_mark("not base64!") == "not base64!"


def test_times_are_read_as_strptime_reads_them_and_no_laxer() -> None:
    """``seconds_of`` reads times by hand (sparing every command the import of ``_strptime``):
    each real time as ``calendar.timegm(time.strptime(...))`` does, leap days and century
    years too; every time strptime refuses is refused, and so are its lax forms."""
    from frogpbem.errors import GameFileError
    from frogpbem.protocol.times import seconds_of

    def expected(text: str) -> int | None:
        try:
            return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))
        except ValueError:
            return None

    def read(text: str) -> int | None:
        try:
            return seconds_of(text)
        except GameFileError:
            return None

    times = [f"{y:04d}-{m:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z"
             for y in (1, 1600, 1900, 1969, 1970, 2000, 2024, 2026, 2100, 9999)
             for m in (0, 1, 2, 3, 12, 13) for d in (0, 1, 28, 29, 30, 31, 32)
             for h, mi, s in ((0, 0, 0), (23, 59, 59), (24, 0, 0), (12, 60, 0), (1, 2, 61))]
    assert [read(t) for t in times] == [expected(t) for t in times]
    assert read("2024-02-29T00:00:00Z") == 1709164800
    for lax in ("2026-1-2T03:04:05Z", " 2026-01-02T03:04:05Z", "2026-01-02T03:04:05",
                "2026-01-02t03:04:05Z", "\uff12026-01-02T03:04:05Z", "+026-01-02T03:04:05Z"):
        assert read(lax) is None, lax


def test_a_signature_is_marked_alike_however_its_base64_is_written(keys: Keys) -> None:
    """The quick strict decoding of a signature's text marks it as the lenient one did: a
    text wrapped over lines or one with padding strict base64 refuses has the same mark, and
    a text that is not base64 is its own."""
    text = crypto.sign_message(keys.key("alice"), b"frogpbem/1 request\n{}")
    mark = base64.b64encode(base64.b64decode(text)[-64:]).decode()
    wrapped = "\n".join(text[i:i + 70] for i in range(0, len(text), 70))
    assert signature_mark(text) == signature_mark(wrapped) == mark

    def lenient(signature: str) -> str:  # as it was marked before the strict decoding
        try:
            blob = base64.b64decode("".join(signature.split()), validate=True)
        except ValueError:
            return signature
        return base64.b64encode(blob[-64:]).decode() if len(blob) > 64 else signature

    for odd in (text + "==", text[:-4] + "====", text[:-1], "=" + text, text + "A", "QUJD",
                text.replace("A", "-"), mark, ""):
        assert signature_mark(odd) == lenient(odd), odd
    assert Seen.from_json({"header": "h", "history": [], "signed": {mark: hours(1)}}).signed \
        == ((mark, hours(1)),)
