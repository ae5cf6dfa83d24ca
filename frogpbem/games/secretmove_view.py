"""Secret Move's board and view, which the rules (:mod:`.secretmove`) and the expert bot
(:mod:`.secretmove_bot`) share: the squares, their values under a secret, and what a
holder may know of a position."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from frogpbem.frozen import frozen
from frogpbem.games import JSON, Outcome, check_view, read_shape
from frogpbem.jsonvalue import as_bool, as_dict, as_int, as_list, as_str, dict_of, list_of, or_none

SQUARES = tuple(f"{c}{r}" for r in (1, 2, 3) for c in "ABC")
"""The nine squares, row 1 first (the order of a guess)."""
MAX_MOVES = 10
START_STONES = 3
MARGIN = 27
"""A score lead above this wins outright."""


def values_of(secret: Mapping[str, Sequence[int]]) -> dict[str, int]:
    """Each square's value under a secret."""
    return {f"{c}{r}": secret["cols"][i] + secret["rows"][r - 1]
            for r in (1, 2, 3) for i, c in enumerate("ABC")}


def adjacent(a: str, b: str) -> bool:
    """Whether two squares touch, by a side or a corner."""
    dc = abs(ord(a[0]) - ord(b[0]))
    dr = abs(int(a[1]) - int(b[1]))
    return max(dc, dr) == 1


MOVE_WORDS = re.compile(r"\s*(\S+)\s+([0-9]+)\s*", re.ASCII)
"""A stone move's two words as a record holds it, ``A1-B2 2``."""


def stone_move(data: JSON) -> tuple[str, str, int]:
    """A stone move of a view's history, ``["A1", "B2", 2]``."""
    src, dst, count = as_list(data)
    return as_str(src), as_str(dst), as_int(count)


@frozen
class SeatBoard:
    """One seat's board in a view: its stones, and its values where the holder may know
    them (else how many value grids still fit its public moves)."""

    stones: Mapping[str, int]
    """Stones on each square, by name."""
    moves_left: int
    done: bool
    """Whether it has made all its moves."""
    guessed: bool
    """Whether it has handed in its guess."""
    values: Mapping[str, int] | None = None
    """Each square's value (the holder knows the seat's headers), else ``None``."""
    score: int | None = None
    """Its score now (with ``values``)."""
    grids_left: int | None = None
    """The value grids that still fit its public moves (without ``values``)."""
    stuck: tuple[Mapping[str, int], ...] | None = None
    """Its boards at its automatic passes (without ``values``)."""

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"stones": dict(self.stones), "moves_left": self.moves_left,
                                 "done": self.done, "guessed": self.guessed}
        if self.values is not None:
            data["values"] = dict(self.values)
            data["score"] = self.score
        else:
            data["grids_left"] = self.grids_left
            data["stuck"] = [dict(stones) for stones in self.stuck or ()]
        return data

    @classmethod
    def from_json(cls, data: JSON) -> SeatBoard:
        fields = as_dict(data)
        values, stuck = fields.get("values"), fields.get("stuck")
        return cls(dict_of(as_int, fields["stones"]), as_int(fields["moves_left"]),
                   as_bool(fields["done"]), as_bool(fields["guessed"]),
                   None if values is None else dict_of(as_int, values),
                   or_none(as_int, fields.get("score")), or_none(as_int, fields.get("grids_left")),
                   None if stuck is None
                   else tuple(dict_of(as_int, stones) for stones in as_list(stuck)))


@frozen
class SecretMoveView:
    """What one holder (a seat, or the public) may know of a Secret Move position."""

    rules: str
    """``secretmove``."""
    seats: tuple[str, ...]
    phase: str
    """``move``, ``guess`` or ``over``."""
    to_move: str | None
    """The seat to move, ``None`` once the game is over."""
    points: Mapping[str, int]
    boards: Mapping[str, SeatBoard]
    """Each seat's board."""
    history: Mapping[str, tuple[tuple[str, str, int], ...]]
    """Each seat's stone moves, in order (public)."""
    outcome: Outcome | None
    """How the game ended, ``None`` while it goes on."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "rules": self.rules,
            "seats": list(self.seats),
            "phase": self.phase,
            "to_move": self.to_move,
            "points": dict(self.points),
            "boards": {seat: board.to_json() for seat, board in self.boards.items()},
            "history": {s: [list(m) for m in moves] for s, moves in self.history.items()},
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    @classmethod
    def from_json(cls, data: JSON) -> SecretMoveView:
        """A view as :meth:`to_json` wrote it (a mailed view file's board); raises
        :class:`GameFileError` for another shape, or one its drawing cannot show."""
        view = read_shape("a Secret Move view", lambda: cls._read(data))
        view.check()
        return view

    @classmethod
    def _read(cls, data: JSON) -> SecretMoveView:
        fields = as_dict(data)
        outcome = fields["outcome"]
        return cls(rules=as_str(fields["rules"]), seats=tuple(list_of(as_str, fields["seats"])),
                   phase=as_str(fields["phase"]), to_move=or_none(as_str, fields["to_move"]),
                   points=dict_of(as_int, fields["points"]),
                   boards=dict_of(SeatBoard.from_json, fields["boards"]),
                   history={seat: tuple(map(stone_move, as_list(moves)))
                            for seat, moves in as_dict(fields["history"]).items()},
                   outcome=Outcome.from_json(outcome) if outcome else None)

    def check(self) -> None:
        """Raises :class:`GameFileError` unless the view can be drawn and described."""
        squares = {f"{col}{row}" for col in "ABC" for row in (1, 2, 3)}
        check_view("a Secret Move view", self.rules == "secretmove" and bool(self.seats)
                   and all(seat in self.boards for seat in self.seats)
                   and self.to_move in (None, *self.seats)
                   and all(set(board.stones) == squares
                           and (board.values is None or set(board.values) == squares)
                           for board in self.boards.values()))

    def retold(self, termination: str) -> SecretMoveView:
        if self.outcome is None:
            return self
        return replace(self, outcome=replace(self.outcome, termination=termination))
