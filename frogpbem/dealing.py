"""Creating games and dealing them: chosen, derived from seeds (fair), or chosen by the seats."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import (
    CommitmentError,
    FileAccessError,
    IllegalMoveError,
    KeyError_,
    NotationError,
    UsageError,
)
from frogpbem.game import (
    REFEREE,
    Game,
    HeadMemory,
    default_state_dir,
    known_secrets,
    load,
    load_copy,
    now_text,
    open_secret,
    pad_length,
    pad_plaintext,
    referee_seed,
    replay,
)
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import (
    Document,
    dump_game,
    locked,
    new_document,
    write_atomic,
)
from frogpbem.games import JSON, Ruleset, find_game
from frogpbem.referee import Applied, automatic_moves
from frogpbem.views import write_views


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
        sealed[seat] = crypto.seal(pad_plaintext(game_id, seat, salt, secret, length), recipients)
    return {"public": public, "commitments": commitments, "sealed": sealed}


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
            "sealed": crypto.seal(pad_plaintext(game.game_id, seat, salt, secret, length),
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
            other = load_copy(game, other_path)
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
        state = automatic_moves(game, state, key, deal["at"], applied.lines)
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
