"""A game file loaded and checked: its rules, typed results, roles, hidden data, replay.

This module joins the rules (``games``) to the file model (``gamefile``) and
the crypto package; it holds no game's rules itself.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from frogpbem import crypto
from frogpbem.errors import (
    ChainError,
    CommitmentError,
    FrogPbemError,
    GameFileError,
    GameOverError,
    IllegalMoveError,
    InconsistentResultError,
    KeyError_,
    NotationError,
    NotYourTurnError,
    StaleCopyError,
    UsageError,
)
from frogpbem.frozen import frozen
from frogpbem.gamefile import chain, mailsafe
from frogpbem.gamefile.document import (
    parse_copy,
    parse_known,
    read_bytes,
    read_game,
)
from frogpbem.gamefile.model import (
    JSON,
    GameFile,
    Header,
    MoveSecret,
    Opened,
    OpenedMove,
    Record,
    Sealed,
)
from frogpbem.games import SomeRuleset, Termination, find_game
from frogpbem.games.clock import ClockResult, Passed, Paused, Resumed, TimedOut, parse_clock
from frogpbem.protocol import replays
from frogpbem.protocol.memory import HeadMemory
from frogpbem.protocol.replays import Replay
from frogpbem.protocol.secrets import SealedSecret
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import check_not_ahead, check_times, last_at, seconds_of, text_of

REFEREE = "referee"
"""The role of the referee's key (seats have their seat names)."""


def timeout_move(game: Game, state: Any, seat: str) -> str:
    """What a passed deadline records for ``seat``: ``pass`` where the header says so and
    the rules leave a turn to pass (:meth:`Ruleset.pass_turn`), else ``resign``."""
    deadline = game.header.deadline
    if deadline is not None and deadline.on_timeout == "pass":
        try:
            game.ruleset.pass_turn(state, seat)
        except IllegalMoveError:
            return "resign"
        return "pass"
    return "resign"


def timeout_holds(game: Game, record: Record, state_before: Any) -> bool:
    """Whether a ``timeout`` record is one the deadline allowed: the seat to move resigns
    (or passes, see :func:`timeout_move`), at least the deadline after the element before it."""
    deadline = game.header.deadline
    if deadline is None or not record.timeout:
        return False
    if game.ruleset.to_move(state_before) != record.seat:
        return False
    if record.move != timeout_move(game, state_before, record.seat):
        return False
    if record.move == "pass" and not isinstance(game.results[record.n - 1], Passed):
        return False  # a ruleset's own pass (Secret Move's ends the seat's moves) is no timeout
    return seconds_of(record.at) - seconds_of(last_at(game.file, record.n - 1)) >= deadline.seconds


def deadline_of(game: Game, state: Any) -> tuple[str, int] | None:
    """The seat to move and when its time runs out (seconds), if the game has a deadline."""
    deadline = game.header.deadline
    seat = game.ruleset.to_move(state)
    if deadline is None or seat is None or game.paused is not None:
        return None
    return seat, seconds_of(last_at(game.file, len(game.file.log))) + deadline.seconds


def clock_words(game: Game, state: Any) -> str:
    """The clock in a sentence, for the seats' mail and views: a deadline and what it does,
    or a pause; nothing once the game is over."""
    clock = clock_of(game, state)
    if clock is None:
        return ""
    if clock.paused is not None:
        return f"The referee paused the game at {clock.paused}: no move and no deadline " \
               "until it resumes."
    if clock.per_move is None or clock.due is None:
        return "No deadline is set for this game."
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds_of(clock.due)))
    then = "its turn passes" if clock.then == "pass" else "it forfeits"
    return f"{clock.to_move} must move by {when} ({clock.per_move} a move); after that {then}."


def deadline_words(header: Header) -> str:
    """The header's deadline in a sentence, for a game not dealt yet (``join``, ``setup``
    and the view say what a seat agrees to by joining)."""
    deadline = header.deadline
    if deadline is None:
        return "No deadline is set for this game."
    then = "its turn passes (where the rules allow)" if deadline.on_timeout == "pass" \
        else "it forfeits"
    return f"Once dealt, each seat has {deadline.per_move} a move; after that {then}."


@frozen
class ClockState:
    """Who must move by when, and what then (``view --json``'s ``clock``)."""

    to_move: str
    """The seat to move."""
    per_move: str | None
    """The header's deadline (``72h``), ``None`` without one."""
    due: str | None
    """When the seat's time runs out (``None``: no deadline, or paused)."""
    then: str | None
    """``forfeit`` or ``pass``: what the referee records then."""
    paused: str | None
    """When the referee paused the game, while it is paused."""

    def to_json(self) -> dict[str, str | None]:
        return {"to_move": self.to_move, "per_move": self.per_move, "due": self.due,
                "then": self.then, "paused": self.paused}


def clock_of(game: Game, state: Any) -> ClockState | None:
    """The game's clock in ``state``; ``None`` once the game is over."""
    seat = game.ruleset.to_move(state)
    if seat is None:
        return None
    deadline = game.header.deadline
    pause = game.paused
    due = deadline_of(game, state)
    then = None
    if deadline is not None:
        then = "pass" if timeout_move(game, state, seat) == "pass" else "forfeit"
    return ClockState(seat, deadline.per_move if deadline else None,
                      text_of(due[1]) if due is not None else None, then,
                      pause.at if pause is not None else None)


def termination_words(game: Game, termination: str) -> str:
    """An outcome's termination as players should read it: a resignation the referee
    recorded when the seat's deadline passed is a loss on time (the signed outcome, made by
    the rules, says ``red resigned``)."""
    how, subject = Termination.parse(termination)
    if how is not Termination.RESIGNED:
        return termination
    for record, result in zip(game.file.log, game.results, strict=True):
        if isinstance(result, TimedOut) and subject == record.seat:
            return Termination.LOST_ON_TIME.words(record.seat)
    return termination


def play_clock(rules: SomeRuleset, state: Any, seat: str, result: ClockResult,
               paused: bool) -> Any:
    """The state after a clock record (:mod:`frogpbem.games.clock`) of ``seat``.

    Each is made for the seat to move: a pause while the game runs, a resume
    right after a pause, a pass where the rules leave a turn to pass.
    """
    to_move = rules.to_move(state)
    if to_move is None:
        raise GameOverError("the game is over")
    if seat != to_move:
        raise NotYourTurnError(f"it is {to_move}'s turn, not {seat}'s")
    if isinstance(result, Resumed):
        if not paused:
            raise IllegalMoveError("the game is not paused")
        return state
    if paused:
        raise IllegalMoveError("the game is paused: only a resume may follow")
    return state if isinstance(result, Paused) else rules.pass_turn(state, seat)


@dataclass
class Game:
    """A game file read, its results typed and its chain checked.

    ``file`` is replaced (never changed) as the referee or a seat adds to it.
    """

    path: Path
    file: GameFile
    ruleset: SomeRuleset
    session: Session | None
    """Where the game was loaded: its clock, and the stores its replays are kept in (an
    audit reads a game outside any session: it keeps nothing)."""
    results: list[Any] = field(default_factory=list)
    """Each record's result, typed by the ruleset."""
    unrequested: list[int] = field(default_factory=list)
    """Numbers of the records the referee entered without a seat's request."""

    @property
    def header(self) -> Header:
        return self.file.header

    @property
    def stores(self) -> Session:
        """The session the game was loaded in (an audit's game has none)."""
        if self.session is None:
            raise TypeError(f"game {self.game_id} was read outside a session")
        return self.session

    @property
    def game_id(self) -> str:
        return self.header.game

    @property
    def options(self) -> Mapping[str, Any]:
        return self.header.options

    @property
    def seats(self) -> tuple[str, ...]:
        return self.header.seat_names

    @property
    def names(self) -> dict[str, str]:
        return self.header.names

    @property
    def head(self) -> str:
        return self.file.head

    @property
    def undealt(self) -> bool:
        return self.file.undealt

    @property
    def waiting_for(self) -> list[str]:
        return self.file.waiting_for

    def role(self, key: crypto.PrivateKey) -> str:
        """``referee`` or the seat that ``key`` holds; raises :class:`KeyError_`."""
        if self.header.referee.public_key.same_key(key.public):
            return REFEREE
        for seat, public in self.header.seat_keys.items():
            if public.same_key(key.public):
                return seat
        raise KeyError_(
            f"key {key.public.fingerprint} is neither the referee nor a seat of game "
            f"{self.game_id}", path=self.path,
        )

    # --- who may read what --------------------------------------------------------

    def readers_of(self, seat: str) -> tuple[str, ...]:
        """The seats that may read ``seat``'s secrets: itself and its teammates."""
        return self.ruleset.secret_readers(self.options, seat)

    def may_read(self, role: str | None, seat: str) -> bool:
        """Whether ``role`` (a seat, the referee, ``None``: the public) reads ``seat``'s secret."""
        if self.file.reveal is not None or role == REFEREE:
            return True
        return role is not None and role in self.readers_of(seat)

    def recipients(self, seat: str, referee: bool = True) -> list[crypto.PublicKey]:
        """The keys a secret of ``seat`` is sealed to (and the referee's)."""
        keys = [self.header.seat_keys[s] for s in self.readers_of(seat)]
        return [*keys, self.header.referee.public_key] if referee else keys

    def sealed_setup(self, seat: str) -> SealedSecret:
        """``seat``'s sealed setup, as dealt."""
        dealing = self.file.dealing
        if seat not in dealing.sealed or seat not in dealing.commitments:
            raise CommitmentError(f"no sealed setup for {seat}", path=self.path, element="setup")
        return SealedSecret(self.game_id, seat, dealing.sealed[seat], dealing.commitments[seat],
                            f"sealed setup of {seat}")

    def sealed_move(self, n: int, seat: str, sealed: Sealed) -> SealedSecret:
        """The sealed move of ``seat`` for record ``n`` (in a record, or a request for it)."""
        return SealedSecret.of(self.game_id, seat, sealed, f"sealed move of record {n}")

    def check_secret(self, seat: str, secret: JSON) -> None:
        """A secret opened or revealed must be one the rules can have dealt."""
        try:
            self.ruleset.check_setup(self.options, [seat], self.file.dealing.public,
                                     {seat: secret})
        except NotationError as exc:
            raise CommitmentError(f"{seat}'s setup is not a valid setup: {exc.message}",
                                  path=self.path) from None

    @property
    def paused(self) -> Record | None:
        """The referee's pause record, while the game is paused (its last record)."""
        if self.results and isinstance(self.results[-1], Paused):
            return self.file.log[-1]
        return None

    def check_running(self) -> None:
        """Refuse a move while the game is paused."""
        pause = self.paused
        if pause is not None:
            why = cast(Paused, self.results[-1]).reason
            raise IllegalMoveError(
                f"the game is paused since {pause.at}" + (f" ({why})" if why else "")
                + ": no move until the referee resumes it (frogpbem resume)", path=self.path)

    def append(self, record: Record, result: Any) -> None:
        self.file = self.file.with_record(record)
        self.results.append(result)
        if record.request is None:
            self.unrequested.append(record.n)


def ruleset_of(header: Header) -> SomeRuleset:
    """The header's ruleset, with its options and seats checked against it."""
    try:
        ruleset = find_game(header.rules)
        options = ruleset.options(header.options)
        seats = ruleset.seats(options, len(header.seats))
    except UsageError as exc:
        raise GameFileError(exc.message, element="header") from None
    if options != header.options or seats != header.seat_names:
        raise GameFileError(f"options or seats are not those of {ruleset.name} ({options}, "
                            f"seats {', '.join(seats)})", element="header")
    return ruleset


def typed_results(file: GameFile, ruleset: SomeRuleset,
                  known: Game | None = None) -> list[Any]:
    """Every record's result as the ruleset's type; a malformed one is refused here.

    ``known``: a game under the same header. The records this file shares with it as the
    very same values (a copy read against the game it copies) take their results from
    it: they were typed, and checked, when it was read.
    """
    results = []
    if known is not None:
        for record, own, result in zip(file.log, known.file.log, known.results, strict=False):
            if record is not own:
                break
            results.append(result)
    for record in file.log[len(results):]:
        clock = parse_clock(record.result)
        if clock is not None:
            if (clock.move, isinstance(clock, Passed)) != (record.move, record.timeout):
                raise GameFileError(f"a {record.move!r} record with the result of a "
                                    f"{clock.move!r}", element=f"record {record.n}")
            results.append(clock)
            continue
        try:
            result = ruleset.parse_result(record.result)
        except NotationError as exc:
            raise GameFileError(exc.message, element=f"record {record.n}") from None
        results.append(TimedOut(result) if record.timeout and record.move == "resign"
                       else result)
    if not file.undealt:
        try:
            ruleset.check_setup(file.header.options, (), file.dealing.public, {})
        except NotationError as exc:
            raise GameFileError(f"the public setup is malformed: {exc.message}",
                                element="setup") from None
    return results


def load(path: Path, session: Session, memory: HeadMemory | None = None,
         verified: Game | None = None, parsed: GameFile | None = None) -> Game:
    """Read a game file and check its format, schema, model, signatures, chain and times
    (:func:`check_times`).

    Signatures already checked are not checked again: those of the history
    this user's tool verified before (the ``session``'s store), those the referee's
    ``memory`` remembers signing, and
    those of a prefix this file shares exactly with a ``verified`` game. Each
    counts only for a prefix identical byte for byte, signatures included.
    ``parsed`` is the file as just read by the caller.
    """
    histories = session.verified
    file = parsed if parsed is not None else read_game(path, histories)
    if verified is not None and verified.header.hash != file.header.hash:
        verified = None
    try:
        ruleset = ruleset_of(file.header)
        results = typed_results(file, ruleset, verified)
        candidates = [memory.remembered(file.game) if memory else None,
                      histories.trusted(file)]
        if verified is not None:
            shared = min(len(file.log), len(verified.file.log))
            candidates.append((shared, chain.prefix_digest(verified.file, shared)))
        report = chain.check_chain(file, _longest_trusted(file, candidates))
        report.raise_first()
        check_times(file)
        game = Game(path, file, ruleset, session, results, report.unrequested)
        check_notes(game)
    except FrogPbemError as exc:
        raise exc.within(path=path) from None
    histories.remember(file)
    return game


def _longest_trusted(file: GameFile, candidates: list[tuple[int, str] | None]
                     ) -> tuple[int, str] | None:
    """The longest of the verified prefixes that this file has exactly."""
    fitting = [c for c in candidates if c is not None and c[0] <= len(file.log)
               and chain.prefix_digest(file, c[0]) == c[1]]
    return max(fitting, default=None)


def check_notes(game: Game) -> None:
    """Every note is addressed, and sealed, to exactly its author's team."""
    for index, note in enumerate(game.file.notes):
        team = game.readers_of(note.seat)
        sealed = SealedSecret(game.game_id, note.seat, note.sealed)
        if note.to != team or not sealed.addressed_to_exactly(
                game.recipients(note.seat, referee=False)):
            raise ChainError(f"not sealed to exactly its author's team ({', '.join(team)})",
                             element=f"note {index + 1} (by {note.seat})")


def load_copy(game: Game, other_path: Path, data: bytes | None = None) -> Game:
    """A seat's returned copy of ``game``, checked to be a copy of the same game; ``data``:
    the copy's bytes, read and unmailed already."""
    # what the copy shares with the game was read and checked already: only the rest is
    if data is None:
        data = mailsafe.unmail(read_bytes(other_path))
    session = game.stores
    parsed = parse_known(data, str(other_path), session.verified) or \
        parse_copy(data, str(other_path), game.file)
    other = load(other_path, session, verified=game, parsed=parsed)
    if other.header.hash != game.header.hash:
        raise StaleCopyError(f"is not a copy of game {game.game_id}", path=other_path)
    try:
        check_not_ahead(other.file, session.clock)
    except FrogPbemError as exc:
        raise exc.within(path=other_path) from None
    return other


def revealed_secrets(game: Game) -> dict[str, JSON | None]:
    """After the end: every secret from the reveal, each checked against its commitment."""
    reveal = game.file.reveal
    if reveal is None:
        raise UsageError("the game has no reveal yet", path=game.path)
    secrets: dict[str, JSON | None] = dict.fromkeys(game.seats)
    for seat in game.file.dealing.commitments:
        opened = reveal.secrets.get(seat)
        if opened is None or not game.sealed_setup(seat).matches(opened):
            raise CommitmentError(f"{seat}'s setup does not match its commitment",
                                  path=game.path, element="reveal")
        game.check_secret(seat, opened.secret)
        secrets[seat] = opened.secret
    return secrets


def open_setup(game: Game, seat: str, key: crypto.PrivateKey) -> Opened:
    """Decrypt ``seat``'s sealed setup, check it against its commitment and the rules."""
    try:
        opened = game.sealed_setup(seat).open(key)
    except FrogPbemError as exc:
        raise exc.within(path=game.path) from None
    game.check_secret(seat, opened.secret)
    return opened


def known_secrets(game: Game, role: str | None, key: crypto.PrivateKey | None
                  ) -> dict[str, JSON | None]:
    """Every secret ``role`` may read (all for the referee), ``None`` for the others."""
    if game.file.reveal is not None:
        return revealed_secrets(game)
    if key is None or role is None or game.undealt or not game.file.dealing.sealed:
        return dict.fromkeys(game.seats)
    return {seat: open_setup(game, seat, key).secret if game.may_read(role, seat) else None
            for seat in game.seats}


def open_move(game: Game, n: int, seat: str, sealed: Sealed,
              key: crypto.PrivateKey) -> OpenedMove:
    """The text and salt of ``seat``'s sealed move for record ``n``, checked."""
    opened = game.sealed_move(n, seat, sealed).open(key)
    try:
        secret = MoveSecret.from_json(opened.secret)
    except GameFileError:
        secret = None
    if secret is None or secret.n != n:
        raise CommitmentError("the sealed move is not readable", path=game.path,
                              element=f"record {n}")
    return OpenedMove(secret.move, opened.salt)


def check_opened_move(game: Game, record: Record, sealed: Sealed, opened: OpenedMove) -> None:
    """A revealed sealed move against its commitment."""
    secret = Opened(opened.salt, sealed_move_secret(record.n, opened.move))
    if not game.sealed_move(record.n, record.seat, sealed).matches(secret):
        raise CommitmentError("the sealed move does not match its commitment",
                              path=game.path, element=f"record {record.n}")


def sealed_move_secret(n: int, text: str) -> JSON:
    """What a sealed move's commitment covers."""
    return MoveSecret(n, text).to_json()


def referee_seed(game: Game, key: crypto.PrivateKey) -> str | None:
    """The referee's dealing seed, opened with its key and checked against the commitment."""
    fairness = game.header.setup.fairness
    if fairness is None:
        return None
    opened = SealedSecret(game.game_id, REFEREE, fairness.sealed_seed,
                          what="referee's sealed seed").open(key)
    seed = opened.secret
    if not isinstance(seed, str) or crypto.seed_commitment(game.game_id, seed) != \
            fairness.seed_commitment:
        raise CommitmentError("the referee's seed does not match its commitment",
                              path=game.path)
    return seed


def unasked(game: Game, replayed: Replay) -> list[Record]:
    """Records without their seat's signed request that the rules did not make by themselves."""
    if replayed.since:
        raise ValueError("unasked() needs a game replayed from its first record")
    rules = game.ruleset
    found = []
    for n in game.unrequested:
        record = game.file.log[n - 1]
        before = replayed.before[n]
        if timeout_holds(game, record, before):
            continue  # the seat let its deadline pass
        if isinstance(game.results[n - 1], Paused | Resumed):
            continue  # the referee's pause: it moves nothing, and every copy shows it
        auto = rules.automatic(before)
        if auto is None or rules.public_move(auto) != record.move:
            found.append(record)
    return found


def _play_record(game: Game, record: Record, claimed: Any, state: Any,
                 key: crypto.PrivateKey | None, role: str | None) -> Any:
    """The state after a seat's record, its sealed move opened where it can be."""
    text = record.move
    reveal = game.file.reveal
    if record.sealed is not None:
        opened = reveal.sealed_moves.get(record.n) if reveal else None
        if opened is not None:
            check_opened_move(game, record, record.sealed, opened)
            text = opened.move
        elif key is not None and role in (REFEREE, record.seat):
            text = open_move(game, record.n, record.seat, record.sealed, key).move
    rules = game.ruleset
    move = rules.parse_move(text)
    if rules.public_move(move) != record.move:
        raise NotationError(f"move {record.move!r} is not in canonical notation")
    return rules.play(state, record.seat, move, claimed)[0]


def start_state(game: Game, secrets: Mapping[str, JSON | None]) -> Any:
    """The state before the first record."""
    if game.undealt:
        raise IllegalMoveError(
            f"game {game.game_id} is not dealt yet: waiting for "
            f"{', '.join(game.waiting_for) or 'the referee'} "
            "(seats: frogpbem join; then the referee: frogpbem deal)", path=game.path,
        )
    return game.ruleset.start(game.options, game.seats, game.file.dealing.public, secrets)


def replay(game: Game, secrets: Mapping[str, JSON | None],
           key: crypto.PrivateKey | None = None, *,
           keeper: crypto.PrivateKey | None = None) -> Replay:
    """Replay every record through the rules, checking each result, score and turn.

    Raises :class:`InconsistentResultError` (or another
    :class:`FrogPbemError`) naming the record that does not hold.

    A history replayed before in this session, with the same secrets and
    role, is continued from where it stopped: only the records after it are
    played (the referee applying a move, then mailing it; the demo's every
    record). It counts only if every record of it is the same, byte for byte.

    With ``keeper`` (the user's key), a replay kept by an earlier command is
    continued the same way, and this one is kept for the next
    (the session's :class:`~frogpbem.protocol.replays.KeptReplays`, written when the
    command is done) unless
    fewer than :data:`~frogpbem.protocol.replays.KEEP_EVERY` records followed the
    one read. Its ``before`` then holds only the records replayed here.
    """
    role = game.role(key) if key is not None else None
    reveal = game.file.reveal
    memo = (game.header.hash, game.file.base_hash, json.dumps(secrets, sort_keys=True),
            str(role), reveal.hash if reveal is not None else "")
    hashes = game.file.log_hashes()
    store = game.session.replays if game.session is not None else None  # none: an audit's
    done, kept = store.made_before(memo, hashes) if store is not None else (0, None)
    stored = None
    from_store = None  # how many records the replay read from the store had, if one was
    if keeper is not None and store is not None:
        stored = replays.memo_digest(memo)
        if kept is None:
            found = store.read(game.game_id, keeper, str(role), stored, hashes)
            if found is not None:
                done, kept = found[0], Replay(found[1], since=found[0])
                from_store = done
    state = kept.final if kept is not None else start_state(game, secrets)
    before = dict(kept.before) if kept is not None else {}
    for record, after in _played(game, state, done, key, role):
        if record.request is None:  # what unasked() looks at, whoever replays
            before[record.n] = state
        state = after
    replayed = Replay(state, before, kept.since if kept is not None else 0)
    if store is not None:
        store.made_now(memo, hashes, replayed)
    if store is not None and keeper is not None and stored is not None and \
            (from_store is None or len(hashes) - from_store >= replays.KEEP_EVERY):
        store.keep(game.game_id, keeper, str(role), stored, hashes, state)
    return replayed


def states(game: Game, secrets: Mapping[str, JSON | None]) -> Iterator[tuple[Record, Any]]:
    """Each record with the state after it, replayed (and checked) from the start."""
    return _played(game, start_state(game, secrets), 0, None, None)


def _played(game: Game, state: Any, done: int, key: crypto.PrivateKey | None,
            role: str | None) -> Iterator[tuple[Record, Any]]:
    """The records after the first ``done`` (``state``: the state then), each with the
    state after it, every result and score checked."""
    rules = game.ruleset
    paused = done > 0 and isinstance(game.results[done - 1], Paused)
    for record, claimed in zip(game.file.log[done:], game.results[done:], strict=True):
        where = f"record {record.n} ({record.seat} {record.move})"
        try:
            if isinstance(claimed, ClockResult):
                state = play_clock(rules, state, record.seat, claimed, paused)
            elif paused:
                raise IllegalMoveError("a move while the game is paused")
            else:
                state = _play_record(game, record, claimed.resigned if isinstance(
                    claimed, TimedOut) else claimed, state, key, role)
        except FrogPbemError as exc:
            raise InconsistentResultError(exc.message, path=game.path, element=where) from None
        paused = isinstance(claimed, Paused)
        if rules.scores(state) != record.scores:
            raise InconsistentResultError(
                f"scores {dict(record.scores)} should be {rules.scores(state)}",
                path=game.path, element=f"record {record.n}",
            )
        yield record, state
