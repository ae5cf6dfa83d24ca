"""Why a game ended is typed (Termination), and the words a file holds are made from it and
read back into it."""

from __future__ import annotations

import random

import pytest

from frogpbem.games import Outcome, Place, Termination, find_game, known_games


@pytest.mark.parametrize("how", [m for m in Termination if m is not Termination.OTHER])
def test_each_termination_is_read_back_from_its_words(how: Termination) -> None:
    subject = "red+black" if "{}" in how.value else None
    words = how.words(subject)
    assert "{}" not in words
    assert Termination.parse(words) == (how, subject)
    outcome = Outcome.from_json(Outcome.ended(how, (Place(1, "red", 3),), subject).to_json())
    assert (outcome.termination, outcome.how, outcome.subject) == (words, how, subject)


@pytest.mark.parametrize("words", ["all taken", "red lost", "", "resigned"])
def test_other_words_are_other(words: str) -> None:
    assert Termination.parse(words) == (Termination.OTHER, None)
    assert Outcome.from_json({"termination": words, "standing": []}).how is Termination.OTHER


def test_the_words_of_every_game_end_are_typed() -> None:
    """Bots play each ruleset to its end: each outcome says how it ended, typed, and its
    words are the ones its type makes."""
    seen = set()
    for rules in known_games():
        ruleset = find_game(rules)
        for seed in range(12):
            rng = random.Random(seed)
            options = ruleset.options({"secretmove": {}, "froglet": {"size": 4}}.get(
                rules, {"size": 4, "frogs": 2}))
            seats = ruleset.seat_order[:2]
            public, secrets = ruleset.deal(options, seats, rng)
            state = ruleset.start(options, seats, public, secrets)
            while (seat := ruleset.to_move(state)) is not None:
                move = ruleset.automatic(state) or ruleset.parse_move(
                    ruleset.bot.move(ruleset.view(state, frozenset([seat])), seat, rng,
                                     "random" if seed % 3 else "greedy")
                    if seed % 5 else "resign")
                state, _ = ruleset.play(state, seat, move)
            outcome = ruleset.outcome(state)
            assert outcome is not None and outcome.how is not Termination.OTHER, outcome
            assert outcome.termination == outcome.how.words(outcome.subject)
            assert Termination.parse(outcome.termination) == (outcome.how, outcome.subject)
            seen.add(outcome.how)
    assert {Termination.RESIGNED, Termination.ALL_REVEALED, Termination.NO_JUMP_LEFT} <= seen
