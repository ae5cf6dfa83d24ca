"""``simulate``'s throughput: games per second on one core, on two (``--jobs 2``), and on
Dask's local cluster of two workers, in the same run, for each ruleset at the default bot
(``strong`` in every seat, default options and seats).

Run by hand: ``python bench/bench_simulate.py [SCALE]`` (SCALE multiplies the games, 1 by
default: a few minutes). Each ruleset's three runs write their results to JSON lines files;
the two-core run is stopped half way and resumed. The table says whether the three files
hold the same lines and the three tallies are equal (they must: a game is played from its
seed alone). The Dask cluster is started once; its start-up is shown apart. Needs Dask
(``pip install 'frogpbem[cluster]'``, or the test extra).
"""

from __future__ import annotations

import json
import logging
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem.simulate import Tally, simulate  # noqa: E402

GAMES = {"frogfinder": 40, "coan": 12, "froglet": 8, "secretmove": 200}
"""Games per run at SCALE 1: some ten seconds on one core each."""


def timed(play: Callable[[], Tally]) -> tuple[Tally, float]:
    start = time.perf_counter()
    tally = play()
    return tally, time.perf_counter() - start


def measure(rules: str, games: int, folder: Path, address: str) -> tuple[list[float], bool]:
    """Seconds for ``games`` games on one core, on two (stopped half way and resumed), on the
    Dask scheduler at ``address``; and whether the three runs' totals and lines agree."""
    files = [folder / f"{rules}-{name}.jsonl" for name in ("one", "two", "dask")]

    def run(out: Path, jobs: int = 1, cluster: str | None = None,
            stop_after: int | None = None) -> Tally:
        return simulate(rules, games, ["strong"], out=out, jobs=jobs, cluster=cluster,
                        stop_after=stop_after)

    def stopped_and_resumed() -> Tally:
        run(files[1], jobs=2, stop_after=games // 2)
        return run(files[1], jobs=2)

    runs = [timed(lambda: run(files[0])), timed(stopped_and_resumed),
            timed(lambda: run(files[2], cluster=address))]
    same = (len({json.dumps(tally.to_json()) for tally, _ in runs}) == 1
            and len({frozenset(f.read_text().splitlines()) for f in files}) == 1)
    return [seconds for _, seconds in runs], same


def main() -> None:
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    import distributed

    start = time.perf_counter()
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
    print(f"Dask local cluster of 2 worker processes started in "
          f"{time.perf_counter() - start:.1f} s\n")
    header = (f"{'rules':<12}{'games':>6}{'1 core':>10}{'2 cores':>10}{'speed-up':>10}"
              f"{'Dask':>10}{'speed-up':>10}   same totals and lines")
    print("games per second, strong bots in every seat (default options and seats)\n")
    print(header)
    print("-" * len(header))
    ok = True
    with cluster, tempfile.TemporaryDirectory() as folder:
        for rules, base in GAMES.items():
            games = max(2, round(base * scale))
            (one, two, dask), same = measure(rules, games, Path(folder),
                                             cluster.scheduler_address)
            ok = ok and same
            print(f"{rules:<12}{games:>6}{games / one:>10.2f}{games / two:>10.2f}"
                  f"{one / two:>9.2f}x{games / dask:>10.2f}{one / dask:>9.2f}x   "
                  f"{'yes' if same else 'NO'}", flush=True)
    if not ok:
        print("\nTHE TOTALS DIFFER")
        raise SystemExit(1)
    print("\n2 cores: stopped after half the games, then resumed; every total equals the "
          "unbroken 1-core run's")


if __name__ == "__main__":
    main()
