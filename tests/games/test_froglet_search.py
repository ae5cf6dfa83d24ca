"""Froglet's expert search: against an exhaustive solver written here on the rules' own
API (small boards), legal moves on random positions from play, determinism, the budget."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import event, given, settings
from hypothesis import strategies as st

from frogpbem.games import bot_move, find_game
from frogpbem.games.froglet import Froglet, Jump, State, legal_paths
from frogpbem.games.froglet_bot import expert_move, searched
from frogpbem.games.froglet_bot import position as view_cells
from frogpbem.games.froglet_search import WIN, Found, _Search, best_move, moves
from frogpbem.games.froglet_view import VALUES

RULES: Froglet = find_game("froglet")  # type: ignore[assignment]
SEATS = ("white", "black")


def position(rows: list[str], ply: int = 1, lead: int = 0) -> State:
    """The position of ``rows`` (top row first), ``ply`` moves played, the mover ``lead``
    points ahead (of 50 each, so that the seat behind has points too)."""
    state = RULES.start({"size": len(rows)}, SEATS, {"rows": rows}, {})
    mover, other = SEATS[ply % 2], SEATS[1 - ply % 2]
    return replace(state, ply=ply, points={mover: 50 + lead, other: 50})


def search_input(state: State) -> tuple[int, list[int], int]:
    """The search's arguments for ``state``: size, frog values, the mover's lead."""
    size, cells = view_cells(RULES.view(state, frozenset()))
    mover = RULES.to_move(state)
    lead = sum(p if seat == mover else -p for seat, p in state.points.items())
    return size, [VALUES.get(letter, 0) for letter in cells], lead


def notation(path: tuple[int, ...], size: int) -> str:
    """A search path as the rules write it (squares from A1, row by row)."""
    names = "-".join(f"{chr(ord('A') + i % size)}{i // size + 1}" for i in path)
    return f"remove {names}" if len(path) == 1 else names


def solve(state: State, memo: dict[object, int] | None = None) -> int:
    """The game's result under best play for the seat to move: 1 a win, 0 a draw, -1 a
    loss; every line played to its end through the rules (nothing of the search)."""
    memo = {} if memo is None else memo
    key = (frozenset(state.frogs.items()), tuple(sorted(state.points.items())), state.ply % 2)
    if key not in memo:
        seat = RULES.to_move(state)
        assert seat is not None
        best = -1
        for path, _ in legal_paths(state):
            after, _ = RULES.play(state, seat, Jump(path))
            best = max(best, result_for(after, seat, memo))
            if best == 1:
                break
        memo[key] = best
    return memo[key]


def result_for(state: State, seat: str, memo: dict[object, int]) -> int:
    """``seat``'s result under best play in ``state``, where ``seat`` has just moved."""
    if RULES.to_move(state) is None:
        other = next(s for s in SEATS if s != seat)
        return (state.points[seat] > state.points[other]) - (state.points[seat]
                                                              < state.points[other])
    return -solve(state, memo)


def after_move(state: State, text: str) -> State:
    seat = RULES.to_move(state)
    assert seat is not None
    return RULES.play(state, seat, RULES.parse_move(text))[0]


WIN_BY_STOPPING = [".Y...", "Y.G..", "GRGG.", "BG...", "G.GBY"]
"""White to move wins (B2-B4-D4, among others), but not by the longest jump, B2-B4-D4-D2,
which the three-ply ``strong`` bot prefers: black's answer then leads to a loss."""


def test_the_search_finds_the_forced_win_that_three_plies_miss() -> None:
    state = position(WIN_BY_STOPPING)
    memo: dict[object, int] = {}
    assert solve(state, memo) == 1
    size, cells = view_cells(RULES.view(state, frozenset()))
    ranked = searched(size, cells)
    strong_choices = [notation(p, size) for p, _, net in ranked if net == ranked[0][2]]
    assert all(result_for(after_move(state, m), "white", memo) < 1 for m in strong_choices)
    found = best_move(*search_input(state))
    assert found.solved and found.value > WIN / 2
    assert result_for(after_move(state, notation(found.path, size)), "white", memo) == 1
    # and the bot plays it through the view, as in a game
    view = RULES.view(state, frozenset({"white"}))
    assert result_for(after_move(state, expert_move(view)), "white", memo) == 1


@st.composite
def small_positions(draw: st.DrawFn) -> State:
    """A board of 3 to 5 squares a side, a few frogs on it, a lead of -6..6, either seat
    to move: small enough to solve exhaustively."""
    size = draw(st.integers(3, 5))
    count = draw(st.integers(2, min(11, size * size - 1)))
    squares = draw(st.permutations(range(size * size)))[:count]
    colours = draw(st.lists(st.sampled_from("GGGYYRB"), min_size=count, max_size=count))
    letters = dict(zip(squares, colours, strict=True))
    rows = ["".join(letters.get(row * size + col, ".") for col in range(size))
            for row in range(size - 1, -1, -1)]
    return position(rows, ply=draw(st.integers(1, 2)), lead=draw(st.integers(-6, 6)))


@settings(max_examples=80, deadline=None)
@given(small_positions())
def test_a_solved_search_gives_the_games_exact_result(state: State) -> None:
    """Where the search says it solved the game (every line to the end, or a forced
    result), its value's sign is the solver's result, and its move achieves it."""
    if not legal_paths(state):
        return
    size, cells, lead = search_input(state)
    found = best_move(size, cells, lead, nodes=20_000)
    event(f"solved: {found.solved}")
    if not found.solved:
        return
    memo: dict[object, int] = {}
    exact = solve(state, memo)
    seat = RULES.to_move(state)
    assert seat is not None
    assert (found.value > 0) - (found.value < 0) == exact
    assert result_for(after_move(state, notation(found.path, size)), seat, memo) == exact


def played(seed: int, size: int, plies: int) -> State:
    """A position from play: a deal of ``size`` and up to ``plies`` moves of the greedy
    and random bots (the first one removing a green frog)."""
    rng = random.Random(seed)
    options = RULES.options({"size": size})
    public, secrets = RULES.deal(options, SEATS, rng)
    state = RULES.start(options, SEATS, public, secrets)
    for ply in range(plies):
        seat = RULES.to_move(state)
        if seat is None:
            break
        text = bot_move(RULES, RULES.view(state, frozenset({seat})), seat, rng,
                        "greedy" if ply % 3 else "random")
        state = after_move(state, text)
    return state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 12), st.integers(0, 80), st.integers(1, 400))
def test_the_expert_plays_only_legal_moves(seed: int, size: int, plies: int,
                                           nodes: int) -> None:
    """On positions from play (the first move included), the search's moves are the
    rules' (each scoring the same points), and the move it picks is legal, at any budget."""
    state = played(seed, size, plies)
    seat = RULES.to_move(state)
    if seat is None:
        return
    board_size, cells, lead = search_input(state)
    listed = {notation(path, size): points for path, points in moves(board_size, cells)}
    if state.ply == 0:
        assert set(listed) == {f"remove {s.name}" for s, c in state.frogs.items() if c == "G"}
    else:
        assert listed == {"-".join(s.name for s in path): points
                          for path, points in legal_paths(state)}
    found = best_move(board_size, cells, lead, nodes)
    assert notation(found.path, size) in listed
    view = RULES.view(state, frozenset({seat}))
    RULES.play(state, seat, RULES.parse_move(expert_move(view, nodes)))  # raises if illegal


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 12), st.integers(1, 80), st.randoms())
def test_the_search_keeps_its_board_in_step_with_the_rules(
        seed: int, size: int, plies: int, rng: random.Random) -> None:
    """The search's board of bits against the rules' position: the frogs that can jump
    (in square order) and the best single hop; after a move played, the same board as
    one made afresh from the rules' position after it; after the move taken back, the
    board it started from."""
    state = played(seed, size, plies)
    if RULES.to_move(state) is None:
        return
    board_size, cells, lead = search_input(state)
    search = _Search(board_size, list(cells), 0)
    paths = legal_paths(state)
    assert search.best_hop() == max((p for path, p in paths if len(path) == 2), default=0)
    starts = search.starts()
    assert starts == sorted(starts)
    assert {notation((s,), size) for s in starts} == {f"remove {path[0].name}"
                                                     for path, _ in paths}
    before = (list(search.cells), list(search.masks), search.hash)
    path, _ = rng.choice(moves(board_size, cells))
    taken = search.play(path)
    fresh = _Search(*search_input(after_move(state, notation(path, size)))[:2], 0)
    assert (search.cells, search.masks, search.hash) == (fresh.cells, fresh.masks, fresh.hash)
    assert search.best_hop() == fresh._best_hop()
    search.undo(path, taken)
    assert (search.cells, search.masks, search.hash) == before


def test_the_same_position_gives_the_same_move() -> None:
    for seed in (1, 2):
        state = played(seed, 12, 20 * seed)
        seat = RULES.to_move(state)
        assert seat is not None
        view = RULES.view(state, frozenset({seat}))
        first = best_move(*search_input(state), nodes=800)
        assert best_move(*search_input(state), nodes=800) == first
        moves_made = {bot_move(RULES, view, seat, random.Random(n), "expert") for n in range(2)}
        assert len(moves_made) == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 40), st.integers(0, 1500))
def test_the_node_budget_is_honoured(seed: int, plies: int, nodes: int) -> None:
    """The search never looks at more positions than its budget; on a 12x12 board in
    play, which it cannot solve, it uses all of a small budget."""
    state = played(seed, 12, plies)
    if RULES.to_move(state) is None:
        return
    found = best_move(*search_input(state), nodes=nodes)
    assert isinstance(found, Found)
    assert found.nodes <= nodes
    if nodes <= 300 and not found.solved:
        assert found.nodes == nodes

