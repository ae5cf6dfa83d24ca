"""Frog Finder and Coan's boards as pictures.

Open squares are grass, a shot square shows its number on grey, a wrong
guess is crossed out. A found frog sits upright on gold; a shot frog lies
upside down on grey; a frog shown because its seat resigned sits on a dotted
square; the viewer's own (and teammates') hidden frogs have a dashed outline.
Each frog carries its seat's letter, so nothing depends on colour alone.
"""

from __future__ import annotations

from frogpbem.games.frogs_notation import FrogsView
from frogpbem.games.frogs_text import Cell, cells, letter
from frogpbem.pictures.scene import Scene, status
from frogpbem.pictures.svg import Grid, Picture, cross, frog, seat_colour, text_on
from frogpbem.safetext import counted

CELL = 36
MARGIN = 26
GRASS = "#e8f5e9"
SHOT = "#cfd8dc"
GOLD = "#ffd54f"
SHOWN = "#efebe9"


def draw(view: FrogsView, scene: Scene) -> Picture:
    size = view.size
    grid = Grid(size, MARGIN, MARGIN, CELL)
    width = max(grid.side + 2 * MARGIN, 480)
    whose = f"view of {scene.seat}" if scene.seat else "public view"
    picture = Picture(width, 0, f"Frog Finder board, {whose}"
                      if view.rules == "frogfinder" else f"Coan's Frog Finder board, {whose}")
    shown = cells(view)
    for name in grid.names():
        picture.add(_square(grid, name, shown.get(name)))
    for name, probability in sorted(scene.heat.items()):
        if name not in shown:
            picture.add(*grid.heat(name, probability))
    if scene.last is not None:  # a shot's or guess's square; nothing for other words
        square = scene.last[1].partition(" ")[2].strip().upper()
        if square in set(grid.names()):
            picture.add(grid.outline(square))
    picture.add(*grid.coordinates())
    picture.height = round(_legend(picture, view, scene, grid.side + 2 * MARGIN + 6) + 4)
    return picture


def _square(grid: Grid, name: str, cell: Cell | None) -> str:
    if cell is None:
        return grid.square(name, GRASS)
    if cell.kind == "miss":
        return grid.square(name, GRASS) + cross(grid, name)
    if cell.kind == "shot":
        return grid.square(name, SHOT) + grid.label(name, str(cell.number))
    owner = cell.owner or ""
    x, y = grid.centre(name)
    colour, mark, ink = seat_colour(owner), letter(owner), text_on(owner)
    if cell.kind == "own":
        return grid.square(name, GRASS) + frog(x, y, colour, mark.lower(), ink, dashed=True,
                                               scale=0.85)
    if cell.kind == "shot_frog":
        return grid.square(name, SHOT) + frog(x, y, colour, mark, ink, upside_down=True)
    if cell.kind == "found":
        return grid.square(name, GOLD) + frog(x, y, colour, mark, ink)
    return grid.square(name, SHOWN, stroke_dasharray="2 2") + frog(x, y, colour, mark, ink,
                                                                   scale=0.85)


def _legend(picture: Picture, view: FrogsView, scene: Scene, top: float) -> float:
    """Each seat's points and hidden frogs, whose turn (or the end), and the key."""
    to_move = view.to_move
    out = set(view.out)
    teams = view.teams
    you = teams.get(scene.seat) if scene.seat else None
    y = top
    for seat in view.seats:
        name = scene.names.get(seat)
        team = teams.get(seat, seat)
        words = f"{seat}" + (f" ({name})" if name else "")
        words += f": {view.hidden_left[seat]} hidden"
        if team in view.points and team != seat:
            words += f", team {team} {counted(view.points[team], 'point')}"
        elif seat in view.points:
            words += f", {counted(view.points[seat], 'point')}"
        if seat in out:
            words += ", out"
        if you is not None and teams.get(seat) == you:
            words += " (you)" if seat == scene.seat else " (your team)"
        picture.add(frog(MARGIN + 8, y - 4, seat_colour(seat), letter(seat), text_on(seat),
                         scale=0.55))
        weight = "bold" if seat == to_move else None
        y = picture.paragraph(MARGIN + 22, y, words + (" \u25c0 to move" if seat == to_move
                                                       else ""), weight=weight)
    y = picture.paragraph(MARGIN, y, status(view, scene.clock), weight="bold")
    return picture.paragraph(MARGIN, y, "gold: found \u00b7 upside down: shot \u00b7 X: wrong "
                             "guess \u00b7 dashed: hidden (yours)", size=11)
