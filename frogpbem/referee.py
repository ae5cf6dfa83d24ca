"""The referee's and the players' work on a game file: deal, request, apply, reveal.

This module joins the rules (``games``) to the file layer (``gamefile``) and
the crypto package; it holds no game's rules itself.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from frogpbem import crypto
from frogpbem.errors import (
    CommitmentError,
    FileAccessError,
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
    dump_game,
    locked,
    new_document,
    read_game,
    write_atomic,
)
from frogpbem.games import JSON, Ruleset, find_game
from frogpbem.views import write_views

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


def load(path: Path, memory: HeadMemory | None = None) -> Game:
    """Read a game file and check its format, schema, signatures and chain.

    With the referee's ``memory``, what it remembers signing is not verified again.
    """
    doc = read_game(path)
    ruleset = find_game(doc["header"]["rules"])
    trusted = memory.remembered(doc["header"]["game"]) if memory else None
    report = chain.check_chain(doc, trusted)
    if report.problems:
        first = report.problems[0]
        raise type(first)(f"{path}: {first}")
    return Game(path, doc, ruleset, report.head, report.unrequested)


# --- hidden data --------------------------------------------------------------


def _plaintext(game: str, seat: str, salt: str, secret: JSON, length: int) -> bytes:
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


# --- replay -------------------------------------------------------------------


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
    state = rules.start(game.options, game.seats, game.setup["public"], secrets)
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
        if rules.scores(state) != record["scores"]:
            raise InconsistentResultError(
                f"{where}: scores {record['scores']} should be {rules.scores(state)}"
            )
        states.append(state)
    return Replay(states)


# --- creating a game ----------------------------------------------------------


@dataclass
class SeatSpec:
    """A seat as given to :func:`create_game`."""

    seat: str
    key: crypto.PublicKey
    name: str
    email: str | None = None


def new_game_id(ruleset: Ruleset[Any, Any]) -> str:
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    # 32 letters: a random byte modulo 32 is uniform
    return f"{ruleset.id_prefix}-" + "".join(alphabet[b % 32] for b in os.urandom(8))


def create_game(
    rules: str,
    referee: crypto.PrivateKey,
    referee_name: str,
    seats: list[SeatSpec],
    options: Mapping[str, str | int],
    chosen: Mapping[str, JSON] | None = None,
    game_id: str | None = None,
    created: str | None = None,
    join: bool = False,
) -> Document:
    """A new game document: options checked, setup dealt (or chosen), sealed, committed, signed.

    A random setup is derived from a seed of the referee's, committed in the
    header (and sealed to the referee). With ``join`` every seat adds a seed of
    its own first (:func:`join_game`) and the referee deals later
    (:func:`deal_game`); without, the referee's seed alone deals at once.
    """
    ruleset = find_game(rules)
    opts = ruleset.options(options)
    seat_names = ruleset.seats(opts, len(seats))
    given = [spec.seat for spec in seats]
    if sorted(given) != sorted(seat_names):
        raise UsageError(f"{rules} needs seats {', '.join(seat_names)}, got {', '.join(given)}")
    by_seat = {spec.seat: spec for spec in seats}
    keys = [referee.public] + [spec.key for spec in seats]
    if len({k.blob for k in keys}) != len(keys):
        raise UsageError("the referee and every seat need keys of their own")
    if chosen is not None and join:
        raise UsageError("a chosen setup is not dealt: --join goes with random deals only")
    game_id = game_id or new_game_id(ruleset)
    setup: dict[str, Any] = {"dealt": "chosen" if chosen is not None else "random"}
    seat_keys = {s: by_seat[s].key for s in seat_names}
    if chosen is not None:
        public, secrets = chosen.get("public"), {s: chosen.get(s) for s in seat_names}
        ruleset.check_setup(opts, seat_names, public, secrets)
        setup.update(_sealed_setup(ruleset, opts, game_id, public, secrets, seat_keys, referee))
    elif ruleset.players_choose:
        setup.update({"dealt": "players", "public": None, "commitments": {}, "sealed": {},
                      "choosers": list(seat_names)})
    else:
        seed = crypto.new_seed()
        fairness: dict[str, Any] = {
            "scheme": crypto.SCHEME,
            "seed_commitment": crypto.seed_commitment(game_id, seed),
            "joiners": list(seat_names) if join else [],
            "sealed_seed": crypto.seal(json.dumps({"seed": seed}).encode(), [referee.public]),
        }
        if join:
            setup.update({"public": None, "commitments": {}, "sealed": {}})
        else:
            chance = crypto.DerivedChance(crypto.deal_key(game_id, seed, {}))
            public, secrets = ruleset.deal(opts, seat_names, chance)
            if not secrets:
                fairness["seed"] = seed  # nothing is hidden: show the seed with the deal
            setup.update(
                _sealed_setup(ruleset, opts, game_id, public, secrets, seat_keys, referee)
            )
        setup["fairness"] = fairness
    seat_entries = []
    for seat in seat_names:
        spec = by_seat[seat]
        entry: dict[str, Any] = {"seat": seat, "name": spec.name}
        if spec.email:
            entry["email"] = spec.email
        entry["key"] = spec.key.line
        seat_entries.append(entry)
    header: dict[str, Any] = {
        "game": game_id,
        "rules": ruleset.name,
        "options": opts,
        "created": created or now_text(),
        "referee": {"name": referee_name, "key": referee.public.line},
        "seats": seat_entries,
        "setup": setup,
    }
    header["signature"] = crypto.sign_element(referee, "header", header)
    return new_document(header)


def _sealed_setup(
    ruleset: Ruleset[Any, Any], options: Mapping[str, Any], game_id: str, public: JSON,
    secrets: Mapping[str, JSON], keys: Mapping[str, crypto.PublicKey],
    referee: crypto.PrivateKey,
) -> dict[str, Any]:
    """Public setup, commitments and sealed copies of every seat's secret."""
    length = pad_length(ruleset, options)
    commitments: dict[str, str] = {}
    sealed: dict[str, str] = {}
    for seat, secret in secrets.items():
        if secret is None:
            continue
        salt = crypto.new_salt()
        commitments[seat] = crypto.commitment(game_id, seat, salt, secret)
        readers = ruleset.secret_readers(options, seat)
        recipients = [keys[r] for r in readers] + [referee.public]
        sealed[seat] = crypto.seal(_plaintext(game_id, seat, salt, secret, length), recipients)
    return {"public": public, "commitments": commitments, "sealed": sealed}


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


def join_game(path: Path, key: crypto.PrivateKey) -> str:
    """A seat adds its signed random seed to a game that waits for joins."""
    with locked(path):
        game = load(path)
        seat = game.role(key)
        if seat == REFEREE:
            raise UsageError("the referee's seed is in the header already; seats join")
        if game.header["setup"].get("choosers"):
            raise UsageError(f"in {game.ruleset.name} each seat chooses its secret: "
                             f"frogpbem setup {path.name} ...")
        if seat not in game.waiting_for:
            if not game.undealt:
                raise IllegalMoveError(f"{path}: game {game.game_id} takes no joins (dealt, "
                                       "or created without --join)")
            raise IllegalMoveError(f"{path}: {seat} has joined already")
        element: dict[str, Any] = {"game": game.game_id, "seat": seat, "seed": crypto.new_seed()}
        element["signature"] = crypto.sign_element(key, "join", element)
        game.doc.setdefault("joins", []).append(element)
        write_atomic(path, dump_game(game.doc))
        return (f"{seat} joined game {game.game_id} with a fresh seed; "
                f"send {path.name} to the referee")


def submit_setup(path: Path, key: crypto.PrivateKey, text: str | None) -> str:
    """A seat chooses its own secret (``None``: at random), seals and commits it."""
    with locked(path):
        game = load(path)
        seat = game.role(key)
        if seat == REFEREE or not game.header["setup"].get("choosers"):
            raise UsageError(f"{path}: only the seats of a game whose seats choose their "
                             "setup (secretmove) use frogpbem setup")
        if seat not in game.waiting_for:
            raise IllegalMoveError(f"{path}: {seat} has chosen its setup already"
                                   if game.undealt else f"{path}: the game has started")
        rules = game.ruleset
        if text is None:
            secret = rules.deal(game.options, [seat], crypto.secure_random())[1][seat]
        else:
            secret = rules.parse_secret(text)
        salt = crypto.new_salt()
        length = pad_length(rules, game.options)
        readers = [chain.seat_keys(game.doc)[r] for r in rules.secret_readers(game.options, seat)]
        element: dict[str, Any] = {
            "game": game.game_id,
            "seat": seat,
            "commitment": crypto.commitment(game.game_id, seat, salt, secret),
            "sealed": crypto.seal(_plaintext(game.game_id, seat, salt, secret, length),
                                  [*readers, chain.referee_key(game.doc)]),
        }
        element["signature"] = crypto.sign_element(key, "join", element)
        game.doc.setdefault("joins", []).append(element)
        write_atomic(path, dump_game(game.doc))
        return (f"{seat} chose its setup (sealed to you and the referee); "
                f"send {path.name} to the referee")


def deal_game(
    path: Path, key: crypto.PrivateKey, take_from: Sequence[Path] = (),
    state_dir: Path | None = None, at: str | None = None,
) -> Applied:
    """The referee takes the seats' joins and, once all are in, deals."""
    memory = HeadMemory(state_dir or default_state_dir())
    with locked(path):
        game = load(path, memory)
        if game.role(key) != REFEREE:
            raise KeyError_(f"key {key.public.fingerprint} is not the referee's: only the "
                            "referee deals")
        if not game.undealt:
            raise IllegalMoveError(f"{path}: game {game.game_id} is dealt already")
        joins = game.doc.setdefault("joins", [])
        for other_path in take_from:
            other = load(other_path)
            if chain.header_hash(other.doc) != chain.header_hash(game.doc):
                raise StaleCopyError(f"{other_path} is not a copy of game {game.game_id}")
            known = {j["seat"] for j in joins}
            joins.extend(j for j in other.doc.get("joins", []) if j["seat"] not in known)
        applied = Applied()
        if game.waiting_for:
            write_atomic(path, dump_game(game.doc))
            applied.lines.append(f"waiting for {', '.join(game.waiting_for)} to join")
            return applied
        order = game.joiners
        joins.sort(key=lambda j: order.index(j["seat"]))
        deal: dict[str, Any] = {"prev": chain.header_hash(game.doc), "joins": joins}
        if game.header["setup"].get("choosers"):
            deal.update(_chosen_by_seats(game, joins, key))
            deal["seed"] = None
            done = f"started game {game.game_id}: every seat has chosen its setup"
        else:
            seed = referee_seed(game, key)
            assert seed is not None  # undealt games without choosers have fairness data
            player_seeds = {j["seat"]: j["seed"] for j in joins}
            chance = crypto.DerivedChance(crypto.deal_key(game.game_id, seed, player_seeds))
            public, secrets = game.ruleset.deal(game.options, game.seats, chance)
            keys = chain.seat_keys(game.doc)
            deal.update(_sealed_setup(game.ruleset, game.options, game.game_id, public,
                                      secrets, keys, key))
            deal["seed"] = None if secrets else seed  # nothing hidden: show the seed at once
            done = (f"dealt game {game.game_id} from the referee's seed and the seeds of "
                    f"{', '.join(player_seeds)}")
        deal["at"] = at or now_text()
        deal["signature"] = crypto.sign_element(key, "deal", deal)
        game.doc["deal"] = deal
        game.doc["joins"] = []
        game.head = chain.head_of(game.doc)
        applied.lines.append(done)
        state = replay(game, known_secrets(game, REFEREE, key), key).final
        state = _automatic_moves(game, state, key, deal["at"], applied.lines)
        write_atomic(path, dump_game(game.doc))
        memory.remember(game)
        applied.views = write_views(game, state, key)
        return applied


def _chosen_by_seats(game: Game, joins: list[dict[str, Any]],
                     key: crypto.PrivateKey) -> dict[str, Any]:
    """The seats' own sealed secrets, each opened by the referee and checked."""
    secrets = {}
    for join in joins:
        seat = join["seat"]
        entry = {"sealed": {seat: join["sealed"]}, "commitments": {seat: join["commitment"]}}
        probe = Game(game.path, {**game.doc, "deal": entry}, game.ruleset, game.head)
        secrets[seat] = open_secret(probe, seat, key)["secret"]
    try:
        game.ruleset.check_setup(game.options, game.seats, None, secrets)
    except NotationError as exc:
        raise CommitmentError(f"{game.path}: a seat's chosen setup is not valid: {exc}") from None
    return {"public": None,
            "commitments": {j["seat"]: j["commitment"] for j in joins},
            "sealed": {j["seat"]: j["sealed"] for j in joins}}


def start_game(
    path: Path, doc: Document, key: crypto.PrivateKey, state_dir: Path | None = None
) -> list[Path]:
    """Write a new game file and its views; remember its head."""
    if path.exists():
        raise FileAccessError(f"{path} exists already; not overwriting a game")
    with locked(path):
        write_atomic(path, dump_game(doc))
        game = load(path)
        HeadMemory(state_dir or default_state_dir()).remember(game)
        if game.undealt:
            return []  # views once the seats have joined and the referee has dealt
        state = replay(game, known_secrets(game, REFEREE, key), key).final
        return write_views(game, state, key)


# --- the referee's memory of heads ---------------------------------------------


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


# --- moves ---------------------------------------------------------------------


@dataclass
class Applied:
    """What the referee did to a game in one call."""

    lines: list[str] = field(default_factory=list)
    """Each applied record in words (``red shoots G9: 2``)."""
    outcome: JSON | None = None
    """The outcome, if the game ended."""
    views: list[Path] = field(default_factory=list)
    """View files written."""


def seal_move(game: Game, seat: str, n: int, text: str,
              referee: crypto.PublicKey) -> dict[str, str]:
    """Seal a secret move (a guess) to its seat, teammates and the referee, with a commitment."""
    salt = crypto.new_salt()
    keys = chain.seat_keys(game.doc)
    readers = game.ruleset.secret_readers(game.options, seat)
    body = crypto.canonical_json({"game": game.game_id, "n": n, "move": text, "salt": salt})
    padded = body + b" " * (-len(body) % 256)
    return {"sealed": crypto.seal(padded, [keys[r] for r in readers] + [referee]),
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


def _append_record(
    game: Game, state: Any, seat: str, text: str, request: dict[str, Any] | None,
    key: crypto.PrivateKey, at: str,
) -> tuple[Any, str]:
    rules = game.ruleset
    n = len(game.doc["log"]) + 1
    sealed = chain.sealed_parts(request) if request is not None else None
    if sealed is not None:  # a sealed request: open it, with the referee's key
        text = open_move(game, {"n": n, "seat": seat, **sealed}, key)["move"]
    move = rules.parse_move(text)
    state, result = rules.play(state, seat, move)
    if sealed is None and rules.is_sealed(text):
        sealed = seal_move(game, seat, n, rules.format_move(move), key.public)
    record: dict[str, Any] = {
        "n": n,
        "prev": game.head,
        "seat": seat,
        "move": rules.public_move(move),
        "result": result,
        "scores": rules.scores(state),
        "at": at,
    }
    if sealed is not None:
        record.update(sealed)
    if request is not None:
        record["request"] = request["signature"]
    record["signature"] = crypto.sign_element(key, "record", record)
    game.doc["log"].append(record)
    game.head = chain.record_hash(record)
    return state, rules.describe(seat, record["move"], result)


def _reveal(game: Game, key: crypto.PrivateKey, outcome: JSON, at: str) -> None:
    revealed = {seat: open_secret(game, seat, key) for seat in game.setup["sealed"]}
    reveal: dict[str, Any] = {"prev": game.head, "secrets": revealed, "outcome": outcome,
                              "seed": referee_seed(game, key), "at": at}
    moves = {str(r["n"]): open_move(game, r, key) for r in game.doc["log"] if "commitment" in r}
    if moves:
        reveal["sealed_moves"] = moves
    reveal["signature"] = crypto.sign_element(key, "reveal", reveal)
    game.doc["reveal"] = reveal


def take_requests(game: Game, other_path: Path) -> int:
    """Copy the pending requests and new team notes of a player's returned copy into ``game``.

    Returns how many requests were taken.
    """
    other = load(other_path)
    if chain.header_hash(other.doc) != chain.header_hash(game.doc):
        raise StaleCopyError(f"{other_path} is not a copy of game {game.game_id}")
    present = {r["signature"] for r in game.doc["requests"]}
    fresh = [r for r in other.doc["requests"] if r["signature"] not in present]
    game.doc["requests"].extend(fresh)
    notes = game.doc.setdefault("notes", [])
    known = {note["signature"] for note in notes}
    notes.extend(n for n in other.doc.get("notes", []) if n["signature"] not in known)
    return len(fresh)


# --- team notes ------------------------------------------------------------------

MAX_NOTE = 2000
"""Longest note, in characters."""


def add_note(path: Path, key: crypto.PrivateKey, text: str, at: str | None = None) -> str:
    """Seal a note to the author's team (the author alone without teams), sign it, keep it."""
    if not text.strip() or len(text) > MAX_NOTE:
        raise UsageError(f"a note has 1 to {MAX_NOTE} characters, got {len(text)}")
    with locked(path):
        game = load(path)
        seat = game.role(key)
        if seat == REFEREE:
            raise UsageError("notes are between teammates; the referee writes none")
        team = game.ruleset.secret_readers(game.options, seat)
        keys = chain.seat_keys(game.doc)
        body = crypto.canonical_json({"game": game.game_id, "seat": seat, "text": text})
        padded = body + b" " * (-len(body) % 256)
        note: dict[str, Any] = {
            "game": game.game_id,
            "seat": seat,
            "to": list(team),
            "n": len(game.doc["log"]),
            "sealed": crypto.seal(padded, [keys[s] for s in team]),
            "at": at or now_text(),
        }
        note["signature"] = crypto.sign_element(key, "note", note)
        game.doc.setdefault("notes", []).append(note)
        write_atomic(path, dump_game(game.doc))
        readers = ", ".join(team)
        return f"note by {seat} sealed to {readers}; send {path.name} on as usual"


def read_notes(game: Game, seat: str, key: crypto.PrivateKey) -> list[dict[str, Any]]:
    """The notes ``seat`` can read, oldest first."""
    notes = []
    for note in game.doc.get("notes", []):
        if seat not in note["to"]:
            continue
        try:
            data = json.loads(crypto.unseal(note["sealed"], key))
            text = str(data["text"])
            if data.get("game") != game.game_id or data.get("seat") != note["seat"]:
                raise ValueError("note moved from elsewhere")
        except (ValueError, KeyError, TypeError):
            raise CommitmentError(
                f"{game.path}: a note by {note['seat']} does not open as a note of this game"
            ) from None
        notes.append({"n": note["n"], "seat": note["seat"], "at": note["at"], "text": text})
    return notes


def move(
    path: Path,
    key: crypto.PrivateKey,
    text: str | None = None,
    seat: str | None = None,
    take_from: Path | None = None,
    discard_requests: bool = False,
    state_dir: Path | None = None,
    at: str | None = None,
) -> Applied | str:
    """The ``move`` command: the referee applies, a seat signs a request.

    Returns what the referee applied, or the player's confirmation line.
    """
    memory = HeadMemory(state_dir or default_state_dir())
    with locked(path):
        game = load(path, memory)
        role = game.role(key)
        if role != REFEREE:
            if text is None:
                raise UsageError(f"give the move to sign for {role}, e.g. \"shoot G9\"")
            if seat not in (None, role) or take_from or discard_requests:
                raise UsageError(f"key {key.public.fingerprint} holds seat {role}: "
                                 "--seat, --from and --discard-requests are the referee's")
            return _request(game, role, key, text)
        return _apply(game, key, text, seat, take_from, discard_requests, memory,
                      at or now_text())


def _apply(
    game: Game, key: crypto.PrivateKey, text: str | None, seat: str | None,
    take_from: Path | None, discard_requests: bool, memory: HeadMemory, at: str,
) -> Applied:
    path = game.path
    memory.check(game)
    state = replay(game, known_secrets(game, REFEREE, key), key).final
    applied = Applied()
    if take_from is not None:
        take_requests(game, take_from)
    if discard_requests:
        game.doc["requests"] = []
    if text is not None:
        if game.doc["requests"]:
            raise UsageError(
                f"{path} has {len(game.doc['requests'])} pending request(s): apply them first "
                f"(frogpbem move {path.name}) or drop them with --discard-requests"
            )
        actor = seat or game.ruleset.to_move(state)
        if actor is None:
            actor = game.seats[0]  # the game is over: play() says so
        if actor not in game.seats:
            raise UsageError(f"{actor!r} is not a seat of game {game.game_id}")
        state, line = _append_record(game, state, actor, text, None, key, at)
        applied.lines.append(line)
    else:
        pending = game.doc["requests"]
        if not pending and not discard_requests:
            raise UsageError(f"{path}: no move given and no pending requests to apply")
        for index, request in enumerate(pending):
            where = f"pending request {index + 1} ({request['seat']} {request['move']!r})"
            expected_n = len(game.doc["log"]) + 1
            if request["n"] != expected_n or request["head"] != game.head:
                raise StaleCopyError(
                    f"{path}: {where} was signed for record {request['n']} at another "
                    f"point of the game (now record {expected_n}): stale or replayed; "
                    "drop it with --discard-requests"
                )
            try:
                state, line = _append_record(
                    game, state, request["seat"], request["move"], request, key, at,
                )
            except FrogPbemError as exc:
                raise type(exc)(f"{path}: {where}: {exc}") from None
            applied.lines.append(line)
    game.doc["requests"] = []
    state = _automatic_moves(game, state, key, at, applied.lines)
    outcome = game.ruleset.outcome(state)
    if outcome is not None and game.doc["reveal"] is None:
        applied.outcome = outcome.to_json()
        _reveal(game, key, applied.outcome, at)
    write_atomic(path, dump_game(game.doc))
    memory.remember(game)
    applied.views = write_views(game, state, key)
    return applied


def _automatic_moves(game: Game, state: Any, key: crypto.PrivateKey, at: str,
                     lines: list[str]) -> Any:
    """Record the moves the rules make by themselves (a pass for a seat with no legal move)."""
    rules = game.ruleset
    while (auto := rules.automatic(state)) is not None:
        seat = rules.to_move(state)
        assert seat is not None  # the rules only force a move on a seat to move
        state, line = _append_record(game, state, seat, auto, None, key, at)
        lines.append(line)
    return state


def _request(game: Game, seat: str, key: crypto.PrivateKey, text: str) -> str:
    """Sign a move request for ``seat`` and add it to the game file's requests."""
    rules = game.ruleset
    state = replay(game, known_secrets(game, seat, key)).final
    parsed = rules.parse_move(text)
    rules.check(state, seat, parsed)
    canonical = rules.format_move(parsed)
    n = len(game.doc["log"]) + 1
    sealed = (seal_move(game, seat, n, canonical, chain.referee_key(game.doc))
              if rules.is_sealed(canonical) else None)
    public = rules.public_move(parsed)
    for request in game.doc["requests"]:
        if request["seat"] == seat and request["n"] == n and request["head"] == game.head:
            raise UsageError(
                f"{game.path}: {seat} has already asked for {request['move']!r} at record {n}"
            )
    element: dict[str, Any] = chain.request_element(game.game_id, n, game.head, seat, public,
                                                    sealed)
    element["signature"] = crypto.sign_element(key, "request", element)
    game.doc["requests"].append(element)
    write_atomic(game.path, dump_game(game.doc))
    shown = canonical + (" (sealed: only you and the referee can read it)" if sealed else "")
    return f"{seat} asks: {shown} (for record {n}); send {game.path.name} to the referee"
