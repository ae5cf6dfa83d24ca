"""The one type of a JSON value, for the file boundary of every layer.

Parsed files, views written out and options read in are JSON; inside, the
code works with typed values and converts at this boundary only.
"""

from __future__ import annotations

from typing import TypeAlias

JSON: TypeAlias = "dict[str, JSON] | list[JSON] | str | int | float | bool | None"
"""A JSON value: an object with string keys, an array, a string, a number, a boolean or null."""


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
