"""A seat's returned copy: only what follows the shared history is read, and checked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from frogpbem.errors import GameFileError, SignatureError
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.document import _parse, parse_copy, read_game
from frogpbem.protocol.game import load, load_copy, typed_results
from tests.conftest import Cli, Keys, Result, here


@pytest.fixture
def returned(new_game: Callable[..., Path], play: Callable[..., Result], cli: Cli,
             keys: Keys, tmp_path: Path) -> tuple[Path, Path]:
    """The referee's game two records in, and red's copy of it with a request and a note."""
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    copy = tmp_path / "red-copy.yaml"
    copy.write_bytes(game.read_bytes())
    assert cli("move", copy, "guess E5", "--key", keys.path("alice")).exit_code == 0
    assert cli("note", copy, "E5 next", "--key", keys.path("alice")).exit_code == 0
    return game, copy


def test_a_returned_copy_reads_as_the_whole_file_does(returned: tuple[Path, Path]) -> None:
    game, copy = returned
    base = read_game(game)
    data = copy.read_bytes()
    quick = parse_copy(data, "copy", base)
    assert quick.log is base.log  # the history is the game's own: it was not read again
    assert quick.to_json() == _parse(data, "copy").to_json()
    assert len(quick.requests) == 1 and len(quick.notes) == 1
    quoted = b"> " + data.replace(b"\n", b"\n> ")  # as quoted in a reply
    assert parse_copy(quoted, "quoted", base).log is base.log


def test_a_copy_takes_the_results_of_the_records_it_shares_from_the_game(
        returned: tuple[Path, Path]) -> None:
    """Records that are the game's very values keep the game's typed results; a record read
    again, or changed, is typed on its own."""
    game, copy = returned
    loaded = load(game, here())
    other = load_copy(loaded, copy)
    assert len(other.results) == 2
    assert all(mine is theirs for mine, theirs in zip(other.results, loaded.results,
                                                      strict=True))
    doc = strictyaml.loads(copy.read_bytes())
    result = doc["log"][0]["result"]
    doc["log"][0]["result"] = {**result, "count": result["count"] + 1}
    changed = _parse(strictyaml.dumps(doc).encode(), "changed")
    typed = typed_results(changed, loaded.ruleset, loaded)
    assert typed[0] == loaded.ruleset.parse_result(doc["log"][0]["result"]) != loaded.results[0]
    assert typed[1] == loaded.results[1] and typed[1] is not loaded.results[1]


def test_a_copy_whose_history_differs_is_read_whole(returned: tuple[Path, Path]) -> None:
    game, copy = returned
    base = read_game(game)
    doc = strictyaml.loads(copy.read_bytes())
    doc["log"][0]["result"] = {"count": 2}
    changed = strictyaml.dumps(doc).encode()
    read = parse_copy(changed, "changed", base)
    assert read.log is not base.log and read.log[0].result == {"count": 2}


def test_a_changed_request_in_a_copy_is_refused(returned: tuple[Path, Path]) -> None:
    game, copy = returned
    doc = strictyaml.loads(copy.read_bytes())
    signature = doc["requests"][0]["signature"]
    doc["requests"][0]["signature"] = signature[:40] + ("A" if signature[40] != "A" else "B") \
        + signature[41:]
    copy.write_text(strictyaml.dumps(doc))
    with pytest.raises(SignatureError) as refused:
        load_copy(load(game, here()), copy)
    assert refused.value.element is not None and "pending request 1" in refused.value.element


def test_anything_but_pending_entries_after_the_history_is_read_whole_and_refused(
        returned: tuple[Path, Path]) -> None:
    game, copy = returned
    base = read_game(game)
    data = copy.read_bytes()
    header = data[data.index(b"header:"):data.index(b"\njoins:") + 1]
    with pytest.raises(GameFileError):  # a second header after the history
        parse_copy(data + header, "twice", base)
