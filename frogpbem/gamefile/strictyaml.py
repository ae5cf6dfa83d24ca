"""A strict subset of YAML: mappings, sequences, strings, integers, booleans, null.

Anchors, aliases, tags, merge keys, duplicate keys and non-string keys are
refused. Plain scalars are integers only when written as decimal integers
(``010`` stays a string), booleans only as ``true``/``false``, null only as
``null``, ``~`` or nothing; everything else is a string (``NO`` stays ``NO``).
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterator
from typing import Any

import yaml

from frogpbem.errors import GameFileError

MAX_BYTES = 4 * 1024 * 1024
"""Files larger than this are refused before parsing."""

_Loader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_INT = re.compile(r"[-+]?(0|[1-9][0-9]{0,17})")
"""Integers of at most 18 digits; a longer run of digits stays a string (and fails the schema)."""
_PLAIN = {"true": True, "false": False, "null": None, "~": None, "": None}
MAX_DEPTH = 32
MAX_EVENTS = 100_000
"""Parser events (about two per value) in one file: far above any real game, far below a bomb."""


def loads(data: bytes, name: str = "<input>") -> Any:
    """Parse strict YAML; raises :class:`GameFileError` naming ``name`` and the line.

    The value is built from the parser's events as they come: a long file
    never has all its events in memory at once.
    """
    if len(data) > MAX_BYTES:
        raise GameFileError(f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB", path=name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameFileError("not UTF-8 text", path=name) from None
    try:
        return _Builder(yaml.parse(text, Loader=_Loader), name).document()
    except StopIteration:  # the events were cut at MAX_EVENTS, before the stream's end
        raise GameFileError(f"more than {MAX_EVENTS} YAML values: not a game file",
                            path=name) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "syntax error"
        raise GameFileError(f"not valid YAML{where}: {problem}", path=name) from None


_Scalar, _Alias = yaml.ScalarEvent, yaml.AliasEvent
_SeqStart, _SeqEnd = yaml.SequenceStartEvent, yaml.SequenceEndEvent
_MapStart, _MapEnd = yaml.MappingStartEvent, yaml.MappingEndEvent


class _Builder:
    """Builds values from parser events, refusing everything outside the strict subset."""

    def __init__(self, events: Iterator[Any], name: str) -> None:
        self.pull = itertools.islice(events, MAX_EVENTS).__next__
        """The next event; ``StopIteration`` after MAX_EVENTS of them."""
        self.name = name

    def fail(self, event: Any, what: str) -> GameFileError:
        mark = getattr(event, "start_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        return GameFileError(f"{what}{where} (only plain YAML is accepted)", path=self.name)

    def document(self) -> Any:
        pull = self.pull
        one = GameFileError("expected exactly one YAML document", path=self.name)
        pull()  # the start of the stream
        if not isinstance(pull(), yaml.DocumentStartEvent):
            raise one
        value = self.node(pull(), 0)
        pull()  # the end of the document
        if not isinstance(pull(), yaml.StreamEndEvent):
            raise one
        return value

    def node(self, event: Any, depth: int) -> Any:
        """The value that begins with ``event``."""
        kind = type(event)
        if kind is _Scalar:
            if event.anchor is not None:
                raise self.fail(event, "YAML anchor refused")
            if event.tag is not None:
                raise self.fail(event, f"YAML tag {event.tag!r} refused")
            value: str = event.value
            if not event.implicit[0]:  # quoted or block: always a string
                return value
            if value in _PLAIN:
                return _PLAIN[value]
            return int(value) if _INT.fullmatch(value) else value
        if depth >= MAX_DEPTH:
            raise self.fail(event, "nesting too deep")
        if kind is _Alias:
            raise self.fail(event, "YAML alias refused")
        if getattr(event, "anchor", None) is not None:
            raise self.fail(event, "YAML anchor refused")
        if getattr(event, "tag", None) is not None:
            raise self.fail(event, f"YAML tag {event.tag!r} refused")
        if kind is _SeqStart:
            items = []
            pull = self.pull
            while type(item := pull()) is not _SeqEnd:
                items.append(self.node(item, depth + 1))
            return items
        if kind is _MapStart:
            mapping: dict[str, Any] = {}
            pull = self.pull
            while type(key_event := pull()) is not _MapEnd:
                key = self.node(key_event, depth + 1)
                if type(key) is not str:
                    raise self.fail(key_event, f"non-string key {key!r} refused")
                if key == "<<" and key_event.implicit[0]:
                    raise self.fail(key_event, "YAML merge key refused")
                if key in mapping:
                    raise self.fail(key_event, f"duplicate key {key!r} refused")
                mapping[key] = self.node(pull(), depth + 1)
            return mapping
        raise self.fail(event, "unexpected YAML structure")


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
    out: list[str] = []
    _emit(value, "", out)
    return "\n".join(out) + "\n"
