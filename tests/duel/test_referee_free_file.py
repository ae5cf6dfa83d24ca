"""The file of a game without a referee: its shape, signatures, chain, and the engine's
checks of every message (docs/format.md, "The file without a referee")."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource

from frogpbem import crypto
from frogpbem.duel import engine
from frogpbem.duel.memory import DuelMemory
from frogpbem.errors import (
    ChainError,
    CommitmentError,
    ForkError,
    FrogPbemError,
    GameFileError,
    InconsistentResultError,
    SignatureError,
    StaleCopyError,
)
from frogpbem.gamefile import schema, strictyaml
from frogpbem.gamefile.duelfile import (
    DuelFile,
    JoinPart,
    Message,
    dump_duel,
    is_duel,
    parse_duel,
)
from frogpbem.gamefile.model import Party
from frogpbem.games.froglet import legal_paths
from frogpbem.protocol.session import Session
from tests.conftest import Keys


def plain_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()


@dataclass
class Game:
    path: Path
    white: Session
    black: Session
    keys: Keys

    def file(self) -> DuelFile:
        return parse_duel(self.path.read_bytes(), "game")


@pytest.fixture
def game(tmp_path: Path, keys: Keys) -> Game:
    white = Session.from_environment(home=tmp_path / "hw", state=tmp_path / "sw")
    black = Session.from_environment(home=tmp_path / "hb", state=tmp_path / "sb")
    alice, bob = keys.key("alice"), keys.key("bob")
    file = engine.create("froglet", alice, [Party("Bob", bob.public.line, "black"),
                                            Party("Alice", alice.public.line, "white")],
                         {"size": "4"}, white.clock.text(), "fl-test2345")
    path = tmp_path / "game.yaml"
    engine.write_new(path, file, white)
    return Game(path, white, black, keys)


def play_out(game: Game, seed: int, moves: int | None = None) -> None:
    """Join, deal, then random legal moves (from the rules) until the end or ``moves``."""
    rng = random.Random(seed)
    engine.add(game.path, game.keys.key("bob"), None, game.black)
    engine.add(game.path, game.keys.key("alice"), None, game.white)
    count = 0
    while moves is None or count < moves:
        state = engine.load(game.path, None).progress.state
        if state.outcome is not None:
            return
        seat = state.seats[state.ply % 2]
        if state.ply == 0:
            move = "remove " + rng.choice(sorted(s.name for s, c in state.frogs.items()
                                                 if c == "G"))
        else:
            move = "-".join(s.name for s in rng.choice(legal_paths(state))[0])
        player, session = ("alice", game.white) if seat == "white" else ("bob", game.black)
        engine.add(game.path, game.keys.key(player), move, session)
        count += 1


# --- the file's shape -----------------------------------------------------------------


def reference_validator() -> jsonschema.Draft202012Validator:
    folder = schema.schema_dir()
    resources = [(f"{name}.schema.json", Resource.from_contents(
        json.loads((folder / f"{name}.schema.json").read_text())))
        for name in ("game", "request", "duel")]
    registry: Registry[Any] = Registry().with_resources(resources)
    return jsonschema.Draft202012Validator(
        json.loads((folder / "duel.schema.json").read_text()), registry=registry)


def keywords(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for sub in value.values():
                    found |= keywords(sub)
            else:
                found.add(key)
                found |= keywords(value)
    elif isinstance(node, list):
        for item in node:
            found |= keywords(item)
    return found


def test_referee_free_schema_uses_only_supported_keywords() -> None:
    loaded = schema.load_schema("duel.schema.json")
    jsonschema.Draft202012Validator.check_schema(loaded)
    assert keywords(loaded) <= schema.SUPPORTED


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*path, index))
    return found


REPLACEMENTS = [None, True, 0, -1, "x", "", [], {}, "sha256:" + "0" * 64, [1], {"a": 1},
                "ab" * 32]


def test_referee_free_schema_agrees_with_jsonschema_on_broken_files(game: Game) -> None:
    play_out(game, seed=3)
    doc = strictyaml.loads(game.path.read_bytes())
    reference = reference_validator()
    assert reference.is_valid(doc)
    schema.validate(doc, "duel", "game")
    rng = random.Random(7)
    for where in rng.sample(paths(doc)[1:], 30):
        for replacement in rng.sample(REPLACEMENTS, 3):
            broken = copy.deepcopy(doc)
            parent = broken
            for part in where[:-1]:
                parent = parent[part]
            parent[where[-1]] = replacement
            ours = True
            try:
                schema.validate(broken, "duel", "broken")
            except GameFileError:
                ours = False
            assert ours == reference.is_valid(broken), (where, replacement)


def test_referee_free_file_writes_back_as_read_within_76_columns(game: Game) -> None:
    play_out(game, seed=4)
    data = game.path.read_bytes()
    assert is_duel(data)
    assert max(len(line) for line in data.decode().splitlines()) <= 76
    assert dump_duel(parse_duel(data, "game")) == data
    reread = strictyaml.loads(data)
    assert list(reread) == ["frogpbem", "header", "messages"]
    assert reread["header"]["mode"] == "no-referee" and reread["header"]["notary"] is None


def test_referee_free_a_referee_file_is_not_taken_for_one(finished_game: Path) -> None:
    assert not is_duel(finished_game.read_bytes())


@given(st.lists(st.sampled_from([b"messages:", b"messages", b"\n", b"\r", b" ", b"x",
                                b"frogpbem: 2\n", b">"]), max_size=12).map(b"".join))
def test_referee_free_is_duel_looks_for_a_line_that_begins_messages(tail: bytes) -> None:
    """A file is one without a referee when a line of it (after ``frogpbem: ``) begins
    with ``messages:``: as a multi-line regular expression finds it."""
    import re

    data = b"frogpbem: 2\n" + tail
    assert is_duel(data) == (re.search(rb"^messages:", data, re.MULTILINE) is not None)


def test_referee_free_signatures_and_chain_as_the_spec_says(game: Game) -> None:
    play_out(game, seed=5)
    doc = strictyaml.loads(game.path.read_bytes())
    keys = {party["seat"]: crypto.PublicKey.parse(party["key"])
            for party in doc["header"]["seats"]}
    assert [party["seat"] for party in doc["header"]["seats"]] == ["white", "black"]

    def signed(kind: str, element: dict[str, Any]) -> bytes:
        body = {k: v for k, v in element.items() if k != "signature"}
        return f"frogpbem/1 {kind}\n".encode() + plain_json(body)

    header = signed("duel", doc["header"])
    crypto.verify_message(keys["white"], header, doc["header"]["signature"])
    prev = "sha256:" + hashlib.sha256(header).hexdigest()
    for number, message in enumerate(doc["messages"], 1):
        assert message["n"] == number and message["prev"] == prev
        data = signed("message", message)
        crypto.verify_message(keys[message["seat"]], data, message["signature"])
        with pytest.raises(SignatureError):  # a signature of one kind is none of another
            crypto.verify_message(keys[message["seat"]], signed("record", message),
                                  message["signature"])
        prev = "sha256:" + hashlib.sha256(data).hexdigest()
    assert "duel" in crypto.KINDS and "message" in crypto.KINDS


hexes = st.text("0123456789abcdef", min_size=64, max_size=64)
hashes = hexes.map(lambda h: "sha256:" + h)
steps = st.recursive(st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text("abcxyz", min_size=1, max_size=5), inner,
                                       max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 10**6), prev=hashes, seat=st.sampled_from(["white", "black"]),
       join=st.none() | st.tuples(hashes, hexes), public=st.none() | hexes,
       step=st.none() | steps.filter(lambda s: s is not None),
       move=st.none() | st.text("abcdefgh12345678- ", min_size=1, max_size=30),
       resign=st.none() | st.just(True), reveal=st.none() | hexes)
def test_referee_free_any_message_writes_back_and_signs_its_canonical_json(
        keys: Keys, n: int, prev: str, seat: str, join: tuple[str, str] | None,
        public: str | None, step: Any, move: str | None, resign: bool | None,
        reveal: str | None) -> None:
    sealed = "-----BEGIN AGE ENCRYPTED FILE-----\nYWJj\n-----END AGE ENCRYPTED FILE-----\n"
    message = Message(n, prev, seat, "2026-01-02T03:04:05Z",
                      JoinPart(join[0], join[1], sealed) if join else None, public,
                      {"setup": step} if step is not None else None, move, resign, reveal)
    data = message.to_json()
    assert list(data) == [k for k in ("n", "prev", "seat", "at", "join", "public", "setup",
                                      "move", "resign", "reveal", "signature") if k in data]
    assert Message.from_json(data) == message
    body = {k: v for k, v in data.items() if k != "signature"}
    assert message.signed_bytes == b"frogpbem/1 message\n" + plain_json(body)
    lines = message.yaml_lines("-")
    assert strictyaml.loads(("\n".join(lines) + "\n").encode()) == [data]


# --- the engine's checks ----------------------------------------------------------------


def written(game: Game, file: DuelFile) -> Path:
    path = game.path.with_name("copy.yaml")
    path.write_bytes(dump_duel(file))
    return path


def resigned(message: Message, keys: Keys, player: str, **changes: Any) -> Message:
    return replace(message, **changes).signed(keys.key(player))


def refusal(path: Path) -> FrogPbemError:
    with pytest.raises(FrogPbemError) as caught:
        engine.load(path, None)
    return caught.value


def test_referee_free_the_deal_is_froglets_from_both_seeds(game: Game) -> None:
    play_out(game, seed=6, moves=0)
    file = game.file()
    join = file.messages[0].join
    white = file.messages[1].reveal
    assert join is not None and white is not None and file.messages[1].seat == "white"
    fields = {"game": file.game, "seat": "white", "secret": white}
    assert "sha256:" + hashlib.sha256(b"frogpbem/1 duel-seed\n" + plain_json(fields)) \
        .hexdigest() == file.header.secret.commitment
    key = hashlib.sha512(b"frogpbem/1 duel-deal\n" + plain_json(
        {**fields, "other": join.public, "attempt": 0})).digest()[:32]
    from frogpbem.games.froglet import Froglet
    public, _ = Froglet().deal({"size": 4}, ("white", "black"), crypto.DerivedChance(key))
    assert engine.load(game.path, None).progress.steps["public"] == public


@pytest.mark.parametrize("change, error, words", [
    ({"n": 5}, ChainError, "numbered 5, where message 3 comes"),
    ({"prev": "sha256:" + "0" * 64}, ChainError, "does not follow message 2"),
    ({"at": "2000-01-01T00:00:00Z"}, ChainError, "dated before"),
    ({"move": None}, InconsistentResultError, "an empty message"),
    ({"move": "resign"}, InconsistentResultError, "resign: true"),
    ({"steps": {"setup": {"any": 1}}}, InconsistentResultError, "no 'setup' step"),
    ({"public": "ab" * 32}, InconsistentResultError, "Froglet shows no public seed"),
    ({"move": "Z9-Z7"}, InconsistentResultError, "off the board"),
])
def test_referee_free_a_message_that_does_not_follow_is_refused(
        game: Game, change: dict[str, Any], error: type[FrogPbemError], words: str) -> None:
    play_out(game, seed=8, moves=1)
    file = game.file()
    third = resigned(file.messages[2], game.keys, "alice", **change)
    path = written(game, DuelFile(file.header, (*file.messages[:2], third)))
    found = refusal(path)
    assert isinstance(found, error), found
    assert words in str(found) and "message 3 (white)" in str(found)


def test_referee_free_white_cannot_write_before_black_joined(game: Game) -> None:
    file = game.file()
    first = Message(1, file.head, "white", file.header.created, move="remove A1")
    path = written(game, file.added(first.signed(game.keys.key("alice"))))
    found = refusal(path)
    assert isinstance(found, InconsistentResultError)
    assert "black's step, not white's" in str(found)


def test_referee_free_a_resignation_may_come_out_of_turn_and_ends_it(game: Game) -> None:
    play_out(game, seed=9, moves=1)  # black to move; white resigns
    engine.add(game.path, game.keys.key("alice"), "resign", game.white)
    progress = engine.load(game.path, None).progress
    assert progress.over
    outcome = progress.ruleset.outcome(progress.state)
    assert outcome is not None and outcome.termination == "white resigned"
    file = game.file()
    late = Message(file.messages[-1].n + 1, file.head, "black", file.messages[-1].at,
                   move="A1-A3")
    found = refusal(written(game, file.added(late.signed(game.keys.key("bob")))))
    assert "the game is over" in str(found)


def test_referee_free_black_may_reveal_at_the_end_and_it_is_checked(game: Game) -> None:
    play_out(game, seed=10, moves=1)
    engine.add(game.path, game.keys.key("bob"), "resign", game.black)
    file = game.file()
    own = engine.own_secret(engine.load(game.path, None).progress, file, "black",
                            game.keys.key("bob"))
    assert own is not None
    good = Message(file.messages[-1].n + 1, file.head, "black", file.messages[-1].at,
                   reveal=own.secret).signed(game.keys.key("bob"))
    engine.replay(file.added(good))
    bad = resigned(good, game.keys, "bob", reveal="11" * 32)
    with pytest.raises(CommitmentError, match="does not match its seed commitment"):
        engine.replay(file.added(bad))


def test_referee_free_memory_refuses_rollback_and_fork(game: Game, tmp_path: Path) -> None:
    play_out(game, seed=11, moves=2)
    memory = DuelMemory(tmp_path / "watcher")
    older = game.file()
    memory.see(older, game.path)
    state = engine.load(game.path, None).progress.state
    move = "-".join(s.name for s in legal_paths(state)[0][0])
    engine.add(game.path, game.keys.key("alice"), move, game.white)
    newer = game.file()
    memory.see(newer, game.path)
    with pytest.raises(StaleCopyError, match="a rollback"):
        memory.see(older, game.path)
    other = legal_paths(state)[-1][0]
    assert len(legal_paths(state)) > 1
    forked = resigned(newer.messages[-1], game.keys, "alice",
                      move="-".join(s.name for s in other))
    with pytest.raises(ForkError, match=f"message {forked.n} differs"):
        memory.see(DuelFile(newer.header, (*newer.messages[:-1], forked)), game.path)
    memory.see(newer, game.path)  # the same copy again is fine


def test_referee_free_the_sealed_secret_opens_only_with_its_seats_key(game: Game) -> None:
    file = game.file()
    secret = engine.open_secret(file.header.secret.sealed, file.game, "white",
                                file.header.secret.commitment, game.keys.key("alice"))
    assert secret.seed_commitment() == file.header.secret.commitment
    assert crypto.sealed_to_exactly(file.header.secret.sealed, [game.keys.key("alice").public])
    with pytest.raises(FrogPbemError):
        engine.open_secret(file.header.secret.sealed, file.game, "white",
                           file.header.secret.commitment, game.keys.key("bob"))
