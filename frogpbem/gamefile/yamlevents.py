"""Reading any YAML text through PyYAML's parser events, refusing everything outside the
strict subset of :mod:`frogpbem.gamefile.strictyaml` (which imports this module only for a
text its own reader does not read: PyYAML is slow to import)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import yaml

from frogpbem.errors import GameFileError
from frogpbem.gamefile.yamlscalars import MAX_DEPTH, MAX_EVENTS, int_or_text

_Loader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def loads(text: str, name: str) -> Any:
    """The value of the strict YAML ``text``; raises :class:`GameFileError` naming ``name``
    and the line."""
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
            return int_or_text(value)
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
                if type(item) is _Scalar and item.anchor is None and item.tag is None:
                    text: str = item.value  # as in a mapping below
                    items.append(int_or_text(text) if item.implicit[0] else text)
                else:
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
                event = pull()
                if type(event) is _Scalar and event.anchor is None and event.tag is None:
                    # most values: read here, as :meth:`node` reads them, without a call
                    text = event.value
                    mapping[key] = int_or_text(text) if event.implicit[0] else text
                else:
                    mapping[key] = self.node(event, depth + 1)
            return mapping
        raise self.fail(event, "unexpected YAML structure")
