"""Secret Move's ``expert`` bot (frogpbem.games.secretmove_bot): what a move tells the
opponent counts, it never plays an illegal move, and it is deterministic given its rng."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.games import bot_move, find_game
from frogpbem.games.secretmove import State, fitting_grids, legal_moves, parse_move, score
from frogpbem.games.secretmove_bot import grid_table, posterior
from frogpbem.games.secretmove_view import MARGIN, SQUARES, SecretMoveView, values_of

RULES = find_game("secretmove")
SEATS = ("red", "blue")
RED = {"cols": [0, 1, 2], "rows": [4, 5, 3]}
BLUE = {"cols": [3, 0, 5], "rows": [1, 4, 2]}
CHEAP = ["A1-A2 1"] * 3 + ["A2-B2 1"] * 6
"""Red's nine moves of one point each; together they prove value(B3) > value(A3)."""


def _play(state: State, seat: str, text: str) -> State:
    return RULES.play(state, seat, parse_move(text))[0]  # type: ignore[no-any-return]


def _cheap_position() -> State:
    """Red has made nine one-point moves and has one left; blue passed at once, so its
    score is 3 stones times the nine values, which always sum to 45: 135."""
    state = RULES.start({}, SEATS, None, {"red": RED, "blue": BLUE})
    for text in CHEAP:
        state = _play(state, "red", text)
        if RULES.to_move(state) == "blue":
            state = _play(state, "blue", "pass")
    return state  # type: ignore[no-any-return]


def _fitting_after(state: State, text: str) -> int:
    move = parse_move(text)
    return len(fitting_grids((*state.history["red"], (move.src, move.dst, move.count)), ()))


def test_a_move_that_tells_nothing_beats_one_that_scores_more_and_tells() -> None:
    state = _cheap_position()
    view = RULES.view(state, frozenset({"red"}))
    values = values_of(RED)
    now = score(state.stones["red"], values)
    best = max(n * (values[d] - values[s]) for s, d, n in legal_moves(state.stones["red"], values))
    # no move can take red's lead over blue's 135 beyond the margin, nor lose it:
    assert 135 < now and now + best - 135 <= MARGIN
    strong = bot_move(RULES, view, "red", random.Random(0), "strong")
    expert = bot_move(RULES, view, "red", random.Random(0), "expert")
    before = len(fitting_grids(state.history["red"], ()))
    assert _fitting_after(state, strong) < before  # the best-scoring move tells blue more
    assert expert == "pass" or _fitting_after(state, expert) == before
    _play(state, "red", expert)  # and it is legal


def _position(seed: int, plies: int, strengths: tuple[str, str]) -> State:
    """The position after ``plies`` moves of a game between bots of ``strengths``."""
    rng = random.Random(seed)
    public, secrets = RULES.deal({}, SEATS, rng)
    state = RULES.start({}, SEATS, public, secrets)
    bots = dict(zip(SEATS, strengths, strict=True))
    for _ in range(plies):
        seat = RULES.to_move(state)
        if seat is None:
            break
        auto = RULES.automatic(state)
        if auto is not None:
            state = RULES.play(state, seat, auto)[0]
            continue
        text = bot_move(RULES, RULES.view(state, frozenset({seat})), seat, rng, bots[seat])
        state = _play(state, seat, text)
    return state  # type: ignore[no-any-return]


STRENGTHS = st.sampled_from(["random", "greedy", "strong", "expert"])


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 24), st.tuples(STRENGTHS, STRENGTHS))
def test_never_an_illegal_move(seed: int, plies: int, strengths: tuple[str, str]) -> None:
    state = _position(seed, plies, strengths)
    seat = RULES.to_move(state)
    if seat is None or RULES.automatic(state) is not None:
        return
    view = RULES.view(state, frozenset({seat}))
    text = bot_move(RULES, view, seat, random.Random(seed), "expert")
    after = _play(state, seat, text)  # raises IllegalMoveError for an illegal move
    if RULES.phase(state) == "guess":
        other = next(s for s in SEATS if s != seat)
        guess = after.guesses[seat]
        assert guess in {tuple(g[sq] for sq in SQUARES)
                         for g in fitting_grids(state.history[other], state.stuck[other])}


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 22))
def test_deterministic_given_the_rng(seed: int, plies: int) -> None:
    state = _position(seed, plies, ("strong", "expert"))
    seat = RULES.to_move(state)
    if seat is None:
        return
    view = RULES.view(state, frozenset({seat}))
    mailed = SecretMoveView.from_json(view.to_json())  # the same view, as a file holds it
    first = bot_move(RULES, view, seat, random.Random(seed), "expert")
    assert bot_move(RULES, mailed, seat, random.Random(seed), "expert") == first


def test_the_posterior_is_the_fitting_grids_with_chances() -> None:
    state = _position(7, 9, ("strong", "strong"))
    chances = posterior(state.history["red"], state.stuck["red"])
    fitting = {tuple(g[sq] for sq in SQUARES)
               for g in fitting_grids(state.history["red"], state.stuck["red"])}
    assert {g for g, _ in chances} == fitting
    assert abs(sum(c for _, c in chances) - 1) < 1e-9
    assert sum(count for _, count in grid_table()) == 720
