"""The one type of a JSON value, for the file boundary of every layer.

Parsed files, views written out and options read in are JSON; inside, the
code works with typed values and converts at this boundary only.
"""

from __future__ import annotations

from typing import TypeAlias

JSON: TypeAlias = "dict[str, JSON] | list[JSON] | str | int | float | bool | None"
"""A JSON value: an object with string keys, an array, a string, a number, a boolean or null."""
