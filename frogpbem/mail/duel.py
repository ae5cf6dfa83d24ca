"""Games without a referee by mail: each seat's message goes to the other seat, or through
the notary when the header names one.

``frogpbem mail FILE`` (a seat mails the file to the other seat: the invitation after
``new --no-referee``, or its last message), ``frogpbem reply MESSAGE "MOVE"`` (a seat
answers the other's message in one command) and ``frogpbem receive`` (a seat keeps a
copy) come here when the attached file is one without a referee (a top-level
``messages:``, :func:`frogpbem.gamefile.duelfile.is_duel`).

Every copy taken from a message is checked (:func:`frogpbem.duel.engine.load`): each
message this seat's tool has not verified before whole, the ones it has (the verified
prefix) by their bytes and signatures' digest; and against this seat's memory (a
rollback or a fork is refused) before it is kept. A reused nonce between a new proof and
one of the prefix is then left to ``verify``, ``audit`` and a notary, which check whole
(it gives away only the witness of the seat that reused it).
The seat's signed copy is kept *before* the answer goes out: a message once signed is
the one sent, again if need be, and never a second one of the same number (the other
seat would hold two signed messages ``n``: a fork). Each mail threads under the game's
previous one (``In-Reply-To``, ``References``), remembered per game in
``$FROGPBEM_HOME/threads/GAME.json``. A seat's move is a person's message: it carries no
``Auto-Submitted`` (RFC 3834).

With a notary (docs/format.md, "A notary") each seat's mail goes to the notary's address
(:func:`frogpbem.duel.engine.send_to`), which stamps it and forwards it to the other seat;
``reply`` takes the notary's forwarded mail as it takes the other seat's, shows the
seat's deadline by the stamps, and warns when it has passed by this computer's clock (the
notary's clock decides).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import EmailMessage
from email.message import Message as MailMessage
from pathlib import Path

from frogpbem import crypto
from frogpbem.duel import stamps
from frogpbem.duel.engine import (
    Loaded,
    add,
    due_seat,
    load,
    message_words,
    read_duel,
    replay,
    reveals_due,
    seat_of,
    send_to,
    steps_alone,
    view_text,
    withheld_words,
)
from frogpbem.duel.registry import duel_rules
from frogpbem.duel.rules import Choice, DuelRules, Progress
from frogpbem.errors import (
    FileAccessError,
    FrogPbemError,
    GameFileError,
    NotYourTurnError,
    StaleCopyError,
    UsageError,
)
from frogpbem.gamefile.document import locked, read_bytes, write_atomic
from frogpbem.gamefile.duelfile import DuelFile, dump_duel, is_duel, parse_duel
from frogpbem.mail.compose import send_messages
from frogpbem.mail.contact import one_address
from frogpbem.mail.headers import domain_of, stamp
from frogpbem.mail.receive import Found, contents, header_text
from frogpbem.mail.reply import (
    MESSAGE_ID,
    address,
    addresses_of,
    answered_path,
    one_message,
    ready_folder,
    run_sendmail,
    send_sendmail,
    send_smtp,
    write_eml,
)
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import text_of
from frogpbem.safetext import safe

SETUP_EXAMPLES = {"secretmove": "cols=0,3,5 rows=1,2,4"}
"""The rulesets whose seats choose their own setup (:meth:`DuelRules.choose`), and an
example of one for the mail (``--setup "…"``); ``--random`` draws it."""
SHOWN = frozenset({"froglet"})
"""The rulesets whose board, once dealt, hides nothing: the mail shows it. Any other
seat's board needs its own key (the mail says what to run)."""
THREAD = 20
"""How many Message-IDs of a game's thread its next mail names in ``References``."""


@dataclass
class DuelTurn:
    """What one ``frogpbem reply`` did to a game without a referee, and the answer."""

    game: str
    seat: str
    copy: Path
    """The seat's copy, kept in its games folder."""
    messages: int
    """How many messages the copy holds."""
    lines: list[str] = field(default_factory=list)
    """What was signed, in words (none: nothing was)."""
    shown: str = ""
    """When nothing was signed: the board and what to run."""
    answer: EmailMessage | None = None
    sent: str = ""
    to: str = ""
    warnings: list[str] = field(default_factory=list)
    then: str = ""
    """What comes next when it is this seat's step again (it moves alone, or holds its
    setup until its first move), in words."""

    @property
    def eml_stem(self) -> str:
        return f"{self.game}-{self.seat}-{self.messages}"

    @property
    def nobody(self) -> str:
        return "no address for the other seat"

    @property
    def nobody_hint(self) -> str:
        return "add it before you send it"

    @property
    def unaddressed(self) -> str:
        return "no address for the other seat"


Deliver = Callable[[DuelTurn, EmailMessage], str]
"""Writes or sends the answer; returns where it went, in words."""


# --- the copy in a message -------------------------------------------------------------


def carried(data: bytes) -> EmailMessage | None:
    """The message ``data`` when it carries the file of a game without a referee; ``None``
    otherwise (and for data that does not read as one message: the referee's ``reply``
    then says why, as it always did)."""
    try:
        message = one_message(data)
        return message if contents(message).duels else None
    except (FrogPbemError, RecursionError):
        return None


def copy_in(found: Found) -> tuple[DuelFile, int, str]:
    """The message's copy, how many messages it holds, and what to call it in a refusal:
    the longest of its copies, which must all be of one history (a file quoted again, or
    in two alternatives; one that does not read, such as the HTML version of a pasted
    file, is passed over when another does).

    Only its header is checked here (a changed one is refused, 7, or a bad signature, 6,
    before it is compared with the seat's copy): the caller checks the rest with its one
    :func:`~frogpbem.duel.engine.load` of it, or :func:`_checked_against` the seat's own
    copy. A shorter copy is checked whole here unless it is a part of the longest."""
    copies: list[tuple[DuelFile, str]] = []
    unread = []
    for index, data in enumerate(found.duels, 1):
        where = "the game file in the message" if len(found.duels) == 1 else \
            f"game file {index} in the message"
        try:
            copies.append((parse_duel(data, where), where))
        except GameFileError as exc:  # an HTML version of it, say: another copy may read
            unread.append(exc)
    if not copies:
        raise unread[0]
    longest, named = max(copies, key=lambda copy: len(copy[0].messages))
    for file, where in copies:
        if file is longest:
            replay(DuelFile(file.header, (), ()), where)  # its header, before all else
        elif not _part_of(file, longest):
            replay(file, where)
    hashes = [message.hash for message in longest.messages]
    for file, _ in copies:
        if file.header.hash != longest.header.hash or \
                [m.hash for m in file.messages] != hashes[:len(file.messages)]:
            raise StaleCopyError(f"the message carries copies of game {longest.game} that "
                                 "differ: ask the other seat for its file anew")
    return longest, len(longest.messages), named


def _checked_against(copy: DuelFile, kept: DuelFile, named: str) -> None:
    """Check the message's ``copy`` that the seat's own ``kept`` copy holds already
    (it answered it): nothing to do when it is that part of it element for element (the
    seat's tool checked it), else it is checked whole."""
    if not _part_of(copy, kept):
        replay(copy, named)


def _part_of(file: DuelFile, longest: DuelFile) -> bool:
    """Whether ``file`` is ``longest`` cut short, element for element (signatures and
    stamps included): checking ``longest`` checks it."""
    n, stamped = len(file.messages), len(file.stamps)
    return file.header == longest.header and \
        tuple(file.messages) == tuple(longest.messages[:n]) and \
        tuple(file.stamps) == tuple(longest.stamps[:stamped]) and \
        (file.timeout is None or (file.timeout == longest.timeout and
                                  n == len(longest.messages)))


def _kept(target: Path, game: str) -> DuelFile | None:
    """The seat's kept copy of ``game`` (``None``: none); a file there of another game, or
    of a game with a referee, is another game under that id."""
    if not os.path.lexists(target):
        return None
    data = read_bytes(target)
    if not is_duel(data):
        raise StaleCopyError(f"another game under the id {game} ({target.name}, which you "
                             "hold, has a referee); not kept", path=target)
    return parse_duel(data, str(target))


def _relation(kept: DuelFile | None, copy: DuelFile, target: Path, seat: str) -> str:
    """How the message's ``copy`` stands to the ``kept`` one: ``new`` (none kept, or it
    adds to it, or the notary's copy ends in a timeout: the memory judges it), ``same``,
    ``answered`` (the kept copy adds only this seat's own messages: it answered this
    message already), else refused: another header (another game under
    the id, 8) or an older message (8). A fork is the memory's to refuse (11)."""
    if kept is None:
        return "new"
    if kept.header.hash != copy.header.hash:
        raise StaleCopyError(f"another game under the id {copy.game} (its header differs "
                             f"from that of {target.name}, which you hold); not kept")
    mine = [m.hash for m in kept.messages]
    theirs = [m.hash for m in copy.messages]
    if mine == theirs:  # the notary's copy may add its stamps, or its timeout
        grown = len(copy.stamps) > len(kept.stamps) or \
            (copy.timeout is not None and kept.timeout is None)
        return "new" if grown else "same"
    if len(mine) > len(theirs) and mine[:len(theirs)] == theirs and copy.timeout is None:
        if all(m.seat == seat for m in kept.messages[len(theirs):]):
            return "answered"
        raise StaleCopyError(f"the message is an old one: it holds message {len(theirs)} of "
                             f"game {copy.game}, your copy {target} message {len(mine)}; "
                             "answer the latest message")
    return "new"


# --- the mail --------------------------------------------------------------------------


def subject(loaded: Loaded, said_last: tuple[str, ...] | None = None) -> str:
    """``[frogpbem fl-7q3k] 3. white jumps C1-C3: red (+3) — black to move``
    (``said_last``: what the last message did, in words, when the caller has it)."""
    file, progress = loaded.file, loaded.progress
    if file.messages:
        last = file.messages[-1]
        words = (said_last if said_last is not None else message_words(file, last.n)) or \
            (f"{last.seat}'s step",)
        said = f"{last.n}. " + "; ".join(words)
    else:
        said = f"{progress.first} created the game"
    rules = duel_rules(file.header.rules)
    due = due_seat(progress, rules)
    if due is None:
        outcome = progress.ruleset.outcome(progress.state)
        pending = reveals_due(progress, rules)
        after = f"game over: {outcome.standing_text()}" if outcome is not None else \
            f"outcome pending: {withheld_words(pending)}" if pending else "game over"
    else:
        after = f"{due} to {'join' if not progress.joined else 'move'}"
    if file.header.notary is not None:
        after += " (via the notary)"
    return " ".join(f"[frogpbem {file.game}] {said} \u2014 {after}".split())


def board_shown(loaded: Loaded) -> bool:
    """Whether the mail may show the recipient's board: dealt, and nothing hidden."""
    return loaded.progress.state is not None and loaded.file.header.rules in SHOWN


def chooses(progress: Progress, rules: DuelRules, seat: str) -> bool:
    """Whether ``seat`` gives its own setup now (Secret Move: its headers, with its join,
    or with the first seat's first move): the ruleset has one to choose, and it is due."""
    return rules.wants_choice(progress, seat) and progress.state is None and \
        due_seat(progress, rules) == seat


def setup_option(rules: str) -> str:
    """``--setup "cols=0,3,5 rows=1,2,4"``: how a seat gives its setup to ``reply``."""
    return f'--setup "{SETUP_EXAMPLES.get(rules, "YOUR SETUP")}"'


def reveal_due(progress: Progress, rules: DuelRules, seat: str) -> bool:
    """Whether the outcome (or the audit) waits for ``seat``'s reveal: the rules' moves
    are over and it has not revealed (:func:`frogpbem.duel.engine.reveals_due`)."""
    return seat in reveals_due(progress, rules)


def answer_lines(progress: Progress, rules_name: str, recipient: str, answer: str,
                 key: str = " --key YOUR_KEY") -> list[str]:
    """What ``recipient`` runs to answer (``answer``: ``frogpbem reply THIS_MESSAGE.eml``),
    in words: its join (with its setup, when it chooses one), its setup and first move,
    its move, its reveal once the outcome waits for it; empty when nothing is due from
    it."""
    rules = duel_rules(rules_name)
    due = due_seat(progress, rules)
    setup = setup_option(rules_name)
    if not progress.joined and due == recipient:
        if chooses(progress, rules, recipient):
            return ["Join with one command, your setup drawn at random:",
                    f"    {answer} --random{key}",
                    f"or chosen by you: {answer} {setup}{key}"]
        return ["Join with one command:", f"    {answer}{key}"]
    if due == recipient and chooses(progress, rules, recipient):
        return [f"It is your move ({recipient}), with your setup first. Give it (or "
                "--random: drawn at random); your tool keeps it and shows your board:",
                f"    {answer} {setup}{key}",
                "then answer the same message with your move, which goes with it:",
                f'    {answer} "YOUR MOVE"{key}']
    if due == recipient:
        return [f"It is your move ({recipient}). Answer with one command:",
                f'    {answer} "YOUR MOVE"{key}']
    if due is None and reveal_due(progress, rules, recipient):
        return ["The moves are over; the outcome waits for your reveal (your secret, and "
                "what rests on it). Send it with one command:", f"    {answer}{key}"]
    return []


def body(loaded: Loaded, recipient: str, name: str,
         said_last: tuple[str, ...] | None = None) -> str:
    """The mail's text for ``recipient``: what the last message did (``said_last``, when
    the caller has it in words), its board when that needs no secret, and the exact
    command to answer with."""
    file, progress = loaded.file, loaded.progress
    header = file.header
    sender = progress.other(recipient)
    rules = duel_rules(header.rules)
    due = due_seat(progress, rules)
    answer = "frogpbem reply THIS_MESSAGE.eml"
    lines = _opening(loaded, said_last)
    todo = answer_lines(progress, header.rules, recipient, answer)
    if not progress.joined and due == recipient:
        names = ", ".join(f"{p.seat} ({safe(p.name)})" for p in header.seats)
        lines += [f"{safe(header.party(sender).name)} ({sender}) invites you to a game of "
                  f"{progress.ruleset.title} with no referee: {names}; you play {recipient}.",
                  *todo]
    elif due == recipient:
        if not board_shown(loaded) and not chooses(progress, rules, recipient):
            lines += ["Your board needs your own key to show: run",
                      f"    {answer} --key YOUR_KEY", ""]
        lines += todo
    elif due is None:
        pending = reveals_due(progress, rules)
        lines += todo or ([f"The moves are over; the outcome waits for "
                           f"{withheld_words(pending)}."] if pending else [])
        lines += [f"The game is over; check it: frogpbem verify {name}"] if not pending \
            else [f"Then check it: frogpbem verify {name}"]
    else:
        lines += [f"{due} is to move. You may still resign:",
                  f"    {answer} resign --key YOUR_KEY"]
    if todo:
        lines += ["(save this message, or pipe it from your mail program: frogpbem reply -",
                  f"...). It checks the attached {name}, signs your message, and writes",
                  f"the answer to {sender} as an .eml file to send, or sends it (--smtp URL,",
                  "--sendmail).", "",
                  f"Or by hand: save the attached {name}, run",
                  f"    frogpbem move {name} " + ("" if not progress.joined or due is None
                                                   else '"YOUR MOVE" ') + "--key YOUR_KEY",
                  f"and mail {name} back to {sender}."]
    return "\n".join(lines) + "\n"


def _opening(loaded: Loaded, said_last: tuple[str, ...] | None) -> list[str]:
    """The first lines of a mail: what the last message did, and the board when that
    needs no secret."""
    file = loaded.file
    lines = []
    if file.messages:
        lines += [*(said_last if said_last is not None
                    else message_words(file, file.messages[-1].n)), ""]
    if board_shown(loaded):
        lines += [view_text(loaded, None), ""]
    return lines


def notary_body(loaded: Loaded, recipient: str, name: str,
                said_last: tuple[str, ...] | None = None) -> str:
    """The text of a seat's mail to the notary, which stamps the file and forwards it to
    ``recipient``: what the last message did (``said_last``, when the caller has it in
    words), the board when that needs no secret, and the deadlines by the notary's
    stamps (the notary's clock decides)."""
    file, progress = loaded.file, loaded.progress
    header = file.header
    sender = progress.other(recipient)
    lines = _opening(loaded, said_last)
    notary = safe(header.notary.name) if header.notary is not None else "the notary"
    lines.append(f"{sender}'s copy of game {file.game} ({name}, attached), to the notary "
                 f"({notary}), who stamps it and forwards it to {recipient}.")
    deadline = header.deadline
    own = stamps.clock(file, len(file.stamps), sender) \
        if len(file.messages) > len(file.stamps) else None
    if deadline is not None and own is not None:
        lines.append(f"{sender}'s deadline for it: {own.until_text} ({deadline.per_move} "
                     f"after the notary's stamp at {own.since}), by the notary's clock.")
    rules = duel_rules(header.rules)
    due = due_seat(progress, rules)
    pending = reveals_due(progress, rules) if file.timeout is None else ()
    if due is None and pending:
        lines.append(f"The moves are over; the outcome waits for {withheld_words(pending)}.")
    elif file.timeout is not None or due is None:
        lines.append(f"The game is over; check it: frogpbem verify {name}")
    elif deadline is not None and due == recipient and progress.joined:
        lines.append(f"{recipient} then has {deadline.per_move} from the notary's stamp.")
    return "\n".join(lines) + "\n"


def deadline_of(loaded: Loaded, seat: str) -> stamps.Due | None:
    """``seat``'s running deadline by the notary's stamps (``None``: none runs for it: no
    deadline, the game over or timed out, the other seat due, a message not stamped)."""
    file = loaded.file
    if file.timeout is not None or len(file.stamps) != len(file.messages):
        return None
    running = stamps.clock(file, len(file.stamps),
                           due_seat(loaded.progress, duel_rules(file.header.rules)))
    return running if running is not None and running.seat == seat else None


def deadline_words(loaded: Loaded, seat: str, now: int) -> tuple[str, str | None]:
    """The seat's deadline in words (empty: none runs), and a warning when it has passed
    by this computer's clock (``now``): the notary's clock decides."""
    running = deadline_of(loaded, seat)
    deadline = loaded.file.header.deadline
    if running is None or deadline is None:
        return "", None
    said = (f"Your deadline ({seat}): {running.until_text}, {deadline.per_move} after the "
            f"notary's stamp at {running.since} (the notary's clock decides).")
    if now < running.until:
        return said, None
    return said, (f"warning: your deadline passed at {running.until_text} by your clock "
                  f"({text_of(now)}): the notary's clock decides; if it agrees, it records "
                  "your timeout and refuses your message")


def letter(loaded: Loaded, recipient: str, to: Address | None, sender: Address | None,
           thread: list[str], auto: str | None = None) -> EmailMessage:
    """The mail of ``loaded``'s last message for ``recipient`` (a seat: to it, or to the
    notary that forwards it), to ``to`` from
    ``sender``, threaded under ``thread`` (the game's Message-IDs, oldest first), the file
    attached in base64. ``auto``: an automatic mail's ``Auto-Submitted`` (a seat's own
    has none)."""
    name = f"{loaded.file.game}.yaml"
    file = loaded.file
    said = message_words(file, file.messages[-1].n) if file.messages else None
    message = EmailMessage()
    message["Subject"] = subject(loaded, said)
    if sender is not None:
        message["From"] = sender
    if to is not None:
        message["To"] = to
    if thread:
        message["In-Reply-To"] = thread[-1]
        message["References"] = " ".join(thread[-THREAD:])
    message["X-Frogpbem-Game"] = loaded.file.game
    message["X-Frogpbem-Head"] = loaded.file.head
    message.set_content(notary_body(loaded, recipient, name, said)
                        if loaded.file.header.notary is not None
                        else body(loaded, recipient, name, said))
    message.add_attachment(dump_duel(loaded.file), maintype="application", subtype="yaml",
                           filename=name)
    stamp(message, domain_of(sender.addr_spec if sender is not None else None), auto)
    return message


def _party(loaded: Loaded, seat: str) -> Address | None:
    party = loaded.file.header.party(seat)
    return one_address(safe(party.name), party.email) if party.email else None


def _send_address(loaded: Loaded, seat: str) -> Address | None:
    """Where ``seat``'s mail goes (:func:`frogpbem.duel.engine.send_to`): the notary's
    address when the header names one, else the other seat's."""
    header = loaded.file.header
    where = send_to(header, seat)
    if where is None:
        return None
    if header.notary is not None:
        return one_address(safe(header.notary.name), where)
    return _party(loaded, loaded.progress.other(seat))


def _via(loaded: Loaded, seat: str) -> str:
    """`` (to the notary, who …)`` when the seat's mail goes through a notary; else empty."""
    if loaded.file.header.notary is None:
        return ""
    return (" (to the notary, who stamps it and forwards it to "
            f"{loaded.progress.other(seat)})")


def thread_of(session: Session, game: str) -> list[str]:
    """The Message-IDs of ``game``'s mail this seat has seen or sent, oldest first."""
    try:
        value = json.loads(read_bytes(_thread_path(session, game), 1 << 16))
    except (FrogPbemError, ValueError):
        return []
    if not isinstance(value, list):
        return []
    return [ident for ident in value if isinstance(ident, str) and MESSAGE_ID.fullmatch(ident)]


def remember_thread(session: Session, game: str, *idents: str) -> None:
    """Add ``idents`` (Message-IDs) to the thread of ``game``. Threading is a courtesy to
    mail programs: a thread that cannot be kept (a folder in the way) costs nothing else."""
    known = thread_of(session, game)
    for ident in idents:
        ident = ident.strip()
        if MESSAGE_ID.fullmatch(ident) and ident not in known:
            known.append(ident)
    path = _thread_path(session, game)
    with contextlib.suppress(OSError, FrogPbemError):
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_atomic(path, json.dumps(known[-THREAD:]).encode(), durable=False, private=True)


def _thread_path(session: Session, game: str) -> Path:
    return session.home / "threads" / f"{game}.json"


def _message_thread(message: MailMessage) -> list[str]:
    """The thread a message belongs to: its References, then its own Message-ID."""
    ident = header_text(message, "message-id").strip()
    before = [token for token in header_text(message, "references").split()
              if MESSAGE_ID.fullmatch(token)]
    return [*before, *([ident] if MESSAGE_ID.fullmatch(ident) else [])][-THREAD:]


# --- frogpbem mail ---------------------------------------------------------------------


@dataclass
class Mailed:
    """What ``frogpbem mail`` wrote for a game without a referee."""

    game: str
    seat: str
    """The seat it is for."""
    address: str | None
    message: EmailMessage
    messages: int
    """How many messages the file holds."""
    via: str = ""
    """`` (to the notary, who stamps it and forwards it to SEAT)``, or empty."""


def mail(path: Path, key: crypto.PrivateKey, to: str | None, sender: str | None,
         session: Session) -> Mailed:
    """The mail of the file at ``path`` from this key's seat to the other seat (through the
    notary, when the header names one): to the header's address for it (``to``: another
    address), from this seat's (``sender``: another)."""
    loaded = load(path, session)
    seat = seat_of(loaded.file.header, key.public)
    other = loaded.progress.other(seat)
    given = address(to, "--to") if to and to not in ("all", other, "notary") else None
    me = address(sender, "--from") if sender else _party(loaded, seat)
    recipient = given or _send_address(loaded, seat)
    message = letter(loaded, other, recipient, me, thread_of(session, loaded.file.game))
    return Mailed(loaded.file.game, other, recipient.addr_spec if recipient else None, message,
                  len(loaded.file.messages), _via(loaded, seat))


def write_mailed(mailed: Mailed, folder: Path) -> Path:
    """The mail as ``GAME-SEAT-N.eml`` in ``folder`` (made if needed, never overwriting)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{mailed.game}-{mailed.seat}-{mailed.messages}.eml"
    if os.path.lexists(path):
        raise FileAccessError("exists already; not overwriting a message", path=path)
    write_atomic(path, bytes(mailed.message), durable=False, private=True)
    return path


def send_mailed(mailed: Mailed, smtp: str | None, sendmail: str | None,
                config: Path | None) -> str:
    """Send the mail over SMTP, or with sendmail; where it went, in words."""
    if mailed.address is None:
        whose = "the notary" if mailed.via else mailed.seat
        raise UsageError(f"no mail address for {whose} in the game file: give --to "
                         "ADDRESS, or write the message with --out")
    if mailed.message.get_all("From") is None:
        raise UsageError("no address of yours in the game file: give --from ADDRESS")
    if smtp is not None:
        send_messages([mailed.message], smtp, config)
        return f"sent to {_whom(mailed)}: {mailed.address}{mailed.via}"
    run_sendmail(sendmail or "", mailed.message)
    return f"sent to {_whom(mailed)}: {mailed.address} with {sendmail}{mailed.via}"


def _whom(mailed: Mailed) -> str:
    return "the notary" if mailed.via else mailed.seat


# --- frogpbem reply --------------------------------------------------------------------


def reply(message: EmailMessage, key: crypto.PrivateKey, games: Path, move: str | None,
          sender: str | None, deliver: Deliver | None, to: str | None, session: Session,
          command: str, choice: Choice | None = None) -> DuelTurn:
    """Answer ``message`` (the other seat's) in a game without a referee: check its copy
    (whole, and against this seat's memory), keep it in ``games``, add this seat's message
    (its join, the steps due from it, its move), keep the signed copy, and have the answer
    delivered to the other seat (through the notary, when the header names one; a warning
    when this seat's deadline passed by this computer's clock). Without a move: join if
    this seat must, take the steps due from it that stand alone, or its reveal the outcome
    waits for, else show the board and what to run (``command``), and the seat's deadline
    by the notary's stamps. With ``choice`` (its setup, Secret Move's headers) the seat's
    join or first message holds it; a setup after which the seat is still to move is kept
    and not sent: its move goes with it.

    A seat whose copy holds its own messages after this one (the other seat is done and it
    moves alone, or it kept its setup) and whose step it still is answers the same message
    again: its next message builds on its own copy. Only a second, different message of
    one number is refused (it would fork the game)."""
    me = address(sender, "--from") if sender else None
    given = address(to, "--to") if to else None
    copy, count, named = copy_in(contents(message))
    seat = seat_of(copy.header, key.public)
    target = games / f"{copy.game}.yaml"
    ready_folder(games)
    with locked(target):
        kept = _kept(target, copy.game)
        relation = _relation(kept, copy, target, seat)
        # an older mail of the same messages may lack the notary's later stamps or
        # timeout, which the kept copy holds: the seat moves on from the kept one
        base = kept if relation == "same" and kept is not None else copy
        if relation == "answered":
            assert kept is not None
            _checked_against(copy, kept, named)
            resend = _resend(kept, count, seat, target, move, session)
            if resend is not None:
                return _again(message, kept, count, copy, key, target, move, me, given,
                              deliver, session, command, resend)
            base, relation = kept, "same"  # it moves on from its own last message
        with tempfile.TemporaryDirectory() as folder:
            work = Path(folder) / target.name
            work.write_bytes(dump_duel(base))
            try:
                # a rollback (8), a fork (11), or what only this seat can check of it
                # (Frog Finder: the count box it must open) is refused here
                loaded = load(work, session, key=key)
            except FrogPbemError as exc:
                raise _named(exc, folder, named) from None
            if relation == "new":
                write_atomic(target, dump_duel(copy))  # the checked copy is kept
            remember_thread(session, copy.game, *_message_thread(message))
            progress = loaded.progress
            rules = duel_rules(copy.header.rules)
            must_join = not progress.joined and seat == progress.second
            text = move
            if move is not None and move.strip().lower() == "reveal" and progress.over:
                text = None  # the game is over: the seat shows its secret
            said, late = deadline_words(loaded, seat, session.clock.now())
            warnings = [late] if late else []
            if choice is None and chooses(progress, rules, seat) and \
                    (must_join or move is not None):
                raise UsageError(f"{seat} gives its setup first: {command} --random (drawn "
                                 f"at random), or {command} "
                                 f"{setup_option(copy.header.rules)}")
            acts = must_join or choice is not None or reveal_due(progress, rules, seat) or \
                (not chooses(progress, rules, seat) and steps_alone(loaded, seat, key))
            if move is None and (loaded.file.timeout is not None or not acts):
                return DuelTurn(copy.game, seat, target, len(loaded.file.messages),
                                shown=_shown(loaded, seat, key, target, command, said),
                                warnings=warnings)
            try:
                added = add(work, key, text, session, join_only=must_join and move is None,
                            choice=choice)
            except FrogPbemError as exc:
                raise _named(exc, folder, None) from None
            signed = read_bytes(work)
        write_atomic(target, signed)  # kept before it is sent: the one answer to this message
        after = _signed(target, session)
        turn = DuelTurn(copy.game, seat, target, len(after.file.messages),
                        list(added.lines) or [f"{seat}'s step"], warnings=warnings)
        last = after.file.messages[-1]
        said = f"{added.n}\n{' '.join((move or '').split())}\n"
        write_atomic(answered_path(target), said.encode(), durable=False, private=True)
        if added.due == seat and choice is not None and last.move is None and \
                not last.resign:  # its setup, kept: its first move goes with it
            turn.then = (f"{_shown(after, seat, key, target, command)}\n"
                         "(your setup is signed and kept, not sent yet: it goes with your "
                         "move)")
            return turn
        _deliver(turn, message, after, me, given, deliver, session)
        if added.due == seat:
            turn.then = (f"It is your move again ({seat}): answer the same message again "
                         f'with your next move:\n    {command} "YOUR MOVE"')
        write_atomic(answered_path(target), f"{said}{' '.join(turn.sent.split())}\n".encode(),
                     durable=False, private=True)
    return turn


def _signed(target: Path, session: Session) -> Loaded:
    """The seat's copy as its tool has just signed and kept it: every message verified
    (:func:`~frogpbem.duel.engine.add` remembered them), so replayed without checking
    them again."""
    file = read_duel(target)
    return Loaded(target, file, replay(file, target, session.verified.duel_trusted(file)))


def _named(exc: FrogPbemError, folder: str, name: str | None) -> FrogPbemError:
    """``exc`` naming ``name`` (or nothing: the caller names the message) in place of the
    message's copy unpacked in ``folder``."""
    if exc.path is not None and exc.path.startswith(folder):
        exc.path = name
    return exc


def _resend(kept: DuelFile, count: int, seat: str, target: Path,
            move: str | None, session: Session) -> int | None:
    """The index in ``kept`` of this seat's message to send again (its answer to message
    ``count``, or its last one), or ``None`` when the
    seat moves on from its own last message instead: it is still its step (the other
    seat is done, or it kept its setup), and that message was sent (or holds no move:
    its setup) unless ``move`` is another one."""
    progress = replay(kept, target, session.verified.duel_trusted(kept))
    if due_seat(progress, duel_rules(kept.header.rules)) != seat:
        return count
    last = kept.messages[-1]
    done = "resign" if last.resign else (last.move or "")
    try:
        lines = answered_path(target).read_text("utf-8").split("\n")
        unsent = lines[0] == str(last.n) and not lines[2].strip()
    except (OSError, IndexError, ValueError):
        unsent = False
    if unsent and done and (move is None or _normal_of(progress, move) == done):
        return len(kept.messages) - 1  # its last answer, signed but not sent: again
    return None


def _normal_of(progress: Progress, move: str) -> str | None:
    if move.strip().lower() == "resign":
        return "resign"
    try:
        rules = progress.ruleset
        return str(rules.format_move(rules.parse_move(move)))
    except FrogPbemError:
        return None


def _again(message: EmailMessage, kept: DuelFile, count: int, copy: DuelFile,
           key: crypto.PrivateKey, target: Path, move: str | None, me: Address | None,
           given: Address | None, deliver: Deliver | None, session: Session,
           command: str, index: int | None = None) -> DuelTurn:
    """This seat answered the message already (its message ``count + 1`` is in its copy):
    the same answer is sent again, with a warning; a different move is refused (a second
    message of that number, signed by this seat, would fork the game)."""
    seat = seat_of(kept.header, key.public)
    loaded = load(target, session)
    mine = kept.messages[count if index is None else index]
    given_move = _normal(loaded, move)
    before = "resign" if mine.resign else (mine.move or "")
    if move is None and before:
        return DuelTurn(copy.game, seat, target, len(kept.messages), shown="\n".join([
            view_text(loaded, key), "",
            f"You answered this message already (message {mine.n}: {before}). If that "
            "answer was lost, send it again with:", f"    {command} {shlex.quote(before)}"]))
    if given_move is not None and given_move != before:
        raise NotYourTurnError(f"you answered message {count} already, with "
                               f"{before or 'your join'!r}: a different answer would fork the "
                               f"game (two messages {mine.n} signed by you); send that one "
                               "again, or answer the other seat's next message")
    try:
        sent = answered_path(target).read_text("utf-8").split("\n")[2]
    except (OSError, IndexError, ValueError):
        sent = ""
    where = f" ({safe(sent)})" if sent else ""
    turn = DuelTurn(copy.game, seat, target, len(kept.messages),
                    [f"message {m.n}: " + "; ".join(message_words(loaded.file, m.n))
                     for m in kept.messages[count:]])
    turn.warnings = [f"warning: you already answered message {count} with "
                     f"{before or 'your join'!r}{where}; sending that same answer again "
                     "(a different one would fork the game)"]
    _deliver(turn, message, loaded, me, given, deliver, session)
    return turn


def _normal(loaded: Loaded, move: str | None) -> str | None:
    """A move as its message holds it (``resign`` for a resignation); ``None``: none."""
    if move is None:
        return None
    if move.strip().lower() == "resign":
        return "resign"
    rules = loaded.progress.ruleset
    return str(rules.format_move(rules.parse_move(move)))


def _deliver(turn: DuelTurn, message: EmailMessage, after: Loaded, me: Address | None,
             given: Address | None, deliver: Deliver | None, session: Session) -> None:
    """Write the answer (to the other seat, or the notary) into ``turn`` and have it
    delivered."""
    other = after.progress.other(turn.seat)
    sender = me or _party(after, turn.seat) or _single(message, "to")
    recipient = given or _send_address(after, turn.seat) or _asked(message, sender)
    if recipient is not None and sender is not None and \
            recipient.addr_spec.lower() == sender.addr_spec.lower():
        whose = "the notary" if after.file.header.notary is not None else other
        raise UsageError(f"the answer would go to your own address, {recipient.addr_spec}: "
                         f"give {whose}'s with --to ADDRESS")
    thread = [*thread_of(session, after.file.game)]
    for ident in _message_thread(message):
        if ident not in thread:
            thread.append(ident)
    here = header_text(message, "message-id").strip()
    if MESSAGE_ID.fullmatch(here):  # in reply to this very message
        thread = [ident for ident in thread if ident != here] + [here]
    turn.to = str(recipient) if recipient is not None else ""
    turn.answer = letter(after, other, recipient, sender, thread)
    if deliver is not None:
        try:
            turn.sent = deliver(turn, turn.answer) + _via(after, turn.seat)
        except FrogPbemError as exc:
            exc.message = (f"{exc.message}; your answer is signed and kept in {turn.copy}: "
                           "run the same command again to send it")
            raise
    remember_thread(session, after.file.game, header_text(turn.answer, "message-id"))


def _single(message: MailMessage, name: str) -> Address | None:
    found = addresses_of(message, name)
    return found[0] if len(found) == 1 else None


def _asked(message: MailMessage, sender: Address | None) -> Address | None:
    """The message's Reply-To (or From), when the header names no address for the other
    seat; never this seat's own."""
    found = addresses_of(message, "reply-to") or addresses_of(message, "from")
    if not found or (sender is not None and
                     found[0].addr_spec.lower() == sender.addr_spec.lower()):
        return None
    return found[0]


def _shown(loaded: Loaded, seat: str, key: crypto.PrivateKey, target: Path,
           command: str, deadline: str = "") -> str:
    """The board as this seat's tool shows it, what to run, and the seat's ``deadline`` in
    words (if one runs)."""
    progress = loaded.progress
    rules = duel_rules(loaded.file.header.rules)
    due = due_seat(progress, rules)
    timeout = loaded.file.timeout
    pending = reveals_due(progress, rules)
    if timeout is not None:
        after = (f"The game is over: the notary recorded {timeout.seat}'s timeout at "
                 f"{timeout.at} ({timeout.seat} sent nothing before its deadline), and "
                 f"{timeout.seat} forfeits; check it: frogpbem verify {target}")
    elif due is None and seat in pending:
        after = ("The moves are over; the outcome waits for your reveal (your secret, and "
                 f"what rests on it). Send it with:\n    {command}")
    elif due is None and pending:
        after = (f"The moves are over; the outcome waits for {withheld_words(pending)}; "
                 f"then check it: frogpbem verify {target}")
    elif due is None:
        after = f"The game is over; check it: frogpbem verify {target}"
        if seat not in progress.revealed:
            after += f"\nYou may show your secret: {command} reveal"
    elif due == seat and chooses(progress, rules, seat):
        after = (f"It is your move ({seat}), with your setup first: give it (or --random), "
                 f"which your tool keeps and shows:\n    {command} "
                 f"{setup_option(loaded.file.header.rules)}\nthen your move: "
                 f'{command} "YOUR MOVE"')
    elif due == seat:
        after = f'It is your move ({seat}). Answer with:\n    {command} "YOUR MOVE"'
    else:
        after = f"{due} is to move. You may still resign:\n    {command} resign"
    if deadline:
        after += f"\n{deadline}"
    return f"{view_text(loaded, key)}\n\n{after}\n(your copy: {target})"


# --- frogpbem receive ------------------------------------------------------------------


def keep(found: Found, games: Path, key: crypto.PrivateKey, session: Session) -> str:
    """Keep the message's copy of a game without a referee in ``games`` when it is newer
    (checked whole and against this seat's memory); what was done, in words."""
    copy, count, named = copy_in(found)
    seat = seat_of(copy.header, key.public)
    target = games / f"{copy.game}.yaml"
    ready_folder(games)
    with locked(target):
        kept = _kept(target, copy.game)
        relation = _relation(kept, copy, target, seat)
        if relation == "answered":
            assert kept is not None
            _checked_against(copy, kept, named)
            return (f"game {copy.game}: you hold this copy already, with your answer after "
                    f"message {count}")
        with tempfile.TemporaryDirectory() as folder:
            work = Path(folder) / target.name
            work.write_bytes(dump_duel(copy))
            try:
                load(work, session, key=key)
            except FrogPbemError as exc:
                raise _named(exc, folder, named) from None
        if relation == "same":
            return f"game {copy.game}: you hold this copy already (after message {count})"
        write_atomic(target, dump_duel(copy))
    return f"game {copy.game}: kept the copy after message {count}"


def keeper(games: Path, key: crypto.PrivateKey, session: Session) -> Callable[[Found], str]:
    """:func:`keep` for ``receive``, which hands it each message's findings."""
    return lambda found: keep(found, games, key, session)


__all__ = ["SHOWN", "Deliver", "DuelTurn", "Mailed", "body", "board_shown", "carried",
           "copy_in", "deadline_of", "deadline_words", "keep", "keeper", "letter", "mail",
           "notary_body", "remember_thread", "reply",
           "send_mailed", "send_sendmail", "send_smtp", "subject", "thread_of", "write_eml",
           "write_mailed"]
