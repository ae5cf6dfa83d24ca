"""``same_json``: equal as JSON text is, without writing the text."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from frogpbem.games import same_json

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["", "a", "1"]))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
                            st.dictionaries(st.sampled_from(["a", "b", "1"]), inner, max_size=3)),
    max_leaves=8)


def as_text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def nudged(value: Any, data: st.DataObject) -> Any:
    """``value``, the same but for one part at most (a list for a tuple, True for 1...)."""
    if not data.draw(st.booleans()):
        return value
    if isinstance(value, list | tuple) and value:
        at = data.draw(st.integers(0, len(value) - 1))
        items = list(value)
        items[at] = nudged(items[at], data)
        return tuple(items) if data.draw(st.booleans()) else items
    if isinstance(value, dict) and value:
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: nudged(value[key], data)}
    return data.draw(st.sampled_from([value, 1, True, 0, False, None, "1", [], {}]))


@given(values, st.data())
def test_same_json_is_equality_of_the_json_text(value: Any, data: st.DataObject) -> None:
    other = nudged(value, data)
    assert same_json(value, other) == (as_text(value) == as_text(other))
    assert same_json(other, value) == (as_text(value) == as_text(other))


def test_types_count_where_python_equality_ignores_them() -> None:
    assert not same_json({"miss": 1}, {"miss": True})
    assert not same_json([0], [False])
    assert same_json({"a": [1, "x"], "b": None}, {"b": None, "a": (1, "x")})
