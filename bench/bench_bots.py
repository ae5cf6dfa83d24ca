"""The bots' strength, and self-play tables next to BrainKing's human figures.

Run by hand (``python bench/bench_bots.py [FROG_GAMES] [FROGLET_GAMES]``,
defaults 2000 and 200), on every core. Each match is ``frogpbem simulate``'s
work: games dealt from seeds 0.., the two bots changing seats every other
game. Prints each table. Nothing here asserts anything.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem.simulate import Tally, simulate  # noqa: E402

HUMANS = {"frogfinder": "BrainKing, ~95,000 human games: red 50.31 %, blue 49.61 %, "
                        "draws 0.07 %",
          "froglet": "BrainKing, human games: white 52.34 %, black 45.26 %, draws 2.38 %"}


def chunk(job: tuple[str, int, int, tuple[str, ...], bool]) -> Tally:
    rules, start, count, bots, swap = job
    return simulate(rules, count, list(bots), seed=start, swap=swap)


def match(pool: multiprocessing.pool.Pool, rules: str, games: int, bots: tuple[str, ...],
          swap: bool = True) -> Tally:
    """``games`` games in even chunks (seat swaps stay paired: chunks start at even seeds)."""
    size = max(2, games // (4 * (os.cpu_count() or 1)))
    size += size % 2
    jobs = [(rules, start, min(size, games - start), bots, swap)
            for start in range(0, games, size)]
    parts = pool.map(chunk, jobs)
    total = parts[0]
    for part in parts[1:]:
        total.games += part.games
        total.draws += part.draws
        for field in ("wins", "bot_wins", "points"):
            mine, theirs = getattr(total, field), getattr(part, field)
            for key, value in theirs.items():
                mine[key] = mine.get(key, 0) + value
    return total


def main() -> None:
    frog_games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    froglet_games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    matches = [("frogfinder", frog_games, ("strong", "random")),
               ("frogfinder", frog_games, ("strong", "greedy")),
               ("frogfinder", frog_games, ("strong", "strong")),
               ("froglet", froglet_games, ("strong", "greedy")),
               ("froglet", froglet_games, ("strong", "strong")),
               ("froglet", froglet_games, ("expert", "strong")),
               ("froglet", froglet_games, ("expert", "expert"))]
    with multiprocessing.Pool() as pool:
        for rules, games, bots in matches:
            start = time.perf_counter()
            tally = match(pool, rules, games, bots)
            print(tally.table())
            if bots[0] == bots[1]:
                print(HUMANS[rules])
            print(f"({time.perf_counter() - start:.0f} s)\n", flush=True)


if __name__ == "__main__":
    main()
