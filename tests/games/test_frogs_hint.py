"""Exact odds: equal to brute force on small positions from real play, calibrated on
full-size games, and drawn from the seat's view alone."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from frogpbem.board import Board
from frogpbem.games import find_game
from frogpbem.games.frogs_hint import frog_odds

COAN = find_game("coan")
FROGFINDER = find_game("frogfinder")
SEATS = ("red", "blue", "black", "purple", "yellow", "green")


def played(rules: Any, options: dict[str, Any], seats: tuple[str, ...], seed: int,
           moves: int) -> Any:
    """The state after up to ``moves`` random moves (shots and guesses) of a random deal."""
    rng = random.Random(seed)
    opts = rules.options(options)
    _, secrets = rules.deal(opts, seats, rng)
    state = rules.start(opts, seats, None, secrets)
    for _ in range(moves):
        seat = rules.to_move(state)
        if seat is None:
            break
        view = rules.view(state, frozenset(s for s in seats
                                            if state.teams[s] == state.teams[seat]))
        taken = set(view.shots) | set(view.revealed)
        taken |= {n for frogs in view.own_frogs.values() for n in frogs}
        open_squares = [s.name for s in Board(view.size).squares() if s.name not in taken]
        verb = "guess" if rng.random() < 0.3 else "shoot"
        state, _ = rules.play(state, seat, rules.parse_move(f"{verb} {rng.choice(open_squares)}"))
    return state


def brute_force(view: dict[str, Any]) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Every placement of the unseen frogs, with every assignment of owners, counted."""
    board = Board(view.size)
    seen = {n for frogs in view.own_frogs.values() for n in frogs}
    known = seen | set(view.revealed)
    unknown = [s.name for s in board.squares()
               if s.name not in known and s.name not in view.shots
               and s.name not in view.misses]
    owners = [seat for seat, count in view.hidden_left.items()
              if seat not in view.own_frogs for _ in range(count)]
    # each shot's neighbours, found once; and the owners' distinct assignments, the same for
    # every placement, listed once: slot i of a placement has owner o in so many of them
    around = [({s.name for s in board.neighbours(board.parse(name))}, number)
              for name, number in view.shots.items()]
    assignments = set(itertools.permutations(owners))
    slots = [Counter(assignment[i] for assignment in assignments) for i in range(len(owners))]
    frogs_at: Counter[str] = Counter()
    owner_at: Counter[tuple[str, str]] = Counter()
    total = 0
    for chosen in itertools.combinations(unknown, len(owners)):
        occupied = known | set(chosen)
        if any(len(neighbours & occupied) != number for neighbours, number in around):
            continue
        total += len(assignments)  # each assignment of owners to this placement
        for name, owners_here in zip(chosen, slots, strict=True):
            frogs_at[name] += len(assignments)
            for owner, times in owners_here.items():
                owner_at[(name, owner)] += times
    assert total > 0
    probabilities = {name: frogs_at[name] / total for name in unknown}
    split = {name: {seat: owner_at[(name, seat)] / total for seat in dict.fromkeys(owners)}
             for name in unknown}
    return probabilities, split


def small_positions(count: int) -> list[tuple[str, dict[str, Any]]]:
    """``count`` positions small enough to enumerate: two-seat games and Coan with up to
    four seats (teams included), each seen by one of its seats."""
    found = []
    rng = random.Random(2026)
    while len(found) < count:
        kind = rng.choice(["frogfinder", "coan", "coan-teams"])
        size = rng.choice([4, 5])
        if kind == "frogfinder":
            rules, seats, options = FROGFINDER, SEATS[:2], {"size": size,
                                                            "frogs": rng.choice([1, 2, 3])}
        elif kind == "coan":
            n = rng.choice([3, 4])
            rules, seats, options = COAN, SEATS[:n], {"size": size, "frogs": rng.choice([1, 2])}
        else:
            rules, seats, options = COAN, SEATS[:4], {"size": size, "frogs": 1,
                                                      "teams": "red+black,blue+purple"}
        state = played(rules, options, seats, rng.randrange(10**9), rng.randrange(0, 12))
        if rules.to_move(state) is None:
            continue
        seat = rng.choice([s for s in seats if rules.view(state, frozenset([s])).own_frogs])
        viewers = frozenset(s for s in seats if state.teams[s] == state.teams[seat])
        found.append((kind, rules.view(state, viewers)))
    return found


@pytest.mark.no_cover  # CPU-heavy; every package line it runs, other tests cover too
def test_odds_equal_brute_force_on_100_small_positions() -> None:
    kinds: Counter[str] = Counter()
    opponents: Counter[int] = Counter()
    for kind, view in small_positions(100):
        odds = frog_odds(view)
        expected, split = brute_force(view)
        assert odds.probabilities.keys() == expected.keys()
        for name, p in expected.items():
            assert math.isclose(odds.probabilities[name], p, rel_tol=0, abs_tol=1e-12), name
        by_opponent = odds.by_opponent()
        for name, shares in split.items():
            for seat, p in shares.items():
                assert math.isclose(by_opponent[name][seat], p, rel_tol=0, abs_tol=1e-12)
        kinds[kind] += 1
        opponents[len(split and next(iter(split.values())))] += 1
    # the sample holds every kind, and positions with two and three opponents
    assert min(kinds.values()) >= 15 and opponents[2] >= 5 and opponents[3] >= 5


@pytest.mark.no_cover  # CPU-heavy; every package line it runs, other tests cover too
def test_odds_are_calibrated_on_full_size_games() -> None:
    """Monte Carlo: over many 12x12 positions from random play, the frogs are where the
    odds say, bin by bin, within sampling error."""
    bins: dict[int, list[float]] = {b: [0.0, 0.0, 0.0] for b in range(10)}  # n, sum p, frogs
    for seed in range(120):
        state = played(FROGFINDER, {}, SEATS[:2], seed, 20 + seed % 40)
        seat = FROGFINDER.to_move(state)
        if seat is None:
            continue
        other = "blue" if seat == "red" else "red"
        frogs = {s.name for s in state.hidden[other]}
        odds = frog_odds(FROGFINDER.view(state, frozenset([seat])))
        for name, p in odds.probabilities.items():
            row = bins[min(9, int(p * 10))]
            row[0] += 1
            row[1] += p
            row[2] += name in frogs
    checked = 0
    for n, expected, seen in bins.values():
        if n < 30:
            continue
        mean = expected / n
        spread = math.sqrt(max(mean * (1 - mean), 1e-9) * n)
        assert abs(seen - expected) <= 4 * spread + 1, (n, expected, seen)
        checked += 1
    assert checked >= 4


def test_certain_and_impossible_squares() -> None:
    # red sees its own frog on A1; blue's one frog must be next to the 1 on C3, which also
    # touches nothing of red's: exactly one of B2..D4's unknown squares
    view = FROGFINDER.view(played(FROGFINDER, {"size": 5, "frogs": 1}, SEATS[:2], 3, 0),
                           frozenset(["red"]))
    view = replace(view, shots={"C3": 0, "A5": 1}, own_frogs={"red": ("E1",)},
                   hidden_left={"red": 1, "blue": 1})
    odds = frog_odds(view)
    assert all(odds.probabilities[n] == 0.0 for n in ("B2", "C2", "D2", "B4", "D4", "B3"))
    assert odds.probabilities["A4"] + odds.probabilities["B5"] == pytest.approx(1.0)
    assert odds.certain() == []
    view = replace(view, shots={**view.shots, "A3": 1})  # A4 is now the only square next to both
    assert frog_odds(view).certain() == ["A4"]
