"""Creating games and dealing them: chosen, derived from seeds (fair), or chosen by the seats."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import (
    CommitmentError,
    FileAccessError,
    FrogPbemError,
    IllegalMoveError,
    KeyError_,
    NotationError,
    NothingToApplyError,
    UsageError,
)
from frogpbem.gamefile.document import dump_game, locked, write_atomic
from frogpbem.gamefile.model import (
    EMPTY,
    JSON,
    ChosenSetup,
    Deadline,
    Deal,
    Dealt,
    Entered,
    Fairness,
    GameFile,
    Header,
    Join,
    Party,
    Sealed,
    Setup,
)
from frogpbem.games import SomeRuleset, find_game
from frogpbem.protocol.game import (
    REFEREE,
    Game,
    deadline_words,
    known_secrets,
    load,
    load_copy,
    referee_seed,
    replay,
    ruleset_of,
)
from frogpbem.protocol.memory import HeadMemory
from frogpbem.protocol.secrets import SealedSecret, setup_length
from frogpbem.protocol.session import Session
from frogpbem.referee import Applied, Returned, automatic_moves
from frogpbem.views import write_views


@dataclass
class SeatSpec:
    """A seat as given to :func:`create_game`."""

    seat: str
    key: crypto.PublicKey
    name: str
    email: str | None = None


def new_game_id(ruleset: SomeRuleset) -> str:
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    # 32 letters: a random byte modulo 32 is uniform
    return f"{ruleset.id_prefix}-" + "".join(alphabet[b % 32] for b in os.urandom(8))


def create_game(
    rules: str,
    referee: crypto.PrivateKey,
    referee_name: str,
    seats: list[SeatSpec],
    options: Mapping[str, str | int],
    chosen: ChosenSetup | None = None,
    game_id: str | None = None,
    *,
    created: str,
    join: bool = False,
    deadline: Deadline | None = None,
    referee_email: str | None = None,
    tournament: Entered | None = None,
) -> GameFile:
    """A new game: options checked, setup dealt (or chosen), sealed, committed, signed.

    A random setup is derived from a seed of the referee's, committed in the
    header (and sealed to the referee). With ``join`` every seat adds a seed of
    its own first (:func:`join_game`) and the referee deals later
    (:func:`deal_game`); without, the referee's seed alone deals at once. A game of a
    tournament names it (``tournament``: see :mod:`frogpbem.tournament`).
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
    parties = tuple(Party(by_seat[s].name, by_seat[s].key.line, s, by_seat[s].email)
                    for s in seat_names)
    seat_keys = {s: by_seat[s].key for s in seat_names}
    if chosen is not None:
        public, secrets = chosen.public, {s: chosen.secrets.get(s) for s in seat_names}
        ruleset.check_setup(opts, seat_names, public, secrets)
        setup = Setup("chosen", _sealed_setup(ruleset, opts, game_id, public, secrets,
                                              seat_keys, referee.public))
    elif ruleset.players_choose:
        setup = Setup("players", EMPTY, choosers=tuple(seat_names))
    else:
        seed = crypto.new_seed()
        sealed_seed = SealedSecret.seal(game_id, REFEREE, seed, [referee.public]).armored
        fairness = Fairness(crypto.SCHEME, crypto.seed_commitment(game_id, seed),
                            tuple(seat_names) if join else (), sealed_seed)
        dealing = EMPTY
        if not join:
            chance = crypto.DerivedChance(crypto.deal_key(game_id, seed, {}))
            public, secrets = ruleset.deal(opts, seat_names, chance)
            if not secrets:  # nothing is hidden: show the seed with the deal
                fairness = replace(fairness, seed=seed)
            dealing = _sealed_setup(ruleset, opts, game_id, public, secrets, seat_keys,
                                    referee.public)
        setup = Setup("random", dealing, fairness)
    header = Header(game_id, ruleset.name, opts, created,
                    Party(referee_name, referee.public.line, email=referee_email), parties,
                    setup, deadline=deadline, tournament=tournament)
    return GameFile(header.signed(referee))


def _sealed_setup(
    ruleset: SomeRuleset, options: Mapping[str, Any], game_id: str, public: JSON,
    secrets: Mapping[str, JSON], keys: Mapping[str, crypto.PublicKey],
    referee: crypto.PublicKey,
) -> Dealt:
    """Public setup, commitments and sealed copies of every seat's secret."""
    length = setup_length(ruleset.secret_bound(options))
    sealed = {
        seat: SealedSecret.seal(game_id, seat, secret,
                                [*(keys[r] for r in ruleset.secret_readers(options, seat)),
                                 referee], length)
        for seat, secret in secrets.items() if secret is not None
    }
    return Dealt(public, {s: v.commitment or "" for s, v in sealed.items()},
                 {s: v.armored for s, v in sealed.items()})


def join_game(path: Path, key: crypto.PrivateKey, session: Session) -> str:
    """A seat adds its signed random seed to a game that waits for joins."""
    with locked(path):
        game = load(path, session)
        seat = game.role(key)
        if seat == REFEREE:
            raise UsageError("the referee's seed is in the header already; seats join")
        seen = session.seen
        seen.see(game)
        if game.header.setup.choosers:
            raise UsageError(f"in {game.ruleset.name} each seat chooses its secret: "
                             f"frogpbem setup {path.name} ...")
        _check_may_join(game, seat)
        element = Join(game.game_id, game.header.hash, seat, crypto.new_seed()).signed(key)
        game.file = replace(game.file, joins=(*game.file.joins, element))
        write_atomic(path, dump_game(game.file))
        seen.signed(game, element.signature)  # no deal may be dated before it
        return (f"{seat} joined game {game.game_id} with a fresh seed; "
                f"send {path.name} to the referee"
                f". {deadline_words(game.header)}")


def _check_may_join(game: Game, seat: str) -> None:
    if seat in game.waiting_for:
        return
    if not game.undealt:
        raise IllegalMoveError(f"game {game.game_id} takes no joins (dealt, or created "
                               "without --join)", path=game.path)
    raise IllegalMoveError(f"{seat} has joined already", path=game.path)


def submit_setup(path: Path, key: crypto.PrivateKey, text: str | None,
                 session: Session) -> str:
    """A seat chooses its own secret (``None``: at random), seals and commits it."""
    with locked(path):
        game = load(path, session)
        seat = game.role(key)
        if seat == REFEREE or not game.header.setup.choosers:
            raise UsageError("only the seats of a game whose seats choose their setup "
                             "(secretmove) use frogpbem setup", path=path)
        seen = session.seen
        seen.see(game)
        if seat not in game.waiting_for:
            raise IllegalMoveError(f"{seat} has chosen its setup already"
                                   if game.undealt else "the game has started", path=path)
        rules = game.ruleset
        if text is None:
            secret = rules.deal(game.options, [seat], crypto.secure_random())[1][seat]
        else:
            secret = rules.parse_secret(text)
        sealed = SealedSecret.seal(game.game_id, seat, secret, game.recipients(seat),
                                   setup_length(rules.secret_bound(game.options)))
        element = Join(game.game_id, game.header.hash, seat, chosen=sealed.field).signed(key)
        game.file = replace(game.file, joins=(*game.file.joins, element))
        write_atomic(path, dump_game(game.file))
        seen.signed(game, element.signature)  # no deal may be dated before it
        return (f"{seat} chose its setup (sealed to you and the referee); "
                f"send {path.name} to the referee"
                f". {deadline_words(game.header)}")


def deal_game(
    path: Path, key: crypto.PrivateKey, session: Session, take_from: Sequence[Path] = (),
    at: str | None = None,
) -> Applied:
    """The referee takes the seats' joins and, once all are in, deals."""
    memory = session.memory
    with locked(path):
        game = load(path, session, memory)
        _check_dealer(game, key)
        offered = [j for other in take_from for j in load_copy(game, other).file.joins]
        return _take(game, key, offered, memory, at)


def take_mailed_joins(game: Game, key: crypto.PrivateKey, copies: Sequence[Returned],
                      memory: HeadMemory, at: str | None = None) -> Applied:
    """The referee takes the joins that seats mailed back (their returned ``copies``) into
    ``game``, read and locked by the caller, and deals once every seat is in.

    For the judge and ``receive``: a copy that adds no join is refused in words the seat
    can act on (it forgot ``frogpbem join``, or it joined already), so that no reply is
    filed unused and unanswered; the very joins taken before (a message taken again)
    raise :class:`NothingToApplyError`. Request blocks hold no joins.
    """
    _check_dealer(game, key)
    offered = [j for other in copies if other.copy is not None
               for j in load_copy(game, other.name, other.unmailed).file.joins]
    known = {j.seat: j for j in game.file.joins}
    if game.waiting_for and not any(j.seat not in known for j in offered):
        raise _nothing_new(game, offered, known)
    return _take(game, key, offered, memory, at)


def _check_dealer(game: Game, key: crypto.PrivateKey) -> None:
    if game.role(key) != REFEREE:
        raise KeyError_(f"key {key.public.fingerprint} is not the referee's: only the "
                        "referee deals")
    if not game.undealt:
        raise IllegalMoveError(f"game {game.game_id} is dealt already", path=game.path)


class JoinRefusedError(IllegalMoveError):
    """A mailed copy of a game that waits for joins that adds none: the seat joined
    already (``joined``: the first join counts), or the copy holds no join. ``choosing``:
    the seats choose a secret (``frogpbem setup``) rather than join."""

    joined = False
    choosing = False


def _nothing_new(game: Game, offered: Sequence[Join],
                 known: Mapping[str, Join]) -> FrogPbemError:
    """Why a mailed copy adds no join to ``game``, in a seat's words."""
    waiting = f"the game starts once {joined_words(game.waiting_for)}"
    again = [j.seat for j in offered if j.hash == known[j.seat].hash]
    other = [j.seat for j in offered if j.hash != known[j.seat].hash]
    if other:
        refused = JoinRefusedError(f"{', '.join(other)} joined game {game.game_id} already: "
                                   f"the first join counts, this one is not used; {waiting}")
        refused.joined = True
        return refused
    if again:
        return NothingToApplyError(f"the join of {', '.join(again)} is in game "
                                   f"{game.game_id} already; {waiting}")
    name = game.path.name  # as mailed: the referee's file
    how = (f'frogpbem setup {name} "YOUR SECRET" --key YOUR_KEY' if game.header.setup.choosers
           else f"frogpbem join {name} --key YOUR_KEY")
    refused = JoinRefusedError(f"the copy of game {game.game_id} you sent holds no join: "
                               f"save the file, run {how}, and reply with the file that "
                               "changed")
    refused.choosing = bool(game.header.setup.choosers)
    return refused


def joined_words(seats: Sequence[str]) -> str:
    """``blue has joined``, ``blue, black have joined``."""
    return f"{', '.join(seats)} {'has' if len(seats) == 1 else 'have'} joined"


def _take(game: Game, key: crypto.PrivateKey, offered: Sequence[Join], memory: HeadMemory,
          at: str | None) -> Applied:
    """Take the ``offered`` joins into ``game``, deal once all are in, write the file."""
    with memory.holding(game.game_id):
        memory.check(game)
        applied, state = _deal(game, key, offered, at)
        data = dump_game(game.file)
        if state is not None:
            memory.remember(game, data)
        write_atomic(game.path, data)
    if state is not None:
        applied.views = write_views(game, state, key)
    return applied


def _deal(game: Game, key: crypto.PrivateKey, offered: Sequence[Join],
          at: str | None) -> tuple[Applied, Any]:
    """Take the joins; deal once all are in. The state after the deal, or ``None``: waiting."""
    joins = list(game.file.joins)
    for join in offered:  # a seat's first join counts
        if join.seat not in {j.seat for j in joins}:
            if game.header.setup.choosers:  # refused now, not once the last seat is in
                _opened_choice(game, join, key)
            joins.append(join)
    game.file = replace(game.file, joins=tuple(joins))
    applied = Applied()
    if game.waiting_for:
        applied.waiting_for = tuple(game.waiting_for)
        applied.lines.append(f"waiting for {', '.join(game.waiting_for)} to join")
        return applied, None
    order = game.header.setup.joiners
    joins.sort(key=lambda j: order.index(j.seat))
    at = at or game.stores.clock.text()
    if game.header.setup.choosers:
        dealing = _chosen_by_seats(game, joins, key)
        seed = None
        done = f"started game {game.game_id}: every seat has chosen its setup"
    else:
        referee = referee_seed(game, key)
        assert referee is not None  # undealt games without choosers have fairness data
        player_seeds = {j.seat: j.seed or "" for j in joins}
        chance = crypto.DerivedChance(crypto.deal_key(game.game_id, referee, player_seeds))
        public, secrets = game.ruleset.deal(game.options, game.seats, chance)
        dealing = _sealed_setup(game.ruleset, game.options, game.game_id, public, secrets,
                                game.header.seat_keys, key.public)
        seed = None if secrets else referee  # nothing hidden: show the seed at once
        done = (f"dealt game {game.game_id} from the referee's seed and the seeds of "
                f"{', '.join(player_seeds)}")
    deal = Deal(game.header.hash, tuple(joins), dealing, seed, at).signed(key)
    game.file = replace(game.file, deal=deal, joins=())
    applied.lines.append(done)
    state = replay(game, known_secrets(game, REFEREE, key), key, keeper=key).final
    state = automatic_moves(game, state, key, at, applied.lines)
    return applied, state


def _chosen_by_seats(game: Game, joins: list[Join], key: crypto.PrivateKey) -> Dealt:
    """The seats' own sealed secrets, each opened by the referee and checked."""
    secrets = {}
    chosen: dict[str, Sealed] = {}
    for join in joins:
        chosen[join.seat], secrets[join.seat] = _opened_choice(game, join, key)
    try:
        game.ruleset.check_setup(game.options, game.seats, None, secrets)
    except NotationError as exc:
        raise CommitmentError(f"a seat's chosen setup is not valid: {exc.message}",
                              path=game.path) from None
    return Dealt(None, {s: c.commitment for s, c in chosen.items()},
                 {s: c.sealed for s, c in chosen.items()})


def _opened_choice(game: Game, join: Join, key: crypto.PrivateKey) -> tuple[Sealed, JSON]:
    """The secret a seat chose, sealed and opened by the referee, checked (or refused,
    naming the seat)."""
    if join.chosen is None:
        raise CommitmentError(f"{join.seat}'s join holds no chosen setup", path=game.path)
    sealed = SealedSecret.of(game.game_id, join.seat, join.chosen,
                             f"chosen setup of {join.seat}")
    secret = sealed.open(key).secret
    game.check_secret(join.seat, secret)
    return join.chosen, secret


def start_game(
    path: Path, file: GameFile, key: crypto.PrivateKey, session: Session
) -> list[Path]:
    """Write a new game file and its views; remember its head."""
    if path.exists():
        raise FileAccessError("exists already; not overwriting a game", path=path)
    memory = session.memory
    with locked(path), memory.holding(file.game):
        data = dump_game(file)
        game = Game(path, file, ruleset_of(file.header), session, [])
        memory.remember(game, data)
        write_atomic(path, data)
        if game.undealt:
            return []  # views once the seats have joined and the referee has dealt
        state = replay(game, known_secrets(game, REFEREE, key), key, keeper=key).final
        return write_views(game, state, key)
