"""What this user's tool has seen of each game, so no copy can roll it back or fork it.

Per game id the store keeps the header's hash, the hash of every element of
the history seen so far (deal, records, reveal), and the latest copy itself.
A copy under another header, one that parts from what was seen, or one older
than it is refused: a fork (two histories signed by the referee) with a proof
anyone can check, a rollback with a plain refusal.

It also keeps this tool's own clock readings: when it first saw each element,
and when it signed each of its requests. The referee's times are checked
against them (:func:`~frogpbem.protocol.times.check_observed`): a deadline
forged forward or back is refused by the seat it would forfeit.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from frogpbem.errors import FileAccessError, ForkError, FrogPbemError, StaleCopyError
from frogpbem.frozen import frozen
from frogpbem.gamefile import jsontext
from frogpbem.gamefile.document import (
    Later,
    game_bytes,
    held,
    lock_file,
    made,
    parse_game,
    read_bytes,
    write_atomic,
)
from frogpbem.gamefile.forkproof import ForkProof, conflict
from frogpbem.gamefile.model import GameFile, Header, keep_recent
from frogpbem.protocol.times import Clock, check_observed, late_timeouts, signature_mark

MARK_SIZE = 88
"""The length of a :func:`~frogpbem.protocol.game.signature_mark`: 64 bytes in base64."""


class LoadedGame(Protocol):
    """A game loaded and checked (:class:`frogpbem.protocol.game.Game`), as the stores read
    it."""

    @property
    def path(self) -> Path: ...

    @property
    def file(self) -> GameFile: ...

    @property
    def header(self) -> Header: ...

    @property
    def game_id(self) -> str: ...

    @property
    def head(self) -> str: ...

    @property
    def undealt(self) -> bool: ...


@frozen
class Seen:
    """What was seen of one game: the header's hash and the history's hashes."""

    header: str
    history: tuple[str, ...]
    records: int = 0
    """How many records the copy had (for messages)."""
    first_seen: tuple[str, ...] = ()
    """When this tool first saw each element of ``history`` (``""``: before it kept times;
    a memory written by an older frogpbem has none)."""
    signed: tuple[tuple[str, str], ...] = ()
    """Each request, join or setup this tool signed in the game, by its
    :func:`~frogpbem.protocol.game.signature_mark` (not its text), and when it was first
    signed (the same move signed again has the same mark: the earliest time is kept)."""
    requests: tuple[tuple[int, str, str], ...] = ()
    """Each move this tool signed: the record it asked to become, the seat, and when it was
    first signed (to warn of a timeout recorded instead:
    :func:`~frogpbem.protocol.times.late_timeouts`)."""

    def to_json(self) -> dict[str, Any]:
        return {"header": self.header, "history": list(self.history), "records": self.records,
                "first_seen": list(self.first_seen), "signed": dict(self.signed),
                "requests": [list(r) for r in self.requests]}

    @classmethod
    def from_json(cls, value: Any) -> Seen:
        """A memory as written; ``first_seen`` and ``signed`` may be missing (older ones), and
        an older one keeps signatures by their text (read here by their marks)."""
        first = tuple(str(t) for t in value.get("first_seen", ()))
        signed: dict[str, str] = {}
        for text, at in value.get("signed", {}).items():
            # a mark already (88 characters of 64 bytes) is its own mark: spared the decoding
            mark = text if len(text) == MARK_SIZE and text.endswith("==") \
                else signature_mark(str(text))
            signed[mark] = min(signed.get(mark, str(at)), str(at))
        requests = tuple((int(n), str(seat), str(at))
                         for n, seat, at in value.get("requests", ()))
        return cls(str(value["header"]), tuple(str(h) for h in value["history"]),
                   int(value.get("records", 0)), first[:len(value["history"])],
                   tuple(signed.items()), requests)

    def seen_at(self) -> tuple[str, ...]:
        """``first_seen`` for every element of ``history`` (``""`` where it is not known)."""
        return self.first_seen + ("",) * (len(self.history) - len(self.first_seen))

    def same(self, other: Seen) -> bool:
        return (self.header, self.history) == (other.header, other.history)


KNOWN_MEMORIES = 4
"""How many memories a store knows at once (a game's, and a few more)."""


class SeenGames:
    """The store: ``seen/GAME.json`` (hashes) and ``seen/GAME.yaml`` (the latest copy), in
    ``folder`` (the home folder of a :class:`~frogpbem.protocol.session.Session`); ``clock``
    dates what this tool sees and signs."""

    def __init__(self, folder: Path, clock: Clock) -> None:
        self.folder = folder
        self.clock = clock
        self.known: OrderedDict[Path, tuple[bytes | Later, Seen]] = OrderedDict()
        """The memories read or written last, by path, with their bytes: the same bytes
        read again are not parsed again (the demonstration's players see every record)."""

    def _paths(self, game: str) -> tuple[Path, Path, Path]:
        base = self.folder / "seen"
        return base / f"{game}.json", base / f"{game}.yaml", base / f"{game}.lock"

    def _read(self, game: str) -> Seen | None:
        path = self._paths(game)[0]
        known = self.known.get(path)
        if known is not None and known[0] is held(path):  # written last, and not made yet
            return known[1]
        try:
            data = read_bytes(path, 1 << 24)
            if known is not None and made(known[0]) == data:  # written here: made already
                return known[1]
            seen = Seen.from_json(jsontext.loads(data))
        except FileAccessError:
            if not os.path.lexists(path):
                return None
            raise
        except (ValueError, KeyError, TypeError, AttributeError):  # a shape not written here
            raise StaleCopyError(f"the memory of game {game} at {path} is unreadable; "
                                 "move it away to start afresh") from None
        keep_recent(self.known, path, (data, seen), KNOWN_MEMORIES)
        return seen

    def see(self, game: LoadedGame) -> list[str]:
        """Refuse a copy that forks from or rolls back what was seen; remember a newer one,
        with when each new element was first seen (by the store's clock); then refuse it
        if its times do not fit those readings (:func:`~frogpbem.protocol.times.check_observed`).

        A copy refused for its times is remembered all the same: it is what the referee
        signed, and a time forged forward stays refused once that time has come. Returns
        warnings for the user that prove nothing to anyone else
        (:func:`~frogpbem.protocol.times.late_timeouts`).
        """
        file = game.file
        json_path, copy_path, lock_path = self._paths(file.game)
        with lock_file(lock_path):
            seen = self._read(file.game)
            now = Seen(file.header.hash, file.history_hashes(), len(file.log))
            if seen is not None and seen.same(now):
                now = seen
            else:
                if seen is not None and not (seen.header == now.header and
                                             now.history[:len(seen.history)] == seen.history):
                    self._refuse(game, seen, now)
                known = seen.seen_at() if seen is not None else ()
                now = replace(now, first_seen=known + (self.clock.text(),) * (
                    len(now.history) - len(known)), signed=seen.signed if seen else (),
                    requests=seen.requests if seen else ())
                self._write(file.game, now, game_bytes(file))
        try:
            check_observed(file, now.seen_at(), dict(now.signed))
        except FrogPbemError as exc:
            raise exc.within(path=game.path) from None
        return late_timeouts(file, now.requests)

    def signed(self, game: LoadedGame, signature: str,
               request: tuple[int, str] | None = None) -> None:
        """Remember that this tool signed a request, join or setup (``signature``) in
        ``game`` now, by what it signed: a signature already known keeps its first time
        (signing the same move again must not make its record look dated back). A move's
        ``request`` (the record it asks to become, and the seat) is kept too."""
        json_path, _, lock_path = self._paths(game.game_id)
        with lock_file(lock_path):
            seen = self._read(game.game_id)
            mark, now = signature_mark(signature), self.clock.text()
            if seen is None:
                return
            signed, requests = seen.signed, seen.requests
            if mark not in dict(signed):
                signed = (*signed, (mark, now))
            if request is not None and all(r[:2] != request for r in requests):
                requests = (*requests, (*request, now))
            if (signed, requests) != (seen.signed, seen.requests):
                self._write(game.game_id, replace(seen, signed=signed, requests=requests), None)

    def _write(self, game: str, seen: Seen, copy: bytes | Later | None) -> None:
        """Write the memory (and the latest copy, when it changed)."""
        json_path, copy_path, _ = self._paths(game)
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if copy is not None:
            write_atomic(copy_path, copy, private=True)
        data = Later(lambda: json.dumps(seen.to_json()).encode())
        write_atomic(json_path, data, private=True)
        keep_recent(self.known, json_path, (data, seen), KNOWN_MEMORIES)

    def _refuse(self, game: LoadedGame, seen: Seen, now: Seen) -> None:
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
