"""Squares, coordinates and neighbours on a rectangular board.

Columns are letters from ``A`` (left), rows are numbers from ``1`` (bottom),
so ``A1`` is bottom-left. Input is case-insensitive; output is upper case.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from frogpbem.errors import NotationError
from frogpbem.frozen import frozen
from frogpbem.safetext import quoted

MAX_SIZE = 26
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The columns' letters (``string`` is not imported just for them, at every command's start)."""
SQUARE_ORDER = operator.attrgetter("col", "row")
"""A sort key giving the squares' own order (column, then row), compared without calling
``Square.__lt__`` once per comparison: sorting a long game's board costs far less."""
_SQUARE_RE = re.compile(r"([A-Za-z])([1-9][0-9]?)")


@dataclass(frozen=True, order=True, slots=True)
class Square:
    """A square of the board, 0-based internally."""

    col: int
    """Column, 0 for ``A``."""
    row: int
    """Row, 0 for ``1``."""

    @classmethod
    def parse(cls, text: str) -> Square:
        """Parse ``G9`` (or ``g9``); raises :class:`NotationError`."""
        match = _SQUARE_RE.fullmatch(text.strip())
        if match is None:
            raise NotationError(f"expected a square such as 'G9', got {quoted(text)}")
        return cls(ord(match[1].upper()) - ord("A"), int(match[2]) - 1)

    @property
    def name(self) -> str:
        """Canonical name, e.g. ``G9``."""
        return _name(self.col, self.row)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Square.parse({self.name!r})"


@frozen(slots=True)
class Board:
    """The geometry of a square board of ``size`` x ``size`` squares."""

    size: int
    """Number of columns and of rows."""

    def __post_init__(self) -> None:
        if not 1 <= self.size <= MAX_SIZE:
            raise ValueError(f"board size must be 1..{MAX_SIZE}, got {self.size}")

    def contains(self, square: Square) -> bool:
        return 0 <= square.col < self.size and 0 <= square.row < self.size

    def parse(self, text: str) -> Square:
        """Parse a square and check that it lies on this board."""
        square = Square.parse(text)
        if not self.contains(square):
            last = Square(self.size - 1, self.size - 1).name
            raise NotationError(f"square {square.name} is off the board (A1..{last})")
        return square

    def squares(self) -> Iterator[Square]:
        """Every square, row by row from A1."""
        for row in range(self.size):
            for col in range(self.size):
                yield Square(col, row)

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """The up to 8 squares around ``square`` (king moves)."""
        return _neighbours(self.size, square)


def text_grid(size: int, cell: Callable[[str], str],
              paint: Callable[[str, str], str] | None = None) -> list[str]:
    """A board as text lines: column letters above and below, row numbers at both sides.

    ``cell`` gives the three characters shown for a square name (``G9``); the
    top row is printed first, as the board is seen. ``paint`` (name, text)
    may dress each square's text, with colour codes for a terminal.
    """
    if paint is not None:
        plain = cell

        def cell(name: str) -> str:
            return paint(name, plain(name))

    letters = "".join(f" {LETTERS[c]} " for c in range(size))
    lines = [f"    {letters}"]
    for row in range(size, 0, -1):
        cells = "".join(cell(f"{LETTERS[c]}{row}") for c in range(size))
        lines.append(f"{row:>3} {cells} {row}")
    lines.append(f"    {letters}")
    return lines


TEXT_WIDTH = 76
"""The widest line of a text legend: a view fits a mail body and an 80-column terminal."""


def text_legend(items: Sequence[str], separator: str = "    ", width: int = TEXT_WIDTH,
                indent: str = "  ", hang: str | None = None) -> list[str]:
    """Items (``.  open``) packed into lines of at most ``width`` columns, the first line
    after ``indent``, the others after ``hang`` (``indent`` by default). An item is never
    split (one longer than a line has a line of its own), and a line broken after a comma
    ends with it."""
    after = indent if hang is None else hang
    lines: list[str] = []
    line = ""
    for item in items:
        margin = after if lines else indent
        if line and len(margin) + len(line) + len(separator) + len(item) > width:
            lines.append(f"{margin}{line}{separator.rstrip()}")
            line = item
        else:
            line = f"{line}{separator}{item}" if line else item
    return [*lines, f"{after if lines else indent}{line}"] if line else lines


@cache
def _name(col: int, row: int) -> str:
    """A square's name, made once (a long game's views name every square at every move)."""
    return f"{LETTERS[col]}{row + 1}"


@cache
def _neighbours(size: int, square: Square) -> tuple[Square, ...]:
    board = Board(size)
    return tuple(
        s
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and board.contains(s := Square(square.col + dc, square.row + dr))
    )
