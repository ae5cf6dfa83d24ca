"""Frog Finder without a referee (frogpbem.duel.frogfinder): whole games played in memory by
two seats, checked move by move against the rules engine holding both seats' frogs (the
independent referee); every false value refused; red's views and hints the same, byte for
byte, as a refereed game's and whatever blue's frogs are behind the same public results."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from frogpbem.board import Board, Square
from frogpbem.crypto.countbox import seal_count
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.crypto.group import H, L, Point, Scalar, commit
from frogpbem.crypto.proofs import (
    Proof,
    bit_statement,
    overlap_statement,
    prove,
    verified_first_messages,
)
from frogpbem.duel.frogfinder import (
    Answer,
    Commitments,
    Complaint,
    Context,
    CountBox,
    CountPart,
    Mask,
    MoverPart,
    Overlap,
    Selection,
    answer,
    check_answer,
    check_commitments,
    check_complaint,
    check_fresh_nonces,
    check_mask,
    check_mover_part,
    check_overlap,
    check_selection,
    commit_placement,
    complain,
    find_overlap,
    make_mask,
    make_selection,
    mover_part,
    open_box,
    placement,
    seal_box,
)
from frogpbem.duel.frogfinder_rules import FrogFinderProgress
from frogpbem.errors import GameFileError, IllegalMoveError, ProofError
from frogpbem.games.frogfinder import FrogFinder
from frogpbem.games.frogs import State
from frogpbem.games.frogs_notation import FrogResult, FrogsView, Guess, Shoot
from frogpbem.jsonvalue import JSON, same_json

RULES = FrogFinder()
HEADER = "sha256:" + "ab" * 32
OTHER = {"red": "blue", "blue": "red"}


def secret_of(game: str, seat: str) -> SeatSecret:
    """A fixed secret per game and seat (tests are reproducible)."""
    return SeatSecret(game, seat, hashlib.sha256(f"{game}/{seat}".encode()).hexdigest())


def names(squares: frozenset[Square]) -> list[JSON]:
    return [q.name for q in sorted(squares, key=lambda q: (q.col, q.row))]


def canonical(value: JSON) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# --- an independent placement --------------------------------------------------------------


def independent_placement(game: str, seat: str, secret: str, other: str, attempt: int,
                          size: int, frogs: int) -> frozenset[Square]:
    """The spec's placement computed here from hashlib and hmac alone: the deal key, the
    HMAC-SHA256 stream, rejection sampling and a partial Fisher-Yates over A1, B1, ..."""
    fields: JSON = {"game": game, "seat": seat, "secret": secret, "other": other,
                    "attempt": attempt}
    key = hashlib.sha512(b"frogpbem/1 duel-deal\n" + canonical(fields).encode()).digest()[:32]
    stream = b"".join(hmac.new(key, n.to_bytes(8, "big"), "sha256").digest()
                      for n in range(64))
    at = 0

    def below(stop: int) -> int:
        nonlocal at
        bits = (stop - 1).bit_length()
        while True:
            width = (bits + 7) // 8
            value = int.from_bytes(stream[at:at + width], "big") & ((1 << bits) - 1)
            at += width
            if value < stop:
                return value

    pool = [Square(col, row) for row in range(size) for col in range(size)]
    for index in range(frogs):
        other_index = index + below(len(pool) - index)
        pool[index], pool[other_index] = pool[other_index], pool[index]
    return frozenset(pool[:frogs])


def test_referee_free_placement_is_the_specs_fair_dealer() -> None:
    for size, frogs, attempt in [(5, 2, 0), (8, 4, 3), (12, 5, 1)]:
        red, blue = secret_of("ff-place", "red"), secret_of("ff-place", "blue")
        got = placement(red, Board(size), frogs, blue.public_seed(), attempt)
        assert got == independent_placement("ff-place", "red", red.secret, blue.public_seed(),
                                            attempt, size, frogs)
        assert len(got) == frogs
        assert got != placement(red, Board(size), frogs, blue.public_seed(), attempt + 1)


# --- a whole game in memory ----------------------------------------------------------------


@dataclass
class Seat:
    """One seat's side of a game: its secret, its placement and its commitments."""

    secret: SeatSecret
    frogs: frozenset[Square]
    commitments: Commitments


@dataclass
class Duel:
    """Two seats that set up a game and play it by the protocol alone."""

    game: str
    board: Board
    frogs: int
    seats: dict[str, Seat]
    attempt: int
    mask: Mask
    selection: Selection
    overlap: Overlap
    firsts: list[Point] = field(default_factory=list)
    """The first messages of every proof the seats checked, every attempt's."""
    overlaps: list[tuple[int, int]] = field(default_factory=list)
    """Per discarded or accepted attempt: (the count shown, the placements' real overlap)."""
    moves: int = 0
    """Moves played: a move's number ``n`` is one more."""

    def ctx(self, seat: str) -> Context:
        return Context(self.game, HEADER, seat, self.attempt)

    def box_key(self, seat: str) -> Point:
        """``A = a·H``: the seat's box key of the accepted attempt (its setup shows it)."""
        return self.seats[seat].secret.box_key(self.attempt) * H

    def play(self, mover: str, move: Shoot | Guess) -> FrogResult:
        """The move by the protocol: the mover's part, checked by the other seat and by a
        spectator; the other's answer, checked by the mover (with its count part) and by a
        spectator (without); both must give the same result."""
        me, them = self.seats[mover], self.seats[OTHER[mover]]
        self.moves += 1
        n = self.moves
        part, count = mover_part(me.secret, self.attempt, self.board, me.frogs, move)
        check_mover_part(self.board, me.commitments, move, part, count)
        check_mover_part(self.board, me.commitments, move, part)
        opened = None
        if count is not None:
            box = CountBox.from_json(seal_box(self.ctx(mover), me.secret, self.board,
                                              them.commitments, self.box_key(OTHER[mover]),
                                              n, move.square, count).to_json())
            if move.square not in them.frogs:  # only then can the answerer open it
                opened = open_box(self.ctx(mover), them.secret, self.board, me.commitments,
                                  n, move.square, box)
                assert opened == count
        actx = self.ctx(OTHER[mover])
        given = answer(actx, them.secret, self.board, them.frogs, n, move, opened)
        result, _ = check_answer(actx, self.board, n, move, them.commitments, me.commitments,
                                 given, count)
        public, _ = check_answer(actx, self.board, n, move, them.commitments, me.commitments,
                                 Answer.from_json(given.to_json()))
        assert public == result
        return result


def set_up(game: str, size: int, frogs: int, placed: dict[str, frozenset[Square]] | None = None
           ) -> Duel:
    """Both seats' setups, attempt after attempt until the placements share no square; each
    value checked by the other seat. ``placed`` places the frogs by hand (one attempt)."""
    board = Board(size)
    red, blue = secret_of(game, "red"), secret_of(game, "blue")
    overlaps: list[tuple[int, int]] = []
    firsts: list[Point] = []
    for attempt in itertools.count():
        if placed is not None:
            red_frogs, blue_frogs = placed["red"], placed["blue"]
        else:
            red_frogs = placement(red, board, frogs, blue.public_seed(), attempt)
            blue_frogs = placement(blue, board, frogs, red.public_seed(), attempt)
        ctx_red = Context(game, HEADER, "red", attempt)
        ctx_blue = ctx_red.of("blue")
        red_c = commit_placement(ctx_red, red, board, red_frogs)
        blue_c = commit_placement(ctx_blue, blue, board, blue_frogs)
        firsts += check_commitments(ctx_red, board, frogs,
                                    Commitments.from_json(red_c.to_json(), board))
        firsts += check_commitments(ctx_blue, board, frogs, blue_c)
        mask = make_mask(ctx_red, red, board, red_frogs, red_c)
        firsts += check_mask(ctx_red, board, red_c, Mask.from_json(mask.to_json(), board))
        selection = make_selection(ctx_blue, blue, board, blue_frogs, red_c, mask)
        firsts += check_selection(ctx_blue, board, blue_c, red_c, mask,
                                  Selection.from_json(selection.to_json(), board))
        overlap = find_overlap(ctx_red, red, frogs, mask, selection)
        firsts += check_overlap(ctx_red, mask, selection,
                                Overlap.from_json(overlap.to_json(), frogs), frogs)
        overlaps.append((overlap.count, len(red_frogs & blue_frogs)))
        if overlap.count == 0:
            return Duel(game, board, frogs,
                        {"red": Seat(red, red_frogs, red_c), "blue": Seat(blue, blue_frogs,
                                                                         blue_c)},
                        attempt, mask, selection, overlap, firsts, overlaps)
    raise AssertionError("unreachable")


def start(duel: Duel, know_blue: bool) -> State:
    options = RULES.options({"size": duel.board.size, "frogs": duel.frogs})
    secrets: dict[str, JSON | None] = {
        "red": {"frogs": names(duel.seats["red"].frogs)},
        "blue": {"frogs": names(duel.seats["blue"].frogs)} if know_blue else None}
    return RULES.start(options, RULES.seat_order, None, secrets)


def random_move(full: State, rng: random.Random) -> tuple[str, Shoot | Guess]:
    """A legal move of the seat to move, chosen at random among the open squares."""
    mover = RULES.to_move(full)
    assert mover is not None
    own = full.hidden[mover] or frozenset()
    open_squares = [q for q in full.board.squares() if q not in full.shots
                    and q not in full.revealed and q not in full.misses and q not in own]
    square = rng.choice(open_squares)
    return mover, (Shoot(square) if rng.random() < 0.6 else Guess(square))


def overlapping_then_not(size: int, frogs: int) -> str:
    """A game id whose attempt 0 placements share a square and attempt 1's do not."""
    board = Board(size)
    for n in itertools.count():
        game = f"ff-overlap-{size}-{frogs}-{n}"
        red, blue = secret_of(game, "red"), secret_of(game, "blue")
        share = [placement(red, board, frogs, blue.public_seed(), k)
                 & placement(blue, board, frogs, red.public_seed(), k) for k in (0, 1)]
        if share[0] and not share[1]:
            return game
    raise AssertionError("unreachable")


@pytest.mark.parametrize(("size", "frogs", "seed"), [(5, 2, 1), (6, 4, 2), (7, 3, 3),
                                                     (8, 4, 4), (5, 4, 5)])
def test_referee_free_game_ends_as_the_full_knowledge_replay(size: int, frogs: int,
                                                             seed: int) -> None:
    game = overlapping_then_not(size, frogs)
    duel = set_up(game, size, frogs)
    # attempt 0 was discarded with the placements' true overlap; attempt 1 accepted
    assert duel.attempt == 1
    assert duel.overlaps[0][0] == duel.overlaps[0][1] > 0
    assert duel.overlaps[1] == (0, 0)
    assert not duel.seats["red"].frogs & duel.seats["blue"].frogs
    check_fresh_nonces(duel.firsts)
    full, reds = start(duel, know_blue=True), start(duel, know_blue=False)
    rng = random.Random(seed)
    moves = 0
    while RULES.to_move(full) is not None:
        mover, move = random_move(full, rng)
        result = duel.play(mover, move)
        full, refereed = RULES.play(full, mover, move)
        assert result == refereed
        reds, _ = RULES.play(reds, mover, move, result)
        moves += 1
    assert RULES.outcome(reds) == RULES.outcome(full) is not None
    assert RULES.scores(reds) == RULES.scores(full)
    assert moves <= size * size


def test_referee_free_full_size_game_setup_and_a_few_moves() -> None:
    """One 144-square board: the setup holds, and a few moves agree with the referee."""
    duel = set_up("ff-full-size", 12, 5)
    assert all(shown == real for shown, real in duel.overlaps)
    check_fresh_nonces(duel.firsts)
    full = start(duel, know_blue=True)
    rng = random.Random(12)
    for _ in range(6):
        mover, move = random_move(full, rng)
        result = duel.play(mover, move)
        full, refereed = RULES.play(full, mover, move)
        assert result == refereed


# --- false values, each refused ------------------------------------------------------------


@pytest.fixture(scope="module")
def duel() -> Duel:
    return set_up("ff-refusals", 6, 4)


def empty_square(duel: Duel, *, near_frogs: bool = False) -> Square:
    """A square where neither seat has a frog (with frogs around it, if asked)."""
    taken = duel.seats["red"].frogs | duel.seats["blue"].frogs
    return next(q for q in duel.board.squares() if q not in taken and (
        not near_frogs or any(n in taken for n in duel.board.neighbours(q))))


def random_scalar(rng: random.Random) -> Scalar:
    return Scalar(rng.randrange(1, L))


def respond(duel: Duel, move: Shoot | Guess, n: int = 1) -> tuple[CountPart | None, Answer]:
    """Red's count part for ``move`` and blue's true answer to it (move ``n``)."""
    red, blue = duel.seats["red"], duel.seats["blue"]
    count = None  # (a guess needs none: the test answers guesses at red's frogs too)
    if isinstance(move, Shoot):
        _, count = mover_part(red.secret, duel.attempt, duel.board, red.frogs, move)
    opened = count if move.square not in blue.frogs else None
    return count, answer(duel.ctx("blue"), blue.secret, duel.board, blue.frogs, n, move,
                         opened)


def judge(duel: Duel, move: Shoot | Guess, given: Answer, count: CountPart | None = None,
          swapped: bool = False, n: int = 1) -> FrogResult:
    """The result blue's answer ``given`` to red's ``move`` proves (``swapped``: checked
    against the other seat's commitments)."""
    red, blue = duel.seats["red"], duel.seats["blue"]
    answering, mover = (red, blue) if swapped else (blue, red)
    return check_answer(duel.ctx("blue"), duel.board, n, move, answering.commitments,
                        mover.commitments, given, count)[0]


def test_referee_free_wrong_count_refused(duel: Duel) -> None:
    square = empty_square(duel, near_frogs=True)
    move = Shoot(square)
    red, blue = duel.seats["red"], duel.seats["blue"]
    count, true = respond(duel, move)
    real = sum(n in red.frogs | blue.frogs for n in duel.board.neighbours(square))
    assert true.count == real > 0  # the rules' number, counted here
    rng = random.Random(7)
    assert true.count_blinding is not None
    for k in (real - 1, real + 1):
        for blinding in (true.count_blinding, random_scalar(rng)):
            for checked_count in (count, None):
                with pytest.raises(ProofError):
                    judge(duel, move, replace(true, count=k, count_blinding=blinding),
                          checked_count)


def test_referee_free_miss_on_a_frog_and_frog_on_an_empty_square_refused(duel: Duel) -> None:
    blue = duel.seats["blue"]
    frog = min(blue.frogs, key=lambda q: (q.row, q.col))
    empty = empty_square(duel)
    rng = random.Random(8)
    for square, bit in ((frog, 0), (empty, 1)):
        for move in (Guess(square), Shoot(square)):
            for blinding in (blue.secret.blinding(duel.attempt, square.name),
                             random_scalar(rng)):
                lie = Answer(bit, blinding)
                if bit == 0 and isinstance(move, Shoot):  # an empty proof at a frog: forged
                    lie = Answer(0, None, 1, random_scalar(rng),
                                 Proof((random_scalar(rng), random_scalar(rng))))
                with pytest.raises(ProofError):
                    judge(duel, move, lie)


def test_referee_free_answer_with_a_count_it_should_not_have_or_without_one_refused(
        duel: Duel) -> None:
    """A count only with an empty shot: a guess's or a hit's answer with one, an empty
    shot's without one, are refused (true openings all)."""
    blue = duel.seats["blue"]
    frog, empty = next(iter(blue.frogs)), empty_square(duel, near_frogs=True)
    rng = random.Random(12)
    _, counted = respond(duel, Shoot(empty))
    for move in (Guess(frog), Shoot(frog), Guess(empty)):
        _, given = respond(duel, move)
        judge(duel, move, given)
        with pytest.raises(ProofError, match="neither an opening nor a count"):
            judge(duel, move, replace(given, count=0, count_blinding=random_scalar(rng)))
    with pytest.raises(ProofError, match="has a count"):
        judge(duel, Guess(empty), counted)
    move = Shoot(empty)
    with pytest.raises(ProofError, match="answered with a count"):
        judge(duel, move, respond(duel, Guess(empty))[1])


def test_referee_free_opening_of_another_square_refused(duel: Duel) -> None:
    squares = list(duel.board.squares())
    move = Guess(empty_square(duel))
    for other in squares:
        if other == move.square:
            continue
        moved = respond(duel, Guess(other))[1]
        with pytest.raises(ProofError):
            judge(duel, move, moved)


def test_referee_free_answer_against_the_other_seats_commitments_refused(duel: Duel) -> None:
    for move in (Guess(empty_square(duel)), Shoot(empty_square(duel, near_frogs=True))):
        _, given = respond(duel, move)
        judge(duel, move, given)
        with pytest.raises(ProofError):
            judge(duel, move, given, swapped=True)
        if isinstance(move, Shoot):  # the empty proof moved to another move number
            with pytest.raises(ProofError, match="empty proof"):
                judge(duel, move, given, n=2)


def test_referee_free_false_count_box_is_proven_false_by_a_complaint(duel: Duel) -> None:
    """The answerer opens the mover's box: a count that does not open the mover's
    commitments (off by one, another blinding), or a box for another square or move, opens
    to nothing; the answerer's complaint proves it to anyone, and a complaint against the
    true box is refused."""
    red, blue = duel.seats["red"], duel.seats["blue"]
    square = empty_square(duel, near_frogs=True)
    _, count = mover_part(red.secret, duel.attempt, duel.board, red.frogs, Shoot(square))
    assert count is not None
    ctx, actx, a_blue = duel.ctx("red"), duel.ctx("blue"), duel.box_key("blue")
    good = seal_box(ctx, red.secret, duel.board, blue.commitments, a_blue, 5, square, count)
    assert open_box(ctx, blue.secret, duel.board, red.commitments, 5, square, good) == count

    def judged(n: int, at: Square, box: CountBox) -> Complaint:
        made = complain(actx, blue.secret, duel.board, blue.commitments, n, at, box)
        check_complaint(actx, "red", duel.board, n, Shoot(at), blue.commitments, a_blue,
                        red.commitments, box, Complaint.from_json(made.to_json()))
        return made

    other = next(q for q in duel.board.squares() if q != square and q not in blue.frogs)
    for lie in (CountPart(count.count + 1, count.blinding),
                CountPart(count.count, count.blinding + Scalar(1))):
        box = seal_box(ctx, red.secret, duel.board, blue.commitments, a_blue, 5, square, lie)
        assert open_box(ctx, blue.secret, duel.board, red.commitments, 5, square, box) is None
        judged(5, square, box)
    for n, at in ((6, square), (5, other)):
        assert open_box(ctx, blue.secret, duel.board, red.commitments, n, at, good) is None
        judged(n, at, good)
    # a complaint against the true box is a false answer
    with pytest.raises(ProofError, match="complaint is false"):
        judged(5, square, good)


def test_referee_free_complaint_against_a_box_keyed_with_h_is_taken(duel: Duel) -> None:
    """A mover that seals a false count with ``y = 1`` (``Y = H``) makes the complaint's
    statement name ``H`` twice for one witness, so its proof repeats a first message: the
    complaint is still taken (a repeat within one proof is no reused nonce), and the game
    keeps every other first message fresh."""
    red, blue = duel.seats["red"], duel.seats["blue"]
    square = empty_square(duel, near_frogs=True)
    _, count = mover_part(red.secret, duel.attempt, duel.board, red.frogs, Shoot(square))
    assert count is not None
    ctx, actx, a_blue = duel.ctx("red"), duel.ctx("blue"), duel.box_key("blue")
    answering = blue.commitments.at(duel.board, square)
    y_point, raw = seal_count(ctx.move(5, square), Scalar(1), answering, a_blue,
                              count.count + 1, count.blinding)
    assert y_point == H
    box = CountBox(y_point, raw)
    assert open_box(ctx, blue.secret, duel.board, red.commitments, 5, square, box) is None
    made = complain(actx, blue.secret, duel.board, blue.commitments, 5, square, box)
    firsts = check_complaint(actx, "red", duel.board, 5, Shoot(square), blue.commitments,
                             a_blue, red.commitments, box, Complaint.from_json(made.to_json()))
    assert len(firsts) == 2  # u_0·H and u_1·H, each named twice by the proof
    ff = FrogFinderProgress(duel.board, duel.frogs).fresh(firsts)
    with pytest.raises(ProofError, match="reused nonce"):
        ff.fresh(firsts[:1])  # the same point in another proof is still refused
    check_fresh_nonces(firsts)


def test_referee_free_complaint_moved_or_with_a_wrong_key_refused(duel: Duel) -> None:
    """A true complaint against a false box does not hold with either key changed, nor for
    another move, square, seat or game; a seat with a frog at the square cannot make one."""
    red, blue = duel.seats["red"], duel.seats["blue"]
    square = empty_square(duel, near_frogs=True)
    _, count = mover_part(red.secret, duel.attempt, duel.board, red.frogs, Shoot(square))
    assert count is not None
    ctx, actx, a_blue = duel.ctx("red"), duel.ctx("blue"), duel.box_key("blue")
    lie = CountPart(count.count + 1, count.blinding)
    box = seal_box(ctx, red.secret, duel.board, blue.commitments, a_blue, 5, square, lie)
    made = complain(actx, blue.secret, duel.board, blue.commitments, 5, square, box)

    def check(given: Complaint, n: int = 5, at: Square = square, c: Context = actx) -> None:
        check_complaint(c, "red", duel.board, n, Shoot(at), blue.commitments, a_blue,
                        red.commitments, box, given)

    check(made)
    other = next(q for q in duel.board.squares() if q != square and q not in blue.frogs)
    for complaint, n, at, c in (
            (replace(made, key=made.key + H), 5, square, actx),
            (replace(made, shared=made.shared + H), 5, square, actx),
            (replace(made, key=made.shared, shared=made.key), 5, square, actx),
            (made, 6, square, actx),
            (made, 5, other, actx),
            (made, 5, square, actx.of("red")),
            (made, 5, square, Context("another-game", HEADER, "blue", duel.attempt))):
        with pytest.raises(ProofError, match="box proof .* does not hold"):
            check(complaint, n, at, c)
    with pytest.raises(ProofError, match="no count box"):
        check_complaint(actx, "red", duel.board, 5, Guess(square), blue.commitments, a_blue,
                        red.commitments, None, made)
    frog = next(iter(blue.frogs))
    with pytest.raises(ValueError, match="do not satisfy"):
        complain(actx, blue.secret, duel.board, blue.commitments, 5, frog, box)


def test_referee_free_mover_part_on_its_own_frog_refused(duel: Duel) -> None:
    red = duel.seats["red"]
    for square in red.frogs:
        for move in (Shoot(square), Guess(square)):
            with pytest.raises(IllegalMoveError):
                mover_part(red.secret, duel.attempt, duel.board, red.frogs, move)
            forged = MoverPart(red.secret.blinding(duel.attempt, square.name))
            with pytest.raises(ProofError):
                check_mover_part(duel.board, red.commitments, move, forged)


def test_referee_free_count_part_off_by_one_refused(duel: Duel) -> None:
    red = duel.seats["red"]
    for square in duel.board.squares():
        if square in red.frogs:
            continue
        move = Shoot(square)
        part, count = mover_part(red.secret, duel.attempt, duel.board, red.frogs, move)
        assert count is not None
        assert count.count == sum(n in red.frogs for n in duel.board.neighbours(square))
        check_mover_part(duel.board, red.commitments, move, part, count)
        for k in (count.count - 1, count.count + 1):
            with pytest.raises(ProofError):
                check_mover_part(duel.board, red.commitments, move, part,
                                 CountPart(k, count.blinding))
        with pytest.raises(ProofError):
            check_mover_part(duel.board, red.commitments, Guess(square), part, count)


def forged_commitments(duel: Duel, value: int, fake: str) -> Commitments:
    """Red's commitments with one frog-free square committing to ``value`` (2 or -1), the
    other squares' bits set so that the total is still the game's number of frogs, the
    frogs_blinding right, and ``fake`` standing in for that square's bit proof."""
    red = duel.seats["red"]
    ctx = Context(duel.game, HEADER, "red", duel.attempt)
    squares = list(duel.board.squares())
    target = next(q for q in squares if q not in red.frogs)
    frogs = sorted(red.frogs, key=lambda q: (q.row, q.col))
    # 2 takes the place of two frogs; -1 needs one frog more elsewhere
    bits = {q: int(q in red.frogs) for q in squares}
    bits[target] = value
    if value == 2:
        bits[frogs[0]] = bits[frogs[1]] = 0
    else:
        bits[next(q for q in squares if bits[q] == 0 and q != target)] = 1
    assert sum(bits.values()) == duel.frogs
    blinding = {q: red.secret.blinding(duel.attempt, q.name) for q in squares}
    points = tuple(commit(bits[q], blinding[q]) for q in squares)
    proofs = list(red.commitments.proofs)
    for index, q in enumerate(squares):
        if q != target and bits[q] != int(q in red.frogs):
            proofs[index] = prove(bit_statement(ctx.square(q), points[index]), bits[q],
                                  [blinding[q]], red.secret.nonce_key())
    at = squares.index(target)
    rng = random.Random(9)
    if fake == "random":
        proofs[at] = Proof(tuple(random_scalar(rng) for _ in range(4)))
    elif fake == "honest_other_square":
        proofs[at] = proofs[(at + 1) % len(squares)]
    elif fake == "original":
        proofs[at] = red.commitments.proofs[at]
    return Commitments(points, sum(blinding.values(), Scalar(0)), tuple(proofs))


@pytest.mark.parametrize("value", [2, -1])
@pytest.mark.parametrize("fake", ["random", "honest_other_square", "original"])
def test_referee_free_square_committing_to_two_or_minus_one_refused(duel: Duel, value: int,
                                                                    fake: str) -> None:
    forged = forged_commitments(duel, value, fake)
    ctx = Context(duel.game, HEADER, "red", duel.attempt)
    red = duel.seats["red"]
    # the total still opens: only the bit proof can catch it
    total_point = forged.points[0]
    for point in forged.points[1:]:
        total_point = total_point + point
    assert total_point == commit(duel.frogs, forged.frogs_blinding)
    with pytest.raises(ValueError, match="do not satisfy"):
        target = next(q for q in duel.board.squares() if q not in red.frogs)
        prove(bit_statement(ctx.square(target), forged.at(duel.board, target)), 1,
              [red.secret.blinding(duel.attempt, target.name)], red.secret.nonce_key())
    with pytest.raises(ProofError, match="bit proof"):
        check_commitments(ctx, duel.board, duel.frogs, forged)


def test_referee_free_frogs_blinding_not_matching_refused(duel: Duel) -> None:
    red = duel.seats["red"]
    ctx = Context(duel.game, HEADER, "red", duel.attempt)
    check_commitments(ctx, duel.board, duel.frogs, red.commitments)
    one = Scalar(1)
    for wrong in (replace(red.commitments, frogs_blinding=red.commitments.frogs_blinding + one),
                  replace(red.commitments, frogs_blinding=red.secret.blinding(
                      duel.attempt, "A1"))):
        with pytest.raises(ProofError, match="add up"):
            check_commitments(ctx, duel.board, duel.frogs, wrong)
    for frogs in (duel.frogs - 1, duel.frogs + 1):
        with pytest.raises(ProofError, match="add up"):
            check_commitments(ctx, duel.board, frogs, red.commitments)
    with pytest.raises(ProofError):  # red's commitments are not blue's
        check_commitments(ctx.of("blue"), duel.board, duel.frogs, red.commitments)


def test_referee_free_false_selection_refused(duel: Duel) -> None:
    """Blue selects red's masked commitment at a square where blue has no frog."""
    red, blue = duel.seats["red"], duel.seats["blue"]
    ctx = Context(duel.game, HEADER, "blue", duel.attempt)
    squares = list(duel.board.squares())
    target = next(q for q in squares if q not in blue.frogs)
    at = squares.index(target)
    t = blue.secret.selection(duel.attempt, target.name)
    e = red.commitments.points[at] + t * H
    f = duel.mask.shares[at] + t * duel.mask.key
    rng = random.Random(10)
    for fake in (duel.selection.proofs[at], duel.selection.proofs[(at + 1) % len(squares)],
                 Proof(tuple(random_scalar(rng) for _ in range(6)))):
        forged = Selection(
            tuple(e if i == at else p for i, p in enumerate(duel.selection.points)),
            tuple(f if i == at else p for i, p in enumerate(duel.selection.shares)),
            tuple(fake if i == at else p for i, p in enumerate(duel.selection.proofs)))
        with pytest.raises(ProofError, match=f"select proof .* at {target.name}"):
            check_selection(ctx, duel.board, blue.commitments, red.commitments, duel.mask,
                            forged)


def test_referee_free_overlap_count_lied_about_refused() -> None:
    rng = random.Random(11)
    game = overlapping_then_not(5, 4)
    board = Board(5)
    red, blue = secret_of(game, "red"), secret_of(game, "blue")
    for attempt in (0, 1):
        red_frogs = placement(red, board, 4, blue.public_seed(), attempt)
        blue_frogs = placement(blue, board, 4, red.public_seed(), attempt)
        real = len(red_frogs & blue_frogs)
        ctx = Context(game, HEADER, "red", attempt)
        red_c = commit_placement(ctx, red, board, red_frogs)
        mask = make_mask(ctx, red, board, red_frogs, red_c)
        selection = make_selection(ctx.of("blue"), blue, board, blue_frogs, red_c, mask)
        honest = find_overlap(ctx, red, 4, mask, selection)
        assert honest.count == real
        lie = 0 if real else 1
        for proof in (honest.proof, Proof((random_scalar(rng), random_scalar(rng)))):
            with pytest.raises(ProofError, match="overlap"):
                check_overlap(ctx, mask, selection, Overlap(lie, proof), 4)
        # the overlap proof cannot be made for the lie at all
        with pytest.raises(ValueError, match="do not satisfy"):
            s_e, s_f = selection.points[0], selection.shares[0]
            for p in selection.points[1:]:
                s_e = s_e + p
            for p in selection.shares[1:]:
                s_f = s_f + p
            prove(overlap_statement(ctx.count(lie), mask.key, s_e, s_f, lie, 4), 0,
                  [red.mask_key(attempt)], red.nonce_key())


def bit_proof_with_nonce(ctx: Context, square: Square, bit: int, r: Scalar, u: Scalar,
                         rng: random.Random) -> Proof:
    """A true ``bit`` proof made by hand with the nonce ``u`` (the spec's steps, with the
    nonce drawn by the caller rather than derived from the statement)."""
    c = commit(bit, r)
    statement = bit_statement(ctx.square(square), c)
    e_other, z_other = random_scalar(rng), random_scalar(rng)
    first: list[list[Point]] = [[], []]
    first[bit] = [u * H]
    (_, base, target), = statement.branches[1 - bit]
    first[1 - bit] = [z_other * base - e_other * target]
    body: JSON = {"tag": "bit", "context": dict(statement.context),
                  "statement": statement.to_json(),  # type: ignore[dict-item]
                  "first": [[a.hex() for a in row] for row in first]}
    e = Scalar.of(int.from_bytes(hashlib.sha512(
        b"frogpbem/1 proof\n" + canonical(body).encode()).digest(), "little"))
    e_true = e - e_other
    parts = {bit: (e_true, u + e_true * r), 1 - bit: (e_other, z_other)}
    return Proof((*parts[0], *parts[1]))


def test_referee_free_reused_nonce_refused(duel: Duel) -> None:
    """Two true proofs made with one nonce both verify, and the game is refused; a game's
    honest proofs share none."""
    check_fresh_nonces(duel.firsts)
    red = duel.seats["red"]
    ctx = duel.ctx("red")
    rng = random.Random(13)
    u = random_scalar(rng)
    a1, b1 = Square(0, 0), Square(1, 0)
    firsts: list[Point] = []
    for square in (a1, b1):
        bit = int(square in red.frogs)
        r = red.secret.blinding(duel.attempt, square.name)
        statement = bit_statement(ctx.square(square), commit(bit, r))
        proof = bit_proof_with_nonce(ctx, square, bit, r, u, rng)
        firsts += verified_first_messages(statement, proof, "a hand-made proof")
    check_fresh_nonces(firsts[:2])
    with pytest.raises(ProofError, match="reused nonce"):
        check_fresh_nonces(firsts)
    with pytest.raises(ProofError, match="reused nonce"):
        check_fresh_nonces([*duel.firsts, *check_commitments(ctx, duel.board, duel.frogs,
                                                             red.commitments)])


# --- what is shown, and JSON in and out ----------------------------------------------------


def test_referee_free_answers_show_only_what_the_spec_lists(duel: Duel) -> None:
    """The leak argument's counterpart: an answer holds the opening, plus the total and its
    blinding for an empty shot, and nothing else; a mover part the opening alone."""
    red, blue = duel.seats["red"], duel.seats["blue"]
    frog, empty = next(iter(blue.frogs)), empty_square(duel, near_frogs=True)
    cases: list[tuple[Shoot | Guess, frozenset[str]]] = [
             (Guess(frog), frozenset({"bit", "blinding"})),
             (Shoot(frog), frozenset({"bit", "blinding"})),
             (Guess(empty), frozenset({"bit", "blinding"})),
             (Shoot(empty), frozenset({"count", "count_blinding", "empty"}))]
    for move, keys in cases:
        part, count = mover_part(red.secret, duel.attempt, duel.board, red.frogs, move)
        opening = part.to_json()
        assert isinstance(opening, dict) and set(opening) == {"blinding"}
        assert (count is None) == isinstance(move, Guess)
        _, given = respond(duel, move)
        shown = given.to_json()
        assert isinstance(shown, dict) and set(shown) == keys
        blinding = blue.secret.blinding(duel.attempt, move.square.name).hex()
        if "count" not in keys:
            assert shown["blinding"] == blinding
        else:  # the blinding at the square stays unshown: it would open the count box
            assert blinding not in json.dumps(shown)
            assert count is not None
            own = sum((blue.secret.blinding(duel.attempt, n.name)
                       for n in duel.board.neighbours(empty)), Scalar(0))
            assert shown["count_blinding"] == (own + count.blinding).hex()


def test_referee_free_values_round_trip_through_json(duel: Duel) -> None:
    red = duel.seats["red"]
    board = duel.board
    assert Commitments.from_json(red.commitments.to_json(), board) == red.commitments
    assert Mask.from_json(duel.mask.to_json(), board) == duel.mask
    assert Selection.from_json(duel.selection.to_json(), board) == duel.selection
    assert Overlap.from_json(duel.overlap.to_json(), duel.frogs) == duel.overlap
    move = Shoot(empty_square(duel, near_frogs=True))
    part, count = mover_part(red.secret, duel.attempt, board, red.frogs, move)
    assert count is not None
    assert MoverPart.from_json(part.to_json()) == part
    box = seal_box(duel.ctx("red"), red.secret, board, duel.seats["blue"].commitments,
                   duel.box_key("blue"), 1, move.square, count)
    assert CountBox.from_json(box.to_json()) == box
    _, given = respond(duel, move)
    assert Answer.from_json(given.to_json()) == given


def malformed(good: JSON) -> Iterator[JSON]:
    """Values near ``good`` that no writer makes: keys missing or added, lists cut,
    wrong types, non-hex, non-canonical scalars, points off the group."""
    yield None
    yield []
    yield "x"
    if not isinstance(good, dict):
        return
    for key in good:
        yield {k: v for k, v in good.items() if k != key}
    yield {**good, "extra": 1}
    high = (L + 1).to_bytes(32, "little").hex()
    small_order = (b"\x00" * 32).hex()  # a point of order 4 (outside the group)
    for key, value in good.items():
        yield {**good, key: True}
        yield {**good, key: -1}
        if isinstance(value, str):
            yield {**good, key: value.upper()}
            yield {**good, key: value[:-2]}
            yield {**good, key: high}
            if key == "key":  # a point (other strings are scalars, which may be zero)
                yield {**good, key: small_order}
        if isinstance(value, int):
            yield {**good, key: 9}
            yield {**good, key: str(value)}
        if isinstance(value, list) and value:
            yield {**good, key: value[:-1]}
            yield {**good, key: [*value, value[0]]}
            yield {**good, key: [high, *value[1:]]}
            if key in ("points", "shares"):
                yield {**good, key: [small_order, *value[1:]]}
            yield {**good, key: [None, *value[1:]]}
            if isinstance(value[0], list):
                yield {**good, key: [value[0][:-1], *value[1:]]}
                yield {**good, key: [[high, *value[0][1:]], *value[1:]]}


def test_referee_free_malformed_values_refused_in_a_sentence(duel: Duel) -> None:
    red = duel.seats["red"]
    board = duel.board
    move = Shoot(empty_square(duel, near_frogs=True))
    part, count = mover_part(red.secret, duel.attempt, board, red.frogs, move)
    assert count is not None
    box = seal_box(duel.ctx("red"), red.secret, board, duel.seats["blue"].commitments,
                   duel.box_key("blue"), 1, move.square, count)
    _, given = respond(duel, move)
    readers: list[tuple[JSON, Callable[[JSON], object]]] = [
        (red.commitments.to_json(), lambda d: Commitments.from_json(d, board)),
        (duel.mask.to_json(), lambda d: Mask.from_json(d, board)),
        (duel.selection.to_json(), lambda d: Selection.from_json(d, board)),
        (duel.overlap.to_json(), lambda d: Overlap.from_json(d, duel.frogs)),
        (part.to_json(), MoverPart.from_json),
        (box.to_json(), CountBox.from_json),
        (given.to_json(), Answer.from_json),
        (Answer(1, Scalar(5)).to_json(), Answer.from_json),
    ]
    tried = 0
    for good, read in readers:
        for bad in malformed(good):
            if same_json(bad, good):
                continue
            with pytest.raises((GameFileError, ProofError)) as caught:
                read(bad)
            message = caught.value.message
            assert message and "\n" not in message and message.count(". ") == 0
            tried += 1
    assert tried > 100


# --- red's views and hints, as a refereed game's, whatever blue's frogs ---------------------


def replay(start_state: State, moves: list[tuple[str, Shoot | Guess]]
           ) -> list[FrogResult] | None:
    """The results a full-knowledge replay gives ``moves``, or ``None`` if one is illegal."""
    state = start_state
    results = []
    for seat, move in moves:
        if RULES.to_move(state) != seat:
            return None
        try:
            state, result = RULES.play(state, seat, move)
        except IllegalMoveError:
            return None
        results.append(result)
    return results


def reds_views(duel: Duel, moves: list[tuple[str, Shoot | Guess]]
               ) -> list[tuple[FrogsView, str | None]]:
    """Red's view after each move and red's hint (canonical JSON), from red's partial state
    fed the protocol's checked results."""
    state = start(duel, know_blue=False)
    seen = []
    for index in range(len(moves) + 1):
        if index:
            seat, move = moves[index - 1]
            state, _ = RULES.play(state, seat, move, duel.play(seat, move))
        view = RULES.view(state, frozenset({"red"}))
        seen.append((view, hint_of(view)))
    return seen


def hint_of(view: FrogsView) -> str | None:
    return None if view.to_move is None else canonical(RULES.hints.hint(view, "red"))


def with_blue(duel: Duel, blue_frogs: frozenset[Square]) -> Duel:
    """The duel as a referee would know it with blue's frogs on other squares."""
    blue = duel.seats["blue"]
    return replace(duel, seats={"red": duel.seats["red"],
                                "blue": Seat(blue.secret, blue_frogs, blue.commitments)})


def other_blue(duel: Duel, moves: list[tuple[str, Shoot | Guess]], rng: random.Random
               ) -> frozenset[Square] | None:
    """Another placement of blue's frogs, beside red's, for which the same moves are legal
    and give the same public results (found by trying them all, in random order)."""
    results = replay(start(duel, know_blue=True), moves)
    red_frogs, blue_frogs = duel.seats["red"].frogs, duel.seats["blue"].frogs
    free = [q for q in duel.board.squares() if q not in red_frogs]
    others = [frozenset(c) for c in itertools.combinations(free, duel.frogs)
              if frozenset(c) != blue_frogs]
    rng.shuffle(others)
    return next((other for other in others
                 if replay(start(with_blue(duel, other), know_blue=True), moves) == results),
                None)


def random_game(game: str, size: int, frogs: int, seed: int, length: int
                ) -> tuple[Duel, list[tuple[str, Shoot | Guess]], list[FrogsView]]:
    """A set-up duel, up to ``length`` random legal moves, and the views a referee's game
    gives red after each."""
    duel = set_up(game, size, frogs)
    full = start(duel, know_blue=True)
    rng = random.Random(seed)
    moves: list[tuple[str, Shoot | Guess]] = []
    refereed = [RULES.view(full, frozenset({"red"}))]
    while len(moves) < length and RULES.to_move(full) is not None:
        mover, move = random_move(full, rng)
        moves.append((mover, move))
        full, _ = RULES.play(full, mover, move)
        refereed.append(RULES.view(full, frozenset({"red"})))
    return duel, moves, refereed


def same_for_red(duel: Duel, moves: list[tuple[str, Shoot | Guess]],
                 seen: list[tuple[FrogsView, str | None]], seed: int) -> bool:
    """Whether another blue placement behind the same public results was found; if so,
    red's views and hints with it must be the same, byte for byte."""
    other = other_blue(duel, moves, random.Random(seed))
    if other is None:
        return False
    placed = {"red": duel.seats["red"].frogs, "blue": other}
    other_duel = set_up(duel.game, duel.board.size, duel.frogs, placed)
    assert other_duel.seats["blue"].commitments != duel.seats["blue"].commitments
    theirs = reds_views(other_duel, moves)
    assert theirs == seen
    assert [(canonical(v.to_json()), h) for v, h in theirs] == \
        [(canonical(v.to_json()), h) for v, h in seen]
    return True


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(4, 5), frogs=st.integers(1, 2), seed=st.integers(0, 10**6),
       length=st.integers(1, 10))
def test_referee_free_reds_views_and_hints_are_a_refereed_games(size: int, frogs: int,
                                                                 seed: int, length: int) -> None:
    duel, moves, refereed = random_game(f"ff-views-{seed}", size, frogs, seed, length)
    seen = reds_views(duel, moves)
    assert len(seen) == len(refereed)
    for (view, hint), theirs in zip(seen, refereed, strict=True):
        assert view == theirs
        assert canonical(view.to_json()) == canonical(theirs.to_json())
        assert hint == hint_of(theirs)
    event(f"another blue placement found: {same_for_red(duel, moves, seen, seed)}")


def test_referee_free_red_sees_the_same_whatever_blues_frogs_behind_the_results() -> None:
    """Deterministic games in which another blue placement is found (on tiny boards it
    usually is): red's views and hints are the same with it, byte for byte."""
    found = 0
    for seed in range(12):
        duel, moves, _ = random_game(f"ff-same-{seed}", 4, 2, seed, 4 + seed % 4)
        found += same_for_red(duel, moves, reds_views(duel, moves), seed)
        if found >= 3:
            break
    assert found >= 3
