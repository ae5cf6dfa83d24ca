"""The six-seat demonstration: its whole time, and what each record costs along the game.

Run by hand (``python bench/bench_demo.py [GAMES]``, default 3). Each game is
``frogpbem demo DIR --rules coan --seats 6 --option size=26 --bot random``, played
in this process as the command plays it (keys made, the game created and dealt,
every record a seat's signed request applied by the referee, the views and the
record page written, the audit), each dealt afresh, so the lengths differ.

For each game it prints the CPU time of the whole demonstration, then the CPU time
a record takes in each stretch of 100 records (the time between the lines the demo
prints for them), and of that the bots' part (their own view of the board and
their choice of a move, which look at a board that fills up). Then a straight
line fitted to the cost of every record: what a record costs at the start, and how
much more it costs 1,000 records later. A demo whose cost is linear in its records
has a cost per record that does not grow. Nothing here asserts a time.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem import demo  # noqa: E402
from frogpbem.games.frogs import FrogBot  # noqa: E402
from frogpbem.protocol.session import Session  # noqa: E402

STRETCH = 100


def fitted(costs: list[float]) -> tuple[float, float]:
    """Least squares: the cost of the first record and the growth per record."""
    count = len(costs)
    mean_x, mean_y = (count - 1) / 2, sum(costs) / count
    slope = sum((x - mean_x) * (y - mean_y) for x, y in enumerate(costs)) / \
        sum((x - mean_x) ** 2 for x in range(count))
    return mean_y - slope * mean_x, slope


def play(folder: Path, seed: int) -> tuple[float, list[float], list[float]]:
    """Whole CPU time, each record's CPU time, and the bots' part of each."""
    stamps: list[float] = []
    bots = [0.0]
    per_record_bots: list[float] = []
    choose, view = FrogBot.move, demo.make_view

    def timed(function: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                bots[0] += time.process_time() - start
        return run

    def echo(line: str) -> None:
        text = line.strip()
        if text[:1].isdigit() and ". " in text[:7]:  # a record's line
            stamps.append(time.process_time())
            per_record_bots.append(bots[0])
            bots[0] = 0.0

    FrogBot.move = timed(choose)  # type: ignore[method-assign]
    demo.make_view = timed(view)
    try:
        start = time.process_time()
        demo.play_demo(folder, "coan", seed=seed, echo=echo, seats=6,
                       options={"size": "26"}, bot="random", session=Session.from_environment())
        whole = time.process_time() - start
    finally:
        FrogBot.move = choose  # type: ignore[method-assign]
        demo.make_view = view
    costs = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    return whole, costs, per_record_bots[1:]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["FROGPBEM_HOME"] = str(Path(tmp) / "home")
        os.environ["FROGPBEM_STATE"] = str(Path(tmp) / "state")
        for seed in range(1, games + 1):
            whole, costs, bot_costs = play(Path(tmp) / f"g{seed}", seed)
            print(f"game {seed}: {len(costs) + 1} records, the whole demo {whole:.1f} s CPU")
            print("  records      ms a record   of which the bots")
            for at in range(0, len(costs) - STRETCH + 1, STRETCH):
                part = costs[at:at + STRETCH]
                bot = bot_costs[at:at + STRETCH]
                print(f"  {at + 2:>5}-{at + STRETCH + 1:<5} {1000 * sum(part) / STRETCH:8.2f}"
                      f"   {1000 * sum(bot) / STRETCH:8.2f}")
            first, slope = fitted(costs)
            rest = [c - b for c, b in zip(costs, bot_costs, strict=True)]
            rest_first, rest_slope = fitted(rest)
            print(f"  fitted: {1000 * first:.2f} ms a record at the start, "
                  f"{1e6 * slope:+.2f} ms 1,000 records later; without the bots "
                  f"{1000 * rest_first:.2f} ms, {1e6 * rest_slope:+.2f} ms")


if __name__ == "__main__":
    main()
