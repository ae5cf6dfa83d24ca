"""Reading and writing game files: size limit, strict YAML, schema, model, atomic writes, locks."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import operator
import os
import re
import stat
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from frogpbem import crypto
from frogpbem.errors import FileAccessError, GameFileError, NotAGameFileError
from frogpbem.gamefile import mailsafe, schema, strictyaml
from frogpbem.gamefile.model import (
    FORMAT_VERSION,
    Element,
    GameFile,
    ViewFile,
    hash_of,
    keep_recent,
    know_view_moves,
)

RECENT_FILES = 4
"""How many files a store of histories keeps, parsed (see :class:`KnownHistories`)."""


class KnownHistories(Protocol):
    """Where the history of the game file read last is kept, per game id (see
    :func:`parse_game`); the store only keeps values, :func:`parse_game` checks them.

    It also keeps what was read with it in this process: the last files parsed, by the
    SHA-256 of their bytes (a file is immutable once parsed), and per game id the
    history kept last (:class:`KeptHistory`)."""

    parsed: OrderedDict[bytes, GameFile]
    kept_here: OrderedDict[str, KeptHistory]

    def read_history(self, game: str) -> Any:
        """The value kept for ``game``, or ``None``."""

    def write_history(self, game: str, value: dict[str, Any]) -> None:
        """Keep ``value`` for ``game`` (a failure to write costs time only)."""


def parse_game(data: bytes, name: str, known: KnownHistories | None = None,
               bulk: bool = False) -> GameFile:
    """A game file's bytes, checked and typed: size, strict YAML, version, schema, model.

    What mail does to a file and can be undone (quoting, CRLF, trailing spaces,
    text around it) is undone first; what cannot is named as damage in transit.
    With ``known``, a store of histories read before (see :func:`parse_known`),
    only what follows the kept history is read; the whole file is read
    otherwise, and its history is kept for the next time. The same bytes parsed
    again with the same store (the judge reads a file it just wrote, the referee
    a copy it just found in a message) are taken from the last ``RECENT_FILES`` it
    parsed. ``bulk``: the caller reads many files (see :func:`strictyaml.loads`).
    """
    data = mailsafe.unmail(data)
    if known is None:
        file = _parse(data, name, bulk)
        _remember_source(file, data)
        return file
    digest = crypto.sha256(data)
    if digest in known.parsed:
        known.parsed.move_to_end(digest)
        return known.parsed[digest]
    found = parse_known(data, name, known, bulk)
    if found is None:
        found = _parse(data, name, bulk)
        keep_history(found, data, known)
        _remember_source(found, data)
    keep_recent(known.parsed, digest, found, RECENT_FILES)
    return found


_GAME_ID = re.compile(rb"\Afrogpbem: [0-9]+\nheader:\n  game: ([a-z0-9][a-z0-9-]{2,63})\n")
"""A game file's id, as the schema allows it (so it names no other file)."""
HISTORY_FORMAT = 1
"""The form of a kept history; another form is never used (the file is read whole)."""


def game_id_of(data: bytes) -> str | None:
    """The id of the game file ``data`` (unmailed), read from its first lines as frogpbem
    writes them, without parsing it; ``None`` if they are not written so."""
    found = _GAME_ID.match(data)
    return found.group(1).decode("ascii", "replace") if found is not None else None


def _history_part(data: bytes, known: int = 0) -> tuple[str, int] | None:
    """The game id and the length of the history part (everything before ``requests:``);
    the first ``known`` bytes are known to hold no ``requests:`` (they are not searched)."""
    game = game_id_of(data)
    cut = data.find(_PENDING, max(known - 1, 0))
    if game is None or cut < 0:
        return None
    return game, cut + 1


_LOG = b"\nlog:\n- "
_NOT_A_RECORD_LINE = re.compile(rb"\n(?!- |  )")


def _ends_in_records(data: bytes, length: int, known: int = 0) -> bool:
    """Whether the history part (the first ``length`` bytes) ends with the log's records,
    as frogpbem writes it: then records written after it belong to the log. (In a file
    whose keys come in another order they might not: such a history is never continued.)

    ``known``: the length of a beginning of ``data`` known to be such a history; only the
    lines after it are looked at.
    """
    if known:
        return _NOT_A_RECORD_LINE.search(data, known - 1, length - 1) is None
    at = data.rfind(_LOG, 0, length)
    return at >= 0 and _NOT_A_RECORD_LINE.search(data, at + len(_LOG), length - 1) is None


def keep_history(file: GameFile, data: bytes, known: KnownHistories) -> None:
    """Keep the history part of ``data``, read whole as ``file``: its length and hash, its
    values, and each record's hash (so that the next read needs none of it again)."""
    part = _history_part(data)
    if part is None:
        return
    history = {key: value for key, value in file.to_json().items()
               if key not in ("requests", "reveal", "notes")}
    _keep(known, part, data, history, file, list(map(hash_of, file.log)))


def _keep(known: KnownHistories, part: tuple[str, int], data: bytes, history: dict[str, Any],
          file: GameFile, hashes: list[str], checked: int = 0,
          stored: int | None = None) -> None:
    """Keep ``history`` (the values of the history part ``part`` of ``data``, which ``file``
    begins with) and its records' ``hashes``, in this process and in ``known``; the first
    ``checked`` bytes are known to be a history that ends in the log's records.

    ``stored``: how many records the history that ``known`` holds has, when this one
    continues it; it is written again only when :data:`KEEP_EVERY` records or more follow.
    """
    game, length = part
    digest = crypto.sha256(data[:length]).hex()
    continued = _ends_in_records(data, length, checked)
    store = stored is None or len(file.log) - stored >= KEEP_EVERY
    if store:
        text, canonical = file.view_moves
        known.write_history(game, {
            "format": HISTORY_FORMAT, "length": length, "digest": digest, "history": history,
            "hashes": hashes, "bases": [element.hash if element is not None else None
                                        for element in (file.header, file.deal)],
            "continued": continued, "views": [text, canonical[1:-1].decode()],
        })
    keep_recent(known.kept_here, game, KeptHistory(length, digest, continued, file, history),
                RECENT_FILES)


KEEP_EVERY = 16
"""A history continued from the store is written back to it when at least this many records
followed what the store held. Between two commands a game grows by a record or two: reading
up to this many records again costs a command less than writing the whole history (its
values as JSON, about the size of the game file) at every command."""


class KeptHistory(NamedTuple):
    """A history kept by this process, with the file value it was read into: a second read
    of the game with the same store (the referee reads its game, then the copy a seat sent
    back; the judge reads a game at every move) takes its values from here, not from the
    store's files."""

    length: int
    digest: str
    """SHA-256 (hex) of the history part's bytes."""
    continued: bool
    """Whether the history ends in the log's records."""
    file: GameFile
    """A file that begins with the history: its header, joins, deal and records are the
    history's values, read and checked (and their hashes known)."""
    history: dict[str, Any]
    """The history's values, as the store keeps them."""


def parse_known(data: bytes, name: str, known: KnownHistories,
                bulk: bool = False) -> GameFile | None:
    """``data`` (unmailed) read from the history kept in ``known``, or ``None``.

    The kept history counts only when this file's history part begins with
    exactly its bytes (by SHA-256): they were read whole, every check made,
    into the values kept. What follows them, new records and then the
    pending part (requests, reveal, notes), is read and checked as
    :func:`parse_copy` reads a pending part. Anything unexpected gives ``None``
    and the file is read whole, for the message that says what is wrong.

    A file read this way is remembered as the source of its history (see
    :func:`dump_game`) when the kept history ends in the log's records: then only
    the lines after it are looked at.
    """
    part = _history_part(data)
    if part is None:
        return None
    game, length = part
    here = known.kept_here.get(game)  # kept by this process: its values as they are
    stored = False  # whether ``here`` is what ``known`` holds
    if here is None or here.length > length or \
            crypto.sha256(data[:here.length]).hex() != here.digest:
        here = _kept_in(known.read_history(game), data, length)
        if here is None:
            return None
        keep_recent(known.kept_here, game, here, RECENT_FILES)
        stored = True
    start = here.length
    try:
        more: list[Any] = []
        if start < length:
            if not here.continued or not data.startswith(b"- ", start):
                return None  # what follows is not more of the log's records
            more = _read_records(data[start:length], name, bulk)
        file = here.file.continued(more, _read_pending(data[length:], name, bulk))
    except (GameFileError, KeyError, TypeError, ValueError):
        return None
    if not here.continued:
        return file  # the same history as kept, which does not end in the log's records
    if more:  # the kept values and hashes, and only the new records' own
        _keep(known, part, data, {**here.history, "log": [*here.history["log"], *more]}, file,
              list(map(hash_of, file.log)), start, len(here.file.log) if stored else None)
    _remember_source(file, data, start)
    return file


def _kept_in(kept: Any, data: bytes, length: int) -> KeptHistory | None:
    """The history a store keeps, read into values, if ``data``'s history part (its first
    ``length`` bytes) begins with exactly its bytes; else ``None``."""
    try:
        if not isinstance(kept, dict) or kept.get("format") != HISTORY_FORMAT:
            return None
        start = kept["length"]
        if not isinstance(start, int) or not 0 < start <= length or \
                crypto.sha256(data[:start]).hex() != kept["digest"]:
            return None
        history = dict(kept["history"])
        hashes = list(kept["hashes"])
        file = GameFile.from_json({**history, "requests": [], "reveal": None, "notes": []})
    except (GameFileError, KeyError, TypeError, ValueError):
        return None
    bases = kept.get("bases")
    header_hash, deal_hash = bases if isinstance(bases, list) and len(bases) == 2 else (0, 0)
    if len(hashes) != len(file.log) or not all(isinstance(h, str) for h in hashes) \
            or not isinstance(header_hash, str) or (file.deal is None) != (deal_hash is None):
        return None
    if file.deal is not None:
        if not isinstance(deal_hash, str):
            return None
        file.deal.known_hash(deal_hash)
    file.header.known_hash(header_hash)
    for record, known_hash in zip(file.log, hashes, strict=True):
        record.known_hash(known_hash)
    views = kept.get("views")  # the views' list of these records, if it lists each once
    # (each entry's lines begin with "- ", and its canonical JSON with its first key, move)
    if isinstance(views, list) and len(views) == 2 and all(isinstance(v, str) for v in views) \
            and ("\n" + views[0]).count("\n- ") == len(file.log) == \
            views[1].count('{"move":'):
        know_view_moves(file, views[0], views[1].encode())
    return KeptHistory(start, kept["digest"], kept.get("continued") is True, file, history)


def _read_alone(data: bytes, name: str, bulk: bool = False) -> Any:
    """A part of a game file read alone: transit damage, then strict YAML."""
    if mailsafe.damage(data.decode("utf-8", "replace")) is not None:
        raise GameFileError("changed in transit")
    return strictyaml.loads(data, name, bulk)


def _read_records(data: bytes, name: str, bulk: bool = False) -> list[Any]:
    """Records that follow a history's log, read and checked alone."""
    records = _read_alone(data, name, bulk)
    if not isinstance(records, list):
        raise GameFileError("not records")
    schema.validate_entries({"log": records}, "game", name)
    return records


def _read_pending(data: bytes, name: str, bulk: bool = False) -> dict[str, Any]:
    """The pending part (requests, reveal, notes) that follows a history, read and checked
    alone."""
    entries = _read_alone(data, name, bulk)
    if not isinstance(entries, dict) or list(entries) != ["requests", "reveal", "notes"]:
        raise GameFileError("not what frogpbem writes after a history")
    schema.validate_entries(entries, "game", name)
    return entries


def _parse(data: bytes, name: str, bulk: bool = False) -> GameFile:
    harm = mailsafe.damage(data.decode("utf-8", "replace"))  # the text is not kept: memory
    if harm is not None:
        raise GameFileError(f"changed in transit: {harm}; {mailsafe.ADVICE}", path=name)
    try:
        doc = strictyaml.loads(data, name, bulk)
    except GameFileError as exc:
        joined = mailsafe.joined_lines(data.decode("utf-8", "replace"))
        if joined is not None and "not valid YAML" in exc.message:
            raise GameFileError(f"changed in transit: {joined}; {mailsafe.ADVICE}",
                                path=name) from None
        raise
    if not isinstance(doc, dict):
        raise NotAGameFileError("not a frogpbem game file", path=name)
    if doc.get("kind") == "view":  # its own version 1 would read as an old game file
        raise NotAGameFileError("a view file (a board to look at with frogpbem view), not the "
                            "game file: give the game file itself", path=name)
    version = doc.get("frogpbem")
    if version != FORMAT_VERSION:
        if version is None:
            raise NotAGameFileError("not a frogpbem game file (no 'frogpbem:' version)",
                                    path=name)
        if version == 1:
            raise GameFileError(
                "format version 1, written before joins and notes were bound to the header; "
                "this frogpbem reads version 2 only: finish the game with the version that "
                "started it", path=name)
        raise GameFileError(
            f"unsupported format version {version!r} (this frogpbem reads {FORMAT_VERSION})",
            path=name,
        )
    schema.validate(doc, "game", name)
    try:
        return GameFile.from_json(doc)
    except GameFileError as exc:
        raise exc.within(path=name) from None


def is_view(data: bytes) -> bool:
    """Whether ``data`` (as read, or as mailed) is a view file rather than a game file."""
    return b"\nkind: view\n" in mailsafe.unmail(data)[:200]


def parse_view(data: bytes, name: str) -> ViewFile | None:
    """A view file's bytes, checked; ``None`` when they are not a view file."""
    if not is_view(data):
        return None
    data = mailsafe.unmail(data)
    doc = strictyaml.loads(data, name)
    schema.validate(doc, "view", name)
    return ViewFile(doc)


def read_bytes(path: Path, limit: int = strictyaml.MAX_BYTES) -> bytes:
    """A regular file's bytes, at most ``limit`` of them (a file held by
    :func:`writes_held`: the bytes held).

    A FIFO, device or folder is refused without blocking on it; the size is
    checked on the open file, and no more than ``limit`` bytes are ever read.
    """
    holding = _HELD.get()
    if holding is not None and path in holding:
        data = made(holding[path][0])
        if len(data) > limit:
            raise GameFileError(f"file is larger than {_size(limit)}", path=path)
        return data
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        raise FileAccessError("no such file", path=path) from None
    except IsADirectoryError:
        raise FileAccessError("is a directory", path=path) from None
    except OSError as exc:
        raise FileAccessError(f"cannot read: {exc.strerror}", path=path) from None
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode):  # before fdopen, which refuses a folder by raising
        os.close(fd)
        raise FileAccessError("is a directory" if stat.S_ISDIR(status.st_mode) else
                              "is not a regular file (a pipe, device or socket)", path=path)
    with os.fdopen(fd, "rb") as handle:
        try:
            # as much as the file holds, and one byte more: not a buffer of ``limit``
            # bytes for each file, which would cost an audit of small files dearly
            data = handle.read(min(status.st_size, limit) + 1)
            if status.st_size < len(data) <= limit:  # it grew meanwhile: the rest too
                data += handle.read(limit + 1 - len(data))
        except OSError as exc:
            raise FileAccessError(f"cannot read: {exc.strerror}", path=path) from None
    if len(data) > limit:
        raise GameFileError(f"file is larger than {_size(limit)}", path=path)
    return data


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit} bytes"


_PENDING = b"\nrequests:"
"""Where a game file's history ends and what is pending (requests, reveal, notes) begins."""


def parse_copy(data: bytes, name: str, base: GameFile) -> GameFile:
    """A copy of the game ``base``: read whole by :func:`parse_game`, unless its history is
    byte for byte the one ``base`` writes. Then only what follows it (requests, reveal,
    notes) is read and checked, and the history is ``base``'s own elements.

    A referee takes a seat's returned copy this way: the copy is the file the referee
    mailed, plus the seat's request.
    """
    data = mailsafe.unmail(data)
    own = dump_game(base)
    cut = own.find(_PENDING) + len(_PENDING)
    if cut < len(_PENDING) or data[:cut] != own[:cut]:
        return parse_game(data, name)
    pending = data[cut - len(_PENDING) + 1:]
    try:
        entries = _read_pending(pending, name)
        if entries["reveal"] != (base.reveal.to_json() if base.reveal is not None else None):
            raise GameFileError("another reveal")
        copy = base.continued([], entries)
    except GameFileError:
        return parse_game(data, name)  # read whole, for the message that says what is wrong
    _remember_source(copy, data)
    return copy


def read_game(path: Path, known: KnownHistories | None = None,
              bulk: bool = False) -> GameFile:
    return parse_game(read_bytes(path), str(path), known, bulk)


def dump_game(file: GameFile) -> bytes:
    """The game file's bytes: ``dump_yaml(file.to_json())``, from each element's own lines
    (made once per element, so a long game is not written out again value by value).

    The history of a file read (or written) in this process is written as it was read:
    only the records after it are made into lines. A history is never re-formatted;
    its values, and so its signatures, are the same either way. A file value written
    already is written as it was then: its values cannot change.
    """
    parts = file.parts
    for old, bytes_of_old, _, written_by_us in file.header.made.sources:
        if written_by_us and all(map(operator.is_, old, parts)):
            return bytes_of_old
    source = _source_of(file)
    if source is None:
        head: bytes | memoryview = b""
        out = strictyaml.item("frogpbem:", FORMAT_VERSION)
        out += file.header.yaml_lines("header:")
        out += _element_list("joins", file.joins)
        out += _element("deal", file.deal)
        out += _element_list("log", file.log)
    else:
        head, written = source
        out = []
        for record in file.log[written:]:
            out += record.yaml_lines("-")
    out += _element_list("requests", file.requests)
    out += _element("reveal", file.reveal)
    out += _element_list("notes", file.notes)
    data = b"".join((head, ("\n".join(out) + "\n").encode("utf-8")))  # one copy of the history
    _remember_source(file, data, len(head), written=True)
    return data


def game_bytes(file: GameFile) -> Later:
    """The bytes :func:`dump_game` makes of ``file``, made only when they are needed (see
    :func:`write_atomic`)."""
    return Later(functools.partial(dump_game, file))


def _remember_source(file: GameFile, data: bytes, known: int = 0,
                     written: bool = False) -> None:
    """Remember ``data`` as the bytes of ``file`` if its history ends in the log's records
    (with its header: see :class:`~frogpbem.gamefile.model.Made`); ``known``: the length
    of a beginning of ``data`` known to be such a history; ``written``: whether
    :func:`dump_game` made them."""
    part = _history_part(data, known) if file.log else None
    if part is None or not _ends_in_records(data, part[1], known):
        return
    sources, parts = file.header.made.sources, file.parts
    for index, source in enumerate(sources):
        if all(map(operator.is_, source[0], parts)):
            del sources[index]
            break
    sources.append((parts, data, part[1], written))


def _source_of(file: GameFile) -> tuple[memoryview, int] | None:
    """The bytes of the longest history that ``file`` begins with (the same element values,
    by identity), and how many records they hold."""
    longest_first = sorted(file.header.made.sources, key=lambda known: -len(known[0][2]))
    for (joins, deal, log, *_), data, length, _written in longest_first:
        count = len(log)
        if joins is file.joins and deal is file.deal and count <= len(file.log) and \
                all(map(operator.is_, log, file.log)):
            return memoryview(data)[:length], count  # not copied: the bytes are made at once
    return None


def _element(name: str, element: Element | None) -> list[str]:
    return element.yaml_lines(f"{name}:") if element is not None else [f"{name}: null"]


def _element_list(name: str, elements: Sequence[Element]) -> list[str]:
    if not elements:
        return [f"{name}: []"]
    lines = [f"{name}:"]
    for element in elements:
        lines += element.yaml_lines("-")
    return lines


def dump_yaml(data: Any) -> bytes:
    """Any JSON-like value as strict YAML (views, chosen setups)."""
    return strictyaml.dumps(data).encode("utf-8")


class Later:
    """Bytes to be made only when they are needed (see :func:`writes_held`): a file that is
    written again before anything reads it is then never made at all."""

    __slots__ = ("_make", "_data")

    def __init__(self, make: Callable[[], bytes]) -> None:
        self._make: Callable[[], bytes] | None = make
        self._data = b""

    def made(self) -> bytes:
        if self._make is not None:
            self._data, self._make = self._make(), None
        return self._data


def made(data: bytes | Later) -> bytes:
    """The bytes themselves."""
    return data if isinstance(data, bytes) else data.made()


def held(path: Path) -> bytes | Later | None:
    """Within :func:`writes_held`, what was written last to ``path`` (as it was given to
    :func:`write_atomic`), if anything was; ``None`` otherwise."""
    holding = _HELD.get()
    return holding[path][0] if holding is not None and path in holding else None


def write_atomic(path: Path, data: bytes | Later, durable: bool = True,
                 private: bool = False) -> None:
    """Write via a temporary file in the same folder, flushed and renamed into place.

    ``durable`` also syncs the data to disk before the rename; files that can
    be made again (views) skip it. ``private`` files (holding a seat's secrets)
    get mode 0600; others keep the mode of the file they replace, or follow
    the umask. The rename replaces a symbolic link at ``path`` itself, never
    the file it points to. Within :func:`writes_held`, the bytes are held (``Later``
    bytes made only when the file is read, or written at the end); otherwise they are
    made now.
    """
    holding = _HELD.get()
    if holding is not None:
        holding[path] = (data, durable, private)
        return
    data = made(data)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    mode = 0o600 if private else 0o666
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    except OSError as exc:
        raise FileAccessError(f"cannot write: {exc.strerror}", path=path) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            if durable:
                os.fsync(out.fileno())
        if not private:
            with contextlib.suppress(FileNotFoundError):
                old = os.lstat(path)
                if stat.S_ISREG(old.st_mode):
                    os.chmod(tmp, old.st_mode & 0o777)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise FileAccessError(f"cannot write: {exc.strerror}", path=path) from None


Held = dict[Path, tuple[bytes | Later, bool, bool]]
"""Per path, the bytes written last (and how to write them)."""
_HELD: ContextVar[Held | None] = ContextVar("frogpbem_writes_held", default=None)
"""Within :func:`writes_held` (in its thread or task only), the writes it holds."""


@contextlib.contextmanager
def writes_held() -> Iterator[None]:
    """Hold every file written within it in memory (the bytes written last; reading it
    gives them) and write each once at the end, in the order first written, as
    :func:`write_atomic` writes it.

    The demonstration plays a whole game in one process: each record would rewrite
    whole files (the game file, the players' and the referee's memories and their
    copies), so that a long game would cost the square of its length. Nothing else reads
    them while it plays. Bytes given as :class:`Later` are made only if the file is read
    before it is written again, or at the end: a game file is then made once, not at
    every record.
    """
    if _HELD.get() is not None:
        raise RuntimeError("writes are held already")
    files: Held = {}
    token = _HELD.set(files)
    try:
        yield
    finally:
        _HELD.reset(token)
        for path, (data, durable, private) in files.items():
            write_atomic(path, data, durable, private)


@contextlib.contextmanager
def lock_file(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created 0600, never through a symbolic link)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        raise FileAccessError(f"cannot create its lock: {exc.strerror}", path=path) from None
    with _held(fd):
        yield


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Serialise writers of one game: an exclusive lock on the folder that holds it.

    The game file itself is replaced by a rename at every write, so it cannot
    carry the lock; the folder can, and leaves no lock file behind.
    """
    try:
        fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise FileAccessError(f"cannot lock its folder: {exc.strerror}", path=path) from None
    with _held(fd):
        yield


@contextlib.contextmanager
def _held(fd: int) -> Iterator[None]:
    """An exclusive ``flock`` on the open ``fd``, released and closed at the end."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
