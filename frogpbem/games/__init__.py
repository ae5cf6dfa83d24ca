"""The rulesets, behind one interface, registered in one table.

A ruleset is pure: it knows nothing of files, keys or email. Its state is an
immutable value; :meth:`Ruleset.play` returns a new state and the public
result of a move.

A state may be *partial*: the hidden pieces of some seats unknown (``None``).
That is what a player has (their own pieces, and the public results recorded
by the referee), and the same ``play`` then checks each claimed result
against what it does know. With every secret known it computes the result
itself and a claimed result must be exactly that one. Referee, player and
auditor therefore share one code path.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, Self, TypeAlias, TypeVar, cast

from frogpbem.board import MAX_SIZE, Square
from frogpbem.errors import (
    FrogPbemError,
    GameFileError,
    GameOverError,
    IllegalMoveError,
    NotYourTurnError,
    UsageError,
)
from frogpbem.frozen import frozen
from frogpbem.games import clock
from frogpbem.jsonvalue import JSON as JSON
from frogpbem.jsonvalue import as_dict, as_int, as_list, as_str
from frogpbem.jsonvalue import same_json as same_json
from frogpbem.safetext import quoted

if TYPE_CHECKING:
    import random

Options = Mapping[str, int | str]
"""A game's options by name, complete and checked (:meth:`Ruleset.options`)."""

STRENGTHS = ("random", "greedy", "strong", "expert")
"""The bots' strengths, weakest first."""

Paint = Callable[[str, str], str]
"""Dresses a square's text on a text board: (square name, text) to text (colour codes)."""

@frozen
class Place:
    """One line of the final standing."""

    rank: int
    """1 for the winner; equal ranks are ties."""
    seat: str
    """The seat (or, in team games, the team's name)."""
    points: int
    """Points at the end, bonuses included."""

    def to_json(self) -> JSON:
        return {"rank": self.rank, "seat": self.seat, "points": self.points}


class Termination(Enum):
    """Why a game ended, as python-chess's ``Termination``; each value is the words a file
    holds, with ``{}`` for the seat, team or number they name (:attr:`Outcome.subject`)."""

    RESIGNED = "{} resigned"
    """A seat (its team) resigned."""
    LOST_ON_TIME = "{} lost on time"
    """A seat let its deadline pass, and the referee recorded its resignation (the rules'
    outcome says ``RESIGNED``; the words players read, this)."""
    ALL_REVEALED = "all {} frogs revealed"
    """Frog finding, two teams: every frog of one is revealed."""
    LAST_STANDING = "{} is the last standing"
    """Frog finding, more teams: one team has frogs hidden, every other is out."""
    ALL_OUT = "all out"
    """Frog finding: no team has a frog hidden."""
    NO_JUMP_LEFT = "no jump is left"
    """Froglet: no frog can jump."""
    LEAD = "a lead of more than {}"
    """Secret Move: one score leads by more than the margin."""
    ONLY_ONE_GUESSED = "only {} guessed all nine values"
    """Secret Move: one seat guessed the other's values."""
    BOTH_RIGHT_EQUAL = "both guessed right; equal scores"
    BOTH_RIGHT_HIGHER = "both guessed right; the higher score wins"
    NEITHER_RIGHT_EQUAL = "neither guessed right; equal scores"
    NEITHER_RIGHT_HIGHER = "neither guessed right; the higher score wins"
    OTHER = ""
    """Words of a ruleset that names none of these (a registered game's)."""

    def words(self, subject: str | None = None) -> str:
        """The termination in words: ``red resigned``."""
        return self.value.replace("{}", subject or "")

    @classmethod
    def parse(cls, words: str) -> tuple[Termination, str | None]:
        """The termination and its subject that ``words`` say (:attr:`OTHER` for others)."""
        for member in cls:
            if member is cls.OTHER:
                continue
            head, brace, tail = member.value.partition("{}")
            if not brace:
                if words == head:
                    return member, None
            elif len(words) > len(head) + len(tail) and words.startswith(head) \
                    and words.endswith(tail):
                return member, words[len(head):len(words) - len(tail)]
        return cls.OTHER, None


@frozen
class Outcome:
    """How a finished game ended."""

    termination: str
    """Why it ended, in words (``all blue frogs revealed``, ``red resigned``)."""
    standing: tuple[Place, ...]
    """Every seat, best first."""

    @classmethod
    def ended(cls, how: Termination, standing: Sequence[Place],
              subject: str | None = None) -> Outcome:
        """The outcome ``how`` the game ended (about ``subject``), in its words."""
        return cls(how.words(subject), tuple(standing))

    @property
    def how(self) -> Termination:
        """Why it ended, typed (read from the words, which say it)."""
        return Termination.parse(self.termination)[0]

    @property
    def subject(self) -> str | None:
        """The seat, team or number :attr:`how` names (``red`` of ``red resigned``)."""
        return Termination.parse(self.termination)[1]

    def to_json(self) -> JSON:
        return {
            "termination": self.termination,
            "standing": [place.to_json() for place in self.standing],
        }

    @property
    def is_draw(self) -> bool:
        return len({place.rank for place in self.standing}) == 1

    def standing_text(self, label: Callable[[str], str] = str) -> str:
        """``1. red 12, 2. blue 4``: the one way a standing is written."""
        return ", ".join(f"{p.rank}. {label(p.seat)} {p.points}" for p in self.standing)

    @classmethod
    def from_json(cls, data: JSON) -> Outcome:
        """An outcome as a reveal holds it (checked by the schema)."""
        fields = as_dict(data)
        return cls(as_str(fields["termination"]), tuple(
            Place(as_int(place["rank"]), as_str(place["seat"]), as_int(place["points"]))
            for place in map(as_dict, as_list(fields["standing"]))))


def read_shape(what: str, read: Callable[[], T]) -> T:
    """``read()`` of a JSON value of a known shape (with :func:`~frogpbem.jsonvalue.as_dict`,
    indexing...), its TypeError, KeyError or ValueError for another shape said as a
    :class:`GameFileError` about ``what``: the one place a mailed value's shape fails."""
    try:
        return read()
    except (TypeError, KeyError, ValueError) as error:
        raise GameFileError(f"not {what} as frogpbem writes it ({type(error).__name__})") \
            from None


def check_view(what: str, sound: bool) -> None:
    """Raises :class:`GameFileError` (``what`` is not as frogpbem writes it) unless
    ``sound``: a view read from a mailed file is checked before anything draws it."""
    if not sound:
        raise GameFileError(f"{what} is not as frogpbem writes it")


def check_squares(what: str, size: int, names: Iterable[str]) -> None:
    """Raises :class:`GameFileError` unless ``size`` is a board's and each of ``names`` a
    square on it, named as frogpbem names it (``G9``)."""
    check_view(what, 1 <= size <= MAX_SIZE)
    for name in names:
        try:
            square = Square.parse(name)
        except FrogPbemError:
            square = None
        check_view(what, square is not None and square.name == name
                   and square.col < size and square.row < size)


def rank_by_points(points: Mapping[str, int], tiebreak: Mapping[str, int] | None = None) -> tuple[
    Place, ...
]:
    """Places ordered by points (then by ``tiebreak``, higher first); equal keys share a rank."""
    tiebreak = tiebreak or {}

    def key(seat: str) -> tuple[int, int]:
        return (points[seat], tiebreak.get(seat, 0))

    order = sorted(points, key=key, reverse=True)
    places: list[Place] = []
    for index, seat in enumerate(order):
        tied = index and key(order[index - 1]) == key(seat)
        rank = places[-1].rank if tied else index + 1
        places.append(Place(rank, seat, points[seat]))
    return tuple(places)


@frozen
class OptionSpec:
    """One option of a ruleset, as ``--option NAME=VALUE`` gives it."""

    name: str
    """``size``."""
    default: int | str
    """The value when it is not given (``""``: none)."""
    values: str
    """The values it takes, in short (``3..26``, ``N``, ``red+black,blue+purple``)."""
    about: str
    """What it sets, in a few words (``the side of the board``)."""

    @property
    def help(self) -> str:
        """``size=3..26 (12)``: the option, its values and its default."""
        return f"{self.name}={self.values} ({self.default if self.default != '' else 'none'})"


class Result(Protocol):
    """A move's public result, as a ruleset types it (``Count(2)``, ``Captured(...)``)."""

    def to_json(self) -> JSON:
        """The result as the record holds it."""
        ...


@frozen
class Resign:
    """Give up the game (every ruleset has it; allowed whenever it arrives)."""

    def __str__(self) -> str:
        return "resign"

    def __repr__(self) -> str:
        return "Resign()"


@frozen
class Resigned:
    """The result of a resignation that reveals nothing."""

    def to_json(self) -> JSON:
        return {"resigned": True}


class GameView(Protocol):
    """What one holder (a seat, its team, the public) may know of a position, typed.

    Each ruleset has its own frozen view class; ``to_json`` gives the view as the view
    file and ``--json`` hold it, and the ruleset's ``read_view`` reads it back.
    """

    @property
    def rules(self) -> str:
        """The ruleset's name (``frogfinder``)."""
        ...

    @property
    def to_move(self) -> str | None:
        """The seat to move, or ``None`` once the game is over."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        ...

    def to_json(self) -> dict[str, JSON]:
        """The view as the view file holds it."""
        ...

    def retold(self, termination: str) -> Self:
        """This view with its outcome's termination told in other words (a loss on time)."""
        ...


VC = TypeVar("VC", bound=GameView, contravariant=True)


class HasSeats(Protocol):
    """What the shared preamble needs of a state: its seats."""

    @property
    def seats(self) -> tuple[str, ...]: ...


class Hints(Protocol[VC]):
    """A ruleset's hints: what a seat can work out from its own view alone (odds, best
    moves), as data, in words and, where it has one, as a heat map."""

    def hint(self, view: VC, seat: str) -> JSON:
        """What ``seat`` can work out from its ``view``, as data (``hint --json``)."""
        ...

    def heat(self, hint: JSON) -> dict[str, float] | None:
        """A hint as a chance per square, for a heat map; ``None`` if it has none."""
        ...

    def labels(self, hint: JSON) -> dict[str, str]:
        """Words for the squares of :meth:`heat` (empty: the percent)."""
        ...

    def text(self, view: VC, hint: JSON) -> str:
        """A hint in words (and a board, where it has one)."""
        ...


class Bot(Protocol[VC]):
    """A ruleset's bot: a move from a seat's view alone."""

    def move(self, view: VC, seat: str, rng: random.Random, strength: str = "greedy") -> str:
        """A move for ``seat`` at ``strength`` (one of :data:`STRENGTHS`), in notation."""
        ...


S = TypeVar("S", bound=HasSeats)
M = TypeVar("M")
R = TypeVar("R", bound=Result)
V = TypeVar("V", bound=GameView)
T = TypeVar("T")


class Ruleset(ABC, Generic[S, M, R, V]):
    """One game's rules. Subclasses are registered with :func:`register`.

    A ruleset overrides a few hooks: :meth:`parse_move` (its notation),
    :meth:`check_move` (what only its rules forbid), :meth:`apply` (the
    move's effect), :meth:`parse_result`, :meth:`view` and :meth:`render`; the
    base class runs what every game shares: a seat of the game, a game not
    over, a resignation at any time, the seat's turn, squares on the board.
    Hints and a bot are optional capabilities (:attr:`hints`, :attr:`bot`); a
    picture of its own is the pictures' business (found by the view's class).
    """

    name: ClassVar[str]
    """The name used in game files and on the command line (``frogfinder``)."""
    title: ClassVar[str]
    """The game's name for people (``Frog Finder``)."""
    seat_order: ClassVar[tuple[str, ...]]
    """Every seat the game can have, in turn order."""
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    """The options: name, default and help words (``--help`` and the checks read them)."""
    id_prefix: ClassVar[str] = "g"
    """Start of generated game ids (``ff-7q3kx2``)."""
    players_choose: ClassVar[bool] = False
    """Whether each seat chooses its own secret (``frogpbem setup``) instead of a deal."""
    hints: Hints[V] | None = None
    """Its hints (``frogpbem hint``), if it gives any."""
    bot: Bot[V] | None = None
    """Its bot (demo, simulate, play), if it has one."""

    @property
    def option_defaults(self) -> dict[str, int | str]:
        """The options and their default values."""
        return {spec.name: spec.default for spec in self.option_specs}

    @property
    def option_help(self) -> str:
        """The options in words, for ``--help``: ``size=3..26 (12), frogs=N (5)``."""
        return ", ".join(spec.help for spec in self.option_specs) or "none"

    # --- set-up -------------------------------------------------------------

    def options(self, given: Mapping[str, str | int]) -> dict[str, int | str]:
        """The complete, validated options; raises :class:`UsageError`."""
        unknown = sorted(set(given) - set(self.option_defaults))
        if unknown:
            known = ", ".join(self.option_defaults) or "none"
            raise UsageError(f"unknown option {quoted(unknown[0])} for {self.name} "
                             f"(known: {known})")
        return {**self.option_defaults, **given}

    def seats(self, options: Options, count: int) -> tuple[str, ...]:
        """The seats of a game with ``count`` players."""
        if count != len(self.seat_order):
            raise UsageError(
                f"{self.name} is played by {len(self.seat_order)} seats "
                f"({', '.join(self.seat_order)}), got {count}"
            )
        return self.seat_order

    @abstractmethod
    def deal(
        self, options: Options, seats: Sequence[str], rng: Chance
    ) -> tuple[JSON, dict[str, JSON]]:
        """Random set-up: public set-up data and each seat's secret."""

    @abstractmethod
    def check_setup(
        self, options: Options, seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON],
    ) -> None:
        """Check a chosen set-up; raises :class:`NotationError` naming what is wrong."""

    def secret_bound(self, options: Options) -> int:
        """An upper bound on the canonical JSON length of one seat's secret."""
        return 0

    def secret_readers(self, options: Options, seat: str) -> tuple[str, ...]:
        """The seats that may read ``seat``'s secret (itself, and teammates)."""
        return (seat,)

    def team_names(self, options: Options) -> str:
        """The teams in words (``red+black, blue+purple``), or ``""`` without teams."""
        return ""

    def parse_secret(self, text: str) -> JSON:
        """A seat's own secret, written by the player; raises :class:`NotationError`."""
        raise UsageError(f"in {self.name} the seats do not choose their setup")

    @abstractmethod
    def start(
        self, options: Options, seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON | None],
    ) -> S:
        """The initial state; a secret of ``None`` is unknown to this observer."""

    # --- notation -----------------------------------------------------------

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Context-free syntax; raises :class:`NotationError`."""

    def format_move(self, move: M) -> str:
        """The canonical notation of ``move``."""
        return str(move)

    def public_move(self, move: M) -> str:
        """What the record shows of a move: its notation, or less for a sealed move."""
        return self.format_move(move)

    def is_sealed(self, move: M) -> bool:
        """Whether ``move`` is kept sealed (to its seat and the referee) until the end."""
        return False

    @abstractmethod
    def parse_result(self, data: JSON) -> R:
        """A recorded result as this ruleset's type; raises :class:`NotationError`."""

    # --- play ---------------------------------------------------------------

    def check(self, state: S, seat: str, move: M) -> None:
        """What can be checked without hidden pieces of others: turn, square open...

        Raises :class:`IllegalMoveError` (or a subclass) with the reason.
        """
        if seat not in state.seats:
            raise IllegalMoveError(f"{seat!r} is not a seat of this game")
        if self.to_move(state) is None:
            outcome = self.outcome(state)
            raise GameOverError("the game is over"
                                + (f" ({outcome.termination})" if outcome else ""))
        if isinstance(move, Resign):
            self.check_resign(state, seat)
            return
        if not self.may_move(state, seat):
            raise NotYourTurnError(f"it is {self.to_move(state)}'s turn, not {seat}'s")
        self.check_on_board(state, move)
        self.check_move(state, seat, move)

    def check_on_board(self, state: S, move: M) -> None:
        """Every square ``move`` names is on the board; raises :class:`IllegalMoveError`."""
        size = self.board_size(state)
        for square in self.squares_of(move):
            if not (0 <= square.col < size and 0 <= square.row < size):
                last = Square(size - 1, size - 1).name
                raise IllegalMoveError(f"square {square.name} is off the board (A1..{last})")

    def check_resign(self, state: S, seat: str) -> None:
        """Whether ``seat`` may resign now (any seat still in may, at any time)."""

    def may_move(self, state: S, seat: str) -> bool:
        """Whether it is ``seat``'s turn."""
        return self.to_move(state) == seat

    def board_size(self, state: S) -> int:
        """The side of the square board (for the off-board check)."""
        return MAX_SIZE

    def squares_of(self, move: M) -> tuple[Square, ...]:
        """The squares ``move`` names."""
        return ()

    def check_move(self, state: S, seat: str, move: M) -> None:
        """What this ruleset forbids beyond the shared preamble."""

    def play(self, state: S, seat: str, move: M, claimed: R | None = None) -> tuple[S, R]:
        """Apply ``move`` by ``seat``; return the new state and the public result.

        With ``claimed``, check it against what the state knows (raising
        :class:`InconsistentResultError`) and use it where the state cannot
        compute the result itself.
        """
        self.check(state, seat, move)
        return self.apply(state, seat, move, claimed)

    @abstractmethod
    def apply(self, state: S, seat: str, move: M, claimed: R | None) -> tuple[S, R]:
        """The effect of a checked move (see :meth:`play`)."""

    def automatic(self, state: S) -> M | None:
        """A move the referee records by itself (e.g. a forced pass), or ``None``."""
        return None

    def pass_turn(self, state: S, seat: str) -> S:
        """The state after ``seat``, to move, let its turn go by (its deadline passed).

        Raises :class:`IllegalMoveError` where the rules leave no turn to pass
        (there a passed deadline forfeits instead).
        """
        raise IllegalMoveError(f"{self.title} has no turn to pass here")

    @abstractmethod
    def to_move(self, state: S) -> str | None:
        """The seat to move, or ``None`` once the game is over."""

    @abstractmethod
    def scores(self, state: S) -> dict[str, int]:
        """Every seat's points now."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    # --- presentation -------------------------------------------------------

    @abstractmethod
    def view(self, state: S, viewers: frozenset[str]) -> V:
        """What ``viewers`` (a seat, its team; empty for the public) may know."""

    @abstractmethod
    def read_view(self, data: JSON) -> V:
        """A view as :meth:`GameView.to_json` wrote it (a mailed view file's board).

        Raises :class:`GameFileError` for another shape, or one that :meth:`render` and
        the pictures cannot draw: a view it returns can always be drawn.
        """

    @abstractmethod
    def render(self, view: V, you: frozenset[str] = frozenset(),
               paint: Paint | None = None) -> str:
        """A view as a text board with coordinates and legend (``you``: whose it is).

        ``paint`` may dress each square's text (by square name) for a terminal.
        """

    @abstractmethod
    def describe(self, seat: str, move: str, result: R) -> str:
        """A record in words: ``red shoots G9: 2``."""

    def comment(self, result: R) -> str:
        """A result as the record's comment: ``2``, ``-3``, ``found +5``."""
        return ""

    def describe_record(self, seat: str, move: str,
                        result: R | clock.ClockResult | clock.TimedOut) -> str:
        """Any record in words: a move's (:meth:`describe`) or the referee's clock record."""
        if isinstance(result, clock.ClockResult | clock.TimedOut):
            return clock.describe(seat, result)
        return self.describe(seat, move, result)

    def comment_record(self, result: R | clock.ClockResult | clock.TimedOut) -> str:
        """Any record's comment: a move's (:meth:`comment`) or the clock record's."""
        if isinstance(result, clock.TimedOut):
            # the ruleset's own result of the resignation, as its parse_result made it
            return clock.comment(result, self.comment(cast(R, result.resigned)))
        if isinstance(result, clock.ClockResult):
            return clock.comment(result)
        return self.comment(result)

    def parse_record_result(self, data: JSON) -> R | clock.ClockResult:
        """A recorded result: a clock record's, else this ruleset's (:meth:`parse_result`)."""
        return clock.parse_clock(data) or self.parse_result(data)


def bot_move(ruleset: Ruleset[S, M, R, V], view: V, seat: str, rng: random.Random,
             strength: str = "greedy") -> str:
    """The move of ``ruleset``'s bot (:attr:`Ruleset.bot`) from a seat's view, at
    ``strength``; ``resign`` for a ruleset without a bot."""
    bot = ruleset.bot
    return "resign" if bot is None else bot.move(view, seat, rng, strength)


RULESETS: Mapping[str, tuple[str, str]] = {
    "frogfinder": ("frogpbem.games.frogfinder", "FrogFinder"),
    "coan": ("frogpbem.games.coan", "Coan"),
    "froglet": ("frogpbem.games.froglet", "Froglet"),
    "secretmove": ("frogpbem.games.secretmove", "SecretMove"),
}
"""The rulesets that come with frogpbem, in the order they are listed: name, module and
class (a module is imported when its game is first asked for, so that a command loads only
the game its file names)."""

SomeRuleset: TypeAlias = "Ruleset[HasSeats, object, Result, GameView]"
"""A ruleset of the registry, its types forgotten (a state has seats, a result its JSON, a
view its protocol): what a caller that serves every game holds."""

_REGISTERED: dict[str, SomeRuleset] = {}
"""Rulesets added by :func:`register` (a game not in :data:`RULESETS`)."""


def register(ruleset: Ruleset[S, M, R, V]) -> Ruleset[S, M, R, V]:
    """Add a ruleset to the registry: every command, picture and list of games finds it.

    A name of :data:`RULESETS` is refused: the rules that check every file of a game that
    comes with frogpbem are never replaced. A name registered before is registered anew.
    """
    if ruleset.name in RULESETS:
        raise UsageError(f"the rules {quoted(ruleset.name)} come with frogpbem: give the "
                         "new ruleset a name of its own")
    _REGISTERED[ruleset.name] = _forget(ruleset)
    return ruleset


def _forget(ruleset: Ruleset[S, M, R, V]) -> SomeRuleset:
    """``ruleset`` as the registry holds it: each of its states, results and views is a
    :class:`HasSeats`, :class:`Result` and :class:`GameView`, and the registry hands it
    only what it made itself (its own states, moves and results)."""
    return cast(SomeRuleset, ruleset)


@cache
def _built_in(name: str) -> SomeRuleset:
    """The ruleset of :data:`RULESETS` called ``name``, its module imported now."""
    import importlib

    module, cls = RULESETS[name]
    made: object = getattr(importlib.import_module(module), cls)()
    if not isinstance(made, Ruleset):
        raise TypeError(f"{module}.{cls} is not a ruleset")
    return _forget(made)


def find_game(name: str) -> SomeRuleset:
    """The ruleset called ``name``; fails with the list of known names."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in RULESETS:
        return _built_in(name)
    known = ", ".join(known_games())
    raise UsageError(f"unknown rules {quoted(name)} (known: {known})")


def known_games() -> tuple[str, ...]:
    """Every ruleset's name, in alphabetical order."""
    return tuple(sorted(set(RULESETS) | set(_REGISTERED)))


def listed_games() -> tuple[str, ...]:
    """Every ruleset's name in the order they are listed to people (``--help``): those that
    come with frogpbem, then those registered."""
    return (*RULESETS, *(name for name in _REGISTERED if name not in RULESETS))


class Chance(Protocol):
    """A source of uniform choices: ``random.Random`` has it, and so does the fair dealer."""

    def randrange(self, stop: int, /) -> int:
        """A uniform integer in ``0 .. stop - 1``."""
        ...


def shuffle(chance: Chance, items: list[T]) -> None:
    """Fisher-Yates, in place, drawing only ``randrange``: the same on every Python."""
    for index in range(len(items) - 1, 0, -1):
        other = chance.randrange(index + 1)
        items[index], items[other] = items[other], items[index]


def sample(chance: Chance, items: Sequence[T], count: int) -> list[T]:
    """``count`` distinct items, uniformly: the first ``count`` of a partial Fisher-Yates."""
    pool = list(items)
    for index in range(count):
        other = index + chance.randrange(len(pool) - index)
        pool[index], pool[other] = pool[other], pool[index]
    return pool[:count]


_WHOLE_NUMBER = re.compile(r"\s*[-+]?[0-9]{1,18}\s*")
"""An option's digits, as given on the command line (``--option size=8``)."""


def parse_int_option(name: str, value: object, low: int, high: int) -> int:
    """An integer option within ``low..high``: an integer, or its digits as given on the
    command line; raises :class:`UsageError` for anything else (a game file's header may
    hold any value there: null, ``true``, a list)."""
    if type(value) is int:
        number = value
    elif isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value):
        number = int(value)
    else:
        shown = quoted(value) if isinstance(value, str) else repr(value)
        raise UsageError(f"option {name} must be a whole number, got {shown}")
    if not low <= number <= high:
        raise UsageError(f"option {name} must be {low}..{high}, got {number}")
    return number
