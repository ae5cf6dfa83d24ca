"""Run the frogpbem CLI, killing itself with SIGKILL at the N-th file-system step.

    CRASH_AT=N python -m tests.crash_wrapper move game.yaml --key KEY

Steps are calls of os.open, os.fsync, os.replace and os.mkdir. With
CRASH_AT=0 nothing is killed and the number of steps is written to the file
named by CRASH_COUNT.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

AT = int(os.environ.get("CRASH_AT", "0"))
steps = 0


def counted(real: Callable[..., Any]) -> Callable[..., Any]:
    def step(*args: Any, **kwargs: Any) -> Any:
        global steps
        steps += 1
        if steps == AT:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    return step


def report() -> None:
    if os.environ.get("CRASH_COUNT"):
        Path(os.environ["CRASH_COUNT"]).write_text(str(steps))


if __name__ == "__main__":
    from frogpbem.cli import main

    for name in ("open", "fsync", "replace", "mkdir"):
        setattr(os, name, counted(getattr(os, name)))
    atexit.register(report)
    sys.argv = ["frogpbem", *sys.argv[1:]]
    main()
