"""The referee's memory: a stale or diverging copy is refused; a broken memory is said so."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from frogpbem.errors import StaleCopyError
from frogpbem.gamefile import chain
from frogpbem.protocol.game import load
from frogpbem.protocol.memory import HeadMemory
from tests.conftest import Result


def test_it_remembers_the_head_and_refuses_an_older_copy(
    new_game: Callable[..., Path], play: Callable[..., Result], tmp_path: Path
) -> None:
    game = new_game()
    memory = HeadMemory(tmp_path / "state")  # the fixtures' referee memory
    older = tmp_path / "older.yaml"
    shutil.copy(game, older)
    play(game, "alice", "shoot C3")
    remembered = memory.remembered(load(game).game_id)
    assert remembered is not None and remembered[0] == 1
    assert remembered[1] == chain.prefix_digest(load(game).file, 1)
    memory.check(load(game))  # the copy it signed last is fine
    with pytest.raises(StaleCopyError, match="ends at record 0, but you already signed record 1"):
        memory.check(load(older))


def test_an_unreadable_memory_is_reported(new_game: Callable[..., Path], tmp_path: Path) -> None:
    game = load(new_game())
    memory = HeadMemory(tmp_path / "state")
    (tmp_path / "state" / "heads" / f"{game.game_id}.json").write_text("{not json")
    with pytest.raises(StaleCopyError, match="is unreadable; check it by hand"):
        memory.check(game)


def test_nothing_remembered_checks_nothing(new_game: Callable[..., Path], tmp_path: Path) -> None:
    game = load(new_game())
    memory = HeadMemory(tmp_path / "elsewhere")
    assert memory.remembered(game.game_id) is None
    memory.check(game)
