"""Secret Move's two boards as a picture: the stones on every square, the values
where the viewer knows the headers, and the last move as an arrow."""

from __future__ import annotations

import re

from frogpbem.games.secretmove_view import SeatBoard, SecretMoveView
from frogpbem.pictures.scene import Scene, status
from frogpbem.pictures.svg import INK, Grid, Picture, seat_colour, tag
from frogpbem.safetext import counted

CELL = 56
MARGIN = 26
GAP = 46
LINE = 18
_MOVE_RE = re.compile(r"([A-C][1-3])-([A-C][1-3]) ")


def draw(view: SecretMoveView, scene: Scene) -> Picture:
    seats = view.seats
    side = 3 * CELL
    width = max(len(seats) * side + (len(seats) - 1) * GAP + 2 * MARGIN, 480)
    top = MARGIN + LINE * 2
    whose = f"view of {scene.seat}" if scene.seat else "public view"
    picture = Picture(width, 0, f"Secret Move boards, {whose}")
    for index, seat in enumerate(seats):
        board = view.boards[seat]
        grid = Grid(3, MARGIN + index * (side + GAP), top, CELL)
        _board(picture, grid, seat, board, scene)
    words = status(view, scene.clock) or f"Phase: {view.phase}"
    y = picture.paragraph(MARGIN, top + side + MARGIN + 6, words, weight="bold")
    y = picture.paragraph(MARGIN, y, "large: stones on the square \u00b7 small: its value "
                          "(boards whose headers you know) \u00b7 arrow: the last move", size=11)
    picture.height = round(y + 4)
    return picture


def _board(picture: Picture, grid: Grid, seat: str, board: SeatBoard, scene: Scene) -> None:
    name = scene.names.get(seat)
    heading = f"{seat}" + (f" ({name})" if name else "") + (" (you)" if seat == scene.seat
                                                            else "")
    picture.add(tag("rect", x=grid.x, y=grid.y - LINE * 2 + 2, width=10, height=10,
                    fill=seat_colour(seat), stroke=INK))
    picture.text(grid.x + 15, grid.y - LINE - 6, heading, weight="bold")
    if board.score is not None:
        status = f"score {board.score}"
    else:
        status = f"{board.grids_left} value grids fit"
    status = (f"{counted(board.moves_left, 'move')} left, "
              + ("done, " if board.done else "") + status)
    picture.text(grid.x, grid.y - 6, status, size=11)
    values = board.values
    for square in grid.names():
        picture.add(grid.square(square, "#fff8e1" if values else "#eceff1"))
    if values is None:
        for square, probability in sorted(scene.heat.items()):
            picture.add(*grid.heat(square, probability, scene.labels.get(square)))
    if scene.last is not None and scene.last[0] == seat:  # under the numbers
        move = _MOVE_RE.match(scene.last[1])
        if move is not None:
            source, target = move.groups()
            picture.add(grid.outline(source, "#90a4ae"), grid.outline(target))
            (x1, y1), (x2, y2) = grid.centre(source), grid.centre(target)
            picture.add(tag("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#ff6d00",
                            stroke_width=3, stroke_opacity=0.8, stroke_linecap="round"),
                        tag("circle", cx=x2, cy=y2, r=5, fill="#ff6d00"))
    for square in grid.names():
        picture.add(grid.label(square, str(board.stones[square]), size=20))
        if values:
            x, y = grid.corner(square)
            picture.add(tag("text", str(values[square]), x=x + 5, y=y + 13, font_size=11,
                            fill="#6d4c41"))
    picture.add(*grid.coordinates(above=False))
