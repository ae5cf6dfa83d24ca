"""A player's turn in one command: the judge's message in, the signed answer out.

``frogpbem reply MESSAGE "shoot C3"`` reads the message that the judge (or a
referee) sent, takes the game file attached to it, signs the move as
``frogpbem move`` does, and answers the message: a reply with the updated game
file attached, written as an ``.eml`` file or sent. The player's copy in their
games folder (``ID.yaml``, as ``frogpbem receive`` keeps it) follows, checked
against this user's memory of what was seen, so a rollback or a fork is
refused as everywhere else.

The answer goes to the referee's address signed in the game's header when it
has one (``frogpbem new --email referee=ADDRESS``), else to the address this
player answered first in that game (kept beside the copy, ``ID.answer-to``):
a forwarded message, or one whose Reply-To points elsewhere, cannot take a
move away from the judge unless ``--to`` says so.

The message's copy is kept as soon as the memory of what was seen accepts it;
the signed copy only once the answer is out, so a refused move or a failed
send leaves no request behind that was never mailed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from email.headerregistry import Address
from email.message import EmailMessage, Message
from email.policy import default as default_policy
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Literal, Protocol

from frogpbem import crypto
from frogpbem.dealing import join_game, submit_setup
from frogpbem.errors import (
    FileAccessError,
    FrogPbemError,
    GameFileError,
    IllegalMoveError,
    NotKeptError,
    StaleCopyError,
    UsageError,
)
from frogpbem.gamefile.document import dump_game, locked, read_bytes, write_atomic
from frogpbem.gamefile.model import GameFile
from frogpbem.mail.answers import ANSWERS
from frogpbem.mail.compose import send_messages
from frogpbem.mail.contact import header_addresses, one_address
from frogpbem.mail.headers import re_subject
from frogpbem.mail.invite import says_joined
from frogpbem.mail.receive import (
    MAX_MESSAGE,
    NotRead,
    contents,
    game_file,
    header_text,
    messages_in,
)
from frogpbem.notes import add_note
from frogpbem.protocol.game import REFEREE, Game, deadline_of, load
from frogpbem.protocol.session import Session
from frogpbem.referee import Requested, request_move
from frogpbem.safetext import safe
from frogpbem.views import View, view_for

SENDMAIL = Path("/usr/sbin/sendmail")
"""Where sendmail is, on most systems (any MTA's compatible one will do)."""


def default_games(home: Path) -> Path:
    """Where a player's games are kept: ``games/`` in ``home``, the session's
    (``$FROGPBEM_HOME``, by default ``~/.local/share/frogpbem``)."""
    return home / "games"


@dataclass
class Turn:
    """What one reply did to a game, and the answer to send."""

    game: str
    seat: str
    copy: Path
    """The player's copy, kept in the games folder."""
    records: int
    """How many records the copy has."""
    view: View | None
    """The player's view of the copy (before the move: it is only requested); ``None``
    before the deal."""
    loaded: Game
    """The copy as signed."""
    lines: list[str] = field(default_factory=list)
    """What was signed, in words."""
    answer: EmailMessage | None = None
    """The reply to the message, when something was signed."""
    sent: str = ""
    """Where the answer went, in words."""
    to: str = ""
    """Whom the answer is for (its To:), in words; empty when the message names nobody."""
    warnings: list[str] = field(default_factory=list)
    """What this user's memory says the referee passed over (a move signed in time, and a
    timeout recorded instead): shown to the player, never signed or mailed."""

    @property
    def eml_stem(self) -> str:
        return f"{self.game}-{self.seat}-{self.records + 1}"

    @property
    def nobody(self) -> str:
        return "the message names nobody to answer"

    @property
    def nobody_hint(self) -> str:
        return "add the judge's address before you send it"

    @property
    def unaddressed(self) -> str:
        return "the message names nobody to answer (no From: or Reply-To:)"

    @property
    def teams(self) -> bool:
        """Whether the game has teams (only then do team notes reach anyone but oneself)."""
        game = self.loaded
        return bool(game.ruleset.team_names(game.options))


@dataclass(frozen=True)
class Setup:
    """A seat's own secret for a game whose seats choose theirs (``None``: at random)."""

    text: str | None


class OptionError(UsageError):
    """An option of the command itself is wrong (not the message): named as given."""


class Answering(Protocol):
    """What the ways out (:func:`write_eml`, :func:`send_smtp`, :func:`send_sendmail`)
    need of a turn: a game with a referee's (:class:`Turn`) or one without
    (:class:`frogpbem.mail.duel.DuelTurn`)."""

    @property
    def to(self) -> str:
        """Whom the answer is for, in words (empty: nobody)."""

    @property
    def eml_stem(self) -> str:
        """The answer's file name without ``.eml``: ``GAME-SEAT-N``."""

    @property
    def nobody(self) -> str:
        """Why the answer has no To:, in words."""

    @property
    def nobody_hint(self) -> str:
        """What to do about it when the answer is only written."""

    @property
    def unaddressed(self) -> str:
        """Why the answer cannot be sent, when it has no To:."""


Deliver = Callable[[Turn, EmailMessage], str]
"""Writes or sends the answer; returns where it went, in words."""


def reply(data: bytes, key: crypto.PrivateKey, games: Path, move: str | None = None,
          note: str | None = None, sender: str | None = None,
          deliver: Deliver | None = None, to: str | None = None, setup: Setup | None = None,
          *, session: Session) -> Turn:
    """Take the game out of the message ``data``, sign ``move`` (and seal ``note`` to the
    team; or join, or choose the ``setup``), have the answer delivered to the referee,
    then keep the signed copy in ``games``.

    The message's copy is kept as soon as the memory of what was seen accepts it;
    the signed one only once the answer is out. Without a move, a note or a setup
    nothing is signed: the player's view of the copy is returned. Raises
    :class:`FrogPbemError`; an error about this command's own options (``--from``,
    ``--to``) is an :class:`OptionError`.
    """
    me = address(sender, "--from") if sender else None
    given = address(to, "--to") if to else None
    message = one_message(data)
    copies = attached_copies(message)
    target = game_file(games, copies[0].game)
    with tempfile.TemporaryDirectory() as folder:
        try:
            work = Path(folder) / target.name
            game = _checked(copies, work, key, session)
            ready_folder(games)
            with locked(target):
                return _reply(message, game, work, key, target, move, note, setup, me, given,
                              deliver, session)
        except FrogPbemError as exc:
            if exc.path is not None and exc.path.startswith(folder):
                exc.path = None  # the message's copy, unpacked here: the caller names it
            raise


def _checked(copies: list[GameFile], work: Path, key: crypto.PrivateKey,
             session: Session) -> Game:
    """The message's copy (the longest), written to ``work`` and loaded: a seat's, and of one
    history when the message carries several copies (else the fork is refused)."""
    longest = max(copies, key=lambda copy: (len(copy.history_hashes()), copy.reveal is not None))
    games = []
    for copy in copies:
        work.write_bytes(dump_game(copy))
        games.append(load(work, session))
    longest_history = longest.history_hashes()
    for game in games:
        history = game.file.history_hashes()
        if game.header.hash != longest.header.hash or \
                longest_history[:len(history)] != history:
            for other in sorted(games, key=lambda g: len(g.file.history_hashes())):
                session.seen.see(other)  # raises: a fork, with its proof
            raise StaleCopyError(f"the message carries copies of game {longest.game} that "
                                 "differ: ask the judge (or referee) for the game file anew")
    work.write_bytes(dump_game(longest))
    game = load(work, session)
    if game.role(key) == REFEREE:
        raise UsageError("reply is a seat's: the referee takes answers with frogpbem "
                         "receive or the judge")
    return game


def ready_folder(games: Path) -> None:
    """Make the games folder, and check that a copy can be kept in it, before anything is
    signed or sent."""
    try:
        games.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileAccessError(f"cannot make the games folder: {exc.strerror}",
                              path=games) from None
    if not os.access(games, os.W_OK | os.X_OK):
        raise FileAccessError("the games folder cannot be written to", path=games)


def _reply(message: EmailMessage, game: Game, work: Path, key: crypto.PrivateKey,
           target: Path, move: str | None, note: str | None, setup: Setup | None,
           me: Address | None, given: Address | None, deliver: Deliver | None,
           session: Session) -> Turn:
    """:func:`reply` within the lock of the games folder, the message's copy in ``work``."""
    seat = game.role(key)
    base = _base(game, target, session, seat)
    work.write_bytes(base)
    late = session.seen.see(game)  # a rollback or a fork of what this user saw is refused here
    if not target.exists() or read_bytes(target) != base:
        write_atomic(target, base)  # the verified copy is kept, whatever follows
    game = load(work, session)
    lines = []
    requested = None
    signed: Signed | None = None  # what the seat signed before the deal
    if move is not None and move.strip().lower() == "join" and game.undealt:
        lines.append(join_game(work, key, session))
        signed = "join"
    elif setup is not None:
        lines.append(submit_setup(work, key, setup.text, session))
        signed = "setup"
    elif move is not None:
        if game.undealt:
            _undealt_refusal(game, seat)
        try:
            requested = request_move(game, key, move)
        except FrogPbemError as exc:  # over, or not its turn, on time: the warning says why
            exc.message = " ".join([exc.message, *late])
            raise
    if note is not None:
        lines.append(add_note(work, key, note, session))
    kept = load(work, session)
    turn = Turn(game.game_id, seat, target, len(kept.file.log),
                None if kept.undealt else view_for(kept, key), kept)
    turn.warnings = late
    if requested is not None:
        lines.append(requested.line)
        turn.warnings += _answered_before(target, requested.n)
        turn.warnings += _past_deadline(kept, turn.view, seat)
    turn.lines = [line.rsplit("; send ", 1)[0] for line in lines]  # this command sends
    if not turn.lines:
        return turn
    sender = me or _own_address(kept, seat, message)
    recipient = given or _recipient(message, kept, seat, target)
    if recipient is not None and sender is not None and \
            recipient.addr_spec.lower() == sender.addr_spec.lower():
        raise UsageError(f"the answer would go to your own address, {recipient.addr_spec}: "
                         "give the judge's (or referee's) with --to ADDRESS")
    turn.to = str(recipient) if recipient is not None else ""
    turn.answer = answer(message, read_bytes(work), target.name,
                         _words(kept, requested, note, signed), sender, recipient)
    if deliver is not None:
        turn.sent = deliver(turn, turn.answer)
    try:
        write_atomic(target, read_bytes(work))
        if requested is not None:
            said = [str(requested.n), requested.move, turn.sent]  # one line each
            write_atomic(answered_path(target), "".join(f"{' '.join(line.split())}\n"
                                                    for line in said).encode(),
                         durable=False, private=True)
        if recipient is not None and (given is not None or _remembered(target) is None) and \
                not kept.header.referee.email:
            write_atomic(_memory(target), f"{recipient}\n".encode(), durable=False)
    except FrogPbemError as exc:
        raise NotKeptError(f"{turn.sent or 'answered'}, but your copy could not be kept: "
                           f"{exc}") from None
    return turn


def _undealt_refusal(game: Game, seat: str) -> None:
    """A move given for a game not dealt yet: say what this seat can do instead (exit 4, as
    ``frogpbem move`` on a game not dealt)."""
    if seat not in game.waiting_for:
        raise IllegalMoveError(f"game {game.game_id} is not dealt yet: your join is in; the "
                               "start comes by mail once every seat has joined")
    if game.header.setup.choosers:
        raise IllegalMoveError(f"game {game.game_id} is not dealt yet: choose your secret "
                               'first, with --setup "YOUR SECRET" (or --random) instead of '
                               "a move")
    raise IllegalMoveError(f"game {game.game_id} is not dealt yet: join first, with join "
                           "in place of the move")


def next_step(turn: Turn, command: str) -> str:
    """What the player can do now, with ``command`` (``frogpbem reply MESSAGE``...)."""
    view, game = turn.view, turn.loaded
    if view is None:  # not dealt yet: the seats join (or choose their secrets) first
        waiting = ", ".join(game.waiting_for) or "the referee to deal"
        if turn.seat not in game.waiting_for:
            return (f"Game {turn.game} is not dealt yet: your join is in; waiting for "
                    f"{waiting}. The start comes by mail.")
        if game.header.setup.choosers:
            return (f"Game {turn.game} is not dealt yet: choose your secret (sealed to you and "
                    f'the referee) with:\n    {command} --setup "YOUR SECRET"\nor let your '
                    f"tool choose one:\n    {command} --random")
        return (f"Game {turn.game} is not dealt yet: waiting for {waiting} to join. Join "
                f"with a fresh seed of yours:\n    {command} join")
    if view.outcome is not None:
        return f"The game is over; check it: frogpbem audit {turn.copy}"
    to_move = view.game.ruleset.to_move(view.state)
    if to_move in (turn.seat, None):
        return f'It is your move ({turn.seat}). Answer with:\n    {command} "YOUR MOVE"'
    lines = [f"{to_move} is to move. You may still resign:", f"    {command} resign"]
    if turn.teams:
        lines += ["or write a note to your team:", f'    {command} --note "TEXT"']
    return "\n".join(lines)


def one_message(data: bytes) -> EmailMessage:
    """The one message of ``data`` (a message, or an mbox holding one)."""
    if not data.strip():
        raise UsageError("the message is empty: save the judge's message (or pipe it in)")
    if len(data) > MAX_MESSAGE:
        raise FileAccessError(f"the message is larger than {MAX_MESSAGE // (1024 * 1024)} "
                              "MiB; not read")
    try:
        found = messages_in(data)  # (one it cannot parse is read for its headers)
    except (ValueError, IndexError) as exc:  # what the parser gives up with
        raise UsageError(f"the message cannot be read as mail: {exc}") from None
    if len(found) != 1:
        raise UsageError(f"the mbox holds {len(found)} messages: save the judge's message "
                         "alone")
    message = found[0]
    if not isinstance(message, EmailMessage):  # read for its headers only (receive._message)
        unread = [str(defect) for defect in message.defects if isinstance(defect, NotRead)]
        raise UsageError(f"the message cannot be read: {unread[0] if unread else 'not as mail'}")
    return message


def attached_copies(message: Message) -> list[GameFile]:
    """The copies of one game the message carries (one, or several to be checked)."""
    unread = [str(defect) for defect in message.defects if isinstance(defect, NotRead)]
    if unread:  # too many parts, or nested too deeply: read for its headers only
        raise UsageError(f"the message cannot be read: {unread[0]}")
    try:
        found = contents(message)
    except RecursionError:
        raise UsageError("the message is nested too deep to read") from None
    if not found.copies:
        if found.problems:
            raise GameFileError(f"the game file in the message cannot be read: "
                                f"{found.problems[0]}")
        raise UsageError(_nothing_attached(message))
    games = sorted({copy.game for copy in found.copies})
    if len(games) > 1:
        raise UsageError(f"the message carries {len(games)} games ({', '.join(games)}): "
                         "reply to a message about one")
    return list(found.copies)


def _nothing_attached(message: Message) -> str:
    """Why a message without a game file cannot be answered, in words for what it is: the
    judge's word that a join is in, its answer to a message it could not use (its
    Message-ID says so), its reminder, or its message decoded by a mail program
    (mutt's ``pipe_decode`` leaves the attachments out)."""
    about = safe(" ".join(header_text(message, "x-frogpbem-game").split()))[:80]
    said = " ".join(header_text(message, "subject").split())
    part = message.get_body(("plain",)) if isinstance(message, EmailMessage) else None
    text = bytes(part) if part is not None else b""
    if about and says_joined(text):
        return (f"the message is the judge's (or referee's) word that your join is in game "
                f"{about}: it carries no game file and needs no answer; the start comes by "
                "mail")
    if re.search(rf"\.{ANSWERS}@[^>]*>\s*$", header_text(message, "message-id")):
        named = re.match(r"(?:re: )?\[frogpbem ([a-z0-9-]{3,64})\]", said, re.IGNORECASE)
        game = f"game {named[1]} (subject [frogpbem {named[1]}] …)" if named else "the game"
        return ("this is the judge's answer to a message it could not use: it carries no "
                f"game file; answer its last message about {game}, which carries it")
    reminder = re.fullmatch(r"\[frogpbem ([a-z0-9-]{3,64})\] reminder: .*", said)
    if reminder:
        return (f"the message is the judge's reminder for game {reminder[1]}, without the "
                "game file: reply to the judge's last message about it, which carries it")
    if about or _DECODED.search(text):
        return ("the message has lost its game file on the way: your mail program decoded "
                "it for reading, attachments left out (in mutt, unset pipe_decode); pipe or "
                "save the message as it came")
    return ("the message has no game file attached: reply to a message from the judge "
            "(or the referee), which carries it")


_DECODED = re.compile(rb"^\[-- (Attachment #|Type: |.* is unsupported)", re.MULTILINE)
"""How mutt marks the attachments of a message it decodes (``pipe_decode``, ``print``)."""


def _base(game: Game, target: Path, session: Session, seat: str) -> bytes:
    """What to sign into: the message's copy (with the player's own notes not mailed yet),
    or the player's own copy when it is of the same point of the game.

    A player's copy ahead of the message means the message is an old one; a copy that
    parts from it (another header, another history) is a fork, which the memory of
    what was seen proves (or refuses) as everywhere else. Requests of the player's
    copy behind the message were for records the message has decided already.
    """
    ours = dump_game(game.file)
    if not target.exists():
        return ours
    try:
        mine = load(target, session)
    except FrogPbemError as exc:
        raise exc.within(path=target) from None
    mine_history, history = mine.file.history_hashes(), game.file.history_hashes()
    shared = min(len(mine_history), len(history))
    if mine.header.hash != game.header.hash or mine_history[:shared] != history[:shared]:
        session.seen.see(mine)
        session.seen.see(game)  # raises: a fork, with its proof, or a copy of a stranger's game
        raise StaleCopyError(f"the message's copy of game {game.game_id} differs from this "
                             "one", path=target)
    if len(mine_history) > len(history):
        raise StaleCopyError(f"the message is an old one: it holds record {len(game.file.log)}"
                             f" of game {game.game_id}, your copy {target} record "
                             f"{len(mine.file.log)}; reply to the judge's latest message")
    if mine_history == history:
        return read_bytes(target)
    known = {note.signature for note in game.file.notes}
    unsent = tuple(note for note in mine.file.notes
                   if note.seat == seat and note.signature not in known)
    if not unsent:
        return ours
    return dump_game(replace(game.file, notes=(*game.file.notes, *unsent)))


Signed = Literal["join", "setup"]
"""What a seat signs before the deal: its join (a seed), or its chosen setup."""


def _words(game: Game, requested: Requested | None, note: str | None,
           signed: Signed | None = None) -> str:
    """The answer's text: what is in the attached file (a sealed move is not named);
    ``signed``: ``join`` or ``setup`` when the seat joined or chose its setup."""
    said = []
    if requested is not None:
        where = f"in game {game.game_id} ({requested.seat}, for record {requested.n})"
        said.append(f"My move {where} is sealed in the attached game file." if requested.sealed
                    else f"My move {where}: {requested.move}")
    if signed == "join":
        said.append(f"I join game {game.game_id} with a fresh seed, signed in the attached "
                    "game file.")
    elif signed == "setup":
        said.append(f"My setup for game {game.game_id} is sealed in the attached game file.")
    if note is not None:
        said.append("A note for my team is sealed in the attached game file.")
    said += ["", "Signed with frogpbem reply; the signed request is in the attached file."]
    return "\n".join(said) + "\n"


def answer(message: Message, data: bytes, name: str, text: str,
           sender: Address | None = None, to: Address | None = None) -> EmailMessage:
    """The reply to ``message``: to ``to``, from ``sender``, ``Re:`` its subject, threaded
    under it, the game file ``data`` attached."""
    out = EmailMessage()
    out["Subject"] = re_subject(header_text(message, "subject"))
    if sender is not None:
        out["From"] = sender
    if to is not None:
        out["To"] = to
    out["Date"] = formatdate(localtime=False)
    out["Message-ID"] = make_msgid(domain=sender.domain if sender is not None and sender.domain
                                   else "frogpbem.invalid")
    ident = header_text(message, "message-id").strip()
    if MESSAGE_ID.fullmatch(ident):
        out["In-Reply-To"] = ident
        before = [token for token in header_text(message, "references").split()
                  if MESSAGE_ID.fullmatch(token)][-20:]  # a thread's recent part
        out["References"] = " ".join([*before, ident])
    out.set_content(text)
    out.add_attachment(data, maintype="application", subtype="yaml", filename=name)
    return out


_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM = rf"{_ATOM}(?:\.{_ATOM})*"
MESSAGE_ID = re.compile(rf"<(?={_DOT_ATOM}@)[^@>]{{1,250}}@(?=[^>]{{1,250}}>)"
                        rf"(?:{_DOT_ATOM}|\[[!-Z^-~]*\])>")
"""A Message-ID as RFC 5322 3.6.4 writes it, ``<left@right>``: dot-atom-text on the left,
dot-atom-text or a domain literal on the right, each at most 250 characters (a ``(``, a
``,`` or a second ``@``, which mail programs read otherwise, is not one)."""


def address(text: str, what: str) -> Address:
    """One mail address written as ``Name <user@host>`` or ``user@host``."""
    found = header_addresses("from", text) or ()
    if len(found) != 1 or not found[0].domain:
        raise OptionError(f"{what} {text!r}: give one address, e.g. 'Alice "
                          "<alice@example.org>'")
    return found[0]


def addresses_of(message: Message, name: str) -> list[Address]:
    """The addresses of header ``name`` that read (none when the header does not)."""
    found = []
    try:
        for header in message.get_all(name) or []:
            for one in getattr(header, "addresses", ()):
                if one.username and one.domain:
                    found.append(Address(one.display_name, one.username, one.domain))
    except Exception:  # noqa: BLE001 - the email package's parser raises what it likes
        return []
    return found


def _party(name: str, email: str) -> Address | None:
    """``name <email>`` from the signed header, if ``email`` is one address."""
    return one_address(safe(name), email)


def _own_address(game: Game, seat: str, message: Message) -> Address | None:
    """This seat's address: its email in the signed header, else the message's To: when
    that names one address only."""
    for party in game.header.seats:
        if party.seat == seat and party.email:
            return _party(party.name, party.email)
    to = addresses_of(message, "to")
    return to[0] if len(to) == 1 else None


def _recipient(message: Message, game: Game, seat: str, target: Path) -> Address | None:
    """Where the answer goes: the referee's address signed in the game's header; else the
    message's Reply-To (or From), if it is the address this player answered before in
    this game (or the first one), and not a seat's."""
    referee = game.header.referee
    if referee.email:
        signed = _party(referee.name, referee.email)
        if signed is not None:
            return signed
    found = addresses_of(message, "reply-to") or addresses_of(message, "from")
    if not found:
        return None
    asked = found[0]
    for party in game.header.seats:
        if party.email and party.email.lower() == asked.addr_spec.lower():
            raise UsageError(f"the message asks for the answer at {asked.addr_spec}, the "
                             f"address of {party.seat} in game {game.game_id}, not the "
                             "judge's (a forwarded message?): answer the judge's own "
                             "message, or give --to ADDRESS")
    before = _remembered(target)
    if before is not None and before.addr_spec.lower() != asked.addr_spec.lower():
        raise UsageError(f"the message asks for the answer at {asked.addr_spec}, but your "
                         f"answers in game {game.game_id} went to {before.addr_spec}: if the "
                         f"judge has moved, give --to '{asked.addr_spec}'")
    return asked


def _memory(target: Path) -> Path:
    """Where the address answered in a game is kept: beside the player's copy."""
    return target.with_name(f"{target.stem}.answer-to")


def _past_deadline(game: Game, view: View | None, seat: str) -> list[str]:
    """The warning that ``seat``'s deadline to move passed already by this machine's clock
    (the move is signed all the same: the judge's clock decides)."""
    due = deadline_of(game, view.state) if view is not None else None
    if due is None or due[0] != seat or game.stores.clock.now() < due[1]:
        return []
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(due[1]))
    return [f"warning: your deadline passed at {when} (by this computer's clock): the judge "
            "has probably recorded the timeout, and may not take this move"]


def answered_path(target: Path) -> Path:
    """Where the last move answered in a game is kept (its record, or its message in a
    game without a referee; the move; where it went; a line each): beside the player's
    copy, so that a second answer for one record is warned of."""
    return target.with_name(f"{target.stem}.answered")


def _answered_before(target: Path, record: int) -> list[str]:
    """The warning that ``record`` was answered already (the judge takes the first answer
    that arrives, and not a later one); none if it was not (or the memory does not read)."""
    try:
        number, move, sent = answered_path(target).read_text("utf-8").split("\n")[:3]
        if int(number) != record:
            return []
    except (OSError, ValueError):  # none, or damaged: as none
        return []
    move, sent = safe(move), safe(sent)
    where = f" ({sent})" if sent else ""
    return [f"warning: you already answered record {record} with {move!r}{where}; the judge "
            "takes the first answer that arrives, so this one may not be used"]


def _remembered(target: Path) -> Address | None:
    """The address first answered in this game (or last given with --to), if any."""
    try:
        text = _memory(target).read_text("utf-8", "replace").strip()
    except OSError:
        return None
    try:
        header = default_policy.header_factory("to", text)
        found = [Address(a.display_name, a.username, a.domain)
                 for a in getattr(header, "addresses", ()) if a.username and a.domain]
    except Exception:  # noqa: BLE001 - a damaged memory is as none
        return None
    return found[0] if found else None


# --- where the answer goes -------------------------------------------------------------


def write_eml(path: Path | None = None) -> Callable[[Answering, EmailMessage], str]:
    """Write the answer to ``path``, or to ``GAME-SEAT-N.eml`` in the current folder (the
    first such name free); never over a file."""

    def deliver(turn: Answering, message: EmailMessage) -> str:
        target = path
        if target is None:
            target = Path(f"{turn.eml_stem}.eml")
            number = 1
            while os.path.lexists(target):
                number += 1
                target = Path(f"{turn.eml_stem}-{number}.eml")
        elif os.path.lexists(target):
            raise FileAccessError("exists already; not overwriting a message", path=target)
        write_atomic(target, bytes(message), durable=False, private=True)
        if not turn.to:
            return f"wrote {target}, with no To: ({turn.nobody}): {turn.nobody_hint}"
        return f"wrote {target}, to {turn.to}"

    return deliver


def send_smtp(url: str, config: Path | None = None) -> Callable[[Answering, EmailMessage], str]:
    """Send the answer through the SMTP server at ``url`` (as ``frogpbem mail`` does)."""

    def deliver(turn: Answering, message: EmailMessage) -> str:
        _sendable(turn, message, "--smtp")
        try:
            send_messages([message], url, config)
        except UsageError as exc:  # the URL or the login: this command's option
            raise OptionError(exc.message) from None
        return f"sent to {turn.to}"

    return deliver


def send_sendmail(program: str | Path = SENDMAIL) -> Callable[[Answering, EmailMessage], str]:
    """Hand the answer to ``program -t -oi`` (sendmail reads the recipients from To:).

    A bare name is looked for in PATH only, as a shell does: ``./name`` for one here.
    """

    def deliver(turn: Answering, message: EmailMessage) -> str:
        _sendable(turn, message, "--sendmail")
        run_sendmail(program, message)
        return f"sent to {turn.to} with {program}"

    return deliver


def run_sendmail(program: str | Path, message: EmailMessage) -> None:
    """Hand ``message`` to ``program -t -oi``; :class:`FileAccessError` when it refuses."""
    command = str(program) if os.sep in str(program) else shutil.which(str(program))
    if command is None:
        raise OptionError(f"--sendmail-path {program}: no such program in PATH (give "
                          f"./{program} for one in this folder)")
    try:
        done = subprocess.run([command, "-t", "-oi"], input=bytes(message),
                              capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise FileAccessError(f"cannot run {program}: {exc}") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise FileAccessError(f"{program} refused the message (exit "
                              f"{done.returncode}){': ' + said[-1] if said else ''}")


def _sendable(turn: Answering, message: EmailMessage, how: str) -> None:
    for name, where in (("To", f"{turn.unaddressed}: give --to ADDRESS"),
                        ("From", "no address of yours: give --from ADDRESS or set "
                                 "FROGPBEM_FROM")):
        if message.get_all(name) is None:
            raise UsageError(f"{where}; or write the answer with --out instead of {how}")


__all__ = ["MESSAGE_ID", "SENDMAIL", "Answering", "Deliver", "NotKeptError", "OptionError",
           "Setup", "Turn", "address", "addresses_of", "answer", "answered_path",
           "attached_copies", "default_games", "next_step", "one_message", "ready_folder",
           "reply", "run_sendmail", "send_sendmail", "send_smtp", "write_eml"]
