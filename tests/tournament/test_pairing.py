"""Pairings: Berger round robins against the published tables, Swiss rounds against a brute
force over every legal round scored by the documented rules (computed here, independently
of the module's weights), and Coan tables against a brute force for small fields."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from frogpbem.errors import UsageError
from frogpbem.tournament.pairing import (
    Pairing,
    PastRound,
    Played,
    Round,
    round_robin,
    round_robin_rounds,
    scores,
    swiss,
    tables,
)

RESULTS = ((Fraction(1), Fraction(0)), (Fraction(1, 2), Fraction(1, 2)),
           (Fraction(0), Fraction(1)))


def played(rnd: Round, rng: random.Random) -> PastRound:
    """``rnd`` played, with random results (two seats) or random points (more)."""
    games = []
    for game in rnd.games:
        if len(game.players) == 2:
            points = rng.choice(RESULTS)
        else:
            points = tuple(Fraction(rng.randrange(3)) for _ in game.players)
        games.append(Played(game.players, points))
    return PastRound(tuple(games), rnd.byes)


# --- round robin ----------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 13))
@pytest.mark.parametrize("cycles", [1, 2])
def test_round_robin_meets_everyone_once_per_cycle(count: int, cycles: int) -> None:
    rounds = round_robin(count, cycles)
    per_cycle = count - 1 if count % 2 == 0 else count
    assert len(rounds) == round_robin_rounds(count, cycles) == per_cycle * cycles
    for cycle in range(cycles):
        part = rounds[cycle * per_cycle:(cycle + 1) * per_cycle]
        pairs = [frozenset(g.players) for rnd in part for g in rnd.games]
        assert sorted(map(sorted, pairs)) == [list(p) for p in
                                              itertools.combinations(range(1, count + 1), 2)]
        byes = [p for rnd in part for p in rnd.byes]
        assert sorted(byes) == (list(range(1, count + 1)) if count % 2 else [])
        for player in range(1, count + 1):
            first = sum(g.players[0] == player for rnd in part for g in rnd.games)
            second = sum(g.players[1] == player for rnd in part for g in rnd.games)
            assert abs(first - second) <= 1
    for rnd in rounds:
        seated = [p for g in rnd.games for p in g.players] + list(rnd.byes)
        assert sorted(seated) == list(range(1, count + 1))
        assert len(rnd.byes) == count % 2 and list(rnd.byes) == sorted(rnd.byes)
    if cycles == 2:
        assert [[g.players[::-1] for g in r.games] for r in rounds[per_cycle:]] == \
            [[g.players for g in r.games] for r in rounds[:per_cycle]]


# The FIDE Berger tables (Handbook C.05 Annex 1), as reproduced on Chris Fox's chess page
# http://c.w.fox.tripod.com/chess/berger.html ("5 or 6 Players", "7 or 8 Players"): the
# highest number is the bye when the count is odd.
BERGER_6 = ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]
BERGER_8 = ["1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
            "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"]


def _published(table: list[str]) -> list[list[tuple[int, int]]]:
    return [[(int(a), int(b)) for a, b in (g.split("-") for g in row.split())] for row in table]


@pytest.mark.parametrize(("count", "table"), [(6, BERGER_6), (5, BERGER_6), (8, BERGER_8),
                                              (7, BERGER_8)])
def test_round_robin_is_the_published_berger_table(count: int, table: list[str]) -> None:
    expected = _published(table)
    got = round_robin(count)
    assert [[g.players for g in r.games] for r in got] == \
        [[g for g in row if max(g) <= count] for row in expected]
    assert [list(r.byes) for r in got] == \
        [[min(g) for g in row if max(g) > count] for row in expected]


def test_impossible_requests_say_so() -> None:
    for call in (lambda: round_robin(1), lambda: swiss(1, []), lambda: tables(1, 3, []),
                 lambda: tables(8, 7, []), lambda: tables(8, 1, []),
                 lambda: round_robin(4, 0)):
        with pytest.raises(UsageError):
            call()
    past = [PastRound((Played((1, 2), RESULTS[0]),), ())]
    with pytest.raises(UsageError, match="No Swiss pairing"):
        swiss(2, past)
    with pytest.raises(UsageError):
        swiss(3, [PastRound((Played((1, 5), RESULTS[0]),), (2,))])


def test_scores_count_games_and_byes() -> None:
    past = [PastRound((Played((1, 2), RESULTS[1]),), (3,)),
            PastRound((Played((3, 1), RESULTS[0]),), (2,))]
    assert scores(past) == {1: Fraction(1, 2), 2: Fraction(3, 2), 3: Fraction(2)}
    assert scores(past, Fraction(1, 2)) == {1: Fraction(1, 2), 2: Fraction(1), 3: Fraction(3, 2)}


# --- swiss: the documented rules, computed here -----------------------------------------------


class State:
    """What the rules look at, read from the past directly."""

    def __init__(self, count: int, past: list[PastRound]) -> None:
        self.count = count
        self.score = {p: Fraction(0) for p in range(1, count + 1)}
        self.seats: dict[int, list[tuple[int, int]]] = {p: [] for p in self.score}
        self.met: set[frozenset[int]] = set()
        self.byes: set[int] = set()
        for index, rnd in enumerate(past):
            for game in rnd.games:
                self.met.add(frozenset(game.players))
                for seat, (player, got) in enumerate(zip(game.players, game.points,
                                                         strict=True)):
                    self.score[player] += got
                    self.seats[player].append((index, seat))
            for player in rnd.byes:
                self.score[player] += 1
                self.byes.add(player)

    def difference(self, p: int) -> int:
        return sum(1 if seat == 0 else -1 for _, seat in self.seats[p])

    def third(self, p: int, seat: int) -> bool:
        last = [s for _, s in self.seats[p]][-2:]
        return last == [seat, seat]

    def orders(self, a: int, b: int) -> list[tuple[int, int]]:
        """The seat orders that keep colour differences within 2."""
        return [(x, y) for x, y in ((a, b), (b, a))
                if self.difference(x) + 1 <= 2 and self.difference(y) - 1 >= -2]

    def seat(self, a: int, b: int, board: int) -> tuple[int, int]:
        """The documented seat rule, step by step, for a game on ``board`` (from 1)."""
        orders = self.orders(a, b)
        if len(orders) == 1:
            return orders[0]
        (x, y), swapped = orders
        thirds = [self.third(x, 0) + self.third(y, 1), self.third(y, 0) + self.third(x, 1)]
        if thirds[0] != thirds[1]:
            return orders[thirds.index(min(thirds))]
        if self.difference(x) != self.difference(y):
            return (x, y) if self.difference(x) < self.difference(y) else swapped
        rounds_x, rounds_y = dict(self.seats[x]), dict(self.seats[y])
        for index in sorted(set(rounds_x) & set(rounds_y), reverse=True):
            if rounds_x[index] != rounds_y[index]:
                return (x, y) if rounds_x[index] == 1 else swapped
        if not self.seats[a] and not self.seats[b] and board % 2 == 0:
            return (max(a, b), min(a, b))  # no game yet: the lower seed first on odd boards
        return (min(a, b), max(a, b))

    def legal(self, a: int, b: int) -> bool:
        return frozenset((a, b)) not in self.met and bool(self.orders(a, b))

    def rounds(self) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
        """Every round the hard rules allow: its games (lower seed first) and its bye."""
        def pairings(left: list[int]) -> Iterator[list[tuple[int, int]]]:
            if not left:
                yield []
                return
            head = left[0]
            for other in left[1:]:
                if self.legal(head, other):
                    rest = [p for p in left[1:] if p != other]
                    for more in pairings(rest):
                        yield [(head, other), *more]

        players = list(range(1, self.count + 1))
        if self.count % 2 == 0:
            for games in pairings(players):
                yield games, None
        else:
            for bye in players:
                if bye not in self.byes:
                    for games in pairings([p for p in players if p != bye]):
                        yield games, bye

    def objective(self, games: list[tuple[int, int]], bye: int | None) -> tuple[object, ...]:
        """The documented order of preference, rules 1 to 8 (smaller is better)."""
        # the board changes only the seats of players with no game yet, whose costs are 0
        seated = [self.seat(a, b, 1) for a, b in games]
        thirds = sum(self.third(x, 0) + self.third(y, 1) for x, y in seated)
        s = self.score
        unequal = sum(s[a] != s[b] for a, b in games)
        squares = sum((s[a] - s[b]) ** 2 for a, b in games)
        cost = 0
        for x, y in seated:
            for player, seat in ((x, 0), (y, 1)):
                d = self.difference(player)
                history = [t for _, t in self.seats[player]]
                wanted = 0 if d < 0 else 1 if d > 0 else None
                if wanted is not None:
                    cost += 2 * (seat != wanted)
                elif history and history[-1] == seat:
                    cost += 1
        halves = 0
        for a, b in games:
            if s[a] == s[b]:
                group = sorted(p for p in s if s[p] == s[a])
                halves += abs(abs(group.index(a) - group.index(b)) - len(group) // 2)
        edges = sorted(games + ([(bye, self.count + 1)] if bye else []))
        return (thirds, s[bye] if bye else 0, unequal, squares, cost, halves,
                -(bye or 0), edges)


def check_round(count: int, past: list[PastRound], rnd: Round) -> None:
    """The hard rules, the board order and that everyone is in exactly one game or the bye."""
    state = State(count, past)
    seated = [p for g in rnd.games for p in g.players] + list(rnd.byes)
    assert sorted(seated) == list(range(1, count + 1))
    assert len(rnd.byes) == count % 2 and not set(rnd.byes) & state.byes
    for board, game in enumerate(rnd.games, 1):
        a, b = game.players
        assert frozenset((a, b)) not in state.met
        assert state.difference(a) + 1 <= 2 and state.difference(b) - 1 >= -2
        assert game.players == state.seat(a, b, board)
    s = state.score
    keys = [(-max(s[a], s[b]), -min(s[a], s[b]), min(a, b)) for a, b in
            (g.players for g in rnd.games)]
    assert keys == sorted(keys)


def best_round(count: int, past: list[PastRound]) -> Round | None:
    """The round the documented rules choose, by trying every legal one."""
    state = State(count, past)
    options = list(state.rounds())
    if not options:
        return None
    games, bye = min(options, key=lambda option: state.objective(*option))
    boards = sorted(games, key=lambda g: (-max(state.score[g[0]], state.score[g[1]]),
                                          -min(state.score[g[0]], state.score[g[1]]), min(g)))
    order = [state.seat(a, b, board) for board, (a, b) in enumerate(boards, 1)]
    return Round(tuple(Pairing(g) for g in order), (bye,) if bye else ())


def test_first_round_colours_alternate_down_the_boards() -> None:
    """16 players: the top half meets the bottom half, and the top seed moves first on
    boards 1, 3, 5, 7 only."""
    first = swiss(16, [])
    assert [sorted(g.players) for g in first.games] == [[k, k + 8] for k in range(1, 9)]
    assert [g.players[0] for g in first.games] == [1, 10, 3, 12, 5, 14, 7, 16]


def random_past(count: int, rounds: int, rng: random.Random) -> list[PastRound]:
    """``rounds`` rounds of random legal games with random seats within the colour limit
    (not Swiss pairings: histories the Swiss pairing would not make itself), fewer if the
    field gets stuck."""
    past: list[PastRound] = []
    for _ in range(rounds):
        state = State(count, past)
        options = list(itertools.islice(state.rounds(), 200))
        if not options:
            break
        games, bye = rng.choice(options)
        seated = []
        for a, b in games:
            seated.append(rng.choice(state.orders(a, b)))
        past.append(played(Round(tuple(Pairing(g) for g in seated),
                                 (bye,) if bye else ()), rng))
    return past


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 8), rounds=st.integers(0, 7), seed=st.integers(0, 2**32))
@example(count=6, rounds=1, seed=0)  # rules 1-7 tie: the order of rule 8 decides
def test_swiss_is_the_best_legal_round(count: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    past = random_past(count, min(rounds, count - 1), rng)
    expected = best_round(count, past)
    if expected is None:
        with pytest.raises(UsageError, match="No Swiss pairing"):
            swiss(count, past)
        return
    got = swiss(count, past)
    check_round(count, past, got)
    assert got == expected
    shuffled = [PastRound(tuple(rng.sample(r.games, len(r.games))), r.byes) for r in past]
    assert swiss(count, shuffled) == got


def play_swiss(count: int, rounds: int, rng: random.Random) -> None:
    """A Swiss tournament with random results, each round checked against the hard rules;
    a field the pairing finds stuck must be stuck (by brute force, on small fields)."""
    past: list[PastRound] = []
    for _ in range(rounds):
        try:
            rnd = swiss(count, past)
        except UsageError:
            assert count <= 12, "a large field should not get stuck in 9 rounds"
            assert next(State(count, past).rounds(), None) is None
            return
        check_round(count, past, rnd)
        past.append(played(rnd, rng))


@settings(max_examples=25, deadline=None)
@given(count=st.integers(8, 16), rounds=st.integers(5, 9), seed=st.integers(0, 2**32))
def test_swiss_keeps_the_hard_rules_on_small_fields(count: int, rounds: int, seed: int) -> None:
    play_swiss(count, min(rounds, count - 1), random.Random(seed))


@settings(max_examples=4, deadline=None)
@given(count=st.integers(17, 64), rounds=st.integers(5, 9), seed=st.integers(0, 2**32))
def test_swiss_keeps_the_hard_rules_on_large_fields(count: int, rounds: int, seed: int) -> None:
    play_swiss(count, rounds, random.Random(seed))


def test_swiss_first_round_is_top_half_against_bottom_half() -> None:
    rnd = swiss(8, [])
    assert [g.players for g in rnd.games] == [(1, 5), (6, 2), (3, 7), (8, 4)]
    rnd = swiss(7, [])
    assert rnd.byes == (7,)
    assert sorted(map(sorted, (g.players for g in rnd.games))) == [[1, 4], [2, 5], [3, 6]]


# --- tables ---------------------------------------------------------------------------------


def documented_sizes(players: int, seats: int) -> list[int]:
    count = -(-players // seats)
    return sorted((players // count + (i < players % count) for i in range(count)),
                  reverse=True)


def seat_key(player: int, past: list[PastRound]) -> tuple[int, int, int]:
    """The documented seat order at a table: fewest first seats so far, then the highest
    sum of seat indices so far, then the seed number."""
    seats = [g.players.index(player) for r in past for g in r.games if player in g.players]
    return seats.count(0), -sum(seats), player


def divisions(players: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every division into tables of the given sizes (by assigning each player a table,
    keeping one of each set of equal divisions)."""
    seen = set()
    for assignment in itertools.product(range(len(sizes)), repeat=len(players)):
        groups = [tuple(p for p, t in zip(players, assignment, strict=True) if t == i)
                  for i in range(len(sizes))]
        if sorted(map(len, groups), reverse=True) != sorted(sizes, reverse=True):
            continue
        key = tuple(sorted(groups))
        if key not in seen:
            seen.add(key)
            yield list(key)


@settings(max_examples=25, deadline=None)
@given(count=st.integers(4, 20), seats=st.integers(2, 6), rounds=st.integers(0, 4),
       seed=st.integers(0, 2**32))
def test_tables_seat_everyone_once_at_documented_sizes(count: int, seats: int, rounds: int,
                                                       seed: int) -> None:
    rng = random.Random(seed)
    past: list[PastRound] = []
    for _ in range(rounds + 1):
        rnd = tables(count, seats, past)
        seated = [p for g in rnd.games for p in g.players] + list(rnd.byes)
        assert sorted(seated) == list(range(1, count + 1))
        assert len(rnd.byes) == (count % 2 if seats == 2 else 0)
        sizes = [len(g.players) for g in rnd.games]
        assert sorted(sizes, reverse=True) == documented_sizes(count - len(rnd.byes), seats)
        assert min(sizes) >= 2
        if count >= seats * (seats - 2):
            assert set(sizes) <= {seats, seats - 1}
        shuffled = [PastRound(tuple(rng.sample(r.games, len(r.games))), r.byes) for r in past]
        assert tables(count, seats, shuffled) == rnd
        for game in rnd.games:
            assert list(game.players) == sorted(game.players, key=lambda p: seat_key(p, past))
        past.append(played(rnd, rng))


@settings(max_examples=25, deadline=None)
@given(count=st.integers(4, 8), seats=st.integers(3, 4), rounds=st.integers(1, 3),
       seed=st.integers(0, 2**32))
def test_tables_are_the_best_division_on_small_fields(count: int, seats: int, rounds: int,
                                                      seed: int) -> None:
    rng = random.Random(seed)
    past: list[PastRound] = []
    for _ in range(rounds):  # earlier rounds drawn at random: not the pairing's own
        order = rng.sample(range(1, count + 1), count)
        sizes = documented_sizes(count, seats)
        games = tuple(Pairing(tuple(order[sum(sizes[:i]):sum(sizes[:i + 1])]))
                      for i in range(len(sizes)))
        past.append(played(Round(games, ()), rng))
    rnd = tables(count, seats, past)
    assert cost([g.players for g in rnd.games], past) == \
        min(cost(d, past) for d in divisions(list(range(1, count + 1)),
                                             documented_sizes(count, seats)))


def cost(division: list[tuple[int, ...]], past: list[PastRound]) -> tuple[int, int]:
    """The documented (meetings, distance) of a division: earlier meetings of players at one
    table (a pair met twice counts 2), then the distance of their standings places."""
    met = [frozenset(pair) for r in past for g in r.games
           for pair in itertools.combinations(g.players, 2)]
    have = scores(past)
    seated = sorted((p for t in division for p in t),
                    key=lambda p: (-have.get(p, Fraction(0)), p))
    pairs = [pair for t in division for pair in itertools.combinations(t, 2)]
    return (sum(met.count(frozenset(pair)) for pair in pairs),
            sum(abs(seated.index(a) - seated.index(b)) for a, b in pairs))


@settings(max_examples=6, deadline=None)
@given(count=st.integers(13, 20), seats=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_tables_of_large_fields_no_swap_helps(count: int, seats: int, seed: int) -> None:
    """Above 12 players the documented search ends where no swap of two players lowers
    (meetings, distance)."""
    rng = random.Random(seed)
    past: list[PastRound] = []
    for _ in range(3):
        past.append(played(tables(count, seats, past), rng))
    rnd = tables(count, seats, past)
    division = [g.players for g in rnd.games]
    best = cost(division, past)
    for a, b in itertools.combinations(range(1, count + 1), 2):
        swapped = [tuple({a: b, b: a}.get(p, p) for p in table) for table in division]
        assert cost(swapped, past) >= best
