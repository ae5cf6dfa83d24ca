"""The players' memory of what they saw: read once per process, and read again when changed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from frogpbem.errors import StaleCopyError
from frogpbem.protocol.game import load
from frogpbem.protocol.seen import SeenGames
from tests.conftest import Result, here


def test_a_memory_changed_on_disk_is_read_again(
        new_game: Callable[..., Path], play: Callable[..., Result], tmp_path: Path) -> None:
    path = new_game()
    play(path, "alice", "shoot C3")
    game = load(path, here())
    seen = SeenGames(tmp_path / "another-home", here().clock)
    seen.see(game)
    assert seen._read(game.game_id) is seen._read(game.game_id)  # the same bytes: known
    seen.see(game)  # the same copy again: nothing to say
    memory = seen._paths(game.game_id)[0]
    value = json.loads(memory.read_bytes())
    value["history"][-1] = "sha256:" + "0" * 64  # as if another history had been seen
    memory.write_text(json.dumps(value))
    with pytest.raises(StaleCopyError, match="differs from the copy"):
        seen.see(game)
