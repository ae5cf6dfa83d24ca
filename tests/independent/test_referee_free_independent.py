"""docs/format.md is enough to verify a game without a referee: the independent verifier
(tests/independent/ffverify.py, written from the docs alone) accepts a whole Frog Finder
game played through the real command line, agrees with ``frogpbem audit`` on the outcome,
and refuses the file changed by hand: as it is (a broken signature, a broken chain), and
signed again by the seats' own keys (here in the test, with ``cryptography``), where only
the docs' proofs and openings catch the lie. A second game ends in a complaint against a
count box made false by hand (the mover forfeits), which the verifier checks as the docs
say and refuses once the box is true again."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import random
import re
import shutil
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import load_ssh_private_key
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from frogpbem.cli import app
from tests.conftest import Keys
from tests.independent import ffverify
from tests.independent.ffverify import VerifyError, verify_game

SIZE, FROGS = 5, 2
PLAYERS = {"red": "alice", "blue": "bob"}
OTHER = {"red": "blue", "blue": "red"}


@dataclass(frozen=True)
class Played:
    """A finished game: its file's bytes, and what ``frogpbem audit --json`` said."""

    data: bytes
    audit: list[dict[str, Any]]
    verify_exit: int


class _Table:
    """Two seats' tools, each with its home and folder, and the file carried between them
    as a mail would."""

    def __init__(self, root: Path, keys: Keys) -> None:
        self.root, self.keys = root, keys
        self.games = {seat: root / seat / "game.yaml" for seat in PLAYERS}
        for path in self.games.values():
            path.parent.mkdir()

    def run(self, seat: str | None, *args: str | Path) -> Any:
        """``frogpbem ARGS`` as ``seat``'s tool (None: a spectator, without a key)."""
        player = PLAYERS[seat] if seat else None
        env = {"HOME": str(self.root / "home"),
               "FROGPBEM_HOME": str(self.root / f"home-{player}"),
               "FROGPBEM_STATE": str(self.root / f"state-{player}")}
        extra = ["--key", str(self.keys.path(player))] if player else []
        return CliRunner().invoke(app, [*(str(a) for a in args), *extra], env=env,
                                  catch_exceptions=False)

    def send(self, seat: str) -> None:
        shutil.copyfile(self.games[seat], self.games[OTHER[seat]])

    def deal(self) -> None:
        """Create, join, set up and overlap until red's overlap deals the board."""
        made = self.run("red", "new", self.games["red"], "--rules", "frogfinder",
                        "--no-referee", "--seat", f"red={self.keys.pub('alice')}",
                        "--seat", f"blue={self.keys.pub('bob')}",
                        "--option", f"size={SIZE}", "--option", f"frogs={FROGS}")
        assert made.exit_code == 0, made.output
        self.send("red")
        seat = "blue"
        for _ in range(20):
            done = self.run(seat, "move", self.games[seat])
            assert done.exit_code == 0, done.output
            self.send(seat)
            if "the board is dealt" in done.stdout:
                break
            seat = OTHER[seat]
        assert seat == "red" and "the board is dealt" in done.stdout, done.stdout

    def audited(self) -> Played:
        """Red's copy (the same as blue's), with what ``verify`` and ``audit`` say of it."""
        data = self.games["red"].read_bytes()
        assert data == self.games["blue"].read_bytes()
        checked = self.run(None, "verify", self.games["red"])
        audited = self.run(None, "audit", self.games["red"], "--json")
        assert audited.exit_code == 0, audited.output
        return Played(data, json.loads(audited.stdout), checked.exit_code)


@pytest.fixture(scope="module")
def played(keys: Keys, tmp_path_factory: pytest.TempPathFactory) -> Played:
    """One dealt 5×5 game with 2 frogs a seat, each seat's tool in its own folder, the file
    carried between them as a mail would; random open squares, shots and guesses in turn."""
    table = _Table(tmp_path_factory.mktemp("independent"), keys)
    table.deal()
    games, run, send, seat = table.games, table.run, table.send, "red"
    rng = random.Random(7)
    squares = ffverify.board_squares(SIZE)
    tried: dict[str, set[str]] = {"red": set(), "blue": set()}
    turns = 0
    for turns in range(200):  # noqa: B007 (checked after the loop)
        verb = "shoot" if turns % 4 < 2 else "guess"  # each seat shoots, then guesses
        for square in rng.sample([q for q in squares if q not in tried[seat]],
                                 len(squares) - len(tried[seat])):
            done = run(seat, "move", games[seat], f"{verb} {square}")
            if done.exit_code == 0 or "game is over" in done.output:
                break
            assert done.exit_code == 4, done.output  # its own frog, or not open
            tried[seat].add(square)
        tried[seat].add(square)
        if done.exit_code != 0:  # the answer ended the game: the seat reveals
            done = run(seat, "move", games[seat])
            assert done.exit_code == 0, done.output
            send(seat)
            break
        send(seat)
        seat = OTHER[seat]
    assert turns < 199, "the game never ended"
    return table.audited()


def standing(audit: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """The final standing ``frogpbem audit`` gives (``standing 1. red 2, 2. blue -3``)."""
    lines = [c["what"] for report in audit for c in report["checks"] if "standing" in c["what"]]
    assert len(lines) == 1, lines
    return [(seat, int(points)) for seat, points in
            re.findall(r"\d\. (red|blue) (-?\d+)", lines[0].split("standing", 1)[1])]


def test_referee_free_independent_verifier_agrees_with_audit(played: Played) -> None:
    verdict = verify_game(played.data)
    assert played.verify_exit == 0 and verdict.end == "frogs"
    ranked = standing(played.audit)
    assert verdict.winner == ranked[0][0]
    assert verdict.scores == dict(ranked)
    doc = yaml.safe_load(played.data)
    moves = [m for m in doc["messages"] if "move" in m]
    assert verdict.moves == len(moves)
    # the frogs found or shot are those the answers opened as frogs
    hits: dict[str, list[str]] = {"red": [], "blue": []}
    for i, message in enumerate(doc["messages"]):
        to = message.get("answer", {}).get("to", {})
        if to.get("bit") == 1:
            asked = next(m for m in reversed(doc["messages"][:i]) if "move" in m)
            hits[message["seat"]].append(asked["move"].split()[1])
    assert verdict.revealed == {s: sorted(q) for s, q in hits.items()}
    assert len(verdict.revealed["red"]) == FROGS or len(verdict.revealed["blue"]) == FROGS


# --- changed by hand ----------------------------------------------------------------------


def _load(data: bytes) -> dict[str, Any]:
    doc = ffverify.load_strict(data)
    assert isinstance(doc, dict)
    return doc


def _dump(doc: dict[str, Any]) -> bytes:
    return yaml.safe_dump(doc, sort_keys=False, width=10_000).encode()


def _sign(keys: Keys, player: str, message: bytes) -> str:
    """An SSHSIG signature as ``ssh-keygen -Y sign -n frogpbem`` writes it (the format's one
    form), by ``player``'s key: a seat lying with its own key."""
    key = load_ssh_private_key(keys.path(player).read_bytes(), None)
    assert isinstance(key, Ed25519PrivateKey)
    public = base64.b64decode(keys.pub(player).read_text().split()[1])

    def string(data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + data

    signed = (b"SSHSIG" + string(b"frogpbem") + string(b"") + string(b"sha512")
              + string(hashlib.sha512(message).digest()))
    inner = string(b"ssh-ed25519") + string(key.sign(signed))
    blob = (b"SSHSIG" + struct.pack(">I", 1) + string(public) + string(b"frogpbem")
            + string(b"") + string(b"sha512") + string(inner))
    return base64.b64encode(blob).decode()


def _signed_again(keys: Keys, doc: dict[str, Any], first: int) -> bytes:
    """``doc`` with messages ``first``… renumbered, chained and signed again by their seats."""
    prev = ffverify.sha256_tag(ffverify.signed_bytes("duel", doc["header"]))
    for index, message in enumerate(doc["messages"], 1):
        if index >= first:
            message["n"], message["prev"] = index, prev
            body = ffverify.signed_bytes("message", message)
            message["signature"] = _sign(keys, PLAYERS[message["seat"]], body)
        prev = ffverify.sha256_tag(ffverify.signed_bytes("message", message))
    return _dump(doc)


def _first(doc: dict[str, Any], test: Any) -> int:
    """The index (from 0) of the first message for which ``test`` holds."""
    found = [i for i, m in enumerate(doc["messages"]) if test(m)]
    assert found, "the game has no such message"
    return found[0]


def _to(message: dict[str, Any]) -> dict[str, Any]:
    to: dict[str, Any] = message.get("answer", {}).get("to", {})
    return to


def _count(doc: dict[str, Any]) -> int:
    i = _first(doc, lambda m: "count" in _to(m))
    _to(doc["messages"][i])["count"] += 1
    return i


def _opening(doc: dict[str, Any]) -> int:
    i = _first(doc, lambda m: "blinding" in _to(m))
    to = _to(doc["messages"][i])
    r = int.from_bytes(bytes.fromhex(to["blinding"]), "little")
    to["blinding"] = ((r + 1) % ffverify.L).to_bytes(32, "little").hex()
    return i


def _proof(doc: dict[str, Any]) -> int:
    i = _first(doc, lambda m: "overlap" in m)
    proof = doc["messages"][i]["overlap"]["proof"]
    proof[0], proof[1] = proof[1], proof[0]
    return i


def _bit_proof(doc: dict[str, Any]) -> int:
    i = _first(doc, lambda m: "setup" in m)
    proof = doc["messages"][i]["setup"]["commitments"]["proofs"][3]
    proof[1], proof[3] = proof[3], proof[1]
    return i


def _dropped(doc: dict[str, Any]) -> int:
    i = _first(doc, lambda m: "count" in _to(m))
    del doc["messages"][i]
    return i


CHANGES = {
    "changed count": (_count, r"count \d around [A-E]\d does not open both seats'"),
    "changed answer opening": (_opening, r"answer does not open its commitment at"),
    "swapped overlap proof scalars": (_proof, r"the overlap proof does not hold"),
    "swapped bit proof scalars": (_bit_proof, r"red's bit proof at D1: the bit proof does "),
    "dropped message": (_dropped, r"answers a move that was not made|lacks its answer|out of turn"),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_referee_free_independent_verifier_refuses_a_change(played: Played, keys: Keys,
                                                            change: str) -> None:
    edit, refusal = CHANGES[change]
    doc = _load(played.data)
    index = edit(doc)
    if change == "dropped message":  # the next message takes its place: n and prev fail
        unsigned = rf"message {index + 1}: numbered {index + 2}"
    else:
        unsigned = rf"message {index + 1}: invalid signature"
    with pytest.raises(VerifyError, match=unsigned):
        verify_game(_dump(copy.deepcopy(doc)))
    with pytest.raises(VerifyError, match=rf"message {index + 1}: .*(?:{refusal})"):
        verify_game(_signed_again(keys, doc, index + 1))


def test_referee_free_independent_verifier_needs_both_reveals(played: Played) -> None:
    doc = _load(played.data)
    last = doc["messages"].pop()
    assert "reveal" in last
    with pytest.raises(VerifyError, match=f"reveal pending: {last['seat']} has not revealed"):
        verify_game(_dump(doc))


def test_referee_free_independent_verifier_refuses_a_false_reveal(played: Played,
                                                                  keys: Keys) -> None:
    doc = _load(played.data)
    doc["messages"][-1]["reveal"]["secret"] = "11" * 32
    with pytest.raises(VerifyError, match="secret does not match its seed commitment"):
        verify_game(_signed_again(keys, doc, len(doc["messages"])))


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.integers(min_value=0), digit=st.integers(min_value=1, max_value=15))
def test_referee_free_independent_verifier_refuses_any_changed_hex_digit(
        played: Played, where: int, digit: int) -> None:
    """Any hex digit of any message's point, scalar or hash changed: refused."""
    text = played.data.decode()
    start = text.index("\nmessages:")
    spots = [m.start() for m in re.finditer(r"[0-9a-f]{64}", text[start:])]
    at = start + spots[where % len(spots)] + 10
    changed = format((int(text[at], 16) + digit) % 16, "x")
    with pytest.raises(VerifyError):
        verify_game((text[:at] + changed + text[at + 1:]).encode())


def _bit_proof_with_nonce(game: str, header: str, square: str, c: bytes, r: int,
                          u: int, rng: random.Random) -> list[str]:
    """A true ``bit`` proof that ``c = r·H`` commits to 0, made with the nonce ``u``."""
    e1, z1 = rng.randrange(1, ffverify.L), rng.randrange(1, ffverify.L)
    first = [ffverify.mul(u, ffverify.H),
             ffverify.sub(ffverify.mul(z1, ffverify.H),
                          ffverify.mul(e1, ffverify.sub(c, ffverify.G)))]
    statement = [[[0, ffverify.H.hex(), c.hex()]],
                 [[0, ffverify.H.hex(), ffverify.sub(c, ffverify.G).hex()]]]
    context = {"game": game, "header": header, "seat": "red", "attempt": 0,
               "square": square}
    e = ffverify.reduce64(hashlib.sha512(b"frogpbem/1 proof\n" + ffverify.canonical_json(
        {"tag": "bit", "context": context, "statement": statement,
         "first": [[first[0].hex()], [first[1].hex()]]})).digest())
    e0 = (e - e1) % ffverify.L
    return [(v % ffverify.L).to_bytes(32, "little").hex()
            for v in (e0, u + e0 * r, e1, z1)]


def test_referee_free_independent_verifier_refuses_a_reused_nonce(played: Played,
                                                                  keys: Keys) -> None:
    """Two of red's bit proofs made again, true, with one nonce (from red's revealed
    secret), every message signed again: only the reused first message shows."""
    doc = _load(played.data)
    game = doc["header"]["game"]
    header = ffverify.sha256_tag(ffverify.signed_bytes("duel", doc["header"]))
    secret = next(m["reveal"]["secret"] for m in doc["messages"]
                  if m["seat"] == "red" and "reveal" in m)
    index = _first(doc, lambda m: "setup" in m)
    commitments = doc["messages"][index]["setup"]["commitments"]
    rng = random.Random(1)
    nonce = rng.randrange(1, ffverify.L)
    remade = 0
    for i, square in enumerate(ffverify.board_squares(SIZE)):
        c = bytes.fromhex(commitments["points"][i])
        r = ffverify.blinding(game, "red", secret, 0, square)
        if c == ffverify.mul(r, ffverify.H) and remade < 2:  # no red frog there
            commitments["proofs"][i] = _bit_proof_with_nonce(game, header, square, c, r,
                                                             nonce, rng)
            remade += 1
    assert remade == 2
    with pytest.raises(VerifyError, match=rf"message {index + 1}: red's bit proof at "
                                          r"[A-E]\d: the bit proof shares a first message"):
        verify_game(_signed_again(keys, doc, index + 1))


# --- a false count box and the complaint that proves it -------------------------------------


@dataclass(frozen=True)
class Complained:
    """A game that red's false count box ended: the file, what ``verify`` and ``audit``
    said, and the shot (its square and number ``n``)."""

    played: Played
    square: str
    n: int


def _own_frogs(table: _Table, seat: str) -> list[str]:
    """The seat's own frogs, as its tool's ``view --json`` shows them to it."""
    seen = table.run(seat, "view", table.games[seat], "--json")
    assert seen.exit_code == 0, seen.output
    frogs: list[str] = json.loads(seen.stdout)["state"]["own_frogs"][seat]
    return frogs


@pytest.fixture(scope="module")
def complained(keys: Keys, tmp_path_factory: pytest.TempPathFactory) -> Complained:
    """Red shoots a square without a frog, and its count box is then made false by hand
    (the count's lowest bit flipped, the message signed again with red's key: a seat lying
    with its own key); blue's tool, given its next move, answers with the complaint and
    plays no move, and red forfeits."""
    table = _Table(tmp_path_factory.mktemp("complaint"), keys)
    table.deal()
    taken = set(_own_frogs(table, "red")) | set(_own_frogs(table, "blue"))
    empty = [q for q in ffverify.board_squares(SIZE) if q not in taken]
    shot = table.run("red", "move", table.games["red"], f"shoot {empty[0]}")
    assert shot.exit_code == 0, shot.output
    doc = _load(table.games["red"].read_bytes())
    box = doc["messages"][-1]["answer"]["move"]["box"]
    box["box"] = format(int(box["box"][:2], 16) ^ 1, "02x") + box["box"][2:]
    table.games["red"].write_bytes(_signed_again(keys, doc, len(doc["messages"])))
    table.send("red")
    answered = table.run("blue", "move", table.games["blue"], f"shoot {empty[1]}")
    assert answered.exit_code == 0, answered.output
    assert f"your move shoot {empty[1]} was not played" in answered.stdout, answered.stdout
    table.send("blue")
    return Complained(table.audited(), empty[0], len(doc["messages"]))


def test_referee_free_independent_verifier_agrees_with_audit_on_a_complaint(
        complained: Complained) -> None:
    """Red forfeits, its shot void, as ``frogpbem audit`` says; no standing is given and no
    score moved."""
    played = complained.played
    verdict = verify_game(played.data)
    assert played.verify_exit == 0
    ends = [c["what"] for report in played.audit for c in report["checks"]
            if c["what"].startswith("end: ")]
    assert ends == [f"end: red forfeits: its count box for its shoot {complained.square} "
                    f"(message {complained.n}) was proven false by blue"]
    assert (verdict.end, verdict.winner) == ("forfeit", "blue")
    assert verdict.moves == 0 and verdict.scores == {"red": 0, "blue": 0}
    assert verdict.revealed == {"red": [], "blue": []}


def _true_box(doc: dict[str, Any], n: int) -> None:
    """Red's box made true again: blue's complaint now accuses a true box."""
    box = doc["messages"][n - 1]["answer"]["move"]["box"]
    box["box"] = format(int(box["box"][:2], 16) ^ 1, "02x") + box["box"][2:]


def _other_shared(doc: dict[str, Any], n: int) -> None:
    doc["messages"][n]["answer"]["to"]["complaint"]["shared"] = ffverify.G.hex()


def _guess(doc: dict[str, Any], n: int) -> None:
    """Red's shot made a guess (its box dropped): blue complains about a guess."""
    message = doc["messages"][n - 1]
    message["move"] = message["move"].replace("shoot", "guess")
    del message["answer"]["move"]["box"]


def _short_proof(doc: dict[str, Any], n: int) -> None:
    doc["messages"][n]["answer"]["to"]["complaint"]["proof"].pop()


COMPLAINT_CHANGES = {
    "true box": (_true_box, r"blue's complaint is false: the count box for the shot at "
                            r"[A-E]\d opens the mover's commitments"),
    "other shared key": (_other_shared, r"blue's box proof at [A-E]\d: the box proof does "
                                        r"not hold"),
    "complaint about a guess": (_guess, r"blue complains about guess [A-E]\d, which has no "
                                        r"count box"),
    "proof of 2 scalars": (_short_proof, r"blue's box proof at [A-E]\d: a proof of the "
                                         r"wrong length"),
}


@pytest.mark.parametrize("change", list(COMPLAINT_CHANGES))
def test_referee_free_independent_verifier_refuses_a_false_complaint(
        complained: Complained, keys: Keys, change: str) -> None:
    """The complaint game changed by hand and signed again by the seats' keys from red's
    shot on: only the box proof and the box opened with its keys catch the lie."""
    edit, refusal = COMPLAINT_CHANGES[change]
    doc = _load(complained.played.data)
    edit(doc, complained.n)
    with pytest.raises(VerifyError, match=rf"message {complained.n + 1}: {refusal}"):
        verify_game(_signed_again(keys, doc, complained.n))


def _setup_of(doc: dict[str, Any], seat: str, last: bool = False) -> dict[str, Any]:
    """The seat's first setup (``last``: its last, the accepted attempt's: a dealt overlap
    draws again, and an abandoned attempt's box key is never used)."""
    indices = [i for i, m in enumerate(doc["messages"]) if "setup" in m and m["seat"] == seat]
    assert indices, "the game has no such message"
    setup: dict[str, Any] = doc["messages"][indices[-1] if last else indices[0]]["setup"]
    return setup


@pytest.mark.parametrize(("box_key", "refusal"), [
    ("01" + "00" * 31, r"message 2 box key: not a valid point"),
    (ffverify.G.hex(), r"the reveal: red's secret does not give its box key \(attempt \d+\)"),
    (None, r"message 2: lacks 'box_key'"),
])
def test_referee_free_independent_verifier_checks_the_box_key(
        played: Played, keys: Keys, box_key: str | None, refusal: str) -> None:
    """Red's box key made the identity (never a valid point), another valid point (caught
    by red's reveal, which derives it), or dropped; signed again by the seats' keys."""
    doc = _load(played.data)
    # a valid point other than the derived one is caught at the reveal, which derives the
    # accepted attempt's key
    setup = _setup_of(doc, "red", last=box_key == ffverify.G.hex())
    if box_key is None:
        del setup["box_key"]
    else:
        setup["box_key"] = box_key
    with pytest.raises(VerifyError, match=refusal):
        verify_game(_signed_again(keys, doc, 2))
