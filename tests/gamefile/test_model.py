"""The typed model: every element writes back exactly as read; anything else is refused."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from frogpbem import crypto
from frogpbem.errors import GameFileError
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.document import parse_game
from frogpbem.gamefile.model import GameFile, Record

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
