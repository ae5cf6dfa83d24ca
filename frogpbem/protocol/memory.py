"""The referee's memory of what it signed, per game, so it never extends an older copy.

Per game id: ``heads/GAME.json`` (how many records, the head, a digest of
them), ``heads/GAME.yaml`` (the latest copy signed) and ``heads/GAME.lock``.
A command holds the lock from :meth:`HeadMemory.check` to its last write, and
writes the memory before the game file is renamed into place: a command
killed in between leaves the memory ahead of the file, and the signed copy is
kept, so nothing is lost and no second history can be signed.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from frogpbem.errors import FileAccessError, FrogPbemError, StaleCopyError
from frogpbem.gamefile import chain, jsontext
from frogpbem.gamefile.document import (
    Later,
    game_id_of,
    lock_file,
    locked,
    parse_game,
    read_bytes,
    write_atomic,
)
from frogpbem.gamefile.model import hash_of
from frogpbem.protocol.seen import LoadedGame


class HeadMemory:
    """The last head the referee signed, per game, in ``folder`` (the state folder of a
    :class:`~frogpbem.protocol.session.Session`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, game: str, suffix: str = ".json") -> Path:
        return self.folder / "heads" / f"{game}{suffix}"

    @contextlib.contextmanager
    def holding(self, game: str) -> Iterator[None]:
        """Hold game ``game``'s lock: one command at a time checks, signs and writes it."""
        with lock_file(self._path(game, ".lock")):
            yield

    def _read(self, game: str) -> dict[str, Any] | None:
        path = self._path(game)
        try:
            memory = jsontext.loads(read_bytes(path, 1 << 16))
            int(memory["n"]), str(memory["head"]), str(memory["digest"])
        except FileAccessError:
            if not os.path.lexists(path):
                return None
            raise StaleCopyError(f"referee memory {path} is unreadable; check it by hand") \
                from None
        except (ValueError, KeyError, TypeError):
            raise StaleCopyError(f"referee memory {path} is unreadable; check it by hand") from None
        return memory  # type: ignore[no-any-return]

    def remembered(self, game: str) -> tuple[int, str] | None:
        """How many records were signed for ``game``, and the digest of them all."""
        memory = self._read(game)
        return None if memory is None else (int(memory["n"]), str(memory["digest"]))

    def check(self, game: LoadedGame) -> None:
        """Refuse a copy older than, or diverging from, what was signed last."""
        memory = self._read(game.game_id)
        if memory is None:
            return
        n, head = int(memory["n"]), str(memory["head"])
        log = game.file.log
        kept = self._path(game.game_id, ".yaml")
        if len(log) < n:
            raise StaleCopyError(
                f"ends at record {len(log)}, but you already signed record {n} of "
                f"game {game.game_id}: this copy is stale (take its requests with --from; "
                f"the latest copy you signed is kept in {kept})",
                path=game.path,
            )
        if n:
            matches = log[n - 1].hash == head
        else:  # before any record: the header, or the deal that extends it
            matches = head in (game.header.hash, game.file.base_hash)
        if not matches and n == 0 and game.undealt:
            raise StaleCopyError(
                f"is from before the deal, but you dealt game {game.game_id} already: refusing "
                f"to deal twice (the copy you dealt is kept in {kept})", path=game.path)
        if not matches:
            raise StaleCopyError(
                f"diverges from what you signed at record {n} of game {game.game_id}: "
                f"refusing to sign a second history (the latest copy you signed is kept in "
                f"{kept})", path=game.path,
            )

    def finish(self, path: Path) -> bool:
        """Write into ``path`` the copy signed last, if a command was stopped after keeping
        it and before writing the game file (as SIGKILL or a power cut may stop one).

        That is so when the memory is ahead of the file and the kept copy is exactly
        what the memory says was signed (its records, hashes and signatures, by their
        digest), and the file's history is a strict beginning of the copy's: the same
        header, deal and records, fewer of them. Then nothing the file holds is lost,
        and the file becomes what the stopped command would have written. Anything else
        is left as it is (the next command refuses it and says why). Whether it wrote.

        The judge does this before each round: it alone writes its games folder, and a
        move it signed is then mailed instead of a refusal. A person's ``move`` does not:
        it refuses and names the kept copy, for them to look at.
        """
        try:
            with locked(path):
                written = read_bytes(path)
                game = game_id_of(written) or parse_game(written, str(path)).game
                with self.holding(game):
                    memory = self._read(game)
                    kept_path = self._path(game, ".yaml")
                    if memory is None:
                        return False
                    data = read_bytes(kept_path)
                    if data == written:  # nearly always: the file is the copy signed last,
                        return False     # not parsed (the judge asks at every round)
                    file = parse_game(written, str(path))
                    if file.game != game or memory["head"] == file.head:
                        return False
                    kept = parse_game(data, str(kept_path))
                    n = int(memory["n"])
                    signed = (len(kept.log), kept.head, chain.prefix_digest(kept, n)) == \
                        (n, memory["head"], memory["digest"])
                    ours, theirs = list(map(hash_of, kept.history)), \
                        list(map(hash_of, file.history))
                    if not signed or kept.header.hash != file.header.hash or \
                            len(theirs) >= len(ours) or ours[:len(theirs)] != theirs:
                        return False
                    write_atomic(path, data)
                    return True
        except FrogPbemError:
            return False

    def remember(self, game: LoadedGame, data: bytes | Later) -> None:
        """Remember ``game`` as signed, ``data`` being the file about to be written.

        Call it holding the lock, before the game file is renamed into place.
        """
        path = self._path(game.game_id)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        n = len(game.file.log)
        memory = {"n": n, "head": game.head, "digest": chain.prefix_digest(game.file, n)}
        write_atomic(self._path(game.game_id, ".yaml"), data, private=True)
        write_atomic(path, json.dumps(memory).encode(), private=True)
