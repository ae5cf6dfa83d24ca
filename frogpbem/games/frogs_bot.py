"""Frog-finding bots at three strengths (``expert`` plays as ``strong`` for now), each from a
seat's view only.

- ``random``: shoots or guesses any open square.
- ``greedy``: guesses a frog its simple deductions make certain, else shoots a
  square they make safe, else any square (the demonstration's old bot).
- ``strong``: reads the exact odds (:mod:`frogpbem.games.frogs_hint`): guesses
  the likeliest square when a frog there is likely enough to pay, else shoots
  the safest square, preferring one next to many unknown squares (its number
  tells more).
"""

from __future__ import annotations

import random

from frogpbem.board import Board, Square
from frogpbem.games.frogs_hint import frog_odds
from frogpbem.games.frogs_notation import FrogsView

GUESS_ABOVE = 0.5
"""The strong bot guesses when the likeliest square holds a frog with at least this chance
(a guess pays +5 or costs 3; a shot is safe and tells a number)."""


def bot_move(view: FrogsView, rng: random.Random, strength: str = "greedy") -> str:
    """A move for the seat whose view this is, at ``strength``."""
    if strength == "random":
        return random_move(view, rng)
    if strength in ("strong", "expert"):  # expert: the strong bot, for now
        return strong_move(view, rng)
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
