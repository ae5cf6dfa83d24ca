"""The replayed state kept between commands: exact, sealed and signed, never trusted changed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem import crypto
from frogpbem.board import Board, Square
from frogpbem.demo import play_demo
from frogpbem.protocol import replays
from frogpbem.protocol.game import REFEREE, known_secrets, load, replay, states, unasked
from tests.conftest import Keys, Result, here

RULES = [("frogfinder", {"size": "6", "frogs": "3"}), ("coan", {"size": "7", "frogs": "2"}),
         ("froglet", {"size": "6"}), ("secretmove", {})]


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, frozenset):
        return a == b
    fields = getattr(a, "__dataclass_fields__", None)
    if fields is not None:
        return all(_same(getattr(a, name), getattr(b, name)) for name in fields
                   if hasattr(a, name))
    return bool(a == b)


@pytest.mark.parametrize(("rules", "options"), RULES)
def test_every_state_of_a_whole_game_comes_back_exactly(tmp_path: Path, rules: str,
                                                        options: dict[str, str]) -> None:
    """Every state of a finished game (all secrets known), through JSON text and back:
    equal, of the same types, and every viewer's view the same, in the same order."""
    played = play_demo(tmp_path / rules, rules, seed=5, options=options, session=here())
    game = load(played.game, here())
    secrets = known_secrets(game, None, None)  # after the reveal, everybody's
    ruleset = game.ruleset
    viewers = [frozenset(), *(frozenset([seat]) for seat in game.seats),
               frozenset(game.seats)]
    count = 0
    for _record, state in states(game, secrets):
        back = replays.decode(json.loads(json.dumps(replays.encode(state))))
        assert back == state and _same(back, state)
        for seen in viewers:
            assert json.dumps(ruleset.view(back, seen).to_json()) == \
                json.dumps(ruleset.view(state, seen).to_json())
        assert ruleset.scores(back) == ruleset.scores(state)
        count += 1
    assert count == len(game.file.log) > 0


def test_only_the_rules_own_types_are_written_or_made() -> None:
    with pytest.raises(replays.Unkept):
        replays.encode(object())
    with pytest.raises(replays.Unkept):
        replays.encode(1.5)
    with pytest.raises(replays.Unkept):
        replays.encode(crypto)  # a module
    for made in ({"c": "os:system", "v": ["echo"]},
                 {"c": "frogpbem.crypto.keys:PublicKey", "v": ["x", "y", "z"]},
                 {"c": "frogpbem.board:Square", "v": [1]},  # one field short
                 {"c": "frogpbem.board:Board", "v": [0]},  # its own check refuses it
                 {"x": []}, {"t": "no list"}, {"d": [[1]]}, 2.5, [1]):
        with pytest.raises(replays.Unkept):
            replays.decode(made)
    assert replays.decode({"c": "frogpbem.board:Square", "v": [2, 3]}) == Square(2, 3)
    assert replays.decode(replays.encode({Square(0, 1): (Board(5), None)})) == \
        {Square(0, 1): (Board(5), None)}


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3) |
                     st.floats(allow_nan=False),
                     lambda inner: st.lists(inner, max_size=3) |
                     st.dictionaries(st.sampled_from(["t", "l", "f", "d", "c", "v", "x"]),
                                     inner, max_size=2), max_leaves=12)


@given(_JSON)
@settings(max_examples=300)
def test_any_json_is_decoded_or_refused_in_one_way(data: Any) -> None:
    """Whatever a changed file holds: a value that encodes back to it, or Unkept."""
    try:
        value = replays.decode(data)
    except replays.Unkept:
        return
    assert replays.decode(replays.encode(value)) == value


def _counting(monkeypatch: pytest.MonkeyPatch, rules: Any) -> list[str]:
    played: list[str] = []
    real = type(rules).play

    def counting(self: Any, state: Any, seat: str, move: Any, claimed: Any = None) -> Any:
        played.append(str(move))
        return real(self, state, seat, move, claimed)

    monkeypatch.setattr(type(rules), "play", counting)
    return played


def test_the_next_command_replays_only_the_new_records(
        new_game: Callable[..., Path], play: Callable[..., Result], keys: Keys,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    _forget_kept()
    referee = keys.key("referee")
    loaded = load(game, here())  # a session of its own: what another command starts with
    secrets = known_secrets(loaded, REFEREE, referee)
    with monkeypatch.context() as patched:
        played = _counting(patched, loaded.ruleset)
        first = replay(loaded, secrets, referee, keeper=referee)
    assert played == ["shoot C3", "guess A2"] and first.since == 0
    loaded.stores.finish()
    kept = loaded.stores.replays.path(loaded.game_id, referee, REFEREE)
    assert kept.parent == tmp_path / "state" / "replays"
    data = kept.read_bytes()
    assert b'"state"' not in data and b"frogpbem.games" not in data  # sealed: nothing shows
    assert kept.stat().st_mode & 0o777 == 0o600

    play(game, "alice", "shoot D4")
    kept.write_bytes(data)  # (what the commands of play() kept: not used)
    longer = load(game, here())
    with monkeypatch.context() as patched:
        played = _counting(patched, longer.ruleset)
        again = replay(longer, secrets, referee, keeper=referee)
    assert played == ["shoot D4"] and again.since == 2  # from the kept state
    whole = replay(load(game, here()), secrets, referee)  # no keeper: from the first record
    assert again.final == whole.final and whole.since == 0
    with pytest.raises(ValueError, match="from its first record"):
        unasked(longer, again)  # the audit's question needs every state


def _forget_kept() -> None:
    """Leave aside the replays that the commands of ``play()`` kept (each command keeps its
    own when it is done)."""
    shutil.rmtree(here().replays.folder, ignore_errors=True)


def _replayed_from_start(game: Path, key: crypto.PrivateKey, monkeypatch: pytest.MonkeyPatch,
                         role: str = REFEREE) -> bool:
    loaded = load(game, here())
    with monkeypatch.context() as patched:
        played = _counting(patched, loaded.ruleset)
        done = replay(loaded, known_secrets(loaded, role, key), key, keeper=key)
    # the session is not finished: the file stays as the test made it
    return done.since == 0 and len(played) == len(loaded.file.log)


def test_a_kept_replay_changed_forged_or_for_another_history_is_not_used(
        new_game: Callable[..., Path], play: Callable[..., Result], keys: Keys,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    _forget_kept()
    referee = keys.key("referee")
    loaded = load(game, here())
    replay(loaded, known_secrets(loaded, REFEREE, referee), referee, keeper=referee)
    loaded.stores.finish()
    kept = loaded.stores.replays.path(loaded.game_id, referee, REFEREE)
    good = kept.read_bytes()
    assert not _replayed_from_start(game, referee, monkeypatch)  # the kept one is used

    value = json.loads(good)  # one character of the sealed text changed
    sealed = value["sealed"]
    middle = len(sealed) // 2
    value["sealed"] = sealed[:middle] + ("A" if sealed[middle] != "A" else "B") + \
        sealed[middle + 1:]
    kept.write_text(json.dumps(value))
    assert _replayed_from_start(game, referee, monkeypatch)

    # sealed to the referee and signed, but by another key: anyone can seal to a public key
    other = keys.key("alice")
    payload = crypto.unseal(json.loads(good)["sealed"], referee)
    forged = crypto.seal(payload, [referee.public])
    kept.write_text(json.dumps({"sealed": forged, "signature": crypto.b64encode(
        crypto.sign_blob(other, forged.encode(), replays.NAMESPACE))}))
    assert _replayed_from_start(game, referee, monkeypatch)

    # the referee's own signature in another namespace (a game element's) does not do
    kept.write_text(json.dumps({"sealed": forged, "signature": crypto.b64encode(
        crypto.sign_blob(referee, forged.encode()))}))
    assert _replayed_from_start(game, referee, monkeypatch)

    for garbage in (b"", b"{}", b"not json", b'{"sealed": 1, "signature": 2}'):
        kept.write_bytes(garbage)
        assert _replayed_from_start(game, referee, monkeypatch)

    kept.write_bytes(good)  # the history it was made from is not this one
    history = game.read_text()
    assert not _replayed_from_start(game, referee, monkeypatch)
    bob = keys.key("bob")  # another role, with its own key: a replay of its own
    assert _replayed_from_start(game, bob, monkeypatch, role="blue")
    assert history == game.read_text()  # nothing here writes the game


def test_the_records_digest_decides(keys: Keys, monkeypatch: pytest.MonkeyPatch) -> None:
    referee = keys.key("referee")
    replays = here().replays
    replays.keep("g-1", referee, "referee", "memo", ["h1", "h2"], Square(1, 1))
    replays.flush()
    assert replays.read("g-1", referee, "referee", "memo", ["h1", "h2", "h3"]) == \
        (2, Square(1, 1))
    assert replays.read("g-1", referee, "referee", "memo", ["h1", "hX", "h3"]) is None
    assert replays.read("g-1", referee, "referee", "memo", ["h1"]) is None  # shorter
    assert replays.read("g-1", referee, "referee", "other memo", ["h1", "h2"]) is None
    assert replays.read("g-1", referee, "blue", "memo", ["h1", "h2"]) is None
    assert replays.read("g-2", referee, "referee", "memo", ["h1", "h2"]) is None
    replays.keep("g-1", referee, "referee", "memo", ["h1", "h2"], object())
    replays.flush()  # a state the store cannot write: the one kept before stays
    assert replays.read("g-1", referee, "referee", "memo", ["h1", "h2"]) == (2, Square(1, 1))


def test_commands_keep_their_replays_for_the_next(
        new_game: Callable[..., Path], play: Callable[..., Result], keys: Keys,
        tmp_path: Path) -> None:
    """The real command line, twice: the first keeps the seat's replay, the second uses it
    and shows the same view."""
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    env = {**os.environ, "FROGPBEM_STATE": str(tmp_path / "bob-state"),
           "FROGPBEM_HOME": str(tmp_path / "bob-home")}
    command = [sys.executable, "-m", "frogpbem", "view", str(game), "--key",
               str(keys.path("bob"))]
    first = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stderr
    (kept,) = (tmp_path / "bob-state" / "replays").iterdir()
    made = kept.stat().st_mtime_ns
    second = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert second.returncode == 0 and second.stdout == first.stdout
    assert "C3" in first.stdout
    assert kept.stat().st_mtime_ns >= made  # kept again, at the same head


def test_a_store_that_cannot_be_written_or_read_costs_only_time(
        keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    referee = keys.key("referee")
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setenv("FROGPBEM_STATE", str(blocked))
    replays = here().replays
    replays.keep("g-1", referee, "referee", "memo", ["h1"], Square(0, 0))
    replays.flush()  # nothing written, nothing raised
    assert replays.read("g-1", referee, "referee", "memo", ["h1"]) is None
    monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / "state"))
    replays = here().replays
    path = replays.path("g-1", referee, "referee")
    path.parent.mkdir(parents=True)
    path.write_text("[" * 100_000 + "]" * 100_000)  # nested past any parser's depth
    assert replays.read("g-1", referee, "referee", "memo", ["h1"]) is None


def test_a_replay_continued_from_the_store_is_kept_again_every_few_records(
        new_game: Callable[..., Path], play: Callable[..., Result], keys: Keys,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept replay stays as it is until KEEP_EVERY records follow it; each command in
    between continues from it, and the one that reaches KEEP_EVERY keeps its own."""
    monkeypatch.setattr(replays, "KEEP_EVERY", 2)
    game = new_game()
    play(game, "alice", "shoot C3")
    _forget_kept()
    referee = keys.key("referee")
    loaded = load(game, here())
    secrets = known_secrets(loaded, REFEREE, referee)
    replay(loaded, secrets, referee, keeper=referee)
    loaded.stores.finish()
    kept = loaded.stores.replays.path(loaded.game_id, referee, REFEREE)
    first = kept.read_bytes()
    for move, player, since, written in (("guess A2", "bob", 1, False),
                                         ("shoot D4", "alice", 1, True),
                                         ("shoot C5", "bob", 3, False)):
        before = kept.read_bytes()
        play(game, player, move)
        kept.write_bytes(before)  # (what the commands of play() kept: not used)
        longer = load(game, here())
        again = replay(longer, secrets, referee, keeper=referee)
        assert again.since == since
        assert again.final == replay(load(game, here()), secrets, referee).final  # from the start
        assert bool(longer.stores.replays.pending) == written
        longer.stores.finish()
        assert (kept.read_bytes() != first) == (written or since == 3)
