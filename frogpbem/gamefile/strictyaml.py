"""A strict subset of YAML: mappings, sequences, strings, integers, booleans, null.

Anchors, aliases, tags, merge keys, duplicate keys and non-string keys are
refused. Plain scalars are integers only when written as decimal integers
(``010`` stays a string), booleans only as ``true``/``false``, null only as
``null``, ``~`` or nothing; everything else is a string (``NO`` stays ``NO``).

A small text exactly as :func:`dumps` writes it (nearly every part a command
reads: the records and requests that follow a history it kept) is read
line by line, without PyYAML (see :func:`_as_written`), unless the caller
reads in bulk (see :func:`loads`); PyYAML's parser reads every other text (see
:mod:`frogpbem.gamefile.yamlevents`), and is imported only then.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from frogpbem.errors import GameFileError
from frogpbem.gamefile.yamlscalars import MAX_DEPTH, int_or_text

MAX_BYTES = 4 * 1024 * 1024
"""Files larger than this are refused before parsing."""

QUICK_BYTES = 64 * 1024
"""Texts up to this size may be read by :func:`_as_written` (such a text holds far fewer
than :data:`~frogpbem.gamefile.yamlscalars.MAX_EVENTS` values). A larger one goes to
PyYAML, whose C parser reads faster than reading line by line in Python."""


def loads(data: bytes, name: str = "<input>", bulk: bool = False) -> Any:
    """Parse strict YAML; raises :class:`GameFileError` naming ``name`` and the line.

    A small text as the writer writes it is read line by line (:func:`_as_written`),
    unless ``bulk``: a caller that reads many files (an audit of several games, the
    judge) has PyYAML read them all, for which importing it costs less than reading
    line by line. Any other text is built from PyYAML's parser events as they come, so
    a long file never has all its events in memory at once. Either way the value is
    the same.
    """
    if len(data) > MAX_BYTES:
        raise GameFileError(f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB", path=name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameFileError("not UTF-8 text", path=name) from None
    if len(data) <= QUICK_BYTES and not bulk:
        try:
            return _as_written(text)
        except (_Unlike, IndexError):
            pass  # not as frogpbem writes it: PyYAML reads it, and says what is wrong
    from frogpbem.gamefile import yamlevents  # only here: reading a few small files needs none

    return yamlevents.loads(text, name)


# --- reading a text as the writer writes it -------------------------------------------------


class _Unlike(Exception):
    """The text is not written as :func:`dumps` writes its value."""


def _as_written(text: str) -> Any:
    """The value of ``text`` when ``text`` is exactly what the writer writes for that value;
    raises :class:`_Unlike` (or ``IndexError``) otherwise.

    The lines are read as the writer makes them, then the value read is written again
    and must give ``text`` byte for byte. So this never reads a text otherwise than
    PyYAML does: it reads only what the writer writes, and PyYAML reads that back as
    the value written (a property test checks both). The nesting is held within
    :data:`MAX_DEPTH`, as the events reader holds it.
    """
    lines = text.split("\n")
    if lines.pop() != "" or not lines:
        raise _Unlike
    reader = _Lines(lines)
    value = reader.block("", 0)
    if reader.at != len(lines) or _written(value) != text:
        raise _Unlike
    return value


_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_ESCAPE = re.compile(r'\\(x20|u[0-9a-f]{4}|U[0-9a-f]{8}|["\\bfnrt])|["\\]')
_ESCAPED = {'"': '"', "\\": "\\", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "x20": " "}


def _unquoted(body: str) -> str:
    """The string a double-quoted scalar's ``body`` (within the quotes) stands for, with
    the escapes the writer writes; any other escape, or a bare quote, is :class:`_Unlike`."""
    if "\\" not in body and '"' not in body:
        return body
    return _ESCAPE.sub(_escaped, body)


def _escaped(found: re.Match[str]) -> str:
    escape = found.group(1)
    if escape is None:
        raise _Unlike  # a bare quote or backslash
    if escape[0] in "uU":
        code = int(escape[1:], 16)
        if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            raise _Unlike
        return chr(code)
    return _ESCAPED[escape]


class _Lines:
    """The lines of a text read as the writer makes them; ``at``: the next line."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.at = 0

    def block(self, indent: str, depth: int) -> Any:
        """The mapping or sequence whose lines begin at the next line, at ``indent``."""
        if self.lines[self.at].startswith(indent + "-"):
            return self.sequence(indent, depth)
        return self.mapping(indent, depth)

    def sequence(self, indent: str, depth: int) -> list[Any]:
        if depth >= MAX_DEPTH:
            raise _Unlike
        lines, dash, pad = self.lines, indent + "-", indent + "  "
        items: list[Any] = []
        while self.at < len(lines) and lines[self.at].startswith(dash):
            rest = lines[self.at][len(dash):]
            if not rest:  # a sequence in a sequence, on the lines below
                self.at += 1
                items.append(self.block(pad, depth + 1))
            elif rest[0] != " ":
                raise _Unlike
            elif _is_member(rest[1:]):  # a mapping, its first member on the item's line
                lines[self.at] = pad + rest[1:]
                items.append(self.mapping(pad, depth + 1))
            else:
                items.append(self.value(rest[1:], pad))
        return items

    def mapping(self, indent: str, depth: int) -> dict[str, Any]:
        if depth >= MAX_DEPTH:
            raise _Unlike
        lines, start = self.lines, len(indent)
        mapping: dict[str, Any] = {}
        while self.at < len(lines):
            line = lines[self.at]
            if not line.startswith(indent) or line.startswith((" ", "-"), start):
                break
            key, rest = _key_and_rest(line, start)
            if key in mapping:
                raise _Unlike
            if rest is not None:
                mapping[key] = self.value(rest, indent + "  ")
                continue
            self.at += 1  # a mapping or sequence on the lines below
            if lines[self.at].startswith(indent + "-"):  # a sequence stays at the key's indent
                mapping[key] = self.sequence(indent, depth + 1)
            else:
                mapping[key] = self.mapping(indent + "  ", depth + 1)
        if not mapping:
            raise _Unlike  # an empty one is written {}
        return mapping

    def value(self, text: str, pad: str) -> Any:
        """The value written ``text`` after its key or dash (and on the lines below, at
        ``pad``, for a folded string or a ``|`` block)."""
        self.at += 1
        if text.startswith('"'):
            if _QUOTED.fullmatch(text):
                return _unquoted(text[1:-1])
            return self.folded(text[1:], pad)
        if text == "|":
            return self.literal(pad)
        if text == "{}":
            return {}
        if text == "[]":
            return []
        return int_or_text(text)

    def folded(self, first: str, pad: str) -> str:
        """A double-quoted string over several lines, each but the last ending in an
        escaped line break (YAML drops it and the next line's indentation)."""
        parts, line = [], first
        while True:
            ending = len(line) - len(line.rstrip("\\"))
            if ending % 2 == 1:  # an escaped line break
                parts.append(line[:-1])
                line = self.lines[self.at]
                if not line.startswith(pad) or line.startswith((" ", "\t"), len(pad)):
                    raise _Unlike
                line = line[len(pad):]
                self.at += 1
                continue
            if not line.endswith('"') or (len(line) - 1 - len(line[:-1].rstrip("\\"))) % 2:
                raise _Unlike
            parts.append(line[:-1])
            return _unquoted("".join(parts))

    def literal(self, pad: str) -> str:
        """A ``|`` block: its lines at ``pad`` (an empty line is empty), then a line break."""
        lines, body = self.lines, []
        while self.at < len(lines) and (not lines[self.at] or lines[self.at].startswith(pad)):
            body.append(lines[self.at][len(pad):])
            self.at += 1
        return "\n".join(body) + "\n"


def _key_and_rest(line: str, start: int) -> tuple[str, str | None]:
    """A mapping's member written on ``line`` from ``start``: its key, and the text of its
    value (``None``: the value is on the lines below)."""
    if line.startswith('"', start):
        found = _QUOTED.match(line, start)
        if found is None:
            raise _Unlike
        key, after = _unquoted(found.group()[1:-1]), line[found.end():]
    else:
        cut = line.find(": ", start)
        if cut < 0:
            if not line.endswith(":"):
                raise _Unlike
            cut = len(line) - 1
        key, after = line[start:cut], line[cut:]
    if after == ":":
        return key, None
    if after.startswith(": "):
        return key, after[2:]
    raise _Unlike


def _is_member(text: str) -> bool:
    """Whether a sequence item written ``- text`` is a mapping (``text`` its first member)."""
    if text.startswith('"'):
        found = _QUOTED.match(text)
        return found is not None and text.startswith(":", found.end())
    return ": " in text or text.endswith(":")


# --- writing --------------------------------------------------------------------------------


_SAFE_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 _./:@+=,()'-]*")
# Words that YAML 1.1 readers take for booleans or null: always quoted when written.
_YAML11_WORDS = frozenset({"y", "yes", "n", "no", "true", "false", "on", "off", "null"})


def _scalar(value: Any) -> str:
    if type(value) is str:
        return _string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} to strict YAML")


@functools.lru_cache(maxsize=4096)
def _string(value: str) -> str:
    if (
        _SAFE_PLAIN.fullmatch(value)
        and value.lower() not in _YAML11_WORDS
        and not value.endswith((" ", ":"))
        and ": " not in value
        and " #" not in value
    ):
        return value
    return _string_quoted(value)


def written_plain(value: str) -> bool:
    """Whether ``value`` is written as it is, unquoted (then it holds only ASCII letters,
    digits, spaces and ``_./:@+=,()'-``)."""
    return _string(value) == value


def _string_quoted(value: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar with the same meaning;
    # characters YAML will not carry raw (DEL, NEL, line separators, BOM...) are escaped.
    quoted = json.dumps(value, ensure_ascii=False)
    if quoted.isprintable():
        return quoted
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in quoted)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _block(value: str, pad: str) -> bool:
    """Whether ``value`` can be a ``|`` literal block: read back the same, within WIDTH."""
    if not value.endswith("\n") or value.endswith("\n\n") or value.startswith((" ", "\n")):
        return False
    return all(line == line.rstrip() and line.isprintable() and len(pad) + len(line) <= WIDTH
               for line in value[:-1].split("\n"))


def _emit(value: Any, indent: str, out: list[str]) -> None:
    """Append the block-style lines of a mapping or sequence (non-empty)."""
    if isinstance(value, dict):
        for key, item in value.items():
            _member(key, item, indent, out)
    else:
        for item in value:
            _item(f"{indent}-", item, indent, out)


def _member(key: str, item: Any, indent: str, out: list[str]) -> None:
    """Append the lines of one member of a mapping written at ``indent``."""
    if type(item) is int:  # the commonest value (a board's numbers): one line, at once
        out.append(f"{indent}{_scalar(key)}: {item}")
    else:
        _item(f"{indent}{_scalar(key)}:", item, indent, out)


def _item(lead: str, item: Any, indent: str, out: list[str]) -> None:
    if isinstance(item, dict) and item and lead.endswith("-"):
        start = len(out)
        _emit(item, indent + "  ", out)
        out[start] = f"{lead} {out[start].lstrip()}"
    elif isinstance(item, dict | list) and item:
        out.append(lead)
        # sequences in mappings stay at the key's indentation, as PyYAML writes them
        inner = indent if isinstance(item, list) and lead.endswith(":") else indent + "  "
        _emit(item, inner, out)
    elif isinstance(item, dict):
        out.append(f"{lead} {{}}")
    elif isinstance(item, list):
        out.append(f"{lead} []")
    elif isinstance(item, str) and "\n" in item and _block(item, indent + "  "):
        out.append(f"{lead} |")
        pad = indent + "  "
        out.extend(pad + line if line else "" for line in item[:-1].split("\n"))
    else:
        text = _scalar(item)
        if len(lead) + 1 + len(text) > WIDTH and isinstance(item, str):
            out.extend(_folded(lead, item, indent + "  "))
        else:
            out.append(f"{lead} {text}")


WIDTH = 76
"""No written line is longer: a file pasted into a mail body survives."""
_TOKEN = re.compile(r'\\(?:u[0-9a-f]{4}|U[0-9a-f]{8}|.)|[^\\]')


def _folded(lead: str, value: str, pad: str) -> list[str]:
    """A long string as a double-quoted scalar over several lines, joined by escaped breaks.

    YAML drops an escaped line break and the indentation after it, so the
    value reads back exactly. A space next to a break is written ``\\x20``
    (mail programs strip trailing spaces, and YAML drops leading ones); no
    escape sequence is split.
    """
    body = _string_quoted(value)[1:-1]
    first = f'{lead} "'
    if "\\" not in body and " " not in body:  # signatures, keys, hashes: cut in plain runs
        size, rest = WIDTH - 4 - len(first), WIDTH - 4 - len(pad)
        if size > 0:
            cuts = [body[:size], *(body[i:i + rest] for i in range(size, len(body), rest))]
            lines = [first + cuts[0], *(pad + cut for cut in cuts[1:])]
            return [line + "\\" for line in lines[:-1]] + [lines[-1] + '"']
    tokens = _TOKEN.findall(body)
    lines, current = [], first
    for token in tokens:
        if current != pad and len(current) + len(token) + 4 > WIDTH:  # room for \x20 and \\
            if current.endswith(" "):
                current = current[:-1] + "\\x20"
            lines.append(current + "\\")
            current = pad
        current += "\\x20" if current == pad and token == " " else token
    lines.append(current + '"')
    return lines


def item(lead: str, value: Any, indent: str = "") -> list[str]:
    """The lines of one entry of a document: ``lead`` (``key:`` or ``-``) and its value."""
    out: list[str] = []
    _item(lead, value, indent, out)
    return out


def member(key: str, value: Any, indent: str) -> list[str]:
    """The lines of one member of a mapping that is written at ``indent``."""
    out: list[str] = []
    _member(key, value, indent, out)
    return out


def entry(key: str, value: Any) -> list[str]:
    """The lines of one key of a top-level mapping and its value."""
    return item(f"{_scalar(key)}:", value)


def dumps(value: Any) -> str:
    """Strict YAML text for a mapping (keys in the order given)."""
    if not isinstance(value, dict) or not value:
        raise TypeError("strict YAML documents are non-empty mappings")
    return _written(value)


def _written(value: Any) -> str:
    """A non-empty mapping or sequence written as a document."""
    out: list[str] = []
    _emit(value, "", out)
    return "\n".join(out) + "\n"
