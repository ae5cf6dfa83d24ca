"""Every ruleset's moves: text round trips, and the repr rebuilds the move."""

from __future__ import annotations

import pytest

from frogpbem.board import Square  # noqa: F401 - the reprs name it
from frogpbem.games import Resign, find_game  # noqa: F401
from frogpbem.games.froglet import Jump, Remove  # noqa: F401
from frogpbem.games.frogs import Guess, Shoot  # noqa: F401
from frogpbem.games.secretmove import Pass, SealedGuess, StoneMove  # noqa: F401

CASES = [
    ("frogfinder", "shoot g9", "shoot G9"), ("frogfinder", "GUESS a1", "guess A1"),
    ("coan", " resign ", "resign"), ("froglet", "remove b2", "remove B2"),
    ("froglet", "c3-c5-e5", "C3-C5-E5"), ("secretmove", "a1-b2 3", "A1-B2 3"),
    ("secretmove", "PASS", "pass"), ("secretmove", "guess 146/257/479", "guess 146/257/479"),
    ("secretmove", "guess", "guess"),
]


@pytest.mark.parametrize(("rules", "text", "canonical"), CASES)
def test_notation_and_repr(rules: str, text: str, canonical: str) -> None:
    ruleset = find_game(rules)
    move = ruleset.parse_move(text)
    assert ruleset.format_move(move) == canonical
    assert ruleset.parse_move(canonical) == move
    assert eval(repr(move)) == move  # the repr is the constructor call
