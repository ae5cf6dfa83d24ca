"""Froglet: jump-capture on a full random board (docs/rules.md §3).

The board is public. Moves: :class:`Remove` ``remove C3`` (white's first
move: a green frog), then :class:`Jump` paths ``C3-C5`` or ``C3-C5-E5``, and
:class:`~frogpbem.games.Resign`. Public results: :class:`Removed`
``{"removed": "G"}``, :class:`Captured` ``{"captured": ["Y", "G"], "points":
3}``, :class:`~frogpbem.games.Resigned` ``{"resigned": true}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from frogpbem.board import Board, Square, text_grid, text_legend
from frogpbem.errors import (
    IllegalMoveError,
    InconsistentResultError,
    NotationError,
)
from frogpbem.frozen import frozen
from frogpbem.games import (
    JSON,
    Chance,
    Options,
    OptionSpec,
    Outcome,
    Paint,
    Place,
    Resign,
    Resigned,
    Ruleset,
    Termination,
    parse_int_option,
    rank_by_points,
    same_json,
    shuffle,
)
from frogpbem.games.froglet_view import COLOURS, VALUES, FrogletView
from frogpbem.jsonvalue import as_dict, as_str, list_of
from frogpbem.safetext import quoted

if TYPE_CHECKING:
    import random

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


@frozen
class Remove:
    """White's first move: take a green frog off the full board."""

    square: Square

    def __str__(self) -> str:
        return f"remove {self.square.name}"

    def __repr__(self) -> str:
        return f"Remove({self.square!r})"


@frozen
class Jump:
    """A frog's jump along a path of hops, start first."""

    path: tuple[Square, ...]

    def __post_init__(self) -> None:
        if len(self.path) < 2:
            raise NotationError("a jump names at least two squares")

    def __str__(self) -> str:
        return "-".join(square.name for square in self.path)

    def __repr__(self) -> str:
        return f"Jump({self.path!r})"


Move = Remove | Jump | Resign
"""A Froglet move."""


def parse_move(text: str) -> Move:
    """Parse ``remove C3``, ``C3-C5-E5``, ``resign``; raises :class:`NotationError`."""
    if text.strip().lower() == "resign":
        return Resign()
    removal = _REMOVE_RE.fullmatch(text)
    try:
        if removal:
            return Remove(Square.parse(_squeeze(removal[1])))
        if _PATH_RE.fullmatch(text):
            return Jump(tuple(Square.parse(_squeeze(p)) for p in text.split("-")))
    except NotationError as exc:
        raise NotationError(f"{EXPECTED}, got {quoted(text)} ({exc.message})") from None
    raise NotationError(f"{EXPECTED}, got {quoted(text)}")


@frozen
class Removed:
    """The first move's result: a green frog left the board."""

    def to_json(self) -> JSON:
        return {"removed": "G"}


@frozen
class Captured:
    """A jump's result: the colours of the frogs it took, in order, and its points."""

    colours: tuple[str, ...]
    points: int

    def to_json(self) -> JSON:
        return {"captured": list(self.colours), "points": self.points}


FrogletResult = Removed | Captured | Resigned
"""A Froglet move's public result."""


def parse_result(data: JSON) -> FrogletResult:
    """A recorded result; raises :class:`NotationError` for any other shape."""
    if same_json(data, {"removed": "G"}):
        return Removed()
    if same_json(data, {"resigned": True}):
        return Resigned()
    if isinstance(data, dict) and set(data) == {"captured", "points"}:
        colours, points = data["captured"], data["points"]
        given = colours if isinstance(colours, list) else []
        letters = [c for c in given if isinstance(c, str) and c in VALUES]
        if letters and len(letters) == len(given) \
                and type(points) is int and points == sum(VALUES[c] for c in letters):
            return Captured(tuple(letters), points)
    raise NotationError(f"not a Froglet result: {data!r}")


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


@frozen
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


class FrogletHints:
    """Froglet's hints (:attr:`~frogpbem.games.Ruleset.hints`): the best jumps now and after
    a short search, or the best green frog to remove first (:mod:`.froglet_bot`, imported
    when a hint is asked for)."""

    def hint(self, view: FrogletView, seat: str) -> JSON:
        from frogpbem.games.froglet_bot import hint

        return hint(view)

    def heat(self, hint: JSON) -> dict[str, float] | None:
        return None

    def labels(self, hint: JSON) -> dict[str, str]:
        return {}

    def text(self, view: FrogletView, hint: JSON) -> str:
        from frogpbem.games.froglet_bot import hint_text

        return hint_text(hint)


class FrogletBot:
    """Froglet's bot (:attr:`~frogpbem.games.Ruleset.bot`, in :mod:`.froglet_bot`, imported
    when a bot moves)."""

    def move(self, view: FrogletView, seat: str, rng: random.Random,
             strength: str = "greedy") -> str:
        from frogpbem.games.froglet_bot import bot_move

        return bot_move(view, rng, strength)


class Froglet(Ruleset[State, Move, FrogletResult, FrogletView]):
    """Froglet as adapted by BrainKing: 12x12, values 1-4, any frog may jump."""

    name = "froglet"
    title = "Froglet"
    seat_order = ("white", "black")
    id_prefix = "fl"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("size", 12, "3..26", "the side of the square board"),
    )
    hints = FrogletHints()
    bot = FrogletBot()

    # --- set-up -------------------------------------------------------------

    def options(self, given: Mapping[str, str | int]) -> dict[str, int | str]:
        merged = super().options(given)
        return {"size": parse_int_option("size", merged["size"], 3, 26)}

    def deal(
        self, options: Options, seats: Sequence[str], rng: Chance
    ) -> tuple[JSON, dict[str, JSON]]:
        size = int(options["size"])
        letters = [c for c, n in counts_for(size).items() for _ in range(n)]
        shuffle(rng, letters)
        rows: list[JSON] = list(_rows(size, letters))
        return {"rows": rows}, {}

    def check_setup(
        self, options: Options, seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON],
    ) -> None:
        size = int(options["size"])
        rows = public.get("rows") if isinstance(public, dict) else None
        if not isinstance(rows, list) or len(rows) != size:
            raise NotationError(f"setup: public needs 'rows', {size} strings of {size} letters")
        letters: list[str] = []
        for index, row in enumerate(rows):
            if not isinstance(row, str) or len(row) != size or set(row) - set(VALUES):
                raise NotationError(
                    f"setup: row {size - index} must be {size} letters of G, Y, R, B, "
                    f"got {row!r}"
                )
            letters.append(row)
        if "G" not in "".join(letters):
            raise NotationError("setup: the board needs a green frog for the first move")

    def start(
        self, options: Options, seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON | None],
    ) -> State:
        size = int(options["size"])
        board = Board(size)
        frogs = {
            Square(col, size - 1 - index): letter
            for index, row in enumerate(list_of(as_str, as_dict(public)["rows"]))
            for col, letter in enumerate(row)
            if letter != "."
        }
        return State(board, frogs, tuple(seats), dict.fromkeys(seats, 0))

    # --- play ---------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def parse_result(self, data: JSON) -> FrogletResult:
        return parse_result(data)

    def to_move(self, state: State) -> str | None:
        return None if state.outcome else state.seats[state.ply % 2]

    def scores(self, state: State) -> dict[str, int]:
        return dict(state.points)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def board_size(self, state: State) -> int:
        return state.board.size

    def squares_of(self, move: Move) -> tuple[Square, ...]:
        if isinstance(move, Remove):
            return (move.square,)
        return move.path if isinstance(move, Jump) else ()

    def check_move(self, state: State, seat: str, move: Move) -> None:
        self._captures(state, move)

    def _captures(self, state: State, move: Move) -> list[str]:
        """Check a move the preamble let through; return the colours it captures (in order)."""
        if isinstance(move, Remove):
            return self._check_remove(state, move.square)
        if state.ply == 0:
            raise IllegalMoveError("the first move removes a green frog: remove SQUARE")
        assert isinstance(move, Jump)  # the preamble handles resignations
        return _check_path(state, move.path)

    def _check_remove(self, state: State, square: Square) -> list[str]:
        if state.ply != 0:
            raise IllegalMoveError("only the first move removes a frog; now every move jumps")
        colour = state.frogs.get(square)
        if colour != "G":
            what = f"a {COLOURS[colour]} frog" if colour else "no frog"
            raise IllegalMoveError(f"{square.name} holds {what}: the first move removes a "
                                   "green frog")
        return []

    def apply(
        self, state: State, seat: str, move: Move, claimed: FrogletResult | None
    ) -> tuple[State, FrogletResult]:
        result: FrogletResult
        if isinstance(move, Resign):
            result = Resigned()
        elif isinstance(move, Remove):
            result = Removed()
        else:
            captured = self._captures(state, move)
            result = Captured(tuple(captured), sum(VALUES[c] for c in captured))
        if claimed is not None and claimed != result:
            raise InconsistentResultError(f"{move}: result {claimed.to_json()!r} should be "
                                          f"{result.to_json()!r}")
        if isinstance(move, Resign):
            winner = next(s for s in state.seats if s != seat)
            standing = (Place(1, winner, state.points[winner]), Place(2, seat, state.points[seat]))
            outcome = Outcome.ended(Termination.RESIGNED, standing, seat)
            return replace(state, outcome=outcome), result
        frogs = dict(state.frogs)
        if isinstance(move, Remove):
            del frogs[move.square]
            last: tuple[Square, ...] = (move.square,)
        else:
            colour = frogs.pop(move.path[0])
            for start, end in zip(move.path, move.path[1:], strict=False):
                del frogs[_between(start, end)]
            frogs[move.path[-1]] = colour
            last = move.path
        points = dict(state.points)
        if isinstance(result, Captured):
            points[seat] += result.points
        state = replace(state, frogs=frogs, points=points, ply=state.ply + 1, last=last)
        if not any(True for _ in _hops(state, frogs)):
            outcome = Outcome.ended(Termination.NO_JUMP_LEFT, rank_by_points(points))
            state = replace(state, outcome=outcome)
        return state, result

    def pass_turn(self, state: State, seat: str) -> State:
        """A turn gone by (a passed deadline): the other seat jumps next."""
        if state.ply == 0:
            raise IllegalMoveError("the first move removes a green frog: it cannot be passed")
        return replace(state, ply=state.ply + 1, last=())

    # --- presentation -------------------------------------------------------

    def view(self, state: State, viewers: frozenset[str]) -> FrogletView:
        size = state.board.size
        letters = [state.frogs.get(Square(c, r), ".") for r in range(size) for c in range(size)]
        return FrogletView(
            rules=self.name,
            size=size,
            seats=state.seats,
            to_move=self.to_move(state),
            points=state.points,
            rows=tuple(_rows(size, letters)),
            last=tuple(square.name for square in state.last),
            frogs_left={c: sum(1 for v in state.frogs.values() if v == c) for c in "GYRB"},
            outcome=state.outcome,
        )

    def read_view(self, data: JSON) -> FrogletView:
        return FrogletView.from_json(data)

    def render(self, view: FrogletView, you: frozenset[str] = frozenset(),
               paint: Paint | None = None) -> str:
        size = view.size
        last = set(view.last)
        at = {Square(col, size - 1 - index).name: letter
              for index, row in enumerate(view.rows) for col, letter in enumerate(row)}
        lines = text_grid(size, lambda name: f"({at[name]})" if name in last else f" {at[name]} ",
                          paint)
        left = ", ".join(f"{COLOURS[c]} {n}" for c, n in view.frogs_left.items())
        lines += ["", *text_legend(["G green 1", "Y yellow 2", "R red 3", "B blue 4", ". empty",
                                    "(x) squares of the last move"], "   "),
                  f"  frogs left: {left}"]
        return "\n".join(lines)

    def describe(self, seat: str, move: str, result: FrogletResult) -> str:
        if isinstance(result, Resigned):
            return f"{seat} resigns"
        if isinstance(result, Removed):
            if not move.split():  # a mailed view file's record may hold anything
                raise NotationError("not a Froglet move: an empty one")
            return f"{seat} removes {move.split()[-1]} (green)"
        captured = ", ".join(COLOURS[c] for c in result.colours)
        return f"{seat} jumps {move}: {captured} (+{result.points})"

    def comment(self, result: FrogletResult) -> str:
        if isinstance(result, Resigned):
            return "resigns"
        if isinstance(result, Removed):
            return "green removed"
        return f"{''.join(result.colours)} +{result.points}"



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
    return jump_paths(state.board, state.frogs)


def jump_paths(board: Board, frogs_on: Mapping[Square, str]
               ) -> list[tuple[tuple[Square, ...], int]]:
    """Every jump path on ``board`` with frogs ``frogs_on``, with its points, in a stable
    order: by starting square, then depth first in the order of ``_STEPS``."""
    found: list[tuple[tuple[Square, ...], int]] = []
    frogs = dict(frogs_on)
    size = board.size

    def extend(path: tuple[Square, ...], points: int) -> None:
        here = path[-1]
        for dc, dr in _STEPS:
            col, row = here.col + 2 * dc, here.row + 2 * dr
            if not (0 <= col < size and 0 <= row < size):
                continue
            end = Square(col, row)
            middle = Square(here.col + dc, here.row + dr)
            if end in frogs or middle not in frogs:
                continue
            jumped = frogs.pop(middle)  # jump in place, then undo
            frogs[end] = frogs.pop(here)
            gained = points + VALUES[jumped]
            found.append(((*path, end), gained))
            extend((*path, end), gained)
            frogs[here] = frogs.pop(end)
            frogs[middle] = jumped

    # a jump lands on an empty square two steps away: start only from frogs that have one
    empty = [s for s in board.squares() if s not in frogs_on]
    starts = {Square(s.col - 2 * dc, s.row - 2 * dr) for s in empty for dc, dr in _STEPS}
    for square in sorted(starts.intersection(frogs_on)):
        extend((square,), 0)
    return found


def _rows(size: int, letters: Sequence[str]) -> list[str]:
    """Letters listed from A1 row by row, as rows from the top row down."""
    return ["".join(letters[row * size : (row + 1) * size]) for row in range(size - 1, -1, -1)]
