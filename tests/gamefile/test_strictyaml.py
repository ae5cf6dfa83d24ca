"""Strict YAML: round trips, what other readers see, and what is refused."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from frogpbem.errors import GameFileError
from frogpbem.gamefile.strictyaml import MAX_BYTES, dumps, loads

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
