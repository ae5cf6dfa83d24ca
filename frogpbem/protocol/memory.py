"""The referee's memory of what it signed, per game, so it never extends an older copy."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from frogpbem.errors import StaleCopyError
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import write_atomic

if TYPE_CHECKING:
    from frogpbem.protocol.game import Game


def default_state_dir() -> Path:
    """``$FROGPBEM_STATE``, else ``$XDG_STATE_HOME/frogpbem`` (``~/.local/state/frogpbem``)."""
    if os.environ.get("FROGPBEM_STATE"):
        return Path(os.environ["FROGPBEM_STATE"])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "frogpbem"


class HeadMemory:
    """The last head the referee signed, per game."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or default_state_dir()

    def _path(self, game: str) -> Path:
        return self.folder / "heads" / f"{game}.json"

    def _read(self, game: str) -> dict[str, Any] | None:
        path = self._path(game)
        if not path.exists():
            return None
        try:
            memory = json.loads(path.read_text(encoding="utf-8"))
            int(memory["n"]), str(memory["head"]), str(memory["digest"])
        except (OSError, ValueError, KeyError, TypeError):
            raise StaleCopyError(f"referee memory {path} is unreadable; check it by hand") from None
        return memory  # type: ignore[no-any-return]

    def remembered(self, game: str) -> tuple[int, str] | None:
        """How many records were signed for ``game``, and the digest of them all."""
        memory = self._read(game)
        return None if memory is None else (int(memory["n"]), str(memory["digest"]))

    def check(self, game: Game) -> None:
        """Refuse a copy older than, or diverging from, what was signed last."""
        memory = self._read(game.game_id)
        if memory is None:
            return
        n, head = int(memory["n"]), str(memory["head"])
        log = game.file.log
        if len(log) < n:
            raise StaleCopyError(
                f"ends at record {len(log)}, but you already signed record {n} of "
                f"game {game.game_id}: this copy is stale (take its requests with --from)",
                path=game.path,
            )
        if n:
            matches = log[n - 1].hash == head
        else:  # before any record: the header, or the deal that extends it
            matches = head in (game.header.hash, game.file.base_hash)
        if not matches:
            raise StaleCopyError(
                f"diverges from what you signed at record {n} of game {game.game_id}: "
                "refusing to sign a second history", path=game.path,
            )

    def remember(self, game: Game) -> None:
        path = self._path(game.game_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        n = len(game.file.log)
        memory = {"n": n, "head": game.head, "digest": chain.prefix_digest(game.file, n)}
        write_atomic(path, json.dumps(memory).encode())
