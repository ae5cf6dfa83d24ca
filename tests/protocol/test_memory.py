"""The referee's memory: a stale or diverging copy is refused; a broken memory is said so."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from frogpbem.errors import StaleCopyError
from frogpbem.gamefile import chain
from frogpbem.protocol import memory as memory_module
from frogpbem.protocol.game import load
from frogpbem.protocol.memory import HeadMemory
from tests.conftest import Result, here


def test_it_remembers_the_head_and_refuses_an_older_copy(
    new_game: Callable[..., Path], play: Callable[..., Result], tmp_path: Path
) -> None:
    game = new_game()
    memory = HeadMemory(tmp_path / "state")  # the fixtures' referee memory
    older = tmp_path / "older.yaml"
    shutil.copy(game, older)
    play(game, "alice", "shoot C3")
    remembered = memory.remembered(load(game, here()).game_id)
    assert remembered is not None and remembered[0] == 1
    assert remembered[1] == chain.prefix_digest(load(game, here()).file, 1)
    memory.check(load(game, here()))  # the copy it signed last is fine
    with pytest.raises(StaleCopyError, match="ends at record 0, but you already signed record 1"):
        memory.check(load(older, here()))


def test_an_unreadable_memory_is_reported(new_game: Callable[..., Path], tmp_path: Path) -> None:
    game = load(new_game(), here())
    memory = HeadMemory(tmp_path / "state")
    (tmp_path / "state" / "heads" / f"{game.game_id}.json").write_text("{not json")
    with pytest.raises(StaleCopyError, match="is unreadable; check it by hand"):
        memory.check(game)


def test_nothing_remembered_checks_nothing(new_game: Callable[..., Path], tmp_path: Path) -> None:
    game = load(new_game(), here())
    memory = HeadMemory(tmp_path / "elsewhere")
    assert memory.remembered(game.game_id) is None
    memory.check(game)


def test_a_write_a_stopped_command_left_undone_is_finished(
    new_game: Callable[..., Path], play: Callable[..., Result], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stopped after keeping what it signed and before writing the game file, a command
    leaves the file behind its memory; ``finish`` writes the kept copy in its place, and
    only then: not when the kept copy is ahead of the memory itself, not for another
    history, not twice."""
    game = new_game()
    memory = HeadMemory(tmp_path / "state")
    initial = game.read_bytes()
    play(game, "alice", "shoot C3")
    before = game.read_bytes()
    play(game, "bob", "shoot D4")
    signed = game.read_bytes()
    heads = tmp_path / "state" / "heads" / f"{load(game, here()).game_id}"
    assert heads.with_suffix(".yaml").read_bytes() == signed
    game.write_bytes(before)  # as if stopped right after the memory was written
    with pytest.raises(StaleCopyError, match="ends at record 1, but you already signed"):
        memory.check(load(game, here()))
    assert memory.finish(game)
    assert game.read_bytes() == signed
    memory.check(load(game, here()))
    assert not memory.finish(game)  # nothing left to finish
    parsed: list[str] = []
    with monkeypatch.context() as patched:
        patched.setattr(memory_module, "parse_game", lambda data, name: parsed.append(name))
        assert not memory.finish(game)  # the copy signed last, byte for byte: not parsed
    assert parsed == []

    remembered = heads.with_suffix(".json").read_bytes()
    other = tmp_path / "other.yaml"  # the same game, another second record
    other.write_bytes(before)
    heads.with_suffix(".json").unlink()  # (forgotten, so that this one may be signed)
    play(other, "bob", "shoot D3")
    forked = tmp_path / "forked.yaml"  # another first record
    forked.write_bytes(initial)
    heads.with_suffix(".json").unlink()
    monkeypatch.setenv("FROGPBEM_HOME", str(tmp_path / "another-home"))  # (no rollback seen)
    play(forked, "alice", "shoot B3")
    heads.with_suffix(".yaml").write_bytes(signed)
    heads.with_suffix(".json").write_bytes(remembered)
    game.write_bytes(other.read_bytes())
    assert not memory.finish(game)  # a fork, not a beginning of the copy: left to refuse
    assert game.read_bytes() == other.read_bytes()
    game.write_bytes(forked.read_bytes())
    assert not memory.finish(game)  # shorter, but forked at record 1
    assert game.read_bytes() == forked.read_bytes()
    game.write_bytes(before)
    heads.with_suffix(".yaml").write_bytes(other.read_bytes())
    assert not memory.finish(game)  # a kept copy that is not what the memory says was signed
    assert game.read_bytes() == before
    heads.with_suffix(".yaml").write_bytes(signed)

    game.write_bytes(before)  # stopped between the kept copy and the memory: copy ahead
    heads.with_suffix(".json").write_bytes(
        json.dumps({"n": 1, "head": load(game, here()).head,
                    "digest": chain.prefix_digest(load(game, here()).file, 1)}).encode())
    assert not memory.finish(game)  # the memory and the file agree: the copy was never sent
    assert game.read_bytes() == before
