"""Ratings over audited games: only a game whose audit holds is counted.

Each file is audited (:func:`frogpbem.audit.audit`); a game that holds and is
finished gives its :class:`~frogpbem.audit.GameResult`, every other file is
listed with the reason it is not counted. The games are then rated in the order
they ended (then by game id) with openskill (PlackettLuce unless told): each place
of a game is one openskill team (a team's seats together), ties share a rank.

A player is their key (the ``ssh-ed25519 AAAA…`` part of the key line, whatever
the comment), shown by the name of their latest game.

The audits are slow (Ed25519 checks, strict YAML):
:class:`~frogpbem.verdicts.AuditCache` keeps this machine's own verdicts, by the
SHA-256 of the file's bytes and frogpbem's code (``frogpbem audit`` keeps them too),
so that a game audited once is not audited again.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from frogpbem.audit import GameResult, Report, audit
from frogpbem.errors import FrogPbemError
from frogpbem.gamefile.document import read_bytes
from frogpbem.protocol.times import SKEW, Clock, seconds_of
from frogpbem.safetext import counted, safe
from frogpbem.verdicts import AuditCache, result_to_json

MODELS = ("PlackettLuce", "BradleyTerryFull", "BradleyTerryPart", "ThurstoneMostellerFull",
          "ThurstoneMostellerPart")
"""The openskill models a rating may use (openskill's own names)."""

VIEW_FILE = "a view file (a seat's view of a game, not the game)"


# --- the files ------------------------------------------------------------------------


def game_files(paths: Iterable[Path]) -> list[Path]:
    """The files to rate: each file given, and each folder's ``*.yaml`` files (not in
    its subfolders, nor the views written beside each game), in name order; duplicates
    once. A view file given by name is listed as not counted."""
    found: list[Path] = []
    for path in paths:
        found += sorted(p for p in path.glob("*.yaml") if not p.name.endswith(".view.yaml")) \
            if path.is_dir() else [path]
    return list(dict.fromkeys(found))


@dataclass(frozen=True)
class Counted:
    """A game counted: the file and what its audit found it decided."""

    path: str
    result: GameResult


@dataclass(frozen=True)
class NotCounted:
    """A file not counted, and why."""

    path: str
    reason: str


# --- auditing -------------------------------------------------------------------------


@dataclass
class Audited:
    """The games counted, the files not counted, and what the auditing cost."""

    counted: list[Counted] = field(default_factory=list)
    not_counted: list[NotCounted] = field(default_factory=list)
    audited: int = 0
    """Files audited now."""
    cached: int = 0
    """Files whose verdict came from the cache."""
    seconds: float = 0.0


def audit_files(paths: Sequence[Path], *, clock: Clock, cache: AuditCache | None = None,
                jobs: int = 0) -> Audited:
    """Each file's verdict: from ``cache`` for bytes it holds, else audited now, in
    ``jobs`` processes (0: one for each processor)."""
    start = time.perf_counter()
    done = Audited()
    verdicts: dict[str, GameResult | NotCounted] = {}
    pending: list[tuple[Path, str, bool]] = []
    now = clock.now()
    for path in paths:
        if path.name.endswith(".view.yaml"):
            verdicts[str(path)] = NotCounted(str(path), VIEW_FILE)
            continue
        try:
            data = read_bytes(path)
        except FrogPbemError as exc:
            verdicts[str(path)] = NotCounted(str(path), _reason(exc))
            continue
        digest = hashlib.sha256(data).hexdigest()
        kept = cache.get(digest) if cache is not None else None
        if kept is not None and seconds_of(kept.ended) - now <= SKEW:
            verdicts[str(path)] = kept
            done.cached += 1
        else:
            pending.append((path, digest, _is_duel(data)))
    for (path, digest, _), outcome in zip(pending, _audit_all(pending, clock, jobs),
                                          strict=True):
        done.audited += 1
        verdicts[str(path)] = outcome
        if cache is not None and isinstance(outcome, GameResult):
            cache.put(digest, outcome)
    for path in paths:
        verdict = verdicts[str(path)]
        if isinstance(verdict, NotCounted):
            done.not_counted.append(verdict)
        else:
            done.counted.append(Counted(str(path), verdict))
    if cache is not None:
        cache.save()
    done.seconds = time.perf_counter() - start
    return done


def _is_duel(data: bytes) -> bool:
    from frogpbem.gamefile.duelfile import is_duel

    try:
        return is_duel(data)
    except FrogPbemError:
        return False  # the audit says what is wrong with it


def _reason(exc: FrogPbemError) -> str:
    """An error as one line (it may quote the file), without the file's name."""
    return safe(": ".join(part for part in (exc.element, exc.message) if part))


def _audit_all(pending: Sequence[tuple[Path, str, bool]], clock: Clock,
               jobs: int) -> list[GameResult | NotCounted]:
    """:func:`_verdict` of each, in ``jobs`` processes (0: one for each processor).

    Like :func:`frogpbem.audit.audit_many`, but a file that cannot be read is one verdict
    among the others (``audit_many`` raises for it, stopping every other file)."""
    workers = min(jobs if jobs > 0 else os.cpu_count() or 1, len(pending))
    work = functools.partial(_verdict, clock, len(pending) > 1)
    if workers <= 1:
        return [work(item) for item in pending]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return [work(item) for item in pending]
    from frogpbem.gamefile import yamlevents  # noqa: F401  (loaded once, before the fork)

    chunk = max(1, len(pending) // (4 * workers))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(work, pending, chunksize=chunk))


def _verdict(clock: Clock, bulk: bool, item: tuple[Path, str, bool]
             ) -> GameResult | NotCounted:
    """The result of the game in ``item`` (a path, the digest of the bytes read before, and
    whether they are a game without a referee), or why it is not counted; a file whose
    bytes changed meanwhile is not counted."""
    path, digest, duel = item
    try:
        if duel:
            from frogpbem.duel.audit import audit_duel

            report = audit_duel(path, clock=clock)
        else:
            report = audit(path, clock=clock, bulk=bulk)
    except FrogPbemError as exc:
        return NotCounted(str(path), _reason(exc))
    if report.digest != digest:
        return NotCounted(str(path), "the file changed while it was audited: run again")
    return report.result if report.result is not None else NotCounted(str(path), _why(report))


def _why(report: Report) -> str:
    """Why a report gives no result: unfinished, or the first check that failed."""
    if report.ok:
        return "unfinished: " + report.verdict if report.unfinished else report.verdict
    failed = next(check.what for check in report.checks if not check.ok)
    return f"{report.verdict}: {safe(failed.splitlines()[0])}"


# --- rating ---------------------------------------------------------------------------


def key_of(line: str) -> str:
    """A player's identity: the key line without its comment."""
    return " ".join(line.split()[:2])


def fingerprint(key: str) -> str:
    """``SHA256:`` and the first 8 characters of the key's fingerprint (as ssh-keygen)."""
    try:
        blob = base64.b64decode(key.split()[1], validate=True)
    except (IndexError, ValueError):
        blob = key.encode()
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode()[:8]


@dataclass(frozen=True)
class Point:
    """A player's rating after one game."""

    game: str
    ended: str
    mu: float
    sigma: float


@dataclass
class Player:
    """A player's rating, record and history."""

    key: str
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    """Wins, draws and losses count the two-seat games only."""
    places: list[int] = field(default_factory=list)
    """The place (rank) in each game of more than two seats."""
    history: list[Point] = field(default_factory=list)
    shown: str = ""
    """The name as shown: with a short fingerprint when another player has it too."""

    @property
    def rating(self) -> float:
        """The displayed rating: openskill's ordinal, mu − 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def average_place(self) -> float | None:
        return sum(self.places) / len(self.places) if self.places else None

    def to_json(self, rank: int) -> dict[str, Any]:
        return {"rank": rank, "name": self.name, "shown": self.shown, "key": self.key,
                "fingerprint": fingerprint(self.key), "rating": self.rating, "mu": self.mu,
                "sigma": self.sigma, "games": self.games, "wins": self.wins,
                "draws": self.draws, "losses": self.losses,
                "average_place": self.average_place,
                "history": [{"game": p.game, "ended": p.ended, "mu": p.mu, "sigma": p.sigma}
                            for p in self.history]}


@dataclass(frozen=True)
class Cost:
    """What a run of ``ratings`` cost: seconds auditing (or reading kept verdicts) and
    rating, and how many files were audited and how many verdicts came from the cache."""

    audit: float = 0.0
    rating: float = 0.0
    audited: int = 0
    cached: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"audit": self.audit, "rating": self.rating, "audited": self.audited,
                "cached": self.cached}


@dataclass
class Ratings:
    """Everything ``ratings`` shows: the players best first, the games counted in the
    order they were rated, the files not counted, and the time each part took."""

    model: str
    players: list[Player]
    counted: list[Counted]
    not_counted: list[NotCounted]
    timing: Cost
    initial: tuple[float, float]
    """A new player's mu and sigma."""

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "initial": {"mu": self.initial[0],
                                                 "sigma": self.initial[1]},
                "players": [p.to_json(i) for i, p in enumerate(self.players, 1)],
                "games": [{"file": c.path, **result_to_json(c.result)} for c in self.counted],
                "not_counted": [{"file": n.path, "reason": n.reason} for n in self.not_counted],
                "timing": self.timing.to_json()}


def model_of(name: str) -> Any:
    """The openskill model named ``name`` (one of :data:`MODELS`)."""
    from openskill import models

    if name not in MODELS:
        from frogpbem.errors import UsageError

        raise UsageError(f"no rating model {name!r}: give one of {', '.join(MODELS)}")
    return getattr(models, name)()


def rate(games: Sequence[Counted], model: str = "PlackettLuce"
         ) -> tuple[list[Player], list[Counted], list[NotCounted], tuple[float, float]]:
    """Rate the games in the order they ended (then by game id): the players best first,
    the games rated in order, and the copies not counted twice (a game is its header)."""
    rater = model_of(model)
    order = sorted(games, key=lambda c: (c.result.ended, c.result.game, c.result.header,
                                           c.path))
    players: dict[str, Player] = {}
    ratings: dict[str, Any] = {}
    rated: list[Counted] = []
    skipped: list[NotCounted] = []
    first: dict[str, Counted] = {}
    for game in order:
        result = game.result
        copy = first.get(result.header)
        if copy is not None:
            other = "" if copy.result == result else \
                ", with another result: the referee signed two ends (see verify --against)" \
                if result.referee else ", with another result: two histories were signed"
            skipped.append(NotCounted(game.path, f"another copy of game {result.game} "
                                                 f"(counted once, from {copy.path}){other}"))
            continue
        keys = {seat.seat: key_of(seat.key) for seat in result.seats}
        if len(set(keys.values())) < len(keys):
            skipped.append(NotCounted(game.path, "one player holds two seats"))
            continue
        first[result.header] = game
        rated.append(game)
        for seat in result.seats:
            key = keys[seat.seat]
            if key not in players:
                ratings[key] = rater.rating()
                players[key] = Player(key, seat.name, ratings[key].mu, ratings[key].sigma)
            players[key].name = seat.name  # the latest name
        teams = [[ratings[keys[name]] for name in seats] for _, seats in result.places]
        ranks = [rank for rank, _ in result.places]
        if len(teams) > 1:
            new = rater.rate(teams, ranks=ranks)
            for (_, seats), team in zip(result.places, new, strict=True):
                for name, rating in zip(seats, team, strict=True):
                    ratings[keys[name]] = rating
        _tally(players, keys, result)
        for key in keys.values():
            players[key].history.append(Point(result.game, result.ended, ratings[key].mu,
                                              ratings[key].sigma))
    for key, player in players.items():
        player.mu, player.sigma = ratings[key].mu, ratings[key].sigma
    _show_names(players.values())
    best = sorted(players.values(), key=lambda p: (-p.rating, -p.mu, p.shown, p.key))
    start = rater.rating()
    return best, rated, skipped, (start.mu, start.sigma)


def _tally(players: dict[str, Player], keys: dict[str, str], result: GameResult) -> None:
    """Each seated player's games, record and history after ``result``."""
    two = len(result.seats) == 2
    for seat in result.seats:
        player = players[keys[seat.seat]]
        player.games += 1
        rank = result.rank_of(seat.seat)
        if two:
            other = next(result.rank_of(s.seat) for s in result.seats if s.seat != seat.seat)
            player.wins += rank < other
            player.draws += rank == other
            player.losses += rank > other
        else:
            player.places.append(rank)


def _show_names(players: Iterable[Player]) -> None:
    """Each player's name as shown: with a short fingerprint when two players share it."""
    everyone = list(players)
    counts: dict[str, int] = {}
    for player in everyone:
        counts[player.name] = counts.get(player.name, 0) + 1
    for player in everyone:
        player.shown = player.name if counts[player.name] == 1 else \
            f"{player.name} ({fingerprint(player.key)})"


def rate_files(paths: Sequence[Path], *, clock: Clock, cache: AuditCache | None = None,
               jobs: int = 0, model: str = "PlackettLuce") -> Ratings:
    """Audit ``paths`` (each from ``cache`` where it holds the bytes) and rate the games
    that hold and are finished; every other file is listed, with its reason."""
    model_of(model)  # an unknown model is refused before any audit
    audited = audit_files(paths, clock=clock, cache=cache, jobs=jobs)
    start = time.perf_counter()
    players, rated, twice, initial = rate(audited.counted, model)
    rating = time.perf_counter() - start
    timing = Cost(audited.seconds, rating, audited.audited, audited.cached)
    return Ratings(model, players, rated, audited.not_counted + twice, timing, initial)


# --- what is shown --------------------------------------------------------------------


def ratings_text(table: Ratings) -> str:
    """The table (rank, name, rating, mu ± sigma, games, record), the files not counted,
    and what the work cost."""
    width = max([len(safe(p.shown)) for p in table.players] + [4])
    lines = [f"{'#':>4}  {'name':<{width}}  {'rating':>7}  {'mu':>6} {'± sigma':>8}  "
             f"{'games':>5}  record"]
    for rank, player in enumerate(table.players, 1):
        lines.append(f"{rank:>4}  {safe(player.shown):<{width}}  {player.rating:>7.2f}  "
                     f"{player.mu:>6.2f} ± {player.sigma:>6.2f}  {player.games:>5}  "
                     f"{_record(player)}")
    if not table.players:
        lines.append("  (no game counted)")
    if table.not_counted:
        lines.append(f"not counted ({len(table.not_counted)}):")
        lines += [f"  {safe(n.path)}: {n.reason}" for n in table.not_counted]
    timing = table.timing
    lines.append(f"{counted(len(table.counted), 'game')} counted, "
                 f"{counted(len(table.not_counted), 'file')} not "
                 f"counted; {table.model}, rating = mu - 3 sigma; audit "
                 f"{timing.audit:.1f} s ({timing.audited} audited, {timing.cached} "
                 f"from the cache), rating {timing.rating:.1f} s")
    return "\n".join(lines)


def _record(player: Player) -> str:
    """Wins-draws-losses in two-seat games, and the average place in the others."""
    parts = []
    if player.wins or player.draws or player.losses:
        parts.append(f"{player.wins}-{player.draws}-{player.losses} (w-d-l)")
    if player.places:
        parts.append(f"average place {player.average_place:.2f} in {len(player.places)}")
    return ", ".join(parts)


def ratings_html(table: Ratings) -> str:
    """A page of its own (no script, nothing fetched): the table, and each player's
    rating after each game (mu, with its ± sigma band), all on one scale."""
    points = [(p.mu, p.sigma) for player in table.players for p in player.history]
    points.append(table.initial)
    low = min(mu - sigma for mu, sigma in points)
    high = max(mu + sigma for mu, sigma in points)
    rows = "".join(
        f"<tr><td>{rank}</td><td><a href='#p{rank}'>{escape(player.shown)}</a></td>"
        f"<td>{player.rating:.2f}</td><td>{player.mu:.2f} ± {player.sigma:.2f}</td>"
        f"<td>{player.games}</td><td>{escape(_record(player))}</td></tr>\n"
        for rank, player in enumerate(table.players, 1))
    charts = "".join(
        f"<figure id='p{rank}'><figcaption>{rank}. {escape(player.shown)} "
        f"<small>{escape(fingerprint(player.key))}</small></figcaption>"
        f"{_chart(player, table.initial, low, high)}</figure>\n"
        for rank, player in enumerate(table.players, 1))
    skipped = "".join(f"<li><code>{escape(n.path)}</code>: {escape(n.reason)}</li>\n"
                      for n in table.not_counted)
    timing = table.timing
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>frogpbem ratings</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; color: #222; }}
table {{ border-collapse: collapse; }}
td, th {{ padding: 0.2em 0.7em; text-align: right; border-bottom: 1px solid #ddd; }}
td:nth-child(2), th:nth-child(2), td:last-child, th:last-child {{ text-align: left; }}
figure {{ display: inline-block; margin: 0.5em; }}
figcaption {{ font-size: 0.9em; }}
svg .band {{ fill: #9cf; opacity: 0.5; }} svg .mu {{ fill: none; stroke: #036; }}
svg .axis {{ stroke: #aaa; }} svg text {{ font-size: 9px; fill: #666; }}
</style></head><body>
<h1>Ratings</h1>
<p>{len(table.counted)} games counted, each audited ({escape(table.model)}; rating =
mu &minus; 3&nbsp;sigma; every player starts at mu {table.initial[0]:.2f}, sigma
{table.initial[1]:.2f}). Audit {timing.audit:.1f}&nbsp;s, rating
{timing.rating:.1f}&nbsp;s.</p>
<table><tr><th>#</th><th>name</th><th>rating</th><th>mu ± sigma</th><th>games</th>
<th>record</th></tr>
{rows}</table>
<h2>Each player's rating, game after game</h2>
<p>The line is mu after each game, the band mu ± sigma; every chart has the same scale
({low:.1f} to {high:.1f}).</p>
{charts}<h2>Not counted</h2>
<ul>
{skipped or "<li>none</li>"}</ul>
</body></html>
"""


def _chart(player: Player, initial: tuple[float, float], low: float, high: float) -> str:
    """A small SVG chart of ``player``'s mu (a line) and mu ± sigma (a band)."""
    width, height, pad = 240, 90, 4
    series = [initial] + [(p.mu, p.sigma) for p in player.history]
    step = (width - 2 * pad) / max(1, len(series) - 1)
    span = high - low or 1.0

    def y(value: float) -> str:
        return f"{pad + (high - value) / span * (height - 2 * pad):.1f}"

    xs = [f"{pad + i * step:.1f}" for i in range(len(series))]
    upper = [f"{x},{y(mu + sigma)}" for x, (mu, sigma) in zip(xs, series, strict=True)]
    lower = [f"{x},{y(mu - sigma)}" for x, (mu, sigma) in zip(xs, series, strict=True)]
    line = [f"{x},{y(mu)}" for x, (mu, _) in zip(xs, series, strict=True)]
    start = y(initial[0])
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}' role='img'><title>mu after each of "
            f"{len(player.history)} games</title>"
            f"<line class='axis' x1='{pad}' x2='{width - pad}' y1='{start}' y2='{start}'/>"
            f"<polygon class='band' points='{' '.join(upper + lower[::-1])}'/>"
            f"<polyline class='mu' points='{' '.join(line)}'/></svg>")
