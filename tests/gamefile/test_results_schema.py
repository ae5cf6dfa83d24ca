"""Each ruleset's result shapes are in schemas/results.schema.json, and parse_result agrees."""

from __future__ import annotations

from typing import Any

import pytest

from frogpbem.errors import GameFileError, NotationError
from frogpbem.gamefile import schema
from frogpbem.games import RULESETS, find_game

VALID = {
    "frogfinder": [{"count": 0}, {"count": 8}, {"shot": "blue"}, {"found": "red"},
                   {"miss": True}, {"resigned": True}],
    "coan": [{"count": 3}, {"resigned": True, "frogs": {"black": ["C4", "A1"]}}],
    "froglet": [{"removed": "G"}, {"captured": ["Y", "G"], "points": 3}, {"resigned": True}],
    "secretmove": [{}, {"auto": True}, {"guessed": True}, {"resigned": True}],
}
MALFORMED = {
    "frogfinder": [{"count": [1]}, {"count": 1, "miss": True}, {"miss": False}, {"shot": 5},
                   {"found": "Red"}],
    "coan": [{"resigned": True, "frogs": {"red": []}}, {"resigned": False}],
    "froglet": [{"removed": "Y"}, {"captured": [], "points": 0}, {"captured": ["X"],
                                                                   "points": 1}],

    "secretmove": [{"auto": False}, {"guessed": 1}, {"moved": True}],
}


def _schema_accepts(rules: str, result: Any) -> bool:
    try:
        schema._compiled("results.schema.json", ("$defs", rules))(result, ())
    except schema._Invalid:
        return False
    return True


@pytest.mark.parametrize("rules", sorted(VALID))
def test_valid_results_pass_both(rules: str) -> None:
    ruleset = find_game(rules)
    for result in VALID[rules]:
        assert _schema_accepts(rules, result), result
        assert ruleset.parse_result(result).to_json() == result


@pytest.mark.parametrize("rules", sorted(MALFORMED))
def test_malformed_results_fail_both(rules: str) -> None:
    ruleset = find_game(rules)
    for result in MALFORMED[rules]:
        with pytest.raises(NotationError):
            ruleset.parse_result(result)
        assert not _schema_accepts(rules, result), result


def test_schema_errors_are_game_file_errors() -> None:
    with pytest.raises(GameFileError):
        schema.validate({"frogpbem": 2}, "game", "x")


def test_the_schema_has_the_results_of_every_ruleset_in_the_registry() -> None:
    root = schema.load_schema("results.schema.json")
    assert list(root["$defs"]) == list(RULESETS)
