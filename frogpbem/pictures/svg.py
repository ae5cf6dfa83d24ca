"""SVG written as text: a handful of shapes, every value escaped.

No library earns its place here: the pictures use rectangles, circles, lines,
paths and text, and writing them directly keeps the files small and their
bytes exactly reproducible (the two-setups test compares them).
"""

from __future__ import annotations

import string
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from html import escape

from frogpbem.frozen import frozen
from frogpbem.safetext import safe

INK = "#263238"
"""Lines and text."""
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
"""Installed fonts only, by name: nothing is fetched."""

SEAT_COLOURS = {"red": "#d32f2f", "blue": "#1976d2", "black": "#263238", "purple": "#7b1fa2",
                "yellow": "#fbc02d", "green": "#388e3c", "white": "#fafafa"}
"""Each seat's colour; an unknown seat is drawn grey."""
LIGHT_SEATS = {"yellow", "white"}
"""Seats whose colour needs dark text on it."""


STYLE = (
    f".sq{{stroke:#90a4ae;stroke-width:1}}"
    f".l{{font-size:14px;font-weight:bold;text-anchor:middle;fill:{INK}}}"
    f".c{{font-size:12px;fill:{INK}}}.m{{text-anchor:middle}}.e{{text-anchor:end}}"
    f".f{{stroke:{INK};stroke-width:1.2}}.f .i{{fill:{INK};stroke:none}}"
    ".f text{font-size:10px;font-weight:bold;text-anchor:middle;stroke:none}"
    ".d{stroke-dasharray:3 2}"
)
"""The classes the pictures share (kept short: a 12x12 board has hundreds of elements)."""


def seat_colour(seat: str) -> str:
    return SEAT_COLOURS.get(seat, "#9e9e9e")


def text_on(seat: str) -> str:
    """The colour of a letter written on ``seat``'s colour."""
    return INK if seat in LIGHT_SEATS else "#ffffff"


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


@lru_cache(maxsize=1024)
def _escaped(text: str) -> str:
    """Text as an attribute value or element text: one line, markup escaped (a board
    repeats a few colours and classes many times, hence the cache)."""
    return escape(safe(text))


def _value(value: object) -> str:
    if type(value) is int:
        return str(value)
    if isinstance(value, float):
        return _number(value)
    return _escaped(str(value))


@cache
def _attribute(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def tag(name: str, text: str | None = None, /, **attributes: object) -> str:
    """One element: ``tag("rect", x=1, fill="red")``; ``_`` in names becomes ``-``."""
    pairs = "".join(f' {_attribute(key)}="{_value(value)}"'
                    for key, value in attributes.items() if value is not None)
    if text is None:
        return f"<{name}{pairs}/>"
    return f"<{name}{pairs}>{escape(safe(text))}</{name}>"  # not cached: names, moves


@dataclass
class Picture:
    """A drawing: its size and its elements, in the order they are painted."""

    width: int
    height: int
    """Set once everything is drawn (text wraps to the width)."""
    title: str
    parts: list[str] = field(default_factory=list)

    def add(self, *parts: str) -> None:
        self.parts.extend(parts)

    def text(self, x: float, y: float, words: str, size: int = 13, anchor: str = "start",
             weight: str | None = None, fill: str = INK) -> None:
        self.add(tag("text", words, x=x, y=y, font_size=size, text_anchor=anchor,
                     font_weight=weight, fill=fill))

    def paragraph(self, x: float, y: float, words: str, size: int = 13,
                  weight: str | None = None, fill: str = INK) -> float:
        """``words`` from (x, y), wrapped to the picture's width; the baseline after it."""
        room = max(10, int((self.width - x - 8) / (size * 0.6)))
        for line in textwrap.wrap(words, room) or [""]:
            self.text(x, y, line, size=size, weight=weight, fill=fill)
            y += size * 1.4
        return y

    def svg(self, standalone: bool = False) -> str:
        """The SVG element (``standalone``: with the XML declaration, as a file)."""
        head = ('<?xml version="1.0" encoding="UTF-8"?>\n' if standalone else "")
        return (f'{head}<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
                f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" '
                f'font-family="{escape(FONT)}" role="img">'
                + tag("title", self.title) + f"<style>{STYLE}</style>"
                + tag("rect", width=self.width, height=self.height, fill="#ffffff")
                + "".join(self.parts) + "</svg>\n")


@frozen
class Grid:
    """Where the squares of a ``size`` x ``size`` board are: ``A1`` bottom-left."""

    size: int
    x: int
    """Left edge of column A."""
    y: int
    """Top edge of the top row."""
    cell: int
    """Side of a square."""

    @property
    def side(self) -> int:
        return self.size * self.cell

    def names(self) -> Iterator[str]:
        """Every square name, row by row from the top."""
        for row in range(self.size, 0, -1):
            for col in range(self.size):
                yield f"{string.ascii_uppercase[col]}{row}"

    def corner(self, name: str) -> tuple[int, int]:
        """The top-left corner of square ``name``."""
        col = ord(name[0]) - ord("A")
        row = int(name[1:]) - 1
        return self.x + col * self.cell, self.y + (self.size - 1 - row) * self.cell

    def centre(self, name: str) -> tuple[float, float]:
        x, y = self.corner(name)
        return x + self.cell / 2, y + self.cell / 2

    def square(self, name: str, fill: str, **attributes: object) -> str:
        x, y = self.corner(name)
        if not attributes:
            return _square(x, y, self.cell, fill)
        return tag("rect", x=x, y=y, width=self.cell, height=self.cell, fill=fill,
                   class_="sq", **attributes)

    def outline(self, name: str, colour: str = "#ff6d00") -> str:
        """The mark of a square of the last move: a thick frame inside it."""
        x, y = self.corner(name)
        return tag("rect", x=x + 2, y=y + 2, width=self.cell - 4, height=self.cell - 4,
                   fill="none", stroke=colour, stroke_width=3)

    def label(self, name: str, words: str, size: int = 14, fill: str | None = None) -> str:
        """Bold words in the middle of a square."""
        x, y = self.centre(name)
        return _label(x, round(y + size * 0.36, 2), words, size, fill)

    def coordinates(self, above: bool = True) -> list[str]:
        """Column letters below (and ``above``), row numbers at both sides."""
        return list(_coordinates(self, above))

    def _coordinate_labels(self, above: bool) -> tuple[str, ...]:
        parts = []
        half = self.cell / 2
        for col in range(self.size):
            letter = string.ascii_uppercase[col]
            x = self.x + col * self.cell + half
            if above:
                parts.append(tag("text", letter, class_="c m", x=x, y=self.y - 6))
            parts.append(tag("text", letter, class_="c m", x=x, y=self.y + self.side + 15))
        for row in range(1, self.size + 1):
            y = self.y + (self.size - row) * self.cell + half + 4
            parts.append(tag("text", str(row), class_="c e", x=self.x - 5, y=y))
            parts.append(tag("text", str(row), class_="c", x=self.x + self.side + 5, y=y))
        return tuple(parts)

    def heat(self, name: str, probability: float, words: str | None = None) -> list[str]:
        """A hint's probability on a square: red in proportion, and the figure (or
        ``words``)."""
        x, y = self.corner(name)
        return [tag("rect", x=x + 1, y=y + 1, width=self.cell - 2, height=self.cell - 2,
                    fill="#e53935", fill_opacity=round(0.08 + 0.6 * probability, 3)),
                tag("text", words or f"{round(100 * probability)}", x=x + self.cell - 3,
                    y=y + self.cell - 4, font_size=9, text_anchor="end", fill=INK)]


# A board draws the same few hundred squares, labels and frogs again and again (the judge
# draws one picture per seat per move): each is made once.


@lru_cache(maxsize=8192)
def _square(x: int, y: int, cell: int, fill: str) -> str:
    return tag("rect", x=x, y=y, width=cell, height=cell, fill=fill, class_="sq")


@lru_cache(maxsize=8192)
def _label(x: float, y: float, words: str, size: int, fill: str | None) -> str:
    return tag("text", words, class_="l", x=x, y=y, font_size=None if size == 14 else size,
               fill=fill)


@lru_cache(maxsize=64)
def _coordinates(grid: Grid, above: bool) -> tuple[str, ...]:
    return grid._coordinate_labels(above)


@lru_cache(maxsize=8192)
def frog(x: float, y: float, colour: str, letter: str, letter_colour: str,
         upside_down: bool = False, dashed: bool = False, scale: float = 1.0) -> str:
    """A frog centred on (x, y): body, two eyes on top, the seat's letter on its back.

    Shot frogs lie upside down and hidden ones have a dashed outline, so the
    kinds are told apart without colour.
    """
    turn = " rotate(180)" if upside_down else ""
    size = f" scale({scale})" if scale != 1 else ""
    kind = "f d" if dashed else "f"
    return (f'<g class="{kind}" transform="translate({_number(x)} {_number(y)}){turn}{size}" '
            f'fill="{colour}"><ellipse cy="3" rx="12" ry="9"/>'
            '<circle cx="-6.5" cy="-6" r="4.2"/><circle cx="6.5" cy="-6" r="4.2"/>'
            '<circle class="i" cx="-6.5" cy="-6.5" r="1.6"/>'
            '<circle class="i" cx="6.5" cy="-6.5" r="1.6"/>'
            + tag("text", letter, y=7, fill=letter_colour) + "</g>")


def cross(grid: Grid, name: str, colour: str = "#b71c1c") -> str:
    """The mark of a wrong guess: an X across the square."""
    x, y = grid.corner(name)
    inset = grid.cell * 0.28
    far = grid.cell - inset
    return (f'<path d="M{_number(x + inset)} {_number(y + inset)}L{_number(x + far)} '
            f'{_number(y + far)}M{_number(x + far)} {_number(y + inset)}L{_number(x + inset)} '
            f'{_number(y + far)}" stroke="{colour}" stroke-width="3" stroke-linecap="round"/>')
