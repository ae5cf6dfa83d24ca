"""A modest frog-finding bot for the demonstration, from a seat's view only."""

from __future__ import annotations

import random

from frogpbem.board import Board, Square
from frogpbem.games import JSON


def bot_move(view: JSON, rng: random.Random) -> str:
    """A modest player: guess a certain frog, else shoot a safe or random square."""
    board = Board(view["size"])
    shots = {board.parse(n): c for n, c in view["shots"].items()}
    revealed = {board.parse(n) for n in view["revealed"]}
    mine = {board.parse(n) for frogs in view["own_frogs"].values() for n in frogs}
    empty = set(shots) | {board.parse(n) for n in view["misses"]}
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
