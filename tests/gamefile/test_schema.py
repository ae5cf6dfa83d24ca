"""Our schema checker agrees with the reference jsonschema implementation."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource

from frogpbem.errors import GameFileError
from frogpbem.gamefile import schema, strictyaml

NAMES = ("game", "view", "request", "tournament")


def reference_validator(name: str) -> jsonschema.Draft202012Validator:
    folder = schema.schema_dir()
    resources = []
    for other in NAMES:
        contents = json.loads((folder / f"{other}.schema.json").read_text())
        resources.append((f"{other}.schema.json", Resource.from_contents(contents)))
    registry: Registry[Any] = Registry().with_resources(resources)
    return jsonschema.Draft202012Validator(
        json.loads((folder / f"{name}.schema.json").read_text()), registry=registry
    )


def keywords(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for sub in value.values():
                    found |= keywords(sub)
            else:
                found.add(key)
                found |= keywords(value)
    elif isinstance(node, list):
        for item in node:
            found |= keywords(item)
    return found


@pytest.mark.parametrize("name", NAMES)
def test_schemas_use_only_supported_keywords(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(schema.load_schema(f"{name}.schema.json"))
    assert keywords(schema.load_schema(f"{name}.schema.json")) <= schema.SUPPORTED


@pytest.fixture
def finished_doc(finished_game: Path) -> dict[str, Any]:
    return strictyaml.loads(finished_game.read_bytes())  # type: ignore[no-any-return]


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*path, index))
    return found


REPLACEMENTS = [None, True, 0, -1, "x", "", [], {}, "sha256:" + "0" * 64, 1.5, [1], {"a": 1}]


def test_agrees_with_jsonschema_on_broken_documents(finished_doc: dict[str, Any]) -> None:
    reference = reference_validator("game")
    assert reference.is_valid(finished_doc)
    schema.validate(finished_doc, "game", "ok")
    checked = 0
    for path in paths(finished_doc)[1:]:
        for replacement in REPLACEMENTS[checked % 3 :: 3]:
            broken = copy.deepcopy(finished_doc)
            target = broken
            for part in path[:-1]:
                target = target[part]
            target[path[-1]] = replacement
            expected = reference.is_valid(broken)
            try:
                schema.validate(broken, "game", "t")
                ours = True
            except GameFileError:
                ours = False
            assert ours == expected, (path, replacement)
            checked += 1
    assert checked > 200


FIELDS = ["game", "n", "head", "seat", "move", "signature", "x"]
TEXTS = ["", "red", "RED", "shoot G9", "sha256:" + "a" * 64, "QUJD", "a b"]


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), st.one_of(
    st.none(), st.booleans(), st.integers(-2, 3), st.sampled_from(TEXTS))))
def test_agrees_with_jsonschema_on_random_requests(request_doc: dict[str, Any]) -> None:
    expected = reference_validator("request").is_valid(request_doc)
    try:
        schema.validate(request_doc, "request", "t")
        ours = True
    except GameFileError:
        ours = False
    assert ours == expected


def test_error_names_the_record(finished_doc: dict[str, Any]) -> None:
    finished_doc["log"][2]["scores"]["red"] = "lots"
    with pytest.raises(GameFileError, match="record 3, field 'scores.red'"):
        schema.validate(finished_doc, "game", "g.yaml")


def test_a_final_newline_never_passes_an_anchored_pattern(finished_doc: dict[str, Any]) -> None:
    """A schema's ``$`` matches only at the very end (ECMA-262), where Python's ``$`` also
    matches before a final newline: every string of a finished game that an anchored
    pattern checks (its id, hashes, keys, times) is refused with one more ``\\n``."""
    anchored = 0
    for path in paths(finished_doc)[1:]:
        target = finished_doc
        for part in path[:-1]:
            target = target[part]
        value = target[path[-1]]
        if not isinstance(value, str) or value.endswith("\n"):
            continue
        broken = copy.deepcopy(finished_doc)
        place = broken
        for part in path[:-1]:
            place = place[part]
        place[path[-1]] = value + "\n"
        try:
            schema.validate(broken, "game", "t")
        except GameFileError as refused:
            anchored += "does not match" in str(refused)
    assert anchored >= 10  # the game id, the header's hashes, every prev, time and key
