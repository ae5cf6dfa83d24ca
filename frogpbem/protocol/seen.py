"""What this user's tool has seen of each game, so no copy can roll it back or fork it.

Per game id the store keeps the header's hash, the hash of every element of
the history seen so far (deal, records, reveal), and the latest copy itself.
A copy under another header, one that parts from what was seen, or one older
than it is refused: a fork (two histories signed by the referee) with a proof
anyone can check, a rollback with a plain refusal.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from frogpbem.errors import FileAccessError, ForkError, FrogPbemError, StaleCopyError
from frogpbem.frozen import frozen
from frogpbem.gamefile import jsontext
from frogpbem.gamefile.document import (
    Later,
    game_bytes,
    held,
    lock_file,
    parse_game,
    read_bytes,
    write_atomic,
)
from frogpbem.gamefile.forkproof import ForkProof, conflict
from frogpbem.gamefile.model import GameFile, keep_recent

if TYPE_CHECKING:
    from frogpbem.protocol.game import Game


def default_home() -> Path:
    """``$FROGPBEM_HOME``, else ``$XDG_DATA_HOME/frogpbem`` (``~/.local/share/frogpbem``)."""
    if os.environ.get("FROGPBEM_HOME"):
        return Path(os.environ["FROGPBEM_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "frogpbem"


@frozen
class Seen:
    """What was seen of one game: the header's hash and the history's hashes."""

    header: str
    history: tuple[str, ...]
    records: int = 0
    """How many records the copy had (for messages)."""

    def to_json(self) -> dict[str, Any]:
        return {"header": self.header, "history": list(self.history), "records": self.records}

    def same(self, other: Seen) -> bool:
        return (self.header, self.history) == (other.header, other.history)


_KNOWN: OrderedDict[Path, tuple[bytes | Later, Seen]] = OrderedDict()
"""The memories read or written last in this process, by path, with their bytes: the same
bytes read again are not parsed again (the demonstration's players see every record)."""
KNOWN_MEMORIES = 4
"""How many of them are known at once (a game's, and a few more)."""


class SeenGames:
    """The store: ``seen/GAME.json`` (hashes) and ``seen/GAME.yaml`` (the latest copy)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or default_home()

    def _paths(self, game: str) -> tuple[Path, Path, Path]:
        base = self.folder / "seen"
        return base / f"{game}.json", base / f"{game}.yaml", base / f"{game}.lock"

    def _read(self, game: str) -> Seen | None:
        path = self._paths(game)[0]
        known = _KNOWN.get(path)
        if known is not None and known[0] is held(path):  # written last, and not made yet
            return known[1]
        try:
            data = read_bytes(path, 1 << 24)
            if known is not None and known[0] == data:
                return known[1]
            value = jsontext.loads(data)
            seen = Seen(str(value["header"]), tuple(str(h) for h in value["history"]),
                        int(value.get("records", 0)))
        except FileAccessError:
            if not os.path.lexists(path):
                return None
            raise
        except (ValueError, KeyError, TypeError):
            raise StaleCopyError(f"the memory of game {game} at {path} is unreadable; "
                                 "move it away to start afresh") from None
        keep_recent(_KNOWN, path, (data, seen), KNOWN_MEMORIES)
        return seen

    def see(self, game: Game) -> None:
        """Refuse a copy that forks from or rolls back what was seen; remember a newer one."""
        file = game.file
        json_path, copy_path, lock_path = self._paths(file.game)
        with lock_file(lock_path):
            seen = self._read(file.game)
            now = Seen(file.header.hash, file.history_hashes(), len(file.log))
            if seen is not None and seen.same(now):
                return
            if seen is not None and not (seen.header == now.header and
                                         now.history[:len(seen.history)] == seen.history):
                self._refuse(game, seen, now)
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_atomic(copy_path, game_bytes(file), private=True)
            data = Later(lambda: json.dumps(now.to_json()).encode())
            write_atomic(json_path, data, private=True)
            keep_recent(_KNOWN, json_path, (data, now), KNOWN_MEMORIES)

    def _refuse(self, game: Game, seen: Seen, now: Seen) -> None:
        if seen.header == now.header and seen.history[:len(now.history)] == now.history:
            if seen.records > now.records:
                detail = f"it ends at record {now.records}, you have seen record {seen.records}"
            else:
                detail = "it lacks the deal or the reveal you have seen"
            raise StaleCopyError(f"is older than a copy of game {game.game_id} you saw before "
                                 f"({detail}): a rollback; use the latest copy", path=game.path)
        known = self.latest(game.game_id)
        found = conflict(known[0], game.file) if known is not None else None
        if found is None:
            raise StaleCopyError(
                f"differs from the copy of game {game.game_id} you saw before "
                f"({'another header' if seen.header != now.header else 'another history'})"
                ", and no copy kept here proves who signed what; refusing it",
                path=game.path)
        proof = ForkProof.of(game.game_id, game.header.referee.public_key, *found)
        raise ForkError(f"FORK: the referee signed two different {proof.position}s of game "
                        f"{game.game_id}; proof saved to {self.save_proof(proof)} "
                        "(check it: frogpbem verify --proof FILE)", path=game.path)

    def latest(self, game: str) -> tuple[GameFile, Seen] | None:
        """The latest copy of ``game`` seen here, and what was seen, if any."""
        seen = self._read(game)
        if seen is None:
            return None
        copy_path = self._paths(game)[1]
        try:
            return parse_game(read_bytes(copy_path), str(copy_path)), seen
        except FrogPbemError:
            return None

    def save_proof(self, proof: ForkProof) -> Path:
        """Write ``proof`` under ``proofs/`` and return where."""
        folder = self.folder / "proofs"
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        name = f"{proof.game}-{proof.position.replace(' / ', '-').replace(' ', '-')}.proof"
        path = folder / name
        write_atomic(path, proof.text().encode())
        return path
