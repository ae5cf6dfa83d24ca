"""The referee's clock records, the same in every ruleset.

Three records change no piece: a turn that went by because its deadline
passed (``pass``, when the header says ``on_timeout: pass``), and a pause
and its resumption (holidays). Each is a record the referee signs in the
log, with a result of its own shape, so every copy and every audit sees it.

A fourth is a ruleset's own resignation, made by the referee when the
deadline passed (``timeout: true``): its result is the ruleset's, wrapped
in :class:`TimedOut` so that it is told as the loss on time it is.
"""

from __future__ import annotations

from typing import Protocol

from frogpbem.frozen import frozen
from frogpbem.jsonvalue import JSON, same_json
from frogpbem.safetext import safe

MAX_REASON = 200
"""The longest reason a pause may give."""


@frozen
class Passed:
    """The seat to move let its deadline pass and its turn went by."""

    move = "pass"

    def to_json(self) -> JSON:
        return {"passed": True}


@frozen
class Paused:
    """The referee paused the game (no move and no deadline until it resumes)."""

    reason: str

    move = "pause"

    def to_json(self) -> JSON:
        return {"paused": self.reason}


@frozen
class Resumed:
    """The referee resumed a paused game; the seat to move's time starts again."""

    move = "resume"

    def to_json(self) -> JSON:
        return {"resumed": True}


ClockResult = Passed | Paused | Resumed


class Recorded(Protocol):
    """A ruleset's result, as a record holds it (see :class:`frogpbem.games.Result`)."""

    def to_json(self) -> JSON: ...


@frozen
class TimedOut:
    """A resignation the referee recorded because the seat let its deadline pass (a record
    ``move: resign`` with ``timeout: true``): the ruleset's own result of it, told as a loss
    on time. The rules play ``resigned``; only the words differ."""

    resigned: Recorded
    """The ruleset's result of the resignation (it may show the seat's pieces)."""

    move = "resign"

    def to_json(self) -> JSON:
        data: JSON = self.resigned.to_json()
        return data


_CLOCK_KEYS = frozenset(("passed", "resumed", "paused"))


def parse_clock(data: JSON) -> ClockResult | None:
    """A clock record's result, or ``None`` for any other shape (a ruleset's result)."""
    if not isinstance(data, dict) or len(data) != 1 or next(iter(data)) not in _CLOCK_KEYS:
        return None  # every other record's result: one look
    if same_json(data, Passed().to_json()):
        return Passed()
    if same_json(data, Resumed().to_json()):
        return Resumed()
    if list(data) == ["paused"] and isinstance(data["paused"], str) \
            and len(data["paused"]) <= MAX_REASON:
        return Paused(data["paused"])
    return None


def describe(seat: str, result: ClockResult | TimedOut) -> str:
    """A clock record in words."""
    if isinstance(result, TimedOut):
        return f"{seat} forfeits on time (its deadline passed)"
    if isinstance(result, Passed):
        return f"{seat}'s time ran out: the turn passes"
    if isinstance(result, Paused):
        why = f" ({safe(result.reason)})" if result.reason else ""
        return f"the referee pauses the game{why}"
    return f"the referee resumes the game: {seat} to move"


def comment(result: ClockResult | TimedOut, resigned: str = "") -> str:
    """A clock record as the record's comment (``resigned``: the ruleset's comment of a
    resignation on time, when it says more than that, e.g. the frogs it shows)."""
    if isinstance(result, TimedOut):
        return "time forfeit" + (f"; {resigned}" if resigned not in ("", "resigns") else "")
    if isinstance(result, Passed):
        return "time ran out"
    return "paused" if isinstance(result, Paused) else "resumed"


__all__ = ["MAX_REASON", "ClockResult", "Passed", "Paused", "Resumed", "TimedOut", "comment",
           "describe", "parse_clock"]
