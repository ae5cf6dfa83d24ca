"""Who meets whom in each round of a tournament: pure functions of the recorded results.

Verify re-runs these functions on the results a tournament file records and requires each
round to equal what they give, so each is a deterministic function of its arguments alone
(no randomness, no dict or set order, exact integers and fractions only).

PAIRING RULES (copied into docs/format.md)

Players are seed numbers 1..N (the order of the player list). A player's *score* is the sum
of the points of their games plus ``bye_points`` (1) for each bye. A game's seat order is
``players``: the first seat moves first ("white"). A player's *colour difference* is their
first seats minus their second seats in two-seat games so far; their *seat history* is the
seats of their two-seat games in round order (byes skipped), and a *third same seat in a
row* is taking the seat of each of their last two games in it. *Standings order*: score
descending, then seed number ascending.

Round robin (``round_robin``): FIDE Berger tables (C.05 Annex 1). With n players (n+1 if n
is odd: the extra number is a dummy, and whoever meets it has the bye), in round r (1-based)
let p = ((r-1)*n/2 mod (n-1)) + 1. Board 1 is p against n, n taking the first seat in even
rounds and the second in odd ones; board k+1 (k = 1..n/2-1) is p+k (first seat) against p-k,
both counted modulo n-1 in 1..n-1. A second cycle repeats the first with the seats swapped
(a third repeats the first as it was, and so on).

Swiss (``swiss``), two seats. Hard rules: no two players meet twice; nobody has a second
bye; every colour difference stays within -2..+2; with an odd number of players exactly one
player has the bye. Seats in a game of a and b: of the two orders allowed by the colour
limit, take the one that (1) gives fewer of the two a third same seat in a row, then (2)
puts the lower colour difference first, then (3) reverses the seats of the latest round in
which the two sat in different seats, then (4) puts the lower seed number first, except
between two players who have no two-seat game yet (the first round): there the lower
seed number takes the first seat on odd boards and the second on even ones. Among the
rounds the hard rules allow, the one chosen is the best by, in this order:
  1. fewest players given a third same seat in a row;
  2. the lowest score for the player with the bye;
  3. fewest games between players of different scores;
  4. the least sum over games of the squared score difference;
  5. the least colour-preference cost: each player with colour difference below 0 who gets
     the second seat, or above 0 who gets the first, costs 2; each with colour difference 0
     who gets the same seat as in their last game costs 1;
  6. the least sum, over games between players of equal score, of |(j - i) - g // 2|,
     where i < j are the two players' places (0-based, by seed) in their score group of
     g players (the Dutch "top half meets bottom half");
  7. the highest seed number for the player with the bye;
  8. the round whose games, each written (lower seed, higher seed) with the bye as
     (player, N+1), sorted, form the lexicographically smallest list.
It is found by one maximum-weight matching of maximum cardinality over the allowed games
(and the bye), with exact integer weights that encode 1-8 lexicographically (rule 8 by a
distinct power of two per game), so the optimum is unique. If no round meets the hard
rules, swiss raises UsageError. Boards: higher score of the two descending, then the lower
score descending, then the lower seed number ascending.

Tables (``tables``), Coan's game with up to ``seats`` seats. There are ceil(N/seats) tables
whose sizes differ by at most one (so tables of seats and seats-1 seats whenever
N >= seats*(seats-2)), never fewer than 2 seats: with 2 seats and an odd N one player has
the bye, the one with fewest byes so far, then the lowest score, then the highest seed
number, and the others are divided. The round minimises, in this order: the number of
earlier meetings of the players put at one table (a pair that met twice counts 2); the
sum, over pairs at one table, of the distance of their places (0-based) in the standings
order of the players divided;
then, among equals, the smallest list of tables (each a sorted tuple of seed numbers,
tables sorted). With at most 12 players (after any bye) every division is tried; with
more, the players are dealt into the tables in standings order (the first table, one of
the biggest, takes the top ones, and so on, bigger tables first),
and then, while one helps, the first swap of two players of different tables that
lowers (meetings, distance) is made, trying pairs (a, b) of standings places a < b in
order. Tables are listed by their best-placed player. Seats at a table: players ordered by
fewest first seats so far, then the highest sum of seat indices (0 = first) so far, then
seed number ascending.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from frogpbem.errors import UsageError

Player = int
"""A seed number, 1..N."""


@dataclass(frozen=True)
class Pairing:
    """One game of a round; ``players[0]`` takes the first seat (moves first, "white")."""

    players: tuple[int, ...]


@dataclass(frozen=True)
class Round:
    """One round: its games (top board first) and the players without a game (sorted)."""

    games: tuple[Pairing, ...]
    byes: tuple[int, ...]


@dataclass(frozen=True)
class Played:
    """One finished game as the pairing sees it: seat order as played, points each got."""

    players: tuple[int, ...]
    points: tuple[Fraction, ...]


@dataclass(frozen=True)
class PastRound:
    """One finished round: its games and its byes."""

    games: tuple[Played, ...]
    byes: tuple[int, ...]


BYE_POINTS = Fraction(1)
"""Tournament points a bye is worth."""

_Cost = Callable[[Iterable[int]], tuple[int, int]]
"""The (meetings, distance) of one table."""

_EXACT_TABLES = 12
"""Up to this many seated players, :func:`tables` tries every division into tables."""


# --- shared ---------------------------------------------------------------------------------


def scores(past: Sequence[PastRound], bye_points: Fraction = BYE_POINTS) -> dict[int, Fraction]:
    """Each player's score: the points of their games plus ``bye_points`` per bye.

    Only players that appear in ``past`` are keys; the others have 0.
    """
    total: dict[int, Fraction] = {}
    for rnd in past:
        for game in rnd.games:
            for player, got in zip(game.players, game.points, strict=True):
                total[player] = total.get(player, Fraction(0)) + Fraction(got)
        for player in rnd.byes:
            total[player] = total.get(player, Fraction(0)) + bye_points
    return total


def _check_count(count: int) -> None:
    if count < 2:
        raise UsageError(f"A tournament needs at least 2 players, not {count}.")


def _check_past(count: int, past: Sequence[PastRound], seats: int | None) -> None:
    """Every recorded player is in 1..count, at most once in a round, games of ``seats``."""
    for number, rnd in enumerate(past, 1):
        seen: list[int] = []
        for game in rnd.games:
            if len(game.points) != len(game.players) or len(game.players) < 2 \
                    or seats is not None and len(game.players) != seats:
                raise UsageError(f"Round {number} has a game that does not fit this pairing.")
            seen += game.players
        seen += rnd.byes
        if any(not 1 <= p <= count for p in seen) or len(set(seen)) != len(seen):
            raise UsageError(f"Round {number} names a player twice or one outside 1..{count}.")


def _standings(count: int, points: dict[int, Fraction]) -> list[int]:
    """Players 1..count by score descending, then seed number ascending."""
    return sorted(range(1, count + 1), key=lambda p: (-points.get(p, Fraction(0)), p))


# --- round robin ----------------------------------------------------------------------------


def round_robin_rounds(count: int, cycles: int = 1) -> int:
    """How many rounds a round robin of ``count`` players over ``cycles`` cycles has."""
    _check_count(count)
    if cycles < 1:
        raise UsageError(f"A round robin needs at least one cycle, not {cycles}.")
    return (count - 1 if count % 2 == 0 else count) * cycles


def round_robin(count: int, cycles: int = 1) -> list[Round]:
    """Every round of a round robin by the FIDE Berger tables (see the module's rules).

    With an odd ``count`` the number ``count + 1`` is a dummy: its opponent has the bye.
    The second cycle (and every even-numbered one) repeats the first with the seats swapped.
    """
    per_cycle = round_robin_rounds(count, 1)
    rounds_total = round_robin_rounds(count, cycles)
    n = count + count % 2
    first: list[Round] = []
    for r in range(1, per_cycle + 1):
        p = (r - 1) * (n // 2) % (n - 1) + 1
        boards = [(n, p) if r % 2 == 0 else (p, n)]
        for k in range(1, n // 2):
            boards.append(((p + k - 1) % (n - 1) + 1, (p - k - 1) % (n - 1) + 1))
        games = tuple(Pairing(b) for b in boards if max(b) <= count)
        byes = tuple(sorted(min(b) for b in boards if max(b) > count))
        first.append(Round(games, byes))
    swapped = [Round(tuple(Pairing(g.players[::-1]) for g in rnd.games), rnd.byes)
               for rnd in first]
    return [(first if c % 2 == 0 else swapped)[i]
            for c in range(rounds_total // per_cycle) for i in range(per_cycle)]


# --- swiss ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Seats:
    """What the Swiss pairing knows of each player: colour difference and seat history."""

    difference: dict[int, int]
    history: dict[int, list[int]]
    """Seats (0 first, 1 second) of each two-seat game, in round order."""
    rounds: dict[int, dict[int, int]]
    """For each player, round index -> seat, of their two-seat games."""


def _seats_of(count: int, past: Sequence[PastRound]) -> _Seats:
    difference = dict.fromkeys(range(1, count + 1), 0)
    history: dict[int, list[int]] = {p: [] for p in range(1, count + 1)}
    rounds: dict[int, dict[int, int]] = {p: {} for p in range(1, count + 1)}
    for index, rnd in enumerate(past):
        for game in rnd.games:
            for seat, player in enumerate(game.players):
                difference[player] += 1 if seat == 0 else -1
                history[player].append(seat)
                rounds[player][index] = seat
    return _Seats(difference, history, rounds)


def _third(history: list[int], seat: int) -> bool:
    """Whether taking ``seat`` gives a third same seat in a row."""
    return len(history) >= 2 and history[-1] == history[-2] == seat


def _seat_order(a: int, b: int, seats: _Seats) -> tuple[int, int] | None:
    """The seat order of a game of ``a`` and ``b`` by the module's rules, or None if
    neither order keeps both colour differences within -2..+2."""
    d, h = seats.difference, seats.history

    def key(x: int, y: int) -> tuple[int, int, int, int]:
        thirds = _third(h[x], 0) + _third(h[y], 1)
        lower = 0 if d[x] < d[y] else 1 if d[x] > d[y] else 0
        common = sorted(set(seats.rounds[x]) & set(seats.rounds[y]), reverse=True)
        latest = next((i for i in common if seats.rounds[x][i] != seats.rounds[y][i]), None)
        alternate = 0 if latest is None or seats.rounds[x][latest] == 1 else 1
        return thirds, lower, alternate, 0 if x < y else 1

    allowed = [(x, y) for x, y in ((a, b), (b, a)) if d[x] + 1 <= 2 and d[y] - 1 >= -2]
    return min(allowed, key=lambda order: key(*order)) if allowed else None


def _preference_cost(player: int, seat: int, seats: _Seats) -> int:
    """Rule 5: what giving ``player`` the ``seat`` (0 first, 1 second) costs."""
    diff = seats.difference[player]
    if diff < 0:
        return 2 * seat
    if diff > 0:
        return 2 * (1 - seat)
    history = seats.history[player]
    return 1 if history and history[-1] == seat else 0


def _group_places(points: dict[int, Fraction]) -> dict[int, tuple[int, int]]:
    """For rule 6: each player's place (0-based, by seed) in their score group, and the
    group's size."""
    groups: dict[Fraction, list[int]] = {}
    for player in sorted(points):
        groups.setdefault(points[player], []).append(player)
    return {p: (group.index(p), len(group)) for group in groups.values() for p in group}


def swiss(count: int, past: Sequence[PastRound]) -> Round:
    """The next Swiss round of players 1..``count`` after ``past`` (see the module's rules).

    Raises UsageError if no round meets the hard rules.
    """
    import networkx  # type: ignore[import-untyped]  # slow to import: only when needed

    _check_count(count)
    _check_past(count, past, 2)
    have = scores(past)
    points = {p: have.get(p, Fraction(0)) for p in range(1, count + 1)}
    seats = _seats_of(count, past)
    met = {frozenset(g.players) for rnd in past for g in rnd.games}
    had_bye = {p for rnd in past for p in rnd.byes}
    bye = count + 1
    scale = math.lcm(*(s.denominator for s in points.values()))
    levels = sorted(set(points.values()))
    places = _group_places(points)

    # Each candidate game (and the bye) with its costs 1..7 (all to minimise) and its order.
    candidates: list[tuple[tuple[int, int], tuple[int, ...], tuple[int, ...]]] = []
    for a, b in itertools.combinations(range(1, count + 1), 2):
        order = None if frozenset((a, b)) in met else _seat_order(a, b, seats)
        if order is None:
            continue
        first, second = order
        sa, sb = points[a], points[b]
        costs = (_third(seats.history[first], 0) + _third(seats.history[second], 1), 0,
                 int(sa != sb), int((scale * (sa - sb)) ** 2),
                 _preference_cost(first, 0, seats) + _preference_cost(second, 1, seats),
                 abs(abs(places[a][0] - places[b][0]) - places[a][1] // 2) if sa == sb else 0,
                 0)
        candidates.append(((a, b), costs, order))
    if count % 2:
        for p in range(1, count + 1):
            if p not in had_bye:
                costs = (0, levels.index(points[p]), 0, 0, 0, 0, count - p)
                candidates.append(((p, bye), costs, (p,)))

    candidates.sort()  # by edge: the tie-break of rule 8 follows this order
    weights = _lexicographic_weights([c for _, c, _ in candidates], (count + 1) // 2)
    graph = networkx.Graph()
    for (edge, _, _), weight in zip(candidates, weights, strict=True):
        graph.add_edge(*edge, weight=weight)
    matching = networkx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != count + count % 2:
        raise UsageError("No Swiss pairing of this round avoids a repeated game, a second "
                         "bye and a colour difference beyond 2.")
    chosen = {tuple(sorted(edge)) for edge in matching}
    orders = [order for edge, _, order in candidates if edge in chosen]
    games = [o for o in orders if len(o) == 2]
    games.sort(key=lambda g: (-max(points[g[0]], points[g[1]]),
                              -min(points[g[0]], points[g[1]]), min(g)))
    games = [_alternated(game, board, seats) for board, game in enumerate(games, 1)]
    return Round(tuple(Pairing(g) for g in games), tuple(sorted(o[0] for o in orders
                                                                if len(o) == 1)))


def _alternated(game: tuple[int, int], board: int, seats: _Seats) -> tuple[int, int]:
    """Rule (4) of the seats between two players with no two-seat game yet: the lower seed
    first on odd boards, second on even ones (the first round's colours alternate down the
    boards, as FIDE's Dutch system has them, rather than every top seed moving first)."""
    if seats.history[game[0]] or seats.history[game[1]]:
        return game
    low, high = sorted(game)
    return (low, high) if board % 2 else (high, low)


def _lexicographic_weights(costs: list[tuple[int, ...]], size: int) -> list[int]:
    """Integer weights, one per edge, such that among matchings of ``size`` edges the one of
    greatest weight has the lexicographically least tuple of summed ``costs``, and among
    those contains the earliest edge of the list that they differ in: edge i also weighs
    2**(len(costs) - 1 - i), which no sum of the others reaches, so no two matchings tie.

    Each cost k becomes a reward worst_k - cost (0..worst_k), weighed by a multiplier above
    ``size`` times every lower reward's worst, as digits of a mixed-radix number."""
    width = len(costs[0]) if costs else 0
    worst = [max(c[k] for c in costs) for k in range(width)]
    multipliers = [0] * width
    unit = 1 << len(costs)
    for k in reversed(range(width)):
        multipliers[k] = unit
        unit *= size * worst[k] + 1
    return [unit + sum(m * (w - c) for m, w, c in zip(multipliers, worst, cost, strict=True))
            + (1 << (len(costs) - 1 - i)) for i, cost in enumerate(costs)]


# --- tables (Coan) --------------------------------------------------------------------------


def _sizes(players: int, seats: int) -> list[int]:
    """Table sizes: ceil(players/seats) tables differing by at most one, bigger first."""
    tables_count = -(-players // seats)
    small, extra = divmod(players, tables_count)
    return [small + 1] * extra + [small] * (tables_count - extra)


def tables(count: int, seats: int, past: Sequence[PastRound]) -> Round:
    """The next round of Coan's game at tables of up to ``seats`` seats (module's rules)."""
    _check_count(count)
    if not 2 <= seats <= 6:
        raise UsageError(f"Tables have 2 to 6 seats, not {seats}.")
    _check_past(count, past, None)
    have = scores(past)
    standing = _standings(count, have)
    byes: tuple[int, ...] = ()
    if seats == 2 and count % 2:
        bye_count = {p: sum(p in rnd.byes for rnd in past) for p in standing}
        bye = min(standing, key=lambda p: (bye_count[p], have.get(p, Fraction(0)), -p))
        byes, standing = (bye,), [p for p in standing if p != bye]
    place = {p: i for i, p in enumerate(standing)}
    met: dict[tuple[int, int], int] = {}
    for rnd in past:
        for game in rnd.games:
            for pair in itertools.combinations(sorted(game.players), 2):
                met[pair] = met.get(pair, 0) + 1

    def cost(table: Iterable[int]) -> tuple[int, int]:
        pairs = list(itertools.combinations(sorted(table), 2))
        return (sum(met.get(pair, 0) for pair in pairs),
                sum(abs(place[a] - place[b]) for a, b in pairs))

    sizes = _sizes(len(standing), seats)
    if len(standing) <= _EXACT_TABLES:
        division = _best_division(standing, sizes, cost)
    else:
        division = _improved_division(standing, sizes, cost)
    division.sort(key=lambda t: min(place[p] for p in t))
    return Round(tuple(Pairing(_seat_table(t, past)) for t in division), byes)


def _divisions(players: list[int], sizes: dict[int, int]) -> Iterable[list[tuple[int, ...]]]:
    """Every division of ``players`` (sorted) into tables of the given sizes (size -> how
    many), once each: the lowest player not seated yet heads the next table."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for size in sorted(sizes):
        if not sizes[size]:
            continue
        left = {**sizes, size: sizes[size] - 1}
        for others in itertools.combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for division in _divisions(remaining, left):
                yield [(head, *others), *division]


def _total(division: Iterable[Iterable[int]], cost: _Cost) -> tuple[int, int]:
    meetings = distance = 0
    for table in division:
        m, s = cost(table)
        meetings, distance = meetings + m, distance + s
    return meetings, distance


def _best_division(players: list[int], sizes: list[int], cost: _Cost) -> list[list[int]]:
    """The division of ``players`` into tables of ``sizes`` of least (meetings, distance),
    then the smallest sorted list of sorted tables, by trying each one."""
    counts = {size: sizes.count(size) for size in set(sizes)}
    best = min((_total(d, cost), sorted(d)) for d in _divisions(sorted(players), counts))
    return [list(t) for t in best[1]]


def _improved_division(standing: list[int], sizes: list[int], cost: _Cost) -> list[list[int]]:
    """The players dealt into tables of ``sizes`` in standings order, then improved by the
    first swap (by standings places) that lowers (meetings, distance), until none does."""
    division: list[list[int]] = []
    for size in sizes:
        start = sum(len(t) for t in division)
        division.append(sorted(standing[start:start + size]))
    improved = True
    while improved:
        improved = False
        table_of = {p: i for i, t in enumerate(division) for p in t}
        for a, b in itertools.combinations(standing, 2):
            i, j = table_of[a], table_of[b]
            if i == j:
                continue
            new_i = sorted([p for p in division[i] if p != a] + [b])
            new_j = sorted([p for p in division[j] if p != b] + [a])
            if _total([new_i, new_j], cost) < _total([division[i], division[j]], cost):
                division[i], division[j] = new_i, new_j
                improved = True
                break
    return division


def _seat_table(table: Iterable[int], past: Sequence[PastRound]) -> tuple[int, ...]:
    """Seat order at a table: fewest first seats so far, then highest sum of seat indices
    so far, then seed number ascending."""
    firsts = dict.fromkeys(table, 0)
    later = dict.fromkeys(table, 0)
    for rnd in past:
        for game in rnd.games:
            for seat, player in enumerate(game.players):
                if player in firsts:
                    firsts[player] += seat == 0
                    later[player] += seat
    return tuple(sorted(firsts, key=lambda p: (firsts[p], -later[p], p)))
