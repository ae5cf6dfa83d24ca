"""``@frozen``: a frozen dataclass, made at less cost when a command starts.

``@frozen`` is ``@dataclass(frozen=True)``: the same fields, ``__init__``,
immutability, :func:`dataclasses.replace` and :func:`dataclasses.fields`, and
type checkers read it as one. Equality, hashing and ``repr`` behave exactly as
the ones ``dataclass`` writes (the same fields compared, hashed and shown), but
are three functions shared by every such class: Python 3.11 compiles six
methods for each frozen dataclass when its module is imported, and with some
fifty of them that was over half of the time frogpbem's own modules took to
import; it now compiles three. A ``__repr__`` that a class defines itself is
kept; a class that defines its own equality or hash is refused, and there is
no ``order=True``: make such a class a ``dataclass``.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


@overload
def frozen(cls: type[T], /) -> type[T]: ...


@overload
def frozen(*, slots: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(cls: type[T] | None = None, /, *, slots: bool = False) -> Any:
    """``@dataclass(frozen=True)`` (or ``frozen=True, slots=True``), see the module."""

    def wrap(cls: type[T]) -> type[T]:
        if "__eq__" in cls.__dict__ or "__hash__" in cls.__dict__:
            raise TypeError(f"@frozen class {cls.__name__} defines its own equality or hash: "
                            "make it a dataclass")
        made: Any = dataclasses.dataclass(frozen=True, eq=False, repr=False, slots=slots)(cls)
        fields = dataclasses.fields(made)
        made._frozen_compared = staticmethod(_key([f.name for f in fields if f.compare]))
        made._frozen_hashed = staticmethod(_key([f.name for f in fields
                                                 if (f.compare if f.hash is None else f.hash)]))
        made._frozen_shown = tuple(f.name for f in fields if f.repr)
        made.__eq__, made.__hash__ = _eq, _hash
        if "__repr__" not in cls.__dict__:
            made.__repr__ = _repr
        made_type: type[T] = made
        return made_type

    return wrap if cls is None else wrap(cls)


def _key(names: list[str]) -> Callable[[Any], Any]:
    """The named fields' values (a tuple of them for two or more), at C speed."""
    return operator.attrgetter(*names) if names else _nothing


def _nothing(_value: Any) -> tuple[()]:
    return ()


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        compared = self._frozen_compared
        return compared(self) == compared(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self._frozen_hashed(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._frozen_shown)
    return f"{self.__class__.__qualname__}({shown})"
