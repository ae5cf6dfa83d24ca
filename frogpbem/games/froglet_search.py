"""Froglet's ``expert`` search: alpha-beta (negamax, principal variation) with iterative
deepening, a transposition table and a node budget.

Pure and deterministic: no clock, no I/O, no randomness beyond a fixed-seed Zobrist
table, so that a position always gives the same move and a game replays from its seed.
The budget counts nodes (each position searched), not seconds.

A position is the board as one list of frog values (square ``row * size + col``: 1 green,
2 yellow, 3 red, 4 blue, 0 empty), kept beside it as one integer of bits a value (which
frogs can jump, and a leaf's best hop, are a few shifts of these), and the mover's lead
in points. A move is a path of squares: one square on a full board (the first move,
which removes a green frog), else a frog's jump, start first. The game ends when no
frog can jump (the same for both seats); a position there is worth exactly its result:
a win (:data:`WIN` plus the margin), a loss (``-WIN`` plus the margin), or 0 for a
draw. Elsewhere the evaluation is the mover's lead plus a share of its best single hop
now (having the move is worth something: every move captures).

Moves are tried in order: the transposition table's (or the last iteration's) best
first, then two killers a ply, then by history and points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from frogpbem.frozen import frozen

Path = tuple[int, ...]
"""A move: the squares of a jump, start first; or the one square a first move empties."""
Move = tuple[Path, int]
"""A move with the points it scores."""

WIN = 100_000
"""A won game's value before its margin: above any lead a search leaf can show."""
NODES = 3_000
"""The expert's default budget: positions searched per move."""
MAX_DEPTH = 64
"""Iterative deepening stops here at the latest."""
MOVE_SHARE = 0.5
"""The share of the mover's best jump now that a leaf's evaluation adds to its lead."""
GREEN = 1
"""A green frog's value: the first move removes one."""
BLUE = 4
"""A blue frog's value, the highest."""

_EXACT, _LOWER, _UPPER = 0, 1, 2


class _OutOfNodes(Exception):
    """The node budget is spent: the search unwinds to the root."""


def _hops(size: int) -> list[tuple[tuple[int, int], ...]]:
    """For each square, its hops on the board: (square jumped over, square landed on)."""
    table = []
    for square in range(size * size):
        row, col = divmod(square, size)
        found = []
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            r2, c2 = row + 2 * dr, col + 2 * dc
            if 0 <= r2 < size and 0 <= c2 < size:
                found.append(((row + dr) * size + col + dc, r2 * size + c2))
        table.append(tuple(found))
    return table


def _zobrist(size: int) -> list[tuple[int, ...]]:
    """A random 64-bit key for each (square, frog value), from a fixed seed."""
    rng = random.Random(0x5EED + size)
    return [tuple(rng.getrandbits(64) for _ in range(5)) for _ in range(size * size)]


def moves(size: int, cells: Sequence[int]) -> list[Move]:
    """Every move of the position with its points, in a stable order (see the module)."""
    return _Search(size, list(cells), 0).generate()


class _Search:
    """One search: the board it changes in place (and restores), its tables and counters."""

    def __init__(self, size: int, cells: list[int], budget: int) -> None:
        self.size = size
        self.cells = cells
        self.budget = budget
        self.nodes = 0
        self.hops = _hops(size)
        self.keys = _zobrist(size)
        self.masks = [0] * 5
        """The board as bits: for each value (0: empty), its squares (bit ``square``)."""
        for square, value in enumerate(cells):
            self.masks[value] |= 1 << square
        self.full = (1 << len(cells)) - 1
        columns = [square % size for square in range(len(cells))]
        self.inner = sum(1 << s for s, col in enumerate(columns) if 0 < col < size - 1)
        self.rightward = sum(1 << s for s, col in enumerate(columns) if col < size - 2)
        self.leftward = sum(1 << s for s, col in enumerate(columns) if col > 1)
        """The squares neither in the first column nor the last; those a frog may jump
        right from; those it may jump left from."""
        self.hash = 0
        for square, value in enumerate(cells):
            if value:
                self.hash ^= self.keys[square][value]
        self.table: dict[tuple[int, int], tuple[int, float, int, Path | None, bool]] = {}
        """By position: depth searched, value, its bound, best move, and whether every
        line under it reached the game's end."""
        self.generated: dict[bytes, list[Move]] = {}
        """The moves of each board searched (see :meth:`moves_here`)."""
        self.leaves: dict[int, int] = {}
        """The best single hop of each board looked at as a leaf, by its hash."""
        self.killers: list[list[Path]] = [[] for _ in range(MAX_DEPTH + 2)]
        self.history: dict[Path, int] = {}
        self.horizon = False
        """Whether the last iteration evaluated any position short of the game's end."""

    # --- moves ------------------------------------------------------------------------

    def starts(self) -> list[int]:
        """The squares of the frogs that can jump now, in order (from the boards of bits:
        a frog with a frog beside it and an empty square beyond, in a line)."""
        size, empty = self.size, self.masks[0]
        frogs = self.full ^ empty
        far = 2 * size
        can = frogs & ((frogs >> 1) & (empty >> 2) & self.rightward
                       | (frogs << 1) & (empty << 2) & self.leftward
                       | (frogs >> size) & (empty >> far) | (frogs << size) & (empty << far))
        found = []
        while can:
            lowest = can & -can
            found.append(lowest.bit_length() - 1)
            can ^= lowest
        return found

    def generate(self) -> list[Move]:
        """Every move now: removals of a green frog on a full board, else every jump path
        (each hop of a path is a move of its own: the mover may stop after any)."""
        cells = self.cells
        if not self.masks[0]:
            return [((square,), 0) for square, value in enumerate(cells) if value == GREEN]
        found: list[Move] = []
        hops = self.hops

        def extend(path: Path, here: int, points: int) -> None:
            for middle, end in hops[here]:
                jumped = cells[middle]
                if jumped and not cells[end]:
                    cells[middle] = 0  # the jumping frog is off the board until it stops
                    longer = (*path, end)
                    found.append((longer, points + jumped))
                    extend(longer, end, points + jumped)
                    cells[middle] = jumped

        for start in self.starts():
            value = cells[start]
            cells[start] = 0
            extend((start,), start, 0)
            cells[start] = value
        return found

    def moves_here(self) -> list[Move]:
        """:meth:`generate`, remembered by the board (iterative deepening comes back to a
        position at each depth); the list is shared: not to be changed."""
        board = bytes(self.cells)
        found = self.generated.get(board)
        if found is None:
            found = self.generated[board] = self.generate()
        return found

    def best_hop(self) -> int:
        """What the best single hop scores now (0: none, the game is over): a leaf's
        quick look at the move it has, remembered by the board's hash (leaves recur)."""
        known = self.leaves.get(self.hash)
        if known is not None:
            return known
        best = self.leaves[self.hash] = self._best_hop()
        return best

    def _best_hop(self) -> int:
        """:meth:`best_hop` looked for on the boards of bits (:attr:`masks`): the frogs
        with a frog on one side and an empty square on the other, in a line, then the
        highest value among them."""
        masks, size = self.masks, self.size
        empty = masks[0]
        frogs = self.full ^ empty
        jumpable = ((frogs << 1) & (empty >> 1) | (frogs >> 1) & (empty << 1)) & self.inner \
            | (frogs << size) & (empty >> size) | (frogs >> size) & (empty << size)
        for value in range(BLUE, 0, -1):
            if masks[value] & jumpable:
                return value
        return 0

    def play(self, path: Path) -> list[int]:
        """Play ``path`` on the board (and its hash); return what it took, for :meth:`undo`."""
        cells, keys, masks = self.cells, self.keys, self.masks
        start = path[0]
        value = cells[start]
        cells[start] = 0
        self.hash ^= keys[start][value]
        bit = 1 << start
        masks[value] ^= bit
        masks[0] ^= bit
        if len(path) == 1:
            return [value]
        taken = [value]
        for here, there in zip(path, path[1:], strict=False):
            middle = (here + there) // 2
            jumped = cells[middle]
            taken.append(jumped)
            cells[middle] = 0
            self.hash ^= keys[middle][jumped]
            bit = 1 << middle
            masks[jumped] ^= bit
            masks[0] ^= bit
        end = path[-1]
        cells[end] = value
        self.hash ^= keys[end][value]
        bit = 1 << end
        masks[value] ^= bit
        masks[0] ^= bit
        return taken

    def undo(self, path: Path, taken: list[int]) -> None:
        """Take back :meth:`play` of ``path``."""
        cells, keys, masks = self.cells, self.keys, self.masks
        value = taken[0]
        if len(path) > 1:
            end = path[-1]
            cells[end] = 0
            self.hash ^= keys[end][value]
            bit = 1 << end
            masks[value] ^= bit
            masks[0] ^= bit
            for (here, there), jumped in zip(zip(path, path[1:], strict=False), taken[1:],
                                             strict=True):
                middle = (here + there) // 2
                cells[middle] = jumped
                self.hash ^= keys[middle][jumped]
                bit = 1 << middle
                masks[jumped] ^= bit
                masks[0] ^= bit
        start = path[0]
        cells[start] = value
        self.hash ^= keys[start][value]
        bit = 1 << start
        masks[value] ^= bit
        masks[0] ^= bit

    def order(self, found: list[Move], first: Path | None, ply: int) -> list[Move]:
        """``found`` best first, as a guess: the table's move, the killers, then by history
        and points."""
        killers = self.killers[ply]
        history = self.history

        def key(move: Move) -> int:
            path, points = move
            if path == first:
                return -(1 << 40)
            if path in killers:
                return -(1 << 30) + killers.index(path)
            return -(history.get(path, 0) * 16 + points)

        return sorted(found, key=key)

    # --- search -----------------------------------------------------------------------

    def negamax(self, depth: int, alpha: float, beta: float, ply: int, lead: int,
                parity: int) -> float:
        """The value of the position for the mover, whose lead is ``lead`` (``parity``: 0
        when the root's mover moves), searched ``depth`` plies more."""
        if self.nodes >= self.budget:
            raise _OutOfNodes
        self.nodes += 1
        if depth <= 0:
            best_hop = self.best_hop()
            if not best_hop:
                return terminal(lead)
            self.horizon = True
            return lead + MOVE_SHARE * best_hop
        key = (self.hash ^ parity, lead)
        entry = self.table.get(key)  # only a position with moves is stored
        first = None
        if entry is not None:
            stored_depth, value, flag, first, complete = entry
            if stored_depth >= depth and (flag == _EXACT or flag == _LOWER and value >= beta
                                          or flag == _UPPER and value <= alpha):
                self.horizon |= not complete
                return value
        found = self.moves_here()
        if not found:
            return terminal(lead)
        outer_horizon, self.horizon = self.horizon, False
        start_alpha = alpha
        best, best_path = -float("inf"), None
        for index, (path, points) in enumerate(self.order(found, first, ply)):
            taken = self.play(path)
            try:
                if index == 0:
                    value = -self.negamax(depth - 1, -beta, -alpha, ply + 1, -(lead + points),
                                          parity ^ 1)
                else:  # a null window first: does this move beat the best so far?
                    value = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1,
                                          -(lead + points), parity ^ 1)
                    if alpha < value < beta:
                        value = -self.negamax(depth - 1, -beta, -alpha, ply + 1,
                                              -(lead + points), parity ^ 1)
            finally:
                self.undo(path, taken)
            if value > best:
                best, best_path = value, path
            alpha = max(alpha, value)
            if alpha >= beta:
                self.cutoff(path, ply, depth)
                break
        flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (depth, best, flag, best_path, not self.horizon)
        self.horizon |= outer_horizon
        return best

    def cutoff(self, path: Path, ply: int, depth: int) -> None:
        """Remember a move that refuted the opponent's: a killer at ``ply``, and history."""
        killers = self.killers[ply]
        if path not in killers:
            killers.insert(0, path)
            del killers[2:]
        self.history[path] = self.history.get(path, 0) + depth * depth

    def root(self, lead: int) -> Found:
        """The best move by iterative deepening within the budget (see :class:`Found`)."""
        found = self.generate()
        if not found:
            raise ValueError("no move: the game is over")
        ordered = self.order(found, None, 0)
        best = Found(ordered[0][0], 0.0, 0, 0, solved=False)
        for depth in range(1, MAX_DEPTH + 1):
            self.horizon = False
            alpha = -float("inf")
            iteration_best, iteration_value = None, -float("inf")
            try:
                for index, (path, points) in enumerate(ordered):
                    value = self.searched(path, -(lead + points), depth, alpha, index == 0)
                    if value > iteration_value:
                        iteration_best, iteration_value = path, value
                    alpha = max(alpha, value)
            except _OutOfNodes:
                # the first move (the last iteration's best) was searched: a better one
                # found since is better still
                if iteration_best is not None:
                    best = Found(iteration_best, iteration_value, depth, self.nodes,
                                 solved=abs(iteration_value) >= WIN / 2)
                return replace(best, nodes=self.nodes)
            assert iteration_best is not None
            solved = not self.horizon or abs(iteration_value) >= WIN / 2
            best = Found(iteration_best, iteration_value, depth, self.nodes, solved)
            if solved:
                break
            ordered.sort(key=lambda move: move[0] != best.path)  # stable: best first
        return replace(best, nodes=self.nodes)

    def searched(self, path: Path, lead: int, depth: int, alpha: float, first: bool) -> float:
        """The value of the root's move ``path`` (``lead``: the opponent's after it), or
        at most ``alpha`` if it is no better than that (a null window, then a full one)."""
        taken = self.play(path)
        try:
            if first:
                return -self.negamax(depth - 1, -float("inf"), -alpha, 1, lead, 1)
            value = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, lead, 1)
            if value > alpha:
                value = -self.negamax(depth - 1, -float("inf"), -alpha, 1, lead, 1)
            return value
        finally:
            self.undo(path, taken)


@frozen
class Found:
    """What a search found: the move, its value and how sure it is."""

    path: Path
    """The move (see :data:`Path`)."""
    value: float
    """Its value for the mover: above ``WIN / 2`` a won game, below ``-WIN / 2`` a lost
    one; otherwise a lead in points as far as the search saw."""
    depth: int
    """The plies of the deepest iteration that searched the move (0: none did)."""
    nodes: int
    """The positions searched, at most the budget."""
    solved: bool
    """Whether the value is the game's exact result under best play (every line
    searched to the game's end, or a forced win or loss found)."""


def terminal(lead: int) -> int:
    """A finished game's exact value for a seat with ``lead``: a win, a loss, or a draw."""
    if lead > 0:
        return WIN + lead
    if lead < 0:
        return -WIN + lead
    return 0


def best_move(size: int, cells: Sequence[int], lead: int = 0, nodes: int = NODES) -> Found:
    """The expert's move on ``cells`` for a mover ``lead`` points ahead, searched within
    ``nodes`` positions. Raises :class:`ValueError` when the game is over (no move)."""
    return _Search(size, list(cells), nodes).root(lead)
