"""A position's shots and misses put in order from an earlier position's, not sorted afresh:
the same listing, and the same views, as sorting them."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.board import SQUARE_ORDER, Square
from frogpbem.games import find_game
from frogpbem.games.frogs import FOLLOW_AT_MOST, FrogGame, State

COAN: FrogGame = find_game("coan")  # type: ignore[assignment]


def sorted_afresh(state: State) -> tuple[dict[str, int], tuple[str, ...]]:
    """The listing made from the position's own shots and misses, sorted here."""
    shots = sorted(state.shots.items(), key=lambda item: SQUARE_ORDER(item[0]))
    return ({square.name: count for square, count in shots},
            tuple(square.name for square in sorted(state.misses, key=SQUARE_ORDER)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.integers(4, 12), st.floats(0, 1))
def test_every_position_lists_its_squares_as_sorting_them_does(
        seed: int, count: int, size: int, looking: float) -> None:
    """Random games (2 to 6 seats, guesses again at squares missed before, long runs
    of moves that no view looks at): at every position, looked at or not, the listing
    and every seat's view are those of the same position sorted afresh."""
    rng = random.Random(seed)
    options = COAN.options({"size": size, "frogs": 1})
    seats = COAN.seats(options, count)
    _, secrets = COAN.deal(options, seats, rng)
    state = COAN.start(options, seats, None, secrets)
    squares = [Square(c, r).name for c in range(size) for r in range(size)]
    followed = plain = 0
    while (seat := COAN.to_move(state)) is not None and state.ply < 4 * size * size:
        if rng.random() < looking:  # a view looks at it: its order is made
            afresh = replace(state)  # the same position, made without its order
            assert "_after" not in afresh.__dict__
            assert state.listed == afresh.listed == sorted_afresh(state)
            for viewer in seats:
                assert COAN.view(state, frozenset([viewer])) == \
                    COAN.view(afresh, frozenset([viewer]))
        taken = {sq.name for sq in (*state.shots, *state.revealed, *(state.hidden[seat] or ()))}
        target = rng.choice([name for name in squares if name not in taken])
        before = state
        state, _ = COAN.play(state, seat, COAN.parse_move(
            f"{rng.choice(['shoot', 'guess'])} {target}"))
        # a number or a wrong guess after a position that had its order: the quick path
        plain += ("in_order" in before.__dict__ or "_after" in before.__dict__) and \
            state.revealed == before.revealed
        followed += "_after" in state.__dict__
    assert "in_order" not in state.__dict__ or state.ply == 0  # not looked at last
    assert state.listed == sorted_afresh(state)
    assert followed or not plain  # the quick path was taken where it could be


def test_a_position_far_from_any_order_made_sorts_afresh() -> None:
    """Past FOLLOW_AT_MOST squares added since an order was made, a position keeps no
    reference to it and sorts its own squares."""
    options = COAN.options({"size": 20, "frogs": 1})
    seats = COAN.seats(options, 2)
    state = COAN.start(options, seats, None, {seats[0]: {"frogs": ["A1"]},
                                              seats[1]: {"frogs": ["B1"]}})
    assert state.listed == ({}, ())
    names = iter(Square(c, r).name for r in range(2, 20) for c in range(20))
    for _ in range(FOLLOW_AT_MOST + 1):
        seat = COAN.to_move(state)
        assert seat is not None
        state, _ = COAN.play(state, seat, COAN.parse_move(f"guess {next(names)}"))
    assert "_after" not in state.__dict__
    assert state.listed == sorted_afresh(state) and len(state.listed[1]) == FOLLOW_AT_MOST + 1
