"""The outside review of the engine, Secret Move and the notary: each attack reproduced.

Each test plays the attack of one finding (``/tmp/review-duel`` in the review) through
the command line, as a seat or the notary would meet it, and failed before its fix.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from frogpbem.crypto import proofs
from frogpbem.crypto.group import Scalar
from frogpbem.gamefile.duelfile import DuelFile, Stamp, Timeout, dump_duel, parse_duel
from frogpbem.protocol.times import seconds_of, text_of
from tests import test_referee_free_notary as notary_tests
from tests.conftest import Cli, Keys, Result
from tests.duel.test_referee_free_cli import choose, independent_replay
from tests.duel.test_referee_free_secretmove_cli import CHOSEN_BLUE, setup_words
from tests.test_judge import DOMAIN
from tests.test_referee_free_notary import (
    HOUR,
    NOTARY,
    T0,
    Relay,
    Seat,
    Table,
    at,
    attached,
    letter,
)

table = notary_tests.table  # the notary tests' fixtures, used here too
notarised = notary_tests.notarised

RED, BLUE = f"alice@{DOMAIN}", f"bob@{DOMAIN}"
RED_HEADERS = (0, 3, 5, 1, 2, 4)


@pytest.fixture
def sm_table(cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    """Red and blue of a Secret Move game (in the notary tests' table: red as its first
    seat, blue as its second)."""
    red = Seat("red", "alice", RED, tmp_path / "alice")
    blue = Seat("blue", "bob", BLUE, tmp_path / "bob")
    for seat in (red, blue):
        seat.folder.mkdir()
    monkeypatch.setenv("FROGPBEM_NOW", T0)
    return Table(cli, keys, tmp_path, monkeypatch, red, blue)


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def to_the_reveals(table: Table, notary: bool) -> tuple[Relay | None, str]:
    """Red creates a Secret Move game (with the notary and a 1h deadline, or without);
    blue joins with its headers, red sets up and passes, blue passes, both guess, and
    red reveals: blue's reveal is the last message the game waits for. Each message
    goes five minutes after the one before, through the notary when there is one."""
    red, blue = table.white, table.black
    extra = ("--notary", table.keys.pub("referee"), "--deadline", "1h", "--email",
             f"red={RED}", "--email", f"blue={BLUE}", "--email", f"notary={NOTARY}") \
        if notary else ()
    ok(table.run(red, "new", red.game, "--rules", "secretmove", "--no-referee", "--seat",
                 f"red={table.keys.pub('alice')}", "--seat", f"blue={table.keys.pub('bob')}",
                 *extra))
    game = parse_duel(red.game.read_bytes(), "new").game
    relay = Relay(table) if notary else None
    if relay is not None:
        relay.post(letter(red, red.game.read_bytes()))
        relay.round()
    steps = [(blue, ("--setup", setup_words(CHOSEN_BLUE))),
             (red, ("--setup", setup_words(RED_HEADERS), "pass")), (blue, ("pass",)),
             (red, ("guess 111/222/333",)), (blue, ("guess 444/555/666",)), (red, ())]
    holder = red
    for minutes, (seat, args) in enumerate(steps, 1):
        table.clock(at(300 * minutes))
        if relay is not None:
            seat.game.write_bytes(attached(relay.inbox(seat.address)[-1]))
        else:
            seat.game.write_bytes(holder.game.read_bytes())
        ok(table.run(seat, "move", seat.game, *args))
        holder = seat
        if relay is not None:
            relay.post(letter(seat, seat.game.read_bytes()))
            assert any("stamped message" in line for line in relay.round())
    blue.game.write_bytes(red.game.read_bytes())
    return relay, game


def test_referee_free_review_a_withheld_reveal_runs_a_clock_and_forfeits(
        sm_table: Table) -> None:
    """Finding 1: once the moves are over, blue (which sees it lost, or claimed a false
    automatic pass) never reveals. Its reveal runs a clock from red's last stamp; the
    notary records its timeout, which forfeits; its late reveal is refused."""
    table = sm_table
    relay, game = to_the_reveals(table, notary=True)
    assert relay is not None
    red_reveal = at(300 * 6)  # red's reveal, stamped then: blue's clock runs from it
    notarised = relay.games / f"{game}.yaml"
    pending = ok(table.run(table.white, "verify", notarised, key=False))
    assert "outcome pending: blue has not revealed" in pending.stdout
    table.clock(text_of(seconds_of(red_reveal) + HOUR - 1))
    assert relay.round() == []  # a second before blue's deadline
    deadline = text_of(seconds_of(red_reveal) + HOUR)
    table.clock(deadline)
    log = relay.round()
    assert log[0] == f"game {game}: blue's deadline passed ({deadline}): timeout recorded " \
                     f"at {deadline}; blue forfeits", log
    checked = ok(table.run(table.white, "verify", notarised, key=False))
    assert "game over: blue forfeits on time" in checked.stdout
    audited = table.run(table.white, "audit", notarised, key=False)
    assert audited.exit_code == 0 and "blue forfeits on time" in audited.stdout, \
        audited.output
    # blue's reveal, late, on the copy it had: the notary refuses it
    table.clock(text_of(seconds_of(deadline) + 60))
    blue = table.black
    ok(table.run(blue, "move", blue.game))
    relay.post(letter(blue, blue.game.read_bytes(), "late reveal"))
    before = notarised.read_bytes()
    took = [line for line in relay.round() if line.startswith("message ")]
    assert took and "the notary recorded blue's timeout" in took[0], took
    assert notarised.read_bytes() == before


def test_referee_free_review_a_reveal_timeout_is_checked_like_any(
        sm_table: Table) -> None:
    """Finding 1, the checks anyone makes: a timeout of the seat whose reveal is due,
    dated at its deadline, holds; one dated before it, or naming the seat that revealed,
    is refused (exit 6)."""
    table = sm_table
    relay, game = to_the_reveals(table, notary=True)
    assert relay is not None
    path = relay.games / f"{game}.yaml"
    file = parse_duel(path.read_bytes(), "notarised")
    notary = table.keys.key("referee")
    red_reveal = file.stamps[-1].at
    deadline = seconds_of(red_reveal) + HOUR
    table.clock(text_of(deadline + 600))
    cases = [("blue", deadline, 0, "game over: blue forfeits on time"),
             ("blue", deadline - 1, 6, "before blue's deadline passed"),
             ("red", deadline, 6, "names red, but it was blue's step")]
    for seat, when, status, words in cases:
        timeout = Timeout(len(file.messages), file.messages[-1].hash, seat,
                          text_of(when)).signed(notary)
        copy = path.with_name("forged.yaml")
        copy.write_bytes(dump_duel(DuelFile(file.header, file.messages, file.stamps,
                                            timeout)))
        checked = table.run(table.white, "verify", copy, key=False)
        assert checked.exit_code == status, checked.output
        assert words in checked.output, checked.output


def test_referee_free_review_without_a_notary_verify_and_audit_name_the_withholder(
        sm_table: Table) -> None:
    """Finding 1 without a notary: verify and audit name the seat whose reveal the
    outcome waits for (the audit said "waiting for None")."""
    table = sm_table
    to_the_reveals(table, notary=False)
    red = table.white
    checked = ok(table.run(red, "verify", red.game, key=False))
    assert checked.stdout.rstrip().endswith("outcome pending: blue has not revealed")
    audited = table.run(red, "audit", red.game, key=False)
    assert audited.exit_code == 10, audited.output
    assert "blue has not revealed" in audited.stdout and "None" not in audited.stdout


def test_referee_free_review_a_reveal_stamped_after_its_deadline_is_refused(
        sm_table: Table) -> None:
    """Finding 1: a reveal the notary would stamp after the seat's deadline is refused
    (the notary records the timeout then instead)."""
    table = sm_table
    relay, game = to_the_reveals(table, notary=True)
    assert relay is not None
    path = relay.games / f"{game}.yaml"
    blue = table.black
    file = parse_duel(path.read_bytes(), "notarised")
    late = text_of(seconds_of(file.stamps[-1].at) + HOUR + 5)
    table.clock(late)
    blue.game.write_bytes(path.read_bytes())
    ok(table.run(blue, "move", blue.game))
    mine = parse_duel(blue.game.read_bytes(), "blue's")
    stamp = Stamp(mine.messages[-1].n, mine.messages[-1].hash, late).signed(
        table.keys.key("referee"))
    forged = path.with_name("late.yaml")
    forged.write_bytes(dump_duel(DuelFile(mine.header, mine.messages,
                                          (*mine.stamps, stamp))))
    checked = table.run(table.white, "verify", forged, key=False)
    assert checked.exit_code == 6, checked.output
    assert "when its deadline had passed" in checked.stderr, checked.stderr


def test_referee_free_review_a_message_dated_in_the_future_is_refused(
        sm_table: Table) -> None:
    """Finding 2: blue's tool, its clock set to 2099, writes its reveal; red's tool took
    it and then refused red's own messages ("your clock is behind"). Every command that
    reads the copy refuses it now, blaming blue in one sentence (exit 6), the file
    unchanged; within the skew, red's tool signs the last message's time."""
    table = sm_table
    to_the_reveals(table, notary=False)
    red, blue = table.white, table.black
    table.clock("2099-01-01T00:00:00Z")
    ok(table.run(blue, "move", blue.game))  # blue's reveal, dated 2099 by its clock
    table.clock(at(3600))
    red.game.write_bytes(blue.game.read_bytes())
    before = red.game.read_bytes()
    for command, key in (("verify", False), ("view", True), ("move", True),
                         ("audit", False)):
        said = table.run(red, command, red.game, key=key)
        if command == "audit":  # the audit's verdict: failed
            assert said.exit_code == 1 and "ahead of this computer's clock" in said.stdout
            continue
        assert said.exit_code == 6, said.output
        assert "message 7: dated 2099-01-01T00:00:00Z by blue, more than 10 minutes ahead " \
               "of this computer's clock" in said.stderr, said.stderr
        assert "blue signed a time that has not come yet" in said.stderr
        assert said.stderr.count("\n") == 1 and "Traceback" not in said.output
        assert red.game.read_bytes() == before


def test_referee_free_review_a_clock_a_little_behind_signs_the_last_time(
        sm_table: Table) -> None:
    """Also checked: a seat's clock up to 10 minutes behind the last message signs that
    message's time (times never go back); more than 10 minutes behind, the copy is
    refused as dated ahead of its clock (exit 6), the file unchanged."""
    table = sm_table
    to_the_reveals(table, notary=False)
    blue = table.black
    last = parse_duel(blue.game.read_bytes(), "copy").messages[-1].at
    table.clock(text_of(seconds_of(last) - 601))
    before = blue.game.read_bytes()
    behind = table.run(blue, "move", blue.game)
    assert behind.exit_code == 6 and "more than 10 minutes ahead" in behind.stderr, \
        behind.output
    assert blue.game.read_bytes() == before
    table.clock(text_of(seconds_of(last) - 599))
    ok(table.run(blue, "move", blue.game))
    assert parse_duel(blue.game.read_bytes(), "copy").messages[-1].at == last


def test_referee_free_review_secretmove_refuses_a_reused_nonce(
        sm_table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 5: a tool whose nonces repeat (here every scalar of its stream is one
    number) makes proofs that verify one by one but give the witness away; Secret Move
    refuses a game in which two proofs share a first message, as Frog Finder does: in
    one setup, and across two legal proofs of later messages."""
    table = sm_table
    red, blue = table.white, table.black
    ok(table.run(red, "new", red.game, "--rules", "secretmove", "--no-referee", "--seat",
                 f"red={table.keys.pub('alice')}", "--seat", f"blue={table.keys.pub('bob')}"))
    blue.game.write_bytes(red.game.read_bytes())
    honest = proofs._nonces
    monkeypatch.setattr(proofs, "_nonces", lambda *_: itertools.repeat(Scalar.of(12345)))
    before = blue.game.read_bytes()
    said = table.run(blue, "move", blue.game, "--setup", setup_words(CHOSEN_BLUE))
    assert said.exit_code == 6 and "a reused nonce" in said.stderr, said.output
    assert blue.game.read_bytes() == before
    monkeypatch.setattr(proofs, "_nonces", honest)
    ok(table.run(blue, "move", blue.game, "--setup", setup_words(CHOSEN_BLUE)))
    red.game.write_bytes(blue.game.read_bytes())
    ok(table.run(red, "move", red.game, "--setup", setup_words(RED_HEADERS), "A1-B1 1"))
    blue.game.write_bytes(red.game.read_bytes())
    ok(table.run(blue, "move", blue.game, "pass"))
    red.game.write_bytes(blue.game.read_bytes())
    monkeypatch.setattr(proofs, "_nonces", lambda *_: itertools.repeat(Scalar.of(777)))
    ok(table.run(red, "move", red.game, "B1-C1 1"))  # one proof alone shares nothing
    before = red.game.read_bytes()
    again = table.run(red, "move", red.game, "A2-B2 1")
    assert again.exit_code == 6 and "a reused nonce" in again.stderr, again.output
    assert red.game.read_bytes() == before


def test_referee_free_review_a_stripped_timeout_is_a_rollback(
        notarised: tuple[Table, Relay, Path]) -> None:
    """Finding 3: white, timed out, strips the notary's timeout from its copy and moves
    on; black's tool, which saw the timeout, took the copy. It refuses it now as a
    rollback (exit 8), the file unchanged, and still takes the copy with the timeout."""
    table, _relay, path = notarised
    white, black = table.white, table.black
    black.game.write_bytes(path.read_bytes())
    shown = ok(table.run(black, "view", black.game))
    assert "white forfeits on time" in shown.stdout
    file = parse_duel(path.read_bytes(), "notarised")
    white.game.write_bytes(dump_duel(DuelFile(file.header, file.messages, file.stamps)))
    table.step(white, random.Random(2))  # white's tool never saw the timeout: it moves
    stripped = black.folder / "stripped.yaml"
    stripped.write_bytes(white.game.read_bytes())
    before = stripped.read_bytes()
    for command in ("view", "verify", "move"):
        said = table.run(black, command, stripped, *(("resign",) if command == "move"
                                                      else ()))
        assert said.exit_code == 8, said.output
        assert "holds no notary's timeout, but the copy of game" in said.stderr
        assert said.stderr.count("\n") == 1 and "Traceback" not in said.output
        assert stripped.read_bytes() == before
    ok(table.run(black, "view", black.game))


def froglet_crossing(table: Table, notary: bool) -> tuple[str, Relay | None]:
    """White (alice) creates a Froglet game, black joins, white reveals; then white moves
    (message 3) while black, on its copy, resigns (message 3 too): the two cross. With a
    notary, white's move reaches it first and is stamped; black's resignation is not.
    Returns white's move."""
    white, black = table.white, table.black
    relay = None
    if notary:
        table.create("--deadline", "1h")
        relay = Relay(table)
        relay.post(letter(white, white.game.read_bytes()))
        relay.round()
        black.game.write_bytes(attached(relay.inbox(black.address)[-1]))
    else:
        ok(table.run(white, "new", white.game, "--rules", "froglet", "--no-referee",
                     "--seat", f"white={table.keys.pub('alice')}", "--seat",
                     f"black={table.keys.pub('bob')}", "--option", "size=4"))
        black.game.write_bytes(white.game.read_bytes())
    for minutes, seat in ((5, black), (10, white)):
        table.clock(at(60 * minutes))
        ok(table.run(seat, "move", seat.game))  # black's join; white's reveal alone
        if relay is not None:
            relay.post(letter(seat, seat.game.read_bytes()))
            relay.round()
            table.other(seat).game.write_bytes(
                attached(relay.inbox(table.other(seat).address)[-1]))
        else:
            table.other(seat).game.write_bytes(seat.game.read_bytes())
    table.clock(at(60 * 15))
    file = parse_duel(white.game.read_bytes(), "white's")
    move = choose(independent_replay(file), random.Random(4))
    ok(table.run(white, "move", white.game, move))
    ok(table.run(black, "move", black.game, "resign"))
    if relay is not None:
        relay.post(letter(white, white.game.read_bytes()))
        assert any("stamped message 3 (white)" in line for line in relay.round())
    return move, relay


def test_referee_free_review_a_resignation_crossing_a_move_wins_without_a_notary(
        table: Table) -> None:
    """Finding 4: black's resignation crossed white's move (both message 3): white's
    tool called it a FORK (exit 11). The resignation wins: white's tool takes black's
    copy and says its move was void (exit 0); black's tool refuses white's copy as
    void (exit 8); verify --against says no one seat signed two (exit 6)."""
    white, black = table.white, table.black
    move, _ = froglet_crossing(table, notary=False)
    mine = white.folder / "white-copy.yaml"
    mine.write_bytes(white.game.read_bytes())
    white.game.write_bytes(black.game.read_bytes())
    said = ok(table.run(white, "verify", white.game, key=False))
    assert f"message 3 you saw before (white's move {move}) is void: black's " \
           "resignation crossed it as message 3 and wins (a resignation is valid " \
           "whenever it arrives)" in said.stdout, said.stdout
    shown = ok(table.run(white, "view", white.game))  # taken: said once
    assert "game over: black resigned" in shown.stdout and "void" not in shown.stdout
    over = table.run(white, "move", white.game, "resign")
    assert over.exit_code == 4 and "the game is over" in over.stderr, over.output
    against = table.run(white, "verify", white.game, "--against", mine, key=False)
    assert against.exit_code == 6 and "no one seat signed two" in against.stderr, \
        against.output
    theirs = black.folder / "white-copy.yaml"
    theirs.write_bytes(mine.read_bytes())
    before = theirs.read_bytes()
    refused = table.run(black, "view", theirs)
    assert refused.exit_code == 8, refused.output
    assert f"its message 3 (move {move}) crossed black's message 3 (resignation) you " \
           "saw before, which wins" in refused.stderr, refused.stderr
    assert refused.stderr.count("\n") == 1 and theirs.read_bytes() == before


def test_referee_free_review_with_a_notary_the_stamped_message_wins_a_crossing(
        table: Table) -> None:
    """Finding 4 with a notary: white's move reached it first and was stamped; black's
    tool, holding its own resignation as message 3, takes the notary's copy, says its
    resignation was void and to send it again as message 4; it does, and the notary
    stamps it."""
    black = table.black
    move, relay = froglet_crossing(table, notary=True)
    assert relay is not None
    black.game.write_bytes(attached(relay.inbox(black.address)[-1]))
    said = ok(table.run(black, "view", black.game))
    assert "message 3 you saw before (black's resignation) is void: white's move " \
           f"{move} crossed it as message 3 and wins (the notary stamped it); to resign " \
           "still, send a resignation as message 4 (frogpbem move GAME resign)" \
        in said.stdout, said.stdout
    resigned = ok(table.run(black, "move", black.game, "resign"))
    assert "game over: black resigned" in resigned.stdout
    relay.post(letter(black, black.game.read_bytes()))
    assert any("stamped message 4 (black)" in line for line in relay.round())
