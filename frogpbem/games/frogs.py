"""The frog-finding engine shared by Frog Finder and Coan's original (docs/rules.md §1, §2).

Any number of seats, each in a team (a seat alone is a team of one). Moves:
:class:`Shoot` (``shoot G9``), :class:`Guess` (``guess A1``),
:class:`~frogpbem.games.Resign`. Public results, and how a record holds them:

- :class:`Count` ``{"count": 2}``: a shot at an empty square, with its number;
- :class:`Shot` ``{"shot": "blue"}``: a shot that hit (and revealed) a blue frog;
- :class:`Found` ``{"found": "blue"}``: a correct guess that revealed a blue frog;
- :class:`Miss` ``{"miss": true}``: a wrong guess;
- :class:`FrogsResigned` ``{"resigned": true}``, and where the resigning seats'
  frogs are shown (Coan): ``{"resigned": true, "frogs": {"black": ["C4"]}}``.

Points belong to teams; a team whose frogs are all revealed is out, its points
frozen; a seat whose own frogs are all revealed takes no more turns.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from frogpbem.board import SQUARE_ORDER, Board, Square
from frogpbem.errors import (
    IllegalMoveError,
    InconsistentResultError,
    NotationError,
    UsageError,
)
from frogpbem.frozen import cached, frozen
from frogpbem.games import (
    JSON,
    Chance,
    Options,
    OptionSpec,
    Outcome,
    Paint,
    Place,
    Resign,
    Ruleset,
    Termination,
    parse_int_option,
    rank_by_points,
    sample,
)
from frogpbem.games.frogs_notation import (
    GUESS_GAIN,
    LAST_STANDING_BONUS,
    MISS_PENALTY,
    SHOT_PENALTY,
    Count,
    Found,
    FrogResult,
    FrogsResigned,
    FrogsView,
    Guess,
    Miss,
    Move,
    Revealed,
    Shoot,
    Shot,
    parse_move,
    parse_result,
)
from frogpbem.games.frogs_text import comment, describe, render, render_hint
from frogpbem.jsonvalue import as_dict, as_float, as_str, dict_of, list_of
from frogpbem.safetext import counted

if TYPE_CHECKING:
    import random

@frozen
class State:
    """A position, as much of it as one observer knows."""

    board: Board
    """The board's geometry."""
    frogs: int
    """Frogs per seat at the start."""
    seats: tuple[str, ...]
    """The seats, in turn order."""
    teams: Mapping[str, str]
    """Each seat's team (its own name when it plays alone)."""
    hidden: Mapping[str, frozenset[Square] | None]
    """Each seat's frogs not yet revealed; ``None`` where this observer does not know."""
    revealed: Mapping[Square, Revealed]
    """Frogs revealed so far."""
    shots: Mapping[Square, int]
    """Shot squares with their numbers."""
    misses: frozenset[Square]
    """Squares of wrong guesses (known to be empty)."""
    points: Mapping[str, int]
    """Points so far, per team."""
    turn: int
    """Index in ``seats`` of the seat to move."""
    ply: int = 0
    """Records played so far."""
    out_at: Mapping[str, int] | None = None
    """For each team whose frogs are all revealed, the ply at which it went out."""
    resigned: tuple[str, ...] = ()
    """Teams that resigned, in order."""
    outcome: Outcome | None = None
    """How the game ended, once it has."""

    @cached
    def listed(self) -> tuple[dict[str, int], tuple[str, ...]]:
        """The shots (by square name, in the squares' order) and the misses' names, as
        every view lists them: made once for all the views of this position."""
        order = self.in_order
        return dict(zip(order.shot_names, order.counts, strict=True)), order.miss_names

    @cached
    def in_order(self) -> InOrder:
        """The shots and the misses in the squares' order, with their names.

        A position that :func:`_followed` an earlier one whose order was made (or could be
        made so) takes that order and puts in the few squares added since; any other
        sorts its squares afresh. (A long game's views list a board that fills up.)
        """
        after: _After | None = self.__dict__.get("_after")
        if after is None:
            shot = tuple(sorted(self.shots, key=SQUARE_ORDER))
            missed = tuple(sorted(self.misses, key=SQUARE_ORDER))
            return InOrder(shot, tuple(s.name for s in shot), tuple(map(self.shots.__getitem__,
                           shot)), missed, tuple(s.name for s in missed))
        earlier, shots, misses = after
        return earlier.adding(shots, tuple(self.shots[s] for s in shots), misses)

    @cached
    def _revealed_of(self) -> Counter[str]:
        return Counter(r.owner for r in self.revealed.values())

    def hidden_count(self, seat: str) -> int:
        """How many of ``seat``'s frogs are still hidden (public knowledge)."""
        return self.frogs - self._revealed_of[seat]

    def members(self, team: str) -> tuple[str, ...]:
        return tuple(s for s in self.seats if self.teams[s] == team)

    def team_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.teams[s] for s in self.seats))

    def is_out(self, team: str) -> bool:
        return team in (self.out_at or {}) or team in self.resigned

    def active(self, seat: str) -> bool:
        """Whether ``seat`` still takes turns."""
        return not self.is_out(self.teams[seat]) and self.hidden_count(seat) > 0


@frozen
class InOrder:
    """The shots and misses of a position in the squares' own order (see
    :attr:`State.in_order`)."""

    shots: tuple[Square, ...]
    shot_names: tuple[str, ...]
    counts: tuple[int, ...]
    """Each shot's number."""
    misses: tuple[Square, ...]
    miss_names: tuple[str, ...]

    def adding(self, shots: tuple[Square, ...], counts: tuple[int, ...],
               misses: tuple[Square, ...]) -> InOrder:
        """This order with ``shots`` (numbered ``counts``) and ``misses`` put in, none of
        them here already."""
        shot_squares, names, numbers = list(self.shots), list(self.shot_names), \
            list(self.counts)
        for square, count in zip(shots, counts, strict=True):
            at = _put_in(shot_squares, square)
            names.insert(at, square.name)
            numbers.insert(at, count)
        miss_squares, miss_names = list(self.misses), list(self.miss_names)
        for square in misses:
            miss_names.insert(_put_in(miss_squares, square), square.name)
        return InOrder(tuple(shot_squares), tuple(names), tuple(numbers), tuple(miss_squares),
                       tuple(miss_names))


def _put_in(squares: list[Square], square: Square) -> int:
    """Put ``square`` in its place in ``squares`` (in the squares' order); where it went."""
    at = bisect.bisect(squares, SQUARE_ORDER(square), key=SQUARE_ORDER)
    squares.insert(at, square)
    return at


_After = tuple[InOrder, tuple[Square, ...], tuple[Square, ...]]
"""How a position's squares are put in order from an earlier one's: its order, and the
shots and misses added since."""
FOLLOW_AT_MOST = 64
"""Squares added since the order was made, at most, before one sorts afresh."""


def _followed(earlier: State, later: State, shot: Square | None = None,
              miss: Square | None = None) -> State:
    """``later``, made from ``earlier`` by adding the one ``shot`` or ``miss`` (or neither)
    and nothing else to its shots and misses: told so, it puts its squares in order from
    ``earlier``'s (see :attr:`State.in_order`)."""
    made = earlier.__dict__
    if "in_order" in made:
        after: _After = (made["in_order"], (), ())
    elif "_after" in made:
        after = made["_after"]
    else:
        return later
    order, shots, misses = after
    if shot is not None:
        if shot in earlier.shots:  # a number changed: not a square added
            return later
        shots = (*shots, shot)
    if miss is not None and miss not in earlier.misses:
        misses = (*misses, miss)
    if len(shots) + len(misses) <= FOLLOW_AT_MOST:
        later.__dict__["_after"] = (order, shots, misses)
    return later


class FrogHints:
    """The frog-finding games' hints (:attr:`~frogpbem.games.Ruleset.hints`): the exact
    odds of a frog on every square the seat cannot see into (:mod:`.frogs_hint`, imported
    when a hint is asked for)."""

    def hint(self, view: FrogsView, seat: str) -> JSON:
        from frogpbem.games.frogs_hint import frog_odds

        return frog_odds(view).to_json()

    def heat(self, hint: JSON) -> dict[str, float] | None:
        return dict_of(as_float, as_dict(hint)["probabilities"])

    def labels(self, hint: JSON) -> dict[str, str]:
        return {}

    def text(self, view: FrogsView, hint: JSON) -> str:
        return render_hint(view, hint)


class FrogBot:
    """The frog-finding games' bot (:attr:`~frogpbem.games.Ruleset.bot`, in
    :mod:`.frogs_bot`, imported when a bot moves)."""

    def move(self, view: FrogsView, seat: str, rng: random.Random,
             strength: str = "greedy") -> str:
        from frogpbem.games.frogs_bot import bot_move

        return bot_move(view, rng, strength)


class FrogGame(Ruleset[State, Move, FrogResult, FrogsView]):
    """The shared engine; subclasses set the seats, teams and tie rule."""

    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("size", 12, "3..26", "the side of the square board"),
        OptionSpec("frogs", 5, "N", "frogs per seat"),
    )
    ties_are_draws: ClassVar[bool] = True
    """Frog Finder: equal points draw. Coan: the seat that stayed in longer ranks higher."""
    resign_reveals: ClassVar[bool] = False
    """Whether a resignation's result shows the resigning seats' frogs (the game may go on)."""
    resign_bonus: ClassVar[bool] = False
    """Whether the last seat standing gets its bonus also when a resignation ends the game."""
    hints = FrogHints()
    bot = FrogBot()

    # --- set-up -------------------------------------------------------------

    def options(self, given: Mapping[str, str | int]) -> dict[str, int | str]:
        merged = super().options(given)
        size = parse_int_option("size", merged["size"], 3, 26)
        frogs = parse_int_option("frogs", merged["frogs"], 1, max(1, size * size // 4))
        return {"size": size, "frogs": frogs}

    def seats(self, options: Options, count: int) -> tuple[str, ...]:
        seats = super().seats(options, count)
        self.check_room(options, count)
        return seats

    @staticmethod
    def check_room(options: Options, count: int) -> None:
        """At most half the board may hold frogs."""
        size, frogs = int(options["size"]), int(options["frogs"])
        if 2 * frogs * count > size * size:
            raise UsageError(f"{count} seats with {counted(frogs, 'frog')} each do not fit on a "
                             f"{size}x{size} board (at most half its squares hold frogs)")

    def team_map(self, options: Options, seats: Sequence[str]) -> dict[str, str]:
        """Each seat's team name (alone: the seat's own name)."""
        return {seat: seat for seat in seats}

    def secret_readers(self, options: Options, seat: str) -> tuple[str, ...]:
        teams = self.team_map(options, self.seat_order)
        return tuple(s for s in self.seat_order if teams.get(s) == teams.get(seat))

    def deal(
        self, options: Options, seats: Sequence[str], rng: Chance
    ) -> tuple[JSON, dict[str, JSON]]:
        board = Board(int(options["size"]))
        frogs = int(options["frogs"])
        chosen = sample(rng, list(board.squares()), frogs * len(seats))
        secrets: dict[str, JSON] = {}
        for i, seat in enumerate(seats):
            names: list[JSON] = list(sorted_names(chosen[i * frogs : (i + 1) * frogs]))
            secrets[seat] = {"frogs": names}
        return None, secrets

    def check_setup(
        self, options: Options, seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON],
    ) -> None:
        board = Board(int(options["size"]))
        count = int(options["frogs"])
        taken: dict[Square, str] = {}
        for seat in seats:
            secret = secrets.get(seat)
            frogs = secret.get("frogs") if isinstance(secret, dict) else None
            if not isinstance(frogs, list) or len(frogs) != count:
                raise NotationError(f"setup: {seat} needs a list 'frogs' of "
                                    f"{counted(count, 'square')}")
            for name in frogs:
                square = board.parse(str(name))
                if square in taken:
                    raise NotationError(
                        f"setup: {square.name} holds frogs of both {taken[square]} and {seat}"
                    )
                taken[square] = seat

    def secret_bound(self, options: Options) -> int:
        return 16 + 6 * int(options["frogs"])

    def start(
        self, options: Options, seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON | None],
    ) -> State:
        board = Board(int(options["size"]))
        hidden: dict[str, frozenset[Square] | None] = {}
        for seat in seats:
            secret = secrets.get(seat)
            hidden[seat] = (
                None if secret is None
                else frozenset(board.parse(n) for n in list_of(as_str, as_dict(secret)["frogs"]))
            )
        teams = self.team_map(options, seats)
        return State(
            board=board,
            frogs=int(options["frogs"]),
            seats=tuple(seats),
            teams=teams,
            hidden=hidden,
            revealed={},
            shots={},
            misses=frozenset(),
            points=dict.fromkeys(dict.fromkeys(teams[s] for s in seats), 0),
            turn=0,
            out_at={},
        )

    # --- play ---------------------------------------------------------------

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def parse_result(self, data: JSON) -> FrogResult:
        return parse_result(data)

    def to_move(self, state: State) -> str | None:
        return None if state.outcome else state.seats[state.turn]

    def scores(self, state: State) -> dict[str, int]:
        return dict(state.points)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def opponents(self, state: State, seat: str) -> tuple[str, ...]:
        return tuple(s for s in state.seats if state.teams[s] != state.teams[seat])

    def board_size(self, state: State) -> int:
        return state.board.size

    def squares_of(self, move: Move) -> tuple[Square, ...]:
        return () if isinstance(move, Resign) else (move.square,)

    def check_resign(self, state: State, seat: str) -> None:
        if state.is_out(state.teams[seat]):
            raise IllegalMoveError(f"{seat} is out of the game already")

    def check_move(self, state: State, seat: str, move: Move) -> None:
        assert not isinstance(move, Resign)  # the preamble handles resignations
        square = move.square
        if square in state.shots:
            raise IllegalMoveError(f"{square.name} is not open: it was shot already")
        if square in state.revealed:
            raise IllegalMoveError(f"{square.name} is not open: it holds a revealed frog")
        for mate in state.members(state.teams[seat]):
            frogs = state.hidden.get(mate)
            if frogs is not None and square in frogs:
                whose = "your own frog" if mate == seat else f"your teammate {mate}'s frog"
                raise IllegalMoveError(f"{square.name} is not open: it holds {whose}")

    def apply(
        self, state: State, seat: str, move: Move, claimed: FrogResult | None
    ) -> tuple[State, FrogResult]:
        if isinstance(move, Resign):
            if claimed is not None and not isinstance(claimed, FrogsResigned):
                raise InconsistentResultError(f"resign: result {claimed!r} is not a resignation")
            return self._resign(state, seat, claimed)
        owner = self._owner(state, seat, move.square)
        expected, bounds = (None, None) if owner is _UNKNOWN else \
            self._compute(state, move, owner)
        if claimed is None:
            if expected is None:
                raise InconsistentResultError(
                    f"cannot judge {move} without every seat's frogs"
                )
            result = expected
        elif expected is not None:
            if claimed != expected:
                raise InconsistentResultError(
                    f"{move}: result {claimed.to_json()!r} contradicts the known frogs "
                    f"({expected.to_json()!r})"
                )
            result = expected
        else:
            result = self._check_claim(state, seat, move, claimed, bounds)
        return self._advance(state, seat, move, result), result

    def pass_turn(self, state: State, seat: str) -> State:
        """A turn gone by (a passed deadline): the next seat still in moves."""
        return self._after_move(replace(state, ply=state.ply + 1), None)

    # --- internals ----------------------------------------------------------

    def _owner(self, state: State, seat: str, square: Square) -> str | None | object:
        """The opponent whose hidden frog is on ``square``, ``None``, or ``_UNKNOWN``."""
        unknown = False
        for other in self.opponents(state, seat):
            frogs = state.hidden[other]
            if frogs is None:
                unknown = unknown or state.hidden_count(other) > 0
            elif square in frogs:
                return other
        return _UNKNOWN if unknown else None

    def _count_bounds(self, state: State, square: Square) -> tuple[int, int]:
        """Least and most frogs that can be around ``square``, from what is known."""
        known = 0
        candidates = 0
        known_squares: set[Square] = set()
        for frogs in state.hidden.values():
            if frogs is not None:
                known_squares |= frogs
        for near in state.board.neighbours(square):
            if near in state.revealed or near in known_squares:
                known += 1
            elif near not in state.shots and near not in state.misses:
                candidates += 1
        unknown_hidden = sum(
            state.hidden_count(s) for s, frogs in state.hidden.items() if frogs is None
        )
        return known, known + min(candidates, unknown_hidden)

    def _compute(self, state: State, move: Shoot | Guess, owner: object
                 ) -> tuple[FrogResult | None, tuple[int, int] | None]:
        """The result when the known frogs decide it, else ``None``; and the bounds of a
        shot's number where they were counted (for checking a claimed number)."""
        if isinstance(move, Shoot):
            if isinstance(owner, str):
                return Shot(owner), None
            low, high = bounds = self._count_bounds(state, move.square)
            return (Count(low) if low == high else None), bounds
        return (Found(owner) if isinstance(owner, str) else Miss()), None

    def _check_claim(self, state: State, seat: str, move: Shoot | Guess,
                     claimed: FrogResult, bounds: tuple[int, int] | None = None) -> FrogResult:
        """Check a result the known frogs do not decide against what they allow (``bounds``:
        the shot's bounds on the number, if counted already)."""
        square = move.square
        hit = Shot if isinstance(move, Shoot) else Found
        if isinstance(claimed, hit):
            owner = claimed.owner
            if owner not in self.opponents(state, seat) or state.hidden_count(owner) == 0:
                raise InconsistentResultError(
                    f"{move}: {owner!r} has no hidden frog that could be on {square.name}"
                )
            frogs = state.hidden[owner]
            if frogs is not None and square not in frogs:
                raise InconsistentResultError(f"{move}: {owner} has no frog on {square.name}")
            return claimed
        if isinstance(move, Shoot) and isinstance(claimed, Count):
            low, high = bounds or self._count_bounds(state, square)
            if not low <= claimed.count <= high:
                raise InconsistentResultError(
                    f"{move}: number {claimed.count} is impossible here (must be {low}..{high})"
                )
            return claimed
        if isinstance(move, Guess) and isinstance(claimed, Miss):
            return claimed
        raise InconsistentResultError(f"{move}: result {claimed.to_json()!r} is not one of "
                                      "this move's")

    def _advance(self, state: State, seat: str, move: Shoot | Guess,
                 result: FrogResult) -> State:
        square = move.square
        team = state.teams[seat]
        # A number or a wrong guess reveals no frog: nobody goes out and the game goes on
        # (it was not over), so only the turn passes, to the seat it would pass to anyway.
        # Only what changes is copied, in one step.
        if isinstance(result, Count):
            return _followed(state, replace(state, shots={**state.shots, square: result.count},
                                            ply=state.ply + 1, turn=self._next_turn(state)),
                             shot=square)
        if isinstance(result, Miss):
            points = {**state.points, team: state.points[team] - MISS_PENALTY}
            return _followed(state, replace(state, misses=state.misses | {square},
                                            ply=state.ply + 1, points=points,
                                            turn=self._next_turn(state)), miss=square)
        if isinstance(result, Shot | Found):
            owner = result.owner
            points = dict(state.points)
            revealed = {**state.revealed,
                        square: Revealed(owner, "shot" if isinstance(result, Shot) else "found")}
            hidden = dict(state.hidden)
            frogs = hidden[owner]
            if frogs is not None:
                hidden[owner] = frogs - {square}
            if isinstance(result, Shot):
                points[team] -= SHOT_PENALTY
                points[state.teams[owner]] += SHOT_PENALTY
            else:
                points[team] += GUESS_GAIN
            state = replace(state, revealed=revealed, hidden=hidden, points=points,
                            ply=state.ply + 1)
        else:
            state = replace(state, ply=state.ply + 1)
        return self._after_move(state, None)

    def _after_move(self, state: State, resigner: str | None) -> State:
        """Mark teams that went out, then end the game or pass the turn."""
        out_at = dict(state.out_at or {})
        for team in state.team_names():
            if team not in out_at and team not in state.resigned and all(
                state.hidden_count(s) == 0 for s in state.members(team)
            ):
                out_at[team] = state.ply
        if out_at != state.out_at:
            state = replace(state, out_at=out_at)
        standing = [t for t in state.team_names() if not state.is_out(t)]
        if len(standing) <= 1:
            return self._end(state, standing, resigner)
        return replace(state, turn=self._next_turn(state))

    @staticmethod
    def _next_turn(state: State) -> int:
        """The next seat after the one to move that still takes turns."""
        for step in range(1, len(state.seats) + 1):
            index = (state.turn + step) % len(state.seats)
            if state.active(state.seats[index]):
                return index
        return state.turn  # unreachable: a standing team has a seat with a hidden frog

    def _end(self, state: State, standing: list[str], resigner: str | None) -> State:
        points = dict(state.points)
        how, subject = Termination.ALL_OUT, None
        if resigner is not None:
            how, subject = Termination.RESIGNED, resigner
        elif len(state.team_names()) == 2:
            loser = next(t for t in state.team_names() if t not in standing)
            how, subject = Termination.ALL_REVEALED, loser
        elif standing:
            how, subject = Termination.LAST_STANDING, standing[0]
        if resigner is None or self.resign_bonus:
            for team in standing:
                hidden = sum(state.hidden_count(s) for s in state.members(team))
                points[team] += LAST_STANDING_BONUS + hidden
        playing = {t: p for t, p in points.items() if t not in state.resigned}
        if self.ties_are_draws:
            places = list(rank_by_points(playing))
        else:
            longest = len(state.seats) * state.board.size**2 + 1
            out_at = state.out_at or {}
            places = list(rank_by_points(playing, {t: out_at.get(t, longest) for t in playing}))
        for team in reversed(state.resigned):  # a later resignation ranks higher
            places.append(Place(len(places) + 1, team, points[team]))
        return replace(state, points=points, outcome=Outcome.ended(how, places, subject))

    def _resign(self, state: State, seat: str,
                claimed: FrogsResigned | None) -> tuple[State, FrogResult]:
        team = state.teams[seat]
        members = [s for s in state.members(team) if state.hidden_count(s) > 0]
        result = FrogsResigned()
        revealed = dict(state.revealed)
        hidden = dict(state.hidden)
        if self.resign_reveals:
            frogs = self._resigned_frogs(state, members, claimed)
            result = FrogsResigned(frogs)
            for member, names in frogs.items():
                for name in names:
                    revealed[state.board.parse(name)] = Revealed(member, "resigned")
                hidden[member] = frozenset()
        elif claimed is not None and claimed != result:
            raise InconsistentResultError(f"resign: result {claimed.to_json()!r} should be "
                                          f"{result.to_json()!r}")
        state = replace(state, revealed=revealed, hidden=hidden, ply=state.ply + 1,
                        resigned=(*state.resigned, team))
        if state.teams[state.seats[state.turn]] != team:
            # Another team was to move: it keeps the turn (the search starts after turn).
            state = replace(state, turn=(state.turn - 1) % len(state.seats))
        return self._after_move(state, seat), result

    def _resigned_frogs(
        self, state: State, members: list[str], claimed: FrogsResigned | None
    ) -> dict[str, tuple[str, ...]]:
        """The resigning seats' hidden frogs: known, or taken from the claim and checked."""
        frogs: dict[str, tuple[str, ...]] = {}
        for member in members:
            known = state.hidden[member]
            if known is not None:
                frogs[member] = tuple(sorted_names(known))
                continue
            if claimed is None or member not in claimed.frogs:
                raise InconsistentResultError(f"resign: {member}'s hidden frogs are not given")
            names = claimed.frogs[member]
            squares = {state.board.parse(n) for n in names}
            if len(squares) != state.hidden_count(member) or any(
                sq in state.shots or sq in state.revealed or sq in state.misses for sq in squares
            ):
                raise InconsistentResultError(f"resign: {member}'s frogs {list(names)!r} are "
                                              "impossible")
            frogs[member] = tuple(sorted_names(frozenset(squares)))
        if claimed is not None and dict(claimed.frogs) != frogs:
            raise InconsistentResultError(f"resign: frogs {dict(claimed.frogs)!r} should be "
                                          f"{frogs!r}")
        return frogs

    # --- presentation -------------------------------------------------------

    def view(self, state: State, viewers: frozenset[str]) -> FrogsView:
        own = {
            seat: tuple(sorted_names(frogs))
            for seat in state.seats
            if seat in viewers and (frogs := state.hidden[seat]) is not None
        }
        shots, misses = state.listed
        return FrogsView(
            rules=self.name,
            size=state.board.size,
            frogs=state.frogs,
            seats=state.seats,
            teams=state.teams,
            to_move=self.to_move(state),
            points=state.points,
            out=tuple(sorted((state.out_at or {}).keys() | set(state.resigned))),
            hidden_left={s: state.hidden_count(s) for s in state.seats},
            shots=shots,
            revealed={sq.name: r for sq, r in sorted(state.revealed.items(), key=_by_square)},
            misses=misses,
            own_frogs=own,
            outcome=state.outcome,
        )

    def read_view(self, data: JSON) -> FrogsView:
        return FrogsView.from_json(data)

    def render(self, view: FrogsView, you: frozenset[str] = frozenset(),
               paint: Paint | None = None) -> str:
        return render(view, paint)

    def describe(self, seat: str, move: str, result: FrogResult) -> str:
        return describe(seat, move, result)

    def comment(self, result: FrogResult) -> str:
        return comment(result)


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


_UNKNOWN = _Unknown()


def _by_square(item: tuple[Square, object]) -> tuple[int, int]:
    """Sort key of a (square, value) pair: the square's own order."""
    return SQUARE_ORDER(item[0])


def sorted_names(squares: Sequence[Square] | frozenset[Square]) -> list[str]:
    return [square.name for square in sorted(squares, key=SQUARE_ORDER)]
