"""Where many independent jobs run: this process, a pool of local processes, or Dask.

Each engine calls a module-level function on each job and yields its results as they
come, in whatever order the jobs end: whoever needs an order sorts them. A generator
closed early (an interrupt, an error) stops its processes or cancels its tasks.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Generator, Sequence
from contextlib import ExitStack
from typing import Any, TypeVar

from frogpbem.errors import FrogPbemError, UsageError

J = TypeVar("J")
R = TypeVar("R")

LOCAL = "local"
"""The cluster address that means a Dask local cluster of this machine's cores."""

CONNECT_SECONDS = 20
"""How long a client waits for a scheduler before giving up."""


def cores(jobs: int) -> int:
    """How many processes ``--jobs`` asks for: 0 is every core of this machine."""
    if jobs < 0:
        raise UsageError(f"--jobs: give 0 (every core) or more, not {jobs}")
    return jobs or os.cpu_count() or 1


def run_here(work: Callable[[J], R], jobs: Sequence[J]) -> Generator[R, None, None]:
    """Each job in this process, in order."""
    for job in jobs:
        yield work(job)


def run_on_pool(work: Callable[[J], R], jobs: Sequence[J],
                processes: int) -> Generator[R, None, None]:
    """The jobs on ``processes`` local processes (forked where the system can), one job at
    a time each; the results as the jobs end."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = context.Pool(min(processes, len(jobs)), initializer=_worker_signals)
    try:
        yield from pool.imap_unordered(work, jobs)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the command (which stops the pool), and dies quietly when
    the pool ends it (a fork keeps the command's own SIGTERM handler otherwise)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run_on_dask(work: Callable[[J], R], jobs: Sequence[J], address: str,
                processes: int) -> Generator[R, None, None]:
    """The jobs on the Dask distributed scheduler at ``address`` (its workers import
    ``work``'s module), or on a local cluster of ``processes`` workers for :data:`LOCAL`;
    the results as the jobs end."""
    return _dask_results(need_dask(), work, jobs, address, processes)


def need_dask() -> Any:
    """Dask distributed's module (typed as Any: mypy need not have Dask to check the rest);
    raises :class:`UsageError` if it is not installed."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise UsageError("--cluster needs Dask distributed, which is not installed "
                         "(pip install 'frogpbem[cluster]')") from None


def _dask_results(distributed: Any, work: Callable[[J], R], jobs: Sequence[J], address: str,
                  processes: int) -> Generator[R, None, None]:
    """:func:`run_on_dask`'s results, Dask imported (a generator: it starts when asked)."""
    with ExitStack() as stack:
        client: Any
        if address == LOCAL:
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=processes, threads_per_worker=1, processes=True,
                dashboard_address=":0", silence_logs=logging.ERROR))  # any free port
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(
                    distributed.Client(address, timeout=CONNECT_SECONDS))
            except (OSError, ValueError, TypeError) as exc:
                raise FrogPbemError(f"--cluster {address}: no Dask scheduler answers there "
                                    f"({exc})") from None
        futures = client.map(work, list(jobs), pure=False)
        try:
            for future in distributed.as_completed(futures):
                yield future.result()
        finally:
            client.cancel(futures)
