"""What both readers of the strict YAML subset share: the values of plain scalars, and the
limits on nesting and size (:mod:`frogpbem.gamefile.strictyaml` reads a text as the writer
writes it, :mod:`frogpbem.gamefile.yamlevents` any other through PyYAML's parser)."""

from __future__ import annotations

import re
from typing import Any

_INT = re.compile(r"[-+]?(0|[1-9][0-9]{0,17})")
"""Integers of at most 18 digits; a longer run of digits stays a string (and fails the schema)."""
_INT_START = frozenset("-+0123456789")
"""How an integer can begin."""
PLAIN = {"true": True, "false": False, "null": None, "~": None, "": None}
"""The plain scalars that are not strings."""
MAX_DEPTH = 32
MAX_EVENTS = 100_000
"""Parser events (about two per value) in one file: far above any real game, far below a bomb."""


def int_or_text(value: str) -> Any:
    """A plain scalar's value (written without quotes)."""
    if value in PLAIN:
        return PLAIN[value]
    if value[0] not in _INT_START:  # most scalars: no number (the pattern is slower)
        return value
    return int(value) if _INT.fullmatch(value) else value
