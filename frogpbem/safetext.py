"""Text from a file, made safe to print: one line, no control characters.

Names, emails, move texts and notes come from files that others wrote. Shown
raw, a newline in a note could pass for a line of the view, and an escape
sequence could rewrite the terminal. :func:`safe` escapes them.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if char in named:
        return named[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def safe(text: str) -> str:
    """``text`` on one line: control, line-separator and bidi characters escaped (``\\n``)."""
    return _UNSAFE.sub(_escape, text)


def is_safe(text: str) -> bool:
    """Whether :func:`safe` leaves ``text`` as it is (no character it would escape)."""
    return _UNSAFE.search(text) is None


def counted(count: int, noun: str) -> str:
    """``1 record``, ``2 records``: a count and its noun, plural by an ``s``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def quoted(text: str, limit: int = 60) -> str:
    """``text`` quoted as ``repr`` does, cut after ``limit`` characters (``'shoot AAA…'``):
    an error names what it got without echoing a megabyte back."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}…"
