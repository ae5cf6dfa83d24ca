"""What the fuzzers call: each target takes any input and ends in a result or a FrogPbemError.

Any other exception escapes, and the fuzzer reports it as a crash.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from frogpbem.audit import verify
from frogpbem.errors import FrogPbemError
from frogpbem.gamefile.document import parse_game
from frogpbem.gamefile.forkproof import ForkProof
from frogpbem.games import find_game

SAMPLE = (Path(__file__).resolve().parent.parent / "examples" / "finished-frogfinder"
          / "game.yaml").read_bytes()
"""A finished, valid game file to damage."""
RULESETS = ("frogfinder", "coan", "froglet", "secretmove")


def load_bytes(data: bytes) -> Any:
    """Parse and type a game file's bytes; ``None`` when it is refused."""
    try:
        return parse_game(data, "<fuzz>")
    except FrogPbemError:
        return None


def verify_bytes(data: bytes) -> Any:
    """Everything ``frogpbem verify`` checks, on a file holding ``data``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.yaml"
        path.write_bytes(data)
        try:
            return verify(path)
        except FrogPbemError:
            return None


def parse_notation(rules: str, text: str) -> Any:
    """Every parser a player's text reaches: move, square, and a chosen secret."""
    ruleset = find_game(rules)
    results = []
    for parse in (ruleset.parse_move, ruleset.parse_secret):
        try:
            results.append(parse(text))
        except FrogPbemError:
            results.append(None)
    for move in results[:1]:
        if move is not None:
            ruleset.format_move(move)
            ruleset.public_move(move)
    return results


def parse_proof(text: str) -> Any:
    try:
        return ForkProof.parse(text)
    except FrogPbemError:
        return None
