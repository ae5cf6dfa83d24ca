"""How long ``frogpbem play`` takes to answer a move at ``--vs bot``: each bot's answer,
and the player's wait from their move to their next prompt (every bot's answer between).

Run by hand: ``python bench/bench_play.py [GAMES [BOT [RULES]]]`` (default 10 games a
ruleset, the expert, every ruleset), at the default options and seats of each ruleset.
It drives the real ``play`` loop (:func:`frogpbem.simulate.play_terminal`): the player's
moves are the strong bot's, chosen from the board the player is
shown, and are not timed. Prints, for each ruleset, the count, mean, 99th percentile and
worst of both, and how many took a second or more. Nothing here asserts a time.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem import simulate  # noqa: E402
from frogpbem.games import bot_move, find_game  # noqa: E402
from frogpbem.simulate import play_terminal  # noqa: E402

RULES = ("frogfinder", "coan", "froglet", "secretmove")


def timings(rules_name: str, seed: int, bot: str) -> tuple[list[float], list[float]]:
    """One game of ``play`` against ``bot``: each bot's answer (from the move before it,
    the player's or another bot's, to the line that says it), and each wait of the player
    (from their move to their next prompt)."""
    rules = find_game(rules_name)
    shown: dict[str, Any] = {}
    render = rules.render

    def seen(board: Any, *args: Any) -> Any:  # the board the player is shown
        shown["board"] = board
        return render(board, *args)

    rules.render = seen  # type: ignore[method-assign]
    rng = random.Random(seed)
    answers: list[float] = []
    waits: list[float] = []
    marks: dict[str, float] = {}

    def ask(prompt: str) -> str:
        now = time.perf_counter()
        if "moved" in marks:
            waits.append(now - marks.pop("moved"))
        seat = prompt.split("(")[1].rstrip(")")
        text = bot_move(rules, shown["board"], seat, rng, "strong")
        marks["moved"] = time.perf_counter()
        return text

    def say(line: str) -> None:
        now = time.perf_counter()
        if not line.startswith("  "):  # not a move said
            return
        if marks.pop("bot", None) is not None:
            answers.append(now - marks["last"])
        marks["last"] = now

    def asked(prompt: str) -> str:
        text = ask(prompt)
        marks["last"] = marks["moved"]
        return text

    def bot_answer(*args: Any) -> str:
        marks["bot"] = 1.0  # the next line said is this bot's move
        return str(bot_move(*args))

    simulate.bot_move = bot_answer  # type: ignore[assignment]
    try:
        play_terminal(rules_name, None, bot, seed, asked, say)
    finally:
        del rules.render  # the class's own again
        simulate.bot_move = bot_move
    return answers, waits


def summary(name: str, label: str, times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return (f"{name:<12}{label:<9}{len(times):>7}{statistics.mean(times):>9.3f}{p99:>8.3f}"
            f"{times[-1]:>9.3f}{sum(t >= 1 for t in times):>8}")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    bot = sys.argv[2] if len(sys.argv) > 2 else "expert"
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else RULES
    print(f"frogpbem play --vs {bot}, {games} games a ruleset, default options and seats:\n"
          "each bot's answer (from the move before it to the line that says it), and each "
          "wait\nof the player (from their move to their next prompt; all the bots' answers)\n")
    print(f"{'rules':<12}{'':<9}{'count':>7}{'mean s':>9}{'p99 s':>8}{'worst s':>9}"
          f"{'>= 1 s':>8}")
    for name in names:
        played = [timings(name, seed, bot) for seed in range(games)]
        print(summary(name, "answers", [t for answers, _ in played for t in answers]))
        print(summary("", "waits", [t for _, waits in played for t in waits]), flush=True)


if __name__ == "__main__":
    main()
