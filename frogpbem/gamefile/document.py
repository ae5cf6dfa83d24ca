"""Reading and writing game files: size limit, strict YAML, schema, atomic writes, locks."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from frogpbem.errors import FileAccessError, GameFileError
from frogpbem.gamefile import schema, strictyaml

FORMAT_VERSION = 1

Document = dict[str, Any]
"""A parsed game file: ``frogpbem``, ``header``, ``log``, ``requests``, ``reveal``."""


def new_document(header: dict[str, Any]) -> Document:
    return {"frogpbem": FORMAT_VERSION, "header": header, "joins": [], "deal": None, "log": [],
            "requests": [], "reveal": None, "notes": []}


def parse_game(data: bytes, name: str) -> Document:
    """A game file's bytes, checked: size, strict YAML, version, schema."""
    doc = strictyaml.loads(data, name)
    if not isinstance(doc, dict):
        raise GameFileError(f"{name}: not a frogpbem game file")
    version = doc.get("frogpbem")
    if version != FORMAT_VERSION:
        if version is None:
            raise GameFileError(f"{name}: not a frogpbem game file (no 'frogpbem:' version)")
        raise GameFileError(
            f"{name}: unsupported format version {version!r} (this frogpbem reads {FORMAT_VERSION})"
        )
    schema.validate(doc, "game", name)
    return doc


def read_bytes(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > strictyaml.MAX_BYTES:
            raise GameFileError(
                f"{path}: file is larger than {strictyaml.MAX_BYTES // (1024 * 1024)} MiB"
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise FileAccessError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise FileAccessError(f"{path}: is a directory") from None
    except OSError as exc:
        raise FileAccessError(f"{path}: cannot read: {exc.strerror}") from None


def read_game(path: Path) -> Document:
    return parse_game(read_bytes(path), str(path))


def dump_game(doc: Document) -> bytes:
    return strictyaml.dumps(doc).encode("utf-8")


def write_atomic(path: Path, data: bytes, durable: bool = True) -> None:
    """Write via a temporary file in the same folder, flushed and renamed into place.

    ``durable`` also syncs the data to disk before the rename; files that can
    be made again (views) skip it.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise FileAccessError(f"{path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            if durable:
                os.fsync(out.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise FileAccessError(f"{path}: cannot write: {exc.strerror}") from None


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Serialise writers of one game: an exclusive lock on ``.NAME.lock`` beside it."""
    lock_path = path.with_name(f".{path.name}.lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise FileAccessError(f"{path}: cannot lock: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
