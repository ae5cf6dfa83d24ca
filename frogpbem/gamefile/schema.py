"""JSON Schema checks for game files, views and requests.

The schemas in ``schemas/`` are standard JSON Schema (draft 2020-12). Loading
the ``jsonschema`` package would cost a command more than the rest of a referee's
move, so this module checks the small subset of keywords they use itself; the
test suite checks that it agrees with ``jsonschema`` on valid and broken
documents, and that the schemas use no other keyword.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
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

_TYPES: dict[str, Callable[[Any], bool]] = {
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
    """The schema's pattern for Python: its ``$`` (ECMA-262's, the schema's dialect,
    matching only at the very end) written ``\\Z``, since Python's ``$`` also matches
    before a final newline (``fl-abc\\n`` would pass as a game id and name files)."""
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", text))


Where = tuple[Any, ...]
"""Where a value is: ``()`` for the document, else ``(parent's path, key or index)``."""
Check = Callable[[Any, Where], None]
"""A schema made into a function: raises :class:`_Invalid` for a value it refuses."""


class _Invalid(Exception):
    def __init__(self, path: Where, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message

    @property
    def parts(self) -> list[Any]:
        """The keys and indexes from the document down to the value."""
        parts = []
        path = self.path
        while path:
            path, key = path
            parts.append(key)
        return parts[::-1]


Pointer = tuple[str | int, ...]
"""A node's place in its schema file: the keys and indexes down to it."""


@cache
def _compiled(file: str, pointer: Pointer) -> Check:
    """The function checking the node at ``pointer`` of the schema ``file``, made once."""
    node: Any = load_schema(file)
    for part in pointer:
        node = node[part]
    return _compile(node, file, pointer)


def _compile(schema: dict[str, Any], file: str, at: Pointer) -> Check:
    """The keywords of one node, in a fixed order, each made into a step once: a document
    is then checked without looking the keywords up again at every value."""
    steps: list[Check] = []
    if "$ref" in schema:
        steps.append(_ref(schema["$ref"], file))
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        steps.append(_type(names))
    if "const" in schema:
        steps.append(_const(schema["const"]))
    if "enum" in schema:
        steps.append(_enum(schema["enum"]))
    if "oneOf" in schema:
        steps.append(_one_of([_compiled(file, (*at, "oneOf", index))
                              for index in range(len(schema["oneOf"]))]))
    if {"pattern", "minLength", "maxLength"} & schema.keys():
        steps.append(_string(schema))
    if "minimum" in schema:
        steps.append(_minimum(schema["minimum"]))
    if {"minItems", "items"} & schema.keys():
        items = schema.get("items")
        steps.append(_array(schema.get("minItems", 0),
                            _compiled(file, (*at, "items")) if items is not None else None))
    if {"required", "properties", "additionalProperties"} & schema.keys():
        extra = schema.get("additionalProperties", True)
        steps.append(_object(tuple(schema.get("required", ())),
                             {name: _compiled(file, (*at, "properties", name))
                              for name in schema.get("properties", {})},
                             extra is False,
                             _compiled(file, (*at, "additionalProperties"))
                             if isinstance(extra, dict) else None))
    if len(steps) == 1:
        return steps[0]

    def every(value: Any, path: Where) -> None:
        for step in steps:
            step(value, path)

    return every


def _ref(ref: str, here: str) -> Check:
    file, _, pointer = ref.partition("#")
    target: Pointer = tuple(filter(None, pointer.split("/")))
    made: list[Check] = []  # made at first use: a schema may refer to itself

    def referred(value: Any, path: Where) -> None:
        if not made:
            made.append(_compiled(file or here, target))
        made[0](value, path)

    return referred


def _type(names: list[str]) -> Check:
    tests = [_TYPES[name] for name in names]
    words = " or ".join(names)

    def typed(value: Any, path: Where) -> None:
        for test in tests:
            if test(value):
                return
        raise _Invalid(path, f"{value!r} is not of type {words}")

    return typed


def _const(const: Any) -> Check:
    def constant(value: Any, path: Where) -> None:
        if not _same(value, const):
            raise _Invalid(path, f"{const!r} was expected")

    return constant


def _enum(options: list[Any]) -> Check:
    def one_of_these(value: Any, path: Where) -> None:
        if not any(_same(value, option) for option in options):
            raise _Invalid(path, f"{value!r} is not one of {options!r}")

    return one_of_these


def _one_of(options: list[Check]) -> Check:
    def exactly_one(value: Any, path: Where) -> None:
        matches = 0
        for option in options:
            try:
                option(value, path)
                matches += 1
            except _Invalid:
                pass
        if matches != 1:
            raise _Invalid(path, f"{_short(value)} is not valid under exactly one of the choices")

    return exactly_one


def _string(schema: dict[str, Any]) -> Check:
    text = schema.get("pattern")
    pattern = _pattern(text) if text is not None else None
    shortest = schema.get("minLength", 0)
    longest = schema.get("maxLength")

    def string(value: Any, path: Where) -> None:
        if not isinstance(value, str):
            return
        if pattern is not None and not pattern.search(value):
            raise _Invalid(path, f"{_short(value)} does not match {text!r}")
        if len(value) < shortest:
            raise _Invalid(path, f"{value!r} is too short")
        if longest is not None and len(value) > longest:
            raise _Invalid(path, f"{_short(value)} is too long")

    return string


def _minimum(least: int) -> Check:
    def at_least(value: Any, path: Where) -> None:
        if _TYPES["integer"](value) and value < least:
            raise _Invalid(path, f"{value} is less than the minimum of {least}")

    return at_least


def _array(fewest: int, item: Check | None) -> Check:
    def array(value: Any, path: Where) -> None:
        if not isinstance(value, list):
            return
        if len(value) < fewest:
            raise _Invalid(path, f"{_short(value)} should be non-empty")
        if item is not None:
            for index, element in enumerate(value):
                item(element, (path, index))

    return array


def _object(required: tuple[str, ...], properties: dict[str, Check], closed: bool,
            extra: Check | None) -> Check:
    def mapping(value: Any, path: Where) -> None:
        if not isinstance(value, dict):
            return
        for name in required:
            if name not in value:
                raise _Invalid(path, f"{name!r} is a required property")
        for name, item in value.items():
            check = properties.get(name)
            if check is not None:
                check(item, (path, name))
            elif closed:
                raise _Invalid(path, f"additional property {name!r} is not allowed")
            elif extra is not None:
                extra(item, (path, name))

    return mapping


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def validate_entries(entries: dict[str, Any], name: str, where: str) -> None:
    """Check some top-level entries of a document against their part of schema ``name``."""
    file = f"{name}.schema.json"
    root = load_schema(file)
    try:
        for key, value in entries.items():
            if key not in root["properties"]:
                raise _Invalid((), f"additional property {key!r} is not allowed")
            _compiled(file, ("properties", key))(value, ((), key))
    except _Invalid as error:
        raise GameFileError(error.message, path=where,
                            element=describe_path(error.parts)) from None


def validate(document: Any, name: str, where: str) -> None:
    """Check ``document`` against schema ``name``; raises :class:`GameFileError`."""
    try:
        _compiled(f"{name}.schema.json", ())(document, ())
    except _Invalid as error:
        raise GameFileError(error.message, path=where,
                            element=describe_path(error.parts)) from None


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
