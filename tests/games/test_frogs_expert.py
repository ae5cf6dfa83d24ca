"""The expert frog-finding bot: guesses exactly when a guess is worth more points than the
best shot (the break-even from the rules' own points), never touches its team's frogs,
always plays a legal move, and plays the same move from the same view and seed."""

from __future__ import annotations

import functools
import itertools
import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.errors import IllegalMoveError
from frogpbem.games import find_game
from frogpbem.games.frogs_bot import FOLLOW, bot_move
from frogpbem.games.frogs_hint import frog_odds
from frogpbem.games.frogs_notation import GUESS_GAIN, MISS_PENALTY, FrogsView
from tests.games.test_frogs_hint import played

COAN = find_game("coan")
FROGFINDER = find_game("frogfinder")
SEATS = ("red", "blue", "black", "purple")

BREAK_EVEN = MISS_PENALTY / (GUESS_GAIN + MISS_PENALTY)
"""The chance of a frog at which a guess's expected points are 0, the rules' own numbers:
p * gain = (1 - p) * penalty."""


def team_of(state: Any, seat: str) -> frozenset[str]:
    """The seat and its teammates: who may see what ``seat`` sees."""
    return frozenset(s for s in state.seats if state.teams[s] == state.teams[seat])


def small_view(shots: dict[str, int]) -> FrogsView:
    """Red to move on a 5x5 Frog Finder board, its two frogs on A1 and B1, blue's two
    frogs hidden, with ``shots`` on the board."""
    state = played(FROGFINDER, {"size": 5, "frogs": 2}, SEATS[:2], 1, 0)
    view = FROGFINDER.view(state, frozenset(["red"]))
    return replace(view, shots=shots, own_frogs={"red": ("A1", "B1")}, revealed={},
                   misses=(), hidden_left={"red": 2, "blue": 2})


@functools.cache
def positions_by_likeliest() -> list[tuple[float, FrogsView]]:
    """Hand-made views, each with a safe square to shoot that no frog of red's touches, and
    the chance of their likeliest frog (blue hides two, so no guess ends the game): the
    first view found for each chance."""
    found: dict[float, FrogsView] = {}
    spots = ["C3", "D3", "C4", "E4", "D5", "E2", "D2"]
    for count in (1, 2, 3):
        for where in itertools.combinations(spots, count):
            for numbers in itertools.product((1, 2, 3), repeat=count):
                view = small_view({"E5": 0, **dict(zip(where, numbers, strict=True))})
                try:
                    odds = frog_odds(view).probabilities
                except IllegalMoveError:  # numbers that no placement fits
                    continue
                if any(p == 0.0 and n not in ("A2", "B2", "C2", "C1") for n, p in
                       odds.items()):
                    found.setdefault(max(odds.values()), view)
    return list(found.items())


def test_guesses_a_certain_frog() -> None:
    # the 1 on D4 touches nothing of red's; C3 is its only square not shot: blue's frog
    shots = {"C4": 1, "C5": 0, "D3": 1, "D5": 0, "E3": 0, "E4": 0, "E5": 0, "D4": 1}
    view = small_view(shots)
    assert frog_odds(view).certain() == ["C3"]
    assert bot_move(view, random.Random(0), "expert") == "guess C3"


def test_shoots_below_break_even() -> None:
    below = [view for p, view in positions_by_likeliest() if BREAK_EVEN - 0.08 < p < BREAK_EVEN]
    assert below
    for view in below:
        assert bot_move(view, random.Random(0), "expert").startswith("shoot ")


def test_guesses_when_no_shot_can_be_worth_more() -> None:
    # a shot is worth at most the discounted points of the one frog its number may let
    # the next turn find, while a guess is worth at least its own expected points
    best_shot = FOLLOW * GUESS_GAIN
    sure = [view for p, view in positions_by_likeliest()
            if GUESS_GAIN * p - MISS_PENALTY * (1 - p) > best_shot]
    assert sure
    for view in sure:
        odds = frog_odds(view).probabilities
        verb, square = bot_move(view, random.Random(0), "expert").split()
        assert verb == "guess"
        assert odds[square] == max(odds.values())


def test_never_targets_a_teammates_frog() -> None:
    # red and black play together; black's frog on B2 is the only frog next to the 1 on A1,
    # so the odds must not send red there, and no move of red's goes there
    state = played(COAN, {"size": 5, "frogs": 1, "teams": "red+black,blue+purple"},
                   SEATS, 5, 0)
    view = COAN.view(state, team_of(state, "red"))
    view = replace(view, to_move="red", shots={"A1": 1}, revealed={}, misses=(),
                   own_frogs={"red": ("E5",), "black": ("B2",)},
                   hidden_left=dict.fromkeys(SEATS, 1))
    assert "B2" not in frog_odds(view).probabilities
    for seed in range(20):
        assert bot_move(view, random.Random(seed), "expert").split()[1] not in ("B2", "E5")


@st.composite
def views(draw: st.DrawFn) -> tuple[Any, Any, str]:
    """A position from random play, in Frog Finder or Coan (three seats, or teams)."""
    kind = draw(st.sampled_from(["frogfinder", "coan3", "teams"]))
    seed = draw(st.integers(0, 10**6))
    moves = draw(st.integers(0, 40))
    size = draw(st.integers(5, 8))
    if kind == "frogfinder":
        rules, seats, options = FROGFINDER, SEATS[:2], {"size": size, "frogs": 3}
    elif kind == "coan3":
        rules, seats, options = COAN, SEATS[:3], {"size": size, "frogs": 2}
    else:
        rules, seats, options = COAN, SEATS, {"size": size, "frogs": 2,
                                              "teams": "red+black,blue+purple"}
    state = played(rules, options, seats, seed, moves)
    seat = rules.to_move(state)
    if seat is None:
        state = played(rules, options, seats, seed, 0)
        seat = rules.to_move(state)
    return rules, state, seat


@settings(max_examples=15, deadline=None)
@given(views(), st.integers(0, 2**32))
def test_always_legal_and_deterministic(position: tuple[Any, Any, str], seed: int) -> None:
    rules, state, seat = position
    view = rules.view(state, team_of(state, seat))
    move = bot_move(view, random.Random(seed), "expert")
    assert move == bot_move(view, random.Random(seed), "expert")
    team_frogs = {n for frogs in view.own_frogs.values() for n in frogs}
    assert move.split()[1] not in team_frogs
    rules.play(state, seat, rules.parse_move(move))  # raises if the move is illegal
