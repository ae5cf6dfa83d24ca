"""Secret Move: two-player deduction on private 3x3 boards (docs/rules.md §4).

Each seat assigns 0..5 to its column headers A, B, C and row headers 1, 2, 3
(its secret: ``{"cols": [a, b, c], "rows": [d, e, f]}``); the value of square
``Xn`` is header X + header n. Moves: ``A1-B2 2`` (2 stones from A1 to B2 on the
mover's own board), ``pass``, and, once both seats are done, ``guess
146/257/479`` (the opponent's nine values, row 1 first), which the file layer
keeps sealed until the end; and ``resign``.

Public results: :class:`Quiet` ``{}`` for a move or a chosen pass,
:class:`AutoPass` ``{"auto": true}`` for a pass the referee records for a seat
with no legal move, :class:`Guessed` ``{"guessed": true}``,
:class:`~frogpbem.games.Resigned` ``{"resigned": true}``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from frogpbem.board import text_legend
from frogpbem.errors import (
    IllegalMoveError,
    InconsistentResultError,
    NotationError,
    UsageError,
)
from frogpbem.frozen import frozen
from frogpbem.games import (
    JSON,
    Chance,
    Options,
    Outcome,
    Paint,
    Place,
    Resign,
    Resigned,
    Ruleset,
    Termination,
    same_json,
    shuffle,
)
from frogpbem.games.secretmove_view import (
    MARGIN,
    MAX_MOVES,
    MOVE_WORDS,
    SQUARES,
    START_STONES,
    SeatBoard,
    SecretMoveView,
    adjacent,
    values_of,
)
from frogpbem.jsonvalue import (
    as_dict,
    as_float,
    as_int,
    list_of,
)
from frogpbem.safetext import counted, quoted

if TYPE_CHECKING:
    import random

EXPECTED = 'expected "A1-B2 COUNT", "pass", "guess 146/257/479" or "resign"'
_MOVE_RE = re.compile(r"\s*([A-Ca-c][1-3])\s*-\s*([A-Ca-c][1-3])\s+([0-9]{1,2})\s*")
_GUESS_RE = re.compile(r"\s*guess\s+([1-9]{3})\s*/\s*([1-9]{3})\s*/\s*([1-9]{3})\s*", re.I)
_SETUP_RE = re.compile(
    r"\s*cols\s*=\s*([0-5])\s*,\s*([0-5])\s*,\s*([0-5])\s+rows\s*=\s*([0-5])\s*,\s*([0-5])"
    r"\s*,\s*([0-5])\s*", re.I,
)


def parse_setup(text: str) -> dict[str, JSON]:
    """``cols=0,3,5 rows=1,2,4`` as a secret; raises :class:`NotationError`."""
    match = _SETUP_RE.fullmatch(text)
    if match is None:
        raise NotationError('expected "cols=A,B,C rows=1,2,3" with numbers 0-5, got '
                            + quoted(text))
    numbers: list[JSON] = [int(g) for g in match.groups()]
    secret: dict[str, JSON] = {"cols": numbers[:3], "rows": numbers[3:]}
    check_secret(secret)
    return secret


def check_secret(secret: object) -> None:
    """Three headers on the columns and three on the rows, each of 0..5 on exactly one.

    A secret may come from anyone (a seat seals its own): anything else, of any shape
    or type, is refused in a sentence.
    """
    if not isinstance(secret, dict) or set(secret) != {"cols", "rows"}:
        raise NotationError("setup: expected 'cols' and 'rows'")
    cols, rows = secret["cols"], secret["rows"]
    if not all(isinstance(part, list | tuple) and len(part) == 3 and
               all(type(number) is int for number in part) for part in (cols, rows)):
        raise NotationError(f"setup: 'cols' and 'rows' take three whole numbers each, got "
                            f"{cols!r} and {rows!r}")
    numbers = [*cols, *rows]
    if sorted(numbers) != [0, 1, 2, 3, 4, 5]:
        raise NotationError(
            f"setup: the six headers take 0, 1, 2, 3, 4, 5 once each, got {numbers}"
        )


def _headers(secret: JSON) -> dict[str, list[int]]:
    """A secret :func:`check_secret` passed, as its headers (``cols`` and ``rows``)."""
    fields = as_dict(secret)
    return {"cols": list_of(as_int, fields["cols"]), "rows": list_of(as_int, fields["rows"])}


@cache
def all_grids() -> tuple[dict[str, int], ...]:
    """Every distinct value grid the 720 header arrangements make (648 of them)."""
    seen: dict[tuple[int, ...], dict[str, int]] = {}
    for numbers in itertools.permutations(range(6)):
        values = values_of({"cols": numbers[:3], "rows": numbers[3:]})
        seen.setdefault(tuple(values[s] for s in SQUARES), values)
    return tuple(seen.values())


def fitting_grids(history: Sequence[tuple[str, str, int]],
                  stuck: Sequence[Mapping[str, int]]) -> list[dict[str, int]]:
    """The value grids under which every move of ``history`` was legal and no board of
    ``stuck`` (the stones at each automatic pass) had a legal move."""
    return [values for values in all_grids()
            if all(values[dst] - values[src] >= n for src, dst, n in history)
            and not any(legal_moves(stones, values) for stones in stuck)]


@frozen
class StoneMove:
    """Move ``count`` stones from ``src`` to ``dst`` on the mover's own board."""

    src: str
    dst: str
    count: int

    def __str__(self) -> str:
        return f"{self.src}-{self.dst} {self.count}"

    def __repr__(self) -> str:
        return f"StoneMove({self.src!r}, {self.dst!r}, {self.count})"


@frozen
class Pass:
    """Stop moving for the rest of the game."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


@frozen
class SealedGuess:
    """The opponent's nine values, row 1 first; ``None`` while the guess is still sealed."""

    values: tuple[int, ...] | None = None

    def __str__(self) -> str:
        if self.values is None:
            return "guess"
        digits = "".join(str(v) for v in self.values)
        return f"guess {digits[:3]}/{digits[3:6]}/{digits[6:]}"

    def __repr__(self) -> str:
        return f"SealedGuess({self.values!r})"


Move = StoneMove | Pass | SealedGuess | Resign
"""A Secret Move move."""


def parse_move(text: str) -> Move:
    """Parse ``A1-B2 2``, ``pass``, ``guess 146/257/479``, ``resign``; raises NotationError."""
    lowered = text.strip().lower()
    if lowered == "pass":
        return Pass()
    if lowered == "resign":
        return Resign()
    if lowered == "guess":
        return SealedGuess()  # a guess whose content is still sealed
    if (match := _GUESS_RE.fullmatch(text)) is not None:
        return SealedGuess(tuple(int(d) for d in "".join(match.groups())))
    if (match := _MOVE_RE.fullmatch(text)) is not None:
        return StoneMove(match[1].upper(), match[2].upper(), int(match[3]))
    raise NotationError(f"{EXPECTED}, got {quoted(text)}")


@frozen
class Quiet:
    """A stone move or a chosen pass: nothing to show."""

    def to_json(self) -> JSON:
        return {}


@frozen
class AutoPass:
    """The pass the referee records for a seat with no legal move."""

    def to_json(self) -> JSON:
        return {"auto": True}


@frozen
class Guessed:
    """A sealed guess was handed in."""

    def to_json(self) -> JSON:
        return {"guessed": True}


SecretMoveResult = Quiet | AutoPass | Guessed | Resigned
"""A Secret Move move's public result."""
_RESULTS: tuple[SecretMoveResult, ...] = (Quiet(), AutoPass(), Guessed(), Resigned())


def parse_result(data: JSON) -> SecretMoveResult:
    """A recorded result; raises :class:`NotationError` for any other shape."""
    for result in _RESULTS:
        if same_json(data, result.to_json()):
            return result
    raise NotationError(f"not a Secret Move result: {data!r}")


@frozen
class State:
    """A Secret Move position, as much of it as one observer knows."""

    seats: tuple[str, ...]
    secrets: Mapping[str, Mapping[str, Sequence[int]] | None]
    """Each seat's headers; ``None`` where unknown."""
    stones: Mapping[str, Mapping[str, int]]
    """Stones on each square of each seat's board."""
    history: Mapping[str, tuple[tuple[str, str, int], ...]]
    """Each seat's stone moves, in order (public)."""
    stuck: Mapping[str, tuple[Mapping[str, int], ...]]
    """Each seat's boards at its automatic passes (it had no legal move there; public)."""
    done: Mapping[str, bool]
    turn: int = 0
    guesses: Mapping[str, tuple[int, ...] | None] | None = None
    """Seats that guessed, with the guess where known."""
    resigned: str | None = None

    def moves_left(self, seat: str) -> int:
        return MAX_MOVES - len(self.history[seat])


def legal_moves(stones: Mapping[str, int], values: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Every legal stone move on one board."""
    moves = []
    for src in SQUARES:
        for dst in SQUARES:
            if adjacent(src, dst) and values[dst] > values[src]:
                for count in range(1, min(values[dst] - values[src], stones[src]) + 1):
                    moves.append((src, dst, count))
    return moves


def score(stones: Mapping[str, int], values: Mapping[str, int]) -> int:
    return sum(stones[s] * values[s] for s in SQUARES)


def _chances(hint: JSON) -> dict[str, dict[int, float]]:
    """Each square's chance of each value, as :meth:`SecretMoveHints.hint` wrote them (a
    JSON object's keys are strings: the values are read back as numbers)."""
    return {square: {int(value): as_float(chance) for value, chance in as_dict(of).items()}
            for square, of in as_dict(as_dict(hint)["values"]).items()}


class SecretMoveHints:
    """Secret Move's hints (:attr:`~frogpbem.games.Ruleset.hints`): the opponent's value
    grids that still fit its public moves."""

    def hint(self, view: SecretMoveView, seat: str) -> JSON:
        """The opponent's value grids still possible (from its public moves, as ``view``
        lists them), and each value's chance on each square, every grid counted once."""
        opponent = next(s for s in view.seats if s != seat)
        left = fitting_grids(*_public_facts(view, seat))
        chances = {square: {value: count / len(left) for value, count in
                            sorted(Counter(g[square] for g in left).items())}
                   for square in SQUARES}
        values: dict[str, JSON] = {}
        certain: dict[str, JSON] = {}
        for square, of in chances.items():
            by_value: dict[str, JSON] = {str(value): chance for value, chance in of.items()}
            values[square] = by_value
            if len(of) == 1:
                certain[square] = next(iter(of))
        return {"opponent": opponent, "grids_left": len(left), "of": len(all_grids()),
                "values": values, "certain": certain}

    def heat(self, hint: JSON) -> dict[str, float]:
        """How sure the likeliest value of each of the opponent's squares is."""
        return {square: max(chances.values()) for square, chances in _chances(hint).items()}

    def labels(self, hint: JSON) -> dict[str, str]:
        """The likeliest value of each square and its chance: ``7: 62%``."""
        labels = {}
        for square, chances in _chances(hint).items():
            value, chance = max(chances.items(), key=lambda item: (item[1], -item[0]))
            labels[square] = f"{value}: {round(100 * chance)}%"
        return labels

    def text(self, view: SecretMoveView, hint: JSON) -> str:
        fields, odds = as_dict(hint), _chances(hint)
        lines = [f"{fields['opponent']}'s value grids that still fit its moves: "
                 f"{fields['grids_left']} of {fields['of']}.",
                 "Each square's possible values, likeliest first, with their chance",
                 "(every grid counted once):"]
        for row in (3, 2, 1):
            for col in "ABC":
                chances = sorted(odds[f"{col}{row}"].items(),
                                 key=lambda item: (-item[1], item[0]))
                values = [f"{v} ({round(100 * p)} %)" for v, p in chances]
                lines += text_legend([f"{col}{row}: {values[0]}", *values[1:]], ", ")
        certain = as_dict(fields["certain"])
        if certain:
            lines += ["", "Certain: " + ", ".join(f"{sq}={v}" for sq, v in certain.items())]
        return "\n".join(lines)


class SecretMoveBot:
    """Secret Move's bot (:attr:`~frogpbem.games.Ruleset.bot`)."""

    def move(self, view: SecretMoveView, seat: str, rng: random.Random,
                 strength: str = "greedy") -> str:
        """``random`` moves and guesses at random; ``greedy`` makes the move that adds
        most to its score and guesses a grid that fits the opponent's moves; ``strong``
        also never passes while a move adds to its score; ``expert`` weighs a move's points
        against what it tells the opponent (:mod:`frogpbem.games.secretmove_bot`)."""
        if strength == "expert":
            from frogpbem.games.secretmove_bot import expert_move  # it imports this module
            return expert_move(view, seat, rng)
        mine = view.boards[seat]
        if view.phase == "guess":
            if strength == "random":
                grids = list(all_grids())
            else:
                grids = fitting_grids(*_public_facts(view, seat))
            guess = grids[rng.randrange(len(grids))]
            digits = "".join(str(guess[sq]) for sq in SQUARES)
            return f"guess {digits[:3]}/{digits[3:6]}/{digits[6:]}"
        values = mine.values or {}
        moves = legal_moves(mine.stones, values)
        if not moves or (strength != "strong" and rng.randrange(12) == 0):
            return "pass"
        if strength == "random":
            src, dst, count = moves[rng.randrange(len(moves))]
            return f"{src}-{dst} {count}"
        gain = max(n * (values[d] - values[s]) for s, d, n in moves)
        src, dst, count = rng.choice([(s, d, n) for s, d, n in moves
                                      if n * (values[d] - values[s]) == gain])
        return f"{src}-{dst} {count}"


def _public_facts(view: SecretMoveView, seat: str) -> tuple[
            Sequence[tuple[str, str, int]], Sequence[Mapping[str, int]]]:
        """The opponent's moves and its boards at automatic passes, from ``seat``'s view."""
        other = next(s for s in view.seats if s != seat)
        return view.history[other], view.boards[other].stuck or ()


class SecretMove(Ruleset[State, Move, SecretMoveResult, SecretMoveView]):
    """Secret Move for red and blue."""

    name = "secretmove"
    title = "Secret Move"
    seat_order = ("red", "blue")
    id_prefix = "sm"
    players_choose = True
    hints = SecretMoveHints()
    bot = SecretMoveBot()

    def parse_secret(self, text: str) -> JSON:
        return parse_setup(text)

    def options(self, given: Mapping[str, str | int]) -> dict[str, int | str]:
        if given:
            raise UsageError(f"secretmove has no options, got {', '.join(given)}")
        return {}

    def deal(
        self, options: Options, seats: Sequence[str], rng: Chance
    ) -> tuple[JSON, dict[str, JSON]]:
        secrets: dict[str, JSON] = {}
        for seat in seats:
            numbers = list(range(6))
            shuffle(rng, numbers)
            cols: list[JSON] = [*numbers[:3]]
            rows: list[JSON] = [*numbers[3:]]
            secrets[seat] = {"cols": cols, "rows": rows}
        return None, secrets

    def check_setup(
        self, options: Options, seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON],
    ) -> None:
        for seat in seats:
            check_secret(secrets.get(seat))

    def secret_bound(self, options: Options) -> int:
        return 40

    def start(
        self, options: Options, seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON | None],
    ) -> State:
        return State(
            seats=tuple(seats),
            secrets={s: None if (secret := secrets.get(s)) is None else _headers(secret)
                     for s in seats},
            stones={s: dict.fromkeys(SQUARES, START_STONES) for s in seats},
            history=dict.fromkeys(seats, ()),
            stuck=dict.fromkeys(seats, ()),
            done=dict.fromkeys(seats, False),
        )

    # --- play ---------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def parse_result(self, data: JSON) -> SecretMoveResult:
        return parse_result(data)

    def public_move(self, move: Move) -> str:
        """What the record shows of a move (a guess stays sealed)."""
        return "guess" if isinstance(move, SealedGuess) else str(move)

    def is_sealed(self, move: Move) -> bool:
        return isinstance(move, SealedGuess)

    def phase(self, state: State) -> str:
        if state.resigned or (state.guesses and len(state.guesses) == 2):
            return "over"
        return "guess" if all(state.done.values()) else "moves"

    def to_move(self, state: State) -> str | None:
        phase = self.phase(state)
        if phase == "over":
            return None
        if phase == "guess":
            return next(s for s in state.seats if s not in (state.guesses or {}))
        return state.seats[state.turn]

    def may_move(self, state: State, seat: str) -> bool:
        """Both seats guess, in any order; otherwise the seat to move."""
        return self.phase(state) == "guess" or self.to_move(state) == seat

    def scores(self, state: State) -> dict[str, int]:
        """Nothing while the game runs: the scores depend on the secret values."""
        return {}

    def _values(self, state: State, seat: str) -> dict[str, int] | None:
        secret = state.secrets[seat]
        return None if secret is None else values_of(secret)

    def automatic(self, state: State) -> Move | None:
        """The pass the referee records for a seat to move that has no legal move."""
        seat = self.to_move(state)
        if seat is None or self.phase(state) != "moves":
            return None
        values = self._values(state, seat)
        if values is not None and not legal_moves(state.stones[seat], values):
            return Pass()
        return None

    def check_move(self, state: State, seat: str, move: Move) -> None:
        if self.phase(state) == "guess":
            if not isinstance(move, SealedGuess):
                raise IllegalMoveError("both seats are done: each now guesses the other's values")
            if seat in (state.guesses or {}):
                raise IllegalMoveError(f"{seat} has guessed already")
            return
        if isinstance(move, SealedGuess):
            raise IllegalMoveError("guesses come when both seats are done moving")
        if isinstance(move, StoneMove):
            self._check_stones(state, seat, move)

    def _check_stones(self, state: State, seat: str, move: StoneMove) -> None:
        text = str(move)
        if not adjacent(move.src, move.dst):
            raise IllegalMoveError(f"{text}: {move.dst} is not next to {move.src}")
        if move.count < 1:
            raise IllegalMoveError(f"{text}: move at least one stone")
        if move.count > state.stones[seat][move.src]:
            raise IllegalMoveError(
                f"{text}: only {counted(state.stones[seat][move.src], 'stone')} on {move.src}"
            )
        values = self._values(state, seat)
        if values is None:
            return  # the values are secret: the referee and the mover check them
        gap = values[move.dst] - values[move.src]
        if gap <= 0:
            raise IllegalMoveError(f"{text}: {move.dst} ({values[move.dst]}) is not worth more "
                                   f"than {move.src} ({values[move.src]})")
        if move.count > gap:
            raise IllegalMoveError(f"{text}: at most {gap} stones ({move.dst} is worth {gap} "
                                   f"more than {move.src})")

    def apply(
        self, state: State, seat: str, move: Move, claimed: SecretMoveResult | None
    ) -> tuple[State, SecretMoveResult]:
        result: SecretMoveResult
        if isinstance(move, Resign):
            result = Resigned()
            new = replace(state, resigned=seat)
        elif isinstance(move, SealedGuess):
            result = Guessed()
            guesses = dict(state.guesses or {})
            guesses[seat] = move.values
            new = replace(state, guesses=guesses)
        elif isinstance(move, Pass):
            auto = isinstance(claimed, AutoPass) if claimed is not None else (
                self.automatic(state) is not None)
            result = AutoPass() if auto else Quiet()
            values = self._values(state, seat)
            if auto and values is not None and legal_moves(state.stones[seat], values):
                raise InconsistentResultError(f"automatic pass for {seat}, who had a legal move")
            stuck = dict(state.stuck)
            if auto:
                stuck[seat] = (*state.stuck[seat], dict(state.stones[seat]))
            new = self._pass_turn(replace(state, done={**state.done, seat: True}, stuck=stuck))
        else:
            stones = dict(state.stones[seat])
            stones[move.src] -= move.count
            stones[move.dst] += move.count
            history = {**state.history, seat: (*state.history[seat],
                                               (move.src, move.dst, move.count))}
            done = {**state.done, seat: len(history[seat]) >= MAX_MOVES}
            result = Quiet()
            new = self._pass_turn(replace(state, stones={**state.stones, seat: stones},
                                          history=history, done=done))
        if claimed is not None and claimed != result:
            raise InconsistentResultError(f"{move}: result {claimed.to_json()!r} should be "
                                          f"{result.to_json()!r}")
        return new, result

    def pass_turn(self, state: State, seat: str) -> State:
        """A turn gone by (a passed deadline): no stone moves, and it counts as no move."""
        if self.phase(state) != "moves":
            raise IllegalMoveError("each seat must guess: a guess has no turn to pass")
        return self._pass_turn(state)

    def _pass_turn(self, state: State) -> State:
        for step in (1, 2):
            index = (state.turn + step) % 2
            if not state.done[state.seats[index]]:
                return replace(state, turn=index)
        return state

    def outcome(self, state: State) -> Outcome | None:
        if state.resigned:
            winner = next(s for s in state.seats if s != state.resigned)
            return Outcome.ended(Termination.RESIGNED,
                                 (Place(1, winner, 0), Place(2, state.resigned, 0)),
                                 state.resigned)
        guesses = state.guesses or {}
        if len(guesses) < 2 or any(g is None for g in guesses.values()):
            return None
        values = {s: self._values(state, s) for s in state.seats}
        if any(v is None for v in values.values()):
            return None
        points = {s: score(state.stones[s], values[s]) for s in state.seats}  # type: ignore[arg-type]
        right = {}
        for seat in state.seats:
            other = next(s for s in state.seats if s != seat)
            truth = tuple(values[other][sq] for sq in SQUARES)  # type: ignore[index]
            right[seat] = guesses[seat] == truth
        red, blue = state.seats
        if abs(points[red] - points[blue]) > MARGIN:
            order = sorted(state.seats, key=lambda s: -points[s])
            return Outcome.ended(Termination.LEAD, (Place(1, order[0], points[order[0]]),
                                                    Place(2, order[1], points[order[1]])),
                                 str(MARGIN))
        correct = [s for s in state.seats if right[s]]
        if len(correct) == 1:
            winner = correct[0]
            loser = next(s for s in state.seats if s != winner)
            return Outcome.ended(Termination.ONLY_ONE_GUESSED, (
                Place(1, winner, points[winner]), Place(2, loser, points[loser])), winner)
        if points[red] == points[blue]:
            how = Termination.BOTH_RIGHT_EQUAL if correct else Termination.NEITHER_RIGHT_EQUAL
            return Outcome.ended(how, (Place(1, red, points[red]), Place(1, blue, points[blue])))
        order = sorted(state.seats, key=lambda s: -points[s])
        how = Termination.BOTH_RIGHT_HIGHER if correct else Termination.NEITHER_RIGHT_HIGHER
        return Outcome.ended(how, (Place(1, order[0], points[order[0]]),
                                   Place(2, order[1], points[order[1]])))

    # --- presentation -------------------------------------------------------

    def grids_left(self, state: State, seat: str) -> list[dict[str, int]]:
        """The value grids of ``seat`` (of the 648 its headers can make) that agree with its
        public moves: each move was legal, and each automatic pass had no legal move."""
        return fitting_grids(state.history[seat], state.stuck[seat])

    def view(self, state: State, viewers: frozenset[str]) -> SecretMoveView:
        boards = {}
        for seat in state.seats:
            secret = state.secrets[seat]
            if seat in viewers and secret is not None:
                values = values_of(secret)
                known: tuple[Mapping[str, int] | None, int | None, int | None,
                             tuple[Mapping[str, int], ...] | None] = \
                    (values, score(state.stones[seat], values), None, None)
            else:
                known = (None, None, len(self.grids_left(state, seat)), state.stuck[seat])
            boards[seat] = SeatBoard(state.stones[seat], state.moves_left(seat),
                                     state.done[seat], seat in (state.guesses or {}), *known)
        return SecretMoveView(
            rules=self.name,
            seats=state.seats,
            phase=self.phase(state),
            to_move=self.to_move(state),
            points=self.scores(state),
            boards=boards,
            history=state.history,
            outcome=self.outcome(state),
        )

    def read_view(self, data: JSON) -> SecretMoveView:
        return SecretMoveView.from_json(data)

    def render(self, view: SecretMoveView, you: frozenset[str] = frozenset(),
               paint: Paint | None = None) -> str:
        lines = [f"Phase: {view.phase}"]
        for seat, board in view.boards.items():
            values = board.values
            lines.append("")
            lines.append(f"{seat}: {counted(board.moves_left, 'move')} left"
                         + (", done" if board.done else "")
                         + (f", score {board.score}" if board.score is not None else "")
                         + (f", {board.grids_left} of {len(all_grids())} value grids still "
                            "fit its moves" if board.grids_left is not None else ""))
            for row in (3, 2, 1):
                cells = []
                for col in "ABC":
                    name = f"{col}{row}"
                    stones = board.stones[name]
                    cell = f"{stones:>2}" + (f" ({values[name]})" if values else "")
                    cells.append(paint(f"{seat}:{name}", cell) if paint else cell)
                lines.append(f"  {row}  " + "   ".join(cells))
            pad = "    " if values else ""
            lines.append("     " + "   ".join(f"{c:>2}{pad}" for c in "ABC"))
        lines.append("")
        lines.append("  stones on each square; (value) on boards whose headers you know")
        return "\n".join(lines)

    def describe(self, seat: str, move: str, result: SecretMoveResult) -> str:
        if isinstance(result, Resigned):
            return f"{seat} resigns"
        if isinstance(result, Guessed):
            return f"{seat} hands in a sealed guess"
        if move == "pass":
            return f"{seat} passes" + (" (no legal move)" if isinstance(result, AutoPass) else "")
        words = MOVE_WORDS.fullmatch(move)
        if words is None:  # a mailed view file's record may hold anything
            raise NotationError(f"not a Secret Move move: {quoted(move)}")
        count = int(words[2])
        return f"{seat} moves {words[1]}: {count} stone{'s' if count != 1 else ''}"

    def comment(self, result: SecretMoveResult) -> str:
        if isinstance(result, AutoPass):
            return "no legal move"
        if isinstance(result, Guessed):
            return "sealed"
        return ""

