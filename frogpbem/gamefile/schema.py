"""JSON Schema checks for game files, views and requests.

The schemas in ``schemas/`` are standard JSON Schema (draft 2020-12). Loading
them with the ``jsonschema`` package costs more than a whole referee move,
so this module checks the small subset of keywords they use itself; the
test suite checks that it agrees with ``jsonschema`` on valid and broken
documents, and that the schemas use no other keyword.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from frogpbem.errors import GameFileError

SUPPORTED = frozenset({
    "$schema", "$id", "$defs", "$ref", "title", "description",
    "type", "const", "enum", "oneOf", "properties", "required", "additionalProperties",
    "items", "minItems", "pattern", "minLength", "maxLength", "minimum",
})
"""The keywords this validator implements; the schemas may use no other."""

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def schema_dir() -> Path:
    """Where the schemas are: inside the installed package, or the source tree's ``schemas/``."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "schemas", here.parent / "schemas"):
        if (candidate / "game.schema.json").exists():
            return candidate
    raise GameFileError("the JSON Schemas of frogpbem are missing from this installation")


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema by file name (``game.schema.json``)."""
    data: dict[str, Any] = json.loads((schema_dir() / name).read_text(encoding="utf-8"))
    return data


@cache
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)


class _Invalid(Exception):
    def __init__(self, path: list[Any], message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def _check(value: Any, schema: dict[str, Any], root: dict[str, Any], path: list[Any]) -> None:
    if "$ref" in schema:
        ref: str = schema["$ref"]
        file, _, pointer = ref.partition("#")
        target_root = load_schema(file) if file else root
        target = target_root
        for part in filter(None, pointer.split("/")):
            target = target[part]
        _check(value, target, target_root, path)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            raise _Invalid(path, f"{value!r} is not of type {' or '.join(types)}")
    if "const" in schema and not _same(value, schema["const"]):
        raise _Invalid(path, f"{schema['const']!r} was expected")
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        raise _Invalid(path, f"{value!r} is not one of {schema['enum']!r}")
    if "oneOf" in schema:
        matches = 0
        for option in schema["oneOf"]:
            try:
                _check(value, option, root, path)
                matches += 1
            except _Invalid:
                pass
        if matches != 1:
            raise _Invalid(path, f"{_short(value)} is not valid under exactly one of the choices")
    if isinstance(value, str):
        if "pattern" in schema and not _pattern(schema["pattern"]).search(value):
            raise _Invalid(path, f"{_short(value)} does not match {schema['pattern']!r}")
        if len(value) < schema.get("minLength", 0):
            raise _Invalid(path, f"{value!r} is too short")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise _Invalid(path, f"{_short(value)} is too long")
    if _TYPES["integer"](value) and "minimum" in schema and value < schema["minimum"]:
        raise _Invalid(path, f"{value} is less than the minimum of {schema['minimum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            raise _Invalid(path, f"{_short(value)} should be non-empty")
        if "items" in schema:
            for index, item in enumerate(value):
                _check(item, schema["items"], root, [*path, index])
    if isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                raise _Invalid(path, f"{name!r} is a required property")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for name, item in value.items():
            if name in properties:
                _check(item, properties[name], root, [*path, name])
            elif extra is False:
                raise _Invalid(path, f"additional property {name!r} is not allowed")
            elif isinstance(extra, dict):
                _check(item, extra, root, [*path, name])


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def validate_entries(entries: dict[str, Any], name: str, where: str) -> None:
    """Check some top-level entries of a document against their part of schema ``name``."""
    root = load_schema(f"{name}.schema.json")
    try:
        for key, value in entries.items():
            if key not in root["properties"]:
                raise _Invalid([], f"additional property {key!r} is not allowed")
            _check(value, root["properties"][key], root, [key])
    except _Invalid as error:
        raise GameFileError(error.message, path=where,
                            element=describe_path(error.path)) from None


def validate(document: Any, name: str, where: str) -> None:
    """Check ``document`` against schema ``name``; raises :class:`GameFileError`."""
    root = load_schema(f"{name}.schema.json")
    try:
        _check(document, root, root, [])
    except _Invalid as error:
        raise GameFileError(error.message, path=where,
                            element=describe_path(error.path)) from None


def describe_path(parts: list[Any]) -> str:
    """A schema error's location in words: ``record 3, field 'scores'``."""
    if not parts:
        return "document"
    rest = ".".join(str(p) for p in parts[2:])
    field = f", field {rest!r}" if rest else ""
    if parts[0] == "log" and len(parts) > 1 and isinstance(parts[1], int):
        return f"record {parts[1] + 1}{field}"
    if parts[0] == "requests" and len(parts) > 1 and isinstance(parts[1], int):
        return f"pending request {parts[1] + 1}{field}"
    return ".".join(str(p) for p in parts)
