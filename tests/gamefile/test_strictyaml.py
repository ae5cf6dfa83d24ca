"""Strict YAML: round trips, what other readers see, what is refused, and the reader that
reads what frogpbem writes without PyYAML."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.errors import GameFileError
from frogpbem.gamefile import strictyaml, yamlevents
from frogpbem.gamefile.document import parse_game, read_game
from frogpbem.gamefile.strictyaml import MAX_BYTES, dumps, item, loads

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**53), 2**53),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
    st.sampled_from(["NO", "yes", "010", "0x1F", "1.5", "~", "null", "-", "a: b", "x #y",
                     "line\n", "a\n\nb\n", " lead", "trail ", "2026-11-30T10:00:00Z", "@x"]),
)
documents = st.dictionaries(
    st.text(min_size=1, max_size=8),
    st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                 | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20),
    min_size=1, max_size=6,
)


@given(documents)
def test_round_trip(doc: dict[str, Any]) -> None:
    text = dumps(doc)
    assert loads(text.encode()) == doc


@given(documents)
def test_pyyaml_reads_what_we_write_the_same(doc: dict[str, Any]) -> None:
    """A player without frogpbem, reading a view with any YAML library, sees the same data."""
    assert yaml.safe_load(dumps(doc)) == doc


long_documents = st.dictionaries(
    st.text(min_size=1, max_size=8),
    st.recursive(st.text(st.characters(blacklist_categories=("Cs",)), max_size=400)
                 | st.sampled_from(["A" * 300, "ssh-ed25519 " + "B" * 68 + " a@b", " x" * 90,
                                    "line one\n" + "w" * 120 + "\n"]),
                 lambda inner: st.lists(inner, max_size=3)
                 | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8),
    min_size=1, max_size=4,
)


@given(long_documents)
def test_long_strings_are_folded_to_76_columns_and_read_back_the_same(
        doc: dict[str, Any]) -> None:
    """A file pasted into a mail body survives: no line over 76 columns (keys and depth
    within what frogpbem writes), and every reader gets the same values back."""
    text = dumps(doc)
    assert loads(text.encode()) == doc
    assert yaml.safe_load(text) == doc
    assert max(len(line) for line in text.splitlines()) <= 76


@pytest.mark.parametrize(("text", "value"), [
    ("a: NO", "NO"), ("a: 010", "010"), ("a: 0x10", "0x10"), ("a: 1.5", "1.5"),
    ("a: yes", "yes"), ("a: 12", 12), ("a: -3", -3), ("a: true", True), ("a: null", None),
    ("a: ~", None), ("a:", None), ('a: "12"', "12"), ("a: '1'", "1"),
])
def test_implicit_typing_is_minimal(text: str, value: Any) -> None:
    assert loads(text.encode()) == {"a": value}


@pytest.mark.parametrize(("text", "message"), [
    ("a: &x 1\nb: *x\n", "anchor"),
    ("a: !!str 1\n", "tag"),
    ("a: !custom 1\n", "tag"),
    ("a: 1\na: 2\n", "duplicate key 'a'"),
    ("b: {a: 1, a: 2}\n", "duplicate key 'a'"),
    ("<<: {a: 1}\n", "merge key"),
    ("{1: 2}\n", "non-string key"),
    ("a: [1\n", "not valid YAML"),
    ("a: 1\n---\nb: 2\n", "exactly one YAML document"),
    (("a:\n" + "".join(" " * i + "- \n" for i in range(0, 80, 2))), "nesting too deep"),
])
def test_refusals(text: str, message: str) -> None:
    with pytest.raises(GameFileError, match=message):
        loads(text.encode(), "x.yaml")


def test_size_limit_before_parsing() -> None:
    with pytest.raises(GameFileError, match="larger than 4 MiB"):
        loads(b"a: 1\n" + b" " * MAX_BYTES, "big.yaml")


def test_not_utf8() -> None:
    with pytest.raises(GameFileError, match="not UTF-8"):
        loads(b"a: \xff\n")


# --- the reader of what the writer writes ---------------------------------------------------


def read_at_once(text: str) -> Any:
    """What the reader without PyYAML gives for ``text``; ``None`` when it leaves the text to
    PyYAML (no document is ``None``)."""
    try:
        return strictyaml._as_written(text)
    except (strictyaml._Unlike, IndexError):
        return None


values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)


@given(documents | long_documents)
def test_what_the_writer_writes_is_read_at_once_as_pyyaml_reads_it(doc: dict[str, Any]) -> None:
    text = dumps(doc)
    assert read_at_once(text) == doc
    assert yamlevents.loads(text, "x.yaml") == doc


@given(st.lists(values, min_size=1, max_size=5))
def test_a_list_written_as_a_document_too(items: list[Any]) -> None:
    """The records that follow a kept history are such a list."""
    text = "\n".join(line for value in items for line in item("-", value)) + "\n"
    assert read_at_once(text) == items
    assert yamlevents.loads(text, "x.yaml") == items


EDITS = st.sampled_from([" ", "  ", "-", "- ", ":", ": ", '"', "\\", "\\\n", "\n", "\n  ", "#",
                         "|", "'", "&", "!", "*", "{", "}", "[", "]", ",", "~", "a", "B", "1",
                         "\t", "\r", "\u0085", "\\x20", "\\u00e9", "null", "yes"])


@settings(max_examples=400)
@given(documents | long_documents, st.data())
def test_a_changed_text_is_read_as_pyyaml_reads_it_or_left_to_pyyaml(
        doc: dict[str, Any], data: st.DataObject) -> None:
    """Mail or a person changed a written text: it is read exactly as PyYAML reads it (and
    refuses it), or not read at once at all."""
    text = dumps(doc)
    at = data.draw(st.integers(0, len(text)))
    changed = text[:at] + data.draw(EDITS) + text[at + data.draw(st.integers(0, 3)):]
    fast = read_at_once(changed)
    if fast is not None:
        assert fast == yamlevents.loads(changed, "x.yaml")


@pytest.mark.parametrize("text", [
    "a: ~\n", "a: 'x'\n", "a:  1\n", "a: 1 # note\n", "a: 1\n\n", "a: 1", "a: 1\r\n",
    "a: {b: 1}\n", "a: [1]\n", "a:\n  - 1\n", "- - 1\n", "a: 010\n", "a: True\n",
    'a: "x\\\n   y"\n', 'a: "\\ud800"\n', "a: |\n  x\n\n", "a: 1\na: 2\n", "&x a: 1\n",
    "---\na: 1\n", "a:\n", "{}\n", "a: b: c\n",
])
def test_what_the_writer_would_not_write_is_left_to_pyyaml(text: str) -> None:
    assert read_at_once(text) is None


@pytest.mark.parametrize(("text", "value"), [
    ("a: 1\nb:\n  c: x y\nd:\n- 2\n- e: []\n  f: {}\n", {
        "a": 1, "b": {"c": "x y"}, "d": [2, {"e": [], "f": {}}]}),
    ('a: "x\\"y\\u0085"\nb: |\n  one\n\n  two\n', {"a": 'x"y\u0085', "b": "one\n\ntwo\n"}),
    ("-\n  - 1\n- null\n- true\n", [[1], None, True]),
])
def test_forms_the_writer_writes_are_read_at_once(text: str, value: Any) -> None:
    assert read_at_once(text) == value == yamlevents.loads(text, "x.yaml")


def test_every_file_of_a_finished_game_is_read_at_once_as_pyyaml_reads_it(
        finished_game: Path) -> None:
    files = [finished_game, *finished_game.parent.glob("*.view.yaml")]
    assert len(files) > 1
    for path in files:
        text = path.read_text()
        assert read_at_once(text) == yamlevents.loads(text, str(path)), path


def pyyaml_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the texts that PyYAML's reader reads from now on, in order."""
    read: list[str] = []
    real = yamlevents.loads

    def recording(text: str, name: str) -> Any:
        read.append(name)
        return real(text, name)

    monkeypatch.setattr(yamlevents, "loads", recording)
    return read


def test_a_small_text_is_read_line_by_line_unless_in_bulk_and_a_large_one_by_pyyaml(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past QUICK_BYTES PyYAML's C parser reads faster than the reader at once: it reads
    that text either way, and every text of a caller that reads many files (``bulk``).
    The value is the same each way."""
    read = pyyaml_reads(monkeypatch)
    small_value = {"a": ["x" * 70] * 10}
    large_value = {"a": ["x" * 70] * (strictyaml.QUICK_BYTES // 70)}
    small, large = dumps(small_value).encode(), dumps(large_value).encode()
    assert len(small) <= strictyaml.QUICK_BYTES < len(large)
    assert loads(small, "small") == small_value
    assert read == []
    assert loads(small, "small in bulk", bulk=True) == small_value
    assert read == ["small in bulk"]
    assert loads(large, "large") == large_value
    assert loads(large, "large in bulk", bulk=True) == large_value
    assert read == ["small in bulk", "large", "large in bulk"]
    assert loads(small, "small again") == small_value  # no state left behind
    assert read == ["small in bulk", "large", "large in bulk"]


def test_a_game_file_is_read_by_pyyaml_in_bulk_only(
        monkeypatch: pytest.MonkeyPatch, finished_game: Path) -> None:
    """parse_game (and read_game) hand ``bulk`` to the reader: the same file, the same
    value, read line by line alone and by PyYAML in bulk."""
    read = pyyaml_reads(monkeypatch)
    data = finished_game.read_bytes()
    alone = parse_game(data, "alone")
    assert read == []
    assert parse_game(data, "in bulk", bulk=True).to_json() == alone.to_json()
    assert read_game(finished_game, bulk=True).to_json() == alone.to_json()
    assert read == ["in bulk", str(finished_game)]
