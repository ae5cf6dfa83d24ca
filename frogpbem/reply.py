"""A player's turn in one command: the judge's message in, the signed answer out.

``frogpbem reply MESSAGE "shoot C3"`` reads the message that the judge (or a
referee) sent, takes the game file attached to it, signs the move as
``frogpbem move`` does, and answers the message: a reply with the updated game
file attached, written as an ``.eml`` file or sent. The player's copy in their
games folder (``ID.yaml``, as ``frogpbem receive`` keeps it) follows, checked
against this user's memory of what was seen, so a rollback or a fork is
refused as everywhere else.

Nothing is kept before the answer is out: a refused move, a stale message or
a failed send leaves the player's copy as it was.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import EmailMessage, Message
from email.policy import default as default_policy
from email.utils import formatdate, make_msgid
from pathlib import Path

from frogpbem import crypto
from frogpbem.errors import (
    FileAccessError,
    FrogPbemError,
    GameFileError,
    StaleCopyError,
    UsageError,
)
from frogpbem.gamefile.document import dump_game, locked, read_bytes, write_atomic
from frogpbem.gamefile.model import GameFile
from frogpbem.mail import send_messages
from frogpbem.notes import add_note
from frogpbem.protocol.game import REFEREE, Game, load
from frogpbem.protocol.seen import SeenGames, default_home
from frogpbem.receive import (
    MAX_MESSAGE,
    NotRead,
    contents,
    game_file,
    header_text,
    messages_in,
)
from frogpbem.referee import Requested, request_move
from frogpbem.views import View, view_for

SENDMAIL = Path("/usr/sbin/sendmail")
"""Where sendmail is, on most systems (any MTA's compatible one will do)."""


def default_games() -> Path:
    """Where a player's games are kept: ``games/`` in ``$FROGPBEM_HOME`` (by default
    ``~/.local/share/frogpbem/games``)."""
    return default_home() / "games"


@dataclass
class Turn:
    """What one reply did to a game, and the answer to send."""

    game: str
    seat: str
    copy: Path
    """The player's copy, kept in the games folder."""
    records: int
    """How many records the copy has."""
    view: View
    """The player's view of the copy (before the move: it is only requested)."""
    lines: list[str] = field(default_factory=list)
    """What was signed, in words."""
    answer: EmailMessage | None = None
    """The reply to the message, when something was signed."""
    sent: str = ""
    """Where the answer went, in words."""

    @property
    def teams(self) -> bool:
        """Whether the game has teams (only then do team notes reach anyone but oneself)."""
        game = self.view.game
        return bool(game.ruleset.team_names(game.options))


Deliver = Callable[[Turn, EmailMessage], str]
"""Writes or sends the answer; returns where it went, in words."""


def reply(data: bytes, key: crypto.PrivateKey, games: Path, move: str | None = None,
          note: str | None = None, sender: str | None = None,
          deliver: Deliver | None = None, seen: SeenGames | None = None) -> Turn:
    """Take the game out of the message ``data``, sign ``move`` (and seal ``note`` to the
    team), have the answer delivered, then keep the copy in ``games``.

    Without a move or a note nothing is signed: the newer copy is kept and the
    player's view of it returned. Raises :class:`FrogPbemError` before anything
    is kept.
    """
    message = one_message(data)
    copy = attached_game(message)
    seen = seen or SeenGames()
    target = game_file(games, copy.game)
    # the folder is made only once there is something to keep in it
    with locked(target) if games.is_dir() else contextlib.nullcontext(), \
            tempfile.TemporaryDirectory() as folder:
        try:
            return _reply(message, copy, key, target, Path(folder), move, note, sender,
                          deliver, seen)
        except FrogPbemError as exc:
            if exc.path is not None and exc.path.startswith(folder):
                exc.path = None  # the message's copy, unpacked here: the caller names it
            raise


def _reply(message: EmailMessage, copy: GameFile, key: crypto.PrivateKey, target: Path,
           folder: Path, move: str | None, note: str | None, sender: str | None,
           deliver: Deliver | None, seen: SeenGames) -> Turn:
    """:func:`reply` within the lock of the games folder, the message's copy in ``folder``."""
    work = folder / target.name
    work.write_bytes(dump_game(copy))
    game = load(work)
    seat = game.role(key)
    if seat == REFEREE:
        raise UsageError("reply is a seat's: the referee takes answers with frogpbem "
                         "receive or the judge")
    work.write_bytes(_base(game, target, seen))
    seen.see(game)  # a rollback or a fork of what this user saw is refused here
    lines = []
    if note is not None:
        lines.append(add_note(work, key, note, seen=seen))
    requested = request_move(load(work), key, move) if move is not None else None
    kept = load(work)
    turn = Turn(game.game_id, seat, target, len(kept.file.log), view_for(kept, key),
                lines)
    if requested is not None:
        turn.lines.append(requested.line)
    turn.lines = [line.rsplit("; send ", 1)[0] for line in turn.lines]  # this command sends
    if requested is not None or note is not None:
        turn.answer = answer(message, read_bytes(work), target.name,
                             _words(game, requested, note), sender)
        if deliver is not None:
            turn.sent = deliver(turn, turn.answer)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileAccessError(f"cannot make the games folder: {exc.strerror}",
                              path=target.parent) from None
    write_atomic(target, read_bytes(work))
    return turn


def next_step(turn: Turn, command: str) -> str:
    """What the player can do now, with ``command`` (``frogpbem reply MESSAGE``...)."""
    view = turn.view
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
        found = messages_in(data)
    except RecursionError:
        raise UsageError("the message is nested too deep to read") from None
    except (ValueError, IndexError) as exc:  # what the parser gives up with
        raise UsageError(f"the message cannot be read as mail: {exc}") from None
    if len(found) != 1:
        raise UsageError(f"the mbox holds {len(found)} messages: save the judge's message "
                         "alone")
    message = found[0]
    assert isinstance(message, EmailMessage)  # the default policy makes EmailMessages
    return message


def attached_game(message: Message) -> GameFile:
    """The game file the message carries (the longest copy, if it carries several)."""
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
        raise UsageError("the message has no game file attached: reply to a message from "
                         "the judge (or the referee), which carries it")
    games = sorted({copy.game for copy in found.copies})
    if len(games) > 1:
        raise UsageError(f"the message carries {len(games)} games ({', '.join(games)}): "
                         "reply to a message about one")
    return max(found.copies, key=lambda copy: (len(copy.log), copy.reveal is not None))


def _base(game: Game, target: Path, seen: SeenGames) -> bytes:
    """What to sign into: the message's copy, or the player's own copy when it is of the same
    point of the game (it may hold the player's notes not mailed yet).

    A player's copy ahead of the message means the message is an old one; a copy that
    parts from it (another header, another history) is a fork, which the memory of
    what was seen proves (or refuses) as everywhere else.
    """
    ours = dump_game(game.file)
    if not target.exists():
        return ours
    try:
        mine = load(target)
    except FrogPbemError as exc:
        raise exc.within(path=target) from None
    mine_history, history = mine.file.history_hashes(), game.file.history_hashes()
    shared = min(len(mine_history), len(history))
    if mine.header.hash != game.header.hash or mine_history[:shared] != history[:shared]:
        seen.see(mine)
        seen.see(game)  # raises: a fork, with its proof, or a copy of a stranger's game
        raise StaleCopyError(f"the message's copy of game {game.game_id} differs from this "
                             "one", path=target)
    if len(mine_history) > len(history):
        raise StaleCopyError(f"the message is an old one: it holds record {len(game.file.log)}"
                             f" of game {game.game_id}, your copy {target} record "
                             f"{len(mine.file.log)}; reply to the judge's latest message")
    return read_bytes(target) if mine_history == history else ours


def _words(game: Game, requested: Requested | None, note: str | None) -> str:
    """The answer's text: what is in the attached file (a sealed move is not named)."""
    lines = []
    if requested is not None:
        where = f"in game {game.game_id} ({requested.seat}, for record {requested.n})"
        lines.append(f"My move {where} is sealed in the attached game file." if requested.sealed
                     else f"My move {where}: {requested.move}")
    if note is not None:
        lines.append("A note for my team is sealed in the attached game file.")
    lines += ["", "Signed with frogpbem reply; the signed request is in the attached file."]
    return "\n".join(lines) + "\n"


def answer(message: Message, data: bytes, name: str, text: str,
           sender: str | None = None) -> EmailMessage:
    """The reply to ``message``: to its Reply-To (else its From), from ``sender`` (else its
    To), ``Re:`` its subject, threaded under it, the game file ``data`` attached."""
    out = EmailMessage()
    said = " ".join(header_text(message, "subject").split())
    out["Subject"] = said if said[:3].lower() == "re:" else f"Re: {said}".rstrip()
    me = _address(sender, "--from") if sender else _first(message, "to")
    if me is not None:
        out["From"] = me
    to = _first(message, "reply-to") or _first(message, "from")
    if to is not None:
        out["To"] = to
    out["Date"] = formatdate(localtime=False)
    out["Message-ID"] = make_msgid(domain=me.domain if me is not None and me.domain
                                   else "frogpbem.invalid")
    ident = header_text(message, "message-id").strip()
    if ident.startswith("<") and ident.endswith(">") and len(ident.split()) == 1:
        out["In-Reply-To"] = ident
        before = header_text(message, "references").split()[-20:]  # a thread's recent part
        out["References"] = " ".join([*before, ident])
    out.set_content(text)
    out.add_attachment(data, maintype="application", subtype="yaml", filename=name)
    return out


def _address(text: str, what: str) -> Address:
    """One mail address written as ``Name <user@host>`` or ``user@host``."""
    header = default_policy.header_factory("from", text)
    found: tuple[Address, ...] = tuple(getattr(header, "addresses", ()))
    if len(found) != 1 or header.defects or not found[0].domain:
        raise UsageError(f"{what} {text!r}: give one address, e.g. 'Alice <alice@example.org>'")
    return found[0]


def _first(message: Message, name: str) -> Address | None:
    """The first address of header ``name``, if it has one that reads."""
    try:
        for header in message.get_all(name) or []:
            for address in getattr(header, "addresses", ()):
                if address.username and address.domain:
                    return Address(address.display_name, address.username, address.domain)
    except Exception:  # noqa: BLE001 - the email package's parser raises what it likes
        return None
    return None


# --- where the answer goes -------------------------------------------------------------


def write_eml(path: Path | None = None) -> Deliver:
    """Write the answer to ``path``, or to ``GAME-SEAT-N.eml`` in the current folder (the
    first such name free); never over a file."""

    def deliver(turn: Turn, message: EmailMessage) -> str:
        target = path
        if target is None:
            stem = f"{turn.game}-{turn.seat}-{turn.records + 1}"
            target = Path(f"{stem}.eml")
            number = 1
            while os.path.lexists(target):
                number += 1
                target = Path(f"{stem}-{number}.eml")
        elif os.path.lexists(target):
            raise FileAccessError("exists already; not overwriting a message", path=target)
        write_atomic(target, bytes(message), durable=False, private=True)
        return f"wrote {target}"

    return deliver


def send_smtp(url: str, config: Path | None = None) -> Deliver:
    """Send the answer through the SMTP server at ``url`` (as ``frogpbem mail`` does)."""

    def deliver(turn: Turn, message: EmailMessage) -> str:
        _sendable(message, "--smtp")
        send_messages([message], url, config)
        return f"sent to {header_text(message, 'to')}"

    return deliver


def send_sendmail(program: Path = SENDMAIL) -> Deliver:
    """Hand the answer to ``program -t -oi`` (sendmail reads the recipients from To:)."""

    def deliver(turn: Turn, message: EmailMessage) -> str:
        _sendable(message, "--sendmail")
        # a bare name is looked for in PATH (msmtp), else in this folder (./failing)
        command = shutil.which(str(program)) or str(program.absolute())
        try:
            done = subprocess.run([command, "-t", "-oi"], input=bytes(message),
                                  capture_output=True, timeout=120, check=False)
        except (OSError, subprocess.SubprocessError) as exc:
            raise FileAccessError(f"cannot run {program}: {exc}") from None
        if done.returncode != 0:
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise FileAccessError(f"{program} refused the message (exit "
                                  f"{done.returncode}){': ' + said[-1] if said else ''}")
        return f"sent to {header_text(message, 'to')} with {program}"

    return deliver


def _sendable(message: EmailMessage, how: str) -> None:
    for name, where in (("To", "the message has no From: or Reply-To: to answer"),
                        ("From", "no address of yours: give --from ADDRESS or set "
                                 "FROGPBEM_FROM")):
        if message.get_all(name) is None:
            raise UsageError(f"{where}; or write the answer with --out instead of {how}")


__all__ = ["SENDMAIL", "Deliver", "Turn", "answer", "attached_game", "default_games",
           "next_step", "one_message", "reply", "send_sendmail", "send_smtp", "write_eml"]
