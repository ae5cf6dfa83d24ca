"""A history kept from the last read: only what follows it is read again, and nothing is
taken from it unless the file has exactly its bytes."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from frogpbem.errors import GameFileError, SignatureError
from frogpbem.gamefile import document, strictyaml
from frogpbem.gamefile.document import _parse, dump_game, parse_game, parse_known
from frogpbem.gamefile.model import GameFile
from frogpbem.protocol.game import load
from tests.conftest import Cli, Keys, Result, here


class Kept:
    """A store held in memory; once ``frozen``, it ignores writes (so every example sees
    the same store)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.frozen = False
        self.parsed: OrderedDict[bytes, GameFile] = OrderedDict()
        self.kept_here: OrderedDict[str, document.KeptHistory] = OrderedDict()

    def read_history(self, game: str) -> Any:
        return self.values.get(game)

    def write_history(self, game: str, value: dict[str, Any]) -> None:
        if not self.frozen:
            self.values[game] = value


def same(a: GameFile, b: GameFile) -> bool:
    """The same file, to the hash of every element."""
    return a.to_json() == b.to_json() and a.heads() == b.heads() and \
        a.header.hash == b.header.hash


@pytest.fixture
def versions(new_game: Callable[..., Path], play: Callable[..., Result], cli: Cli,
             keys: Keys) -> list[bytes]:
    """One game's file after two records, after three, and after three with a request."""
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    two = game.read_bytes()
    play(game, "alice", "shoot D4")
    three = game.read_bytes()
    assert cli("move", game, "shoot C5", "--key", keys.path("bob")).exit_code == 0
    return [two, three, game.read_bytes()]


def test_only_what_follows_the_kept_history_is_read(
        versions: list[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    two, three, asked = versions
    store = Kept()
    document.keep_history(_parse(two, "two"), two, store)
    read: list[bytes] = []
    real = strictyaml.loads

    def counting(data: bytes, name: str = "<input>", bulk: bool = False) -> Any:
        read.append(data)
        return real(data, name, bulk)

    monkeypatch.setattr(strictyaml, "loads", counting)
    for data, parts in ((three, 2), (asked, 1)):
        read.clear()
        quick = parse_known(data, "copy", store)
        assert quick is not None
        assert len(read) == parts  # the new record (if any), then the pending part
        history = data.index(b"\nrequests:")
        assert all(len(part) < history // 2 for part in read)  # never the history again
        assert same(quick, _parse(data, "whole"))
        # remembered as the source of its history: written back as read, not made again
        assert document._source_of(quick) == (three[:history + 1], 3)
        assert dump_game(quick) == data
    kept = store.values[next(iter(store.values))]
    assert kept["length"] == three.index(b"\nrequests:") + 1 and kept["continued"] is True


def test_the_store_is_written_again_every_keep_every_records(
        new_game: Callable[..., Path], play: Callable[..., Result],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Between two commands a game grows by a record or two: the history in the store is
    written again only when KEEP_EVERY records or more follow it. In between, each read
    continues from it, reading the records after it again, with the values a whole read
    gives."""
    monkeypatch.setattr(document, "KEEP_EVERY", 2)
    game = new_game()
    files = []
    for player, move in (("alice", "shoot C3"), ("bob", "guess A2"), ("alice", "shoot D4"),
                         ("bob", "shoot C5")):
        play(game, player, move)
        files.append(game.read_bytes())
    one, two, three, four = files
    store = Kept()
    document.keep_history(_parse(one, "one"), one, store)
    for data, stored in ((two, one), (three, three), (four, three)):
        store.kept_here.clear()  # each read in a process of its own: the store is all
        quick = parse_known(data, "next", store)
        assert quick is not None and same(quick, _parse(data, "whole"))
        (kept,) = store.values.values()
        assert kept["length"] == stored.index(b"\nrequests:") + 1
        assert len(kept["hashes"]) == len(_parse(stored, "stored").log)


def test_a_history_from_the_store_brings_the_views_list_of_its_records(
        versions: list[bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each view lists every record: a read continued from the store makes only the new
    records' entries, and the list is the one a whole read makes."""
    two, three, asked = versions
    store = Kept()
    document.keep_history(_parse(two, "two"), two, store)
    (kept,) = store.values.values()
    whole = _parse(two, "whole").view_moves
    assert kept["views"] == [whole[0], whole[1][1:-1].decode()]
    for data in (three, asked):
        store.kept_here.clear()  # each read in a process of its own: the store is all
        quick = parse_known(data, "next", store)
        assert quick is not None
        made = [r.n for r in quick.log if "view_entry_written" in r.__dict__]
        assert quick.view_moves == _parse(data, "whole").view_moves
        assert [r.n for r in quick.log if "view_entry_written" in r.__dict__] == \
            made + [3] * (data != two)  # only the record after the kept history's two
    store.kept_here.clear()
    kept["views"][0] = kept["views"][0].rsplit("\n- ", 1)[0]  # one entry short: not used
    quick = parse_known(three, "short", store)
    assert quick is not None and quick.view_moves == _parse(three, "whole").view_moves
    assert [r.n for r in quick.log if "view_entry_written" in r.__dict__] == [1, 2, 3]


def test_a_history_changed_on_disk_is_read_whole_and_refused(
        new_game: Callable[..., Path], play: Callable[..., Result], tmp_path: Path) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    mine = here(home=tmp_path / "mine")
    store = mine.verified
    load(game, mine)
    assert store.read_history(load(game, mine).game_id) is not None
    doc = strictyaml.loads(game.read_bytes())
    doc["log"][0]["move"] = "shoot C4"  # valid YAML, valid values: only the signature tells
    changed = strictyaml.dumps(doc).encode()
    game.write_bytes(changed)
    assert parse_known(changed, "changed", store) is None
    with pytest.raises(SignatureError):
        load(game, mine)


def test_a_second_read_in_one_process_takes_the_kept_history_from_memory(
        versions: list[bytes]) -> None:
    """The referee reads its game, then the copy a seat sent back (the judge reads a game at
    every move): the second read takes the history as the first one kept it, the same
    values, without reading the store; it gives what reading the file whole gives."""
    two, three, asked = versions
    store = Kept()
    document.keep_history(_parse(two, "two"), two, store)
    first = parse_known(three, "three", store)
    assert first is not None and same(first, _parse(three, "three"))
    store.values.clear()  # the store is empty now: only this process's memory holds it
    second = parse_known(asked, "asked", store)
    assert second is not None and same(second, _parse(asked, "asked"))
    assert len(second.requests) == 1 and all(map(operator.is_, first.log, second.log))
    assert store.values == {}  # nothing new to keep: no record was added
    store.kept_here.clear()  # as in another process
    assert parse_known(asked, "asked", store) is None


def test_a_kept_history_of_another_shape_is_not_used(versions: list[bytes]) -> None:
    two, three, _ = versions
    store = Kept()
    document.keep_history(_parse(two, "two"), two, store)
    (game,) = store.values
    for change in ({"format": 0}, {"hashes": []}, {"bases": None}, {"length": "12"},
                   {"history": []}):
        store.values[game] = {**store.values[game], **change}
        store.kept_here.clear()  # as in another process: the store is all there is
        assert parse_known(three, "three", store) is None
        store.values.clear()
        document.keep_history(_parse(two, "two"), two, store)


@given(st.data())
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_damaged_file_reads_as_it_does_without_a_kept_history(
        versions: list[bytes], data: st.DataObject) -> None:
    """Damage anywhere (most often after the kept history): a file is taken from the kept
    history only if reading it whole gives exactly the same, and fails where that fails."""
    two, three, asked = versions
    store = Kept()
    document.keep_history(_parse(two, "two"), two, store)
    store.frozen = True
    if data.draw(st.booleans(), label="read in another process"):
        store.kept_here.clear()  # the kept history from the store, not from memory
    file = bytearray(data.draw(st.sampled_from([three, asked])))
    kept = two.index(b"\nrequests:") + 1
    for _ in range(data.draw(st.integers(1, 3))):
        low = kept - 1 if data.draw(st.booleans()) else 0
        at = data.draw(st.integers(low, len(file) - 1))
        how = data.draw(st.sampled_from(["letter", "letter", "set", "insert", "delete",
                                         "line"]))
        piece = data.draw(st.sampled_from([b"\n", b" ", b"-", b'"', b":", b"\\", b"a", b"1",
                                           b"- ", b"\n- ", b"\nnotes: []", b"  x: 1\n"]))
        if how == "letter":  # a letter or digit for another: most often still a game file
            if chr(file[at]).isalnum():
                file[at] = data.draw(st.sampled_from(b"aZ09"))
        elif how == "set":
            file[at:at + 1] = piece[:1]
        elif how == "insert":
            file[at:at] = piece
        elif how == "delete":
            del file[at:at + data.draw(st.integers(1, 40))]
        else:  # a whole line moved: a record's field in another place
            start = file.rfind(b"\n", 0, at) + 1
            end = file.find(b"\n", at) + 1 or len(file)
            line = bytes(file[start:end])
            del file[start:end]
            where = data.draw(st.integers(kept - 1, len(file)))
            file[where:where] = line
    damaged = bytes(file)
    quick = parse_known(damaged, "damaged", store)
    try:
        whole = _parse(damaged, "damaged")
    except GameFileError:
        event("refused")
        assert quick is None
        return
    event("read whole only" if quick is None else "read from the kept history")
    assert quick is None or same(quick, whole)


def test_a_history_read_is_written_back_as_a_fresh_write_makes_it(
        versions: list[bytes]) -> None:
    """The referee adds a record to a file it read: only the new record is made into lines,
    and the bytes are those of writing every element afresh."""
    two, three, _ = versions
    read = parse_game(two, "two")
    later = _parse(three, "three")  # record 3, as another process would have it
    grown = read.with_record(later.log[2])
    assert document._source_of(grown) == (two[:two.index(b"\nrequests:") + 1], 2)
    written = dump_game(grown)
    # what was written is the history the next record is added to (its new lines checked)
    assert document._source_of(grown) == (written[:written.index(b"\nrequests:") + 1], 3)
    written_file = _parse(written, "again")
    written_file.header.made.sources.clear()
    assert written == dump_game(written_file) == three
    assert dump_game(replace(_parse(three, "three"), requests=())) == three


def test_a_history_read_is_not_re_formatted_when_written(versions: list[bytes]) -> None:
    """The same values written another way (what a hand edit might do) stay as they were
    read; they read back as the same file."""
    two, _, _ = versions
    doc = strictyaml.loads(two)
    other = yaml.safe_dump(doc, sort_keys=False, width=1000).encode()
    read = parse_game(other, "other")
    written = dump_game(read)
    history = other[:other.index(b"\nrequests:") + 1]
    assert written.startswith(history)
    assert same(_parse(written, "written"), _parse(two, "two"))


def test_a_file_written_again_is_its_bytes_and_a_file_read_is_written_afresh(
        versions: list[bytes]) -> None:
    """A file value written once is written again as the same bytes (values never change);
    a file only read is not: its pending part is made anew, as frogpbem writes it."""
    two, _, _ = versions
    assert b"\nrequests: []\n" in two
    other = two.replace(b"\nrequests: []\n", b"\nrequests: [ ]\n")
    read = parse_game(other, "other")
    assert dump_game(read) == two  # not the bytes read
    written = dump_game(read)
    assert dump_game(read) is written


def test_a_history_whose_log_is_not_last_is_never_continued(
        versions: list[bytes], new_game: Callable[..., Path]) -> None:
    """Records written after a history belong to its log only when the log ends it, as
    frogpbem writes it; a history without records, or with its keys in another order
    (after a hand edit), is never continued: the grown file is read whole."""
    two, three, _ = versions
    doc = strictyaml.loads(two)
    reordered = yaml.safe_dump({key: doc[key] for key in (
        "frogpbem", "header", "log", "deal", "joins", "requests", "reveal", "notes")},
        sort_keys=False, width=1000).encode()
    record = ("\n".join(_parse(three, "three").log[2].yaml_lines("-")) + "\n").encode()
    for kept_from in (reordered, new_game(name="fresh.yaml").read_bytes()):
        store = Kept()
        file = parse_game(kept_from, "kept")
        document.keep_history(file, kept_from, store)
        (value,) = store.values.values()
        assert value["continued"] is False
        cut = kept_from.index(b"\nrequests:") + 1
        grown = kept_from[:cut] + record + kept_from[cut:]
        with pytest.raises(GameFileError):  # read whole, the record is no record of the log
            _parse(grown, "grown")
        assert parse_known(grown, "grown", store) is None
        assert document._source_of(file) is None  # never written back by appending to it
    store = Kept()
    document.keep_history(_parse(two, "two"), two, store)
    assert next(iter(store.values.values()))["continued"] is True
    cut = two.index(b"\nrequests:") + 1
    for after in (b"[]\n", b"  - x\n"):  # no record of the log, read whole: refused
        grown = two[:cut] + after + two[cut:]
        with pytest.raises(GameFileError):
            _parse(grown, "grown")
        assert parse_known(grown, "grown", store) is None


_LINES = st.sampled_from([b"- n: 4", b"  seat: red", b"    - 1", b"", b"x: 1", b" y", b"-x",
                          b"log:", b"- ", b"  "])


@given(st.lists(_LINES, max_size=6))
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_lines_after_a_known_history_are_judged_as_the_whole_history_is(
        versions: list[bytes], lines: list[bytes]) -> None:
    """A written-back history is checked only after the part known to end in records. It
    is never taken as ending in records where checking the whole history would not, and
    after record lines (all that frogpbem writes there) the two agree."""
    two = versions[0]
    cut = two.index(b"\nrequests:") + 1
    data = two[:cut] + b"".join(line + b"\n" for line in lines) + two[cut:]
    part = document._history_part(data, cut)
    assert part == document._history_part(data)
    assert part is not None
    expected = document._ends_in_records(data, part[1])
    event(f"continued: {expected}")
    quick = document._ends_in_records(data, part[1], cut)
    assert expected or not quick
    if all(line.startswith((b"- ", b"  ")) for line in lines):
        assert quick == expected
