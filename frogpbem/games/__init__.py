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

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from frogpbem.errors import UsageError

if TYPE_CHECKING:
    import random

JSON = Any
"""A JSON-compatible value (dict, list, str, int, bool, None)."""

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    termination: str
    """Why it ended, in words (``all blue frogs revealed``, ``red resigned``)."""
    standing: tuple[Place, ...]
    """Every seat, best first."""

    def to_json(self) -> JSON:
        return {
            "termination": self.termination,
            "standing": [place.to_json() for place in self.standing],
        }

    @property
    def is_draw(self) -> bool:
        return len({place.rank for place in self.standing}) == 1


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


class Ruleset(ABC, Generic[S, M]):
    """One game's rules. Subclasses are registered with :func:`register`."""

    name: ClassVar[str]
    """The name used in game files and on the command line (``frogfinder``)."""
    title: ClassVar[str]
    """The game's name for people (``Frog Finder``)."""
    seat_order: ClassVar[tuple[str, ...]]
    """Every seat the game can have, in turn order."""
    option_defaults: ClassVar[Mapping[str, int | str]]
    """The options and their default values."""
    id_prefix: ClassVar[str] = "g"
    """Start of generated game ids (``ff-7q3kx2``)."""
    players_choose: ClassVar[bool] = False
    """Whether each seat chooses its own secret (``frogpbem setup``) instead of a deal."""
    sealed_moves: ClassVar[tuple[str, ...]] = ()
    """Kinds of move kept sealed (to the mover and the referee) until the end."""

    # --- set-up -------------------------------------------------------------

    @abstractmethod
    def options(self, given: Mapping[str, str | int]) -> dict[str, int | str]:
        """The complete, validated options; raises :class:`UsageError`."""

    def seats(self, options: Mapping[str, Any], count: int) -> tuple[str, ...]:
        """The seats of a game with ``count`` players."""
        if count != len(self.seat_order):
            raise UsageError(
                f"{self.name} is played by {len(self.seat_order)} seats "
                f"({', '.join(self.seat_order)}), got {count}"
            )
        return self.seat_order

    @abstractmethod
    def deal(
        self, options: Mapping[str, Any], seats: Sequence[str], rng: Chance
    ) -> tuple[JSON, dict[str, JSON]]:
        """Random set-up: public set-up data and each seat's secret."""

    @abstractmethod
    def check_setup(
        self, options: Mapping[str, Any], seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON],
    ) -> None:
        """Check a chosen set-up; raises :class:`NotationError` naming what is wrong."""

    @abstractmethod
    def secret_bound(self, options: Mapping[str, Any]) -> int:
        """An upper bound on the canonical JSON length of one seat's secret."""

    def secret_readers(self, options: Mapping[str, Any], seat: str) -> tuple[str, ...]:
        """The seats that may read ``seat``'s secret (itself, and teammates)."""
        return (seat,)

    @abstractmethod
    def start(
        self, options: Mapping[str, Any], seats: Sequence[str], public: JSON,
        secrets: Mapping[str, JSON | None],
    ) -> S:
        """The initial state; a secret of ``None`` is unknown to this observer."""

    # --- play ---------------------------------------------------------------

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Context-free syntax; raises :class:`NotationError`."""

    @abstractmethod
    def format_move(self, move: M) -> str:
        """The canonical notation of ``move``."""

    def public_move(self, move: M) -> str:
        """What the record shows of a move: its notation, or less for a sealed move."""
        return self.format_move(move)

    def is_sealed(self, text: str) -> bool:
        """Whether a move written ``text`` is kept sealed until the end."""
        return text.split(maxsplit=1)[0].lower() in self.sealed_moves if text.strip() else False

    def automatic(self, state: S) -> str | None:
        """A move the referee records by itself (e.g. a forced pass), or ``None``."""
        return None

    def parse_secret(self, text: str) -> JSON:
        """A seat's own secret, written by the player; raises :class:`NotationError`."""
        raise UsageError(f"in {self.name} the seats do not choose their setup")

    @abstractmethod
    def check(self, state: S, seat: str, move: M) -> None:
        """What can be checked without hidden pieces of others: turn, square open...

        Raises :class:`IllegalMoveError` (or a subclass) with the reason.
        """

    @abstractmethod
    def play(self, state: S, seat: str, move: M, claimed: JSON | None = None) -> tuple[S, JSON]:
        """Apply ``move`` by ``seat``; return the new state and the public result.

        With ``claimed``, check it against what the state knows (raising
        :class:`InconsistentResultError`) and use it where the state cannot
        compute the result itself.
        """

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
    def view(self, state: S, viewers: frozenset[str]) -> JSON:
        """What ``viewers`` (a seat, its team; empty for the public) may know."""

    @abstractmethod
    def render(self, view: JSON) -> str:
        """A view as a text board with coordinates and legend."""

    @abstractmethod
    def describe(self, seat: str, move: str, result: JSON) -> str:
        """A record in words: ``red shoots G9: 2``."""

    @abstractmethod
    def comment(self, result: JSON) -> str:
        """A result as the record's comment: ``2``, ``-3``, ``found +5``."""

    @abstractmethod
    def bot_move(self, view: JSON, seat: str, rng: random.Random) -> str:
        """A simple move for the demonstration bots, from a seat's view."""


_REGISTRY: dict[str, Ruleset[Any, Any]] = {}
_MODULES = {
    "frogfinder": ("frogpbem.games.frogfinder", "FrogFinder"),
    "coan": ("frogpbem.games.coan", "Coan"),
    "froglet": ("frogpbem.games.froglet", "Froglet"),
    "secretmove": ("frogpbem.games.secretmove", "SecretMove"),
}
"""The table of rulesets: name, module and class (imported when first asked for)."""


def register(ruleset: Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    """Add a ruleset to the table."""
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def find_game(name: str) -> Ruleset[Any, Any]:
    """The ruleset called ``name``; fails with the list of known names."""
    if name not in _REGISTRY and name in _MODULES:
        import importlib

        module, cls = _MODULES[name]
        register(getattr(importlib.import_module(module), cls)())
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(known_games())
        raise UsageError(f"unknown rules {name!r} (known: {known})") from None


def known_games() -> tuple[str, ...]:
    return tuple(sorted(set(_MODULES) | set(_REGISTRY)))


class Chance(Protocol):
    """A source of uniform choices: ``random.Random`` has it, and so does the fair dealer."""

    def randrange(self, stop: int, /) -> int:
        """A uniform integer in ``0 .. stop - 1``."""
        ...


def shuffle(chance: Chance, items: list[Any]) -> None:
    """Fisher-Yates, in place, drawing only ``randrange``: the same on every Python."""
    for index in range(len(items) - 1, 0, -1):
        other = chance.randrange(index + 1)
        items[index], items[other] = items[other], items[index]


def sample(chance: Chance, items: Sequence[Any], count: int) -> list[Any]:
    """``count`` distinct items, uniformly: the first ``count`` of a partial Fisher-Yates."""
    pool = list(items)
    for index in range(count):
        other = index + chance.randrange(len(pool) - index)
        pool[index], pool[other] = pool[other], pool[index]
    return pool[:count]


def parse_int_option(name: str, value: str | int, low: int, high: int) -> int:
    """An integer option within ``low..high``; raises :class:`UsageError`."""
    try:
        number = int(value)
    except ValueError:
        raise UsageError(f"option {name} must be a whole number, got {value!r}") from None
    if not low <= number <= high:
        raise UsageError(f"option {name} must be {low}..{high}, got {number}")
    return number
