"""Froglet's view and the frogs' values, which the rules (:mod:`.froglet`) and the bots
(:mod:`.froglet_bot`) share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from frogpbem.frozen import frozen
from frogpbem.games import JSON, Outcome, check_squares, check_view, read_shape
from frogpbem.jsonvalue import as_dict, as_int, as_str, dict_of, list_of, or_none

VALUES = {"G": 1, "Y": 2, "R": 3, "B": 4}
"""Points for jumping a frog of each colour."""
COLOURS = {"G": "green", "Y": "yellow", "R": "red", "B": "blue"}

@frozen
class FrogletView:
    """What anybody may know of a Froglet position (the whole board is public)."""

    rules: str
    """``froglet``."""
    size: int
    """The side of the board."""
    seats: tuple[str, ...]
    """``white`` and ``black``."""
    to_move: str | None
    """The seat to move, ``None`` once the game is over."""
    points: Mapping[str, int]
    """Points so far."""
    rows: tuple[str, ...]
    """The board from the top row down: a frog's letter (``G``, ``Y``, ``R``, ``B``) or
    ``.`` on each square."""
    last: tuple[str, ...]
    """The squares of the last move, by name."""
    frogs_left: Mapping[str, int]
    """How many frogs of each colour are on the board."""
    outcome: Outcome | None
    """How the game ended, ``None`` while it goes on."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "rules": self.rules,
            "size": self.size,
            "seats": list(self.seats),
            "to_move": self.to_move,
            "points": dict(self.points),
            "rows": list(self.rows),
            "last": list(self.last),
            "frogs_left": dict(self.frogs_left),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    @classmethod
    def from_json(cls, data: JSON) -> FrogletView:
        """A view as :meth:`to_json` wrote it (a mailed view file's board); raises
        :class:`GameFileError` for another shape, or one its drawing cannot show."""
        view = read_shape("a Froglet view", lambda: cls._read(data))
        view.check()
        return view

    @classmethod
    def _read(cls, data: JSON) -> FrogletView:
        fields = as_dict(data)
        outcome = fields["outcome"]
        return cls(rules=as_str(fields["rules"]), size=as_int(fields["size"]),
                   seats=tuple(list_of(as_str, fields["seats"])),
                   to_move=or_none(as_str, fields["to_move"]),
                   points=dict_of(as_int, fields["points"]),
                   rows=tuple(list_of(as_str, fields["rows"])),
                   last=tuple(list_of(as_str, fields["last"])),
                   frogs_left=dict_of(as_int, fields["frogs_left"]),
                   outcome=Outcome.from_json(outcome) if outcome else None)

    def check(self) -> None:
        """Raises :class:`GameFileError` unless the view can be drawn and described."""
        what = "a Froglet view"
        check_squares(what, self.size, self.last)
        check_view(what, self.rules == "froglet" and bool(self.seats)
                   and all(seat in self.points for seat in self.seats)
                   and self.to_move in (None, *self.seats)
                   and len(self.rows) == self.size
                   and all(len(row) == self.size and set(row) <= {*VALUES, "."}
                           for row in self.rows)
                   and set(self.frogs_left) <= set(VALUES))

    def retold(self, termination: str) -> FrogletView:
        if self.outcome is None:
            return self
        return replace(self, outcome=replace(self.outcome, termination=termination))
