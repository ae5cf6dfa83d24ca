"""Games played locally between bots, with no files and no keys: ``frogpbem simulate``.

Each game is dealt from its own seed and played through the rules alone: a
bot sees only its own (and its teammates') view, as in a game by email.
The tallies give each seat's wins with a 95 % Wilson interval, the draws
and the average points.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from frogpbem.errors import UsageError
from frogpbem.games import STRENGTHS, Outcome, Ruleset, find_game


def play_local(rules: Ruleset[Any, Any, Any], options: dict[str, Any], seats: Sequence[str],
               bots: dict[str, str], rng: random.Random) -> tuple[Outcome, dict[str, int]]:
    """One whole game between bots (seat to strength); its outcome and points."""
    public, secrets = rules.deal(options, seats, rng)
    state = rules.start(options, seats, public, secrets)
    for _ in range(10_000):
        auto = rules.automatic(state)
        seat = rules.to_move(state)
        if seat is None:
            break
        if auto is not None:
            state, _ = rules.play(state, seat, auto)
            continue
        team = frozenset(s for s in seats if s in rules.secret_readers(options, seat))
        view = rules.view(state, team or frozenset([seat]))
        state, _ = rules.play(state, seat, rules.parse_move(
            rules.bot_move(view, seat, rng, bots[seat])))
    outcome = rules.outcome(state)
    if outcome is None:
        raise RuntimeError("a local game did not end in 10,000 moves")
    return outcome, {place.seat: place.points for place in outcome.standing}


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``wins / games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """What ``games`` local games came to."""

    rules: str
    seats: tuple[str, ...]
    bots: dict[str, str]
    """Each seat's bot in the first game (with ``swap``, the two bots change seats
    every other game)."""
    swap: bool
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    """Games won by each seat (a sole first place)."""
    bot_wins: dict[str, int] = field(default_factory=dict)
    """Games won by each bot, whichever seat it held."""
    draws: int = 0
    points: dict[str, int] = field(default_factory=dict)

    def add(self, outcome: Outcome, points: dict[str, int], bots: dict[str, str]) -> None:
        self.games += 1
        first = [p.seat for p in outcome.standing if p.rank == 1]
        if len(first) == 1:
            self.wins[first[0]] = self.wins.get(first[0], 0) + 1
            bot = bots.get(first[0], first[0])
            self.bot_wins[bot] = self.bot_wins.get(bot, 0) + 1
        else:
            self.draws += 1
        for seat, value in points.items():
            self.points[seat] = self.points.get(seat, 0) + value

    def to_json(self) -> dict[str, Any]:
        def share(count: int) -> dict[str, float]:
            low, high = wilson(count, self.games)
            return {"games": count, "share": count / self.games if self.games else 0.0,
                    "low": low, "high": high}

        return {"rules": self.rules, "games": self.games, "bots": self.bots,
                "swapped": self.swap,
                "wins": {seat: share(self.wins.get(seat, 0)) for seat in self.seats},
                "draws": share(self.draws),
                "bot_wins": {bot: share(n) for bot, n in sorted(self.bot_wins.items())},
                "average_points": {seat: total / self.games
                                   for seat, total in self.points.items()}}

    def table(self) -> str:
        data = self.to_json()
        lines = [f"{self.games} games of {self.rules}, "
                 + ", ".join(f"{seat}: {bot}" for seat, bot in self.bots.items())
                 + (" (the bots change seats every other game)" if self.swap else ""),
                 "", f"{'':<22}{'games':>7}{'share':>9}   95 % interval"]

        def row(label: str, item: dict[str, float]) -> str:
            return (f"{label:<22}{item['games']:>7}{100 * item['share']:>8.2f}%   "
                    f"{100 * item['low']:.2f} - {100 * item['high']:.2f} %")

        lines += [row(f"{seat} wins", item) for seat, item in data["wins"].items()]
        lines.append(row("draws", data["draws"]))
        if len(set(self.bots.values())) > 1:
            lines += [row(f"bot {bot} wins", item) for bot, item in data["bot_wins"].items()]
        lines.append("")
        lines.append("average points: " + ", ".join(
            f"{seat} {value:.2f}" for seat, value in data["average_points"].items()))
        return "\n".join(lines)


def simulate(rules_name: str, games: int, bots: Sequence[str], seed: int = 0,
             options: dict[str, str] | None = None, seats: int | None = None,
             swap: bool = False, progress: Callable[[int], None] | None = None) -> Tally:
    """Play ``games`` local games; game ``i`` is dealt and played from seed ``seed + i``."""
    rules = find_game(rules_name)
    opts = rules.options(options or {})
    names = rules.seats(opts, seats or len(rules.seat_order))
    for bot in bots:
        if bot not in STRENGTHS:
            raise UsageError(f"--bots: {bot!r} is not a bot; give {', '.join(STRENGTHS)}")
    if len(bots) not in (1, len(names)):
        raise UsageError(f"--bots: give one bot, or one for each of the {len(names)} seats")
    given = list(bots) * (len(names) if len(bots) == 1 else 1)
    tally = Tally(rules.name, names, dict(zip(names, given, strict=True)), swap)
    for index in range(games):
        order = list(given)
        if swap and index % 2 and len(order) == 2:
            order.reverse()
        playing = dict(zip(names, order, strict=True))
        outcome, points = play_local(rules, opts, names, playing, random.Random(seed + index))
        # a bot's win counts for the bot; with two equal bots, for the seat
        tally.add(outcome, points, playing if len(set(order)) > 1 else {})
        if progress is not None:
            progress(index + 1)
    return tally
