"""The colours of a text board's squares on a terminal, by what is on them (rich's
styles): each kind of view has its own, found by the view's class."""

from __future__ import annotations

import re
from functools import singledispatch
from typing import TYPE_CHECKING

from frogpbem.games import GameView
from frogpbem.games.froglet_view import FrogletView
from frogpbem.games.frogs_notation import FrogsView
from frogpbem.games.frogs_text import cells
from frogpbem.games.secretmove_view import SecretMoveView
from frogpbem.pictures.froglet import FROGS, squares
from frogpbem.pictures.frogs import GOLD, SHOT
from frogpbem.pictures.svg import SEAT_COLOURS

if TYPE_CHECKING:
    from rich.style import Style

_SQUARE_RE = re.compile(r"[A-Z][0-9]{1,2}")


def styles_of(board: GameView, last: tuple[str, str] | None) -> dict[str, Style]:
    """Each square's style: the pieces' own (:func:`pieces`), the last move's underlined."""
    from rich.style import Style

    moved = set(_SQUARE_RE.findall(last[1].upper())) if last else set()
    styles = pieces(board)
    if isinstance(board, SecretMoveView) and last is not None:
        moved = {f"{last[0]}:{name}" for name in moved}
    for name in moved:
        styles[name] = styles.get(name, Style()) + Style(underline=True, reverse=True)
    return styles


@singledispatch
def pieces(board: GameView) -> dict[str, Style]:
    """The style of each square of a board by what is on it (none for a ruleset without
    colours of its own)."""
    return {}


@pieces.register(FrogletView)
def _froglet(board: FrogletView) -> dict[str, Style]:
    from rich.style import Style

    return {name: Style(color=FROGS[letter][0], bold=True)
            for name, letter in squares(board).items() if letter in FROGS}


@pieces.register(SecretMoveView)
def _secretmove(board: SecretMoveView) -> dict[str, Style]:
    from rich.style import Style

    return {f"{seat}:{name}": Style(bold=True)
            for seat, seat_board in board.boards.items() for name in seat_board.stones}


@pieces.register(FrogsView)
def _frogs(board: FrogsView) -> dict[str, Style]:
    from rich.style import Style

    styles: dict[str, Style] = {}
    for name, cell in cells(board).items():
        colour = SEAT_COLOURS.get(cell.owner or "", "#9e9e9e")
        styles[name] = {
            "miss": Style(color="#b71c1c", bold=True),
            "shot": Style(color="#263238", bgcolor=SHOT),
            "own": Style(color=colour, italic=True),
            "shot_frog": Style(color=colour, bgcolor=SHOT, bold=True),
            "found": Style(color=colour, bgcolor=GOLD, bold=True),
        }.get(cell.kind, Style(color=colour, underline=True))
    return styles
