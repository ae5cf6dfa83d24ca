"""``@frozen`` behaves as ``@dataclass(frozen=True)``: each class here has a twin made by
``dataclass`` itself, and the two agree on equality, hashing, repr and immutability."""

from __future__ import annotations

import dataclasses
from dataclasses import FrozenInstanceError, dataclass, field, replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from frogpbem.frozen import frozen


@frozen
class Point:
    x: int
    y: int = 0
    note: str = field(default="", compare=False)
    secret: str = field(default="", repr=False)


@dataclass(frozen=True)
class PointTwin:
    x: int
    y: int = 0
    note: str = field(default="", compare=False)
    secret: str = field(default="", repr=False)


@frozen(slots=True)
class One:
    value: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class OneTwin:
    value: tuple[int, ...]


@frozen
class Empty:
    pass


@dataclass(frozen=True)
class EmptyTwin:
    pass


@frozen
class Named:
    text: str

    def __repr__(self) -> str:
        return f"Named.parse({self.text!r})"


@frozen
class Labelled(Point):
    label: str = "a"


@dataclass(frozen=True)
class LabelledTwin(PointTwin):
    label: str = "a"


PAIRS = [(Point, PointTwin), (One, OneTwin), (Empty, EmptyTwin), (Labelled, LabelledTwin)]
_SMALL = st.integers(-2, 2)
_TEXT = st.sampled_from(["", "a", "b"])


def _arguments(kind: type[Any]) -> st.SearchStrategy[dict[str, Any]]:
    if kind in (One, OneTwin):
        return st.fixed_dictionaries({"value": st.lists(_SMALL, max_size=2).map(tuple)})
    if kind in (Empty, EmptyTwin):
        return st.just({})
    members = {"x": _SMALL, "y": _SMALL, "note": _TEXT, "secret": _TEXT}
    if kind in (Labelled, LabelledTwin):
        members["label"] = _TEXT
    return st.fixed_dictionaries(members)


@given(st.data())
def test_equality_hashing_and_repr_are_dataclass_s(data: st.DataObject) -> None:
    ours, twin = data.draw(st.sampled_from(PAIRS))
    first, second = data.draw(_arguments(ours)), data.draw(_arguments(ours))
    a, b = ours(**first), ours(**second)
    a_twin, b_twin = twin(**first), twin(**second)
    assert (a == b) == (a_twin == b_twin)
    assert (a != b) == (a_twin != b_twin)
    if a == b:
        assert hash(a) == hash(b)
    assert repr(a) == repr(a_twin).replace(twin.__qualname__, ours.__qualname__)
    assert a != a_twin and a_twin != a  # another class is never equal, as with dataclass
    assert (a == (1,)) is False


def test_it_is_a_frozen_dataclass() -> None:
    point = Point(1, 2, "n", "s")
    assert dataclasses.is_dataclass(point)
    assert [f.name for f in dataclasses.fields(point)] == ["x", "y", "note", "secret"]
    assert replace(point, x=5) == Point(5, 2, secret="s")
    with pytest.raises(FrozenInstanceError):
        point.x = 3  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del point.y  # type: ignore[misc]
    assert repr(point) == "Point(x=1, y=2, note='n')"  # secret: repr=False
    assert {Point(1, 2, "a"), Point(1, 2, "b")} == {Point(1, 2)}  # note: compare=False
    assert not hasattr(One((1,)), "__dict__")  # slots
    assert repr(Named("G9")) == "Named.parse('G9')"  # the class's own repr is kept
    assert Named("a") == Named("a") and Named("a") != Named("b")
    assert Labelled(1) != Point(1) and Labelled(1) == Labelled(1, label="a")
    assert Empty() == Empty() and hash(Empty()) == hash(Empty())


def test_a_class_with_its_own_equality_or_hash_is_refused() -> None:
    class Own:
        x: int

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 0

    class Hashed:
        x: int

        def __hash__(self) -> int:
            return 0

    for kind in (Own, Hashed):
        with pytest.raises(TypeError, match="its own equality or hash"):
            frozen(kind)
