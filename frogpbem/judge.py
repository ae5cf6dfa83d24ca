"""The judge: the referee as a service for every game of one mailbox.

Each round it takes the messages waiting in the mailbox (IMAP, or a Maildir),
takes their signed requests into its own copies ``GAMES/ID.yaml`` and applies
them, files each message (never deletes it), answers an unusable one with the
reason, and then mails every seat of every game whose head moved since it
last mailed. The order makes a crash harmless: a message is filed only after
the game file is written, so one that is taken again finds its requests
applied already; mail follows the game file's head, so a result is mailed
after a crash as it would have been, and never two results for one record.
"""

from __future__ import annotations

import email.policy
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.utils import parseaddr
from pathlib import Path
from typing import Protocol
from urllib.parse import unquote, urlsplit

from frogpbem import crypto, invite
from frogpbem.errors import FileAccessError, FrogPbemError, NothingToApplyError, UsageError
from frogpbem.gamefile import jsontext
from frogpbem.gamefile.document import locked, parse_game, read_bytes, write_atomic
from frogpbem.gamefile.model import GameFile
from frogpbem.mail import letters, send_letters, send_messages
from frogpbem.protocol.game import (
    REFEREE,
    Game,
    clock_words,
    deadline_of,
    known_secrets,
    load,
    now_text,
    replay,
    seconds_of,
)
from frogpbem.protocol.memory import HeadMemory
from frogpbem.receive import (
    MAX_MESSAGE,
    contents,
    game_files,
    header_text,
    messages_in,
    subject,
    take_found,
)
from frogpbem.referee import apply_timeout

DONE = "frogpbem-done"
REFUSED = "frogpbem-refused"


@dataclass
class Incoming:
    """A message waiting in the mailbox."""

    ident: str
    """How the mailbox names it (an IMAP UID, a Maildir file name)."""
    data: bytes


class Mailbox(Protocol):
    def waiting(self) -> list[Incoming]: ...

    def file(self, message: Incoming, folder: str) -> None: ...

    def wait(self, seconds: float) -> None: ...

    def close(self) -> None: ...


class MaildirBox:
    """A Maildir: messages in ``new/`` and ``cur/``; filed into ``.FOLDER`` sub-maildirs."""

    def __init__(self, path: Path) -> None:
        self.path = path
        for sub in ("new", "cur", "tmp"):
            if not (path / sub).is_dir():
                raise FileAccessError("is not a Maildir (no new/, cur/ and tmp/)", path=path)

    def waiting(self) -> list[Incoming]:
        found = []
        for sub in ("new", "cur"):
            for entry in sorted((self.path / sub).iterdir()):
                if entry.is_file():
                    found.append(Incoming(f"{sub}/{entry.name}", read_bytes(entry, 1 << 24)))
        return found

    def file(self, message: Incoming, folder: str) -> None:
        target = self.path / f".{folder}"
        for sub in ("new", "cur", "tmp"):
            (target / sub).mkdir(parents=True, exist_ok=True)
        name = message.ident.split("/", 1)[1]
        os.replace(self.path / message.ident, target / "cur" / name)

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)

    def close(self) -> None:
        return None


class ImapBox:
    """An IMAP mailbox: INBOX holds what waits; filed messages are moved to folders."""

    def __init__(self, url: str, password: str | None) -> None:
        from imapclient import IMAPClient

        parts = urlsplit(url)
        if parts.scheme not in ("imap", "imaps") or not parts.hostname or not parts.username:
            raise UsageError(f"--imap {url!r}: give imap://USER@HOST[:PORT] or imaps://…")
        if parts.password:
            raise UsageError("no password in --imap: set FROGPBEM_IMAP_PASSWORD")
        secure = parts.scheme == "imaps"
        try:
            self.client = IMAPClient(parts.hostname, port=parts.port or (993 if secure else 143),
                                     ssl=secure, timeout=60)
            if not secure and b"STARTTLS" in self.client.capabilities():
                self.client.starttls()
            self.client.login(unquote(parts.username), password or "")
            self.client.select_folder("INBOX")
        except (OSError, Exception) as exc:  # imapclient raises its own error classes
            raise FileAccessError(f"cannot use the mailbox at {parts.hostname}: {exc}") \
                from None
        self.idle = b"IDLE" in self.client.capabilities()

    def waiting(self) -> list[Incoming]:
        self.client.noop()  # a long-lived session learns of new mail on its next command
        uids = self.client.search(["ALL"])
        fetched = self.client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
        return [Incoming(str(uid), bytes(fetched[uid][b"BODY[]"])) for uid in sorted(fetched)]

    def file(self, message: Incoming, folder: str) -> None:
        if not self.client.folder_exists(folder):
            self.client.create_folder(folder)
        uid = int(message.ident)
        if b"MOVE" in self.client.capabilities():
            self.client.move([uid], folder)
        else:
            self.client.copy([uid], folder)
            self.client.delete_messages([uid])
            self.client.expunge()

    def wait(self, seconds: float) -> None:
        if not self.idle:
            time.sleep(seconds)
            return
        self.client.idle()
        try:
            self.client.idle_check(timeout=seconds)
        finally:
            self.client.idle_done()

    def close(self) -> None:
        try:
            self.client.logout()
        except Exception:  # noqa: BLE001 - a closing connection has nothing left to say
            pass


@dataclass
class Judge:
    """One judge: its games folder, its key, its mailbox and its way out (SMTP)."""

    games: Path
    key: crypto.PrivateKey
    box: Mailbox
    smtp: str
    address: str = "frogpbem-judge@localhost"
    """The judge's own address: the sender of its answers."""
    state_dir: Path | None = None
    config: Path | None = None
    _clocks: dict[Path, tuple[str, tuple[str, str, int, int] | None]] = \
        field(default_factory=dict)
    """Each game file's hash and what its clock said then (see :meth:`deadlines`)."""
    _said: set[str] = field(default_factory=set)
    """What was said of files the judge cannot use (each said once)."""

    def round(self) -> list[str]:
        """Finish a write a stopped round left undone, take every waiting message, apply
        deadlines, then mail what changed."""
        log = self.finish_writes()
        for message in self.box.waiting():
            log.append(self.take(message))
        log += self.deadlines()
        log += self.mail_changes()
        return log

    def finish_writes(self) -> list[str]:
        """Each game file that a round stopped (killed) between keeping what it signed and
        writing it is written now, as it would have been (:meth:`HeadMemory.finish`): the
        move it holds is mailed by this round, and the message that asked for it, still
        waiting, is found taken already."""
        memory = HeadMemory(self.state_dir)
        return [f"{path.name}: finished writing what the last round signed"
                for path in game_files(self.games) if memory.finish(path)]

    def deadlines(self) -> list[str]:
        """Remind a seat once before its deadline; record its forfeit (or passed turn) once
        it has passed.

        A game file unchanged since the last round is not read again until its
        clock calls for a reminder or a timeout (what its clock says is kept by
        the file's hash).
        """
        log = []
        now = seconds_of(now_text())
        for path in game_files(self.games):
            try:
                log += self._deadline(path, now)
            except FrogPbemError as exc:
                log += self._skipped(path, exc)
        return log

    def _deadline(self, path: Path, now: int) -> list[str]:
        data = read_bytes(path)
        digest = crypto.sha256(data).hex()
        known = self._clocks.get(path)
        if known is None or known[0] != digest:  # read only a file that changed
            known = self._clocks[path] = (digest, self._clock_of(path, parse_game(data, str(path))))
        clock = known[1]
        if clock is None:
            return []  # no clock runs (no deadline, paused or over)
        game_id, head, until, seconds = clock
        mark = self.games / ".reminded" / f"{game_id}.json"
        if now < until and (now < until - seconds // 4 or _marked(mark) == head):
            return []  # not due, and not yet time for the reminder (or reminded)
        with locked(path):
            game = load(path, HeadMemory(self.state_dir))
            state = replay(game, known_secrets(game, REFEREE, self.key), self.key).final
            due = deadline_of(game, state)
            if due is None or game.head != head:
                return []  # changed under our feet: the next round looks again
            seat, until = due
            if now >= until:
                applied = apply_timeout(game, self.key, HeadMemory(self.state_dir))
                return [f"game {game.game_id}: " + "; ".join(applied.lines)]
            self._remind(game, seat, clock_words(game, state))
            _mark(mark, game.head)
            return [f"game {game.game_id}: reminded {seat} of its deadline"]

    def _skipped(self, path: Path, exc: FrogPbemError) -> list[str]:
        """A file of the games folder the judge cannot use: said once, then left alone
        (it is looked at again every round, and used once it is right)."""
        said = f"{path.name}: skipped: {exc.message}"
        if said in self._said:
            return []
        self._said.add(said)
        return [said]

    def _clock_of(self, path: Path, file: GameFile) -> tuple[str, str, int, int] | None:
        """A game's running clock: its id, head, when the time runs out and the time a move
        has; ``None`` without one."""
        deadline = file.header.deadline
        if deadline is None or file.reveal is not None or file.undealt:
            return None  # not worth checking and replaying the game (none runs before the deal)
        with locked(path):
            game = load(path, HeadMemory(self.state_dir))
            state = replay(game, known_secrets(game, REFEREE, self.key), self.key).final
        due = deadline_of(game, state)
        return None if due is None else (game.game_id, game.head, due[1], deadline.seconds)

    def _remind(self, game: Game, seat: str, words: str) -> None:
        party = next(p for p in game.header.seats if p.seat == seat)
        if not party.email:
            return
        reminder = EmailMessage()
        reminder["From"] = self.address
        reminder["To"] = party.email
        reminder["Subject"] = f"[frogpbem {game.game_id}] reminder: your move ({seat})"
        reminder.set_content(f"It is your move ({seat}) in game {game.game_id}. {words}\n")
        send_messages([reminder], self.smtp, self.config)

    def take(self, message: Incoming) -> str:
        if len(message.data) > MAX_MESSAGE:  # not read: only its headers, to answer it
            parsed: list[Message] = [
                BytesHeaderParser(policy=email.policy.default).parsebytes(message.data)]
            said, usable = f"refused: larger than {MAX_MESSAGE // (1024 * 1024)} MiB", False
        else:
            parsed = messages_in(message.data)
            said, usable = self._taken(parsed)
        if usable:
            self.box.file(message, DONE)
        else:
            try:
                self._answer(parsed, said)
            except FileAccessError as exc:  # the mail server is away: answered next round
                return (f"message {message.ident} ({subject(parsed)!r}): {said}; not "
                        f"answered ({exc.message}): it waits for the next round")
            self.box.file(message, REFUSED)
        return f"message {message.ident} ({subject(parsed)!r}): {said}"

    def _taken(self, parsed: list[Message]) -> tuple[str, bool]:
        """What taking one message's contents did, and whether the message was of use."""
        try:
            said = take_found(contents(*parsed), self.games, self.key, self.state_dir,
                              keep_new=False)
        except NothingToApplyError:  # taken before (a crash came before it was filed)
            return "taken already: nothing new in it", True
        except FrogPbemError as exc:
            return f"refused: {exc.message}", False
        return said, not said.startswith("nothing taken")

    def _answer(self, parsed: list[Message], reason: str) -> None:
        """Tell the sender why its message was not used (nothing hidden is in the reason)."""
        sender = parseaddr(header_text(parsed[0], "from"))[1] if parsed else ""
        if not sender:
            return
        reply = EmailMessage()
        reply["From"] = self.address
        reply["To"] = sender
        reply["Subject"] = "[frogpbem] your message was not used"
        reply.set_content(f"The judge could not use your message:\n\n  {reason}\n\n"
                          "Answer with the game file attached, or with the request block "
                          "that frogpbem move prints.\n")
        send_messages([reply], self.smtp, self.config)

    def mail_changes(self) -> list[str]:
        """Mail every seat of every game whose head moved since it was last mailed.

        A game file unchanged since the last round that mailed it is not even read
        again (its bytes' hash is kept in ``.mailed/``).
        """
        log = []
        for path in game_files(self.games):
            try:
                log += self._mail(path)
            except FrogPbemError as exc:
                log += self._skipped(path, exc)
        return log

    def _mail(self, path: Path) -> list[str]:
        mailed_dir = self.games / ".mailed"
        data = read_bytes(path)
        digest = crypto.sha256(data).hex()
        quick = mailed_dir / f"{path.name}.sha256"
        if quick.exists() and read_bytes(quick) == digest.encode():
            return []  # unchanged since it was mailed: not even read
        game = load(path, HeadMemory(self.state_dir), parsed=parse_game(data, str(path)))
        mark = mailed_dir / f"{game.game_id}.json"
        log = []
        if game.undealt:  # the seats join first: invitations, not records (frogpbem/invite.py)
            found, joined = invite.due(game, self.key, _marked(mark), self.address)
            if found:
                sent = send_letters(found, self.smtp, self.config)
                log.append(f"game {game.game_id}: waiting for {', '.join(game.waiting_for)} "
                           f"to join: mailed {', '.join(sent)}")
            _mark(mark, joined)
        elif _marked(mark) != game.head:
            sent = send_letters(letters(game, self.key, sender=self.address), self.smtp,
                                self.config)
            _mark(mark, game.head)
            log.append(f"game {game.game_id}: mailed record {len(game.file.log)} to "
                       f"{', '.join(sent)}")
        mailed_dir.mkdir(exist_ok=True)
        write_atomic(quick, digest.encode(), durable=False)  # after the mail went out
        return log


def _mark(mark: Path, head: str) -> None:
    """Mark ``head`` as mailed, or as reminded of (read back by :func:`_marked`)."""
    mark.parent.mkdir(exist_ok=True)
    write_atomic(mark, json.dumps(head).encode())


def _marked(mark: Path) -> str | None:
    """The head named by one of the judge's marks (the record it last mailed, or reminded a
    seat of), or ``None`` when there is none. A damaged mark names nothing: the judge then
    mails (or reminds) once more and writes the mark anew, rather than stop every round."""
    if not mark.exists():
        return None
    try:
        head = jsontext.loads(read_bytes(mark))
    except ValueError:  # not JSON, or not UTF-8
        return None
    return head if isinstance(head, str) else None


def run(judge: Judge, once: bool, every: float = 30.0) -> Iterator[str]:
    """Rounds until stopped (or one with ``once``), each message's line as it comes."""
    try:
        while True:
            yield from judge.round()
            if once:
                return
            judge.box.wait(every)
    finally:
        judge.box.close()
