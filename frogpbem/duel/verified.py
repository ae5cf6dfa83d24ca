"""What this user's tool has verified already of a game without a referee: the longest
run of messages whose signatures and proofs it checked.

A Frog Finder message's setup carries hundreds of zero-knowledge proofs; every command
replays the whole file, so without this store each would check them all again. Per game
id, ``$FROGPBEM_HOME/verified/GAME.duel.json`` keeps ``{header, n, digest}``: the
header's hash, and :func:`prefix_digest` of the header and the first ``n`` messages
(their hashes and signatures) this tool verified, proofs included. A later command on a
copy whose first ``n`` messages have exactly that digest replays them (each parsed,
taken in through the rules' steps and moves) without checking their signatures and
proofs again; a copy that differs in one byte of them is checked in full. ``verify`` and
``audit`` never use it. It holds no secret (only what every copy shows); losing it only
costs time.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from frogpbem import crypto
from frogpbem.errors import FrogPbemError
from frogpbem.gamefile import jsontext
from frogpbem.gamefile.document import read_bytes, write_atomic
from frogpbem.gamefile.duelfile import DuelFile


def prefix_digest(file: DuelFile, n: int) -> str:
    """``sha256:`` over the lines: the header's hash and signature, then each of the first
    ``n`` messages' hash (the one the next ``prev`` names) and signature."""
    parts = [file.header.hash, file.header.signature]
    for message in file.messages[:n]:
        parts += [message.hash, message.signature]
    return crypto.sha256_tag("\n".join(parts).encode())


class VerifiedDuels:
    """The store, in ``home/verified/``."""

    def __init__(self, home: Path) -> None:
        self.folder = home / "verified"

    def _path(self, game: str) -> Path:
        return self.folder / f"{game}.duel.json"

    def _read(self, game: str) -> tuple[str, int, str] | None:
        try:
            value = jsontext.loads(read_bytes(self._path(game), 4096))
            return str(value["header"]), int(value["n"]), str(value["digest"])
        except (FrogPbemError, ValueError, KeyError, TypeError):
            return None  # none yet, or unreadable: verify everything

    def trusted(self, file: DuelFile) -> int:
        """How many of ``file``'s first messages this tool verified before, byte for byte
        (0: none, or another header, or a prefix that differs)."""
        known = self._read(file.game)
        if known is None or known[0] != file.header.hash or known[1] > len(file.messages) \
                or known[1] <= 0:
            return 0
        return known[1] if prefix_digest(file, known[1]) == known[2] else 0

    def remember(self, file: DuelFile) -> None:
        """``file`` was verified whole: keep its digest (a failure to write costs time
        only, never the command)."""
        n = len(file.messages)
        value = {"header": file.header.hash, "n": n, "digest": prefix_digest(file, n)}
        if self._read(file.game) == (value["header"], n, value["digest"]):
            return
        with contextlib.suppress(FrogPbemError, OSError):
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomic(self._path(file.game),
                         json.dumps(value, separators=(",", ":")).encode(), durable=False)
