"""Colour for the text board on a terminal, with rich's styles.

Colour is used only when the output is a terminal, ``NO_COLOR`` is not set
and ``TERM`` is not ``dumb``; then every square's text is dressed from the
same view data as the pictures (the frogs in their seats' colours, found
frogs on gold, shot squares on grey, the last move underlined).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import IO, TYPE_CHECKING

from frogpbem.pictures import JSON
from frogpbem.pictures.svg import SEAT_COLOURS

if TYPE_CHECKING:
    from rich.style import Style

    from frogpbem.games import Paint

_SQUARE_RE = re.compile(r"[A-Z][0-9]{1,2}")


def colour_wanted(stream: IO[str], environ: Mapping[str, str] = os.environ) -> bool:
    """Whether text written to ``stream`` should be coloured."""
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def painter(rules: str, board: JSON, last: tuple[str, str] | None,
            stream: IO[str] | None = None) -> Paint:
    """The paint of a view's text board: (square name, text) to the text in colour.

    ``last`` is the last record's seat and public move. The colour depth is
    the one rich finds for ``stream`` (16 colours, 256 or true colour).
    """
    from rich.color import ColorSystem
    from rich.console import Console

    found = Console(file=stream, force_terminal=True).color_system
    system = {"256": ColorSystem.EIGHT_BIT, "truecolor": ColorSystem.TRUECOLOR,
              "windows": ColorSystem.WINDOWS}.get(found or "", ColorSystem.STANDARD)
    styles = _styles(rules, board, last)

    def paint(name: str, text: str) -> str:
        style = styles.get(name)
        return text if style is None else style.render(text, color_system=system)

    return paint


def _styles(rules: str, board: JSON, last: tuple[str, str] | None) -> dict[str, Style]:
    from rich.style import Style

    moved = set(_SQUARE_RE.findall(last[1].upper())) if last else set()
    styles: dict[str, Style] = {}
    if rules == "froglet":
        from frogpbem.pictures.froglet import FROGS, squares

        for name, letter in squares(board).items():
            if letter in FROGS:
                styles[name] = Style(color=FROGS[letter][0], bold=True)
    elif rules == "secretmove":
        for seat, seat_board in board["boards"].items():
            for name in seat_board["stones"]:
                styles[f"{seat}:{name}"] = Style(bold=True)
        if last is not None:
            moved = {f"{last[0]}:{name}" for name in moved}
    else:
        from frogpbem.games.frogs_text import cells
        from frogpbem.pictures.frogs import GOLD, SHOT

        for name, cell in cells(board).items():
            colour = SEAT_COLOURS.get(cell.owner or "", "#9e9e9e")
            styles[name] = {
                "miss": Style(color="#b71c1c", bold=True),
                "shot": Style(color="#263238", bgcolor=SHOT),
                "own": Style(color=colour, italic=True),
                "shot_frog": Style(color=colour, bgcolor=SHOT, bold=True),
                "found": Style(color=colour, bgcolor=GOLD, bold=True),
            }.get(cell.kind, Style(color=colour, underline=True))
    for name in moved:
        styles[name] = styles.get(name, Style()) + Style(underline=True, reverse=True)
    return styles

