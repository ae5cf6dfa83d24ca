"""A game file read and checked: roles, hidden data, replay, sealed moves, the referee's memory.

This module joins the rules (``games``) to the file layer (``gamefile``) and
the crypto package; it holds no game's rules itself.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from frogpbem import crypto
from frogpbem.errors import (
    CommitmentError,
    FrogPbemError,
    GameFileError,
    IllegalMoveError,
    InconsistentResultError,
    KeyError_,
    NotationError,
    StaleCopyError,
    UsageError,
)
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import (
    Document,
    read_game,
    write_atomic,
)
from frogpbem.games import JSON, Ruleset, find_game

if TYPE_CHECKING:
    pass

REFEREE = "referee"
"""The role of the referee's key (seats have their seat names)."""


def now_text() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass
class Game:
    """A game file read and its chain checked."""

    path: Path
    doc: Document
    ruleset: Ruleset[Any, Any]
    head: str
    unrequested: int = 0

    @property
    def header(self) -> dict[str, Any]:
        return self.doc["header"]  # type: ignore[no-any-return]

    @property
    def game_id(self) -> str:
        return str(self.header["game"])

    @property
    def options(self) -> dict[str, Any]:
        return self.header["options"]  # type: ignore[no-any-return]

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(entry["seat"] for entry in self.header["seats"])

    @property
    def setup(self) -> dict[str, Any]:
        """Where the dealt setup is: the deal element once players joined, else the header."""
        return chain.setup_of(self.doc)

    @property
    def joiners(self) -> list[str]:
        """Seats that add something before the deal: a seed, or their own secret."""
        setup = self.header["setup"]
        return list(setup.get("choosers") or (setup.get("fairness") or {}).get("joiners") or [])

    @property
    def waiting_for(self) -> list[str]:
        """Seats the deal still waits for (empty once dealt, or without joins)."""
        if not self.undealt:
            return []
        joined = {join["seat"] for join in self.doc.get("joins", [])}
        return [seat for seat in self.joiners if seat not in joined]

    @property
    def undealt(self) -> bool:
        return bool(self.joiners) and self.doc.get("deal") is None

    @property
    def names(self) -> dict[str, str]:
        return {entry["seat"]: entry["name"] for entry in self.header["seats"]}

    def role(self, key: crypto.PrivateKey) -> str:
        """``referee`` or the seat that ``key`` holds; raises :class:`KeyError_`."""
        if chain.referee_key(self.doc).same_key(key.public):
            return REFEREE
        for seat, public in chain.seat_keys(self.doc).items():
            if public.same_key(key.public):
                return seat
        raise KeyError_(
            f"key {key.public.fingerprint} is neither the referee nor a seat of game "
            f"{self.game_id} ({self.path})"
        )


def ruleset_of(doc: Document, path: Path) -> Ruleset[Any, Any]:
    """The header's ruleset, with its options and seats checked against it."""
    header = doc["header"]
    try:
        ruleset = find_game(header["rules"])
        options = ruleset.options(header["options"])
        seats = ruleset.seats(options, len(header["seats"]))
    except UsageError as exc:
        raise GameFileError(f"{path}: header: {exc}") from None
    if options != header["options"] or list(seats) != [s["seat"] for s in header["seats"]]:
        raise GameFileError(f"{path}: header: options or seats are not those of "
                            f"{ruleset.name} ({options}, seats {', '.join(seats)})")
    return ruleset


def load(path: Path, memory: HeadMemory | None = None) -> Game:
    """Read a game file and check its format, schema, signatures and chain.

    With the referee's ``memory``, what it remembers signing is not verified again.
    """
    doc = read_game(path)
    ruleset = ruleset_of(doc, path)
    trusted = memory.remembered(doc["header"]["game"]) if memory else None
    report = chain.check_chain(doc, trusted)
    if report.problems:
        first = report.problems[0]
        raise type(first)(f"{path}: {first}")
    return Game(path, doc, ruleset, report.head, report.unrequested)


def load_copy(game: Game, other_path: Path) -> Game:
    """A seat's returned copy of ``game``, checked to be a copy of the same game."""
    other = load(other_path)
    if chain.header_hash(other.doc) != chain.header_hash(game.doc):
        raise StaleCopyError(f"{other_path} is not a copy of game {game.game_id}")
    return other


def pad_block(body: bytes) -> bytes:
    """``body`` padded with JSON white space to a multiple of 256 bytes (hides its length)."""
    return body + b" " * (-len(body) % 256)


def pad_plaintext(game: str, seat: str, salt: str, secret: JSON, length: int) -> bytes:
    body = crypto.canonical_json({"game": game, "seat": seat, "salt": salt, "secret": secret})
    if len(body) > length:
        raise GameFileError(f"setup of {seat} is too large to seal ({len(body)} > {length} bytes)")
    # Trailing spaces are JSON white space: the stock `age -d` output still parses.
    return body + b" " * (length - len(body))


def pad_length(ruleset: Ruleset[Any, Any], options: Mapping[str, Any]) -> int:
    """Every seat's sealed plaintext has this length, whatever its content."""
    bound = ruleset.secret_bound(options) + 256
    return -(-bound // 256) * 256


def open_secret(game: Game, seat: str, key: crypto.PrivateKey) -> JSON:
    """Decrypt ``seat``'s sealed setup and check it against the header's commitment."""
    setup = game.setup
    if seat not in setup["sealed"] or seat not in setup["commitments"]:
        raise CommitmentError(f"{game.path}: header: no sealed setup for {seat}")
    plaintext = crypto.unseal(setup["sealed"][seat], key)
    try:
        data = json.loads(plaintext)
        salt, secret = data["salt"], data["secret"]
    except (ValueError, KeyError, TypeError):
        raise CommitmentError(f"{game.path}: sealed setup of {seat} is not readable") from None
    if data.get("game") != game.game_id or data.get("seat") != seat:
        raise CommitmentError(f"{game.path}: sealed setup of {seat} belongs to another game/seat")
    if crypto.commitment(game.game_id, seat, salt, secret) != setup["commitments"][seat]:
        raise CommitmentError(
            f"{game.path}: sealed setup of {seat} does not match the header's commitment"
        )
    return {"salt": salt, "secret": secret}


def revealed_secrets(game: Game) -> dict[str, JSON | None]:
    """After the end: every secret from the reveal, each checked against its commitment."""
    reveal = game.doc["reveal"]
    commitments = game.setup["commitments"]
    secrets: dict[str, JSON | None] = dict.fromkeys(game.seats)
    for seat in commitments:
        entry = reveal["secrets"].get(seat)
        if entry is None or crypto.commitment(
            game.game_id, seat, entry["salt"], entry["secret"]
        ) != commitments[seat]:
            raise CommitmentError(f"{game.path}: reveal: {seat}'s setup does not match "
                                  "its commitment")
        secrets[seat] = entry["secret"]
    return secrets


def known_secrets(game: Game, role: str, key: crypto.PrivateKey) -> dict[str, JSON | None]:
    """Every secret ``role`` may read (all for the referee), ``None`` for the others."""
    if game.undealt or not game.setup["sealed"]:
        return dict.fromkeys(game.seats)
    readers = game.seats if role == REFEREE else (
        tuple(s for s in game.seats if role in game.ruleset.secret_readers(game.options, s))
    )
    return {
        seat: open_secret(game, seat, key)["secret"] if seat in readers else None
        for seat in game.seats
    }


_MALFORMED = (TypeError, KeyError, ValueError, AttributeError, IndexError)
"""What rules code raises on data of the wrong shape (a signed but malformed file)."""


@dataclass
class Replay:
    """The states of a game replayed from its log."""

    states: list[Any] = field(default_factory=list)
    """The state before the first record, then after each record."""

    @property
    def final(self) -> Any:
        return self.states[-1]


def replay(game: Game, secrets: Mapping[str, JSON | None],
           key: crypto.PrivateKey | None = None) -> Replay:
    """Replay every record through the rules, checking each result, score and turn.

    Raises :class:`InconsistentResultError` (or another
    :class:`FrogPbemError`) naming the record that does not hold.
    """
    rules = game.ruleset
    if game.undealt:
        raise IllegalMoveError(
            f"{game.path}: game {game.game_id} is not dealt yet: waiting for "
            f"{', '.join(game.waiting_for) or 'the referee'} "
            "(seats: frogpbem join; then the referee: frogpbem deal)"
        )
    try:
        state = rules.start(game.options, game.seats, game.setup["public"], secrets)
    except _MALFORMED as exc:
        raise InconsistentResultError(f"{game.path}: the setup is malformed ({exc!r})") from None
    states = [state]
    revealed = (game.doc["reveal"] or {}).get("sealed_moves", {})
    for record in game.doc["log"]:
        where = f"record {record['n']}"
        try:
            text = record["move"]
            if "commitment" in record:
                opened = revealed.get(str(record["n"]))
                if opened is not None:
                    check_sealed_move(game, record, opened)
                    text = opened["move"]
                elif key is not None and game.role(key) in (REFEREE, record["seat"]):
                    text = open_move(game, record, key)["move"]
            move = rules.parse_move(text)
            if rules.public_move(move) != record["move"]:
                raise NotationError(f"move {record['move']!r} is not in canonical notation")
            state, result = rules.play(state, record["seat"], move, record["result"])
        except FrogPbemError as exc:
            raise InconsistentResultError(
                f"{where} ({record['seat']} {record['move']}): {exc}"
            ) from None
        except _MALFORMED as exc:  # signed, yet not data these rules can have written
            raise InconsistentResultError(f"{where}: malformed record ({exc!r})") from None
        if rules.scores(state) != record["scores"]:
            raise InconsistentResultError(
                f"{where}: scores {record['scores']} should be {rules.scores(state)}"
            )
        states.append(state)
    return Replay(states)


def seal_move(game: Game, seat: str, n: int, text: str,
              referee: crypto.PublicKey) -> dict[str, str]:
    """Seal a secret move (a guess) to its seat, teammates and the referee, with a commitment."""
    salt = crypto.new_salt()
    keys = chain.seat_keys(game.doc)
    readers = game.ruleset.secret_readers(game.options, seat)
    body = crypto.canonical_json({"game": game.game_id, "n": n, "move": text, "salt": salt})
    return {"sealed": crypto.seal(pad_block(body), [keys[r] for r in readers] + [referee]),
            "commitment": crypto.commitment(game.game_id, seat, salt, {"n": n, "move": text})}


def open_move(game: Game, record: dict[str, Any], key: crypto.PrivateKey) -> dict[str, str]:
    """A sealed move's text and salt, checked against its commitment."""
    try:
        data = json.loads(crypto.unseal(record["sealed"], key))
        opened = {"move": str(data["move"]), "salt": str(data["salt"])}
    except (ValueError, KeyError, TypeError):
        raise CommitmentError(f"{game.path}: record {record['n']}: the sealed move is not "
                              "readable") from None
    check_sealed_move(game, record, opened)
    return opened


def check_sealed_move(game: Game, record: dict[str, Any], opened: dict[str, str]) -> None:
    secret = {"n": record["n"], "move": opened["move"]}
    if crypto.commitment(game.game_id, record["seat"], opened["salt"], secret) != \
            record["commitment"]:
        raise CommitmentError(f"{game.path}: record {record['n']}: the sealed move does not "
                              "match its commitment")


def referee_seed(game: Game, key: crypto.PrivateKey) -> str | None:
    """The referee's dealing seed, opened with its key and checked against the commitment."""
    fairness = game.header["setup"].get("fairness")
    if fairness is None:
        return None
    try:
        seed = str(json.loads(crypto.unseal(fairness["sealed_seed"], key))["seed"])
    except (ValueError, KeyError, TypeError):
        raise CommitmentError(f"{game.path}: the referee's sealed seed is not readable") from None
    if crypto.seed_commitment(game.game_id, seed) != fairness["seed_commitment"]:
        raise CommitmentError(f"{game.path}: the referee's seed does not match its commitment")
    return seed


class HeadMemory:
    """The last head the referee signed, per game, so it never extends an older copy."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, game: str) -> Path:
        return self.folder / "heads" / f"{game}.json"

    def _read(self, game: str) -> dict[str, Any] | None:
        path = self._path(game)
        if not path.exists():
            return None
        try:
            memory = json.loads(path.read_text(encoding="utf-8"))
            int(memory["n"]), str(memory["head"]), str(memory["digest"])
        except (OSError, ValueError, KeyError, TypeError):
            raise StaleCopyError(f"referee memory {path} is unreadable; check it by hand") from None
        return memory  # type: ignore[no-any-return]

    def remembered(self, game: str) -> tuple[int, str] | None:
        """How many records were signed for ``game``, and the digest of them all."""
        memory = self._read(game)
        return None if memory is None else (int(memory["n"]), str(memory["digest"]))

    def check(self, game: Game) -> None:
        memory = self._read(game.game_id)
        if memory is None:
            return
        n, head = int(memory["n"]), str(memory["head"])
        log = game.doc["log"]
        if len(log) < n:
            raise StaleCopyError(
                f"{game.path} ends at record {len(log)}, but you already signed record {n} of "
                f"game {game.game_id}: this copy is stale (take its requests with --from)"
            )
        if n:
            matches = chain.record_hash(log[n - 1]) == head
        else:  # before any record: the header, or the deal that extends it
            matches = head in (chain.header_hash(game.doc), chain.base_hash(game.doc))
        if not matches:
            raise StaleCopyError(
                f"{game.path} diverges from what you signed at record {n} of game "
                f"{game.game_id}: refusing to sign a second history"
            )

    def remember(self, game: Game) -> None:
        path = self._path(game.game_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        n = len(game.doc["log"])
        memory = {"n": n, "head": game.head, "digest": chain.prefix_digest(game.doc, n)}
        write_atomic(path, json.dumps(memory).encode())


def default_state_dir() -> Path:
    if os.environ.get("FROGPBEM_STATE"):
        return Path(os.environ["FROGPBEM_STATE"])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "frogpbem"
