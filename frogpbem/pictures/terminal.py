"""Colour for the text board on a terminal, with rich's styles.

Colour is used only when the output is a terminal, ``NO_COLOR`` is not set
and ``TERM`` is not ``dumb``; then every square's text is dressed from the
same view data as the pictures (the frogs in their seats' colours, found
frogs on gold, shot squares on grey, the last move underlined).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from frogpbem.games import GameView, Paint



def colour_wanted(stream: IO[str], environ: Mapping[str, str] = os.environ) -> bool:
    """Whether text written to ``stream`` should be coloured."""
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def painter(board: GameView, last: tuple[str, str] | None,
            stream: IO[str] | None = None) -> Paint:
    """The paint of a view's text board: (square name, text) to the text in colour.

    ``last`` is the last record's seat and public move. The colour depth is
    the one rich finds for ``stream`` (16 colours, 256 or true colour).
    """
    from rich.color import ColorSystem
    from rich.console import Console

    from frogpbem.pictures.colours import styles_of

    found = Console(file=stream, force_terminal=True).color_system
    system = {"256": ColorSystem.EIGHT_BIT, "truecolor": ColorSystem.TRUECOLOR,
              "windows": ColorSystem.WINDOWS}.get(found or "", ColorSystem.STANDARD)
    styles = styles_of(board, last)

    def paint(name: str, text: str) -> str:
        style = styles.get(name)
        return text if style is None else style.render(text, color_system=system)

    return paint
