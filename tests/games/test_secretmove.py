"""Secret Move: moves against hidden values, passes, the result rule, the deduction count."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.errors import IllegalMoveError, InconsistentResultError, NotationError
from frogpbem.gamefile import strictyaml
from frogpbem.games import find_game
from frogpbem.games.secretmove import (
    SecretMove,
    State,
    all_grids,
    check_secret,
    parse_move,
    parse_setup,
)
from frogpbem.games.secretmove_view import SQUARES, values_of

RULES: SecretMove = find_game("secretmove")  # type: ignore[assignment]
# red's values: row 1: 1 4 6, row 2: 2 5 7, row 3: 4 7 9
RED = {"cols": [0, 3, 5], "rows": [1, 2, 4]}
# blue's values: row 1: 3 4 5, row 2: 4 5 6, row 3: 5 6 7
BLUE = {"cols": [0, 1, 2], "rows": [3, 4, 5]}
BLUE_TRUTH = (3, 4, 5, 4, 5, 6, 5, 6, 7)
RED_TRUTH = (1, 4, 6, 2, 5, 7, 4, 7, 9)


def start(red: Any = RED, blue: Any = BLUE) -> State:
    return RULES.start({}, ("red", "blue"), None, {"red": red, "blue": blue})


def play(state: State, seat: str, text: str, claimed: Any = None) -> State:
    typed = RULES.parse_result(claimed) if claimed is not None else None
    return RULES.play(state, seat, parse_move(text), typed)[0]


@pytest.mark.parametrize(("move", "reason"), [
    ("A1-B2 4", "A1-B2 4: only 3 stones on A1"),
    ("B2-A1 1", r"B2-A1 1: A1 \(1\) is not worth more than B2 \(5\)"),
    ("A1-C1 1", "A1-C1 1: C1 is not next to A1"),
    ("B1-A3 1", "B1-A3 1: A3 is not next to B1"),
    ("A1-A1 1", "A1-A1 1: A1 is not next to A1"),
    ("A2-A3 3", r"A2-A3 3: at most 2 stones \(A3 is worth 2 more than A2\)"),
    ("C2-C3 0", "C2-C3 0: move at least one stone"),
])
def test_illegal_moves_for_given_headers(move: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError, match=reason):
        play(start(), "red", move)


@pytest.mark.parametrize("move", ["A1-B2 3", "A1-B2 1", "A2-A3 2", "B1-C1 2", "A3-B3 3"])
def test_legal_moves_for_given_headers(move: str) -> None:
    state = play(start(), "red", move)
    src, dst, count = move[:2], move[3:5], int(move.split()[1])
    assert state.stones["red"][src] == 3 - count and state.stones["red"][dst] == 3 + count
    assert RULES.to_move(state) == "blue"


def test_the_mover_alone_cannot_be_checked_by_the_opponent() -> None:
    """Without red's values (blue's knowledge), only the shape of red's move is checked."""
    partial = RULES.start({}, ("red", "blue"), None, {"red": None, "blue": BLUE})
    play(partial, "red", "B2-A1 1")  # illegal for red, but blue cannot know
    with pytest.raises(IllegalMoveError, match="only 3 stones"):
        play(partial, "red", "A1-B2 4")


def test_ten_moves_then_done() -> None:
    state = start()
    red = ["A1-A2 1", "A1-A2 1", "A1-A2 1", "A2-A3 1", "A2-A3 1", "A2-A3 1", "B1-B2 1",
           "B1-B2 1", "B1-B2 1", "C1-C2 1"]
    for index, move in enumerate(red):
        state = play(state, "red", move)
        if index < 9:
            state = play(state, "blue", "A1-B1 1" if index < 3 else "B1-C1 1")
    assert state.done["red"] and state.moves_left("red") == 0
    assert RULES.to_move(state) == "blue"
    with pytest.raises(IllegalMoveError, match="it is blue's turn"):
        play(state, "red", "C1-C2 1")
    state = play(state, "blue", "B2-C2 1")  # blue's tenth move: both are done
    assert state.done["blue"] and RULES.phase(state) == "guess"


def test_pass_ends_a_seats_moves() -> None:
    state = play(start(), "red", "pass")
    assert state.done["red"] and RULES.to_move(state) == "blue"
    state = play(state, "blue", "A1-B1 1")
    assert RULES.to_move(state) == "blue"
    state = play(state, "blue", "pass")
    assert RULES.phase(state) == "guess"
    with pytest.raises(IllegalMoveError, match="each now guesses"):
        play(state, "red", "A1-B2 1")


def test_automatic_pass_for_a_seat_with_no_legal_move() -> None:
    stuck = {**start().stones, "red": {sq: (27 if sq == "C3" else 0) for sq in SQUARES}}
    state = State(**{**start().__dict__, "stones": stuck})
    assert str(RULES.automatic(state)) == "pass"
    after, result = RULES.play(state, "red", parse_move("pass"))
    assert result.to_json() == {"auto": True} and after.done["red"]
    # an automatic pass claimed for a seat that could move is refused
    with pytest.raises(InconsistentResultError, match="had a legal move"):
        RULES.play(start(), "red", parse_move("pass"), RULES.parse_result({"auto": True}))
    assert RULES.automatic(start()) is None


def final(red_stones: dict[str, int] | None, red_guess: tuple[int, ...],
          blue_guess: tuple[int, ...], blue_stones: dict[str, int] | None = None) -> Any:
    base = start()
    stones = {"red": red_stones or base.stones["red"], "blue": blue_stones or base.stones["blue"]}
    state = State(**{**base.__dict__, "stones": stones,
                     "done": {"red": True, "blue": True},
                     "guesses": {"red": red_guess, "blue": blue_guess}})
    outcome = RULES.outcome(state)
    assert outcome is not None
    return outcome


WRONG = (1,) * 9
ALL_ON_C3 = {sq: (27 if sq == "C3" else 0) for sq in SQUARES}  # 27 x 9 = 243


def test_result_a_lead_over_27_wins_whatever_the_guesses() -> None:
    outcome = final(ALL_ON_C3, WRONG, RED_TRUTH)  # only blue guessed right, red leads 243-135
    assert outcome.termination == "a lead of more than 27"
    assert [(p.rank, p.seat, p.points) for p in outcome.standing] == \
        [(1, "red", 243), (2, "blue", 135)]


def test_result_exactly_one_correct_guess_wins() -> None:
    more_blue = {**start().stones["blue"], "A1": 2, "B1": 4}  # 136
    outcome = final(None, BLUE_TRUTH, WRONG, more_blue)
    assert outcome.termination == "only red guessed all nine values"
    assert [(p.rank, p.seat, p.points) for p in outcome.standing] == \
        [(1, "red", 135), (2, "blue", 136)]


@pytest.mark.parametrize(("red_guess", "blue_guess", "why"), [
    (BLUE_TRUTH, RED_TRUTH, "both guessed right"), (WRONG, WRONG, "neither guessed right")])
def test_result_both_or_neither_then_the_score(red_guess: tuple[int, ...],
                                               blue_guess: tuple[int, ...], why: str) -> None:
    more_blue = {**start().stones["blue"], "A1": 2, "B1": 4}  # 136 against 135
    outcome = final(None, red_guess, blue_guess, more_blue)
    assert outcome.termination == f"{why}; the higher score wins"
    assert outcome.standing[0].seat == "blue"
    tie = final(None, red_guess, blue_guess)  # 135 each: every arrangement sums to 45
    assert tie.termination == f"{why}; equal scores" and tie.is_draw


@pytest.mark.parametrize("text", ["cols=0,3,5 rows=1,2,4", " COLS = 5,4,3  ROWS=2,1,0 "])
def test_setup_notation(text: str) -> None:
    secret = parse_setup(text)
    assert sorted(secret["cols"] + secret["rows"]) == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("text", ["cols=0,3,5 rows=1,2,5", "cols=0,3 rows=1,2,4,5",
                                  "cols=0,3,6 rows=1,2,4", "rows=1,2,4 cols=0,3,5x"])
def test_setup_notation_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_setup(text)


numbers = st.one_of(st.integers(-1, 6), st.booleans(), st.none(), st.floats(0, 5),
                    st.text(max_size=2), st.lists(st.integers(0, 5), max_size=2))


@given(st.dictionaries(st.sampled_from(["cols", "rows", "x"]), st.one_of(
    numbers, st.lists(numbers, max_size=7), st.tuples(numbers, numbers, numbers)), max_size=3))
def test_a_secret_of_any_shape_is_refused_in_a_sentence_or_is_one_the_rules_can_play(
        secret: dict[str, Any]) -> None:
    """A seat seals its own secret: whatever it holds is refused (NotationError), or it is
    three whole numbers on the columns and three on the rows, 0 to 5 once each, and the
    rules deal its grid too."""
    try:
        check_secret(secret)
    except NotationError:
        return
    assert all(len(secret[part]) == 3 for part in ("cols", "rows"))
    assert sorted(map(int, [*secret["cols"], *secret["rows"]])) == [0, 1, 2, 3, 4, 5]
    assert all(type(n) is int for n in [*secret["cols"], *secret["rows"]])
    assert values_of(secret) in all_grids()  # a grid the rules deal too


@pytest.mark.parametrize(("text", "canonical"), [
    ("a1-b2 3", "A1-B2 3"), (" A1 - B2  3 ", "A1-B2 3"), ("PASS", "pass"),
    ("guess 146 / 257/479", "guess 146/257/479"), ("resign", "resign"),
])
def test_move_notation_round_trip(text: str, canonical: str) -> None:
    assert str(parse_move(text)) == canonical
    assert RULES.public_move(parse_move(canonical)) == \
        ("guess" if canonical.startswith("guess") else canonical)


def brute_force_grids(history: list[tuple[str, str, int]],
                      stuck: list[dict[str, int]]) -> set[tuple[int, ...]]:
    """Written apart from the engine: the distinct value grids of the arrangements that
    allow every move and no stuck board."""
    grids = set()
    for perm in itertools.permutations(range(6)):
        value = {f"{c}{r}": perm[i] + perm[3 + r - 1] for i, c in enumerate("ABC")
                 for r in (1, 2, 3)}
        moves_ok = all(value[d] - value[s] >= n for s, d, n in history)

        def could_move(board: dict[str, int], value: dict[str, int] = value) -> bool:
            return any(board[s] > 0 and value[d] > value[s] and
                       max(abs(ord(s[0]) - ord(d[0])), abs(int(s[1]) - int(d[1]))) == 1
                       for s in SQUARES for d in SQUARES)

        if moves_ok and not any(could_move(b) for b in stuck):
            grids.add(tuple(value[s] for s in sorted(value)))
    return grids


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10))
def test_grid_count_and_hint_match_brute_force_and_use_public_facts_only(
    seed: int, length: int
) -> None:
    rng = random.Random(seed)
    secrets = {s: RULES.deal({}, [s], rng)[1][s] for s in ("red", "blue")}
    state = RULES.start({}, ("red", "blue"), None, secrets)
    blind = RULES.start({}, ("red", "blue"), None, {"red": secrets["red"], "blue": None})
    for _ in range(length):
        seat = RULES.to_move(state)
        if seat is None or RULES.phase(state) != "moves":
            break
        if RULES.automatic(state) is not None:
            text, claimed = "pass", RULES.parse_result({"auto": True})
        else:
            text = RULES.bot.move(RULES.view(state, frozenset([seat])), seat, rng)
            claimed = None
        state, result = RULES.play(state, seat, parse_move(text), claimed)
        blind, _ = RULES.play(blind, seat, parse_move(text), result)
    view = RULES.view(state, frozenset(["red"]))
    grids = brute_force_grids(list(state.history["blue"]), list(state.stuck["blue"]))
    assert view.boards["blue"].grids_left == len(grids)
    assert len(grids) >= 1  # blue's real grid always fits
    hint = RULES.hints.hint(view, "red")
    assert hint["grids_left"] == len(grids)
    for index, square in enumerate(sorted(SQUARES)):
        counted = Counter(grid[index] for grid in grids)
        assert hint["values"][square] == pytest.approx(
            {str(value): n / len(grids) for value, n in counted.items()}, abs=1e-12)
    # red's view is the same whether or not blue's headers are known to the state
    assert RULES.view(blind, frozenset(["red"])) == view
    assert "values" not in view.to_json()["boards"]["blue"]


VECTORS = strictyaml.loads(
    (Path(__file__).with_name("secretmove_vectors.yaml")).read_bytes()
)


@pytest.mark.parametrize("case", VECTORS, ids=[c["name"] for c in VECTORS])
def test_vectors(case: dict[str, Any]) -> None:
    state = start(case["setup"]["red"], case["setup"]["blue"])
    for seat, text, expected in case["moves"]:
        move = parse_move(text)
        if "error" in expected:
            with pytest.raises(IllegalMoveError, match=re.escape(expected["error"])):
                RULES.play(state, seat, move)
            continue
        state, result = RULES.play(state, seat, move)
        assert result.to_json() == expected, text
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.to_json() == case["outcome"]


@pytest.mark.parametrize("case", VECTORS, ids=[c["name"] for c in VECTORS])
@pytest.mark.parametrize("seat", ["red", "blue"])
def test_vectors_replay_from_each_seat(case: dict[str, Any], seat: str) -> None:
    """A seat knows its own values and sees the other's guess only as sealed."""
    secrets = {s: case["setup"][s] if s == seat else None for s in ("red", "blue")}
    state = RULES.start({}, ("red", "blue"), None, secrets)
    for mover, text, expected in case["moves"]:
        if "error" in expected:
            continue
        move = parse_move(text if mover == seat else RULES.public_move(parse_move(text)))
        state, _ = RULES.play(state, mover, move, RULES.parse_result(expected))
    assert RULES.to_move(state) is None


def test_the_720_header_arrangements_make_648_value_grids() -> None:
    grids = {tuple(sorted(g.items())) for g in all_grids()}
    assert len(grids) == len(all_grids()) == 648
