"""Froglet bots and hints, from the public board of a view.

- ``random``: any legal jump (or any green frog to remove).
- ``greedy``: the jump that scores most now.
- ``strong``: a short search of three plies: each jump's points, less what
  the opponent's answer scores, plus our best jump after that answer; of the
  opponent's six best-scoring answers, the one worst for us counts. Its
  first move removes the green frog that leaves the opponent the poorest
  first jump.
- ``expert``: alpha-beta with iterative deepening, a transposition table and a node
  budget per move (:mod:`.froglet_search`); it plays the first move by the same search.
"""

from __future__ import annotations

import random

from frogpbem.board import Square
from frogpbem.games import JSON
from frogpbem.games.froglet_search import NODES, best_move
from frogpbem.games.froglet_view import VALUES, FrogletView
from frogpbem.jsonvalue import as_dict, as_int, as_list

Cells = list[str]
"""The board as one list, square ``row * size + col``: a frog's letter, or ``""``."""
Path = tuple[int, ...]
_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def position(view: FrogletView) -> tuple[int, Cells]:
    """The board's size and cells, from a view's rows (top row first)."""
    size = view.size
    cells = [""] * (size * size)
    for index, row in enumerate(view.rows):
        for col, letter in enumerate(row):
            if letter != ".":
                cells[(size - 1 - index) * size + col] = letter
    return size, cells


def paths(size: int, cells: Cells) -> list[tuple[Path, int]]:
    """Every jump path with its points (the search's own fast version of the rules'
    :func:`~frogpbem.games.froglet.jump_paths`, on integers; the rules check each move)."""
    found: list[tuple[Path, int]] = []

    def extend(path: Path, points: int) -> None:
        here = path[-1]
        row, col = divmod(here, size)
        for dr, dc in _STEPS:
            r2, c2 = row + 2 * dr, col + 2 * dc
            if not (0 <= r2 < size and 0 <= c2 < size):
                continue
            end, middle = r2 * size + c2, (row + dr) * size + col + dc
            if cells[end] or not cells[middle]:
                continue
            jumped = cells[middle]
            cells[middle], cells[end], cells[here] = "", cells[here], ""
            gained = points + VALUES[jumped]
            found.append(((*path, end), gained))
            extend((*path, end), gained)
            cells[here], cells[end], cells[middle] = cells[end], "", jumped

    for start in range(size * size):
        if cells[start]:
            extend((start,), 0)
    return found


def after(cells: Cells, path: Path, size: int) -> Cells:
    """The cells after the jump ``path``."""
    out = list(cells)
    for here, there in zip(path, path[1:], strict=False):
        out[(here + there) // 2] = ""
        out[there], out[here] = out[here], ""
    return out


def best_points(size: int, cells: Cells) -> int:
    """What the best jump scores (0 if there is none)."""
    return max((points for _, points in paths(size, cells)), default=0)


def _name(path: Path, size: int) -> str:
    return "-".join(Square(i % size, i // size).name for i in path)


def searched(size: int, cells: Cells) -> list[tuple[Path, int, int]]:
    """Each jump with its points and its net (see the module's ``strong``), best first."""
    scored = []
    for path, points in paths(size, cells):
        left = after(cells, path, size)
        answers = sorted(paths(size, left), key=lambda item: -item[1])[:6]
        net = points + min((best_points(size, after(left, reply, size)) - gained
                            for reply, gained in answers), default=0)
        scored.append((path, points, net))
    scored.sort(key=lambda item: (-item[2], -item[1]))
    return scored


def removals(size: int, cells: Cells) -> list[tuple[int, int]]:
    """Each green frog that may open the game, with what the opponent's best first jump
    then scores, least first."""
    found = []
    for index, letter in enumerate(cells):
        if letter == "G":
            left = list(cells)
            left[index] = ""
            found.append((index, best_points(size, left)))
    return sorted(found, key=lambda item: item[1])


def hint_text(hint: JSON) -> str:
    """A :func:`hint` in words."""
    fields = as_dict(hint)
    if "removals" in fields:
        return "Green frogs to remove first, by the opponent's best first jump after it:\n" \
            + "\n".join(f"  {r['move']}: the opponent's best jump then scores {r['answer']}"
                        for r in map(as_dict, as_list(fields["removals"])))
    lines = ["Best jumps now:"]
    lines += [f"  {j['move']}: +{j['points']}" for j in map(as_dict, as_list(fields["best_now"]))]
    lines.append("Best jumps after a short search (points, less the opponent's best answer,")
    lines.append("plus your best jump after it):")
    lines += [f"  {j['move']}: +{j['points']}, net {as_int(j['net']):+d}"
              for j in map(as_dict, as_list(fields["searched"]))]
    return "\n".join(lines)


def expert_move(view: FrogletView, nodes: int = NODES) -> str:
    """The ``expert`` bot's move: :func:`~.froglet_search.best_move` for the seat to move,
    deterministic (the same view, the same move)."""
    size, cells = position(view)
    mover = view.to_move or view.seats[0]
    lead = sum(points if seat == mover else -points for seat, points in view.points.items())
    path = best_move(size, [VALUES.get(letter, 0) for letter in cells], lead, nodes).path
    return f"remove {_name(path, size)}" if len(path) == 1 else _name(path, size)


def bot_move(view: FrogletView, rng: random.Random, strength: str = "greedy") -> str:
    if strength == "expert":
        return expert_move(view)
    size, cells = position(view)
    if all(cells):  # the first move: remove a green frog
        if strength == "strong":
            options = removals(size, cells)
            least = options[0][1]
            chosen = rng.choice([i for i, p in options if p == least])
        else:
            chosen = rng.choice([i for i, letter in enumerate(cells) if letter == "G"])
        return f"remove {_name((chosen,), size)}"
    found = paths(size, cells)
    if strength == "random":
        return _name(rng.choice(found)[0], size)
    if strength == "strong":
        ranked = searched(size, cells)
        best = ranked[0][2]
        return _name(rng.choice([p for p, _, net in ranked if net == best]), size)
    most = max(points for _, points in found)
    return _name(rng.choice([p for p, points in found if points == most]), size)


def hint(view: FrogletView) -> JSON:
    """The best jumps now, and after a short search; or the best green frog to remove."""
    size, cells = position(view)
    if all(cells):
        return {"removals": [{"move": f"remove {_name((i,), size)}", "answer": p}
                             for i, p in removals(size, cells)[:5]]}
    now = sorted(paths(size, cells), key=lambda item: -item[1])[:5]
    return {"best_now": [{"move": _name(p, size), "points": points} for p, points in now],
            "searched": [{"move": _name(p, size), "points": points, "net": net}
                         for p, points, net in searched(size, cells)[:5]]}
