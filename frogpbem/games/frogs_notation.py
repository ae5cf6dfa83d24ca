"""The frog-finding games' notation and view, which the rules (:mod:`.frogs`), the text
board (:mod:`.frogs_text`), the bots (:mod:`.frogs_bot`) and the hints (:mod:`.frogs_hint`)
share: moves, public results, the points they carry and what a seat may see."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field, replace

from frogpbem.board import Square
from frogpbem.errors import NotationError
from frogpbem.frozen import frozen
from frogpbem.games import JSON, Outcome, Resign, check_squares, check_view, read_shape, same_json
from frogpbem.jsonvalue import as_dict, as_int, as_str, dict_of, list_of, or_none
from frogpbem.safetext import quoted

SHOT_PENALTY = 5
"""Shooter's loss, and the owner's gain, for shooting a frog."""
GUESS_GAIN = 5
"""Guesser's gain for a correct guess."""
MISS_PENALTY = 3
"""Guesser's loss for a wrong guess."""
LAST_STANDING_BONUS = 2
"""Bonus for the seat (team) whose frogs are not all revealed at the end."""
LETTERS = {"red": "R", "blue": "B", "black": "K", "purple": "P", "yellow": "Y", "green": "G"}
"""One letter per colour on the text board (upper case revealed, lower case hidden)."""


_MOVE_RE = re.compile(r"\s*(shoot|guess)\s+([A-Za-z]\s*[0-9]{1,2})\s*|\s*(resign)\s*", re.I)
EXPECTED = 'expected "shoot SQUARE", "guess SQUARE" or "resign"'


@frozen
class Shoot:
    """Shoot a square: reveal its number, or shoot the frog on it."""

    square: Square

    def __str__(self) -> str:
        return f"shoot {self.square.name}"

    def __repr__(self) -> str:
        return f"Shoot({self.square!r})"


@frozen
class Guess:
    """Guess that an opponent's frog sits on a square."""

    square: Square

    def __str__(self) -> str:
        return f"guess {self.square.name}"

    def __repr__(self) -> str:
        return f"Guess({self.square!r})"


Move = Shoot | Guess | Resign
"""A frog-finding move."""


def parse_move(text: str) -> Move:
    """Parse ``shoot G9``, ``GUESS a1``, ``resign``; raises :class:`NotationError`."""
    match = _MOVE_RE.fullmatch(text)
    if match is None:
        raise NotationError(f"{EXPECTED}, got {quoted(text)}")
    if match[3]:
        return Resign()
    try:
        square = Square.parse(match[2].replace(" ", "").replace("\t", ""))
    except NotationError as exc:
        raise NotationError(f"{EXPECTED}, got {quoted(text)} ({exc.message})") from None
    return Shoot(square) if match[1].lower() == "shoot" else Guess(square)


@frozen
class Count:
    """A shot at an empty square, and the number of frogs around it."""

    count: int

    def to_json(self) -> JSON:
        return {"count": self.count}


@frozen
class Shot:
    """A shot that hit (and revealed) a frog of ``owner``."""

    owner: str

    def to_json(self) -> JSON:
        return {"shot": self.owner}


@frozen
class Found:
    """A correct guess that revealed a frog of ``owner``."""

    owner: str

    def to_json(self) -> JSON:
        return {"found": self.owner}


@frozen
class Miss:
    """A wrong guess: the square is empty."""

    def to_json(self) -> JSON:
        return {"miss": True}


@frozen
class FrogsResigned:
    """A resignation, with the resigning seats' hidden frogs where the rules show them."""

    frogs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each resigning seat's hidden frogs, by square name."""

    def to_json(self) -> JSON:
        if not self.frogs:
            return {"resigned": True}
        return {"resigned": True, "frogs": {s: list(n) for s, n in self.frogs.items()}}


FrogResult = Count | Shot | Found | Miss | FrogsResigned
"""A frog-finding move's public result."""

_SEAT = re.compile(r"[a-z]{1,16}")


def parse_result(data: JSON) -> FrogResult:
    """A recorded result; raises :class:`NotationError` for any other shape."""
    if isinstance(data, dict) and len(data) == 1:
        ((kind, value),) = data.items()
        if kind == "count" and type(value) is int and 0 <= value <= 8:
            return Count(value)
        if kind in ("shot", "found") and isinstance(value, str) and _SEAT.fullmatch(value):
            return Shot(value) if kind == "shot" else Found(value)
        if same_json(data, {"miss": True}) or same_json(data, {"resigned": True}):
            return Miss() if kind == "miss" else FrogsResigned()
    if isinstance(data, dict) and set(data) == {"resigned", "frogs"} and data["resigned"] is True \
            and isinstance(data["frogs"], dict) and data["frogs"]:
        frogs: dict[str, tuple[str, ...]] = {}
        for seat, names in data["frogs"].items():
            if not (_SEAT.fullmatch(seat) and isinstance(names, list) and names):
                break
            squares = [n for n in names if isinstance(n, str)]
            if len(squares) != len(names):
                break
            frogs[seat] = tuple(Square.parse(n).name for n in squares)
        else:
            return FrogsResigned(frogs)
    raise NotationError(f"not a frog-finding result: {data!r}")


@frozen
class Revealed:
    """A frog that everybody can see."""

    owner: str
    """The seat it belongs to."""
    how: str
    """``shot``, ``found`` or ``resigned``."""


@frozen
class FrogsView:
    """What one holder (a seat and its team, or the public) may know of a position."""

    rules: str
    """``frogfinder`` or ``coan``."""
    size: int
    """The side of the board."""
    frogs: int
    """Frogs per seat at the start."""
    seats: tuple[str, ...]
    """The seats, in turn order."""
    teams: Mapping[str, str]
    """Each seat's team (its own name when it plays alone)."""
    to_move: str | None
    """The seat to move, ``None`` once the game is over."""
    points: Mapping[str, int]
    """Points so far, per team."""
    out: tuple[str, ...]
    """The teams out (all frogs revealed, or resigned), by name."""
    hidden_left: Mapping[str, int]
    """How many frogs each seat still hides."""
    shots: Mapping[str, int]
    """Shot squares with their numbers, in the squares' order."""
    revealed: Mapping[str, Revealed]
    """Revealed frogs by square name, in the squares' order."""
    misses: tuple[str, ...]
    """Squares of wrong guesses, in the squares' order."""
    own_frogs: Mapping[str, tuple[str, ...]]
    """The hidden frogs this holder may see: its own and its teammates', by seat."""
    outcome: Outcome | None
    """How the game ended, ``None`` while it goes on."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "rules": self.rules,
            "size": self.size,
            "frogs": self.frogs,
            "seats": list(self.seats),
            "teams": dict(self.teams),
            "to_move": self.to_move,
            "points": dict(self.points),
            "out": list(self.out),
            "hidden_left": dict(self.hidden_left),
            "shots": dict(self.shots),
            "revealed": {name: {"owner": r.owner, "how": r.how}
                         for name, r in self.revealed.items()},
            "misses": list(self.misses),
            "own_frogs": {seat: list(names) for seat, names in self.own_frogs.items()},
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    @classmethod
    def from_json(cls, data: JSON) -> FrogsView:
        """A view as :meth:`to_json` wrote it (a mailed view file's board); raises
        :class:`GameFileError` for another shape, or one its drawing cannot show."""
        view = read_shape("a Frogs view", lambda: cls._read(data))
        view.check()
        return view

    @classmethod
    def _read(cls, data: JSON) -> FrogsView:
        fields = as_dict(data)
        outcome = fields["outcome"]
        revealed = {name: as_dict(frog) for name, frog in as_dict(fields["revealed"]).items()}
        return cls(
            rules=as_str(fields["rules"]), size=as_int(fields["size"]),
            frogs=as_int(fields["frogs"]), seats=tuple(list_of(as_str, fields["seats"])),
            teams=dict_of(as_str, fields["teams"]), to_move=or_none(as_str, fields["to_move"]),
            points=dict_of(as_int, fields["points"]), out=tuple(list_of(as_str, fields["out"])),
            hidden_left=dict_of(as_int, fields["hidden_left"]),
            shots=dict_of(as_int, fields["shots"]),
            revealed={name: Revealed(as_str(frog["owner"]), as_str(frog["how"]))
                      for name, frog in revealed.items()},
            misses=tuple(list_of(as_str, fields["misses"])),
            own_frogs={seat: tuple(list_of(as_str, names))
                       for seat, names in as_dict(fields["own_frogs"]).items()},
            outcome=Outcome.from_json(outcome) if outcome else None,
        )

    def check(self) -> None:
        """Raises :class:`GameFileError` unless the view can be drawn and described."""
        what = "a Frogs view"
        check_view(what, self.rules in ("frogfinder", "coan") and bool(self.seats)
                   and all(seat in self.hidden_left for seat in self.seats)
                   and self.to_move in (None, *self.seats))
        check_squares(what, self.size, [*self.misses, *self.shots, *self.revealed,
                                        *(name for names in self.own_frogs.values()
                                          for name in names)])

    def retold(self, termination: str) -> FrogsView:
        if self.outcome is None:
            return self
        return replace(self, outcome=replace(self.outcome, termination=termination))
