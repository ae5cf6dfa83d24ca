"""Frog Finder without a referee, played by two keys through the command line.

Each seat has a home and a folder of its own; a copy goes from one folder to the other as
a mail would. The moves are chosen at random (a square the tool refuses, the seat's own
frog, is chosen again); the final scores and outcome are those of an independent replay
through the rules with both placements, derived here from the revealed secrets.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from frogpbem import crypto
from frogpbem.board import Square
from frogpbem.gamefile.duelfile import DuelFile, Message, dump_duel, parse_duel
from frogpbem.gamefile.model import JSON
from frogpbem.games.frogfinder import FrogFinder
from frogpbem.games.frogs import State
from tests.conftest import Keys
from tests.duel.conftest import Run, Seat, mail, two_seats
from tests.duel.test_referee_free_frogfinder import independent_placement, names

RULES = FrogFinder()


@pytest.fixture
def seats(tmp_path: Path) -> tuple[Seat, Seat]:
    return two_seats(tmp_path, "red", "blue")


def read(seat: Seat) -> DuelFile:
    return parse_duel(seat.game.read_bytes(), str(seat.game))


def set_up(run: Run, keys: Keys, red: Seat, blue: Seat, size: int, frogs: int) -> None:
    """Create, join and set up until the board is dealt (red's overlap of m = 0)."""
    made = run(red, "new", red.game, "--rules", "frogfinder", "--no-referee",
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--option", f"size={size}", "--option", f"frogs={frogs}")
    assert made.exit_code == 0, made.output
    pair = {red.name: (red, blue), blue.name: (blue, red)}
    mail(red, blue)
    seat = blue
    for _ in range(40):
        done = run(seat, "move", seat.game)
        assert done.exit_code == 0, done.output
        me, other = pair[seat.name]
        mail(me, other)
        if "the board is dealt" in done.stdout:
            return
        seat = other
    raise AssertionError("the setup never ended")


def open_squares(state: State) -> list[str]:
    return [q.name for q in state.board.squares() if q not in state.shots
            and q not in state.revealed and q not in state.misses]


def public_state(seat: Seat, checked: bool = True) -> State:
    """The public state of the seat's copy (not ``checked``: its proofs, which the seat's
    command checked, are not checked again)."""
    from frogpbem.duel.engine import replay

    file = read(seat)
    progress = replay(file, trusted=0 if checked else len(file.messages))
    assert isinstance(progress.state, State)
    return progress.state


def play_out(run: Run, red: Seat, blue: Seat, rng: random.Random) -> None:
    """Random moves until the game is over, then each seat's reveal."""
    pair = {"red": (red, blue), "blue": (blue, red)}
    seat = red
    for _ in range(400):
        state = public_state(seat)
        if RULES.to_move(state) is None:
            break
        moved = {m.move.split()[-1] for m in read(seat).messages if m.move}  # one pending
        squares = [q for q in open_squares(state) if q not in moved]
        rng.shuffle(squares)
        for square in squares:
            kind = "shoot" if rng.random() < 0.6 else "guess"
            done = run(seat, "move", seat.game, f"{kind} {square}")
            if done.exit_code == 0:
                break
            if "game is over" in done.output:  # the answer ended it
                done = run(seat, "move", seat.game)
                assert done.exit_code == 0, done.output
                break
            assert done.exit_code == 4 and "your own frog" in done.output, done.output
        me, other = pair[seat.name]
        mail(me, other)
        seat = other
    # the last answer may be in: each seat reveals with its next command
    for _ in range(3):
        file = read(seat)
        if {m.seat for m in file.messages if m.reveal} == {"red", "blue"}:
            return
        done = run(seat, "move", seat.game)
        assert done.exit_code == 0 or "nothing to add" in done.output, done.output
        me, other = pair[seat.name]
        mail(me, other)
        seat = other
    file = read(seat)
    assert {m.seat for m in file.messages if m.reveal} == {"red", "blue"}


def independent_replay(file: DuelFile) -> State:
    """The game replayed by the rules with both placements, from the revealed secrets and
    the accepted attempt (the number of overlaps shown with m > 0)."""
    header = file.header
    size, frogs = int(header.options["size"]), int(header.options["frogs"])
    secrets = {m.seat: m.reveal for m in file.messages if m.reveal}
    join = file.messages[0].join
    assert join is not None
    publics = {"blue": join.public,
               "red": next(m.public for m in file.messages if m.public)}
    overlaps = [m.step("overlap") for m in file.messages if m.step("overlap")]
    attempt = sum(1 for o in overlaps if isinstance(o, dict) and o["count"] != 0)
    placed: dict[str, JSON | None] = {}
    for seat, other in (("red", "blue"), ("blue", "red")):
        secret = secrets[seat]
        assert secret is not None
        placed[seat] = {"frogs": names(independent_placement(
            header.game, seat, secret, publics[other], attempt, size, frogs))}
    state = RULES.start(RULES.options({"size": size, "frogs": frogs}), ("red", "blue"), None,
                        placed)
    for message in file.messages:
        if message.move is not None:
            state, _ = RULES.play(state, message.seat, RULES.parse_move(message.move))
        elif message.resign:
            state, _ = RULES.play(state, message.seat, RULES.parse_move("resign"))
    return state


@pytest.mark.parametrize(("size", "frogs", "seed"), [(6, 2, 1)])
def test_referee_free_frogfinder_whole_game_through_the_cli(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], size: int, frogs: int,
        seed: int) -> None:
    red, blue = seats
    set_up(as_seat, keys, red, blue, size, frogs)
    play_out(as_seat, red, blue, random.Random(seed))
    file = read(red)
    assert dump_duel(file) == dump_duel(read(blue))
    verified = as_seat(red, "verify", red.game, key=False)
    assert verified.exit_code == 0, verified.output
    assert "red's revealed secret gives its placement and every commitment" in verified.stdout
    public = public_state(red)
    full = independent_replay(file)
    assert RULES.outcome(public) == RULES.outcome(full) is not None
    assert RULES.scores(public) == RULES.scores(full)
    # each sealed secret opens for its own seat alone
    join = file.messages[0].join
    assert join is not None
    assert crypto.sealed_to_exactly(file.header.secret.sealed,
                                    [crypto.load_public_key(keys.pub("alice").read_text())])
    assert crypto.sealed_to_exactly(join.sealed,
                                    [crypto.load_public_key(keys.pub("bob").read_text())])


def forge(seat: Seat, keys: Keys, player: str, change: Callable[[Message], Message]) -> None:
    """The last message changed by ``change`` and signed again by its own seat's key."""
    file = read(seat)
    last = change(file.messages[-1])
    signed = last.signed(keys.key(player))
    seat.game.write_bytes(dump_duel(DuelFile(file.header, (*file.messages[:-1], signed))))


def test_referee_free_frogfinder_12x12_game_through_the_cli(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """A whole game on the full board, as short as a game goes: each seat shoots an empty
    square once (a count, proven), then red guesses blue's frogs one by one (found,
    opened) while blue guesses empty squares (misses); the placements are derived from the
    secrets here (hashlib) and the refereed rules with both of them judge every move. (What
    a command costs is bench/bench_duel.py's to measure, not a test's.)"""
    red, blue = seats
    set_up(as_seat, keys, red, blue, 12, 3)
    placed = placements(keys, red, checked=False)  # the seats' commands checked the proofs
    full = RULES.start(RULES.options({"size": 12, "frogs": 3}), ("red", "blue"), None,
                       {s: {"frogs": names(placed[s])} for s in ("red", "blue")})
    empty = iter(empty_squares(full, placed))
    blues = iter(sorted(placed["blue"], key=lambda q: (q.row, q.col)))
    plans = {"red": iter([f"shoot {next(empty).name}",
                          *(f"guess {q.name}" for q in blues)]),
             "blue": iter([f"shoot {next(empty).name}",
                           *(f"guess {q.name}" for q in empty)])}
    full, other = play_plans(as_seat, full, plans, red, blue)
    assert placed["blue"] <= set(full.revealed)  # blue is out
    done = as_seat(other, "move", other.game)  # the last answer (and reveal)
    assert done.exit_code == 0, done.output
    public = public_state(other, checked=False)
    assert RULES.outcome(public) == RULES.outcome(full) is not None
    assert RULES.scores(public) == RULES.scores(full)
    assert public.revealed == full.revealed and public.misses == full.misses
    assert public.shots == full.shots and len(full.shots) == 2


# --- refused on arrival ----------------------------------------------------------------------


def play_plans(run: Run, full: State, plans: dict[str, Iterator[str]], red: Seat,
               blue: Seat) -> tuple[State, Seat]:
    """Each seat's planned moves through its own command line, each copy mailed to the
    other seat, as long as the refereed rules (``full``, every frog in it) want a move;
    the final state, and the seat that holds the last copy but has not answered it."""
    pair = {"red": (red, blue), "blue": (blue, red)}
    other = blue
    while (mover := RULES.to_move(full)) is not None:
        move = next(plans[mover])
        me, other = pair[mover]
        done = run(me, "move", me.game, move)
        assert done.exit_code == 0, done.output
        full, _ = RULES.play(full, mover, RULES.parse_move(move))
        mail(me, other)
    return full, other


def placements(keys: Keys, seat: Seat, checked: bool = True) -> dict[str, frozenset[Square]]:
    """Both seats' frogs in ``seat``'s copy (:func:`file_placements`)."""
    return file_placements(read(seat), keys, checked)


def file_placements(file: DuelFile, keys: Keys, checked: bool = True
                    ) -> dict[str, frozenset[Square]]:
    """Both seats' frogs, from their secrets opened with their keys and the spec's dealer
    computed here (hashlib) (not ``checked``: the copy's proofs are not checked again)."""
    from frogpbem.duel.engine import own_secret, replay

    progress = replay(file, trusted=0 if checked else len(file.messages))
    header = file.header
    size, frogs = int(header.options["size"]), int(header.options["frogs"])
    join = file.messages[0].join
    assert join is not None
    publics = {"blue": join.public, "red": next(m.public for m in file.messages if m.public)}
    overlaps = [m.step("overlap") for m in file.messages if m.step("overlap")]
    attempt = sum(1 for o in overlaps if isinstance(o, dict) and o["count"] != 0)
    placed = {}
    for name, player, other in (("red", "alice", "blue"), ("blue", "bob", "red")):
        secret = own_secret(progress, file, name, keys.key(player))
        assert secret is not None
        publics_other = publics[other]
        assert publics_other is not None
        placed[name] = independent_placement(header.game, name, secret.secret, publics_other,
                                             attempt, size, frogs)
    return placed


def empty_squares(state: State, placed: dict[str, frozenset[Square]]) -> list[Square]:
    taken = placed["red"] | placed["blue"]
    return [q for q in state.board.squares() if q.name in open_squares(state)
            and q not in taken]


def arrives(run: Run, seat: Seat, data: bytes, sentence: str, status: int,
            *words: str) -> None:
    """``data`` arriving in ``seat``'s folder is refused by its ``move`` with ``status`` and
    ``sentence``, the file unchanged byte for byte."""
    seat.game.write_bytes(data)
    refused = run(seat, "move", seat.game, *words)
    assert refused.exit_code == status, refused.output
    assert sentence in refused.stderr, refused.stderr
    assert "Traceback" not in refused.output
    assert seat.game.read_bytes() == data


def signed_again(file: DuelFile, keys: Keys, player: str, message: Message) -> bytes:
    """``file`` with its last message replaced by ``message``, signed by ``player``."""
    return dump_duel(DuelFile(file.header, (*file.messages[:-1],
                                            message.signed(keys.key(player)))))


def answer_of(message: Message) -> dict[str, JSON]:
    part = message.step("answer")
    assert isinstance(part, dict)
    return part


def with_answer(message: Message, part: dict[str, JSON]) -> Message:
    from dataclasses import replace

    return replace(message, steps={**(message.steps or {}), "answer": part})


@pytest.fixture
def dealt(as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]
          ) -> tuple[dict[str, frozenset[Square]], list[Square]]:
    red, blue = seats
    set_up(as_seat, keys, red, blue, 6, 2)
    placed = placements(keys, red)
    return placed, empty_squares(public_state(red), placed)


def test_referee_free_frogfinder_a_square_off_the_board_is_refused(
        as_seat: Run, seats: tuple[Seat, Seat],
        dealt: tuple[dict[str, frozenset[Square]], list[Square]]) -> None:
    """Refused in one sentence before any proof is made of it (it once reached the count
    box's commitments, off their end), and the copy is left as it was."""
    red, _ = seats
    assert dealt
    before = red.game.read_bytes()
    for move in ("shoot G6", "guess A7"):
        done = as_seat(red, "move", red.game, move)
        assert done.exit_code == 4 and "is off the board (A1..F6)" in done.output, done.output
    assert red.game.read_bytes() == before


def test_referee_free_frogfinder_false_answers_refused_on_arrival(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat],
        dealt: tuple[dict[str, frozenset[Square]], list[Square]]) -> None:
    red, blue = seats
    placed, empty = dealt
    blue_frog = sorted(placed["blue"], key=lambda q: (q.row, q.col))[0]
    assert as_seat(red, "move", red.game, f"shoot {empty[0].name}").exit_code == 0
    mail(red, blue)
    assert as_seat(blue, "move", blue.game, f"shoot {empty[1].name}").exit_code == 0
    good = read(blue)
    last = good.messages[-1]
    to = answer_of(last)["to"]
    assert isinstance(to, dict) and set(to) == {"count", "count_blinding", "empty"}
    n, shot = last.n, empty[0].name
    count = int(str(to["count"]))
    # a wrong count
    lie = with_answer(last, {**answer_of(last), "to": {**to, "count": count + 1}})
    arrives(as_seat, red, signed_again(good, keys, "bob", lie),
            f"message {n} (blue): blue's count {count + 1} around {shot} does not open both "
            "seats' commitments", 6, "shoot", empty[2].name)
    # a false hit: blue claims a frog on the empty square
    lie = with_answer(last, {**answer_of(last), "to": {"bit": 1,
                                                       "blinding": to["count_blinding"]}})
    arrives(as_seat, red, signed_again(good, keys, "bob", lie),
            f"message {n} (blue): blue's answer does not open its commitment at {shot}", 6)
    # an answer missing: blue's message has its move and no answer
    lie = with_answer(last, {"move": answer_of(last)["move"]})
    arrives(as_seat, red, signed_again(good, keys, "bob", lie),
            f"message {n} (blue): blue's message lacks its answer to red's move", 6)
    # the good copy arrives; red answers and shoots blue's frog
    mail(blue, red)
    assert as_seat(red, "move", red.game, f"shoot {blue_frog.name}").exit_code == 0
    mail(red, blue)
    assert as_seat(blue, "move", blue.game, f"guess {empty[3].name}").exit_code == 0
    good = read(blue)
    last = good.messages[-1]
    to = answer_of(last)["to"]
    assert isinstance(to, dict) and to["bit"] == 1
    # a false miss: blue's frog answered as no frog
    lie = with_answer(last, {**answer_of(last), "to": {**to, "bit": 0}})
    arrives(as_seat, red, signed_again(good, keys, "bob", lie),
            f"message {last.n} (blue): blue's answer does not open its commitment at "
            f"{blue_frog.name}", 6)


def test_referee_free_frogfinder_moved_proof_and_unmade_move_refused_on_arrival(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat],
        dealt: tuple[dict[str, frozenset[Square]], list[Square]]) -> None:
    red, blue = seats
    _placed, empty = dealt
    assert as_seat(red, "move", red.game, f"shoot {empty[0].name}").exit_code == 0
    # an answer to a move that was never made: red's first move answers one of blue's
    made = read(red)
    last = made.messages[-1]
    lie = with_answer(last, {**answer_of(last), "to": {"bit": 0, "blinding": "01" + "00" * 31}})
    arrives(as_seat, blue, signed_again(made, keys, "alice", lie),
            f"message {last.n} (red): red answers a move that was not made", 6)
    mail(red, blue)
    assert as_seat(blue, "move", blue.game, f"guess {empty[1].name}").exit_code == 0
    first = answer_of(read(blue).messages[-1])["to"]
    assert isinstance(first, dict) and "empty" in first
    mail(blue, red)
    assert as_seat(red, "move", red.game, f"shoot {empty[2].name}").exit_code == 0
    mail(red, blue)
    assert as_seat(blue, "move", blue.game, f"guess {empty[3].name}").exit_code == 0
    good = read(blue)
    last = good.messages[-1]
    to = answer_of(last)["to"]
    assert isinstance(to, dict) and "empty" in to
    # the empty proof of the first shot, moved to the second
    lie = with_answer(last, {**answer_of(last), "to": {**to, "empty": first["empty"]}})
    arrives(as_seat, red, signed_again(good, keys, "bob", lie),
            f"message {last.n} (blue): blue's empty proof at {empty[2].name} does not hold",
            6)


def forfeit_words(square: Square, n: int) -> str:
    return (f"red forfeits: its count box for its shoot {square.name} (message {n}) was "
            "proven false by blue")


def blue_setup_of(file: DuelFile) -> tuple[int, dict[str, JSON]]:
    """The accepted attempt and blue's setup of it (the last)."""
    overlaps = [m.step("overlap") for m in file.messages if m.step("overlap")]
    attempt = sum(1 for o in overlaps if isinstance(o, dict) and o["count"] != 0)
    setup = [m.step("setup") for m in file.messages if m.seat == "blue" and m.step("setup")]
    assert isinstance(setup[-1], dict)
    return attempt, setup[-1]


def test_referee_free_frogfinder_false_count_box_is_proven_false_and_red_forfeits(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat],
        dealt: tuple[dict[str, frozenset[Square]], list[Square]]) -> None:
    """Red seals a count off by one: blue's tool keeps the copy and says the box is false;
    blue's next command answers with the complaint (its move is not played), red forfeits,
    no reveal is due, and every view and verify says why."""
    from frogpbem.board import Board
    from frogpbem.crypto.group import Point, Scalar
    from frogpbem.duel.engine import own_secret, replay
    from frogpbem.duel.frogfinder import Commitments, Context, CountPart, seal_box

    red, blue = seats
    placed, empty = dealt
    near = next(q for q in empty if any(n in placed["red"]
                                        for n in Board(6).neighbours(q)))
    assert as_seat(red, "move", red.game, f"shoot {near.name}").exit_code == 0
    made = read(red)
    last = made.messages[-1]
    progress = replay(DuelFile(made.header, made.messages[:-1]))
    secret = own_secret(progress, made, "red", keys.key("alice"))
    assert secret is not None
    attempt, blue_setup = blue_setup_of(made)
    board = Board(6)
    ctx = Context(made.game, made.header.hash, "red", attempt)
    around = [q for q in board.neighbours(near) if q in placed["red"]]
    blinding = sum((secret.blinding(attempt, q.name) for q in board.neighbours(near)),
                   Scalar(0))
    box = seal_box(ctx, secret, board, Commitments.from_json(blue_setup["commitments"], board),
                   Point.from_hex(blue_setup["box_key"], "blue's box key"), last.n, near,
                   CountPart(len(around) + 1, blinding))
    part = answer_of(last)
    move = part["move"]
    assert isinstance(move, dict)
    lie = with_answer(last, {**part, "move": {**move, "box": box.to_json()}})
    forged = signed_again(made, keys, "alice", lie)
    blue.game.write_bytes(forged)
    seen = as_seat(blue, "view", blue.game)
    assert seen.exit_code == 0, seen.output
    notice = (f"red's count box for its shot at {near.name} is false: your next message "
              "proves it (red forfeits)")
    assert notice in seen.stdout
    hinted = as_seat(blue, "hint", blue.game)
    assert hinted.exit_code == 0, hinted.output
    assert notice in hinted.stdout
    assert blue.game.read_bytes() == forged  # kept as it came
    other = next(q for q in empty if q != near)
    answered = as_seat(blue, "move", blue.game, f"shoot {other.name}")
    assert answered.exit_code == 0, answered.output
    assert f"your move shoot {other.name} was not played" in answered.stdout
    assert f"game over: {forfeit_words(near, last.n)}" in answered.stdout
    complaint = answer_of(read(blue).messages[-1])["to"]
    assert isinstance(complaint, dict) and set(complaint) == {"complaint"}
    spectator = Seat("public", "nobody", red.folder)  # red's own tool saw its true message 5
    mail(blue, red)
    for command in ("view", "verify", "audit"):
        said = as_seat(blue, command, blue.game)
        assert said.exit_code == 0, said.output
        assert forfeit_words(near, last.n) in said.stdout, said.stdout
        public = as_seat(spectator, command, red.game, key=False)
        assert public.exit_code == 0, public.output
        assert forfeit_words(near, last.n) in public.stdout and "pending" not in public.stdout
    audited = as_seat(blue, "audit", blue.game).stdout
    assert f"blue's complaint, proven (a box proof; with its keys anyone opens the box): " \
        f"{forfeit_words(near, last.n)}" in audited
    shown = json.loads(as_seat(blue, "view", blue.game, "--json").stdout)
    assert shown["ending"] == forfeit_words(near, last.n)
    recorded = json.loads(as_seat(blue, "record", blue.game, "--json", key=False).stdout)
    assert recorded["termination"] == forfeit_words(near, last.n)
    again = as_seat(blue, "move", blue.game, f"shoot {other.name}")
    assert again.exit_code != 0 and "the game is over" in again.stderr, again.output
    # what a notary's clock waits for (frogpbem.mail.notary): nobody, not even a reveal
    from frogpbem.duel.engine import waiting
    from frogpbem.duel.registry import duel_rules

    ended = replay(read(red))
    assert ended.over and waiting(ended, duel_rules("frogfinder")) == ()


def test_referee_free_frogfinder_complaint_against_a_true_box_refused(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat],
        dealt: tuple[dict[str, frozenset[Square]], list[Square]]) -> None:
    """Blue answers red's true box with a complaint (its true keys and a true proof): red's
    tool opens the box with them, finds it true, and refuses the message; a complaint where
    no move waits is refused too."""
    from frogpbem.board import Board
    from frogpbem.crypto.group import G, H
    from frogpbem.duel.engine import own_secret, replay
    from frogpbem.duel.frogfinder import Commitments, Context, CountBox, complain

    red, blue = seats
    _placed, empty = dealt
    assert as_seat(red, "move", red.game, f"shoot {empty[0].name}").exit_code == 0
    first = read(red)
    mine = first.messages[-1]
    odd = {"complaint": {"key": G.hex(), "shared": H.hex(), "proof": ["01" + "00" * 31] * 3}}
    arrives(as_seat, blue, signed_again(first, keys, "alice",
                                        with_answer(mine, {**answer_of(mine), "to": odd})),
            "red answers a move that was not made", 6)
    mail(red, blue)
    assert as_seat(blue, "move", blue.game, f"guess {empty[1].name}").exit_code == 0
    good = read(blue)
    last = good.messages[-1]
    secret = own_secret(replay(good), good, "blue", keys.key("bob"))
    assert secret is not None
    board = Board(6)
    attempt, blue_setup = blue_setup_of(good)
    moved = answer_of(good.messages[-2])["move"]
    assert isinstance(moved, dict)
    made = complain(Context(good.game, good.header.hash, "blue", attempt), secret, board,
                    Commitments.from_json(blue_setup["commitments"], board),
                    1, empty[0], CountBox.from_json(moved["box"]))  # move 1 of the game
    part = answer_of(last)
    lie = with_answer(last, {**part, "to": {"complaint": made.to_json()}})
    arrives(as_seat, red, signed_again(good, keys, "bob", lie),
            f"blue's complaint is false: the count box for the shot at {empty[0].name} "
            "opens the mover's commitments", 6)
    # a complaint against blue's guess, which has no box
    mail(blue, red)
    assert as_seat(red, "move", red.game, f"guess {empty[2].name}").exit_code == 0
    after = read(red)
    mine = after.messages[-1]
    lie = with_answer(mine, {**answer_of(mine), "to": {"complaint": made.to_json()}})
    arrives(as_seat, blue, signed_again(after, keys, "alice", lie),
            f"red complains about guess {empty[1].name}, which has no count box", 6)


def test_referee_free_frogfinder_rolled_back_and_forked_copies_refused(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat],
        dealt: tuple[dict[str, frozenset[Square]], list[Square]]) -> None:
    from dataclasses import replace

    red, blue = seats
    _placed, empty = dealt
    older = read(red)
    assert as_seat(red, "move", red.game, f"shoot {empty[0].name}").exit_code == 0
    mail(red, blue)
    assert as_seat(blue, "move", blue.game, f"guess {empty[1].name}").exit_code == 0
    good = read(blue)
    mail(blue, red)
    assert as_seat(red, "view", red.game).exit_code == 0  # red's tool sees message n
    arrives(as_seat, red, dump_duel(older),
            f"is older than a copy of game {good.game} you saw before (it ends at message "
            f"{len(older.messages)}, you have seen message {len(good.messages)}): a "
            "rollback; use the latest copy", 8)
    last = good.messages[-1]
    other = replace(last, move=None, resign=True,
                    steps={"answer": {"to": answer_of(last)["to"]}})
    arrives(as_seat, red, signed_again(good, keys, "bob", other),
            f"FORK: message {last.n} differs from the message {last.n} you saw before, both "
            "signed by blue: refusing it", 11)


def test_referee_free_frogfinder_answer_that_ends_the_game_is_written_without_the_move(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """Red's guess finds blue's last frog: blue's command with a move writes its answer (and
    its reveal), says the move was not played, and exits 0."""
    red, blue = seats
    set_up(as_seat, keys, red, blue, 4, 1)
    placed = placements(keys, red)
    (frog,) = placed["blue"]
    assert as_seat(red, "move", red.game, f"guess {frog.name}").exit_code == 0
    mail(red, blue)
    free = next(q for q in empty_squares(public_state(blue), placed))
    done = as_seat(blue, "move", blue.game, f"shoot {free.name}")
    assert done.exit_code == 0, done.output
    assert f"your move shoot {free.name} was not played: your answer ended the game" in \
        done.stdout
    last = read(blue).messages[-1]
    assert last.move is None and last.reveal is not None and answer_of(last).keys() == {"to"}
    assert RULES.outcome(public_state(blue)) is not None


def test_referee_free_frogfinder_resignation_carries_the_answer(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat],
        dealt: tuple[dict[str, frozenset[Square]], list[Square]]) -> None:
    red, blue = seats
    _placed, empty = dealt
    assert as_seat(red, "move", red.game, f"shoot {empty[0].name}").exit_code == 0
    mail(red, blue)
    done = as_seat(blue, "move", blue.game, "resign")
    assert done.exit_code == 0, done.output
    last = read(blue).messages[-1]
    assert last.resign and answer_of(last).keys() == {"to"}
    played = replay_played(read(blue))
    assert [p.result is not None for p in played] == [True, True]
    # a resignation without the answer is refused on arrival
    bare = signed_again(read(blue), keys, "bob", _without_steps(last))
    arrives(as_seat, red, bare, f"message {last.n} (blue): blue's message lacks its answer "
            "to red's move", 6)


def replay_played(file: DuelFile) -> tuple[object, ...]:
    from frogpbem.duel.engine import replay

    return tuple(replay(file).played)


def _without_steps(message: Message) -> Message:
    from dataclasses import replace

    return replace(message, steps=None)


def test_referee_free_frogfinder_view_and_hint_are_the_refereed_ones(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat],
        dealt: tuple[dict[str, frozenset[Square]], list[Square]]) -> None:
    """Each seat's ``view --json`` and ``hint --json`` are those of the refereed rules
    playing the answered moves with both placements (a pending move not yet on the board)."""
    import json

    red, blue = seats
    placed, empty = dealt
    full = RULES.start(RULES.options({"size": 6, "frogs": 2}), ("red", "blue"), None,
                       {s: {"frogs": names(placed[s])} for s in ("red", "blue")})
    moves = [("red", f"shoot {empty[0].name}"), ("blue", f"guess {empty[1].name}"),
             ("red", f"shoot {empty[2].name}")]
    answered = full
    for index, (name, move) in enumerate(moves):
        me, other = (red, blue) if name == "red" else (blue, red)
        assert as_seat(me, "move", me.game, move).exit_code == 0
        mail(me, other)
        if index:  # the answer to the move before is in: it is on the board
            answered = full
        full, _ = RULES.play(full, name, RULES.parse_move(move))
        for seat in seats:
            shown = json.loads(as_seat(seat, "view", seat.game, "--json").stdout)
            expected = RULES.view(answered, frozenset({seat.name}))
            assert shown["state"] == expected.to_json()
            assert shown["moves"][-1]["result"] is None  # the last move awaits its answer
            hinted = json.loads(as_seat(seat, "hint", seat.game, "--json").stdout)
            assert RULES.hints is not None
            assert hinted == RULES.hints.hint(expected, seat.name)
        public = json.loads(as_seat(red, "view", red.game, "--public", "--json").stdout)
        assert public["state"] == RULES.view(answered, frozenset()).to_json()


def test_referee_free_frogfinder_red_sees_its_board_before_its_overlap_step(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """Once blue's setup is in, red's tool (which finds the overlap itself) shows red the
    board its first move goes on, its own frogs on it, so red need not shoot blind: the
    view is the refereed rules' view of the dealt start, and red's first move deals it."""
    import json

    red, blue = seats
    made = as_seat(red, "new", red.game, "--rules", "frogfinder", "--no-referee",
                   "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                   "--option", "size=6", "--option", "frogs=2")
    assert made.exit_code == 0, made.output
    mail(red, blue)
    for seat, other in [(blue, red), (red, blue)] * 20:
        if seat is red:
            shown = json.loads(as_seat(red, "view", red.game, "--json").stdout)
            if shown.get("state") is not None:
                break
        done = as_seat(seat, "move", seat.game)
        assert done.exit_code == 0, done.output
        mail(seat, other)
    else:
        raise AssertionError("red never saw a board before its overlap step")
    assert read(red).messages[-1].seat == "blue"  # red has not sent its overlap step
    text = as_seat(red, "view", red.game).stdout
    assert "only you see it now" in text
    view = RULES.read_view(shown["state"])
    open_square = next(q for q in open_squares_of(view) if q not in own_frogs(view))
    first = as_seat(red, "move", red.game, f"shoot {open_square}")
    assert first.exit_code == 0, first.output
    assert "the board is dealt" in first.stdout
    placed = placements(keys, red)
    start = RULES.start(RULES.options({"size": 6, "frogs": 2}), ("red", "blue"), None,
                        {s: {"frogs": names(placed[s])} for s in ("red", "blue")})
    assert shown["state"] == RULES.view(start, frozenset({"red"})).to_json()



def open_squares_of(view: object) -> list[str]:
    from frogpbem.games.frogs_notation import FrogsView

    assert isinstance(view, FrogsView)
    return [f"{chr(65 + c)}{r + 1}" for r in range(view.size) for c in range(view.size)]


def own_frogs(view: object) -> set[str]:
    from frogpbem.games.frogs_notation import FrogsView

    assert isinstance(view, FrogsView)
    return set(view.own_frogs.get("red", ()))


def test_referee_free_frogfinder_a_reveal_before_the_end_is_refused_on_arrival(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """A seat that shows its secret early (in its join, before its setup) would have its
    later commitments never checked against its seeded placement, so it could place its
    frogs where it liked: the other seat's tool refuses the message on arrival."""
    from dataclasses import replace

    from frogpbem.duel.engine import own_secret, replay

    red, blue = seats
    made = as_seat(red, "new", red.game, "--rules", "frogfinder", "--no-referee",
                   "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                   "--option", "size=5", "--option", "frogs=2")
    assert made.exit_code == 0, made.output
    mail(red, blue)
    assert as_seat(blue, "move", blue.game).exit_code == 0  # blue joins
    good = read(blue)
    secret = own_secret(replay(good), good, "blue", keys.key("bob"))
    assert secret is not None
    early = replace(good.messages[-1], reveal=secret.secret)
    arrives(as_seat, red, signed_again(good, keys, "bob", early),
            "message 1 (blue): blue reveals its secret before the game is over", 6)
