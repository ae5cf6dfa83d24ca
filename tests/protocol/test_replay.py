"""A replay made before in the process is continued, never trusted for a changed history."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from frogpbem.errors import InconsistentResultError
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.document import read_game
from frogpbem.protocol import game as protocol
from frogpbem.protocol.game import REFEREE, Game, known_secrets, load, replay
from tests.conftest import Cli, Keys, Result, here, write_setup
from tests.test_audit import resign


def test_a_replay_goes_on_from_the_last_one_and_a_changed_record_is_replayed(
        new_game: Callable[..., Path], play: Callable[..., Result], keys: Keys,
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    session = here()  # a session of its own: nothing kept from before
    loaded = load(game, session)
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
    again = replay(load(game, session), secrets, referee)
    assert played == [] and again.final == first.final
    monkeypatch.setattr(rules, "play", real)
    play(game, "alice", "shoot D4")
    monkeypatch.setattr(rules, "play", counting)
    longer = load(game, session)
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
    forged = Game(game, file, loaded.ruleset, session,
                  protocol.typed_results(file, loaded.ruleset))
    played.clear()
    with pytest.raises(InconsistentResultError) as refused:
        replay(forged, secrets, referee)
    assert refused.value.element == "record 1 (red shoot C3)"
    assert played == ["shoot C3"]  # replayed from the start, not continued


def test_records_the_referee_adds_by_itself_are_replayed_for_the_audit(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record without a request (here a forfeit on time) added to a game in memory, then
    replayed there: the audit of the file in the same process still finds the state
    before it (bench/bench_audit.py found a demo game where it did not)."""
    from frogpbem.audit import audit
    from frogpbem.referee import apply_timeout

    monkeypatch.setenv("FROGPBEM_NOW", "2026-12-01T00:00:00Z")
    game = tmp_path / "timed.yaml"
    made = cli("new", game, "--referee", keys.path("referee"), "--seat",
               f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--option", "size=6", "--option", "frogs=2", "--option", "deadline=1h",
               "--setup", write_setup(tmp_path))
    assert made.exit_code == 0, made.output
    referee = keys.key("referee")
    session = here()
    loaded = load(game, session, session.memory)
    apply_timeout(loaded, referee, session.memory, at="2026-12-01T02:00:00Z")
    assert loaded.file.reveal is not None
    replay(loaded, known_secrets(loaded, None, None))  # kept for the public, after the end
    monkeypatch.setenv("FROGPBEM_NOW", "2026-12-01T02:00:00Z")  # the audit's clock: not before
    report = audit(game, clock=here().clock)
    assert report.ok and report.unasked == [], report.text()
