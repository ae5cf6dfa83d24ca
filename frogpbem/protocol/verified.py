"""What this user's tool has verified already: per game, the longest history checked.

Every command but ``verify`` and ``audit`` (which check everything, every
time) loads a game through :func:`frogpbem.protocol.game.load`, which checks
every signature of the file. A game grows by a record or two between two
commands, so almost all of that work was done the time before. This store
keeps, per game id, the header's hash and the :func:`~frogpbem.gamefile.chain.prefix_digest`
of the history last verified (header, deal and records, signatures included).
A file whose prefix has exactly that digest has those elements byte for byte
as they were verified, so their signatures are not checked again; a prefix
that differs in one byte, a fork or another header, is checked in full.

The same store keeps, per game, the history part of the game file read
last (``verified/GAME.history.json``): its length and SHA-256, its values
and each element's hash, so that the next command reads only what follows
it (see :func:`frogpbem.gamefile.document.parse_known`). A file whose history
differs in one byte is read whole.

A game without a referee (:class:`~frogpbem.gamefile.duelfile.DuelFile`) is kept the
same way in ``verified/GAME.duel.json``: ``{header, n, digest}`` of the first ``n``
messages this tool verified, signatures and the ruleset's proofs included
(:func:`duel_digest`); the engine then replays them without checking those again
(:func:`frogpbem.duel.engine.load`).

The store lives beside the memory of copies seen (``$FROGPBEM_HOME/verified/``), in a
:class:`~frogpbem.protocol.session.Session`.
It holds no secret (only what every copy of the game shows); losing it only
costs time. Its integrity matters, though: a digest in it spares those elements their
checks, so it is written for its user alone (folder 0700, files 0600), as the memory of
copies seen is.
"""

from __future__ import annotations

import contextlib
import json
from collections import OrderedDict
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import FrogPbemError
from frogpbem.gamefile import jsontext
from frogpbem.gamefile.chain import prefix_digest
from frogpbem.gamefile.document import KeptHistory, read_bytes, write_atomic
from frogpbem.gamefile.duelfile import DuelFile
from frogpbem.gamefile.model import GameFile


class VerifiedHistories:
    """The store: ``verified/GAME.json`` = ``{"header", "n", "digest"}``."""

    def __init__(self, folder: Path, writes_histories: bool = True) -> None:
        self.folder = folder
        self.writes_histories = writes_histories
        """Whether the history parts read are kept on disk (else in this process only)."""
        self.parsed: OrderedDict[bytes, GameFile] = OrderedDict()
        """The last files parsed with this store, by the SHA-256 of their bytes."""
        self.kept_here: OrderedDict[str, KeptHistory] = OrderedDict()
        """Per game id, the history kept last (its values, as read)."""

    def _path(self, game: str, kind: str = "") -> Path:
        return self.folder / f"{game}{kind}.json"

    def _read(self, game: str, kind: str = "") -> tuple[str, int, str] | None:
        try:
            value = jsontext.loads(read_bytes(self._path(game, kind), 4096))
            return str(value["header"]), int(value["n"]), str(value["digest"])
        except (FrogPbemError, ValueError, KeyError, TypeError):
            return None  # none yet, or unreadable: verify everything

    def trusted(self, file: GameFile) -> tuple[int, str] | None:
        """``(n, digest)`` of the history verified before, if it is this game's."""
        known = self._read(file.game)
        if known is None or known[0] != file.header.hash or known[1] > len(file.log):
            return None
        return known[1], known[2]

    def remember(self, file: GameFile) -> None:
        """``file`` was verified: keep its history's digest (a failure to write costs time
        only, never the command)."""
        n = len(file.log)
        value = {"header": file.header.hash, "n": n, "digest": prefix_digest(file, n)}
        if self._read(file.game) == (value["header"], n, value["digest"]):
            return
        self._write(self._path(file.game), value)

    def duel_trusted(self, file: DuelFile) -> int:
        """How many of ``file``'s first messages this tool verified before, byte for byte
        (0: none, another header, or a prefix that differs in a byte)."""
        known = self._read(file.game, DUEL)
        if known is None or known[0] != file.header.hash or \
                not 0 < known[1] <= len(file.messages):
            return 0
        return known[1] if duel_digest(file, known[1]) == known[2] else 0

    def remember_duel(self, file: DuelFile) -> None:
        """Every message of ``file`` was verified: keep their digest (a failure to write
        costs time only, never the command)."""
        n = len(file.messages)
        value = {"header": file.header.hash, "n": n, "digest": duel_digest(file, n)}
        if self._read(file.game, DUEL) != (value["header"], n, value["digest"]):
            self._write(self._path(file.game, DUEL), value)

    def read_history(self, game: str) -> Any:
        """The history part of ``game``'s file read last, as kept (checked by its reader)."""
        try:
            return jsontext.loads(read_bytes(self._path(game, ".history"), HISTORY_LIMIT))
        except (FrogPbemError, ValueError):
            return None  # none yet, or unreadable: the file is read whole

    def write_history(self, game: str, value: dict[str, Any]) -> None:
        if self.writes_histories:
            self._write(self._path(game, ".history"), value)

    def in_memory(self) -> VerifiedHistories:
        """This store, its files parsed and histories kept in this process shared, that
        writes no history part to disk: for the judge's reads of a changed file, which
        keep nothing under its user's home."""
        other = VerifiedHistories(self.folder, writes_histories=False)
        other.parsed, other.kept_here = self.parsed, self.kept_here
        return other

    def _write(self, path: Path, value: dict[str, Any]) -> None:
        """Write ``value`` (a failure to write costs time only, never the command)."""
        with contextlib.suppress(FrogPbemError, OSError):
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_atomic(path, json.dumps(value, separators=(",", ":")).encode(),
                         durable=False, private=True)


DUEL = ".duel"
"""The kind of the file that keeps a game without a referee: ``GAME.duel.json``."""


def duel_digest(file: DuelFile, n: int) -> str:
    """``sha256:`` over the lines: the header's hash and signature, then each of the first
    ``n`` messages' hash (the one the next ``prev`` names) and signature."""
    parts = [file.header.hash, file.header.signature]
    for message in file.messages[:n]:
        parts += [message.hash, message.signature]
    return crypto.sha256_tag("\n".join(parts).encode())


HISTORY_LIMIT = 16 * 1024 * 1024
"""A kept history is about the size of its game file (at most 4 MiB): a larger one is not
read."""


__all__ = ["VerifiedHistories", "duel_digest"]
