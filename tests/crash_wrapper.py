"""Run the frogpbem CLI, killing itself with SIGKILL at the N-th file-system step.

    CRASH_AT=N python -m tests.crash_wrapper move game.yaml --key KEY

Steps are calls of os.open, os.fsync, os.replace and os.mkdir. With
CRASH_AT=0 nothing is killed and the number of steps is written to the file
named by CRASH_COUNT.

``python -m tests.crash_wrapper --forks`` (see :class:`Forks`) runs such commands,
one after another, each in a child forked from a process that imported the CLI
once: the child is a process of its own, killed as above, that skips the imports
(most of a short command's time).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

AT = int(os.environ.get("CRASH_AT", "0"))
steps = 0
ROOT = Path(__file__).resolve().parent.parent

# what move, deal and the judge import as they run, imported once by the forking process
PRELOADED = ("frogpbem.cli", "frogpbem.cli.quick", "frogpbem.cli.turns", "frogpbem.cli.duel",
             "frogpbem.referee", "frogpbem.dealing", "frogpbem.protocol.game",
             "frogpbem.gamefile.document", "frogpbem.games.frogfinder", "frogpbem.views",
             "frogpbem.notes")


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


def patch() -> None:
    for name in ("open", "fsync", "replace", "mkdir"):
        setattr(os, name, counted(getattr(os, name)))


def child(request: dict[str, Any]) -> None:
    """In a forked child: the request's command, run as ``python -m tests.crash_wrapper``
    would run it (its environment, folder, arguments; stdin empty, stdout and stderr to
    the files named), then exit with its status. Never returns."""
    global AT
    status = 1
    try:
        signal.alarm(120)  # as a subprocess's timeout: a child that hangs is killed (SIGALRM)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for fd, path, flags in ((0, os.devnull, os.O_RDONLY),
                                (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            opened = os.open(path, flags, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 (fd 0 is the child's to keep)
        AT = int(os.environ.get("CRASH_AT", "0"))
        from frogpbem.cli import main

        if request["wrapped"]:  # as tests.crash_wrapper runs it; else as python -m frogpbem
            patch()
        sys.argv = ["frogpbem", *request["args"]]
        try:
            main()
            status = 0
        except SystemExit as exit:
            code = exit.code
            status = code if isinstance(code, int) else (0 if code is None else 1)
            if code is not None and not isinstance(code, int):
                print(code, file=sys.stderr)
        if request["wrapped"]:
            report()
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def serve() -> None:
    """Read a request a line on stdin; for each, fork a child to run it and write its pid;
    then, on the line ``wait`` (or ``kill``: SIGKILL it first), its exit status as a
    subprocess's (negative: killed by that signal). The child is reaped only then, so its
    pid is never another process's when it is killed."""
    import importlib

    for module in PRELOADED:
        importlib.import_module(module)
    protocol = sys.stdout
    while line := sys.stdin.readline():
        protocol.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            child(json.loads(line))
        protocol.write(f"{pid}\n")
        protocol.flush()
        then = sys.stdin.readline().strip()
        if then == "kill":
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        protocol.write(f"{os.waitstatus_to_exitcode(status)}\n")
        protocol.flush()


class Forks:
    """The test's side of ``--forks``: start a command in a forked child (:meth:`start`),
    learn how it ended or kill it (:meth:`wait`); :meth:`run` does both, as
    ``subprocess.run``."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="frogpbem-forks-"))
        self.process = subprocess.Popen([sys.executable, "-m", "tests.crash_wrapper", "--forks"],
                                        cwd=ROOT, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.count = 0

    def _line(self) -> int:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"the forking process ended ({self.process.poll()})"
        return int(line)

    def start(self, args: list[str], env: dict[str, str], cwd: Path = ROOT,
              wrapped: bool = True) -> int:
        """Start ``args`` with the environment ``env`` (the whole of it) in ``cwd``, as
        ``python -m tests.crash_wrapper`` runs them (or, unless ``wrapped``, as
        ``python -m frogpbem``); its pid."""
        assert self.process.stdin is not None
        self.count += 1
        self.out = self.folder / f"{self.count}.out"
        self.err = self.folder / f"{self.count}.err"
        request = {"args": args, "env": env, "cwd": str(cwd), "wrapped": wrapped,
                   "stdout": str(self.out), "stderr": str(self.err)}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self._line()

    def wait(self, kill: bool = False) -> subprocess.CompletedProcess[str]:
        """How the command last started ended (killed now with SIGKILL if ``kill`` and it
        has not ended yet): its status and output."""
        assert self.process.stdin is not None
        self.process.stdin.write("kill\n" if kill else "wait\n")
        self.process.stdin.flush()
        status = self._line()
        # (a child killed early may not have made its files yet: then it wrote nothing)
        output = [path.read_text() if path.exists() else "" for path in (self.out, self.err)]
        self.out.unlink(missing_ok=True)
        self.err.unlink(missing_ok=True)
        return subprocess.CompletedProcess(["frogpbem"], status, *output)

    def run(self, args: list[str], env: dict[str, str], cwd: Path = ROOT,
            wrapped: bool = True) -> subprocess.CompletedProcess[str]:
        self.start(args, env, cwd, wrapped)
        return self.wait()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


_shared: list[Forks] = []


def shared() -> Forks:
    """The :class:`Forks` of this test process, started when first needed (closed at its
    exit, or ending when its stdin does)."""
    if not _shared or _shared[0].process.poll() is not None:
        _shared[:] = [Forks()]
        atexit.register(_shared[0].close)
    return _shared[0]


if __name__ == "__main__":
    if sys.argv[1:] == ["--forks"]:
        serve()
        raise SystemExit(0)
    from frogpbem.cli import main

    patch()
    atexit.register(report)
    sys.argv = ["frogpbem", *sys.argv[1:]]
    main()
