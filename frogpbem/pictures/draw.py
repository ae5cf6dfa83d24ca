"""A picture of any view: each kind of view has its drawing, found by the view's class;
a ruleset without one has its text board drawn."""

from __future__ import annotations

from functools import singledispatch

from frogpbem.games import GameView, find_game
from frogpbem.games.froglet_view import FrogletView
from frogpbem.games.frogs_notation import FrogsView
from frogpbem.games.secretmove_view import SecretMoveView
from frogpbem.pictures import froglet, frogs, secretmove
from frogpbem.pictures.scene import Scene
from frogpbem.pictures.svg import Picture, tag


@singledispatch
def picture(board: GameView, scene: Scene) -> Picture:
    """The picture of a board (a ruleset's view); for a ruleset with no picture of its
    own, its text board drawn as text."""
    ruleset = find_game(board.rules)
    lines = ruleset.render(board, frozenset({scene.seat} if scene.seat else ())).split("\n")
    width = max(len(line) for line in lines) * 8 + 24
    drawn = Picture(width, len(lines) * 16 + 20, f"{ruleset.title} board")
    for index, line in enumerate(lines):
        drawn.add(tag("text", line, x=12, y=22 + index * 16, font_size=13,
                      font_family="DejaVu Sans Mono, monospace", style="white-space:pre"))
    return drawn


@picture.register(FrogsView)
def _frogs(board: FrogsView, scene: Scene) -> Picture:
    return frogs.draw(board, scene)


@picture.register(FrogletView)
def _froglet(board: FrogletView, scene: Scene) -> Picture:
    return froglet.draw(board, scene)


@picture.register(SecretMoveView)
def _secretmove(board: SecretMoveView, scene: Scene) -> Picture:
    return secretmove.draw(board, scene)
