"""Exact odds for the frog-finding games: where the hidden frogs a seat cannot see may be.

Everything comes from one seat's view (what it may know): its own and its
teammates' frogs, the revealed frogs, the shot numbers, the wrong guesses
and how many frogs each seat still hides. The deal placed every frog
uniformly at random on distinct squares, so given the view every placement
of the unseen frogs that fits every shot number is equally likely. The odds
count them all, exactly:

- squares next to a shot number (the frontier) fall into components that
  share no number; each component is counted by a dynamic programme that
  sweeps its squares in order, its state the frogs still owed by the numbers
  it has begun but not finished, and it keeps, for every number of frogs in
  the component, how many placements there are (and how many put a frog on
  each square);
- the other open squares (R of them) take the remaining frogs in
  ``C(R, k)`` ways;
- components and the rest combine by convolution over the number of frogs.

The numbers do not tell whose frog is where, so every assignment of owners
to the occupied squares is equally likely: a frog on a square is opponent
``o``'s with probability ``hidden(o) / hidden(all)``. Counts are Python
integers, so the odds are exact up to the final division.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from frogpbem.board import Board, Square
from frogpbem.errors import IllegalMoveError
from frogpbem.frozen import frozen
from frogpbem.games import JSON
from frogpbem.games.frogs_notation import FrogsView

Poly = list[int]
"""Counts by the number of frogs: ``poly[m]`` placements with ``m`` frogs."""


@frozen
class Odds:
    """The chance of an unseen frog on every square a seat cannot see into."""

    probabilities: dict[str, float]
    """Square name to the probability that an opponent's frog is there."""
    owners: dict[str, float]
    """Each opponent's share of the frogs still hidden: ``probabilities`` times this is
    the chance that it is that opponent's frog."""
    hidden: int
    """How many frogs the seat cannot see."""

    def by_opponent(self) -> dict[str, dict[str, float]]:
        """Square name to each opponent's chance of a frog there."""
        return {name: {owner: p * share for owner, share in self.owners.items()}
                for name, p in self.probabilities.items()}

    def certain(self) -> list[str]:
        """The squares that surely hold an opponent's frog."""
        return [name for name, p in self.probabilities.items() if p == 1.0]

    def to_json(self) -> JSON:
        by_opponent: dict[str, JSON] = {}
        for name, chances in self.by_opponent().items():
            by_opponent[name] = dict(chances)
        probabilities: dict[str, JSON] = dict(self.probabilities)
        certain: list[JSON] = list(self.certain())
        return {"probabilities": probabilities, "by_opponent": by_opponent,
                "hidden": self.hidden, "certain": certain}


def frog_odds(view: FrogsView) -> Odds:
    """The exact odds of the frogs a seat cannot see, from that seat's view."""
    board = Board(view.size)
    seen = {name for frogs in view.own_frogs.values() for name in frogs}
    known = seen | set(view.revealed)
    empty = set(view.shots) | set(view.misses)
    unknown = [s for s in board.squares() if s.name not in known and s.name not in empty]
    owners = {seat: count for seat, count in view.hidden_left.items()
              if seat not in view.own_frogs and count > 0}
    total = sum(owners.values())
    constraints = []
    candidates = {s.name for s in unknown}
    for name, number in view.shots.items():
        around = board.neighbours(board.parse(name))
        need = number - sum(1 for s in around if s.name in known)
        constraints.append((need, frozenset(s for s in around if s.name in candidates)))
    odds = _solve(unknown, constraints, total)
    shares = {seat: count / total for seat, count in owners.items()} if total else {}
    return Odds({s.name: odds[s] for s in unknown}, shares, total)


def _solve(unknown: Sequence[Square], constraints: list[tuple[int, frozenset[Square]]],
           total: int) -> dict[Square, float]:
    """The probability of a frog on each unknown square, ``total`` frogs among them."""
    fixed, constraints = _propagate(constraints)
    frogs = total - sum(fixed.values())
    frontier = sorted({s for _, squares in constraints for s in squares})
    on_frontier = set(frontier)
    rest = [s for s in unknown if s not in fixed and s not in on_frontier]
    if frogs < 0 or frogs > len(frontier) + len(rest):
        raise IllegalMoveError("the view is inconsistent: no placement of the frogs fits it")
    components = [_Component(squares, cons, frogs) for squares, cons in
                  _components(frontier, constraints)]
    polys = [c.total for c in components]
    ways = [comb(len(rest), k) for k in range(frogs + 1)]  # the rest takes k frogs
    everything = _product(polys, frogs)
    placements = sum(everything[m] * ways[frogs - m] for m in range(frogs + 1))
    if placements == 0:
        raise IllegalMoveError("the view is inconsistent: no placement of the frogs fits it")
    odds: dict[Square, float] = {s: float(v) for s, v in fixed.items()}
    for index, component in enumerate(components):
        others = _product(polys[:index] + polys[index + 1:], frogs)
        # weight[m]: placements of everything else when this component holds m frogs
        weight = [sum(others[j] * ways[frogs - m - j] for j in range(frogs - m + 1))
                  for m in range(frogs + 1)]
        for square, poly in component.marginals().items():
            odds[square] = sum(c * weight[m] for m, c in enumerate(poly)) / placements
    if rest:
        inside = sum(everything[m] * comb(len(rest) - 1, frogs - m - 1)
                     for m in range(frogs) if frogs - m - 1 >= 0)
        for square in rest:
            odds[square] = inside / placements
    return odds


def _propagate(constraints: list[tuple[int, frozenset[Square]]]
               ) -> tuple[dict[Square, int], list[tuple[int, frozenset[Square]]]]:
    """Squares a number settles on its own (all empty, or all frogs), and what is left."""
    fixed: dict[Square, int] = {}
    changed = True
    while changed:
        changed = False
        left = []
        for need, squares in constraints:
            need -= sum(fixed.get(s, 0) for s in squares)
            squares = frozenset(s for s in squares if s not in fixed)
            if need < 0 or need > len(squares):
                raise IllegalMoveError("the view is inconsistent: a shot number cannot hold")
            if squares and need in (0, len(squares)):
                fixed.update(dict.fromkeys(squares, 1 if need else 0))
                changed = True
            elif squares:
                left.append((need, squares))
        constraints = left
    return fixed, constraints


def _components(frontier: list[Square], constraints: list[tuple[int, frozenset[Square]]]
                ) -> list[tuple[list[Square], list[tuple[int, frozenset[Square]]]]]:
    """The frontier split into parts that share no number."""
    parent = {s: s for s in frontier}

    def root(s: Square) -> Square:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    for _, squares in constraints:
        first, *others = squares
        for s in others:
            parent[root(s)] = root(first)
    groups: dict[Square, tuple[list[Square], list[tuple[int, frozenset[Square]]]]] = {}
    for s in frontier:
        groups.setdefault(root(s), ([], []))[0].append(s)
    for constraint in constraints:
        groups[root(next(iter(constraint[1])))][1].append(constraint)
    return list(groups.values())


def _product(polys: Sequence[Poly], limit: int) -> Poly:
    """The convolution of ``polys``, up to ``limit`` frogs."""
    result = [1] + [0] * limit
    for poly in polys:
        out = [0] * (limit + 1)
        for i, a in enumerate(result):
            if a:
                for j, b in enumerate(poly[:limit + 1 - i]):
                    out[i + j] += a * b
        result = out
    return result


class _Component:
    """One part of the frontier, counted by a sweep over its squares in board order.

    The state between square ``i - 1`` and square ``i`` is what each number
    that has squares on both sides still needs; ``forward[i]`` maps each
    reachable state to its placements of squares ``0..i-1`` (by frogs), and
    ``backward`` the completions of squares ``i..`` from a state.
    """

    def __init__(self, squares: list[Square], constraints: list[tuple[int, frozenset[Square]]],
                 limit: int) -> None:
        self.squares = sorted(squares, key=lambda s: (s.row, s.col))
        self.limit = limit
        index = {s: i for i, s in enumerate(self.squares)}
        self.needs = [need for need, _ in constraints]
        members = [sorted(index[s] for s in squares) for _, squares in constraints]
        self.first = [m[0] for m in members]
        self.last = [m[-1] for m in members]
        count = len(self.squares)
        self.of_square: list[list[int]] = [[] for _ in range(count)]
        for c, m in enumerate(members):
            for i in m:
                self.of_square[i].append(c)
        # after square i, how many of constraint c's squares are still to come
        self.later = [{c: sum(1 for j in members[c] if j > i) for c in self.of_square[i]}
                      for i in range(count)]
        self.open = [tuple(c for c in range(len(members)) if self.first[c] < i <= self.last[c])
                     for i in range(count + 1)]
        self.forward = self._forward()
        self.total = self.forward[count].get((), [0])

    def _step(self, i: int, state: tuple[int, ...], frog: int) -> tuple[int, ...] | None:
        """The state after square ``i`` (with a frog or not), or ``None`` if no number holds."""
        owed = dict(zip(self.open[i], state, strict=True))
        for c in self.of_square[i]:
            need = (owed[c] if c in owed else self.needs[c]) - frog
            if need < 0 or need > self.later[i][c]:
                return None
            owed[c] = need
        return tuple(owed[c] for c in self.open[i + 1])

    def _forward(self) -> list[dict[tuple[int, ...], Poly]]:
        forward: list[dict[tuple[int, ...], Poly]] = [{(): [1]}]
        for i in range(len(self.squares)):
            after: dict[tuple[int, ...], Poly] = {}
            for state, poly in forward[i].items():
                for frog in (0, 1):
                    nxt = self._step(i, state, frog)
                    if nxt is not None:
                        _add(after.setdefault(nxt, []), poly, frog, self.limit)
            forward.append(after)
        return forward

    def marginals(self) -> dict[Square, Poly]:
        """For each square: placements of the component with a frog there, by frogs."""
        count = len(self.squares)
        backward: dict[tuple[int, ...], Poly] = {(): [1]}
        found: dict[Square, Poly] = {}
        for i in range(count - 1, -1, -1):
            before: dict[tuple[int, ...], Poly] = {}
            with_frog: Poly = []
            for state, poly in self.forward[i].items():
                for frog in (0, 1):
                    nxt = self._step(i, state, frog)
                    if nxt is None or nxt not in backward:
                        continue
                    _add(before.setdefault(state, []), backward[nxt], frog, self.limit)
                    if frog:
                        shifted: Poly = []
                        _add(shifted, backward[nxt], 1, self.limit)
                        _add_product(with_frog, poly, shifted, self.limit)
            found[self.squares[i]] = with_frog
            backward = before
        return found


def _add(target: Poly, poly: Poly, shift: int, limit: int) -> None:
    """``target += poly * z**shift``, up to ``limit`` frogs."""
    for m, count in enumerate(poly):
        at = m + shift
        if at > limit:
            break
        while len(target) <= at:
            target.append(0)
        target[at] += count


def _add_product(target: Poly, a: Poly, b: Poly, limit: int) -> None:
    """``target += a * b``, up to ``limit`` frogs."""
    for i, x in enumerate(a):
        if x:
            _add(target, [x * y for y in b], i, limit)
