"""One session: the clock, this user's folders, and the stores kept in them.

A command (or the judge) makes one :class:`Session` and passes it down; the
library reads the time and the stores from it, never from the environment or
from module globals. The stores' caches live in the stores, so two sessions
share nothing. Tests make a session with a temporary home and a fixed clock.
"""

from __future__ import annotations

import os
from pathlib import Path

from frogpbem.protocol.memory import HeadMemory
from frogpbem.protocol.replays import KeptReplays
from frogpbem.protocol.seen import SeenGames
from frogpbem.protocol.times import Clock
from frogpbem.protocol.verified import VerifiedHistories


def home_from_environment() -> Path:
    """``$FROGPBEM_HOME``, else ``$XDG_DATA_HOME/frogpbem`` (``~/.local/share/frogpbem``)."""
    if os.environ.get("FROGPBEM_HOME"):
        return Path(os.environ["FROGPBEM_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "frogpbem"


def state_from_environment() -> Path:
    """``$FROGPBEM_STATE``, else ``$XDG_STATE_HOME/frogpbem`` (``~/.local/state/frogpbem``)."""
    if os.environ.get("FROGPBEM_STATE"):
        return Path(os.environ["FROGPBEM_STATE"])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "frogpbem"


class Session:
    """The clock and the stores of one command, or of the judge.

    ``home`` holds what this user's tool saw and verified (``seen/``,
    ``verified/``, ``proofs/``); ``state`` what the referee signed (``heads/``)
    and the replays kept between commands (``replays/``).
    """

    def __init__(self, home: Path, state: Path, clock: Clock) -> None:
        self.home = home
        self.state = state
        self.clock = clock
        """Every time read or signed in this session comes from here."""
        self.seen = SeenGames(home, clock)
        """What this user's tool has seen of each game (no copy may roll it back or fork it)."""
        self.verified = VerifiedHistories(home / "verified")
        """The histories verified already, and the history parts of the files read."""
        self.replays = KeptReplays(state / "replays")
        """The replays made in this session, and those kept between commands."""
        self.memory = HeadMemory(state)
        """The referee's memory of what it signed."""

    @classmethod
    def from_environment(cls, home: Path | None = None, state: Path | None = None) -> Session:
        """The session of a command: ``home`` and ``state`` when given, else
        ``$FROGPBEM_HOME`` and ``$FROGPBEM_STATE`` (or the XDG folders), and the clock of
        ``$FROGPBEM_NOW`` (else the system's)."""
        return cls(home or home_from_environment(), state or state_from_environment(),
                   Clock.from_environment())

    def finish(self) -> None:
        """Write what the session keeps for the next command (the replays made)."""
        self.replays.flush()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        """The command is done, whatever its outcome: :meth:`finish`."""
        self.finish()
