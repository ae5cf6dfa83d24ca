"""Make the hostile game files of tests/vectors/ (by hand: python -m tests.vectors.make_vectors).

Each vector is a file named after its attack, listed in ``index.yaml`` with
the check that must refuse it and the exact error class (or failed audit
line) that check must give. The expectations here are written from the
attack, not read from what frogpbem does: the test (``test_vectors.py``)
holds frogpbem to them.

The keys in ``keys/`` are published test keys: never use them for a game.
"""

from __future__ import annotations

import copy
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.dealing import SeatSpec, create_game, deal_game, join_game, start_game
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.document import dump_game, read_game
from frogpbem.gamefile.forkproof import ForkProof
from frogpbem.gamefile.model import ChosenSetup
from frogpbem.notes import add_note
from frogpbem.protocol.secrets import SealedSecret
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import Clock
from frogpbem.referee import move

HERE = Path(__file__).resolve().parent
KEYS = HERE / "keys"
SETUP = {"red": {"frogs": ["A1", "B2"]}, "blue": {"frogs": ["E5", "F6"]}}
MOVES = [("alice", "shoot C3"), ("bob", "guess A2"), ("alice", "guess E5"),
         ("bob", "shoot B2"), ("alice", "guess F6")]
Doc = dict[str, Any]


def key(name: str) -> crypto.PrivateKey:
    return crypto.load_private_key(KEYS / name)


def make_keys() -> None:
    KEYS.mkdir(exist_ok=True)
    for name in ("referee", "alice", "bob", "mallory"):
        if not (KEYS / name).exists():
            crypto.generate_key(KEYS / name, f"{name}@vectors.invalid")
        (KEYS / name).chmod(0o600)


def seats() -> list[SeatSpec]:
    return [SeatSpec("red", key("alice").public, "Alice"),
            SeatSpec("blue", key("bob").public, "Bob")]


def base_games(folder: Path) -> dict[str, Path]:
    """The honest games the vectors start from."""
    state, player = folder / "state", Session.from_environment(home=folder / "home")
    referee = key("referee")
    games = {}

    def new(name: str, join: bool = False) -> Path:
        path = folder / f"{name}.yaml"
        file = create_game("frogfinder", referee, "Carol", seats(), {"size": 6, "frogs": 2},
                           None if join else ChosenSetup.from_json(SETUP), join=join,
                           created=Clock.from_environment().text())
        start_game(path, file, referee, Session.from_environment(state=state))
        return path

    def play(path: Path, moves: list[tuple[str, str]]) -> None:
        for player, text in moves:
            move(path, key(player), text, session=Session.from_environment())
            move(path, referee, session=Session.from_environment(state=state))

    finished = new("finished")
    add_note(finished, key("alice"), "blue aims at row 2", player)
    play(finished, MOVES)
    games["finished"] = finished
    running = new("running")
    play(running, MOVES[:2])
    add_note(running, key("alice"), "my plan", player)
    move(running, key("alice"), "guess E5", session=Session.from_environment())
    games["running"] = running
    joining = new("joining", join=True)
    join_game(joining, key("alice"), player)
    join_game(joining, key("bob"), player)
    games["joining"] = joining
    dealt = folder / "dealt.yaml"
    shutil.copy(joining, dealt)
    deal_game(dealt, referee, Session.from_environment(state=folder / "state-dealt"))
    games["dealt"] = dealt
    other = new("other")
    play(other, MOVES[:1])
    move(other, key("bob"), "guess A3", session=Session.from_environment())
    games["other"] = other
    return games


def sign(doc: Doc, kind: str, element: Doc) -> None:
    element["signature"] = crypto.sign_element(key("referee"), kind, element)


def rechain(doc: Doc) -> None:
    """Sign the header and everything after it again, as a cheating referee would.

    A changed header leaves behind what the seats signed under the old one
    (requests, notes): the referee cannot carry them over.
    """
    first = doc["deal"] if doc.get("deal") else (doc["log"][0] if doc["log"] else None)
    sign(doc, "header", doc["header"])
    if first is not None and first["prev"] != crypto.element_hash("header", doc["header"]):
        for record in doc["log"]:
            record.pop("request", None)
            record.pop("asked", None)
        doc["requests"], doc["notes"] = [], []
    prev = crypto.element_hash("header", doc["header"])
    if doc.get("deal"):
        doc["deal"]["prev"] = prev
        sign(doc, "deal", doc["deal"])
        prev = crypto.element_hash("deal", doc["deal"])
    for record in doc["log"]:
        record["prev"] = prev
        sign(doc, "record", record)
        prev = crypto.element_hash("record", record)
    if doc.get("reveal"):
        doc["reveal"]["prev"] = prev
        sign(doc, "reveal", doc["reveal"])


def bump(text: str) -> str:
    """One character of a signed text changed (a flipped byte that stays valid YAML)."""
    return text[:-2] + ("1" if text[-2] != "1" else "2") + text[-1]


def non_canonical(text: str) -> str:
    """The same bytes in base64 with the unused bits of the last character set."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    body = text.rstrip("=")
    assert body != text, "needs padding to have unused bits"
    last = alphabet[alphabet.index(body[-1]) | 1]
    return body[:-1] + last + text[len(body):]


Vector = tuple[str, str, Callable[[dict[str, Doc]], Any], str, str, str]
"""name, base game, change (returns a doc, bytes, or text), check, error, what it says."""


def salted(doc: Doc, seat: str, salt: str, padded: bool = True) -> None:
    """Re-seal a seat's setup with a chosen salt (referee cheating on the sealing)."""
    game = doc["header"]["game"]
    secret = SETUP[seat]
    body = crypto.canonical_json({"game": game, "seat": seat, "salt": salt, "secret": secret})
    if padded:
        body = body + b" " * (512 - len(body))
    readers = [key("alice" if seat == "red" else "bob").public, key("referee").public]
    doc["header"]["setup"]["sealed"][seat] = crypto.seal(body, readers)
    doc["header"]["setup"]["commitments"][seat] = crypto.commitment(game, seat, salt, secret)
    doc["reveal"]["secrets"][seat]["salt"] = salt


def vectors() -> list[Vector]:
    v: list[Vector] = []

    def add(name: str, base: str, check: str, error: str, says: str = "") -> Callable[
            [Callable[[dict[str, Doc]], Any]], None]:
        def register(change: Callable[[dict[str, Doc]], Any]) -> None:
            v.append((name, base, change, check, error, says))
        return register

    # --- a flipped byte in every kind of element (a mail server or a player) -------------
    for name, base, path in [
        ("flipped-header", "finished", ("header", "created")),
        ("flipped-record", "finished", ("log", 2, "at")),
        ("flipped-request-in-record", "finished", ("log", 1, "request")),
        ("flipped-reveal", "finished", ("reveal", "at")),
        ("flipped-note", "finished", ("notes", 0, "at")),
        ("flipped-pending-request", "running", ("requests", 0, "head")),
        ("flipped-pending-join", "joining", ("joins", 0, "seed")),
        ("flipped-deal", "dealt", ("deal", "at")),
        ("flipped-join-in-deal", "dealt", ("deal", "joins", 1, "seed")),
        ("flipped-sealed-setup", "finished", ("header", "setup", "commitments", "red")),
    ]:
        def change(d: dict[str, Doc], path: tuple[Any, ...] = path, base: str = base) -> Doc:
            doc = d[base]
            node: Any = doc
            for step in path[:-1]:
                node = node[step]
            node[path[-1]] = bump(node[path[-1]])
            return doc
        add(name, base, "load", "SignatureError")(change)

    # --- a signature of one kind presented as another, or by the wrong signer ------------
    for name, base, path, signer, kind in [
        ("record-signature-as-header", "finished", ("header",), "referee", "record"),
        ("join-signed-as-request", "joining", ("joins", 0), "alice", "request"),
        ("note-signed-by-the-wrong-seat", "finished", ("notes", 0), "bob", "note"),
        ("record-signed-by-a-seat", "finished", ("log", 4), "alice", "record"),
    ]:
        def resign(d: dict[str, Doc], base: str = base, path: tuple[Any, ...] = path,
                   signer: str = signer, kind: str = kind) -> Doc:
            doc = d[base]
            node: Any = doc
            for step in path:
                node = node[step]
            node["signature"] = crypto.sign_element(key(signer), kind, node)
            return doc
        add(name, base, "load", "SignatureError")(resign)

    @add("request-signature-as-record", "finished", "load", "SignatureError")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["log"][0]["signature"] = doc["log"][0]["request"]
        return doc

    # --- replays across games, seats and positions ----------------------------------------
    @add("request-from-another-game", "running", "load", "ChainError", "made for game")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        doc["requests"] = [d["other"]["requests"][0]]
        return doc

    @add("record-from-another-game", "running", "load", "ChainError", "does not follow")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        doc["log"][1] = d["other"]["log"][0] | {"n": 2}
        return doc

    @add("note-from-another-game", "running", "load", "ChainError", "another header")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        note = copy.deepcopy(doc["notes"][0])
        note["header"] = crypto.element_hash("header", d["other"]["header"])
        note["signature"] = crypto.sign_element(key("alice"), "note", note)
        doc["notes"] = [note]
        return doc

    @add("join-from-another-game", "joining", "load", "ChainError", "made for game")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["joining"]
        join = doc["joins"][0]
        join["game"] = d["other"]["header"]["game"]
        join["signature"] = crypto.sign_element(key("alice"), "join", join)
        return doc

    @add("request-with-another-seat", "running", "load", "SignatureError")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        doc["requests"][0]["seat"] = "blue"
        return doc

    @add("request-replayed-at-another-record", "running", "apply", "StaleCopyError",
         "another point of the game")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        doc["requests"] = [d["running"]["requests"][0]]
        doc["log"] = doc["log"][:1]
        return doc

    @add("record-replayed-at-another-position", "finished", "load", "ChainError")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["log"][3] = copy.deepcopy(doc["log"][1])
        return doc

    # --- truncation, reordering, splicing --------------------------------------------------
    @add("truncated-file", "finished", "load", "GameFileError", "not valid YAML")
    def _(d: dict[str, Doc]) -> bytes:
        data = strictyaml.dumps(d["finished"]).encode()
        return data[:len(data) // 2] + b'\n  - "'

    @add("log-truncated-under-the-reveal", "finished", "load", "ChainError",
         "does not follow the last record")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["log"] = doc["log"][:3]
        return doc

    @add("records-reordered", "finished", "load", "ChainError")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["log"][1], doc["log"][2] = doc["log"][2], doc["log"][1]
        return doc

    @add("record-spliced-from-a-fork", "running", "load", "ChainError", "does not follow")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        record = copy.deepcopy(d["finished"]["log"][1])
        doc["log"][1] = record
        return doc

    @add("deal-spliced-from-another-game", "dealt", "load", "ChainError")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["dealt"]
        doc["deal"]["prev"] = crypto.element_hash("header", d["other"]["header"])
        sign(doc, "deal", doc["deal"])
        return doc

    @add("joins-pending-after-the-deal", "dealt", "load", "ChainError", "pending after the deal")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["dealt"]
        doc["joins"] = d["joining"]["joins"][:1]
        return doc

    @add("moves-without-a-deal", "joining", "load", "ChainError", "no deal")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["joining"]
        record = copy.deepcopy(d["finished"]["log"][0])
        record["prev"] = crypto.element_hash("header", doc["header"])
        record.pop("request")
        sign(doc, "record", record)
        doc["log"] = [record]
        return doc

    # --- sealed blocks swapped or truncated (by a cheating referee, re-signed) -------------
    @add("sealed-setups-swapped", "running", "open", "CommitmentError")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        sealed = doc["header"]["setup"]["sealed"]
        sealed["red"], sealed["blue"] = sealed["blue"], sealed["red"]
        rechain(doc)
        return doc

    @add("sealed-setup-truncated", "running", "open", "CommitmentError")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        sealed = doc["header"]["setup"]["sealed"]
        lines = sealed["red"].splitlines()
        sealed["red"] = "\n".join(lines[:3] + lines[-1:]) + "\n"
        rechain(doc)
        return doc

    @add("sealed-setup-from-another-game", "running", "open", "CommitmentError")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        theirs = d["other"]["header"]["setup"]
        doc["header"]["setup"]["sealed"]["red"] = theirs["sealed"]["red"]
        doc["header"]["setup"]["commitments"]["red"] = theirs["commitments"]["red"]
        rechain(doc)
        return doc

    @add("sealed-setup-missing", "running", "open", "CommitmentError", "no sealed setup for red")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        del doc["header"]["setup"]["sealed"]["red"]
        rechain(doc)
        return doc

    @add("commitment-changed", "finished", "audit", "audit", "does not match its commitment")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["header"]["setup"]["commitments"]["blue"] = "sha256:" + "1" * 64
        rechain(doc)
        return doc

    @add("revealed-frogs-moved", "finished", "audit", "audit", "does not match its commitment")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["reveal"]["secrets"]["red"]["secret"] = {"frogs": ["A6", "B5"]}
        rechain(doc)
        return doc

    # --- the referee's own cheats (findings 1-5, 8) ----------------------------------------
    @add("history-rewritten-under-a-new-header", "running", "seen", "ForkError", "FORK")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        doc["header"]["setup"]["commitments"]["red"] = "sha256:" + "2" * 64
        for record in doc["log"]:
            record.pop("request", None)
        doc["requests"] = []
        doc["notes"] = []
        rechain(doc)
        return doc

    @add("rolled-back-copy", "running", "seen", "StaleCopyError", "a rollback")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        doc["log"] = doc["log"][:1]
        doc["requests"] = []
        doc["notes"] = []
        return doc

    @add("record-forked", "running", "seen", "ForkError", "two different record 2s")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        doc["log"][1]["at"] = "2030-01-01T00:00:00Z"
        doc["log"][1].pop("request")
        sign(doc, "record", doc["log"][1])
        doc["requests"] = []
        doc["notes"] = []
        return doc

    @add("joins-reused-under-a-ground-seed", "joining", "load", "ChainError",
         "another header")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["joining"]
        doc["header"]["setup"]["fairness"]["seed_commitment"] = "sha256:" + "3" * 64
        rechain(doc)
        return doc

    @add("deal-with-joins-from-another-header", "dealt", "load", "ChainError", "another header")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["dealt"]
        doc["header"]["created"] = "2020-01-01T00:00:00Z"
        rechain(doc)
        return doc

    @add("moves-entered-without-requests", "finished", "audit", "audit",
         "without their seat's signed request")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        for record in doc["log"]:
            record.pop("request")
        rechain(doc)
        return doc

    @add("resignation-without-a-request", "finished", "audit", "audit",
         "without their seat's signed request")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["log"][4]["move"] = "resign"
        doc["log"][4]["seat"] = "red"
        doc["log"][4]["result"] = {"resigned": True}
        doc["log"][4]["scores"] = doc["log"][3]["scores"]
        doc["log"][4].pop("request")
        doc["reveal"]["outcome"] = {"termination": "red resigned", "standing": [
            {"rank": 1, "seat": "blue", "points": doc["log"][3]["scores"]["blue"]},
            {"rank": 2, "seat": "red", "points": doc["log"][3]["scores"]["red"]}]}
        rechain(doc)
        return doc

    @add("random-deal-without-a-seed", "finished", "audit", "audit",
         "commits to no seed")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["header"]["setup"]["dealt"] = "random"
        rechain(doc)
        return doc

    @add("note-addressed-outside-the-team", "running", "load", "ChainError",
         "not sealed to exactly")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        note = doc["notes"][0]
        note["to"] = ["red", "blue"]
        note["signature"] = crypto.sign_element(key("alice"), "note", note)
        return doc

    @add("note-sealed-to-an-opponent", "running", "load", "ChainError", "not sealed to exactly")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        note = doc["notes"][0]
        sealed = SealedSecret.seal(doc["header"]["game"], "red", "hello",
                                   [key("alice").public, key("bob").public])
        note["sealed"] = sealed.armored
        note["signature"] = crypto.sign_element(key("alice"), "note", note)
        return doc

    @add("setup-sealed-to-a-third-key", "finished", "audit", "audit",
         "not addressed to exactly red")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        game = doc["header"]["game"]
        salt = doc["reveal"]["secrets"]["red"]["salt"]
        body = crypto.canonical_json({"game": game, "seat": "red", "salt": salt,
                                      "secret": SETUP["red"]})
        doc["header"]["setup"]["sealed"]["red"] = crypto.seal(
            body + b" " * (512 - len(body)),
            [key("alice").public, key("referee").public, key("mallory").public])
        rechain(doc)
        return doc

    @add("setup-unpadded", "finished", "audit", "audit", "not the 512 every setup")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        salted(doc, "red", doc["reveal"]["secrets"]["red"]["salt"], padded=False)
        rechain(doc)
        return doc

    @add("salt-all-zero", "finished", "audit", "audit", "all zero")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        salted(doc, "red", "0" * 64)
        rechain(doc)
        return doc

    @add("salt-repeated", "finished", "audit", "audit", "have the same salt")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        salted(doc, "red", doc["reveal"]["secrets"]["blue"]["salt"])
        rechain(doc)
        return doc

    @add("result-changed-and-re-signed", "finished", "audit", "audit", "replay")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["log"][0]["result"] = {"count": 0}
        for record in doc["log"]:  # the requests would not survive the change
            record.pop("request")
        rechain(doc)
        return doc

    @add("score-changed-and-re-signed", "finished", "audit", "audit", "scores")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["log"][2]["scores"]["red"] += 1
        for record in doc["log"]:  # the requests would not survive the change
            record.pop("request")
        rechain(doc)
        return doc

    @add("outcome-changed-and-re-signed", "finished", "audit", "audit", "outcome")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["finished"]
        doc["reveal"]["outcome"]["standing"][0]["points"] += 10
        rechain(doc)
        return doc

    # --- malformed YAML and shapes -----------------------------------------------------------
    def text_of(base: str) -> Callable[[dict[str, Doc]], str]:
        return lambda d: strictyaml.dumps(d[base])

    def raw(name: str, text: str, says: str, error: str = "GameFileError") -> None:
        add(name, "finished", "load", error, says)(lambda d: text)

    raw("alias-bomb", "frogpbem: 2\na: &a [x, x, x, x, x, x, x, x]\n"
        "b: &b [*a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b]\n",
        "YAML anchor refused")
    raw("yaml-tag", "frogpbem: !!python/object/apply:os.system ['true']\n", "tag")
    raw("merge-key", "base: {frogpbem: 2}\n<<: {frogpbem: 2}\n", "merge key")
    raw("duplicate-key", "frogpbem: 2\nfrogpbem: 2\n", "duplicate key")
    raw("deep-nesting", "frogpbem: 2\nx: " + "[" * 100 + "]" * 100 + "\n", "nesting too deep")
    raw("two-documents", "frogpbem: 2\n---\nfrogpbem: 2\n", "exactly one YAML document")
    raw("not-utf8", "frogpbem: 2\nname: \udcff\n", "not UTF-8")
    raw("huge-integer", "frogpbem: " + "9" * 5000 + "\n", "unsupported format version")
    raw("many-values", "frogpbem: 2\nx: [" + ",".join(["1"] * 120_000) + "]\n",
        "more than 100000 YAML values")
    raw("format-version-1", "frogpbem: 1\n", "format version 1")
    raw("no-version", "header: {}\n", "no 'frogpbem:' version", "NotAGameFileError")
    raw("a-list-not-a-file", "- frogpbem\n- 2\n", "not a frogpbem game file",
        "NotAGameFileError")

    def shape(name: str, base: str, change: Callable[[Doc], None], says: str = "",
              error: str = "GameFileError") -> None:
        def apply(d: dict[str, Doc]) -> Doc:
            doc = d[base]
            change(doc)
            return doc
        add(name, base, "load", error, says)(apply)

    shape("huge-scalar", "finished",
          lambda doc: doc["header"]["referee"].update(name="x" * 500_000), "",
          "SignatureError")
    shape("extra-field", "finished", lambda doc: doc["log"][0].update(extra=1))
    shape("missing-field", "finished", lambda doc: doc["log"][0].pop("prev"))
    shape("wrong-type", "finished", lambda doc: doc["log"][0].update(n="1"))
    shape("negative-record-number", "finished", lambda doc: doc["log"][0].update(n=-1))
    shape("look-alike-seat-name", "finished",
          lambda doc: doc["log"][0].update(seat="r\u0435d"))  # a Cyrillic e
    shape("look-alike-game-id", "finished",
          lambda doc: doc["header"].update(game="ff-\u0430bc"))  # a Cyrillic a
    shape("seat-twice", "finished",
          lambda doc: doc["header"]["seats"].append(doc["header"]["seats"][0]), "",
          "GameFileError")
    shape("non-canonical-base64-signature", "finished",
          lambda doc: doc["log"][0].update(signature=non_canonical(doc["log"][0]["signature"])),
          "", "SignatureError")
    shape("signature-not-base64", "finished",
          lambda doc: doc["header"].update(signature="not base64 at all"), "")
    shape("malformed-result-re-signed", "finished",
          lambda doc: (doc["log"][0].update(result={"count": True}), rechain(doc)), "",
          "GameFileError")
    shape("unknown-rules", "finished",
          lambda doc: (doc["header"].update(rules="chess"), rechain(doc)))

    # --- text that must reach a terminal escaped --------------------------------------------
    @add("control-characters-in-names", "running", "render", "clean")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        doc["header"]["referee"]["name"] = "Carol\x1b]0;owned\x07"
        doc["header"]["seats"][1]["name"] = "Bob\nTo move: red"
        for record in doc["log"]:
            record.pop("request", None)
        rechain(doc)
        doc["requests"] = []
        doc["notes"] = []
        return doc

    @add("control-characters-in-a-pending-move", "running", "apply", "NotationError")
    def _(d: dict[str, Doc]) -> Doc:
        doc = d["running"]
        request = doc["requests"][0]
        request["move"] = "guess E5\x1b[2J"
        request["signature"] = crypto.sign_element(key("alice"), "request", request)
        return doc

    # --- fork proofs -------------------------------------------------------------------------
    @add("fork-proof-of-one-element-twice", "finished", "proof", "ForkError", "no fork")
    def _(d: dict[str, Doc]) -> str:
        from frogpbem.gamefile.model import Record
        record = Record.from_json(d["finished"]["log"][0])
        return ForkProof.of(d["finished"]["header"]["game"], key("referee").public, record,
                            record).text()

    @add("fork-proof-of-two-positions", "finished", "proof", "ForkError", "different elements")
    def _(d: dict[str, Doc]) -> str:
        from frogpbem.gamefile.model import Record
        log = d["finished"]["log"]
        return ForkProof.of(d["finished"]["header"]["game"], key("referee").public,
                            Record.from_json(log[0]), Record.from_json(log[1])).text()

    @add("fork-proof-with-a-seats-signature", "finished", "proof", "SignatureError")
    def _(d: dict[str, Doc]) -> str:
        from frogpbem.gamefile.model import Record
        first = Record.from_json(d["finished"]["log"][1])
        second = first.__class__(**{**first.__dict__, "at": "2031-01-01T00:00:00Z",
                                    "signature": ""}).signed(key("alice"))
        return ForkProof.of(d["finished"]["header"]["game"], key("referee").public, first,
                            second).text()
    return v


def main() -> None:
    make_keys()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["FROGPBEM_HOME"] = str(Path(tmp) / "home")
        bases = base_games(Path(tmp))
        docs = {name: strictyaml.loads(path.read_bytes()) for name, path in bases.items()}
        index: dict[str, Any] = {}
        for name, base, change, check, error, says in vectors():
            made = change(copy.deepcopy(docs))
            data = made if isinstance(made, bytes) else (
                made.encode("utf-8", "surrogateescape") if isinstance(made, str)
                else strictyaml.dumps(made).encode())
            suffix = ".proof" if check == "proof" else ".yaml"
            (HERE / f"{name}{suffix}").write_bytes(data)
            entry = {"file": f"{name}{suffix}", "check": check, "error": error}
            if says:
                entry["says"] = says
            if check == "seen":
                entry["seen"] = f"base-{base}.yaml"
            index[name] = entry
        for name, path in bases.items():
            (HERE / f"base-{name}.yaml").write_bytes(dump_game(read_game(path)))
        (HERE / "index.yaml").write_text(
            "# Hostile game files: the check each must fail, and how. Made by make_vectors.py.\n"
            + strictyaml.dumps(index))
        print(f"{len(index)} vectors in {HERE}", file=sys.stderr)


if __name__ == "__main__":
    main()
