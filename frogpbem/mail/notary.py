"""The judge as a notary: it relays the mail of games without a referee and stamps it.

A game without a referee whose header names a notary (docs/format.md, "A notary") is
played through it: each seat mails its copy to the notary, which checks the copy whole
(every signature, proof and move, with the engine's replay: all of it is public), signs a
stamp for each new message, keeps the stamped file ``GAMES/ID.yaml`` and forwards it to
the other seat. Its own file, once checked, it replays without checking again what it
verified before (its store of verified histories, as a seat's tool does). Each round it
records a timeout once the seat whose message is due (a step, or a reveal once the moves
are over) let its deadline pass, and mails both seats.
It holds no key that opens anything: what it signs is times. The judge
(:mod:`frogpbem.mail.judge`) hands it every message that holds such a file, and every
such file of its folder; a refusal goes back as the judge's
answers do (once, and never to automatic mail). Its forward answers the seat's mail that
brought the messages (``In-Reply-To``, ``References``, RFC 5322), as the judge's answers
do: the thread is kept per game in ``GAMES/.judge/threads/ID.json``.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import EmailMessage, Message
from pathlib import Path

from frogpbem import crypto
from frogpbem.duel import stamps
from frogpbem.duel.engine import due_seat, replay, reveals_due, waiting, withheld_words
from frogpbem.duel.registry import duel_rules
from frogpbem.duel.rules import Progress
from frogpbem.errors import FileAccessError, FrogPbemError, UsageError
from frogpbem.gamefile import jsontext
from frogpbem.gamefile.document import locked, read_bytes, write_atomic
from frogpbem.gamefile.duelfile import (
    DuelFile,
    Stamp,
    Timeout,
    dump_duel,
    is_duel,
    parse_duel,
)
from frogpbem.gamefile.duelfile import (
    Message as DuelMessage,
)
from frogpbem.mail.answers import Unused, message_id
from frogpbem.mail.duel import answer_lines
from frogpbem.mail.headers import address as mail_address
from frogpbem.mail.headers import domain_of
from frogpbem.mail.headers import stamp as stamp_headers
from frogpbem.mail.marks import Mailed, Marks, check
from frogpbem.mail.outbox import Outbox
from frogpbem.mail.receive import GAME_ID, Taken, header_text
from frogpbem.mail.reply import MESSAGE_ID
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import SKEW, seconds_of, text_of
from frogpbem.safetext import safe

NOTARY_NAME = "frogpbem notary"
"""The display name of the notary's mail."""
REFERENCES = 10
"""How many Message-IDs of the answered mail's ``References`` a forward names again."""


def duel_copies(parsed: list[Message]) -> list[bytes]:
    """The files without a referee attached to (or pasted into) ``parsed``, as they came."""
    found: list[bytes] = []
    for message in parsed:
        for part in message.walk():
            if part.is_multipart():
                continue
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes) and b"messages:" in payload and \
                    b"frogpbem:" in payload and is_duel(payload) and payload not in found:
                found.append(payload)
    return found


def next_step(notary: str) -> str:
    """What a seat does after a refusal."""
    return ("save the game file of the notary's last mail about the game as GAME.yaml, "
            "run\n"
            '    frogpbem move GAME.yaml "YOUR MOVE" --key YOUR_KEY\n'
            f"and mail GAME.yaml, attached, to {notary}.")


@dataclass
class Notary:
    """The judge's notary: its games folder, key, way out, session and address."""

    games: Path
    key: crypto.PrivateKey
    outbox: Outbox
    session: Session
    address: str
    _clocks: dict[Path, tuple[str, stamps.Due | None]] = field(default_factory=dict)
    """What each file's clock said, by the file and its hash (read again once it changes)."""

    # --- a seat's copy ------------------------------------------------------------------

    @staticmethod
    def games_of(copies: list[bytes]) -> list[str]:
        """The ids of the games of ``copies`` (those that read)."""
        named = []
        for data in copies:
            try:
                game = parse_duel(data, "copy").game
            except FrogPbemError:
                continue
            if GAME_ID.fullmatch(game):
                named.append(game)
        return named

    def take(self, copies: list[bytes], message: Message | None = None) -> Taken | Unused:
        """Stamp the new messages of a seat's copy (or copies) and keep the stamped file;
        why not, when it cannot be used. ``message``: the mail that brought them, which
        the forward answers."""
        said = []
        for data in copies:
            taken = self._take(data)
            if isinstance(taken, Unused):
                return taken
            said.append(taken)
        if message is not None:
            for game in dict.fromkeys(self.games_of(copies)):
                self._remember_thread(game, message)
        return Taken(tuple(said))

    # --- the thread ---------------------------------------------------------------------

    def _thread_path(self, game: str) -> Path:
        return Marks(self.games).state / "threads" / f"{game}.json"

    def _remember_thread(self, game: str, message: Message) -> None:
        """Keep the ``In-Reply-To`` and ``References`` of the forward that answers
        ``message`` (nothing, when it has no Message-ID; a failure to write costs the
        thread only)."""
        ident = message_id(message)
        if ident is None or not MESSAGE_ID.fullmatch(ident):
            return
        before = [token for token in header_text(message, "references").split()
                  if MESSAGE_ID.fullmatch(token) and token != ident][-REFERENCES:]
        path = self._thread_path(game)
        with contextlib.suppress(OSError, FrogPbemError):
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, json.dumps([*before, ident]).encode(), durable=False)

    def _thread(self, game: str) -> list[str]:
        """The Message-IDs a forward of ``game`` names, the one it answers last (none:
        no mail with a Message-ID brought its messages)."""
        try:
            value = jsontext.loads(read_bytes(self._thread_path(game), 1 << 16))
        except (FrogPbemError, ValueError):
            return []
        if not isinstance(value, list):
            return []
        return [ident for ident in value if isinstance(ident, str) and
                MESSAGE_ID.fullmatch(ident)]

    def _refused(self, words: str, game: str | None, nothing: bool = False) -> Unused:
        return Unused(f"refused: {words}", words, None, game, next_step(self.address),
                      nothing)

    def _take(self, data: bytes) -> str | Unused:
        try:
            copy = parse_duel(data, "the attached game file")
        except FrogPbemError as exc:
            return self._refused(f"the attached game file does not read: {exc.message}.",
                                 None)
        game = copy.game
        notary = copy.header.notary
        if not GAME_ID.fullmatch(game):
            return self._refused(f"{safe(game)[:80]!r} is not a game id.", None)
        if notary is None or notary.public_key.blob != self.key.public.blob:
            return self._refused(f"this notary is not the notary of game {game} (its header "
                                 "names another, or none).", game)
        target = self.games / f"{game}.yaml"
        if target.exists() and not target.is_file():
            raise FileAccessError("is not a game file", path=target)
        with locked(target):
            own = parse_duel(read_bytes(target), str(target)) if target.exists() else None
            if own is not None and own.header.hash != copy.header.hash:
                return self._refused(f"another game under the id {game}: its header differs "
                                     "from the one the notary holds.", game)
            if own is not None:
                return self._stamp(target, own, copy)
            kept = len(copy.stamps)
            base = DuelFile(copy.header, copy.messages[:kept], copy.stamps)
            if len(copy.messages) > kept:
                return self._stamp(target, base, copy)
            try:  # a new game (or a copy stamped before): held from now on
                replay(base, "the attached file")
            except FrogPbemError as exc:
                return self._refused(f"it does not verify: {exc}.", game)
            write_atomic(target, dump_duel(base))
            self.session.verified.remember_duel(base)
            return f"game {game}: the notary holds it now (after message {kept})"

    def _stamp(self, target: Path, base: DuelFile, copy: DuelFile) -> str | Unused:
        game = base.game
        now = self.session.clock.now()
        if base.timeout is not None:
            return self._refused(f"the game is over: the notary recorded "
                                 f"{base.timeout.seat}'s timeout at {base.timeout.at}, and "
                                 "takes no message after it.", game)
        try:
            progress = self._replay(base, "the notary's copy")
        except FrogPbemError as exc:
            return self._refused(f"it does not verify: {exc}.", game)
        late = self._overdue(base, progress, now)
        if late is not None:
            timed_out = self._record(target, base, late, now)
            return self._refused(f"it came after {late.seat}'s deadline "
                                 f"({late.until_text}): the notary recorded the timeout at "
                                 f"{timed_out.at}, and the game is over.", game)
        held = len(base.messages)
        for index, message in enumerate(base.messages):
            if index >= len(copy.messages) or copy.messages[index].hash != message.hash:
                return self._refused(f"it does not follow the notary's copy: message "
                                     f"{index + 1} is not the one the notary stamped.", game)
        new = copy.messages[held:]
        if not new:
            return self._refused(f"it holds no message the notary has not stamped (after "
                                 f"message {held}): run frogpbem move on it first.", game,
                                 nothing=True)
        for message in new:
            if seconds_of(message.at) > now + SKEW:
                return self._refused(f"message {message.n} is dated {message.at}, more than "
                                     "10 minutes ahead of the notary's clock "
                                     f"({text_of(now)}): set your clock right.", game)
        last = base.stamps[-1].at if base.stamps else ""
        at = max(text_of(now), last)  # the notary's times never go back
        added = tuple(Stamp(message.n, message.hash, at).signed(self.key) for message in new)
        stamped = DuelFile(base.header, copy.messages, (*base.stamps, *added))
        try:
            replay(stamped, "the attached file")  # whole: every proof of the game again
        except FrogPbemError as exc:
            return self._refused(f"it does not verify: {exc}.", game)
        write_atomic(target, dump_duel(stamped))
        self.session.verified.remember_duel(stamped)
        authors = ", ".join(dict.fromkeys(message.seat for message in new))
        return f"game {game}: stamped {_numbers(new)} ({authors}) at {at}"

    # --- deadlines ------------------------------------------------------------------------

    def deadline(self, path: Path, data: bytes) -> list[str]:
        """Record the timeout of a game at ``path`` (its bytes ``data``) whose due seat let
        its deadline pass; the file is replayed only when it changed."""
        now = self.session.clock.now()
        digest = crypto.sha256(data).hex()
        known = self._clocks.get(path)
        if known is None or known[0] != digest:
            known = self._clocks[path] = (digest, self._clock_of(parse_duel(data, str(path))))
        running = known[1]
        if running is None or now < running.until:
            return []
        with locked(path):
            file = parse_duel(read_bytes(path), str(path))
            if file.timeout is not None:
                return []
            late = self._overdue(file, self._replay(file, path), now)
            if late is None:
                return []  # changed under our feet: the next round looks again
            timed_out = self._record(path, file, late, now)
        return [f"game {file.game}: {late.seat}'s deadline passed ({late.until_text}): "
                f"timeout recorded at {timed_out.at}; {late.seat} forfeits"]

    def _clock_of(self, file: DuelFile) -> stamps.Due | None:
        if file.timeout is not None or file.header.deadline is None or not self._ours(file):
            return None
        return stamps.first_due(file, len(file.stamps), _waiting(self._replay(file)))

    def _replay(self, file: DuelFile, where: Path | str | None = None) -> Progress:
        """The notary's own ``file`` replayed: the messages it verified whole before (its
        store of verified histories), byte for byte, are not checked again. A copy that
        comes by mail is always checked whole, every proof of the game again."""
        return replay(file, where, trusted=self.session.verified.duel_trusted(file))

    def _ours(self, file: DuelFile) -> bool:
        notary = file.header.notary
        return notary is not None and notary.public_key.blob == self.key.public.blob

    def _overdue(self, file: DuelFile, progress: Progress, now: int) -> stamps.Due | None:
        """The deadline that has passed at ``now`` in the notary's own ``file``, if one has."""
        if not self._ours(file) or len(file.stamps) != len(file.messages):
            return None
        running = stamps.first_due(file, len(file.stamps), _waiting(progress))
        return running if running is not None and now >= running.until else None

    def _record(self, path: Path, file: DuelFile, late: stamps.Due, now: int) -> Timeout:
        head = file.messages[-1].hash if file.messages else file.header.hash
        timeout = Timeout(len(file.messages), head, late.seat,
                          text_of(max(now, late.until))).signed(self.key)
        write_atomic(path, dump_duel(DuelFile(file.header, file.messages, file.stamps,
                                              timeout)))
        return timeout

    # --- mail -----------------------------------------------------------------------------

    def mail(self, path: Path, data: bytes) -> list[str]:
        """Forward the notary's file to the seat that has not seen its last messages (to
        both once a timeout is recorded), each seat once per state of the file."""
        marks = Marks(self.games)
        digest = crypto.sha256(data).hex()
        check(marks.quick_path(path))
        if marks.unchanged(path, digest):
            return []
        file = parse_duel(data, str(path))
        if not self._ours(file):
            return []
        game = file.game
        check(marks.mailed_path(game))
        mark = marks.mailed(game)
        roles = self._recipients(file)
        mailed = mark.having(digest, roles) if mark is not None else set()
        progress = self._replay(file, path)
        subject = _subject(file, progress)
        thread = self._thread(game)
        log, later = [], []
        for role in roles:
            if role in mailed:
                continue
            party = file.header.party(role)
            if not party.email:
                raise UsageError(f"no mail address for {role} in the game file (frogpbem new "
                                 "--email SEAT=ADDRESS)")
            to = mail_address(safe(party.name), party.email, role)
            letter = self._letter(file, progress, path.name, data, subject, role, to)
            if thread:
                letter["In-Reply-To"] = thread[-1]
                letter["References"] = " ".join(thread)
            try:
                (refused,) = self.outbox.send([(letter, to.addr_spec)])
            except FileAccessError as exc:
                later.append(f"{role}: {exc.message}")
                continue
            if refused is not None and not refused.permanent:
                later.append(f"{role}: {refused}")
                continue
            mailed.add(role)
            log.append(f"game {game}: forwarded to {role}: {to.addr_spec}" if refused is None
                       else f"game {game}: {role}'s address {refused}: not mailed")
            marks.set_mailed(game, Mailed(digest, frozenset(mailed)))
        if later:
            return [*log, f"game {game}: not mailed yet ({'; '.join(later)}); trying again "
                          "next round"]
        marks.set_unchanged(path, digest)
        return log

    @staticmethod
    def _recipients(file: DuelFile) -> list[str]:
        """Both seats after a timeout; else the seat that did not write the last message
        (the header's: the first seat)."""
        seats = list(file.header.seat_names)
        if file.timeout is not None:
            return seats
        author = file.messages[-1].seat if file.messages else seats[0]
        return [seat for seat in seats if seat != author]

    def _letter(self, file: DuelFile, progress: Progress, name: str, data: bytes,
                subject: str, role: str, to: Address) -> EmailMessage:
        letter = EmailMessage()
        letter["From"] = Address(display_name=NOTARY_NAME, addr_spec=self.address)
        letter["To"] = to
        letter["Subject"] = subject
        letter["X-Frogpbem-Game"] = file.game
        stamped = [f"message {s.n} ({file.messages[s.n - 1].seat}) stamped at {s.at}"
                   for s in file.stamps[-3:]]
        lines = [f"Game {file.game}, no referee: the notary relays and stamps its mail.", "",
                 *stamped, ""]
        if file.timeout is not None:
            lines += [f"{file.timeout.seat} sent nothing before its deadline: the notary "
                      f"recorded its timeout at {file.timeout.at}. The game is over; "
                      f"{file.timeout.seat} forfeits.", ""]
        else:
            deadline = file.header.deadline
            todo = answer_lines(progress, file.header.rules, role,
                                "frogpbem reply THIS_MESSAGE.eml")
            pending = reveals_due(progress, duel_rules(file.header.rules))
            if todo:
                lines += ["Your copy of the game is attached.", *todo,
                          f"(it writes your answer to {self.address}; --smtp URL sends "
                          "it). Or save it as GAME.yaml, run",
                          "    frogpbem move GAME.yaml " + ('"YOUR MOVE" ' if progress.joined
                                                           and _due(progress) else "")
                          + "--key YOUR_KEY",
                          f"and mail GAME.yaml, attached, to {self.address}."]
            elif _due(progress) is None:
                lines += ["Your copy of the game is attached. " + (
                    f"The moves are over; the outcome waits for {withheld_words(pending)}."
                    if pending else "The game is over; check it: frogpbem verify GAME.yaml")]
            else:
                lines += [f"Your copy of the game is attached. {_due(progress)} is to move; "
                          "you may still resign:",
                          "    frogpbem reply THIS_MESSAGE.eml resign --key YOUR_KEY"]
            running = stamps.first_due(file, len(file.stamps), _waiting(progress))
            if deadline is not None:
                lines.append(f"You have {deadline.per_move} for each message, by the "
                             "notary's stamps" + (
                                 f": {running.seat}'s deadline is {running.until_text}."
                                 if running is not None else "."))
            lines.append("")
        lines += ["-- ", "This message was written by a program; replies go to the notary."]
        letter.set_content("\n".join(lines) + "\n")
        letter.add_attachment(data, maintype="application", subtype="yaml", filename=name)
        stamp_headers(letter, domain_of(self.address), "auto-generated")
        return letter


def _due(progress: Progress) -> str | None:
    return due_seat(progress, duel_rules(progress.header.rules))


def _waiting(progress: Progress) -> tuple[str, ...]:
    """The seats whose message (a step, or a reveal due) runs a clock."""
    return waiting(progress, duel_rules(progress.header.rules))


def _numbers(new: tuple[DuelMessage, ...]) -> str:
    if len(new) == 1:
        return f"message {new[0].n}"
    return f"messages {new[0].n} to {new[-1].n}"


def _subject(file: DuelFile, progress: Progress) -> str:
    """``[frogpbem ID] 3. black: c1-c3 — white to move``, as the judge's subjects."""
    rules = progress.ruleset
    if progress.played:
        last = progress.played[-1]
        said = f"{last.n}. " + (f"{last.seat} played {last.move}: awaiting the answer"
                                if last.result is None else  # Frog Finder's pending move
                                rules.describe(last.seat, last.move,
                                               rules.parse_result(last.result)))
    elif file.messages:
        said = f"{file.messages[-1].n}. {file.messages[-1].seat}"
    else:
        said = "the game begins"
    outcome = rules.outcome(progress.state) if progress.state is not None else None
    if file.timeout is not None:
        after = f"game over: {file.timeout.seat} forfeits on time"
    elif outcome is not None:
        after = f"game over: {outcome.standing_text()}"
    else:
        due = _due(progress)
        after = f"{due} to {'join' if not progress.joined else 'move'}" if due else \
            f"outcome pending: {withheld_words(_waiting(progress))}"
    return " ".join(f"[frogpbem {file.game}] {said} \u2014 {after}".split())


__all__ = ["NOTARY_NAME", "Notary", "duel_copies", "next_step"]
