"""``@frozen``: a frozen dataclass, made at less cost when a command starts.

``@frozen`` is ``@dataclass(frozen=True)``: the same fields, ``__init__``,
immutability, :func:`dataclasses.replace`, :func:`dataclasses.fields`, copies
and pickles, and type checkers read it as one. ``dataclass`` compiles its
methods for each class when its module is imported, which is most of what
importing frogpbem's many value types costs a command. Here none is compiled
then:

- equality, hashing and ``repr`` behave exactly as the ones ``dataclass``
  writes (the same fields compared, hashed and shown), but are three
  functions shared by every such class;
- assigning or deleting an attribute raises :class:`dataclasses.FrozenInstanceError`
  from two shared functions (``dataclass`` lets a plain subclass set attributes
  that are not fields; ``@frozen`` does not);
- ``__init__`` is compiled when the class is first instantiated, and most
  classes are never instantiated by a given command.

A ``__repr__`` that a class defines itself is kept. A class that defines its
own equality or hash is refused, and there is no ``order=True``,
``kw_only`` or ``InitVar``: make such a class a ``dataclass``.

``@cached`` is :func:`functools.cached_property` without its lock: Python 3.11's
takes a lock at every first look at such a value, and an audit looks first at
a great many of them (a hash, signed bytes, a key). The values cached are made
from the frozen fields alone, so two threads making one at once make the same.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any, Generic, Self, TypeVar, dataclass_transform, overload

T = TypeVar("T")
R = TypeVar("R")

_MISSING = dataclasses.MISSING


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
        # dataclass() reads the fields and makes the slots; the methods are ours
        made: Any = dataclasses.dataclass(init=False, eq=False, repr=False, slots=slots)(cls)
        fields = dataclasses.fields(made)
        _check(made, fields)
        made._frozen_compared = staticmethod(_key([f.name for f in fields if f.compare]))
        made._frozen_hashed = staticmethod(_key([f.name for f in fields
                                                 if (f.compare if f.hash is None else f.hash)]))
        made._frozen_shown = tuple(f.name for f in fields if f.repr)
        made.__eq__, made.__hash__ = _eq, _hash
        made.__setattr__, made.__delattr__ = _setattr, _delattr
        made.__init__ = _first_init(made)
        if "__repr__" not in cls.__dict__:
            made.__repr__ = _repr
        if slots:  # a copy or pickle of a slotted instance is filled without __setattr__
            made.__getstate__, made.__setstate__ = _getstate, _setstate
        made_type: type[T] = made
        return made_type

    return wrap if cls is None else wrap(cls)


def _check(cls: Any, fields: tuple[dataclasses.Field[Any], ...]) -> None:
    """Refuse what ``dataclass`` would refuse, or do, that ``@frozen``'s ``__init__`` does not."""
    named = {f.name for f in fields}
    for pseudo in cls.__dataclass_fields__.values():  # ClassVar, or InitVar
        if pseudo.name not in named and "ClassVar" not in str(pseudo.type):
            raise TypeError(f"@frozen class {cls.__name__}: InitVar {pseudo.name!r} is not "
                            "supported: make it a dataclass")
    defaulted = False
    for f in fields:
        if f.kw_only:
            raise TypeError(f"@frozen class {cls.__name__}: kw_only field {f.name!r} is not "
                            "supported: make it a dataclass")
        if not f.init:
            continue
        if f.default is not _MISSING or f.default_factory is not _MISSING:
            defaulted = True
        elif defaulted:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _first_init(cls: Any) -> Callable[..., None]:
    """An ``__init__`` that compiles the real one, puts it in its place, and calls it."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        made = _compiled_init(cls)
        cls.__init__ = made
        made(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


_FACTORY = object()
"""The default of a parameter whose field has a ``default_factory``."""


def _compiled_init(cls: Any) -> Callable[..., None]:
    """``cls``'s ``__init__``, as ``dataclass(frozen=True)`` writes it."""
    names: dict[str, Any] = {"__frozen_set__": object.__setattr__, "__frozen_factory__": _FACTORY}
    parameters, body = ["__frozen_self__"], []
    for number, f in enumerate(dataclasses.fields(cls)):
        default, factory = f"__frozen_default_{number}__", f"__frozen_factory_{number}__"
        names[default], names[factory] = f.default, f.default_factory
        if not f.init:
            if f.default is not _MISSING:
                value = default
            elif f.default_factory is not _MISSING:
                value = f"{factory}()"
            else:
                continue  # as with dataclass: the field is left unset
        elif f.default is not _MISSING:
            parameters.append(f"{f.name}={default}")
            value = f.name
        elif f.default_factory is not _MISSING:
            parameters.append(f"{f.name}=__frozen_factory__")
            value = f"{factory}() if {f.name} is __frozen_factory__ else {f.name}"
        else:
            parameters.append(f.name)
            value = f.name
        body.append(f"  __frozen_set__(__frozen_self__, {f.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        body.append("  __frozen_self__.__post_init__()")
    source = f"def __init__({', '.join(parameters)}):\n" + ("\n".join(body) or "  pass") + "\n"
    exec(source, names)  # noqa: S102 - the source is made above from the field names only
    made: Callable[..., None] = names["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    return made


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


def _setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state, strict=True):
        object.__setattr__(self, f.name, value)


class cached(Generic[T, R]):
    """A value made from the instance at its first look, then kept in the instance's
    ``__dict__``, where every later look finds it at once (see the module)."""

    def __init__(self, make: Callable[[T], R]) -> None:
        self.make = make
        self.name = make.__name__
        self.__doc__ = make.__doc__

    def __set_name__(self, owner: type[T], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type[T] | None = None) -> Self: ...

    @overload
    def __get__(self, instance: T, owner: type[T] | None = None) -> R: ...

    def __get__(self, instance: T | None, owner: type[T] | None = None) -> Self | R:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.make(instance)
        return value
