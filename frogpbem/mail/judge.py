"""The judge: the referee as a service for every game of one mailbox.

Each round it takes the messages waiting in the mailbox (IMAP, or a Maildir),
takes their signed requests into its own copies ``GAMES/ID.yaml`` and applies
them, files each message (never deletes it), answers an unusable one with the
reason, and then mails every seat of every game whose head moved since it
last mailed. The order makes a crash harmless: a message is filed only after
the game file is written, so one that is taken again finds its requests
applied already; mail follows the game file's head, so a result is mailed
after a crash as it would have been, and never two results for one record.

It is a good citizen of mail (see :mod:`frogpbem.mail.answers`): automatic mail is
filed unanswered, each person's unusable message is answered once, an address
the mail server refuses for good is reported to the referee once and then left
alone, and a server that is away is tried again later and later.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import glob
import ipaddress
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import EmailMessage, Message
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import unquote, urlsplit

from frogpbem import crypto
from frogpbem.errors import (
    FileAccessError,
    FolderBusyError,
    FrogPbemError,
    KeyError_,
    NothingToApplyError,
    UnknownGameError,
    UsageError,
)
from frogpbem.gamefile.document import locked, parse_game, read_bytes, write_atomic
from frogpbem.gamefile.duelfile import is_duel
from frogpbem.gamefile.model import GameFile
from frogpbem.mail import invite
from frogpbem.mail.answers import (
    JUDGE_NAME,
    NEXT_STEP,
    Entry,
    Journal,
    Own,
    Unused,
    answer,
    automatic,
    digest_of,
    games_named,
    notice,
    unanswered,
    unused_for,
    unused_nothing,
)
from frogpbem.mail.compose import Refusal, letters, recipients
from frogpbem.mail.contact import header_addresses
from frogpbem.mail.headers import address, domain_of, stamp
from frogpbem.mail.marks import Backoff, KnownClock, Mailed, Marks, RunningClock, check
from frogpbem.mail.notary import Notary, duel_copies
from frogpbem.mail.outbox import Outbox
from frogpbem.mail.receive import (
    MAX_MESSAGE,
    Taken,
    contents,
    game_file,
    game_files,
    headers_only,
    messages_in,
    subject,
    take_found,
)
from frogpbem.protocol.game import (
    REFEREE,
    Game,
    clock_words,
    deadline_of,
    known_secrets,
    load,
    replay,
)
from frogpbem.protocol.session import Session
from frogpbem.referee import apply_timeout
from frogpbem.safetext import safe

if TYPE_CHECKING:
    from frogpbem.gamefile.tournament import Player, Round, TournamentFile, TournamentHeader

DONE = "frogpbem-done"
REFUSED = "frogpbem-refused"
AUTOMATIC = "frogpbem-automatic"
"""Where bounces, autoresponders' and lists' mail and the judge's own are filed, unanswered."""
BACKOFF = (60, 3600)
"""Seconds before mailing a game again after the server failed for a while: the first
wait, doubled at each failure up to the second."""


class Vanished(Exception):
    """A waiting message that is gone from the mailbox (a mail program took it)."""


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
                with contextlib.suppress(Vanished):  # taken by a mail program meanwhile
                    if entry.is_file():
                        found.append(Incoming(f"{sub}/{entry.name}", _head(entry)))
        return found

    def file(self, message: Incoming, folder: str) -> None:
        """Move the message into ``folder``; :class:`Vanished` when it is no longer there.

        A mail program reading the same Maildir moves a message from ``new/`` to ``cur/``
        and adds flags to its name (``NAME:2,S``): it is found by the part before ``:``.
        """
        target = self.path / f".{folder}"
        for sub in ("new", "cur", "tmp"):
            (target / sub).mkdir(parents=True, exist_ok=True)
        unique = message.ident.split("/", 1)[1].partition(":")[0]
        for source in (self.path / message.ident,
                       *sorted((self.path / "cur").glob(f"{glob.escape(unique)}:*")),
                       self.path / "cur" / unique):
            with contextlib.suppress(FileNotFoundError):
                os.replace(source, target / "cur" / source.name)
                return
        raise Vanished(message.ident)

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)

    def close(self) -> None:
        return None


class ImapBox:
    """An IMAP mailbox: INBOX holds what waits; filed messages are moved to folders."""

    def __init__(self, url: str, password: str | None, insecure_loopback: bool = False) -> None:
        """Log in over TLS: ``imaps://``, or ``imap://`` with STARTTLS. A server on this
        machine (127.0.0.0/8, ::1) may be used without TLS with ``insecure_loopback``."""
        from imapclient import IMAPClient

        parts = urlsplit(url)
        if parts.password:
            raise UsageError("no password in --imap: set FROGPBEM_IMAP_PASSWORD")
        if parts.scheme not in ("imap", "imaps") or not parts.hostname or not parts.username:
            raise UsageError(f"--imap {url!r}: give imap://USER@HOST[:PORT] or imaps://…")
        secure = parts.scheme == "imaps"
        if insecure_loopback and not _loopback(parts.hostname):
            raise UsageError(f"--imap-insecure-loopback is for a server on this machine "
                             f"(127.0.0.0/8 or ::1), not {parts.hostname!r}")
        try:
            self.client = IMAPClient(parts.hostname, port=parts.port or (993 if secure else 143),
                                     ssl=secure, timeout=60)
            if not secure and b"STARTTLS" in self.client.capabilities():
                self.client.starttls()
            elif not secure and not insecure_loopback:
                self.client.logout()
                raise UsageError(f"the mailbox at {parts.hostname} offers no STARTTLS: not "
                                 "sending the password in the clear (use imaps://, or "
                                 "--imap-insecure-loopback for a server on this machine)")
            self.client.login(unquote(parts.username), password or "")
            self.client.select_folder("INBOX")
        except UsageError:
            raise
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


@dataclass(frozen=True)
class Took:
    """What the judge did with one waiting message (its line in the round's log)."""

    ident: str
    """How the mailbox names the message."""
    subject: str
    """Its subject, shortened."""
    said: str
    """What was done, in words."""
    filed: str | None
    """The folder it was filed in (:data:`DONE`, :data:`REFUSED`, :data:`AUTOMATIC`);
    ``None``: it waits in the mailbox for a later round (its answer could not go)."""
    taken: Taken | None = None
    """What its contents did to the games, when they were taken now."""
    unused: Unused | None = None
    """Why it was of no use, when it was not."""

    def __str__(self) -> str:
        return f"message {self.ident} ({self.subject!r}): {self.said}"


@dataclass
class Judge:
    """One judge: its games folder, its key, its mailbox and its way out (an outbox)."""

    games: Path
    key: crypto.PrivateKey
    box: Mailbox
    outbox: Outbox
    session: Session
    """The judge's clock and stores (the referee's memory of what it signed among them),
    made by the command that runs it and passed down."""
    address: str = "frogpbem-judge@localhost"
    """The judge's own address: the sender of its answers."""
    _clocks: dict[Path, KnownClock] = field(default_factory=dict)
    """What each game file's clock said, by the file (see :meth:`deadlines`)."""
    _said: set[str] = field(default_factory=set)
    """What was said of files the judge cannot use (each said once)."""
    tournaments: tuple[Path, ...] = ()
    """The tournament files whose rounds the judge pairs (its key is their director's)."""
    _revealed: set[str] = field(default_factory=set)
    """The hashes of game files seen to hold a reveal (a game over stays over)."""

    def round(self) -> list[str]:
        """One round's log (see :meth:`steps`)."""
        return list(self.steps())

    def steps(self) -> Iterator[str]:
        """Finish a write a stopped round left undone, take every waiting message, apply
        deadlines, pair the tournaments' rounds, then mail what changed (a round's new
        games among it); each log line as soon as it is done (so that what a round did
        is printed even if it stops midway)."""
        yield from self.finish_writes()
        for message in self.box.waiting():
            try:
                yield str(self.take(message))
            except Vanished:  # a mail program on the same mailbox took it meanwhile
                yield f"message {message.ident}: gone from the mailbox (taken by another " \
                      "program): left alone"
        yield from self.deadlines()
        yield from self.pair_tournaments()
        yield from self.mail_changes()

    def finish_writes(self) -> list[str]:
        """Each game file that a round stopped (killed) between keeping what it signed and
        writing it is written now, as it would have been (:meth:`HeadMemory.finish`): the
        move it holds is mailed by this round, and the message that asked for it, still
        waiting, is found taken already."""
        memory = self.session.memory
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
        now = self.session.clock.now()
        for path in game_files(self.games):
            try:
                log += self._deadline(path, now)
            except FrogPbemError as exc:
                log += self._skipped(path, exc)
        return log

    def _deadline(self, path: Path, now: int) -> list[str]:
        data = read_bytes(path)
        if is_duel(data):  # a game without a referee: the judge is its notary
            return self.notary.deadline(path, data)
        digest = crypto.sha256(data).hex()
        known = self._clocks.get(path)
        if known is None or known.digest != digest:  # read only a file that changed
            known = self._clocks[path] = KnownClock(digest, self._clock_of(
                path, parse_game(data, str(path), self.session.verified.in_memory(), bulk=True)))
        clock = known.clock
        if clock is None:
            return []  # no clock runs (no deadline, paused or over)
        marks = self.marks
        # a reminder whose mark cannot be written would go every round
        check(marks.reminded_path(clock.game_id))
        if now < clock.until and (now < clock.until - clock.seconds // 4 or
                                  marks.reminded(clock.game_id) == clock.head):
            return []  # not due, and not yet time for the reminder (or reminded)
        with locked(path):
            game = load(path, self.session, self.session.memory)
            state = replay(game, known_secrets(game, REFEREE, self.key), self.key).final
            due = deadline_of(game, state)
            if due is None or game.head != clock.head:
                return []  # changed under our feet: the next round looks again
            seat, until = due
            if now >= until:
                applied = apply_timeout(game, self.key, self.session.memory)
                return [f"game {game.game_id}: " + "; ".join(applied.lines)]
            self._remind(game, seat, clock_words(game, state))
            marks.set_reminded(game.game_id, game.head)
            return [f"game {game.game_id}: reminded {seat} of its deadline"]

    def _skipped(self, path: Path, exc: FrogPbemError) -> list[str]:
        """A file of the games folder the judge cannot use: said once, then left alone
        (it is looked at again every round, and used once it is right)."""
        said = f"{path.name}: skipped: {exc.message}"
        if said in self._said:
            return []
        self._said.add(said)
        return [said]

    def _clock_of(self, path: Path, file: GameFile) -> RunningClock | None:
        """A game's running clock; ``None`` without one."""
        deadline = file.header.deadline
        if deadline is None or file.reveal is not None or file.undealt:
            return None  # not worth checking and replaying the game (none runs before the deal)
        with locked(path):
            game = load(path, self.session, self.session.memory)
            state = replay(game, known_secrets(game, REFEREE, self.key), self.key).final
        due = deadline_of(game, state)
        return None if due is None else \
            RunningClock(game.game_id, game.head, due[1], deadline.seconds)

    def _remind(self, game: Game, seat: str, words: str) -> None:
        """Mail ``seat`` that its time runs out (unless its address is refused for good):
        the game's letter to the seat, with the game file, so that it can be answered as
        it is (``frogpbem reply REMINDER "MOVE"``), its first words the reminder."""
        party = next(p for p in game.header.seats if p.seat == seat)
        if not party.email:
            return
        to = address(party.name, party.email, seat)
        if self.marks.bounced(game.game_id).get(seat) == to.addr_spec:
            return
        (reminder,) = letters(game, self.key, seat, self.address,
                              reminder=f"Reminder: it is your move ({seat}) in game "
                                       f"{game.game_id}. {words}")
        (refused,) = self.outbox.send([(reminder.message, to.addr_spec)])
        if refused is not None and not refused.permanent:
            raise FileAccessError(f"cannot remind {seat}: {refused}")  # reminded next round
        if refused is not None:
            self._refused_for_good(game, seat, refused)

    def take(self, message: Incoming) -> Took:
        """Take one waiting message, file it, and answer it if it came from a person and
        could not be used."""
        digest = digest_of(message.data)
        parsed, unreadable = _read(message.data)
        about = subject(parsed)
        entry = self.journal.get(digest)
        if entry is not None and entry.state in ("taken", "answered"):  # a round stopped
            filed = DONE if entry.state == "taken" else REFUSED  # before, or it came twice
            self.box.file(message, filed)
            when = "before the judge stopped" if entry.games == message.ident else \
                "the same message came before"  # (its name says which)
            return Took(message.ident, about, f"{entry.state} already ({when}): filed", filed)
        taken = unreadable or self._taken(
            digest, parsed, entry if entry is not None and entry.state == "taking" else None)
        if isinstance(taken, Unused):
            # signatures decide what is taken; headers only whether a refusal is answered
            machine = automatic(parsed[0], self.address) if parsed else None
            if machine is not None:
                self.box.file(message, AUTOMATIC)
                return Took(message.ident, about, f"{machine}, nothing usable in it: filed in "
                                                  f"{AUTOMATIC}, not answered", AUTOMATIC,
                            unused=taken)
            more, folder = self._answer(message, digest, parsed, taken)
            return Took(message.ident, about, f"{taken.said}{more}", folder, unused=taken)
        self.journal.put(digest, Entry("taken", message.ident))
        self.box.file(message, DONE)
        if taken is None:
            return Took(message.ident, about, "taken already: nothing new in it", DONE)
        return Took(message.ident, about, str(taken), DONE, taken)

    def _taken(self, digest: str, parsed: list[Message],
               before: Entry | None) -> Taken | Unused | None:
        """What taking one message's contents did, or why it was of no use; ``None`` when
        they were taken before a round stopped.

        The journal says the message is being taken (with the hashes of the files of the
        games it names) before it is: a message found with nothing new is then one taken
        before a round stopped if one of those files changed since (``before``), and
        otherwise a copy sent back unchanged, which is answered.
        """
        try:
            duels = duel_copies(parsed)
            found = contents(*parsed)
        except RecursionError:  # parts within parts past Python's depth
            return _TOO_DEEP
        if duels:  # games without a referee: the judge is their notary
            return self._notarised(digest, duels, before, parsed[0] if parsed else None)
        named = games_named(found)
        game = named[0] if len(named) == 1 else None
        if before is None:
            self.journal.put(digest, Entry("taking", self._hashes(named)))
        try:
            taken = take_found(found, self.games, self.key, self.session, keep_new=False)
        except NothingToApplyError as exc:
            if before is not None and before.games != self._hashes(named):
                return None  # taken, then the round stopped
            return unused_for(exc, game, self._own(game), found)
        except UnknownGameError as exc:
            return Unused(f"refused: {exc.message}", f"this judge does not run game {game}."
                          if game else "this judge does not run that game.", None, game,
                          "write to the judge that runs the game (the address its mail came "
                          "from): " + NEXT_STEP)
        except FrogPbemError as exc:
            return unused_for(exc, game, self._own(game), found)
        if taken.nothing is not None:
            return unused_nothing(found, str(taken), game)
        return taken

    def _notarised(self, digest: str, duels: list[bytes], before: Entry | None,
                   message: Message | None = None) -> Taken | Unused | None:
        """What the notary did with the files without a referee of one message (``None``:
        taken before a round stopped, as :meth:`_taken` tells)."""
        named = list(dict.fromkeys(self.notary.games_of(duels)))
        if before is None:
            self.journal.put(digest, Entry("taking", self._hashes(named)))
        taken = self.notary.take(duels, message)
        if isinstance(taken, Unused) and taken.nothing and before is not None and \
                before.games != self._hashes(named):
            return None  # taken, then the round stopped
        return taken

    @functools.cached_property
    def notary(self) -> Notary:
        """The judge as the notary of games without a referee (:mod:`frogpbem.mail.notary`)."""
        return Notary(self.games, self.key, self.outbox, self.session, self.address)

    def _own(self, game_id: str | None) -> Own | None:
        """The judge's own copy of the game a refused message is about, for its answer;
        ``None`` when there is none (or it does not read)."""
        if game_id is None:
            return None
        path = game_file(self.games, game_id)
        try:
            with locked(path):
                game = load(path, self.session, self.session.memory)
                state = None if game.undealt else \
                    replay(game, known_secrets(game, REFEREE, self.key), self.key).final
        except (FrogPbemError, OSError):
            return None
        return Own(game, None if state is None else game.ruleset.to_move(state))

    def _hashes(self, named: list[str]) -> dict[str, str]:
        """The hash of each named game's file (see :meth:`_taken`)."""
        hashes = {}
        for game_id in named:
            with contextlib.suppress(FrogPbemError, OSError, ValueError):
                hashes[game_id] = crypto.sha256(read_bytes(game_file(self.games, game_id))) \
                    .hex()
        return hashes

    def _answer(self, message: Incoming, digest: str, parsed: list[Message],
                unused: Unused) -> tuple[str, str | None]:
        """Answer a person's unusable message once, then file it: what the log adds, and
        the folder it was filed in (``None``: it waits)."""
        reply = answer(parsed[0], unused, self.address) if parsed else None
        if reply is None:
            self.box.file(message, REFUSED)
            return " (no address to answer)", REFUSED
        to = recipients(reply)[0]
        if unused.nothing:
            quiet = unanswered(parsed[0], self.address, self._players,
                               self.marks.answered_nothing(to), self.session.clock.now())
            if quiet is not None:
                self.box.file(message, REFUSED)
                return f" (not answered: {quiet})", REFUSED
        try:  # "answered" once the session is up, before the answer goes: never sent twice
            answered = Entry("answered", message.ident)
            (refused,) = self.outbox.send([(reply, to)],
                                          sending=lambda: self.journal.put(digest, answered))
        except FrogPbemError as exc:  # the server is away, or will not take the login
            return self._unanswered(digest, exc.message), None
        if refused is not None and not refused.permanent:
            return self._unanswered(digest, str(refused)), None
        if unused.nothing:
            self.marks.set_answered_nothing(to, self.session.clock.now())
        self.box.file(message, REFUSED)
        return (f"; the answer was refused ({refused})" if refused is not None else ""), REFUSED

    def _players(self) -> set[str]:
        """The mail addresses of the seats and referees of the judge's games."""
        found = set()
        for path in game_files(self.games):
            with contextlib.suppress(FrogPbemError, OSError):
                header = parse_game(read_bytes(path), str(path)).header
                found |= {(party.email or "").lower()
                          for party in (*header.seats, header.referee)}
        return found - {""}

    def _unanswered(self, digest: str, why: str) -> str:
        """An answer the server did not take now: the message waits, to be taken afresh
        (and answered) by a later round."""
        self.journal.put(digest, Entry("unanswered"))
        return f"; not answered ({why}): it waits for the next round"

    def pair_tournaments(self) -> list[str]:
        """Pair the next round of each tournament whose last round is over; once its last
        round is over, say so and mail each player the final standings, once.

        Cheap while games are in play: the tournament file and the files of its last
        round's games are read, nothing is audited. A tournament that does not hold is
        said once (and looked at again only once its files change), never paired.
        """
        log = []
        for path in self.tournaments:
            try:
                log += self._tournament(path)
            except FrogPbemError as exc:  # unreadable: said once, by the file's path
                unread = self._unread_path(path)
                if TournamentMark.read(unread).said != exc.message:
                    unread.parent.mkdir(parents=True, exist_ok=True)
                    write_atomic(unread, json.dumps(TournamentMark(said=exc.message)
                                                    .to_json()).encode())
                    log.append(f"tournament {path.name}: does not hold: {safe(exc.message)}")
        return log

    def _unread_path(self, path: Path) -> Path:
        """Where the judge keeps what it said of a tournament file it could not read."""
        named = crypto.sha256(str(path.absolute()).encode()).hex()[:32]
        mark = self.state / "tournaments" / f"file-{named}.json"
        check(mark)
        return mark

    def _tournament(self, path: Path) -> list[str]:
        from frogpbem.gamefile.tournament import parse_tournament

        data = read_bytes(path)
        file = parse_tournament(data, str(path))
        self._unread_path(path).unlink(missing_ok=True)  # (it reads again)
        ident = file.header.tournament
        mark = self._tournament_mark(ident)
        if mark.over:
            return self._mail_standings(file, mark)
        if file.rounds and self._in_play(file.rounds[-1]):
            return []  # the last round is being played: nothing to audit yet
        seen = self._tournament_seen(data, file)
        if mark.said is not None and mark.seen == seen:
            return []  # said already that it does not hold, and nothing changed since
        if len(file.rounds) < file.header.format.rounds:
            return self._pair(path, file, mark, seen)
        return self._finish(path, file, mark, seen)

    def _pair(self, path: Path, file: TournamentFile, mark: TournamentMark,
              seen: str) -> list[str]:
        """Pair the tournament's next round (its games are mailed by this round)."""
        from frogpbem.tournament.director import pair_round

        ident = file.header.tournament
        try:
            paired = pair_round(path, self.games, self.key, self.session)
        except FrogPbemError as exc:
            return self._does_not_hold(ident, mark, seen, exc.message)
        if mark.said is not None:
            self._set_tournament_mark(ident, TournamentMark())
        names = {player.player: player.name for player in file.header.players}
        count = len(paired.round.games)
        byes = ", ".join(names[bye] for bye in paired.round.byes)
        return [f"tournament {ident}: paired round {paired.round.round} ({count} "
                f"game{'s' if count != 1 else ''}{f', bye: {byes}' if byes else ''})"]

    def _finish(self, path: Path, file: TournamentFile, mark: TournamentMark,
                seen: str) -> list[str]:
        """Every round paired and played: verify the whole, then mail the standings."""
        from frogpbem.tournament.director import verify_tournament
        from frogpbem.tournament.standings import standings_text

        ident = file.header.tournament
        report = verify_tournament(path, self.games, self.session)
        if not report.ok:
            return self._does_not_hold(ident, mark, seen, report.problems[0])
        if report.standings is None or not report.over:
            return []  # (a game ended without its reveal: looked at again next round)
        names = {player.player: player.name for player in file.header.players}
        over = TournamentMark(over=True, standings=standings_text(report.standings, names))
        self._set_tournament_mark(ident, over)
        return [f"tournament {ident}: over", *self._mail_standings(file, over)]

    def _does_not_hold(self, ident: str, mark: TournamentMark, seen: str,
                       problem: str) -> list[str]:
        """Say once what does not hold (again only if it is something else)."""
        problem = problem.removeprefix("the tournament does not hold: ")
        self._set_tournament_mark(ident, TournamentMark(said=problem, seen=seen))
        if mark.said == problem:
            return []
        return [f"tournament {ident}: does not hold: {safe(problem)}"]

    def _in_play(self, last: Round) -> bool:
        """Whether a game of the round is still in play, by its file alone: a game is over
        once its file holds the referee's reveal. A round with a file missing (or that
        cannot be read) is not: the tournament is then verified, and the problem said."""
        datas = []
        for listed in last.games:
            path = self.games / f"{listed.game}.yaml"
            try:
                datas.append((path, read_bytes(path)))
            except FrogPbemError:
                return False
        for path, data in datas:
            digest = crypto.sha256(data).hex()
            if digest in self._revealed:
                continue
            if b"\nreveal:" not in data:
                return True
            try:
                parsed = parse_game(data, str(path), self.session.verified.in_memory(),
                                    bulk=True)
            except FrogPbemError:
                continue  # verified below, and said
            if parsed.reveal is None:
                return True
            self._revealed.add(digest)
        return False

    def _tournament_seen(self, data: bytes, file: TournamentFile) -> str:
        """What a verdict on the tournament depends on, hashed: its file, the files of the
        games it lists (their size and time), and the names of the folder's game files."""
        parts = [crypto.sha256(data).hex()]
        for entry in file.rounds:
            for listed in entry.games:
                try:
                    stat = (self.games / f"{listed.game}.yaml").stat()
                    parts.append(f"{listed.game} {stat.st_size} {stat.st_mtime_ns}")
                except OSError:
                    parts.append(f"{listed.game} -")
        parts += sorted(path.name for path in game_files(self.games))
        return crypto.sha256("\n".join(parts).encode()).hex()

    def _mail_standings(self, file: TournamentFile, mark: TournamentMark) -> list[str]:
        """Mail the final standings to each player not mailed them yet, once: each is
        marked mailed just before the mail goes (a judge stopped then mails nobody
        twice), and unmarked when the server did not take it for now."""
        header = file.header
        due = [player for player in header.players
               if player.email and player.player not in mark.mailed]
        if not due:
            return []
        ident = header.tournament
        letters_ = [(_standings_letter(header, player, mark.standings or "", self.address),
                     player) for player in due]
        envelopes = [(message, player.email or "") for message, player in letters_]
        everyone = frozenset(player.player for player in due)

        def sending() -> None:
            self._set_tournament_mark(ident, mark.having(everyone))

        try:
            refusals = self.outbox.send(envelopes, sending=sending)
        except FrogPbemError as exc:
            self._set_tournament_mark(ident, mark)
            return [f"tournament {ident}: final standings not mailed yet ({exc.message})"]
        later = frozenset(player.player for player, refused in zip(due, refusals, strict=True)
                          if refused is not None and not refused.permanent)
        self._set_tournament_mark(ident, mark.having(everyone - later))
        log = []
        sent = [f"{player.name}: {player.email}"
                for player, refused in zip(due, refusals, strict=True) if refused is None]
        if sent:
            log.append(f"tournament {ident}: mailed the final standings to {', '.join(sent)}")
        log += [f"tournament {ident}: {player.name}'s address {refused}"
                + ("" if refused.permanent else ": trying again next round")
                for player, refused in zip(due, refusals, strict=True) if refused is not None]
        return [safe(line) for line in log]

    def _tournament_mark(self, ident: str) -> TournamentMark:
        return TournamentMark.read(self._tournament_mark_path(ident))

    def _set_tournament_mark(self, ident: str, mark: TournamentMark) -> None:
        path = self._tournament_mark_path(ident)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(mark.to_json()).encode())

    def _tournament_mark_path(self, ident: str) -> Path:
        """``.judge/tournaments/ID.json``: what the judge said and mailed of a tournament."""
        mark = self.state / "tournaments" / f"{ident}.json"
        check(mark)
        return mark

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
        """Mail each seat of one game that has not had its head yet; each seat on its own,
        so that one refused address holds back nobody else."""
        marks = self.marks
        data = read_bytes(path)
        if is_duel(data):  # a game without a referee: the notary forwards it
            return self.notary.mail(path, data)
        digest = crypto.sha256(data).hex()
        check(marks.quick_path(path))
        if marks.unchanged(path, digest):
            return []  # unchanged since it was mailed: not even read
        game = load(path, self.session, self.session.memory,
                    parsed=parse_game(data, str(path), self.session.verified.in_memory(),
                                      bulk=True))
        game_id = game.game_id
        for each in (marks.mailed_path(game_id), marks.backoff_path(game_id),
                     marks.bounced_path(game_id)):
            check(each)
        waits = marks.backoff(game_id)
        if self.session.clock.now() < waits.until:
            return []  # the server failed lately: not yet time to try again
        check(marks.pending_path(game_id))
        joined = None  # for a game that waits for joins: what its mark says once mailed
        mark = marks.mailed(game_id)
        if game.undealt:  # the seats join first: invitations, not records (mail/invite.py)
            found, joined = invite.due(game, self.key, mark.head if mark else None,
                                       self.address)
            mark = marks.pending(game_id)
            head = joined
        else:
            found = letters(game, self.key, sender=self.address)
            head = game.head
        mailed = mark.having(head, [letter.role for letter in found]) if mark else set()
        missing = [letter.role for letter in found if not letter.address]
        if missing:
            raise UsageError(f"no mail address for {', '.join(missing)} in the game file "
                             "(frogpbem new --email SEAT=ADDRESS)")
        bounced = marks.bounced(game_id)
        left = [letter for letter in found if letter.role not in mailed]
        due = [letter for letter in left if bounced.get(letter.role) != letter.address]
        skipped = len(due) < len(left)  # a seat refused for good: mailed once it is cleared
        log, sent, later = [], [], []
        try:
            refusals = self.outbox.send([(letter.message, letter.address or "")
                                         for letter in due]) if due else []
        except FileAccessError as exc:
            refusals = [Refusal(letter.address or "", 0, exc.message) for letter in due]
        for letter, refused in zip(due, refusals, strict=True):
            if refused is None:
                sent.append(letter)
            elif refused.permanent:
                log.append(self._refused_for_good(game, letter.role, refused))
                skipped = True
            else:
                later.append(f"{letter.role}: {refused}")
        mailed |= {letter.role for letter in sent}
        if sent:
            what = (f"waiting for {', '.join(game.waiting_for)} to join: mailed"
                    if joined is not None else f"mailed record {len(game.file.log)} to")
            log.insert(0, f"game {game.game_id}: {what} "
                          f"{', '.join(f'{x.role}: {x.address}' for x in sent)}")
        if joined is None and sent:
            marks.set_mailed(game_id, Mailed(game.head, frozenset(mailed)))
        elif joined is not None and (later or skipped) and sent:
            marks.set_pending(game_id, Mailed(joined, frozenset(mailed)))  # who has it already
        if later:
            delay = min(2 * waits.delay, BACKOFF[1]) if waits.delay else BACKOFF[0]
            marks.set_backoff(game_id, Backoff(self.session.clock.now() + delay, delay))
            return [*log, f"game {game.game_id}: not mailed yet ({'; '.join(later)}); "
                          f"trying again in {delay} s"]
        marks.clear_backoff(game_id)
        if skipped:  # looked at again each round, so that a cleared seat is mailed
            return log
        if joined is not None:
            marks.set_mailed(game_id, Mailed(joined))
            marks.clear_pending(game_id)
        marks.set_unchanged(path, digest)  # after the mail went out
        return log

    @property
    def journal(self) -> Journal:
        """What the judge did with each message (see :class:`Journal`)."""
        return Journal(self.state / "messages")

    @property
    def state(self) -> Path:
        """The judge's own records in the games folder: the journal of messages, the
        addresses refused for good, the waits after a server failed, and what it said
        and mailed of each tournament (``tournaments/ID.json``, :class:`TournamentMark`)."""
        return self.marks.state

    @property
    def marks(self) -> Marks:
        """What the judge mailed, reminded and was refused (see :class:`Marks`)."""
        return Marks(self.games)

    def _refused_for_good(self, game: Game, role: str, refused: Refusal) -> str:
        """Stop mailing ``role`` at the refused address, and tell the referee, once."""
        bounced = self.marks.bounced(game.game_id)
        bounced[role] = refused.address
        self.marks.set_bounced(game.game_id, bounced)
        said = f"game {game.game_id}: {role}'s address {refused}: not mailed again there"
        referee = game.header.referee.email or self.address
        if referee == refused.address:
            return said
        try:
            told = address(None, referee, "the referee").addr_spec
            (failed,) = self.outbox.send([(notice(game.game_id, role, str(refused), told,
                                                  self.address), told)])
        except FrogPbemError as exc:
            return f"{said}; the referee could not be told: {exc.message}"
        if failed is not None:
            return f"{said}; the referee could not be told: {failed}"
        return f"{said}; the referee was told at {told}"


@dataclass(frozen=True)
class TournamentMark:
    """What the judge said and mailed of one tournament (``.judge/tournaments/ID.json``).

    A damaged mark names nothing: the judge then verifies once more (and, for a
    tournament over, says so and mails whoever the mark does not name).
    """

    said: str | None = None
    """The problem said of the tournament, when it did not hold."""
    seen: str | None = None
    """The hash of what that verdict depended on (see :meth:`Judge._tournament_seen`)."""
    over: bool = False
    standings: str | None = None
    """The final standings as mailed, once over (so that no restart audits again)."""
    mailed: frozenset[int] = frozenset()
    """The players mailed the final standings (by number)."""

    @classmethod
    def read(cls, path: Path) -> TournamentMark:
        """The mark of the file ``path``: ``[said, seen, standings, mailed]`` in JSON."""
        try:
            value = json.loads(read_bytes(path)) if path.is_file() else None
        except (ValueError, FrogPbemError):
            return cls()
        if not isinstance(value, list) or len(value) != 4:
            return cls()
        said, seen, text, mailed = value
        return cls(said if isinstance(said, str) else None,
                   seen if isinstance(seen, str) else None,
                   isinstance(text, str), text if isinstance(text, str) else None,
                   frozenset(n for n in mailed if isinstance(n, int))
                   if isinstance(mailed, list) else frozenset())

    def to_json(self) -> list[object]:
        return [self.said, self.seen, self.standings if self.over else None,
                sorted(self.mailed)]

    def having(self, mailed: frozenset[int]) -> TournamentMark:
        """The mark with ``mailed`` added to the players mailed."""
        return dataclasses.replace(self, mailed=self.mailed | mailed)


def _standings_letter(header: TournamentHeader, player: Player, standings: str,
                      judge: str) -> EmailMessage:
    """The final standings of a tournament, to one of its players."""
    message = EmailMessage()
    message["From"] = Address(display_name=JUDGE_NAME, addr_spec=judge)
    message["To"] = address(safe(player.name), player.email or "", player.name)
    message["Subject"] = f"[frogpbem {header.tournament}] final standings: " \
                         f"{safe(header.name)}"
    message["X-Frogpbem-Tournament"] = header.tournament
    message.set_content(
        f"The tournament {safe(header.name)} ({header.tournament}) is over. The final "
        f"standings:\n\n{standings}\n\nAnybody can count them again from the tournament "
        "file and its games:\n\n"
        f"    frogpbem tournament verify TOURNAMENT.yaml --games GAMES\n\n"
        "-- \nThis message was written by a program; you are sent it once.\n")
    stamp(message, domain_of(judge), "auto-generated")
    return message


def check_director(tournaments: list[Path], key: crypto.PrivateKey) -> None:
    """Each tournament file read, and its director's key the judge's; else the first
    that is not raises (:class:`KeyError_` for another director)."""
    from frogpbem.gamefile.tournament import read_tournament

    for path in tournaments:
        director = read_tournament(path).header.director
        if director.public_key.blob != key.public.blob:
            raise KeyError_(f"the judge's key is not the director's of this tournament "
                            f"({safe(director.name)}'s): run the judge with the director's "
                            "key", path=path)


def judge_address(given: str) -> str:
    """The judge's own address from ``--from``: ``judge@club.org`` or ``Judge
    <judge@club.org>`` (its display name is the judge's own); :class:`UsageError` for
    anything but one mail address."""
    found = header_addresses("from", given) or ()
    if len(found) != 1 or not found[0].username or not found[0].domain or \
            any(c in given for c in "\r\n"):
        raise UsageError(f"--from {safe(given)[:80]!r}: give one mail address "
                         "(judge@example.org)")
    return str(found[0].addr_spec)


def _read(data: bytes) -> tuple[list[Message], Unused | None]:
    """A message's messages (one, or an mbox's); only its headers, to answer it, and why,
    when it is too large to be read."""
    if len(data) <= MAX_MESSAGE:
        return messages_in(data), None  # (one it cannot parse is read for its headers)
    unreadable = Unused(f"refused: larger than {MAX_MESSAGE // (1024 * 1024)} MiB",
                        f"it is larger than {MAX_MESSAGE // (1024 * 1024)} MiB, and was not "
                        "read.")
    return [headers_only(data, unreadable.said)], unreadable


_TOO_DEEP = Unused("refused: parts nested too deep to read",
                   "its parts are nested within each other too deeply to be read.")


def _head(path: Path) -> bytes:
    """A message file's bytes, up to one more than :data:`MAX_MESSAGE`: enough to tell a
    message too large (which is answered from its headers, and filed) from the others."""
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_MESSAGE + 1)
    except FileNotFoundError:
        raise Vanished(path.name) from None
    except OSError as exc:
        raise FileAccessError(f"cannot read: {exc.strerror}", path=path) from None


def _loopback(host: str) -> bool:
    """Whether ``host`` is an address of this machine (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@contextlib.contextmanager
def holding(games: Path) -> Iterator[None]:
    """Hold the games folder for one judge (a lock on ``GAMES/.judge.lock``); a second
    judge on the same folder gets :class:`FolderBusyError`."""
    if not games.is_dir():
        raise FileAccessError("is not a folder: give the folder of the judge's games",
                              path=games)
    try:
        handle = open(games / ".judge.lock", "a")  # noqa: SIM115 - held until the end
    except OSError as exc:
        raise FileAccessError(f"cannot lock the games folder: {exc.strerror}",
                              path=games) from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise FolderBusyError("another judge is running on this games folder",
                                  path=games) from None
        yield


def run(judge: Judge, once: bool, every: float = 30.0) -> Iterator[str]:
    """Rounds until stopped (or one with ``once``), each message's line as it comes."""
    try:
        while True:
            yield from judge.steps()
            if once:
                return
            judge.box.wait(every)
    finally:
        judge.box.close()
