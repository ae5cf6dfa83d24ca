"""Where many independent jobs run: this process, a pool of local processes, or Dask.

Each engine calls a module-level function on each job and yields its results as they
come, in whatever order the jobs end: whoever needs an order sorts them. A generator
closed early (an interrupt, an error) stops its processes or cancels its tasks.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Generator, Iterable
from contextlib import ExitStack
from typing import Any, TypeVar

from frogpbem.errors import FrogPbemError, UsageError

J = TypeVar("J")
R = TypeVar("R")

LOCAL = "local"
"""The cluster address that means a Dask local cluster of this machine's cores."""

CONNECT_SECONDS = 20
"""How long a client waits for a scheduler before giving up."""


MAX_JOBS = 256
"""The most processes ``--jobs`` starts on one machine (more is a cluster's work)."""


def cores(jobs: int) -> int:
    """How many processes ``--jobs`` asks for: 0 is every core of this machine."""
    if not 0 <= jobs <= MAX_JOBS:
        raise UsageError(f"--jobs: give 0 (every core) up to {MAX_JOBS}, not {jobs}")
    return jobs or os.cpu_count() or 1


def run_here(work: Callable[[J], R], jobs: Iterable[J]) -> Generator[R, None, None]:
    """Each job in this process, in order."""
    for job in jobs:
        yield work(job)


AHEAD = 4
"""Jobs handed to a pool per process ahead of the results: the jobs are taken as they are
needed, so a run of millions never holds them all."""


def run_on_pool(work: Callable[[J], R], jobs: Iterable[J],
                processes: int) -> Generator[R, None, None]:
    """The jobs on ``processes`` local processes (forked where the system can); the
    results as the jobs end. A process that dies (killed, out of memory) ends the run
    with a :class:`FrogPbemError` rather than a wait for a result that cannot come."""
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(processes, mp_context=context, initializer=_worker_signals)
    waiting = iter(jobs)
    running: set[Future[R]] = set()
    try:
        while True:
            running.update(pool.submit(work, job) for job in
                           itertools.islice(waiting, processes * AHEAD - len(running)))
            if not running:
                break
            ended, running = wait(running, return_when=FIRST_COMPLETED)
            for future in ended:
                yield future.result()
    except BrokenProcessPool:
        raise FrogPbemError("a process playing the games died (killed, or out of "
                            "memory): run again (with --out, the games ended are kept)"
                            ) from None
    finally:
        _stop(pool)


def _stop(pool: Any) -> None:
    """End ``pool``'s processes now, mid-job too (a run stopped, or failed)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()  # Python 3.14 has pool.terminate_workers() for this
    for process in processes:
        process.join()
    pool.shutdown(wait=True)


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the command (which stops the pool), and dies quietly when
    the pool ends it (a fork keeps the command's own SIGTERM handler otherwise)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run_on_dask(work: Callable[[J], R], jobs: Iterable[J], address: str,
                processes: int) -> Generator[R, None, None]:
    """The jobs on the Dask distributed scheduler at ``address`` (its workers import
    ``work``'s module), or on a local cluster of ``processes`` workers for :data:`LOCAL`;
    the results as the jobs end, the jobs handed out as they are needed."""
    return _dask_results(need_dask(), work, jobs, address, processes)


def need_dask() -> Any:
    """Dask distributed's module (typed as Any: mypy need not have Dask to check the rest);
    raises :class:`UsageError` if it is not installed."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise UsageError("--cluster needs Dask distributed, which is not installed "
                         "(pip install 'frogpbem[cluster]')") from None


def _dask_results(distributed: Any, work: Callable[[J], R], jobs: Iterable[J], address: str,
                  processes: int) -> Generator[R, None, None]:
    """:func:`run_on_dask`'s results, Dask imported (a generator: it starts when asked)."""
    with ExitStack() as stack:
        # Dask's event loop logs its own slip on an interrupt (distributed's sync() cancel
        # callback names a variable not yet set): a traceback the user can do nothing about
        tornado = logging.getLogger("tornado.application")
        stack.callback(tornado.setLevel, tornado.level)
        tornado.setLevel(logging.CRITICAL)
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
        waiting = iter(jobs)
        ahead = max(1, sum(client.nthreads().values())) * AHEAD
        running = set(client.map(work, list(itertools.islice(waiting, ahead)), pure=False))
        ended = distributed.as_completed(running)
        try:
            for future in ended:
                running.discard(future)
                yield future.result()
                for job in itertools.islice(waiting, 1):  # one job more for the one ended
                    submitted = client.submit(work, job, pure=False)
                    running.add(submitted)
                    ended.add(submitted)
        finally:
            client.cancel(list(running))
