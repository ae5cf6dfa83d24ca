"""One exception tree for everything a user can cause.

Library code raises these; only :mod:`frogpbem.cli` catches them, prints the
message on one line and exits with the class's ``exit_code`` (documented in
the README).
"""

from __future__ import annotations


class FrogPbemError(Exception):
    """Base of every error frogpbem reports to a user."""

    exit_code = 1


class UsageError(FrogPbemError):
    """A command was called with options that do not fit together."""

    exit_code = 2


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


class ChainError(VerificationError):
    """A record does not follow the one before it."""


class InconsistentResultError(VerificationError):
    """A recorded result, score or turn is not what the rules give."""


class GameFileError(FrogPbemError):
    """A game file cannot be read: not strict YAML, wrong shape, too big."""

    exit_code = 7


class StaleCopyError(FrogPbemError):
    """A copy of a game is older than, or diverges from, what the referee signed."""

    exit_code = 8


class FileAccessError(FrogPbemError):
    """A file cannot be read or written."""

    exit_code = 9
