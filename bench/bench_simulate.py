"""``simulate``'s throughput: games per second on one core, on two (``--jobs 2``), and on
Dask's local cluster of two workers, in the same run, for each ruleset at the default bot
(``strong`` in every seat, default options and seats).

Run by hand: ``python bench/bench_simulate.py [SCALE] [ROUNDS]`` (SCALE multiplies the
games, 1 by default; ROUNDS, 2 by default, repeats the three runs in turn and keeps the
best of each, so that other work on the machine slows them less unevenly). Some minutes.

Each ruleset's three runs write their results to JSON lines files; the two-core run is
stopped half way and resumed. The one-core and two-core runs are timed in a process of
their own, away from the Dask scheduler's thread in this one. The table says whether the
three files hold the same lines and the three tallies are equal (they must: a game is
played from its seed alone). The Dask cluster is started once; its start-up is shown
apart. The CPU seconds a game, on one core and on the pool, show what the pool costs
beside the games. Needs Dask (``pip install 'frogpbem[cluster]'``, or the test extra).
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem.simulate import Tally, simulate  # noqa: E402

GAMES = {"frogfinder": 40, "coan": 12, "froglet": 8, "secretmove": 200}
"""Games per run at SCALE 1: some ten seconds on one core each."""


def timed(play: Callable[[], Tally]) -> tuple[Tally, float, float]:
    """``play()``'s tally, wall-clock seconds, and CPU seconds of this process and of the
    worker processes it ended meanwhile (a pool's; Dask's workers are not its children)."""
    start, cpu = time.perf_counter(), _cpu()
    tally = play()
    return tally, time.perf_counter() - start, _cpu() - cpu


def _cpu() -> float:
    mine, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                          resource.RUSAGE_CHILDREN))
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def measure(rules: str, games: int, folder: Path, address: str, child: Executor
            ) -> tuple[list[float], list[float], bool]:
    """Wall-clock seconds for ``games`` games on one core, on two (stopped half way and
    resumed), on the Dask scheduler at ``address``; the CPU seconds of the first two; and
    whether the three runs' totals and lines agree. The first two run in ``child``, a
    process of their own: this one runs Dask's scheduler in a thread, which would slow
    them."""
    files = [folder / f"{rules}-{name}.jsonl" for name in ("one", "two", "dask")]
    for file in files:
        file.unlink(missing_ok=True)
    runs = [child.submit(played, rules, games, files[0], 1).result(),
            child.submit(played, rules, games, files[1], 2, games // 2).result(),
            timed(lambda: run(rules, games, files[2], cluster=address))]
    same = (len({json.dumps(tally.to_json()) for tally, _, _ in runs}) == 1
            and len({frozenset(f.read_text().splitlines()) for f in files}) == 1)
    return [wall for _, wall, _ in runs], [cpu for _, _, cpu in runs[:2]], same


def run(rules: str, games: int, out: Path, jobs: int = 1, cluster: str | None = None,
        stop_after: int | None = None) -> Tally:
    return simulate(rules, games, ["strong"], out=out, jobs=jobs, cluster=cluster,
                    stop_after=stop_after)


def played(rules: str, games: int, out: Path, jobs: int, stop_after: int | None = None
           ) -> tuple[Tally, float, float]:
    """:func:`timed` run of ``games`` games on ``jobs`` processes; with ``stop_after``,
    stopped after that many games and resumed (what a child process runs)."""
    def stopped_and_resumed() -> Tally:
        if stop_after is not None:
            run(rules, games, out, jobs=jobs, stop_after=stop_after)
        return run(rules, games, out, jobs=jobs)

    return timed(stopped_and_resumed)


def main() -> None:
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    import distributed

    start = time.perf_counter()
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=logging.ERROR)
    print(f"Dask local cluster of 2 worker processes started in "
          f"{time.perf_counter() - start:.1f} s; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores\n")
    header = (f"{'rules':<12}{'games':>6}{'1 core':>9}{'2 cores':>9}{'x':>7}"
              f"{'Dask':>9}{'x':>7}{'CPU s/game':>12}{'(pool)':>8}   same")
    print(f"games per second (best of {rounds} rounds), strong bots in every seat, default "
          "options and seats;\nx: the speed-up over 1 core; CPU seconds a game on 1 core and "
          "on the pool\n")
    print(header)
    print("-" * len(header))
    ok = True
    child = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    with cluster, child, tempfile.TemporaryDirectory() as folder:
        for rules, base in GAMES.items():
            games = max(2, round(base * scale))
            walls, cpus = [], []
            for _ in range(rounds):  # the rounds interleaved: a change of load hits all three
                wall, cpu, same = measure(rules, games, Path(folder), cluster.scheduler_address,
                                          child)
                walls.append(wall)
                cpus.append(cpu)
                ok = ok and same
            one, two, dask = (min(w[i] for w in walls) for i in range(3))
            cpu_one, cpu_two = (min(c[i] for c in cpus) / games for i in range(2))
            print(f"{rules:<12}{games:>6}{games / one:>9.2f}{games / two:>9.2f}"
                  f"{one / two:>6.2f}x{games / dask:>9.2f}{one / dask:>6.2f}x"
                  f"{cpu_one:>12.3f}{cpu_two:>8.3f}   {'yes' if ok else 'NO'}", flush=True)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
    if not ok:
        print("THE TOTALS DIFFER")
        raise SystemExit(1)
    print("2 cores: each run stopped after half its games, then resumed; in every round the "
          "totals\nand the set of lines equal the unbroken 1-core run's and Dask's")


if __name__ == "__main__":
    main()
