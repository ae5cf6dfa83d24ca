"""How fair a ruleset is, from the results files of ``frogpbem simulate``: ``frogpbem balance``.

The games of every file given are grouped by what they measure: the rules, the complete
options, the seats and the bots (a bot playing itself measures the seats; two bots
changing seats measure the bots). For each group: the share of games each seat (or
team) won, alone, with its 95 % Wilson interval, against the share a fair game gives
(one in as many seats); the draws; the average points; how long the games were (the
moves the seats chose). Beside a two-seat game played with its rules' own options
stand the figures of BrainKing's human players, where there are some (docs/simulate.md).

A game read twice (two files of one run, or a run resumed into another file) counts
once: a game is its run's parameters, its seed and its bots' seats.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from frogpbem.safetext import counted, safe
from frogpbem.simulate import Played, Run, Share, read_results


@dataclass(frozen=True)
class Human:
    """What human players did at one ruleset on BrainKing (its published statistics)."""

    games: str
    first: float
    second: float
    draws: float


HUMANS = {
    "frogfinder": Human("~95,000", 0.5031, 0.4961, 0.0007),
    "froglet": Human("~80,000", 0.5234, 0.4526, 0.0238),
}
"""BrainKing's human figures for the two-seat games it ran: first seat, second seat, draws."""


@dataclass
class Group:
    """The games of one kind: one ruleset with its options, seats and bots."""

    rules: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    bots: tuple[str, ...]
    """The bots of the run, in seat order of its game 0."""
    swap: bool
    games: dict[tuple[int, tuple[str, ...]], Played] = field(default_factory=dict)
    """By seed and the bots in seat order: a game is played from these alone."""

    @property
    def title(self) -> str:
        options = ", ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        who = self.bots[0] if len(set(self.bots)) == 1 else ",".join(self.bots)
        return (f"{self.rules} ({options}), {len(self.seats)} seats, bots {who}"
                + (" changing seats" if self.swap else ""))

    def sides(self) -> list[str]:
        """Who can win: the seats, or the teams the standings name, in the seats' order."""
        named = {place.seat for game in self.games.values() for place in game.outcome.standing}
        place = {seat: index for index, seat in enumerate(self.seats)}
        # a team (``red+black``) comes where its first seat does
        return sorted(named, key=lambda side: (min(place.get(s, len(place))
                                                   for s in side.split("+")), side))

    def report(self) -> Balance:
        played = [self.games[key] for key in sorted(self.games)]
        total = len(played)
        wins: dict[str, int] = dict.fromkeys(self.sides(), 0)
        bot_wins: dict[str, int] = {}
        points: dict[str, int] = dict.fromkeys(wins, 0)
        draws = 0
        for game in played:
            first = [place.seat for place in game.outcome.standing if place.rank == 1]
            if len(first) == 1:
                wins[first[0]] += 1
                bot = game.bots.get(first[0])
                if bot is not None:
                    bot_wins[bot] = bot_wins.get(bot, 0) + 1
            else:
                draws += 1
            for place in game.outcome.standing:
                points[place.seat] += place.points
        lengths = sorted(game.moves for game in played)
        mixed = len(set(self.bots)) > 1
        return Balance(
            self.title, self.rules, self.options, self.seats, self.bots, self.swap, total,
            {side: Share.of(n, total) for side, n in wins.items()}, Share.of(draws, total),
            {bot: Share.of(n, total) for bot, n in sorted(bot_wins.items())} if mixed else {},
            {side: n / total if total else 0.0 for side, n in points.items()},
            Lengths.of(lengths),
            self._humans() if not mixed else None)

    def _humans(self) -> Human | None:
        """BrainKing's figures, for the two-seat game it ran, with the rules' own options."""
        from frogpbem.games import find_game

        default = find_game(self.rules).options({})
        if len(self.seats) != 2 or {k: str(v) for k, v in default.items()} != \
                {k: str(v) for k, v in self.options.items()}:
            return None
        return HUMANS.get(self.rules)


@dataclass(frozen=True)
class Lengths:
    """How many moves the games took."""

    mean: float
    median: float
    low: int
    """The 10th percentile."""
    high: int
    """The 90th percentile."""
    shortest: int
    longest: int
    counts: tuple[tuple[int, int], ...]
    """Each length seen, with how many games took it."""

    @classmethod
    def of(cls, lengths: Sequence[int]) -> Lengths:
        if not lengths:
            return cls(0.0, 0.0, 0, 0, 0, 0, ())
        def at(q: float) -> int:
            return lengths[min(len(lengths) - 1, int(q * len(lengths)))]

        counts: dict[int, int] = {}
        for length in lengths:
            counts[length] = counts.get(length, 0) + 1
        return cls(statistics.fmean(lengths), statistics.median(lengths), at(0.1), at(0.9),
                   lengths[0], lengths[-1], tuple(sorted(counts.items())))

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "median": self.median, "p10": self.low, "p90": self.high,
                "min": self.shortest, "max": self.longest}


@dataclass(frozen=True)
class Balance:
    """What one group's games say."""

    title: str
    rules: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    bots: tuple[str, ...]
    swap: bool
    games: int
    wins: dict[str, Share]
    """Each seat's (or team's) games won alone, in seat order."""
    draws: Share
    bot_wins: dict[str, Share]
    """With different bots: each bot's games won alone, whichever seat it held."""
    points: dict[str, float]
    """Each seat's (or team's) average points."""
    lengths: Lengths
    humans: Human | None

    @property
    def fair(self) -> float:
        """The share of wins each side would have in a fair game without draws."""
        return 1 / len(self.wins) if self.wins else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "options": self.options, "seats": list(self.seats),
                "bots": list(self.bots), "swap": self.swap, "games": self.games,
                "wins": {side: rate.to_json() for side, rate in self.wins.items()},
                "fair_share": self.fair, "draws": self.draws.to_json(),
                "bot_wins": {bot: rate.to_json() for bot, rate in self.bot_wins.items()},
                "average_points": self.points, "moves": self.lengths.to_json(),
                "brainking_humans": None if self.humans is None else {
                    "games": self.humans.games, "first": self.humans.first,
                    "second": self.humans.second, "draws": self.humans.draws}}

    def text(self) -> str:
        lines = [safe(self.title), f"  {counted(self.games, 'game')}; a fair game gives "
                                   f"each of {len(self.wins)} {100 * self.fair:.2f} % of the wins"]
        width = max([len(safe(side)) for side in self.wins] + [5]) + 6
        for side, rate in self.wins.items():
            lines.append(f"  {safe(side) + ' wins':<{width}} {rate.text()}   "
                         f"average points {self.points[side]:.2f}")
        lines.append(f"  {'draws':<{width}} {self.draws.text()}")
        for bot, rate in self.bot_wins.items():
            lines.append(f"  {'bot ' + safe(bot) + ' wins':<{width}} {rate.text()}")
        if self.humans is not None:
            h = self.humans
            lines.append(f"  BrainKing's humans ({h.games} games): first seat "
                         f"{100 * h.first:.2f} %, second {100 * h.second:.2f} %, draws "
                         f"{100 * h.draws:.2f} %")
        n = self.lengths
        lines.append(f"  moves: mean {n.mean:.1f}, median {n.median:g}, 10-90 % {n.low}-"
                     f"{n.high}, shortest {n.shortest}, longest {n.longest}")
        return "\n".join(lines)


def groups_of(paths: Sequence[Path]) -> list[Group]:
    """The games of the results files ``paths``, grouped (each game once), in the order
    the groups first appear."""
    found: dict[str, Group] = {}
    for path in paths:
        run, games = read_results(path)
        key = _key(run)
        group = found.setdefault(key, Group(run.rules, run.options, run.seats, run.bots,
                                            run.swap))
        for game in games.values():
            group.games.setdefault((game.seed, tuple(game.bots[s] for s in run.seats)), game)
    return list(found.values())


def _key(run: Run) -> str:
    """What a group is: every parameter of a run but its first seed (a run resumed from
    another seed adds games of the same kind)."""
    return json.dumps([run.rules, {k: str(v) for k, v in run.options.items()},
                       list(run.seats), list(run.bots), run.swap], sort_keys=True)


def balance(paths: Sequence[Path]) -> list[Balance]:
    """The report of every group of the results files ``paths``."""
    return [group.report() for group in groups_of(paths)]


def balance_text(reports: Sequence[Balance]) -> str:
    return "\n\n".join(report.text() for report in reports) if reports else "(no games)"


# --- the page -------------------------------------------------------------------------


def balance_html(reports: Sequence[Balance]) -> str:
    """One page: for each group, its wins with their intervals against the fair share
    (and BrainKing's humans), and how long its games were, as charts and a table."""
    body = "".join(_section(report) for report in reports) or "<p>No games.</p>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>frogpbem balance</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0; }}
td, th {{ padding: 0.2em 0.7em; text-align: right; border-bottom: 1px solid #ddd; }}
td:first-child, th:first-child {{ text-align: left; }}
svg .bar {{ fill: #9cf; }} svg .ci {{ stroke: #036; stroke-width: 2; }}
svg .fair {{ stroke: #c33; stroke-dasharray: 4 3; }} svg .human {{ fill: #c60; }}
svg .axis {{ stroke: #aaa; }} svg text {{ font-size: 10px; fill: #444; }}
</style></head><body>
<h1>Balance</h1>
<p>Games between bots played by <code>frogpbem simulate</code>: each side's share of the
games it won alone, with its 95&nbsp;% Wilson interval; the dashed line is the share a
fair game gives each side; orange marks are BrainKing's human players.</p>
{body}</body></html>
"""


def _section(report: Balance) -> str:
    rows = "".join(_row(f"{side} wins", rate, f"{report.points[side]:.2f}")
                   for side, rate in report.wins.items())
    rows += _row("draws", report.draws)
    rows += "".join(_row(f"bot {bot} wins", rate) for bot, rate in report.bot_wins.items())
    n = report.lengths
    return (f"<section><h2>{escape(report.title)}</h2>\n<p>{report.games} games.</p>\n"
            f"{_shares_chart(report)}{_lengths_chart(report)}\n"
            "<table><tr><th></th><th>games</th><th>share</th><th>95&nbsp;% interval</th>"
            f"<th>average points</th></tr>\n{rows}</table>\n"
            f"<p>Moves: mean {n.mean:.1f}, median {n.median:g}, 10–90&nbsp;% {n.low}–{n.high},"
            f" shortest {n.shortest}, longest {n.longest}.</p></section>\n")


def _row(label: str, share: Share, points: str = "") -> str:
    """A line of a section's table: what is counted, its games, share and interval."""
    return (f"<tr><td>{escape(label)}</td><td>{share.games}</td><td>{100 * share.share:.2f}"
            f"&nbsp;%</td><td>{100 * share.low:.2f} – {100 * share.high:.2f}&nbsp;%</td>"
            f"<td>{points}</td></tr>\n")


def _shares_chart(report: Balance) -> str:
    """Bars of each side's win share (and the draws) with interval whiskers, 0 to 100 %."""
    entries = [*report.wins.items(), ("draws", report.draws)]
    width, height, left, bar = 60 * len(entries) + 50, 180, 40, 36

    def y(share: float) -> float:
        return 160 - 150 * share

    humans = report.humans
    marks = [humans.first, humans.second, humans.draws] if humans is not None else []
    parts = [f'<line class="axis" x1="{left}" y1="{y(0)}" x2="{width}" y2="{y(0)}"/>',
             f'<text x="2" y="{y(1) + 4}">100 %</text><text x="2" y="{y(0.5) + 4}">50 %</text>'
             f'<text x="2" y="{y(0) + 4}">0 %</text>']
    for index, (label, rate) in enumerate(entries):
        x = left + 10 + 60 * index
        parts.append(f'<rect class="bar" x="{x}" y="{y(rate.share):.1f}" width="{bar}" '
                     f'height="{y(0) - y(rate.share):.1f}"><title>{escape(label)}: '
                     f'{100 * rate.share:.2f} %</title></rect>')
        parts.append(f'<line class="ci" x1="{x + bar / 2}" y1="{y(rate.low):.1f}" '
                     f'x2="{x + bar / 2}" y2="{y(rate.high):.1f}"/>')
        parts.append(f'<text x="{x}" y="{height - 4}">{escape(label[:9])}</text>')
        if index < len(marks):
            parts.append(f'<circle class="human" cx="{x + bar / 2}" cy="{y(marks[index]):.1f}"'
                         f' r="4"><title>BrainKing humans: {100 * marks[index]:.2f} %</title>'
                         "</circle>")
    parts.append(f'<line class="fair" x1="{left}" y1="{y(report.fair):.1f}" x2="{width}" '
                 f'y2="{y(report.fair):.1f}"/>')
    return (f'<svg class="shares" width="{width}" height="{height}" role="img" '
            f'aria-label="wins by side">{"".join(parts)}</svg>\n')


def _lengths_chart(report: Balance) -> str:
    """A histogram of the games' lengths in moves."""
    counts = report.lengths.counts
    if not counts:
        return ""
    shortest, longest = counts[0][0], counts[-1][0]
    most = max(n for _, n in counts)
    span = max(1, longest - shortest + 1)
    width, height = 320, 180
    step = 280 / span
    parts = [f'<line class="axis" x1="30" y1="160" x2="{width}" y2="160"/>',
             f'<text x="30" y="{height - 4}">{shortest}</text>'
             f'<text x="{width - 30}" y="{height - 4}">{longest} moves</text>']
    for length, n in counts:
        h = 150 * n / most
        parts.append(f'<rect class="bar" x="{30 + step * (length - shortest):.1f}" '
                     f'y="{160 - h:.1f}" width="{max(1.0, step - 1):.1f}" height="{h:.1f}">'
                     f'<title>{length} moves: {n} games</title></rect>')
    return (f'<svg class="lengths" width="{width}" height="{height}" role="img" '
            f'aria-label="game lengths">{"".join(parts)}</svg>\n')
