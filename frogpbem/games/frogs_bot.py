"""Frog-finding bots at four strengths, each from a seat's view only.

- ``random``: shoots or guesses any open square.
- ``greedy``: guesses a frog its simple deductions make certain, else shoots a
  square they make safe, else any square (the demonstration's old bot).
- ``strong``: reads the exact odds (:mod:`frogpbem.games.frogs_hint`): guesses
  the likeliest square when a frog there is likely enough to pay, else shoots
  the safest square, preferring one next to many unknown squares (its number
  tells more).
- ``expert``: weighs moves by expected points from the exact odds, for its
  team: a guess's points against a shot's (its risk of hitting a frog, what
  its number tells the opponents of the team's own frogs, and, discounted,
  what it is worth to the next guess, looked ahead one step).
"""

from __future__ import annotations

import random
from dataclasses import replace
from math import comb

from frogpbem.board import Board, Square
from frogpbem.errors import IllegalMoveError
from frogpbem.frozen import frozen
from frogpbem.games.frogs_hint import (
    Odds,
    _Component,
    _components,
    _product,
    _propagate,
    frog_odds,
)
from frogpbem.games.frogs_notation import (
    GUESS_GAIN,
    LAST_STANDING_BONUS,
    MISS_PENALTY,
    SHOT_PENALTY,
    FrogsView,
    Revealed,
)

GUESS_ABOVE = 0.5
"""The strong bot guesses when the likeliest square holds a frog with at least this chance
(a guess pays +5 or costs 3; a shot is safe and tells a number)."""


def bot_move(view: FrogsView, rng: random.Random, strength: str = "greedy") -> str:
    """A move for the seat whose view this is, at ``strength``."""
    if strength == "random":
        return random_move(view, rng)
    if strength == "strong":
        return strong_move(view, rng)
    if strength == "expert":
        return expert_move(view, rng)
    return greedy_move(view, rng)


def open_squares(view: FrogsView) -> list[Square]:
    """The squares the seat may shoot or guess."""
    board = Board(view.size)
    taken = set(view.shots) | set(view.revealed)
    taken |= {n for frogs in view.own_frogs.values() for n in frogs}
    return [s for s in board.squares() if s.name not in taken]


def random_move(view: FrogsView, rng: random.Random) -> str:
    return f"{rng.choice(['shoot', 'guess'])} {rng.choice(open_squares(view)).name}"


def strong_move(view: FrogsView, rng: random.Random) -> str:
    odds = frog_odds(view).probabilities
    likeliest = max(odds.values())
    if likeliest >= GUESS_ABOVE:
        return f"guess {rng.choice([n for n, p in odds.items() if p == likeliest])}"
    safest = min(odds.values())
    board = Board(view.size)

    def unknown_around(name: str) -> int:
        return sum(1 for s in board.neighbours(board.parse(name)) if s.name in odds)

    candidates = [n for n, p in odds.items() if p == safest]
    most = max(unknown_around(n) for n in candidates)
    return f"shoot {rng.choice([n for n in candidates if unknown_around(n) == most])}"


def greedy_move(view: FrogsView, rng: random.Random) -> str:
    """Guess a frog simple deductions make certain, else shoot a safe or random square."""
    board = Board(view.size)
    shots = {board.parse(n): c for n, c in view.shots.items()}
    revealed = {board.parse(n) for n in view.revealed}
    mine = {board.parse(n) for frogs in view.own_frogs.values() for n in frogs}
    empty = set(shots) | {board.parse(n) for n in view.misses}
    open_squares = [s for s in board.squares() if s not in shots and s not in revealed
                    and s not in mine]
    unknown = set(open_squares) - empty
    safe: set[Square] = set()
    certain: set[Square] = set()
    changed = True
    while changed:  # simple constraint propagation, as a minesweeper player does
        changed = False
        for square, count in shots.items():
            near = board.neighbours(square)
            known = sum(1 for s in near if s in revealed or s in mine or s in certain)
            candidates = [s for s in near if s in unknown and s not in safe and s not in certain]
            if not candidates:
                continue
            if count == known:
                safe.update(candidates)
                changed = True
            elif count - known == len(candidates):
                certain.update(candidates)
                changed = True
    if certain:
        return f"guess {min(certain).name}"
    fresh = sorted(safe - set(shots))
    if fresh:
        return f"shoot {rng.choice(fresh).name}"
    pool = sorted(unknown) or sorted(open_squares)
    return f"shoot {rng.choice(pool).name}"


SHOT_CANDIDATES = 6
"""How many of the safest squares the expert looks one shot ahead from (the rest are
alike: far from every number, or riskier)."""

LEAK = 3.0
"""Points a shot costs for each of the team's hidden frogs next to it: its number counts
them, and tells the opponents where to look. Measured against ``strong`` in Frog Finder
(seeded games, both seats): without it the expert won 4 of 40; with 3 and no lookahead,
24 of 40; with 6, 37 of 60."""

FOLLOW = 0.3
"""How much the best guess after a move counts (the lookahead's weight, a discount: the
opponents move in between, and a sure frog left for later is worth less than one taken
now). Measured with LEAK 3: at 1, 10 wins of 40 (it guessed 1-in-3 squares and put off
sure frogs); at 0, 24 of 40; at 0.3, 46 of 60."""

LIKELY = 0.01
"""A shot's number that comes with less than this chance is not looked past (its guess
would change the value by less than a twentieth of a point)."""


def expert_move(view: FrogsView, rng: random.Random) -> str:
    """The move worth the most expected points to the mover's team, looked ahead one turn.

    A guess (of the two likeliest squares) is worth its points now plus the best guess
    after its outcome (found or missed); a shot (of the safest squares) its risk of
    hitting a frog, less :data:`LEAK` for each of the team's frogs it counts, plus, for
    each number it may show, the best guess that number allows. What comes after is
    weighed by :data:`FOLLOW`. The best move is played, ties broken by ``rng``.
    """
    odds = frog_odds(view)
    stakes = _Stakes.of(view, odds)
    guesses = sorted(odds.probabilities, key=lambda n: -odds.probabilities[n])[:2]
    guess_values = {n: stakes.guess_value(view, n, odds) for n in guesses}
    best_guess = max(guesses, key=guess_values.__getitem__)
    guess_value = guess_values[best_guess]
    shot_values = {n: stakes.shot_value(view, n, odds) for n in _shot_candidates(view, odds, rng)}
    top = max(shot_values.values())
    if guess_value > top:
        return f"guess {best_guess}"
    return f"shoot {rng.choice([n for n, v in shot_values.items() if v == top])}"


@frozen
class _Stakes:
    """What a frog found, a frog shot and a miss are worth to the mover's team.

    Points go to teams; an opponent's gain counts against the mover divided among the
    opposing teams still in (with one opposing team it is a loss of as much). Revealing
    the last hidden frog of the last opponent ends the game with the bonus.
    """

    found: float
    """A correct guess: its points, plus the end bonus when it is the last frog."""
    shot: float
    """Shooting a frog: the shooter's penalty and the owner's gain (both negative to us),
    plus the end bonus when it is the last frog."""
    miss: float
    """A wrong guess (negative)."""

    @classmethod
    def of(cls, view: FrogsView, odds: Odds) -> _Stakes:
        team = view.teams[view.to_move] if view.to_move else ""
        opposing = {t for t in set(view.teams.values()) if t != team and t not in view.out}
        weight = 1 / max(1, len(opposing))
        own_hidden = sum(len(frogs) for frogs in view.own_frogs.values())
        bonus = LAST_STANDING_BONUS + own_hidden if odds.hidden == 1 else 0
        return cls(GUESS_GAIN + bonus, -SHOT_PENALTY * (1 + weight) + bonus, -MISS_PENALTY)

    def guess_now(self, p: float) -> float:
        """A guess's expected points where a frog is there with chance ``p``."""
        return p * self.found + (1 - p) * self.miss

    def best_guess(self, odds: Odds) -> float:
        """The best guess's expected points with these odds, or 0 when none pays."""
        likeliest = max(odds.probabilities.values(), default=0.0)
        return max(0.0, self.guess_now(likeliest))

    def guess_value(self, view: FrogsView, name: str, odds: Odds) -> float:
        """Guess ``name`` now, then the best guess after the outcome."""
        p = odds.probabilities[name]
        value = self.guess_now(p)
        if FOLLOW and p < 1:
            value += FOLLOW * (1 - p) * self.best_guess(frog_odds(replace(
                view, misses=tuple(sorted({*view.misses, name})))))
        if FOLLOW and p > 0 and odds.hidden > 1:
            value += FOLLOW * p * self.best_guess(frog_odds(_found(view, name, odds)))
        return value

    def shot_value(self, view: FrogsView, name: str, odds: Odds) -> float:
        """Shoot ``name`` now, then the best guess after the number it shows."""
        p = odds.probabilities[name]
        value = p * self.shot - LEAK * _own_around(view, name)
        if FOLLOW and p < 1:
            value += FOLLOW * (1 - p) * sum(chance * self.best_guess(after)
                                   for chance, after in _numbers(view, name))
        return value


def _own_around(view: FrogsView, name: str) -> int:
    """How many of the team's hidden frogs a shot on ``name`` would count."""
    board = Board(view.size)
    mine = {n for frogs in view.own_frogs.values() for n in frogs}
    return sum(1 for s in board.neighbours(board.parse(name)) if s.name in mine)


def _found(view: FrogsView, name: str, odds: Odds) -> FrogsView:
    """The view after a correct guess on ``name`` (the frog given to its likeliest owner)."""
    owner = max(sorted(odds.owners), key=lambda o: odds.owners[o])
    hidden = {**view.hidden_left, owner: view.hidden_left[owner] - 1}
    return replace(view, revealed={**view.revealed, name: Revealed(owner, "found")},
                   hidden_left=hidden)


def _numbers(view: FrogsView, name: str) -> list[tuple[float, Odds]]:
    """Each number a shot on empty ``name`` may show, as its chance and the odds after it.

    The chance of a number is the share of the placements with ``name`` empty that give
    it; numbers rarer than :data:`LIKELY` are left out.
    """
    board = Board(view.size)
    around = board.neighbours(board.parse(name))
    seen = {n for frogs in view.own_frogs.values() for n in frogs} | set(view.revealed)
    empty = set(view.shots) | set(view.misses)
    low = sum(1 for s in around if s.name in seen)
    high = low + sum(1 for s in around if s.name not in seen and s.name not in empty)
    views = [replace(view, shots={**view.shots, name: k}) for k in range(low, high + 1)]
    counts = [_placements(v) for v in views]
    total = sum(counts)
    return [(count / total, frog_odds(v)) for count, v in zip(counts, views, strict=True)
            if count and count / total >= LIKELY]


def _placements(view: FrogsView) -> int:
    """How many placements of the frogs the seat cannot see fit its view (0 if none)."""
    board = Board(view.size)
    known = {n for frogs in view.own_frogs.values() for n in frogs} | set(view.revealed)
    empty = set(view.shots) | set(view.misses)
    unknown = [s for s in board.squares() if s.name not in known and s.name not in empty]
    total = sum(count for seat, count in view.hidden_left.items()
                if seat not in view.own_frogs)
    candidates = set(unknown)
    constraints = []
    for shot, number in view.shots.items():
        near = board.neighbours(board.parse(shot))
        need = number - sum(1 for s in near if s.name in known)
        constraints.append((need, frozenset(s for s in near if s in candidates)))
    try:
        fixed, constraints = _propagate(constraints)
    except IllegalMoveError:
        return 0
    frogs = total - sum(fixed.values())
    frontier = {s for _, squares in constraints for s in squares}
    rest = sum(1 for s in unknown if s not in fixed and s not in frontier)
    if frogs < 0:
        return 0
    polys = [_Component(squares, cons, frogs).total
             for squares, cons in _components(sorted(frontier), constraints)]
    everything = _product(polys, frogs)
    return sum(everything[m] * comb(rest, frogs - m) for m in range(frogs + 1))


def _shot_candidates(view: FrogsView, odds: Odds, rng: random.Random) -> list[str]:
    """The safest squares, those next to more unknown squares first (their number tells
    more), ties in an order drawn by ``rng``."""
    board = Board(view.size)
    chances = odds.probabilities

    def unknown_around(name: str) -> int:
        return sum(1 for s in board.neighbours(board.parse(name)) if s.name in chances)

    names = sorted(chances)
    rng.shuffle(names)
    names.sort(key=lambda n: (chances[n], -unknown_around(n)))
    return names[:SHOT_CANDIDATES]
