"""The judge's marks in its games folder, as typed values: what it mailed, reminded, was
refused, and when it may try again.

Each mark is a small JSON file (the files and their format are those the judge
always wrote): ``.mailed/ID.json`` (the head, or the joins, mailed and to whom),
``.mailed/ID.pending.json`` (an invitation that some seats have), ``.mailed/NAME.sha256``
(the game file's hash once all of it was mailed), ``.reminded/ID.json`` (the head a seat
was reminded at), and under ``.judge/``: ``backoff/ID.json`` (the wait after the server
failed), ``bounced/ID.json`` (the addresses refused for good) and ``nothing/HASH.json``
(when an address was last answered that its message held nothing). A mark that is
damaged names nothing: the judge then does once more what it was for, rather than stop
every round.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from frogpbem import crypto
from frogpbem.errors import FileAccessError, FrogPbemError
from frogpbem.gamefile import jsontext
from frogpbem.gamefile.document import read_bytes, write_atomic


@dataclass(frozen=True)
class Mailed:
    """What a mailing mark says: the point of the game mailed and who has it."""

    head: str
    """The head mailed (for a game that waits for joins, the joins' mark)."""
    roles: frozenset[str] | None = None
    """The roles that have it; ``None``: all (a mark that names the head alone)."""

    @classmethod
    def from_json(cls, value: object) -> Mailed | None:
        if isinstance(value, str):
            return cls(value)
        if isinstance(value, list) and value and isinstance(value[0], str):
            if len(value) == 2 and isinstance(value[1], list):
                return cls(value[0], frozenset(str(role) for role in value[1]))
            return cls(value[0], frozenset())  # damaged: nobody is known to have it
        return None

    def to_json(self) -> str | list[str | list[str]]:
        return self.head if self.roles is None else [self.head, sorted(self.roles)]

    def having(self, head: str, roles: list[str]) -> set[str]:
        """The roles of ``roles`` that have had ``head`` already (all of them for a mark
        that names the head alone)."""
        if self.head != head:
            return set()
        return set(roles) if self.roles is None else set(self.roles)


@dataclass(frozen=True)
class Backoff:
    """The wait before a game is mailed again after the server failed."""

    until: int
    """Until when (seconds since the epoch); ``0``: no wait."""
    delay: int
    """The wait that was, in seconds (the next is twice as long)."""

    @classmethod
    def from_json(cls, value: object) -> Backoff:
        if isinstance(value, list) and len(value) == 2 and \
                all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            return cls(value[0], value[1])
        return cls(0, 0)


@dataclass(frozen=True)
class RunningClock:
    """A game's running clock, as the judge keeps it between rounds."""

    game_id: str
    head: str
    """The head it runs at."""
    until: int
    """When the time of the seat to move runs out (seconds since the epoch)."""
    seconds: int
    """The time a move has."""


@dataclass(frozen=True)
class KnownClock:
    """What a game file's clock said when the file had the hash ``digest``."""

    digest: str
    clock: RunningClock | None
    """``None``: no clock runs (no deadline, paused, over, or not dealt)."""


class Marks:
    """The judge's marks in the games folder ``games``: each kind read and written here."""

    def __init__(self, games: Path) -> None:
        self.games = games

    @property
    def state(self) -> Path:
        """The judge's own records: ``GAMES/.judge``."""
        return self.games / ".judge"

    def mailed_path(self, game_id: str) -> Path:
        return self.games / ".mailed" / f"{game_id}.json"

    def pending_path(self, game_id: str) -> Path:
        return self.games / ".mailed" / f"{game_id}.pending.json"

    def quick_path(self, path: Path) -> Path:
        return self.games / ".mailed" / f"{path.name}.sha256"

    def reminded_path(self, game_id: str) -> Path:
        return self.games / ".reminded" / f"{game_id}.json"

    def backoff_path(self, game_id: str) -> Path:
        return self.state / "backoff" / f"{game_id}.json"

    def bounced_path(self, game_id: str) -> Path:
        return self.state / "bounced" / f"{game_id}.json"

    def nothing_path(self, address: str) -> Path:
        return self.state / "nothing" / f"{crypto.sha256(address.lower().encode()).hex()}.json"

    def mailed(self, game_id: str) -> Mailed | None:
        return Mailed.from_json(_read(self.mailed_path(game_id)))

    def set_mailed(self, game_id: str, mailed: Mailed) -> None:
        _write(self.mailed_path(game_id), mailed.to_json())

    def pending(self, game_id: str) -> Mailed | None:
        return Mailed.from_json(_read(self.pending_path(game_id)))

    def set_pending(self, game_id: str, mailed: Mailed) -> None:
        _write(self.pending_path(game_id), mailed.to_json())

    def clear_pending(self, game_id: str) -> None:
        if self.pending_path(game_id).exists():
            self.pending_path(game_id).unlink()

    def reminded(self, game_id: str) -> str | None:
        """The head a seat of the game was last reminded at."""
        found = Mailed.from_json(_read(self.reminded_path(game_id)))
        return None if found is None else found.head

    def set_reminded(self, game_id: str, head: str) -> None:
        _write(self.reminded_path(game_id), head)

    def unchanged(self, path: Path, digest: str) -> bool:
        """Whether the game file ``path``, of hash ``digest``, was mailed whole as it is."""
        quick = self.quick_path(path)
        return quick.is_file() and read_bytes(quick) == digest.encode()

    def set_unchanged(self, path: Path, digest: str) -> None:
        (self.games / ".mailed").mkdir(exist_ok=True)
        write_atomic(self.quick_path(path), digest.encode(), durable=False)

    def backoff(self, game_id: str) -> Backoff:
        return Backoff.from_json(_read(self.backoff_path(game_id)))

    def set_backoff(self, game_id: str, backoff: Backoff) -> None:
        _write(self.backoff_path(game_id), [backoff.until, backoff.delay])

    def clear_backoff(self, game_id: str) -> None:
        if self.backoff_path(game_id).exists():
            self.backoff_path(game_id).unlink()

    def bounced(self, game_id: str) -> dict[str, str]:
        """The seats of a game whose address the server refused for good, and that
        address (a seat is mailed again once the game names another one)."""
        found = _read(self.bounced_path(game_id))
        if not isinstance(found, dict):
            return {}
        return {str(k): str(v) for k, v in found.items()}

    def set_bounced(self, game_id: str, bounced: dict[str, str]) -> None:
        _write(self.bounced_path(game_id), bounced)

    def answered_nothing(self, address: str) -> int | None:
        """When ``address`` was last answered that its message held nothing."""
        when = _read(self.nothing_path(address))
        return when if isinstance(when, int) else None

    def set_answered_nothing(self, address: str, when: int) -> None:
        _write(self.nothing_path(address), when)


def check(mark: Path) -> None:
    """A mark the judge can read and write, or :class:`FileAccessError` before any mail
    goes out (a mark that cannot be written would have a game mailed every round)."""
    if os.path.lexists(mark) and not mark.is_file():
        raise FileAccessError(f"{mark.parent.name}/{mark.name} is not a file, and the judge "
                              "keeps a mark there: remove it")


def _write(mark: Path, value: object) -> None:
    mark.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(mark, json.dumps(value).encode())


def _read(mark: Path) -> object:
    """A mark's value; ``None`` when there is none or it is damaged."""
    if not mark.is_file():
        return None
    try:
        return jsontext.loads(read_bytes(mark))
    except (ValueError, FrogPbemError):  # not JSON, or not UTF-8
        return None


__all__ = ["Backoff", "KnownClock", "Mailed", "Marks", "RunningClock", "check"]
