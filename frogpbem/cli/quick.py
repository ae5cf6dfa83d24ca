"""The commands run most often, read without typer.

A seat's ``move`` (a signed request), the referee's ``move`` (``--from`` a
returned copy) and ``view`` run at every turn of every game. Importing typer
(and the standard modules it pulls in) and building its command line would be
a large part of such a command. :func:`quick` reads
these commands' arguments itself when they are written plainly: the
command's name first, then its arguments, and its options each as a token of
its own (``--key PATH``, ``--json``). It gives the same function that typer
calls (:mod:`frogpbem.cli.turns`) the same values.

Anything else goes to typer (:mod:`frogpbem.cli.commands`), whose command
line is the one definition of every command, its help and its errors:
``--help``, an unknown or repeated option, ``--key=PATH``, ``--``, a value
that begins with ``-``, an empty value or a name with a NUL character, a
missing or an extra argument. Tests check that the table here names typer's
options with typer's defaults, and that for any arguments the quick reading
either steps aside or gives typer's values. This module does not import the
typer one, nor the typer one this.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from frogpbem import __version__
from frogpbem.cli import turns
from frogpbem.cli.output import echo


class _Reading:
    """How one command's arguments are read here: the same names and defaults as its
    typer parameters in :mod:`frogpbem.cli.game` (a plain class: defining a NamedTuple
    costs more than reading a command line)."""

    __slots__ = ("run", "valued", "flags", "defaults", "rest", "repeated", "paths")

    def __init__(self, run: Callable[..., None], valued: dict[str, str],
                 flags: dict[str, tuple[str, bool]], defaults: dict[str, Any],
                 rest: str | None = None, repeated: str | None = None,
                 paths: frozenset[str] = frozenset({"game", "key"})) -> None:
        self.run = run
        """The command's function, the one typer's command calls."""
        self.valued = valued
        """Options that take a value: the token, and the parameter it sets."""
        self.flags = flags
        """Options without a value: the token, the parameter, and the value it sets."""
        self.defaults = defaults
        """Every parameter but ``GAME``, as typer gives it when not written."""
        self.rest = rest
        """The parameter that takes the arguments after ``GAME``, if any."""
        self.repeated = repeated
        """The one option that may be written more than once (each value is kept)."""
        self.paths = paths
        """Parameters that typer reads as paths."""


QUICK = {
    "move": _Reading(
        turns.move,
        {"--key": "key", "-k": "key", "--seat": "seat", "--from": "take_from",
         "--setup": "setup"},
        {"--discard-requests": ("discard_requests", True),
         "--no-discard-requests": ("discard_requests", False),
         "--withdraw": ("withdraw", True), "--json": ("as_json", True),
         "--random": ("random_setup", True)},
        {"words": None, "key": None, "seat": None, "take_from": [], "discard_requests": False,
         "withdraw": False, "as_json": False, "setup": None, "random_setup": False},
        rest="words", repeated="take_from", paths=frozenset({"game", "key", "take_from"})),
    "view": _Reading(
        turns.view,
        {"--key": "key", "-k": "key", "--format": "fmt"},
        {"--public": ("public", True), "--json": ("as_json", True)},
        {"key": None, "public": False, "as_json": False, "fmt": "text"}),
}
"""The commands read here, by name."""


def quick(argv: list[str]) -> tuple[Callable[..., None], dict[str, Any]] | None:
    """The command function and its arguments, if ``argv`` (after the program's name) is
    plainly one of :data:`QUICK`; ``None`` for everything that typer should read."""
    reading = QUICK.get(argv[0]) if argv else None
    if reading is None:
        return None
    given: dict[str, Any] = {}
    positional: list[str] = []
    tokens = iter(argv[1:])
    for token in tokens:
        if token in reading.valued:
            name = reading.valued[token]
            value = next(tokens, "")
            if not value or value.startswith("-"):
                return None
            if name == reading.repeated:
                given.setdefault(name, []).append(value)
                continue
            if name in given:
                return None
            given[name] = value
        elif token in reading.flags:
            name, flag = reading.flags[token]
            if name in given:
                return None
            given[name] = flag
        elif not token or token.startswith("-"):
            return None
        else:
            positional.append(token)
    if not positional:
        return None  # typer says what is missing
    given["game"] = positional[0]
    if len(positional) > 1:
        if reading.rest is None:
            return None  # typer names the extra argument
        given[reading.rest] = positional[1:]
    for name in reading.paths & given.keys():
        values = given[name] if isinstance(given[name], list) else [given[name]]
        if not all(map(_readable, values)):
            return None  # typer refuses such a path with its own message
        given[name] = [Path(v) for v in values] if isinstance(given[name], list) else \
            Path(given[name])
    return reading.run, {**reading.defaults, **given}


def _readable(path: str) -> bool:
    """Whether typer takes ``path``: a path that exists must be readable (and a name with
    a NUL character is left to typer, which refuses it)."""
    try:
        os.stat(path)
    except OSError:
        return True
    except ValueError:
        return False
    return os.access(path, os.R_OK)


def version() -> None:
    """``frogpbem --version``: as typer's callback says it, without typer."""
    echo(f"frogpbem {__version__}")
