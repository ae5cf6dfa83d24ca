"""Froglet: jump-capture on a full random board (RULES.md §3).

The board is public. Moves: ``remove C3`` (white's first move: a green frog),
then jumps written as paths ``C3-C5`` or ``C3-C5-E5``, and ``resign``.
Public results: ``{"removed": "G"}``, ``{"captured": ["Y", "G"], "points": 3}``,
``{"resigned": true}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from frogpbem.board import Board, Square
from frogpbem.errors import (
    GameOverError,
    IllegalMoveError,
    InconsistentResultError,
    NotationError,
    NotYourTurnError,
    UsageError,
)
from frogpbem.games import (
    JSON,
    Chance,
    Outcome,
    Place,
    Ruleset,
    parse_int_option,
    rank_by_points,
    shuffle,
)

if TYPE_CHECKING:
    import random

VALUES = {"G": 1, "Y": 2, "R": 3, "B": 4}
"""Points for jumping a frog of each colour."""
COLOURS = {"G": "green", "Y": "yellow", "R": "red", "B": "blue"}
COUNTS_12 = {"G": 66, "Y": 51, "R": 21, "B": 6}
"""The BrainKing distribution on 12x12 (144 squares)."""

_PATH_RE = re.compile(r"\s*[A-Za-z]\s*[0-9]{1,2}(\s*-\s*[A-Za-z]\s*[0-9]{1,2})+\s*")
_REMOVE_RE = re.compile(r"\s*remove\s+([A-Za-z]\s*[0-9]{1,2})\s*", re.I)
EXPECTED = 'expected "remove SQUARE", a jump path such as "C3-C5-E5", or "resign"'


def counts_for(size: int) -> dict[str, int]:
    """The colour counts for a board of ``size``: the 12x12 proportions, the rest green."""
    squares = size * size
    counts = {c: round(n * squares / 144) for c, n in COUNTS_12.items() if c != "G"}
    counts["G"] = squares - sum(counts.values())
    return {c: counts[c] for c in "GYRB"}


@dataclass(frozen=True)
class Move:
    """A Froglet move: remove a frog, jump along a path, or resign."""

    path: tuple[Square, ...] = ()
    """The squares of a jump, start first (empty for resign)."""
    remove: Square | None = None
    """The frog taken off by white's first move."""

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``remove C3``, ``C3-C5-E5``, ``resign``; raises :class:`NotationError`."""
        if text.strip().lower() == "resign":
            return cls()
        removal = _REMOVE_RE.fullmatch(text)
        try:
            if removal:
                return cls(remove=Square.parse(_squeeze(removal[1])))
            if _PATH_RE.fullmatch(text):
                return cls(path=tuple(Square.parse(_squeeze(p)) for p in text.split("-")))
        except NotationError as exc:
            raise NotationError(f"{EXPECTED}, got {text!r} ({exc})") from None
        raise NotationError(f"{EXPECTED}, got {text!r}")

    @property
    def is_resign(self) -> bool:
        return not self.path and self.remove is None

    def __str__(self) -> str:
        if self.remove is not None:
            return f"remove {self.remove.name}"
        if self.path:
            return "-".join(square.name for square in self.path)
        return "resign"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


@dataclass(frozen=True)
class State:
    """A Froglet position (nothing is hidden)."""

    board: Board
    """The board's geometry."""
    frogs: Mapping[Square, str]
    """The colour letter of the frog on each occupied square."""
    seats: tuple[str, ...]
    """``white`` and ``black``."""
    points: Mapping[str, int]
    """Points so far."""
    ply: int = 0
    """Moves played so far."""
    last: tuple[Square, ...] = ()
    """The squares of the last move."""
    outcome: Outcome | None = None
    """How the game ended, once it has."""


class Froglet(Ruleset[State, Move]):
    """Froglet as adapted by BrainKing: 12x12, values 1-4, any frog may jump."""

    name = "froglet"
    title = "Froglet"
    seat_order = ("white", "black")
    id_prefix = "fl"
    option_defaults: ClassVar[Mapping[str, int | str]] = {"size": 12}

    # --- set-up -------------------------------------------------------------

    def options(self, given: Mapping[str, str | int]) -> dict[str, int | str]:
        unknown = sorted(set(given) - set(self.option_defaults))
        if unknown:
            raise UsageError(f"unknown option {unknown[0]!r} for froglet (known: size)")
        return {"size": parse_int_option("size", given.get("size", 12), 3, 26)}

    def deal(
        self, options: Mapping[str, Any], seats: Sequence[str], rng: Chance
    ) -> tuple[JSON, dict[str, JSON]]:
        size = int(options["size"])
        letters = [c for c, n in counts_for(size).items() for _ in range(n)]
        shuffle(rng, letters)
        return {"rows": _rows(size, letters)}, {}

    def check_setup(
        self, options: Mapping[str, Any], seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON],
    ) -> None:
        size = int(options["size"])
        rows = public.get("rows") if isinstance(public, dict) else None
        if not isinstance(rows, list) or len(rows) != size:
            raise NotationError(f"setup: public needs 'rows', {size} strings of {size} letters")
        for index, row in enumerate(rows):
            if not isinstance(row, str) or len(row) != size or set(row) - set(VALUES):
                raise NotationError(
                    f"setup: row {size - index} must be {size} letters of G, Y, R, B, "
                    f"got {row!r}"
                )
        if "G" not in "".join(rows):
            raise NotationError("setup: the board needs a green frog for the first move")

    def secret_bound(self, options: Mapping[str, Any]) -> int:
        return 0

    def start(
        self, options: Mapping[str, Any], seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON | None],
    ) -> State:
        size = int(options["size"])
        board = Board(size)
        frogs = {
            Square(col, size - 1 - index): letter
            for index, row in enumerate(public["rows"])
            for col, letter in enumerate(row)
            if letter != "."
        }
        return State(board, frogs, tuple(seats), dict.fromkeys(seats, 0))

    # --- play ---------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def format_move(self, move: Move) -> str:
        return str(move)

    def to_move(self, state: State) -> str | None:
        return None if state.outcome else state.seats[state.ply % 2]

    def scores(self, state: State) -> dict[str, int]:
        return dict(state.points)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def check(self, state: State, seat: str, move: Move) -> None:
        self._captures(state, seat, move)

    def _captures(self, state: State, seat: str, move: Move) -> list[str]:
        """Check ``move``; return the colours it captures (in order)."""
        if seat not in state.seats:
            raise IllegalMoveError(f"{seat!r} is not a seat of this game")
        if state.outcome is not None:
            raise GameOverError(f"the game is over ({state.outcome.termination})")
        if move.is_resign:
            return []
        to_move = state.seats[state.ply % 2]
        if seat != to_move:
            raise NotYourTurnError(f"it is {to_move}'s turn, not {seat}'s")
        if move.remove is not None:
            return self._check_remove(state, move.remove)
        if state.ply == 0:
            raise IllegalMoveError("the first move removes a green frog: remove SQUARE")
        return _check_path(state, move.path)

    def _check_remove(self, state: State, square: Square) -> list[str]:
        if state.ply != 0:
            raise IllegalMoveError("only the first move removes a frog; now every move jumps")
        _on_board(state, square)
        colour = state.frogs.get(square)
        if colour != "G":
            what = f"a {COLOURS[colour]} frog" if colour else "no frog"
            raise IllegalMoveError(f"{square.name} holds {what}: the first move removes a "
                                   "green frog")
        return []

    def play(
        self, state: State, seat: str, move: Move, claimed: JSON | None = None
    ) -> tuple[State, JSON]:
        captured = self._captures(state, seat, move)
        if move.is_resign:
            result: JSON = {"resigned": True}
        elif move.remove is not None:
            result = {"removed": "G"}
        else:
            result = {"captured": captured, "points": sum(VALUES[c] for c in captured)}
        if claimed is not None and claimed != result:
            raise InconsistentResultError(f"{move}: result {claimed!r} should be {result!r}")
        if move.is_resign:
            winner = next(s for s in state.seats if s != seat)
            standing = (Place(1, winner, state.points[winner]), Place(2, seat, state.points[seat]))
            return replace(state, outcome=Outcome(f"{seat} resigned", standing)), result
        frogs = dict(state.frogs)
        if move.remove is not None:
            del frogs[move.remove]
            last: tuple[Square, ...] = (move.remove,)
        else:
            colour = frogs.pop(move.path[0])
            for start, end in zip(move.path, move.path[1:], strict=False):
                del frogs[_between(start, end)]
            frogs[move.path[-1]] = colour
            last = move.path
        points = dict(state.points)
        points[seat] += result.get("points", 0)
        state = replace(state, frogs=frogs, points=points, ply=state.ply + 1, last=last)
        if not any(True for _ in _hops(state, frogs)):
            outcome = Outcome("no jump is left", rank_by_points(points))
            state = replace(state, outcome=outcome)
        return state, result

    # --- presentation -------------------------------------------------------

    def view(self, state: State, viewers: frozenset[str]) -> JSON:
        size = state.board.size
        letters = [state.frogs.get(Square(c, r), ".") for r in range(size) for c in range(size)]
        return {
            "rules": self.name,
            "size": size,
            "seats": list(state.seats),
            "to_move": self.to_move(state),
            "points": dict(state.points),
            "rows": _rows(size, letters),
            "last": [square.name for square in state.last],
            "frogs_left": {c: sum(1 for v in state.frogs.values() if v == c) for c in "GYRB"},
            "outcome": state.outcome.to_json() if state.outcome else None,
        }

    def render(self, view: JSON) -> str:
        size = view["size"]
        last = set(view["last"])
        letters = "".join(f" {chr(ord('A') + c)} " for c in range(size))
        lines = [f"    {letters}"]
        for index, row in enumerate(view["rows"]):
            number = size - index
            cells = ""
            for col, letter in enumerate(row):
                name = f"{chr(ord('A') + col)}{number}"
                cells += f"({letter})" if name in last else f" {letter} "
            lines.append(f"{number:>3} {cells} {number}")
        lines.append(f"    {letters}")
        left = ", ".join(f"{COLOURS[c]} {n}" for c, n in view["frogs_left"].items())
        lines += ["", "  G green 1   Y yellow 2   R red 3   B blue 4   . empty   "
                  "(x) squares of the last move", f"  frogs left: {left}"]
        return "\n".join(lines)

    def describe(self, seat: str, move: str, result: JSON) -> str:
        if "resigned" in result:
            return f"{seat} resigns"
        if "removed" in result:
            return f"{seat} removes {move.split()[-1]} (green)"
        captured = ", ".join(COLOURS[c] for c in result["captured"])
        return f"{seat} jumps {move}: {captured} (+{result['points']})"

    def comment(self, result: JSON) -> str:
        if "resigned" in result:
            return "resigns"
        if "removed" in result:
            return "green removed"
        return f"{''.join(result['captured'])} +{result['points']}"

    def bot_move(self, view: JSON, seat: str, rng: random.Random) -> str:
        state = self.start({"size": view["size"]}, view["seats"], {"rows": view["rows"]}, {})
        if all(c != "." for row in view["rows"] for c in row):
            greens = sorted(sq for sq, c in state.frogs.items() if c == "G")
            return f"remove {greens[rng.randrange(len(greens))].name}"
        best: list[tuple[Square, ...]] = []
        best_points = -1
        for path, points in legal_paths(state):
            if points > best_points:
                best, best_points = [path], points
            elif points == best_points:
                best.append(path)
        return "-".join(square.name for square in best[rng.randrange(len(best))])


# --- jumps -----------------------------------------------------------------------


def _on_board(state: State, square: Square) -> None:
    if not state.board.contains(square):
        last = Square(state.board.size - 1, state.board.size - 1).name
        raise IllegalMoveError(f"square {square.name} is off the board (A1..{last})")


def _between(start: Square, end: Square) -> Square:
    return Square((start.col + end.col) // 2, (start.row + end.row) // 2)


def _check_path(state: State, path: Sequence[Square]) -> list[str]:
    """The colours captured along ``path``; raises :class:`IllegalMoveError` with the reason."""
    text = "-".join(square.name for square in path)
    for square in path:
        _on_board(state, square)
    if path[0] not in state.frogs:
        raise IllegalMoveError(f"{text}: no frog on {path[0].name}")
    frogs = dict(state.frogs)
    colour = frogs.pop(path[0])
    captured = []
    for start, end in zip(path, path[1:], strict=False):
        hop = f"{start.name}-{end.name}"
        dc, dr = end.col - start.col, end.row - start.row
        if dc and dr:
            raise IllegalMoveError(f"{hop}: a hop goes straight along a row or a column")
        if abs(dc + dr) != 2:
            raise IllegalMoveError(f"{hop}: a hop must land two squares away")
        middle = _between(start, end)
        if middle not in frogs:
            raise IllegalMoveError(f"{hop}: no frog on {middle.name} to jump over")
        if end in frogs:
            raise IllegalMoveError(f"{hop}: {end.name} is not empty")
        captured.append(frogs.pop(middle))
    frogs[path[-1]] = colour
    return captured


_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _hops(state: State, frogs: Mapping[Square, str]) -> Iterator[tuple[Square, Square]]:
    """Every single hop on ``frogs``: (from, to)."""
    board = state.board
    for square in frogs:
        for dc, dr in _STEPS:
            end = Square(square.col + 2 * dc, square.row + 2 * dr)
            if board.contains(end) and end not in frogs and \
                    Square(square.col + dc, square.row + dr) in frogs:
                yield square, end


def legal_paths(state: State) -> list[tuple[tuple[Square, ...], int]]:
    """Every legal jump path with the points it scores, in a stable order."""
    found: list[tuple[tuple[Square, ...], int]] = []

    def extend(path: tuple[Square, ...], frogs: dict[Square, str], points: int) -> None:
        here = path[-1]
        for dc, dr in _STEPS:
            middle = Square(here.col + dc, here.row + dr)
            end = Square(here.col + 2 * dc, here.row + 2 * dr)
            if state.board.contains(end) and end not in frogs and middle in frogs:
                after = dict(frogs)
                gained = VALUES[after.pop(middle)]
                after[end] = after.pop(here)
                found.append(((*path, end), points + gained))
                extend((*path, end), after, points + gained)

    for square in sorted(state.frogs):
        extend((square,), dict(state.frogs), 0)
    return found


def _rows(size: int, letters: Sequence[str]) -> list[str]:
    """Letters listed from A1 row by row, as rows from the top row down."""
    return ["".join(letters[row * size : (row + 1) * size]) for row in range(size - 1, -1, -1)]
