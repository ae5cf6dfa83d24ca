"""Reading and writing game files: size limit, strict YAML, schema, model, atomic writes, locks."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from frogpbem.errors import FileAccessError, GameFileError
from frogpbem.gamefile import schema, strictyaml
from frogpbem.gamefile.model import FORMAT_VERSION, GameFile


def parse_game(data: bytes, name: str) -> GameFile:
    """A game file's bytes, checked and typed: size, strict YAML, version, schema, model."""
    doc = strictyaml.loads(data, name)
    if not isinstance(doc, dict):
        raise GameFileError("not a frogpbem game file", path=name)
    version = doc.get("frogpbem")
    if version != FORMAT_VERSION:
        if version is None:
            raise GameFileError("not a frogpbem game file (no 'frogpbem:' version)", path=name)
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


def read_bytes(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > strictyaml.MAX_BYTES:
            raise GameFileError(
                f"file is larger than {strictyaml.MAX_BYTES // (1024 * 1024)} MiB", path=path
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise FileAccessError("no such file", path=path) from None
    except IsADirectoryError:
        raise FileAccessError("is a directory", path=path) from None
    except OSError as exc:
        raise FileAccessError(f"cannot read: {exc.strerror}", path=path) from None


def read_game(path: Path) -> GameFile:
    return parse_game(read_bytes(path), str(path))


def dump_game(file: GameFile) -> bytes:
    return dump_yaml(file.to_json())


def dump_yaml(data: Any) -> bytes:
    """Any JSON-like value as strict YAML (views, chosen setups)."""
    return strictyaml.dumps(data).encode("utf-8")


def write_atomic(path: Path, data: bytes, durable: bool = True) -> None:
    """Write via a temporary file in the same folder, flushed and renamed into place.

    ``durable`` also syncs the data to disk before the rename; files that can
    be made again (views) skip it.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise FileAccessError(f"cannot write: {exc.strerror}", path=path) from None
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
        raise FileAccessError(f"cannot write: {exc.strerror}", path=path) from None


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
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
