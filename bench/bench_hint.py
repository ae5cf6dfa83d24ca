"""How long an exact hint takes, over positions from real play.

Run by hand (``python bench/bench_hint.py [GAMES]``). Bots of every strength
play two-seat Frog Finder and six-seat Coan games (12x12, 5 frogs a seat);
every position a seat meets is kept, then each is timed on its own with
``frog_odds`` (the work of ``frogpbem hint``, without start-up). Prints the
count, the median, p99 and the maximum. Nothing here asserts a time.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem.games import STRENGTHS, find_game  # noqa: E402
from frogpbem.games.frogs_hint import frog_odds  # noqa: E402


def positions(rules_name: str, seats: int, games: int) -> list[Any]:
    rules = find_game(rules_name)
    options = rules.options({})
    names = rules.seats(options, seats)
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        bots = {seat: STRENGTHS[(seed + i) % 3] for i, seat in enumerate(names)}
        public, secrets = rules.deal(options, names, rng)
        state = rules.start(options, names, public, secrets)
        while (seat := rules.to_move(state)) is not None:
            view = rules.view(state, frozenset([seat]))
            found.append(view)
            state, _ = rules.play(state, seat,
                                  rules.parse_move(rules.bot.move(view, seat, rng, bots[seat])))
    return found


def timed(views: list[Any]) -> list[float]:
    times = []
    for view in views:
        start = time.perf_counter()
        frog_odds(view)
        times.append(time.perf_counter() - start)
    return sorted(times)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    for label, rules, seats, count in (("Frog Finder, 2 seats", "frogfinder", 2, games),
                                       ("Coan, 6 seats", "coan", 6, max(10, games // 5))):
        views = positions(rules, seats, count)
        times = timed(views)
        n = len(times)
        print(f"{label}: {n} positions from {count} games; hint median "
              f"{1000 * times[n // 2]:.2f} ms, p99 {1000 * times[int(n * 0.99)]:.2f} ms, "
              f"max {1000 * times[-1]:.2f} ms")


if __name__ == "__main__":
    main()
