"""One exception tree for everything a user can cause.

Library code raises these; only :mod:`frogpbem.cli` catches them, prints the
message on one line and exits with the class's ``exit_code`` (documented in
the README).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self


class FrogPbemError(Exception):
    """Base of every error frogpbem reports to a user.

    The message says what is wrong; where it happened is kept in fields
    (``path``, the file; ``element``, such as ``record 12`` or ``pending
    request 1 (red 'shoot G9')``), set by whoever knows them with
    :meth:`within`, and joined in front of the message by ``str()``.
    """

    exit_code = 1

    def __init__(self, message: str, *, path: str | Path | None = None,
                 element: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        """What is wrong, in one sentence without its location."""
        self.path = str(path) if path is not None else None
        """The file it concerns, if any."""
        self.element = element
        """The element of that file (``record 12``, ``header``), if any."""

    def within(self, *, path: str | Path | None = None, element: str | None = None) -> Self:
        """Add a location this error does not have yet; returns the error itself."""
        if self.path is None and path is not None:
            self.path = str(path)
        if self.element is None and element is not None:
            self.element = element
        return self

    def __str__(self) -> str:
        return ": ".join(part for part in (self.path, self.element, self.message) if part)

    def to_json(self) -> dict[str, Any]:
        """The error as the CLI prints it with ``--json`` (on standard error)."""
        return {"error": type(self).__name__.rstrip("_"), "message": self.message,
                "path": self.path, "element": self.element, "exit_status": self.exit_code}


class UsageError(FrogPbemError):
    """A command was called with options that do not fit together."""

    exit_code = 2


class NothingToApplyError(UsageError):
    """The referee was asked to apply, and nothing new was there (no move, no new request)."""


class UnchangedCopyError(UsageError):
    """A copy mailed to the referee holds nothing to take: no request, note or join (the
    sender forgot ``frogpbem move``)."""


class NotationError(FrogPbemError, ValueError):
    """A move, square or setup is not written in the game's notation."""

    exit_code = 3


class IllegalMoveError(FrogPbemError, ValueError):
    """A well-formed move that the position does not allow."""

    exit_code = 4


class NotYourTurnError(IllegalMoveError):
    """A seat tried to move while another seat is to move."""


class GameOverError(IllegalMoveError):
    """A move was sent to a game that has ended."""


class KeyError_(FrogPbemError):
    """A key is missing, unreadable, too open, or not the one needed."""

    exit_code = 5


class VerificationError(FrogPbemError):
    """Something signed or committed does not check: the file was tampered with."""

    exit_code = 6


class SignatureError(VerificationError):
    """A signature does not verify."""


class CommitmentError(VerificationError):
    """A revealed or decrypted secret does not match its commitment."""


class ProofError(VerificationError):
    """A point, scalar or zero-knowledge proof of a game without a referee is malformed or
    does not hold."""


class ChainError(VerificationError):
    """A record does not follow the one before it."""


class ForkError(VerificationError):
    """The referee signed two different histories of one game (there is a proof)."""

    exit_code = 11


class InconsistentResultError(VerificationError):
    """A recorded result, score or turn is not what the rules give."""


class GameFileError(FrogPbemError):
    """A game file cannot be read: not strict YAML, wrong shape, too big."""

    exit_code = 7


class NotAGameFileError(GameFileError):
    """A file that is no game file at all (a view file, a key, another YAML file): no
    verdict on a game, as a missing file is none."""


class UnfinishedGameError(FrogPbemError):
    """An audit was asked of a game that has not ended: nothing is wrong, it is not over."""

    exit_code = 10


class StaleCopyError(FrogPbemError):
    """A copy of a game is older than, or diverges from, what the referee signed."""

    exit_code = 8


class UnknownGameError(StaleCopyError):
    """A message names a game that is not one of the games held here."""


class FileAccessError(FrogPbemError):
    """A file cannot be read or written."""

    exit_code = 9


class FolderBusyError(FileAccessError):
    """Another judge holds the games folder: one judge per folder."""

    exit_code = 12


class NotKeptError(FileAccessError):
    """``reply``'s answer went out, but the player's copy could not be kept: the move must
    not be sent again."""

    exit_code = 13
