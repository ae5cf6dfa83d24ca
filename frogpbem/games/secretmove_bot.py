"""Secret Move's ``expert`` bot: points weighed against what a move tells the opponent.

Every stone move ``A1-B2 n`` is public and proves ``value(B2) - value(A1) >= n``: it
rules out the mover's value grids where that fails, and the opponent guesses among the
grids left (docs/rules.md §4). A guess only counts when the scores end within 27 of each
other, so a move is worth its points *and* the guessing odds it leaves.

The bot plays from its own view alone. It replays the opponent's public moves against
each grid they still fit and weighs the grid by how likely those moves were there (mostly
the move scoring most, as the ``strong`` bot plays; sometimes any legal move), which gives
a chance for each grid, hence the opponent's final score after it keeps scoring greedily.
For each of its own plans (one legal move, then its best-scoring moves for ``k`` turns,
then a pass; or a pass now) it knows its final score exactly and how many of its grids
the opponent can still pick from; it plays the first move of the plan with the best
chance to win. A guess names the likeliest grid.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING

from frogpbem.games.secretmove_view import MARGIN, SQUARES, START_STONES, adjacent, values_of

if TYPE_CHECKING:
    import random

    from frogpbem.games.secretmove_view import SecretMoveView

Grid = tuple[int, ...]
"""A value grid: the nine squares' values, in :data:`SQUARES` order."""
Step = tuple[int, int, int]
"""A stone move as indices into :data:`SQUARES`: from, to, how many stones."""

WANDER = 0.15
"""The chance the opponent model gives to a move other than its best-scoring one."""
GUESS_FLOOR = 0.35
"""The least chance of guessing the opponent right that the bot counts on while the
opponent still moves (its later moves narrow its grids down)."""

_INDEX = {square: i for i, square in enumerate(SQUARES)}
_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (i, j) for i, a in enumerate(SQUARES) for j, b in enumerate(SQUARES) if adjacent(a, b))
"""Every ordered pair of neighbouring squares."""


@cache
def grid_table() -> tuple[tuple[Grid, int], ...]:
    """Every distinct value grid with how many of the 720 header arrangements make it
    (its weight before any move: the headers are drawn uniformly)."""
    counts: Counter[Grid] = Counter()
    for numbers in itertools.permutations(range(6)):
        values = values_of({"cols": numbers[:3], "rows": numbers[3:]})
        counts[tuple(values[s] for s in SQUARES)] += 1
    return tuple(counts.items())


def legal_steps(stones: Sequence[int], grid: Grid) -> list[Step]:
    """Every legal stone move on a board of ``stones`` with values ``grid``."""
    return [(i, j, n) for i, j in _PAIRS if grid[j] > grid[i]
            for n in range(1, min(grid[j] - grid[i], stones[i]) + 1)]


def best_steps(stones: Sequence[int], grid: Grid) -> list[Step]:
    """The legal moves that add most to the score (what ``strong`` chooses among)."""
    steps = legal_steps(stones, grid)
    if not steps:
        return []
    top = max(n * (grid[j] - grid[i]) for i, j, n in steps)
    return [(i, j, n) for i, j, n in steps if n * (grid[j] - grid[i]) == top]


def moved(stones: Sequence[int], step: Step) -> list[int]:
    """The stones after ``step``."""
    i, j, n = step
    after = list(stones)
    after[i] -= n
    after[j] += n
    return after


def points(stones: Sequence[int], grid: Grid) -> int:
    return sum(s * v for s, v in zip(stones, grid, strict=True))


def _fits(grid: Grid, step: Step) -> bool:
    i, j, n = step
    return grid[j] - grid[i] >= n


def _steps_of(history: Iterable[tuple[str, str, int]]) -> list[Step]:
    return [(_INDEX[src], _INDEX[dst], n) for src, dst, n in history]


def _stones_of(board: Mapping[str, int]) -> list[int]:
    return [board[s] for s in SQUARES]


def posterior(history: Sequence[tuple[str, str, int]],
              stuck: Sequence[Mapping[str, int]]) -> list[tuple[Grid, float]]:
    """The grids that fit a seat's public moves, each with its chance (summing to 1): the
    header draw's weight times how likely the moves were under the grid, for a player who
    makes a best-scoring move but for a :data:`WANDER` chance of any legal one."""
    steps = _steps_of(history)
    stuck_boards = [_stones_of(board) for board in stuck]
    weighted = []
    for grid, count in grid_table():
        if not all(_fits(grid, step) for step in steps):
            continue
        if any(legal_steps(board, grid) for board in stuck_boards):
            continue
        weight = float(count)
        stones = [START_STONES] * 9
        for step in steps:
            legal = legal_steps(stones, grid)
            best = best_steps(stones, grid)
            weight *= WANDER / len(legal) + (1 - WANDER) * (step in best) / len(best)
            stones = moved(stones, step)
        weighted.append((grid, weight))
    total = sum(w for _, w in weighted)
    if total <= 0:  # the view is self-contradictory: fall back on the plain weights
        return [(g, 1.0) for g, _ in weighted]
    return [(g, w / total) for g, w in weighted]


def greedy_total(stones: Sequence[int], grid: Grid, moves_left: int) -> int:
    """The final score of a seat that makes its first best-scoring move each turn."""
    board = list(stones)
    for _ in range(moves_left):
        best = best_steps(board, grid)
        if not best:
            break
        board = moved(board, best[0])
    return points(board, grid)


def win_chance(mine: int, theirs: Sequence[tuple[int, float]], seen: float,
               see: float) -> float:
    """The chance to win (a draw counted half) with final score ``mine`` against final
    scores ``theirs`` (score, chance), when the opponent guesses us right with chance
    ``seen`` and we guess it right with chance ``see``."""
    alone = see * (1 - seen)
    same = see * seen + (1 - see) * (1 - seen)
    chance = 0.0
    for score, weight in theirs:
        lead = mine - score
        if lead > MARGIN:
            chance += weight
        elif lead >= -MARGIN:
            chance += weight * (alone + same * (1.0 if lead > 0 else 0.5 if lead == 0 else 0))
    return chance


def plans(stones: Sequence[int], grid: Grid, moves_left: int,
          fitting: Sequence[Grid]) -> list[tuple[Step | None, int, int]]:
    """Each plan's first move (``None``: pass now), final score and how many grids still
    fit at the end; a plan is one legal move, best-scoring moves after it for some turns,
    then a pass (or an automatic one, which tells that no move was left)."""
    result: list[tuple[Step | None, int, int]] = []
    now = points(stones, grid)
    if legal_steps(stones, grid):
        result.append((None, now, len(fitting)))
    for first in legal_steps(stones, grid):
        board, left, fit = list(stones), moves_left, list(fitting)
        step: Step | None = first
        while step is not None and left > 0:
            board = moved(board, step)
            left -= 1
            fit = [g for g in fit if _fits(g, step)]
            best = best_steps(board, grid)
            step = best[0] if best else None
            if step is None and left > 0:  # stuck: the automatic pass tells it
                fit = [g for g in fit if not legal_steps(board, g)]
            result.append((first, points(board, grid), len(fit)))
    return result


def _their_finals(view: SecretMoveView, other: str,
                  chances: Sequence[tuple[Grid, float]]) -> list[tuple[int, float]]:
    """The opponent's final score, with its chance, if it scores greedily to the end."""
    board = view.boards[other]
    stones = _stones_of(board.stones)
    left = 0 if board.done else board.moves_left
    finals: Counter[int] = Counter()
    for grid, chance in chances:
        finals[greedy_total(stones, grid, left)] += chance  # type: ignore[assignment]
    return sorted(finals.items())


def choose_move(view: SecretMoveView, seat: str, rng: random.Random) -> str:
    """The expert's stone move or pass in the move phase (``pass`` with no legal move)."""
    mine = view.boards[seat]
    if mine.values is None:
        return "pass"
    grid = tuple(mine.values[s] for s in SQUARES)
    stones = _stones_of(mine.stones)
    if not legal_steps(stones, grid):
        return "pass"
    other = next(s for s in view.seats if s != seat)
    chances = posterior(view.history[other], view.boards[other].stuck or ())
    theirs = _their_finals(view, other, chances)
    sure = max((c for _, c in chances), default=1.0)
    see = sure if view.boards[other].done else max(sure, GUESS_FLOOR)
    steps = _steps_of(view.history[seat])
    fitting = [g for g, _ in grid_table() if all(_fits(g, step) for step in steps)]
    best: dict[Step | None, float] = {}
    for first, score, grids in plans(stones, grid, mine.moves_left, fitting):
        chance = win_chance(score, theirs, 1 / max(grids, 1), see)
        best[first] = max(chance, best.get(first, 0.0))
    top = max(best.values())
    choice = rng.choice([first for first, chance in best.items() if chance >= top - 1e-9])
    if choice is None:
        return "pass"
    i, j, n = choice
    return f"{SQUARES[i]}-{SQUARES[j]} {n}"


def choose_guess(view: SecretMoveView, seat: str, rng: random.Random) -> str:
    """The opponent's likeliest grid, as a guess."""
    other = next(s for s in view.seats if s != seat)
    chances = posterior(view.history[other], view.boards[other].stuck or ())
    top = max(c for _, c in chances)
    guess = rng.choice([g for g, c in chances if c >= top * (1 - 1e-9)])
    digits = "".join(map(str, guess))
    return f"guess {digits[:3]}/{digits[3:6]}/{digits[6:]}"


def expert_move(view: SecretMoveView, seat: str, rng: random.Random) -> str:
    """The ``expert`` bot's move from ``seat``'s view."""
    if view.phase == "guess":
        return choose_guess(view, seat, rng)
    return choose_move(view, seat, rng)
