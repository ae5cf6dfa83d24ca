"""The one type of a JSON value, for the file boundary of every layer.

Parsed files, views written out and options read in are JSON; inside, the
code works with typed values and converts at this boundary only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias, TypeVar

JSON: TypeAlias = "dict[str, JSON] | list[JSON] | str | int | float | bool | None"
"""A JSON value: an object with string keys, an array, a string, a number, a boolean or null."""

T = TypeVar("T")


def same_json(a: JSON, b: JSON) -> bool:
    """Equal as JSON, types included (in Python ``1 == True``; in a file they differ).

    A list and a tuple are the same JSON array; mapping keys are strings.
    """
    if isinstance(a, list | tuple):
        return isinstance(b, list | tuple) and len(a) == len(b) and all(map(same_json, a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and \
            all(same_json(value, b[key]) for key, value in a.items())
    return type(a) is type(b) and a == b


# Reading a JSON value of a known shape: each narrows the value to a type, or raises
# TypeError (as indexing or iterating a value of another shape did), so a reader of a
# file's JSON says its shape once and gets typed values.

def as_dict(value: JSON) -> dict[str, JSON]:
    """``value`` as a JSON object; raises :class:`TypeError` for another shape."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object, got {type(value).__name__}")
    return value


def as_list(value: JSON) -> list[JSON]:
    """``value`` as a JSON array; raises :class:`TypeError` for another shape."""
    if not isinstance(value, list):
        raise TypeError(f"expected a JSON array, got {type(value).__name__}")
    return value


def as_str(value: JSON) -> str:
    """``value`` as a string; raises :class:`TypeError` for another shape."""
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def as_int(value: JSON) -> int:
    """``value`` as an integer (a boolean is one, as in Python); raises :class:`TypeError`
    for another shape."""
    if not isinstance(value, int):
        raise TypeError(f"expected an integer, got {type(value).__name__}")
    return value


def as_float(value: JSON) -> float:
    """``value`` as a number; raises :class:`TypeError` for another shape."""
    if not isinstance(value, int | float):
        raise TypeError(f"expected a number, got {type(value).__name__}")
    return value


def as_bool(value: JSON) -> bool:
    """``value`` as a boolean; raises :class:`TypeError` for another shape."""
    if not isinstance(value, bool):
        raise TypeError(f"expected a boolean, got {type(value).__name__}")
    return value


def dict_of(read: Callable[[JSON], T], value: JSON) -> dict[str, T]:
    """``value`` as a JSON object whose every value ``read`` reads (:func:`as_int`...)."""
    return {key: read(item) for key, item in as_dict(value).items()}


def list_of(read: Callable[[JSON], T], value: JSON) -> list[T]:
    """``value`` as a JSON array whose every item ``read`` reads (:func:`as_str`...)."""
    return [read(item) for item in as_list(value)]


def or_none(read: Callable[[JSON], T], value: JSON) -> T | None:
    """``None`` for a JSON null, else ``value`` as ``read`` reads it."""
    return None if value is None else read(value)
