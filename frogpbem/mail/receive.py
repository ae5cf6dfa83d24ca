"""Reading mail: game files and request blocks found in raw messages, taken into the games.

Messages come as files, mboxes, or standard input (so that this can sit
behind a ``.forward`` or procmail pipe). Every part is looked at: attachments
of any type, forwarded messages (message/rfc822), quoted-printable or base64
bodies, HTML-only replies, format=flowed text. ``From:`` is never trusted:
only signatures count.
"""

from __future__ import annotations

import email
import email.errors
import email.policy
import mailbox
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from html.parser import HTMLParser
from pathlib import Path

from frogpbem import crypto
from frogpbem.dealing import take_mailed_joins
from frogpbem.errors import (
    FileAccessError,
    FrogPbemError,
    GameFileError,
    NothingToApplyError,
    StaleCopyError,
    UnchangedCopyError,
    UnknownGameError,
    UsageError,
)
from frogpbem.gamefile import mailsafe
from frogpbem.gamefile.document import (
    dump_game,
    is_view,
    locked,
    parse_game,
    read_bytes,
    write_atomic,
)
from frogpbem.gamefile.duelfile import is_duel
from frogpbem.gamefile.model import GameFile
from frogpbem.protocol.game import REFEREE, Game, load
from frogpbem.protocol.session import Session
from frogpbem.referee import Returned, apply_moves
from frogpbem.safetext import safe

GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{2,63}")
"""What the game file's schema allows a game id to be."""
MAX_MESSAGE = 16 * 1024 * 1024
"""A message larger than this is refused unread."""
MAX_PARTS = 100
"""A message with more MIME parts than this (``Content-Type:`` lines) is refused unread: no
reply has that many, and parts nested a thousand deep make the email package's parser,
which recurses, fail."""
MAX_HEADERS = 256 * 1024
"""A message whose header section is larger than this is refused unread: a real one has a
few KiB, and the email package's parser takes seconds and hundreds of MiB on a megabyte of
addresses or References."""
MAX_BLOCKS = 20
"""A message with more request blocks than this is refused: a reply holds one, or a few
quoted again."""
_PART_HEADER = re.compile(rb"(?:^|\r)content-type:", re.IGNORECASE | re.MULTILINE)


class NotRead(email.errors.MessageDefect):
    """The defect of a message read for its headers only, or not at all; its text says why."""


@dataclass
class Found:
    """What one message holds for frogpbem."""

    copies: list[GameFile] = field(default_factory=list)
    """Game files (attached, forwarded, or pasted into a body)."""
    blocks: list[bytes] = field(default_factory=list)
    """Texts holding request blocks, as they came."""
    problems: list[str] = field(default_factory=list)
    """Parts that looked like frogpbem data but did not read, in words."""
    duels: list[bytes] = field(default_factory=list)
    """Files of games without a referee (a top-level ``messages:``), as they came: for the
    seats (:mod:`frogpbem.mail.duel`), never a referee's."""


@dataclass(frozen=True)
class Taken:
    """What one message's game files and request blocks did to the games (:func:`take_found`)."""

    games: tuple[str, ...] = ()
    """What was done to each game the message names, in words (``game ID: red shoots G9: 2``)."""
    broken: tuple[str, ...] = ()
    """The request blocks found that did not read, in words."""
    nothing: str | None = None
    """Why nothing at all was taken (no game file and no request block in it), or ``None``."""

    def __str__(self) -> str:
        if self.nothing is not None:
            return f"nothing taken: {self.nothing}"
        return "; ".join(self.games + self.broken)


@dataclass(frozen=True)
class Received:
    """What :func:`receive` did with one message."""

    number: int
    """Its place among the messages read (from 1)."""
    subject: str
    taken: Taken | None = None
    """What was taken; ``None`` when it was refused, or taken before."""
    again: str | None = None
    """What it holds was taken before (from a copy or this very message): why it is new to
    nobody."""
    refused: str | None = None
    """Why it was refused (the error, with where)."""

    @property
    def line(self) -> str:
        """``message 1 ('Re: …'): game ID: red shoots G9: 2``."""
        if self.refused is not None:
            said = f"refused: {self.refused}"
        elif self.again is not None:
            said = f"taken already: {self.again}"
        else:
            said = str(self.taken)
        return f"message {self.number} ({self.subject!r}): {said}"


class _Text(HTMLParser):
    """The text of an HTML part, line breaks kept."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "p", "div", "pre", "blockquote", "tr", "li"):
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)


def messages_in(data: bytes) -> list[Message]:
    """The messages of a file: an mbox (``From `` lines) or one message.

    An mbox's messages are taken as the bytes it holds (not written out again by the
    email package, which fails on a header that is not ASCII). A message the email package
    cannot parse (see :func:`_message`) is read for its headers only, marked
    :class:`NotRead`: the messages after it in an mbox are read as usual.
    """
    if data.startswith(b"From "):
        with tempfile.NamedTemporaryFile(suffix=".mbox") as box:
            box.write(data)
            box.flush()
            folder = mailbox.mbox(box.name)
            return [_message(folder.get_bytes(key)) for key in folder.keys()]
    return [_message(data)]


def _message(data: bytes) -> Message:
    """One message parsed, or only its headers (marked :class:`NotRead`) when it has too
    many parts, or headers nested too deeply for the email package's parser; nothing of
    it when its header section is too large to parse."""
    end = re.search(rb"\r?\n\r?\n", data[:MAX_HEADERS + 4])
    if (end.start() if end else len(data)) > MAX_HEADERS:
        empty = EmailMessage()
        empty.defects.append(NotRead(f"the message's headers are larger than "
                                     f"{MAX_HEADERS // 1024} KiB; it was not read"))
        return empty
    if len(_PART_HEADER.findall(data)) > MAX_PARTS:
        reason = f"the message has more than {MAX_PARTS} parts; it was not read"
    else:
        try:
            return email.message_from_bytes(data, policy=email.policy.default)
        except RecursionError:  # the parser recurses into "((((…" in a Content-Type header
            reason = "the message's headers are nested too deeply to be read"
    return headers_only(data, reason)


def headers_only(data: bytes, reason: str) -> Message:
    """The headers of a message that is not read whole (to name it and answer it), marked
    :class:`NotRead` with ``reason``; those of its first :data:`MAX_HEADERS` bytes at most."""
    end = re.search(rb"\r?\n\r?\n", data[:MAX_HEADERS + 4])
    head = data[:end.end() if end else MAX_HEADERS]
    message: Message
    try:
        message = BytesHeaderParser(policy=email.policy.default).parsebytes(head)
    except RecursionError:  # headers as plain strings, which the old API parses no further
        message = BytesHeaderParser(policy=email.policy.compat32).parsebytes(head)
    message.set_payload("")
    message.defects.append(NotRead(reason))
    return message


def header_text(message: Message, name: str) -> str:
    """The first ``name`` header of ``message`` as text; ``""`` when there is none, or when
    the email package cannot read it.

    The package parses a header when it is read, and some malformed ones make its parser
    raise (``From: "x" <``: ``IndexError``, as of Python 3.11): a message from anyone must
    not stop the judge, and a header is only ever shown or answered.
    """
    try:
        return str((message.get_all(name) or [""])[0])
    except Exception:  # noqa: BLE001 - whatever the email package's header parser raises
        return ""


def subject(messages: list[Message]) -> str:
    """The subject of ``messages``, shortened, for a log line."""
    return " ".join(header_text(m, "subject") for m in messages)[:60]


def contents(*messages: Message) -> Found:
    """Every game file and request block in messages, however they were wrapped."""
    found = Found()
    for message in messages:
        unread = [str(defect) for defect in message.defects if isinstance(defect, NotRead)]
        try:
            texts = [] if unread else [_text_of(part) for part in _leaves(message)]
        except RecursionError:  # a header parsed again, deeper in the stack than the parser
            unread, texts = ["the message's headers are nested too deeply to be read"], []
        found.problems += unread
        for text in texts:
            if text is not None:
                _look_at(text, found)
    return found


def _leaves(part: Message) -> Iterator[Message]:
    """The parts of ``part`` that hold content, walked into message/rfc822 and multipart/*.

    Of a multipart/alternative (a plain and an HTML version of one reply), only the
    first version whose request blocks all read is taken, when one does: the other's
    mangled copy of the same block is no problem to report.
    """
    if not part.is_multipart():
        yield part
        return
    children = [child for child in part.get_payload() if isinstance(child, Message)]
    if part.get_content_type() == "multipart/alternative":
        for child in children:
            leaves = list(_leaves(child))
            blocks = [block for leaf in leaves
                      for text in [_text_of(leaf)] if text and mailsafe.may_hold_blocks(text)
                      for block in mailsafe.read_blocks(text)]
            if blocks and not any(block.problem for block in blocks):
                yield from leaves
                return
    for child in children:
        yield from _leaves(child)


def _text_of(part: Message) -> bytes | None:
    """A part's content as frogpbem reads it: an HTML part's text, a format=flowed part's
    lines joined back (RFC 3676); ``None`` for a part without content."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return None
    kind = part.get_content_type()
    if kind == "text/html":
        return html_text(_decoded(payload, part.get_content_charset())).encode()
    if kind == "text/plain" and str(part.get_param("format") or "").lower() == "flowed":
        delsp = str(part.get_param("delsp") or "").lower() == "yes"
        return unflowed(_decoded(payload, part.get_content_charset()), delsp).encode()
    return payload


def unflowed(text: str, delsp: bool = False) -> str:
    """A format=flowed text (RFC 3676) with its soft line breaks joined and its
    space-stuffing undone; quoted lines keep their depth as ``> `` prefixes."""
    out: list[str] = []
    held: list[str] = []  # the pieces of a paragraph whose lines end in a soft break
    depth_held = 0  # its quote depth
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        content = content[1:] if content.startswith(" ") else content
        flowed = content.endswith(" ") and content != "-- "
        if flowed and delsp:
            content = content[:-1]
        if held and depth != depth_held:  # a paragraph ends where the quote depth changes
            out.append("> " * depth_held + "".join(held))
            held = []
        depth_held = depth
        held.append(content)
        if not flowed:
            out.append("> " * depth + "".join(held))
            held = []
    if held:
        out.append("> " * depth_held + "".join(held))
    return "\n".join(out)


def _decoded(payload: bytes, charset: str | None) -> str:
    """A part's text in its charset; as UTF-8 when Python knows no such text encoding
    (``x-no-such``, ``zlib``) or the codec refuses the bytes outright (``idna``)."""
    try:
        return payload.decode(charset or "utf-8", "replace")
    except (LookupError, ValueError):
        return payload.decode("utf-8", "replace")


def _look_at(payload: bytes, found: Found) -> None:
    if mailsafe.may_hold_blocks(payload):
        found.blocks.append(payload)
    if b"frogpbem:" not in payload or is_view(payload):
        return  # not a game file (a mailed view is for reading, not for the referee)
    if is_duel(payload):
        found.duels.append(payload)
        return
    try:
        found.copies.append(parse_game(payload, "attachment"))
    except FrogPbemError as exc:
        if mailsafe.unmail(payload).startswith(b"frogpbem:"):
            found.problems.append(exc.message)


def receive(sources: list[bytes], games: Path, key: crypto.PrivateKey,
            session: Session, duel: Callable[[Found], str] | None = None) -> list[Received]:
    """Take every message of ``sources`` into the games in folder ``games``.

    The referee's key takes requests and notes into its copy ``GAMES/ID.yaml``
    and applies them; a seat's key keeps a newer copy of its games there.
    ``duel`` takes a message that carries the file of a game without a referee (what it
    did, in words; :func:`frogpbem.mail.duel.keep`).
    Returns what was done with each message (its :attr:`Received.line` in words).
    """
    if games.exists() and not games.is_dir():
        raise FileAccessError("is not a folder: --games names the folder of your games",
                              path=games)
    done = []
    number = 0
    for data in sources:
        if len(data) > MAX_MESSAGE:
            raise FileAccessError(f"a message is larger than {MAX_MESSAGE // (1024 * 1024)} "
                                  "MiB; not read")
        for message in messages_in(data):
            number += 1
            said = subject([message])
            try:
                found = contents(message)
                if found.duels and duel is not None:
                    done.append(Received(number, said, Taken((duel(found),))))
                    continue
                done.append(Received(number, said, take_found(found, games, key, session)))
            except NothingToApplyError as exc:  # what it holds was taken (from a copy) before
                done.append(Received(number, said, again=exc.message))
            except FrogPbemError as exc:
                done.append(Received(number, said, refused=str(exc)))
    return done


def take_found(found: Found, games: Path, key: crypto.PrivateKey, session: Session,
               keep_new: bool = True) -> Taken:
    """Take one message's game files and request blocks into the games; what happened.

    A request block that was found but does not read is named: alone, it is refused;
    beside what was taken, it is said after it. ``keep_new``: a game file of a game not
    held yet is kept when ``key`` holds a seat in it (a player's first copy); the judge
    passes ``False``, to hold only the games its operator created.
    """
    values: list[object] = []
    broken: list[str] = []
    blocks = [block for text in found.blocks
              for block in mailsafe.read_blocks(text, MAX_BLOCKS + 1)]
    if len(blocks) > MAX_BLOCKS:
        raise GameFileError(f"the message holds more than {MAX_BLOCKS} request blocks; "
                            "none was read")
    for block in blocks:
        if block.problem:
            broken.append(block.problem)
        elif block.value not in values:  # a block quoted again, or in two alternatives
            values.append(block.value)
    if not found.copies and not values:
        if broken:
            raise GameFileError("; ".join(broken))
        reason = "; ".join(found.problems) or ("the file of a game without a referee, "
                                               "which goes from seat to seat" if found.duels
                                               else "no game file and no request block in it")
        return Taken(nothing=reason)
    said = []
    parts: list[tuple[str, Returned]] = []
    names: dict[str, str] = {}  # what a refusal names, as a message names what was in it
    for index, copy in enumerate(found.copies):
        returned = Returned(Path(f"copy{index}.yaml"), copy=dump_game(copy))
        parts.append((copy.game, returned))
        names[str(returned.name)] = f"game file {index + 1} in the message"
    for game_id in dict.fromkeys(mailsafe.block_game(value) for value in values):
        returned = Returned(Path(f"blocks{len(names)}.txt"),
                            blocks=tuple(value for value in values
                                         if mailsafe.block_game(value) == game_id))
        parts.append((game_id, returned))
        names[str(returned.name)] = "the request blocks in the message"
    for game_id in dict.fromkeys(g for g, _ in parts):
        returns = tuple(r for g, r in parts if g == game_id)
        try:
            said.append(_take_game(game_id, returns, games, key, session, keep_new))
        except FrogPbemError as exc:
            exc.path = names.get(exc.path or "", exc.path)
            raise
    return Taken(tuple(said), tuple(broken))


def _take_game(game_id: str, returns: tuple[Returned, ...], games: Path,
               key: crypto.PrivateKey, session: Session, keep_new: bool) -> str:
    if not GAME_ID.fullmatch(game_id):  # it names a file: nothing but a real game id
        raise UsageError(f"{safe(game_id)[:80]!r} is not a game id")
    target = game_file(games, game_id)
    if target.exists() and not target.is_file():
        raise FileAccessError("is not a game file", path=target)
    unknown = UnknownGameError(f"game {game_id} is not one of the games held here")
    if not target.exists():
        copies = [r for r in returns if r.copy is not None]
        if keep_new and copies and copies[0].load(session).role(key) != REFEREE:
            games.mkdir(parents=True, exist_ok=True)  # a seat's first copy of a game
            return _keep_newer(game_id, returns, target, session)
        raise unknown
    with locked(target):
        game = load(target, session, session.memory)
        if game.role(key) == REFEREE and game.undealt:  # the seats join first (fair deals)
            applied = take_mailed_joins(game, key, returns, session.memory)
            return f"game {game_id}: " + "; ".join(applied.lines)
        if game.role(key) == REFEREE:
            try:
                applied = apply_moves(game, key, take_from=returns, memory=session.memory)
            except NothingToApplyError:
                if any(_holds_something(r) for r in returns):  # the same message again
                    raise NothingToApplyError("nothing new in it", path=target) from None
                raise UnchangedCopyError(
                    f"the copy of game {game_id} in the message holds no move: run frogpbem "
                    "move on your copy first, then reply with it attached (or with the block "
                    "it prints)") from None
            return f"game {game_id}: " + ("; ".join(applied.lines) or "taken")
        if not keep_new:
            raise unknown
        return _keep_newer(game_id, returns, target, session, game.header.hash)


def _holds_something(returned: Returned) -> bool:
    """Whether a game file or the blocks taken from a message hold a request, a note or
    a join (a join mailed again after the deal is the same join, not a forgotten move)."""
    if returned.copy is None:
        return True
    copy = parse_game(returned.copy, str(returned.name))
    return bool(copy.requests or copy.notes or copy.joins)


def game_files(games: Path) -> list[Path]:
    """The game files of folder ``games``, without the views written beside each."""
    return [path for path in sorted(games.glob("*.yaml"))
            if not path.name.endswith(".view.yaml") and path.is_file()]


def game_file(games: Path, game_id: str) -> Path:
    """The file of game ``game_id`` in ``games``: ``ID.yaml``, else any game file of that id."""
    named = games / f"{game_id}.yaml"
    if named.exists() or not games.is_dir():
        return named
    for path in game_files(games):
        try:
            if parse_game(read_bytes(path), str(path)).game == game_id:
                return path
        except FrogPbemError:
            continue
    return named


def _keep_newer(game_id: str, returns: tuple[Returned, ...], target: Path,
                session: Session, held: str | None = None) -> str:
    """A seat keeps the longest copy that extends what it has seen; ``held``: the hash of
    the header of the copy it holds, if it holds one (a copy under another is refused)."""
    best = None
    data = b""
    for returned in returns:
        if returned.copy is None:
            continue
        copy = returned.load(session)
        if held is not None and copy.header.hash != held:
            raise StaleCopyError(f"another game under the id {game_id} (its header differs "
                                 f"from that of {target.name}, which you hold); not kept",
                                 path=returned.name)
        session.seen.see(copy)
        if best is None or len(copy.file.log) > len(best.file.log) or \
                (copy.file.reveal and not best.file.reveal):
            best, data = copy, returned.copy
    if best is None:
        return f"game {game_id}: only request blocks, which are for the referee"
    if held is not None and _history(load(target, session)) == _history(best):
        # the same history: the copy held may carry this seat's move or note not mailed yet
        return f"game {game_id}: you hold this copy already (after record {len(best.file.log)})"
    write_atomic(target, data)
    return f"game {game_id}: kept the copy after record {len(best.file.log)}"


def _history(game: Game) -> tuple[str, ...]:
    """What the referee signed of a copy: its history's hashes (not requests or notes)."""
    return game.file.history_hashes()


def read_sources(paths: list[Path], stdin: bytes | None) -> list[bytes]:
    """The raw bytes of every message file (``-``: standard input); one that is empty
    is refused in a sentence."""
    out = []
    for path in paths:
        if path.is_dir():
            raise FileAccessError("is a folder, not a message or an mbox", path=path)
        data = (stdin or b"") if str(path) == "-" else read_bytes(path, MAX_MESSAGE)
        if not data.strip():
            where = "standard input" if str(path) == "-" else repr(str(path))
            raise FileAccessError(f"{where} is empty: there is no message to read")
        out.append(data)
    return out


__all__ = ["Found", "NotRead", "Received", "Taken", "contents", "game_files", "headers_only",
           "html_text", "messages_in", "read_sources", "receive", "subject", "take_found",
           "unflowed"]
