"""JSON read from a file or a message that anyone may have made or changed."""

from __future__ import annotations

import json
from typing import Any


def loads(data: bytes | str) -> Any:
    """``json.loads``, where JSON nested too deeply for its reader (``[[[[…`` past the
    recursion limit) raises :class:`ValueError`, as any other text that is not JSON does,
    not :class:`RecursionError`."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
