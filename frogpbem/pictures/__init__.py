"""Pictures of views: SVG boards, HTML pages, colour in the terminal.

A board is drawn from the ruleset's view data (what ``Ruleset.view`` gives
for one holder, the data of the text board and of ``--json``) and a
:class:`Scene` (whose view, the names, the last move): a picture can show
only what its holder may know. Pictures are self-contained: no external
fonts, scripts, images or links, and no element ids (a page can hold many).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from frogpbem.frozen import frozen
from frogpbem.pictures.svg import Picture

JSON = Any

Drawer = Callable[[JSON, "Scene"], Picture]


@frozen
class Scene:
    """What a picture of one board shows besides the board: whose it is, names, last move."""

    seat: str | None
    """The seat whose view it is (``None``: the public or the referee)."""
    names: Mapping[str, str]
    """Each seat's player name, as the game file gives it."""
    last: tuple[str, str] | None = None
    """The last record's seat and public move, highlighted (``None``: no record yet)."""
    heat: Mapping[str, float] = field(default_factory=dict)
    """A probability per square name, drawn as a heat map (hints), if any."""
    labels: Mapping[str, str] = field(default_factory=dict)
    """Words for a square of the heat map instead of its percent (``7: 62%``)."""


def status(board: JSON) -> str:
    """How the game stands, in words: the outcome, else whose turn it is."""
    outcome = board.get("outcome")
    if outcome:
        standing = ", ".join(f"{p['rank']}. {p['seat']} {p['points']}"
                             for p in outcome["standing"])
        return f"Game over: {outcome['termination']}. {standing}"
    to_move = board.get("to_move")
    clock = board.get("clock")  # a running game's deadline, or its pause, in words
    return " ".join([*([f"To move: {to_move}."] if to_move else []),
                     *([clock] if isinstance(clock, str) else [])])


def with_termination(board: JSON, termination: str) -> JSON:
    """``board`` with its outcome's termination told in other words (a resignation the
    referee recorded on a passed deadline: ``red lost on time``)."""
    outcome = board.get("outcome") if isinstance(board, dict) else None
    if not isinstance(outcome, dict):
        return board
    return {**board, "outcome": {**outcome, "termination": termination}}


def drawer(rules: str) -> Drawer:
    """The function that draws a board of ``rules`` (by the ruleset's name)."""
    from frogpbem.pictures import froglet, frogs, secretmove

    drawers: dict[str, Drawer] = {"frogfinder": frogs.draw, "coan": frogs.draw,
                                  "froglet": froglet.draw, "secretmove": secretmove.draw}
    return drawers.get(rules) or _text_picture(rules)


def _text_picture(rules: str) -> Drawer:
    """For a ruleset with no picture of its own: its text board, drawn as text."""
    from frogpbem.games import find_game
    from frogpbem.pictures.svg import Picture, tag

    ruleset = find_game(rules)

    def draw_text(board: JSON, scene: Scene) -> Picture:
        lines = ruleset.render(board, frozenset({scene.seat} if scene.seat else ())).split("\n")
        width = max(len(line) for line in lines) * 8 + 24
        picture = Picture(width, len(lines) * 16 + 20, f"{ruleset.title} board")
        for index, line in enumerate(lines):
            picture.add(tag("text", line, x=12, y=22 + index * 16, font_size=13,
                            font_family="DejaVu Sans Mono, monospace", style="white-space:pre"))
        return picture

    return draw_text


def picture(rules: str, board: JSON, scene: Scene) -> Picture:
    """The picture of a board of ``rules`` (a ruleset's view data)."""
    return drawer(rules)(board, scene)
