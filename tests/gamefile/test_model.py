"""The typed model: every element writes back exactly as read; anything else is refused."""

from __future__ import annotations

import copy
import string
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from frogpbem import crypto
from frogpbem.errors import GameFileError
from frogpbem.gamefile import model, strictyaml
from frogpbem.gamefile.document import _parse, parse_game
from frogpbem.gamefile.model import GameFile, Record, _plain_view_entry

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "finished-frogfinder" / "game.yaml"


def raw(path: Path = EXAMPLE) -> dict[str, Any]:
    data: dict[str, Any] = strictyaml.loads(path.read_bytes())
    return data


def test_a_whole_file_round_trips() -> None:
    data = raw()
    file = GameFile.from_json(data)
    written = file.to_json()
    for part in ("header", "log", "requests", "reveal"):
        assert written[part] == data[part], part
    assert len(file.log) == len(data["log"]) and file.reveal is not None


def test_signed_bytes_are_those_of_the_file(finished_game: Path) -> None:
    data = raw(finished_game)
    file = GameFile.from_json(data)
    assert file.header.signed_bytes == crypto.signed_bytes("header", data["header"])
    for record, element in zip(file.log, data["log"], strict=True):
        assert record.signed_bytes == crypto.signed_bytes("record", element)
        assert record.hash == crypto.element_hash("record", element)
    assert file.head == crypto.element_hash("record", data["log"][-1])


def test_the_request_a_record_carries_is_rebuilt(finished_game: Path) -> None:
    file = GameFile.from_json(raw(finished_game))
    record = file.log[1]
    request = record.request_element(file.game)
    assert request is not None
    assert (request.n, request.head, request.seat, request.move) == \
        (record.n, record.prev, record.seat, record.move)
    request.verify(file.header.seat_keys[record.seat])


def _refused(change: Callable[[dict[str, Any]], None], message: str) -> None:
    data = copy.deepcopy(raw())
    change(data)
    with pytest.raises(GameFileError, match=message):
        GameFile.from_json(data)


def test_half_a_sealed_block_is_refused_not_a_traceback() -> None:
    _refused(lambda d: d["log"][0].update(sealed="-----BEGIN AGE ENCRYPTED FILE-----"),
             "needs both 'sealed' and 'commitment'")
    _refused(lambda d: d["log"][0].update(commitment="sha256:" + "0" * 64),
             "needs both 'sealed' and 'commitment'")


def test_a_field_written_otherwise_is_refused() -> None:
    # an optional field present as null would sign differently from how it is written
    _refused(lambda d: d["log"][0].update(request=None), "record 1: fields not in the shape")
    _refused(lambda d: d["header"]["seats"][0].update(email=None),
             "header: fields not in the shape")


def test_a_seat_named_twice_is_refused() -> None:
    def twice(d: dict[str, Any]) -> None:
        d["header"]["seats"][1]["seat"] = d["header"]["seats"][0]["seat"]

    _refused(twice, "seat 'red' appears twice")


def test_a_sealed_move_key_must_be_a_record_number() -> None:
    def odd_key(d: dict[str, Any]) -> None:
        d["reveal"]["sealed_moves"] = {"x1": {"move": "guess 1", "salt": "0" * 64}}

    _refused(odd_key, "is not a record number")


def test_the_document_layer_names_the_file() -> None:
    data = raw()
    data["log"][0]["commitment"] = "sha256:" + "0" * 64
    with pytest.raises(GameFileError) as caught:
        parse_game(strictyaml.dumps(data).encode(), "mailed.yaml")
    assert caught.value.path == "mailed.yaml" and "needs both" in str(caught.value)


def test_records_append_without_changing_the_file() -> None:
    file = GameFile.from_json(raw())
    extra = Record(99, file.head, "red", "resign", {"resigned": True}, {}, "2026-01-01T00:00:00Z")
    longer = file.with_record(extra)
    assert len(longer.log) == len(file.log) + 1 and longer.log[-1] is extra
    assert file.head != longer.head


_PLAIN_TEXT = st.one_of(
    st.text(alphabet=string.ascii_letters + string.digits + " _./:@+=,()'-", max_size=90),
    st.text(alphabet=string.ascii_letters + " :#'\"\\é\n-", max_size=12))
"""Strings mostly of what is written plain, long and short, and some that are not."""
_SCALARS = st.one_of(st.integers(-2**60, 2**60), st.booleans(), st.none(), _PLAIN_TEXT,
                     st.sampled_from(["count", "yes", "No", "true", "a b", "a: b", "x #y", "9"]))
_TYPICAL = st.dictionaries(
    st.sampled_from(["count", "miss", "frog", "owner", "how", "a b", "a", "ab", "a(", "n"]),
    st.one_of(st.integers(-10, 2**54), st.booleans(), st.none(),
              st.sampled_from(["red", "blue", "guess", "a b", "yes", "x" * 70])), max_size=3)
"""Results like the rulesets' (mostly written at once)."""
_RESULTS = st.one_of(
    st.dictionaries(st.one_of(_PLAIN_TEXT, st.sampled_from(["a", "a b", "ab", "a(", "n"])),
                    _SCALARS, max_size=4),
    st.dictionaries(_PLAIN_TEXT, st.one_of(_SCALARS, st.lists(_SCALARS, max_size=2),
                                           st.floats(allow_nan=False)), max_size=3),
    _SCALARS, st.lists(_SCALARS, max_size=2))


def mostly(common: st.SearchStrategy[Any], rare: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``common`` four times in five, else ``rare``."""
    return st.integers(0, 4).flatmap(lambda k: common if k else rare)


@settings(max_examples=500, deadline=None)
@given(mostly(st.integers(0, 2000), st.one_of(st.integers(-2**60, 2**60), st.booleans())),
       mostly(st.sampled_from(["red", "blue", "green"]),
              st.one_of(st.sampled_from(["n", "no", "a" * 80]), _PLAIN_TEXT)),
       mostly(st.sampled_from(["shoot G9", "guess A1", "resign", "jump B2-D4"]), _PLAIN_TEXT),
       mostly(_TYPICAL, _RESULTS))
@example(1, "red", "shoot G9", {"a b": 1, "a": 2, "ab": 3})  # sorted by name
@example(2, "a" * 70, "shoot G9", {})  # folded over lines
@example(3, "red", "b" * 70, {"count": 1})
@example(4, "red", "shoot G9", {"how": "c" * 70})
def test_a_view_entry_made_at_once_is_what_the_general_writers_make(
        n: int, seat: str, move: str, result: Any) -> None:
    """The lines and canonical JSON of a view entry made directly are the general YAML
    writer's and canonical JSON's, or left to them (``None``) for what they alone write."""
    entry = {"n": n, "seat": seat, "move": move, "result": result}
    made = _plain_view_entry(n, seat, move, result)
    try:
        general: tuple[list[str], bytes] | None = (strictyaml.item("-", entry),
                                                   crypto.canonical_json(entry))
    except (GameFileError, TypeError):  # not strict YAML or canonical JSON (a float)
        general = None
    if made is not None:
        assert made == general
    event("made at once" if made is not None else "left to the general writers")


def test_the_view_entries_of_a_whole_game_are_made_at_once(finished_game: Path) -> None:
    file = parse_game(finished_game.read_bytes(), "game")
    for record in file.log:
        made = _plain_view_entry(record.n, record.seat, record.move, record.result)
        assert made == (strictyaml.item("-", record.view_entry),
                        crypto.canonical_json(record.view_entry))
    text, canonical = file.view_moves
    assert text == "\n".join(strictyaml.item("moves:", [r.view_entry for r in file.log])[1:])
    assert canonical == crypto.canonical_json([r.view_entry for r in file.log])


def test_a_known_list_of_view_entries_is_taken_only_for_these_very_records(
        finished_game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file whose log begins with records whose list is known makes only the entries
    after them; records equal in value but read again are not these."""
    file = parse_game(finished_game.read_bytes(), "game")
    file.header.made.views.clear()
    assert len(file.log) > 2
    again = _parse(finished_game.read_bytes(), "again")
    model.know_view_moves(replace(file, log=file.log[:1]), "- mine", b'{"move":"mine"}')
    model.know_view_moves(replace(file, log=again.log[:2]),  # longer, not these
                          "- other", b'{"move":"other"}')
    rest = [r.view_entry for r in file.log[1:]]
    assert file.view_moves == (
        "\n".join(["- mine", *strictyaml.item("moves:", rest)[1:]]),
        b'[{"move":"mine"},' + crypto.canonical_json(rest)[1:])
    assert replace(file, notes=()).view_moves == file.view_moves  # now known whole


def test_a_log_lists_each_records_hash_however_it_was_made(
        finished_demos: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A log grown record by record lists one more hash each time; a log made otherwise
    (the same records in a new tuple, one record changed, records read again) lists its
    own records' hashes, never those of a log listed before."""
    file = parse_game(finished_demos["coan"].read_bytes(), "game")
    file.header.made.logs.clear()
    again = _parse(finished_demos["coan"].read_bytes(), "again")
    hashes = tuple(record.hash for record in file.log)
    assert len(hashes) > 3
    grown = replace(file, log=())
    assert grown.log_hashes() == ()
    for n, record in enumerate(file.log, 1):
        grown = grown.with_record(record)
        assert grown.log_hashes() == hashes[:n]
    assert replace(file, log=tuple(file.log)).log_hashes() == hashes
    other = replace(file.log[1], move="guess A1", signature="AAAA")
    changed = (file.log[0], other, *file.log[2:])
    assert replace(file, log=changed).log_hashes() == (hashes[0], other.hash, *hashes[2:])
    assert other.hash != hashes[1]
    assert replace(file, log=again.log).log_hashes() == hashes
    assert grown.heads() == [file.base_hash, *hashes]
    assert file.history_hashes() == tuple(e.hash for e in file.history)
