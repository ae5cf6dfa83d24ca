"""Frog Finder without a referee in which each seat places its own frogs (``new
--no-referee --placed players``; docs/format.md, "Frog Finder without a referee").

Two keys play through the command line as in test_referee_free_frogfinder_cli. Each seat
places its frogs with ``move --setup "A1 B2"``; the expected results come from the
refereed rules (:class:`FrogFinder`) started with those placements, never from the duel
code; the overlap test and the refused setups check the sentences and that a refused
command leaves the file as it was.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.board import Board, Square
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.duel.frogfinder_rules import SETUP_WORDS
from frogpbem.errors import GameFileError, NotationError
from frogpbem.gamefile.duelfile import parse_duel
from frogpbem.games.frogs import State
from tests.conftest import Keys, Result
from tests.duel.conftest import Run, Seat, mail, two_seats
from tests.duel.test_referee_free_frogfinder_cli import (
    RULES,
    play_plans,
    public_state,
    read,
)

SIZE, FROGS = 5, 2


@pytest.fixture
def seats(tmp_path: Path) -> tuple[Seat, Seat]:
    return two_seats(tmp_path, "red", "blue")


def create(run: Run, keys: Keys, red: Seat, blue: Seat, *extra: str) -> None:
    """Red creates a game whose seats place their own frogs; blue joins."""
    made = run(red, "new", red.game, "--rules", "frogfinder", "--no-referee",
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--option", f"size={SIZE}", "--option", f"frogs={FROGS}", *extra)
    assert made.exit_code == 0, made.output
    mail(red, blue)
    joined = run(blue, "move", blue.game)
    assert joined.exit_code == 0, joined.output
    mail(blue, red)


def refused(run: Run, seat: Seat, status: int, sentence: str, *words: str) -> str:
    """``seat``'s ``move`` with ``words`` is refused with ``status`` and ``sentence``, its
    file unchanged byte for byte; the refusal's text."""
    before = seat.game.read_bytes()
    done = run(seat, "move", seat.game, *words)
    assert done.exit_code == status, done.output
    assert sentence in done.stderr, done.stderr
    assert "Traceback" not in done.output
    assert seat.game.read_bytes() == before
    return done.stderr


def place(run: Run, seat: Seat, other: Seat, squares: str, *move: str) -> str:
    done = run(seat, "move", seat.game, "--setup", squares, *move)
    assert done.exit_code == 0, done.output
    mail(seat, other)
    return done.stdout


def squares(text: str) -> frozenset[Square]:
    return frozenset(Square.parse(name) for name in text.split())


def refereed(red_frogs: str, blue_frogs: str) -> State:
    """The refereed rules' start with these placements (the independent judge)."""
    return RULES.start(RULES.options({"size": SIZE, "frogs": FROGS}), ("red", "blue"), None,
                       {"red": {"frogs": red_frogs.split()},
                        "blue": {"frogs": blue_frogs.split()}})


def test_referee_free_placed_whole_game_through_the_cli(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """Both seats place their frogs; red shoots an empty square (a count), then guesses
    blue's frogs; blue shoots and guesses empty squares. Every result and the outcome are
    the refereed rules' with the same placements; verify and audit pass with no reveal."""
    red, blue = seats
    create(as_seat, keys, red, blue, "--placed", "players")
    assert read(red).header.placed == "players"
    refused(as_seat, red, 2, "red places its 2 frogs first")
    place(as_seat, red, blue, "A1 B2")
    refused(as_seat, blue, 2, "blue places its 2 frogs first")
    place(as_seat, blue, red, "E5, D4")  # commas are fine too
    full = refereed("A1 B2", "D4 E5")
    taken = squares("A1 B2 D4 E5")
    empty = [q.name for q in full.board.squares() if q not in taken]
    plans = {"red": iter(["shoot C3", "guess D4", "guess E5"]),
             "blue": iter([f"shoot {empty[-1]}", *(f"guess {name}" for name in empty)])}
    full, _ = play_plans(as_seat, full, plans, red, blue)
    done = as_seat(blue, "move", blue.game)  # blue's last answer: red found its frogs
    assert done.exit_code == 0, done.output
    mail(blue, red)
    file = read(red)
    assert not any(m.reveal for m in file.messages)  # nothing revealed
    public = public_state(red)
    assert RULES.outcome(public) == RULES.outcome(full) is not None
    assert RULES.scores(public) == RULES.scores(full)
    assert public.revealed == full.revealed and public.misses == full.misses
    assert public.shots == full.shots and len(full.shots) == 2
    verified = as_seat(red, "verify", red.game, key=False)
    assert verified.exit_code == 0, verified.output
    assert "reveal pending" not in verified.stdout
    audited = as_seat(red, "audit", red.game, key=False)
    assert audited.exit_code == 0, audited.output
    assert "each placement was its seat's own choice" in audited.stdout
    assert "has not revealed" in audited.stdout  # and nothing rests on it
    for args in (("view", red.game, "--public"), ("record", red.game),
                 ("view", red.game, "--public", "--format", "svg")):
        shown = as_seat(red, *args, key=False)
        assert shown.exit_code == 0, shown.output
    record = as_seat(red, "record", red.game, key=False).stdout
    assert '[Setup "placed by each seat itself, without a referee"]' in record


def test_referee_free_placed_overlap_both_choose_again(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """Placements sharing B2: red's tool refuses to go on until red places again, saying
    only that the placements overlapped; then blue's the same; the next attempt starts."""
    red, blue = seats
    create(as_seat, keys, red, blue, "--placed", "players")
    place(as_seat, red, blue, "A1 B2")
    place(as_seat, blue, red, "B2 C3")
    said = refused(as_seat, red, 2, "your placement overlapped blue's: place your 2 frogs "
                   "again", "shoot E1")
    said = said.replace(SETUP_WORDS, "")  # its example aside,
    assert "B2" not in said  # which square is not said
    place(as_seat, red, blue, "A1 B2")  # the overlap step goes with red's new placement
    said = refused(as_seat, blue, 2, "your placement overlapped red's").replace(SETUP_WORDS,
                                                                                 "")
    assert "B2" not in said and "C3" not in said
    place(as_seat, blue, red, "D4 E5")
    done = as_seat(red, "move", red.game, "shoot C3")
    assert done.exit_code == 0 and "the board is dealt" in done.stdout, done.output
    mail(red, blue)
    done = as_seat(blue, "move", blue.game, "guess A5")
    assert done.exit_code == 0, done.output
    file = read(blue)
    counts = [step["count"] for m in file.messages
              if isinstance(step := m.step("overlap"), dict)]
    assert counts == [1, 0]
    full, _ = RULES.play(refereed("A1 B2", "D4 E5"), "red", RULES.parse_move("shoot C3"))
    assert public_state(blue).shots == full.shots and len(full.shots) == 1


@pytest.mark.parametrize(("setup", "sentence"), [
    ("A1", 'give 2 distinct squares of the board A1..E5, e.g. --setup "A1 B2": got 1 '
           "square"),
    ("A1 B2 C3", "got 3 squares"),
    ("B2 b2", "B2 is given twice"),
    ("A1 F6", "square F6 is off the board (A1..E5)"),
    ("A1 ZZ", "expected a square such as 'G9'"),
])
def test_referee_free_placed_bad_setup_refused(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], setup: str,
        sentence: str) -> None:
    red, blue = seats
    create(as_seat, keys, red, blue, "--placed", "players")
    refused(as_seat, red, 3, sentence, "--setup", setup)


def test_referee_free_placed_refused_elsewhere(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """``--placed`` only for Frog Finder without a referee; a dealt game takes no
    placement; a placed game refuses blue's before red's and a second one."""
    red, blue = seats
    bad = as_seat(red, "new", red.folder / "x.yaml", "--rules", "froglet", "--no-referee",
                  "--seat", f"white={keys.pub('alice')}", "--seat", f"black={keys.pub('bob')}",
                  "--placed", "players")
    assert bad.exit_code == 2 and "--placed takes players, and only with --rules " \
        "frogfinder" in bad.stderr, bad.output
    bad = as_seat(red, "new", red.folder / "y.yaml", "--placed", "players",
                  "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}")
    assert bad.exit_code == 2 and "--placed is for --no-referee" in bad.stderr, bad.output
    create(as_seat, keys, red, blue)  # dealt: the default
    assert b"placed" not in red.game.read_bytes()
    refused(as_seat, red, 2, "this game's frogs are dealt from both seeds", "--random")
    red.game.unlink()
    blue.game.unlink()
    create(as_seat, keys, red, blue, "--placed", "players")
    refused(as_seat, blue, 2, "blue places its frogs after red's setup", "--random")
    place(as_seat, red, blue, "C3 D4")
    mail(blue, red)
    refused(as_seat, red, 2, "red has placed its frogs already", "--setup", "A1 B2")


def test_referee_free_placed_random_and_header(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """``--random`` places frogs its tool draws (the game goes on); the header's ``placed``
    is signed, and is refused on another ruleset or with another value."""
    red, blue = seats
    create(as_seat, keys, red, blue, "--placed", "players")
    done = as_seat(red, "move", red.game, "--random")
    assert done.exit_code == 0, done.output
    mail(red, blue)
    done = as_seat(blue, "move", blue.game, "--random")
    assert done.exit_code == 0, done.output
    mail(blue, red)
    for _ in range(6):  # red's overlap, perhaps both seats place again
        done = first_shot(as_seat, red)
        if done.exit_code == 0:
            break
        assert "your placement overlapped" in done.stderr, done.output
        place_random(as_seat, red, blue)
        place_random(as_seat, blue, red)
    assert "the board is dealt" in done.stdout, done.output
    data = red.game.read_bytes()
    assert b"\n  placed: players\n" in data
    for old, new in ((b"  placed: players", b"  placed: dealt"),
                     (b"  rules: frogfinder", b"  rules: froglet")):
        with pytest.raises(GameFileError):
            parse_duel(data.replace(old, new, 1), "game.yaml")
    changed = data.replace(b"  placed: players\n", b"", 1)  # the signature covers it
    red.game.write_bytes(changed)
    verified = as_seat(red, "verify", red.game, key=False)
    assert verified.exit_code != 0 and "signed" in verified.output, verified.output


def first_shot(run: Run, red: Seat) -> Result:
    """Red's overlap step with its first shot, at a square without its own frog (which
    its tool refuses, exit 4: the next is tried)."""
    for square in ("C3", "A1", "E5"):  # 2 frogs: one of these is free
        done = run(red, "move", red.game, f"shoot {square}")
        if done.exit_code != 4:
            return done
        assert "your own frog" in done.stderr, done.output
    raise AssertionError("no free square among three for two frogs")


def place_random(run: Run, seat: Seat, other: Seat) -> None:
    done = run(seat, "move", seat.game, "--random")
    assert done.exit_code == 0, done.output
    mail(seat, other)


# --- the protocol functions --------------------------------------------------------------


names_of = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=6)


@given(names_of)
def test_referee_free_placed_chosen_squares(pairs: list[tuple[int, int]]) -> None:
    """A setup of distinct squares is exactly those squares; any square twice is refused."""
    from frogpbem.duel.frogfinder import chosen_placement

    board = Board(SIZE)
    text = " ".join(f"{'ABCDE'[c]}{r + 1}" for c, r in pairs)
    if len(set(pairs)) == len(pairs):
        assert chosen_placement(text, board, len(pairs)) == \
            frozenset(Square(c, r) for c, r in pairs)
    else:
        with pytest.raises(NotationError, match="is given twice"):
            chosen_placement(text, board, len(pairs))


@settings(max_examples=8, deadline=None)
@given(st.sets(st.integers(0, 8), min_size=1, max_size=4), st.integers(0, 3),
       st.binary(min_size=4, max_size=4))
def test_referee_free_placed_own_frogs_found_again(chosen: set[int], attempt: int,
                                                   salt: bytes) -> None:
    """The seat's tool finds its frogs again from its commitments and secret alone (and
    another seat's secret finds none of them)."""
    from frogpbem.duel.frogfinder import Context, commit_placement, own_placement

    board = Board(3)
    frogs = frozenset(Square(i % 3, i // 3) for i in chosen)
    secret = SeatSecret("game-" + salt.hex(), "red", random.Random(salt).randbytes(32).hex())
    other = SeatSecret("game-" + salt.hex(), "blue", random.Random(salt[::-1]).randbytes(32)
                       .hex())
    made = commit_placement(Context("game-" + salt.hex(), "sha256:" + "0" * 64, "red",
                                    attempt), secret, board, frogs)
    assert own_placement(secret, board, attempt, made) == frogs
    assert own_placement(other, board, attempt, made) == frozenset()
    assert own_placement(secret, board, attempt + 1, made) == frozenset()
