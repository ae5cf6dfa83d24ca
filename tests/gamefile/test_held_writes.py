"""Writes held in memory while the demonstration plays, and written once at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from frogpbem.errors import GameFileError
from frogpbem.gamefile.document import Later, held, read_bytes, write_atomic, writes_held


def test_files_written_within_are_held_read_from_memory_then_written_once(
        tmp_path: Path) -> None:
    game, secret = tmp_path / "game.yaml", tmp_path / "secret.json"
    game.write_bytes(b"before")
    with writes_held():
        write_atomic(game, b"first")
        write_atomic(secret, b"mine", private=True)
        write_atomic(game, b"second")
        assert game.read_bytes() == b"before" and not secret.exists()  # nothing on disk yet
        assert read_bytes(game) == b"second" and read_bytes(secret) == b"mine"
        with pytest.raises(GameFileError, match="larger than 4 bytes"):
            read_bytes(game, 4)
    assert game.read_bytes() == b"second" and secret.read_bytes() == b"mine"
    assert secret.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.yaml", "secret.json"]
    write_atomic(game, b"after")  # not held any more
    assert game.read_bytes() == b"after"


def test_what_was_held_is_written_when_the_block_fails(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    with pytest.raises(KeyError), writes_held():
        write_atomic(path, b"kept")
        raise KeyError("stopped")
    assert path.read_bytes() == b"kept"


def test_writes_are_held_once_at_a_time(tmp_path: Path) -> None:
    with writes_held(), pytest.raises(RuntimeError), writes_held():
        pass
    write_atomic(tmp_path / "x", b"x")
    assert (tmp_path / "x").read_bytes() == b"x"


def test_a_file_is_read_to_its_limit_and_no_further(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_bytes(b"x" * 100)
    assert read_bytes(path, 100) == b"x" * 100
    with pytest.raises(GameFileError, match="larger than 99 bytes"):
        read_bytes(path, 99)


def test_a_file_longer_than_its_size_says_is_read_to_its_end() -> None:
    """A file that grew after its size was looked at reads whole, within the limit, as one
    whose size says 0 bytes does (as /proc's files do)."""
    status = Path("/proc/self/status")
    assert status.stat().st_size == 0
    data = read_bytes(status, 1 << 20)
    assert data.startswith(b"Name:") and data.endswith(b"\n") and len(data) > 100
    with pytest.raises(GameFileError, match="larger than 10 bytes"):
        read_bytes(status, 10)


def test_bytes_given_for_later_are_made_only_if_read_or_at_the_end(tmp_path: Path) -> None:
    """Within writes_held, bytes given as Later are made when the file is read (once), or
    when it is written at the end; never when it is written again first. Outside, at once."""
    made: list[bytes] = []

    def later(data: bytes) -> Later:
        return Later(lambda: made.append(data) or data)

    game = tmp_path / "game.yaml"
    with writes_held():
        write_atomic(game, later(b"first"))
        second = later(b"second")
        write_atomic(game, second)
        assert made == [] and held(game) is second and held(tmp_path / "other") is None
        assert read_bytes(game) == b"second" == read_bytes(game) and made == [b"second"]
        write_atomic(game, later(b"third"))
        assert made == [b"second"] and not game.exists()
    assert made == [b"second", b"third"] and game.read_bytes() == b"third"
    assert held(game) is None
    write_atomic(game, later(b"now"))
    assert made[-1] == b"now" and game.read_bytes() == b"now"
