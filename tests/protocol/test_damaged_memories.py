"""JSON nested too deeply, wherever frogpbem reads JSON: refused in a sentence, or (in a
store that only saves time) taken for no store at all; never a RecursionError."""

from __future__ import annotations

from pathlib import Path

import pytest

from frogpbem.errors import GameFileError, StaleCopyError
from frogpbem.gamefile import forkproof
from frogpbem.gamefile.model import Plaintext
from frogpbem.protocol.memory import HeadMemory
from frogpbem.protocol.seen import SeenGames
from frogpbem.protocol.verified import VerifiedHistories
from tests.conftest import here

DEEP = b"[" * 4000
"""Deeper than the JSON reader recurses (1,000), within every store's size limit."""


def test_json_from_other_people_nested_too_deeply_is_refused() -> None:
    with pytest.raises(RecursionError):  # what the standard reader does with it
        __import__("json").loads(DEEP)
    with pytest.raises(GameFileError, match="not JSON"):  # a fork proof's signed message
        forkproof._body(b"frogpbem/1 record\n" + DEEP)
    with pytest.raises(GameFileError, match="does not hold a frogpbem secret"):
        Plaintext.parse(DEEP)  # what a sealed block decrypts to


def test_damaged_memories_nested_too_deeply_are_named_or_left_aside(tmp_path: Path) -> None:
    seen = SeenGames(tmp_path / "home", here().clock)
    path = seen._paths("ff-game")[0]
    path.parent.mkdir(parents=True)
    path.write_bytes(DEEP)
    with pytest.raises(StaleCopyError, match="is unreadable; move it away"):
        seen._read("ff-game")
    memory = HeadMemory(tmp_path / "state")
    memory._path("ff-game").parent.mkdir(parents=True)
    memory._path("ff-game").write_bytes(DEEP)
    with pytest.raises(StaleCopyError, match="is unreadable; check it by hand"):
        memory._read("ff-game")
    verified = VerifiedHistories(tmp_path / "verified" / "verified")
    verified._path("ff-game").parent.mkdir(parents=True)
    verified._path("ff-game").write_bytes(DEEP)
    verified._path("ff-game", ".history").write_bytes(DEEP)
    assert verified._read("ff-game") is None  # the histories only save time: read whole
    assert verified.read_history("ff-game") is None
