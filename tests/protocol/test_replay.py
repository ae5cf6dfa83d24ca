"""A replay made before in the process is continued, never trusted for a changed history."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from frogpbem.errors import InconsistentResultError
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.document import read_game
from frogpbem.protocol import game as protocol
from frogpbem.protocol.game import REFEREE, Game, known_secrets, load, replay
from tests.conftest import Keys, Result
from tests.test_audit import resign


def test_a_replay_goes_on_from_the_last_one_and_a_changed_record_is_replayed(
        new_game: Callable[..., Path], play: Callable[..., Result], keys: Keys,
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    monkeypatch.setattr(protocol, "_REPLAYS", OrderedDict())  # nothing kept from before
    loaded = load(game)
    rules = type(loaded.ruleset)
    played: list[str] = []
    real = rules.play

    def counting(self: Any, state: Any, seat: str, move: Any, claimed: Any = None) -> Any:
        played.append(str(move))
        return real(self, state, seat, move, claimed)

    monkeypatch.setattr(rules, "play", counting)
    referee = keys.key("referee")
    secrets = known_secrets(loaded, REFEREE, referee)
    first = replay(loaded, secrets, referee)
    assert played == ["shoot C3", "guess A2"]
    played.clear()
    again = replay(load(game), secrets, referee)
    assert played == [] and again.final == first.final
    monkeypatch.setattr(rules, "play", real)
    play(game, "alice", "shoot D4")
    monkeypatch.setattr(rules, "play", counting)
    longer = load(game)
    replay(longer, secrets, referee)
    assert played == ["shoot D4"]  # only the new record
    played.clear()
    replay(longer, known_secrets(longer, "red", keys.key("alice")), keys.key("alice"))
    assert played == ["shoot C3", "guess A2", "shoot D4"]  # another role: a replay of its own

    doc = strictyaml.loads(game.read_bytes())  # the referee rewrites record 1's result
    doc["log"][0]["result"] = {"count": 2}
    resign(doc, referee)
    game.write_text(strictyaml.dumps(doc))
    file = read_game(game)
    forged = Game(game, file, loaded.ruleset, protocol.typed_results(file, loaded.ruleset))
    played.clear()
    with pytest.raises(InconsistentResultError) as refused:
        replay(forged, secrets, referee)
    assert refused.value.element == "record 1 (red shoot C3)"
    assert played == ["shoot C3"]  # replayed from the start, not continued
