"""Froglet's board as a picture: each frog in its colour with its value on its back,
and the path of the last jump (or the square of the removed frog) drawn over it."""

from __future__ import annotations

import string

from frogpbem.games.froglet_view import FrogletView
from frogpbem.pictures.scene import Scene, status
from frogpbem.pictures.svg import INK, Grid, Picture, tag
from frogpbem.safetext import counted

CELL = 34
MARGIN = 26
FROGS = {"G": ("#43a047", 1, "green"), "Y": ("#fdd835", 2, "yellow"),
         "R": ("#e53935", 3, "red"), "B": ("#1e88e5", 4, "blue")}
"""Colour, value and name of each kind of frog."""
SEAT_FILL = {"white": "#fafafa", "black": "#263238"}


def squares(view: FrogletView) -> dict[str, str]:
    """The letter (``G``, ``Y``, ``R``, ``B`` or ``.``) on each square, by name."""
    size = view.size
    return {f"{string.ascii_uppercase[col]}{size - index}": letter
            for index, row in enumerate(view.rows) for col, letter in enumerate(row)}


def draw(view: FrogletView, scene: Scene) -> Picture:
    size = view.size
    grid = Grid(size, MARGIN, MARGIN, CELL)
    width = max(grid.side + 2 * MARGIN, 480)
    whose = f"view of {scene.seat}" if scene.seat else "public view"
    picture = Picture(width, 0, f"Froglet board, {whose}")
    at = squares(view)
    for name in grid.names():
        col, row = ord(name[0]) - ord("A"), int(name[1:])
        picture.add(grid.square(name, "#eceff1" if (col + row) % 2 else "#f5f5f5"))
        kind = FROGS.get(at[name])
        if kind is not None:
            colour, value, _ = kind
            x, y = grid.centre(name)
            picture.add(tag("circle", cx=x, cy=y, r=CELL * 0.38, fill=colour, stroke=INK,
                            stroke_width=1.2),
                        grid.label(name, str(value),
                                   fill=INK if at[name] in "GY" else "#ffffff"))
    last = view.last
    for name in last:
        picture.add(grid.outline(name))
    if len(last) > 1:
        points = " ".join(f"{x:g},{y:g}" for x, y in (grid.centre(n) for n in last))
        picture.add(tag("polyline", points=points, fill="none", stroke="#ff6d00",
                        stroke_width=3, stroke_opacity=0.8, stroke_linecap="round"))
        x, y = grid.centre(last[-1])
        picture.add(tag("circle", cx=x, cy=y, r=5, fill="#ff6d00"))
    picture.add(*grid.coordinates())
    picture.height = round(_legend(picture, view, scene, grid.side + 2 * MARGIN + 6) + 4)
    return picture


def _legend(picture: Picture, view: FrogletView, scene: Scene, top: float) -> float:
    to_move = view.to_move
    y = top
    for seat in view.seats:
        name = scene.names.get(seat)
        words = (f"{seat}" + (f" ({name})" if name else "")
                 + f": {counted(view.points[seat], 'point')}")
        if seat == scene.seat:
            words += " (you)"
        picture.add(tag("circle", cx=MARGIN + 7, cy=y - 4, r=6,
                        fill=SEAT_FILL.get(seat, "#9e9e9e"), stroke=INK))
        y = picture.paragraph(MARGIN + 20, y, words + (" \u25c0 to move" if seat == to_move
                                                       else ""),
                              weight="bold" if seat == to_move else None)
    y = picture.paragraph(MARGIN, y, status(view, scene.clock), weight="bold")
    left = ", ".join(f"{FROGS[c][2]} ({FROGS[c][1]}) {n}" for c, n in view.frogs_left.items())
    return picture.paragraph(MARGIN, y, f"frogs left: {left}; orange: the last move", size=11)
