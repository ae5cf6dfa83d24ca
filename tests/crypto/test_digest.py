"""Canonical JSON agrees with the reference RFC 8785 implementation; domain separation."""

from __future__ import annotations

from typing import Any

import pytest
import rfc8785
from hypothesis import example, given, settings
from hypothesis import strategies as st

from frogpbem import crypto
from frogpbem.errors import GameFileError

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.text(st.characters(blacklist_categories=("Cs",))),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=25,
)


@given(json_values)
def test_canonical_json_is_rfc8785(value: Any) -> None:
    assert crypto.canonical_json(value) == rfc8785.dumps(value)


any_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(st.characters(blacklist_categories=())),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(st.characters(blacklist_categories=())), inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=300)
@given(any_values | st.tuples(json_values))
@example(0.0)  # floats: the standard encoder writes 0.0, 1e+21 and 1e-07, RFC 8785 not
@example({"a": [1.0, 1e21, 1e-7]})
@example({"\ue000": 1, "\U0001f600": 2})  # keys sorted by UTF-16 units: the emoji first
@example({"a": "\ud800"})  # a lone surrogate: no UTF-8 for it
@example([2**53])
def test_any_value_is_written_as_rfc8785_writes_it_or_refused(value: Any) -> None:
    """Floats, integers past 2**53, lone surrogates, keys beyond ASCII, tuples: whatever
    the quick check lets through to the standard encoder is written as RFC 8785 writes it."""
    try:
        expected = rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, TypeError, ValueError):
        with pytest.raises(GameFileError, match="cannot be canonicalised"):
            crypto.canonical_json(value)
        return
    assert crypto.canonical_json(value) == expected


def test_a_value_too_deep_to_look_through_is_not_taken_for_simple() -> None:
    from frogpbem.crypto import digest

    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    assert not digest._simple(deep)
    assert digest._simple([[[["a", 1, None, True, {"k": "\u00e9"}]]]])


def test_unsafe_integer_refused() -> None:
    with pytest.raises(GameFileError, match="cannot be canonicalised"):
        crypto.canonical_json({"n": 2**60})


def test_signed_bytes_separate_kinds() -> None:
    element = {"game": "ff-x", "signature": "ignored"}
    assert crypto.signed_bytes("record", element) == b'frogpbem/1 record\n{"game":"ff-x"}'
    assert crypto.signed_bytes("record", element) != crypto.signed_bytes("request", element)
    with pytest.raises(ValueError, match="unknown kind"):
        crypto.signed_bytes("nonsense", element)


def test_commitment_depends_on_every_part() -> None:
    base = crypto.commitment("ff-a", "red", "00" * 32, {"frogs": ["A1"]})
    assert base.startswith("sha256:")
    assert base != crypto.commitment("ff-b", "red", "00" * 32, {"frogs": ["A1"]})
    assert base != crypto.commitment("ff-a", "blue", "00" * 32, {"frogs": ["A1"]})
    assert base != crypto.commitment("ff-a", "red", "01" * 32, {"frogs": ["A1"]})
    assert base != crypto.commitment("ff-a", "red", "00" * 32, {"frogs": ["A2"]})


@given(st.dictionaries(st.text(st.characters(max_codepoint=127), max_size=6), json_values,
                       max_size=6),
       st.dictionaries(st.text(st.characters(max_codepoint=127), max_size=6), json_values,
                       max_size=3))
def test_signed_bytes_of_parts_are_the_signed_bytes_of_the_whole(
        element: dict[str, Any], parts: dict[str, Any]) -> None:
    """Members given as canonical JSON already sign as the whole element does (a view's
    list of records is made once per record)."""
    element = {k: v for k, v in element.items() if k not in parts}
    encoded = {name: crypto.canonical_json(value) for name, value in parts.items()}
    assert crypto.signed_bytes_of_parts("view", element, encoded) == \
        crypto.signed_bytes("view", {**element, **parts})
