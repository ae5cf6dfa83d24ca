"""The ``frogpbem`` command line.

:func:`main` is the console script. The commands run at every turn (``move``,
``view``) written plainly, and ``--version``, are read by
:mod:`frogpbem.cli.quick` without importing typer; anything else goes to the
typer app (:mod:`frogpbem.cli.commands`), the one definition of every command,
its help and its errors. The two do not import each other: what both need is
in :mod:`~frogpbem.cli.output` (printing, errors), :mod:`~frogpbem.cli.keys`
and :mod:`~frogpbem.cli.turns` (``move`` and ``view`` themselves).

``frogpbem.cli.app`` is the typer app, imported when first asked for.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

from frogpbem.cli import quick

if TYPE_CHECKING:
    import typer


def main() -> None:
    """The console script: a command that :func:`quick.quick` reads, and ``--version``,
    run without typer; anything else goes to :func:`frogpbem.cli.commands.main`.

    Each command keeps what its session made for the next command when it is done,
    whatever its outcome (:meth:`frogpbem.protocol.session.Session.finish`).
    """
    found = (quick.version, {}) if sys.argv[1:] == ["--version"] else quick.quick(sys.argv[1:])
    if found is None:
        # typer, and every command's module, only when the quick reading steps aside
        from frogpbem.cli import commands

        commands.main()
        return
    run, arguments = found
    # Such a command lives a fraction of a second, and what it makes is freed as it
    # goes (reference counting): the cyclic collector would only scan, again and
    # again, the objects that imports and a long game's values leave (a few ms).
    gc.disable()
    try:
        run(**arguments)
    except BrokenPipeError:  # the reader went away (``| head``): as typer does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None


def __getattr__(name: str) -> typer.Typer:
    """``frogpbem.cli.app``, the typer app: built when asked for, not by the console
    script's quick path."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from frogpbem.cli.commands import app

    return app
