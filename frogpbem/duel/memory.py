"""What a seat's tool has seen of each game without a referee: no copy may roll it back or
fork it.

Per game id, in ``$FROGPBEM_HOME/seen/GAME.duel.json`` (mode 0600), a JSON list: the
header's hash, then the hash of every message seen, in order, then (once seen) the
notary's timeout as ``timeout:`` and its hash; beside it ``GAME.duel.yaml``, the latest
copy.
A copy under another header, one whose messages part from those seen (two messages of
one number, both signed: a fork), or one that ends before them (a rollback) is refused;
but for a copy that ends in the notary's timeout (checked by the engine before) where
the messages seen go on with messages of the timed-out seat that the notary never
stamped (its own late ones): the game ended there, and the memory moves to that copy.
Once the memory has seen a timeout, it refuses a copy without it that holds more
messages (a rollback: the other seat cannot strip the timeout and play on); a seat's own
late message, written by its tool (``own``), is remembered with the timeout still seen,
and the notary refuses it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NoReturn

from frogpbem.errors import FileAccessError, ForkError, FrogPbemError, StaleCopyError
from frogpbem.gamefile.document import lock_file, read_bytes, write_atomic
from frogpbem.gamefile.duelfile import DuelFile, Message, dump_duel, parse_duel

TIMEOUT = "timeout:"
"""How the memory's list marks the hash of the notary's timeout seen."""


class DuelMemory:
    """The store, in ``home/seen/``."""

    def __init__(self, home: Path) -> None:
        self.folder = home / "seen"

    def _paths(self, game: str) -> tuple[Path, Path, Path]:
        return (self.folder / f"{game}.duel.json", self.folder / f"{game}.duel.yaml",
                self.folder / f"{game}.duel.lock")

    def _read(self, game: str) -> tuple[str, list[str], str | None] | None:
        path = self._paths(game)[0]
        try:
            value = json.loads(read_bytes(path, 1 << 24))
        except FileAccessError:
            if not os.path.lexists(path):
                return None
            raise
        except ValueError:
            value = None
        if not (isinstance(value, list) and value and all(isinstance(h, str) for h in value)):
            raise StaleCopyError(f"the memory of game {game} at {path} is unreadable; move it "
                                 "away to start afresh")
        timeout = value.pop()[len(TIMEOUT):] if value[-1].startswith(TIMEOUT) else None
        return value[0], value[1:], timeout

    def see(self, file: DuelFile, where: Path, own: bool = False) -> str | None:
        """Refuse ``file`` if it forks from or rolls back what was seen; remember it if it
        is newer (or ends in the notary's timeout, seen here for the first time, or wins a
        crossing: then the words that say the message seen before was void)."""
        json_path, copy_path, lock_path = self._paths(file.game)
        hashes = [message.hash for message in file.messages]
        timeout = file.timeout.hash if file.timeout is not None else None
        note = None
        with lock_file(lock_path):
            seen = self._read(file.game)
            if seen is not None:
                header, known, ended = seen
                if header != file.header.hash:
                    raise ForkError(f"another header of game {file.game} than the one you saw "
                                    "before, both signed by its first seat: refusing it",
                                    path=where)
                for index, (old, new) in enumerate(zip(known, hashes, strict=False)):
                    if old != new:
                        note = _crossing(file, index, _kept(copy_path, known), where)
                        known = hashes  # the crossing won: the kept messages are void
                        break
                if ended is not None and timeout != ended and not own and \
                        (timeout is not None or len(hashes) > len(known)):
                    self._refuse_without(file, known, ended, timeout, where)
                if len(hashes) < len(known) and not self._timed_out(file, known, copy_path):
                    raise StaleCopyError(f"is older than a copy of game {file.game} you saw "
                                         f"before (it ends at message {len(hashes)}, you have "
                                         f"seen message {len(known)}): a rollback; use the "
                                         "latest copy", path=where)
                if len(hashes) == len(known) and timeout in (None, ended) and note is None:
                    return None
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_atomic(copy_path, dump_duel(file), private=True)
            if timeout is None and own and seen is not None:
                timeout = seen[2]  # the seat's own late message: the timeout stays seen
            marks = [f"{TIMEOUT}{timeout}"] if timeout is not None else []
            write_atomic(json_path, json.dumps([file.header.hash, *hashes, *marks]).encode(),
                         private=True)
        return note

    @staticmethod
    def _refuse_without(file: DuelFile, known: list[str], ended: str, timeout: str | None,
                        where: Path) -> NoReturn:
        """Refuse a copy without the notary's timeout seen (``ended``, after the messages
        ``known``): the game ended there, so a copy without it that adds messages rolls
        it back (exit 8); one with another timeout shows the notary signed two (exit 11)."""
        if timeout is None:
            raise StaleCopyError(f"holds no notary's timeout, but the copy of game "
                                 f"{file.game} you saw before ended in one (after message "
                                 f"{len(known)}): a rollback; use the copy with the "
                                 "timeout", path=where)
        raise ForkError(f"FORK: another notary's timeout of game {file.game} than the one "
                        f"you saw before (both signed by the notary; yours {ended[:19]}…): "
                        "refusing it", path=where)

    @staticmethod
    def _timed_out(file: DuelFile, known: list[str], copy_path: Path) -> bool:
        """Whether ``file`` ends in the notary's timeout where the messages seen (``known``,
        as the latest copy kept at ``copy_path`` holds them) go on only with messages of
        the timed-out seat that the notary never stamped: its late ones, which the timeout
        overtook."""
        timeout = file.timeout
        if timeout is None or timeout.n != len(file.messages):
            return False
        try:
            kept = parse_duel(read_bytes(copy_path), str(copy_path))
        except FrogPbemError:
            return False
        late = kept.messages[timeout.n:]
        return [message.hash for message in kept.messages] == known and \
            len(kept.stamps) <= timeout.n and all(m.seat == timeout.seat for m in late)


def _kept(copy_path: Path, known: list[str]) -> DuelFile | None:
    """The latest copy kept, if it holds the messages seen (``None``: unreadable)."""
    try:
        kept = parse_duel(read_bytes(copy_path), str(copy_path))
    except FrogPbemError:
        return None
    return kept if [m.hash for m in kept.messages] == known else None


def _crossing(file: DuelFile, index: int, kept: DuelFile | None, where: Path) -> str:
    """``file``'s message ``index + 1`` differs from the one seen before (in ``kept``):
    two messages of one number signed by one seat are a fork (raised); signed by the two
    seats, they crossed (a resignation sent while the other seat moved, or two reveals
    after the end), and one wins, the same for both tools (docs/format.md, "The file
    without a referee"): with a notary, the message it stamped; else a resignation over
    a move; else the first seat's. Returns the words for a winning ``file``; raises
    StaleCopyError (exit 8) for a losing one."""
    mine = file.messages[index]
    n = mine.n
    if kept is None or len(kept.messages) <= index:
        raise ForkError(f"FORK: message {n} differs from the message {n} you saw before, "
                        f"signed by {mine.seat}: refusing it", path=where)
    old = kept.messages[index]
    if old.seat == mine.seat:
        raise ForkError(f"FORK: message {n} differs from the message {n} you saw before, "
                        f"both signed by {mine.seat}: refusing it", path=where)
    stamped = (len(file.stamps) > index, len(kept.stamps) > index)
    if file.header.notary is not None and any(stamped):
        if all(stamped):
            raise ForkError(f"FORK: the notary stamped two messages {n} of game {file.game} "
                            f"({old.seat}'s and {mine.seat}'s): refusing it", path=where)
        wins, why = stamped[0], "the notary stamped it"
    elif bool(mine.resign) != bool(old.resign):
        wins, why = bool(mine.resign), "a resignation is valid whenever it arrives"
    else:  # two resignations, or two reveals after the end: the first seat's
        first = file.header.seat_names[0]
        wins, why = mine.seat == first, f"of two crossing, {first}'s counts"
    if not wins:
        raise StaleCopyError(f"its message {n} ({_what(mine)}) crossed {old.seat}'s message "
                             f"{n} ({_what(old)}) you saw before, which wins ({why}): this "
                             f"copy's message {n} is void; use the copy with "
                             f"{old.seat}'s", path=where)
    again = f"; to resign still, send a resignation as message {n + 1} (frogpbem move " \
        "GAME resign)" if old.resign and not mine.resign else \
        f"; {old.seat}'s reveal goes again as message {n + 1} (frogpbem move GAME)" \
        if old.reveal is not None and mine.reveal is not None else ""
    return (f"message {n} you saw before ({old.seat}'s {_what(old)}) is void: "
            f"{mine.seat}'s {_what(mine)} crossed it as message {n} and wins ({why})"
            f"{again}")


def _what(message: Message) -> str:
    return "resignation" if message.resign else f"move {message.move}" if message.move \
        else "message"
