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
from pathlib import Path
from typing import Any

from frogpbem.errors import FileAccessError, FrogPbemError, UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.document import write_atomic
from frogpbem.games import (
    STRENGTHS,
    GameView,
    Outcome,
    Paint,
    SomeRuleset,
    bot_move,
    find_game,
)
from frogpbem.safetext import counted


def play_local(rules: SomeRuleset, options: dict[str, Any], seats: Sequence[str],
               bots: dict[str, str], rng: random.Random,
               moves: list[str] | None = None) -> tuple[Outcome, dict[str, int]]:
    """One whole game between bots (seat to strength); its outcome and points. Each move
    is added to ``moves`` (``red shoot G9 {2}``: seat, move, result), if given."""
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
        text = bot_move(rules, rules.view(state, team_of(rules, options, seats, seat)), seat,
                        rng, bots[seat])
        state, result = rules.play(state, seat, rules.parse_move(text))
        if moves is not None:
            moves.append(f"{seat} {text} {{{rules.comment_record(result)}}}")
    outcome = rules.outcome(state)
    if outcome is None:
        raise RuntimeError("a local game did not end in 10,000 moves")
    return outcome, {place.seat: place.points for place in outcome.standing}


def team_of(rules: SomeRuleset, options: dict[str, Any], seats: Sequence[str],
            seat: str) -> frozenset[str]:
    """The seats whose hidden pieces ``seat`` sees: itself and its teammates."""
    return frozenset(s for s in seats if s in rules.secret_readers(options, seat)) | {seat}


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

    def share(self, count: int) -> Share:
        low, high = wilson(count, self.games)
        return Share(count, count / self.games if self.games else 0.0, low, high)

    def average(self, seat: str) -> float:
        return self.points.get(seat, 0) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "games": self.games, "bots": self.bots,
                "swapped": self.swap,
                "wins": {seat: self.share(self.wins.get(seat, 0)).to_json()
                         for seat in self.seats},
                "draws": self.share(self.draws).to_json(),
                "bot_wins": {bot: self.share(n).to_json()
                             for bot, n in sorted(self.bot_wins.items())},
                "average_points": {seat: self.average(seat) for seat in self.points}}

    def table(self) -> str:
        lines = [f"{counted(self.games, 'game')} of {self.rules}, "
                 + ", ".join(f"{seat}: {bot}" for seat, bot in self.bots.items())
                 + (" (the bots change seats every other game)" if self.swap else ""),
                 "", f"{'':<22}{'games':>7}{'share':>9}   95 % interval"]
        rows = [(f"{seat} wins", self.wins.get(seat, 0)) for seat in self.seats]
        rows.append(("draws", self.draws))
        if len(set(self.bots.values())) > 1:
            rows += [(f"bot {bot} wins", n) for bot, n in sorted(self.bot_wins.items())]
        for label, count in rows:
            item = self.share(count)
            lines.append(f"{label:<22}{item.games:>7}{100 * item.share:>8.2f}%   "
                         f"{100 * item.low:.2f} - {100 * item.high:.2f} %")
        lines.append("")
        lines.append("average points: " + ", ".join(
            f"{seat} {self.average(seat):.2f}" for seat in self.points))
        return "\n".join(lines)


@frozen
class Share:
    """A count of games, its share of all games, and the 95 % interval of that share."""

    games: int
    share: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"games": self.games, "share": self.share, "low": self.low, "high": self.high}


def simulate(rules_name: str, games: int, bots: Sequence[str], seed: int = 0,
             options: dict[str, str] | None = None, seats: int | None = None,
             swap: bool = False, progress: Callable[[int], None] | None = None,
             records: Path | None = None) -> Tally:
    """Play ``games`` local games; game ``i`` is dealt and played from seed ``seed + i``.

    With ``records``, each game's moves are written there (``game-0001.txt``).
    """
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
    if records is not None:
        _make_folder(records)  # before the games: a wrong path is told at once
    for index in range(games):
        order = list(given)
        if swap and index % 2 and len(order) == 2:
            order.reverse()
        playing = dict(zip(names, order, strict=True))
        moves: list[str] = []
        outcome, points = play_local(rules, opts, names, playing, random.Random(seed + index),
                                     moves)
        if records is not None:
            heading = (f"{rules.title}, seed {seed + index}, "
                       + ", ".join(f"{s}: {b}" for s, b in playing.items()))
            write_atomic(records / f"game-{index + 1:04d}.txt", (
                "\n".join([heading, "", *moves, "", f"{outcome.termination}; "
                           f"{outcome.standing_text()}"]) + "\n").encode(), durable=False)
        # a bot's win counts for the bot; with two equal bots, for the seat
        tally.add(outcome, points, playing if len(set(order)) > 1 else {})
        if progress is not None:
            progress(index + 1)
    return tally


def _make_folder(folder: Path) -> None:
    """``folder`` and its parents, made if missing; raises :class:`FileAccessError`."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise FileAccessError("--records: is not a folder", path=folder) from None
    except OSError as exc:
        raise FileAccessError(f"--records: cannot make this folder: {exc.strerror}",
                              path=folder) from None


def play_terminal(rules_name: str, human: str | None, bot: str, seed: int | None,
                  ask: Callable[[str], str], say: Callable[[str], None],
                  options: dict[str, str] | None = None, seats: int | None = None,
                  paint: Callable[[GameView, tuple[str, str] | None], Paint | None] | None = None,
                  ) -> Outcome | None:
    """A game on a terminal: the player holds ``human`` (the first seat by default), bots
    of strength ``bot`` the others, and the referee is this function. Nothing is written.

    ``ask`` reads the player's move (``quit`` leaves); ``say`` shows a line; ``paint``
    gives a board's colours, if the terminal takes them. Returns the outcome, or
    ``None`` if the player left.
    """
    rules = find_game(rules_name)
    opts = rules.options(options or {})
    names = rules.seats(opts, seats or len(rules.seat_order))
    human = human or names[0]
    if human not in names:
        raise UsageError(f"--seat {human!r}: this game's seats are {', '.join(names)}")
    if bot not in STRENGTHS:
        raise UsageError(f"--vs {bot!r}: give bot, or one of {', '.join(STRENGTHS)}")
    rng = random.Random(seed)
    public, secrets = rules.deal(opts, names, rng)
    state = rules.start(opts, names, public, secrets)

    def team(seat: str) -> frozenset[str]:
        return team_of(rules, opts, names, seat)

    last: tuple[str, str] | None = None
    say(f"{rules.title}: you are {human}; bots ({bot}) play "
        f"{', '.join(s for s in names if s != human)}. Type a move, or quit.")
    while (seat := rules.to_move(state)) is not None:
        auto = rules.automatic(state)
        if auto is not None:
            state, result = rules.play(state, seat, auto)
            say(f"  {rules.describe(seat, rules.public_move(auto), result)}")
            continue
        if seat != human:
            text = bot_move(rules, rules.view(state, team(seat)), seat, rng, bot)
            move = rules.parse_move(text)
            state, result = rules.play(state, seat, move)
            last = (seat, rules.public_move(move))
            say(f"  {rules.describe(seat, last[1], result)}")
            continue
        board = rules.view(state, team(human))
        points = rules.scores(state)
        say("")
        say(rules.render(board, team(human), paint(board, last) if paint else None))
        if points:
            say("Points: " + ", ".join(f"{s} {p}" for s, p in points.items()))
        text = ask(f"your move ({human})").strip()
        if text.lower() in ("quit", "exit", "q"):
            say("You leave the game.")
            return None
        try:
            move = rules.parse_move(text)
            state, result = rules.play(state, seat, move)
        except FrogPbemError as exc:
            say(f"  {exc.message}")
            continue
        last = (seat, rules.public_move(move))
        say(f"  {rules.describe(seat, last[1], result)}")
    outcome = rules.outcome(state)
    if outcome is None:
        return None
    every = frozenset(names)
    say("")
    say(rules.render(rules.view(state, every), every, None))
    say(f"Game over: {outcome.termination}. {outcome.standing_text()}")
    return outcome
