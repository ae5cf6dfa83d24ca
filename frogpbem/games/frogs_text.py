"""The frog-finding games as text: the board with its legend, records in words.

Reads only a view (what a seat may know), as ``FrogGame.view`` makes it.
"""

from __future__ import annotations

from frogpbem.board import text_grid, text_legend
from frogpbem.frozen import frozen
from frogpbem.games import JSON, Paint
from frogpbem.games.frogs_notation import (
    GUESS_GAIN,
    LETTERS,
    MISS_PENALTY,
    SHOT_PENALTY,
    Count,
    Found,
    FrogResult,
    FrogsResigned,
    FrogsView,
    Miss,
    Shot,
)
from frogpbem.jsonvalue import as_dict, as_float, as_int, as_str, dict_of, list_of
from frogpbem.safetext import counted


@frozen
class Cell:
    """What a square shows: ``miss``, ``shot`` (a number), ``own``, ``shot_frog``,
    ``found`` or ``shown`` (a frog), with the frog's seat or the shot's number."""

    kind: str
    owner: str | None = None
    number: int | None = None


def cells(view: FrogsView) -> dict[str, Cell]:
    """Every square that is not plain open, by name: what the text board, the hint's board,
    the pictures and the terminal's colours all show."""
    found: dict[str, Cell] = {}
    for name in view.misses:
        found[name] = Cell("miss")
    for name, number in view.shots.items():
        found[name] = Cell("shot", number=number)
    for seat, frogs in view.own_frogs.items():
        for name in frogs:
            found[name] = Cell("own", seat)
    for name, frog in view.revealed.items():
        found[name] = Cell({"shot": "shot_frog", "found": "found"}.get(frog.how, "shown"),
                           frog.owner)
    return found


def letter(seat: str) -> str:
    """A seat's letter on the board (``R`` red, ``K`` black)."""
    return LETTERS.get(seat, seat[:1].upper() or "?")


def _glyph(cell: Cell) -> str:
    """A square of the text board, three characters."""
    if cell.kind == "miss":
        return " - "
    if cell.kind == "shot":
        return f" {cell.number} "
    mark = letter(cell.owner or "")
    return {"own": f" {mark.lower()} ", "shot_frog": f"({mark})",
            "found": f"[{mark}]"}.get(cell.kind, f"<{mark}>")


def render(view: FrogsView, paint: Paint | None = None) -> str:
    size = view.size
    shown = {name: _glyph(cell) for name, cell in cells(view).items()}
    lines = text_grid(size, lambda name: shown.get(name, " . "), paint)
    lines.append("")
    own = list(view.own_frogs)
    hidden = ([f"{letter(own[0]).lower()}  {own[0]}'s hidden frog"] if len(own) == 1 else
              [" ".join(letter(s).lower() for s in own) + "  hidden frogs of "
               + ", ".join(own)] if own else [])
    lines += text_legend([".  open", "-  wrong guess (empty)", "0-8  shot square and its number",
                          *hidden, "(B)  frog shot", "[B]  frog found",
                          "<B>  frog of a seat that resigned"])
    colours = [f"{letter(s)} {s}" for s in view.seats]
    lines += text_legend([f"colours: {colours[0]}", *colours[1:]], ", ")
    return "\n".join(lines)


def render_hint(view: FrogsView, hint: JSON) -> str:
    """The odds on the board: on each square the seat cannot see, the percent chance of
    an opponent's frog (``!!!`` certain, `` . `` none); then the likeliest squares."""
    fields = as_dict(hint)
    odds = dict_of(as_float, fields["probabilities"])
    shown: dict[str, str] = {}
    for name, cell in cells(view).items():
        if cell.kind == "shot":
            shown[name] = f"[{cell.number}]"
        elif cell.kind in ("miss", "own"):
            shown[name] = _glyph(cell)
        else:
            shown[name] = f"({letter(cell.owner or '')})"
    for name, p in odds.items():
        shown[name] = ("!!!" if p == 1 else " . " if p == 0
                       else f"{min(99, max(1, round(100 * p))):>3}")
    lines = ["The odds of an opponent's frog on each square you cannot see",
             f"({counted(as_int(fields['hidden']), 'frog')} hidden from you), in percent:", ""]
    lines += text_grid(view.size, lambda name: shown.get(name, "   "))
    lines += ["", *text_legend(["!!!  certain", ".  none", "[n]  shot number",
                                "-  wrong guess", "(B)  revealed frog", "r  your frog"], "   "),
              ""]
    ranked = sorted(odds.items(), key=lambda item: (-item[1], item[0]))
    certain = list_of(as_str, fields["certain"])
    if certain:
        lines.append(f"Certain: {', '.join(certain)}")
    likely = [f"{name} {100 * p:.1f} %" for name, p in ranked[:5] if 0 < p < 1]
    if likely:
        lines.append(f"Likeliest: {', '.join(likely)}")
    safe_squares = [name for name, p in odds.items() if p == 0]
    if safe_squares:
        lines.append(f"Surely empty: {counted(len(safe_squares), 'square')} "
                     f"({', '.join(safe_squares[:8])}"
                     + (", ..." if len(safe_squares) > 8 else "") + ")")
    elif ranked:
        least = ranked[-1][1]
        safest = [n for n, p in ranked if p == least]
        lines.append(f"Safest: {100 * least:.1f} % on {', '.join(safest[:8])}"
                     + (", ..." if len(safest) > 8 else ""))
    split = {name: dict_of(as_float, chances)
             for name, chances in as_dict(fields["by_opponent"]).items()}
    if ranked and len(next(iter(split.values()))) > 1:
        lines.append("Whose frog it would be, on the likeliest squares:")
        for name, _ in ranked[:3]:
            lines.append(f"  {name}: " + ", ".join(f"{seat} {100 * p:.1f} %"
                                                    for seat, p in split[name].items()))
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
