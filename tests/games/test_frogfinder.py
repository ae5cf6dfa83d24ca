"""Frog Finder rules: hand-made vectors, notation, and partial-knowledge replay."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.board import Square
from frogpbem.errors import (
    GameOverError,
    IllegalMoveError,
    InconsistentResultError,
    NotationError,
    NotYourTurnError,
)
from frogpbem.gamefile import strictyaml
from frogpbem.games import Resign, find_game
from frogpbem.games.frogfinder import FrogFinder
from frogpbem.games.frogs import Guess, Shoot, parse_move
from frogpbem.games.frogs_notation import FrogsView

RULES: FrogFinder = find_game("frogfinder")  # type: ignore[assignment]
VECTORS = strictyaml.loads((Path(__file__).parent / "frogfinder_vectors.yaml").read_bytes())


def start(case: dict[str, Any], known: tuple[str, ...] = ("red", "blue")) -> Any:
    options = RULES.options({"size": case["size"], "frogs": case["frogs"]})
    secrets = {s: {"frogs": case["setup"][s]} if s in known else None for s in ("red", "blue")}
    return RULES.start(options, ("red", "blue"), None, secrets)


@pytest.mark.parametrize("case", VECTORS, ids=[c["name"] for c in VECTORS])
def test_vectors(case: dict[str, Any]) -> None:
    state = start(case)
    for seat, text, expected in case["moves"]:
        move = RULES.parse_move(text)
        if "error" in expected:
            with pytest.raises(IllegalMoveError, match=expected["error"]):
                RULES.play(state, seat, move)
            continue
        state, result = RULES.play(state, seat, move)
        assert result.to_json() == expected, text
        assert RULES.parse_result(expected) == result
    assert RULES.scores(state) == case["scores"]
    outcome = RULES.outcome(state)
    assert (outcome.to_json() if outcome else None) == case["outcome"]


@pytest.mark.parametrize("case", VECTORS, ids=[c["name"] for c in VECTORS])
@pytest.mark.parametrize("known", [("red",), ("blue",), ()])
def test_vectors_replay_with_partial_knowledge(
    case: dict[str, Any], known: tuple[str, ...]
) -> None:
    """A seat (or the public) replaying the recorded results reaches the same position.

    Each recorded result is accepted as possible; a different result that the
    observer can check (a number one higher) is refused where its frogs decide it.
    """
    state = start(case, known)
    full = start(case)
    for seat, text, expected in case["moves"]:
        if "error" in expected:
            continue
        move = RULES.parse_move(text)
        full, _ = RULES.play(full, seat, move)
        state, _ = RULES.play(state, seat, move, RULES.parse_result(expected))
        assert RULES.to_move(state) == RULES.to_move(full)
        assert RULES.scores(state) == RULES.scores(full)
    assert RULES.scores(state) == case["scores"]
    outcome = RULES.outcome(state)
    assert (outcome.to_json() if outcome else None) == case["outcome"]


def test_errors_are_the_documented_classes() -> None:
    state = start(VECTORS[0])
    with pytest.raises(NotYourTurnError, match="it is red's turn, not blue's"):
        RULES.play(state, "blue", parse_move("shoot F5"))
    finished = start(VECTORS[3])
    finished, _ = RULES.play(finished, "blue", parse_move("resign"))
    with pytest.raises(GameOverError, match="blue resigned"):
        RULES.play(finished, "red", parse_move("shoot B2"))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("shoot G9", "shoot G9"), ("SHOOT g9", "shoot G9"), ("  guess   a1  ", "guess A1"),
     ("Guess\tL12", "guess L12"), ("resign", "resign"), (" RESIGN ", "resign"),
     ("shoot g 9", "shoot G9")],
)
def test_notation_accepts_spellings(text: str, canonical: str) -> None:
    assert str(parse_move(text)) == canonical


@pytest.mark.parametrize(
    "text", ["shot G9", "shoot", "shoot 9G", "guess A0", "guess A100", "resign now", "", "G9",
             "shoot G9 G10", "shoot Ä1"],
)
def test_notation_refuses_garbage(text: str) -> None:
    with pytest.raises(NotationError, match='expected "shoot SQUARE", "guess SQUARE" or "resign"'):
        parse_move(text)


@given(st.sampled_from(["shoot", "guess", "resign"]), st.integers(0, 25), st.integers(0, 98),
       st.sampled_from(["", " ", "  ", "\t"]), st.booleans())
def test_notation_round_trip(verb: str, col: int, row: int, pad: str, upper: bool) -> None:
    square = Square(col, row)
    move = {"shoot": Shoot(square), "guess": Guess(square), "resign": Resign()}[verb]
    text = pad + (str(move).upper() if upper else str(move)) + pad
    assert parse_move(text) == move
    assert str(parse_move(str(move))) == str(move)
    assert eval(repr(move)) == move  # the repr is the constructor call


def test_square_names() -> None:
    assert Square.parse("a1") == Square(0, 0)
    assert Square.parse("L12").name == "L12"
    assert Square.parse("I9").name == "I9"


def _random_game(seed: int, size: int, frogs: int) -> list[tuple[str, str, dict[str, Any]]]:
    rng = random.Random(seed)
    options = RULES.options({"size": size, "frogs": frogs})
    _, secrets = RULES.deal(options, ("red", "blue"), rng)
    state = RULES.start(options, ("red", "blue"), None, secrets)
    moves = []
    while (seat := RULES.to_move(state)) is not None and len(moves) < 400:
        view = RULES.view(state, frozenset([seat]))
        text = rng.choice([RULES.bot.move(view, seat, rng), _any_open(view, rng)])
        state, result = RULES.play(state, seat, RULES.parse_move(text))
        moves.append((seat, text, result))
    return moves, secrets, state  # type: ignore[return-value]


def _any_open(view: FrogsView, rng: random.Random) -> str:
    taken = set(view.shots) | set(view.revealed)
    taken |= {n for frogs in view.own_frogs.values() for n in frogs}
    size = view.size
    squares = [Square(c, r).name for c in range(size) for r in range(size)]
    return f"{rng.choice(['shoot', 'guess'])} {rng.choice([s for s in squares if s not in taken])}"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(4, 8), st.integers(1, 4))
def test_partial_replay_agrees_and_views_hide_the_rest(seed: int, size: int, frogs: int) -> None:
    """Any game: each seat's replay of the public results reaches the referee's scores,
    and its view never shows the opponent's hidden frogs."""
    moves, secrets, full = _random_game(seed, size, frogs)
    options = RULES.options({"size": size, "frogs": frogs})
    for seat in ("red", "blue", None):
        known = {s: (secrets[s] if s == seat else None) for s in ("red", "blue")}
        state = RULES.start(options, ("red", "blue"), None, known)
        for mover, text, result in moves:
            state, _ = RULES.play(state, mover, RULES.parse_move(text), result)
        assert RULES.scores(state) == RULES.scores(full)
        assert RULES.outcome(state) == RULES.outcome(full)
        viewers = frozenset([seat]) if seat else frozenset()
        assert RULES.view(state, viewers) == RULES.view(full, viewers)


def test_a_seat_detects_an_impossible_shot_number() -> None:
    case = VECTORS[0]
    state = start(case, ("red",))
    # B2 touches red's A1 and C3: red knows the number is at least 2.
    with pytest.raises(InconsistentResultError, match="impossible"):
        RULES.play(state, "red", parse_move("shoot B2"), RULES.parse_result({"count": 1}))
    # red knows its own frog is on A1: a claim that blue's frog was found there is false.
    state, _ = RULES.play(state, "red", parse_move("shoot B2"), RULES.parse_result({"count": 4}))
    with pytest.raises(InconsistentResultError):
        RULES.play(state, "blue", parse_move("guess A1"), RULES.parse_result({"miss": True}))
    # blue sees red shoot B2, next to blue's A2 and B1 and to none of blue's other frogs:
    # no frog of blue's is hit, and the number is 2 (blue's) to 7 (and all five of red's).
    seen = start(case, ("blue",))
    for wrong in (1, 8):
        with pytest.raises(InconsistentResultError, match=r"impossible here \(must be 2\.\.7\)"):
            RULES.play(seen, "red", parse_move("shoot B2"), RULES.parse_result({"count": wrong}))
    assert RULES.scores(RULES.play(seen, "red", parse_move("shoot B2"),
                                   RULES.parse_result({"count": 7}))[0]) == {"red": 0, "blue": 0}


def test_full_knowledge_refuses_any_other_result() -> None:
    state = start(VECTORS[0])
    with pytest.raises(InconsistentResultError, match="contradicts"):
        RULES.play(state, "red", parse_move("shoot B2"), RULES.parse_result({"count": 3}))


def test_deal_places_distinct_squares() -> None:
    options = RULES.options({"size": 4, "frogs": 4})
    for seed in range(50):
        _, secrets = RULES.deal(options, ("red", "blue"), random.Random(seed))
        squares = secrets["red"]["frogs"] + secrets["blue"]["frogs"]
        assert len(squares) == len(set(squares)) == 8
