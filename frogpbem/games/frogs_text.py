"""The frog-finding games as text: the board with its legend, records in words.

Reads only view data (what a seat may know), as ``FrogGame.view`` writes it.
"""

from __future__ import annotations

from frogpbem.board import text_grid
from frogpbem.games import JSON, Paint
from frogpbem.games.frogs import (
    GUESS_GAIN,
    LETTERS,
    MISS_PENALTY,
    SHOT_PENALTY,
    Count,
    Found,
    FrogResult,
    FrogsResigned,
    Miss,
    Shot,
)


def render(view: JSON, paint: Paint | None = None) -> str:
    size = view["size"]
    cells: dict[str, str] = {}
    for name in view["misses"]:
        cells[name] = " - "
    for name, number in view["shots"].items():
        cells[name] = f" {number} "
    for seat, frogs in view["own_frogs"].items():
        for name in frogs:
            cells[name] = f" {LETTERS.get(seat, seat[0]).lower()} "
    for name, frog in view["revealed"].items():
        letter = LETTERS.get(frog["owner"], frog["owner"][0])
        cells[name] = {"shot": f"({letter})", "found": f"[{letter}]"}.get(frog["how"],
                                                                        f"<{letter}>")
    lines = text_grid(size, lambda name: cells.get(name, " . "), paint)
    lines.append("")
    lines.append(
        "  .  open    -  wrong guess (empty)    0-8 shot square and its number"
    )
    colours = ", ".join(f"{LETTERS.get(s, s[0])} {s}" for s in view["seats"])
    own = "".join(f"{LETTERS.get(s, s[0]).lower()}  {s}'s hidden frog    "
                  for s in view["own_frogs"])
    lines.append(
        f"  {own}(B) frog shot    [B] frog found    <B> frog of a seat that resigned"
    )
    lines.append(f"  colours: {colours}")
    return "\n".join(lines)


def describe(seat: str, move: str, result: FrogResult) -> str:
    square = move.partition(" ")[2]
    if isinstance(result, FrogsResigned):
        frogs = ", ".join(n for names in result.frogs.values() for n in names)
        return f"{seat} resigns" + (f" (frogs on {frogs})" if frogs else "")
    if isinstance(result, Count):
        return f"{seat} shoots {square}: {result.count}"
    if isinstance(result, Shot):
        return f"{seat} shoots {square}: {result.owner} frog shot (-{SHOT_PENALTY})"
    if isinstance(result, Found):
        return f"{seat} guesses {square}: {result.owner} frog found (+{GUESS_GAIN})"
    return f"{seat} guesses {square}: wrong (-{MISS_PENALTY})"


def comment(result: FrogResult) -> str:
    if isinstance(result, Count):
        return str(result.count)
    if isinstance(result, Shot):
        return f"{result.owner} frog shot -{SHOT_PENALTY}"
    if isinstance(result, Found):
        return f"{result.owner} frog found +{GUESS_GAIN}"
    if isinstance(result, Miss):
        return f"-{MISS_PENALTY}"
    return "resigns"
