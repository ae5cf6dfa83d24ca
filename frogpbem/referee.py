"""Moves: a seat signs a request; the referee applies requests, records automatic moves, reveals.

:func:`request_move` is a seat's side, :func:`apply_moves` the referee's;
:func:`move` loads the game once and calls the one that fits the key.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from frogpbem import crypto
from frogpbem.errors import (
    ChainError,
    FrogPbemError,
    GameOverError,
    IllegalMoveError,
    NothingToApplyError,
    StaleCopyError,
    UsageError,
)
from frogpbem.gamefile import mailsafe, schema
from frogpbem.gamefile.document import game_bytes, locked, parse_game, read_bytes, write_atomic
from frogpbem.gamefile.model import Asked, Record, Request, Reveal
from frogpbem.games import Outcome
from frogpbem.games.clock import MAX_REASON, ClockResult, Passed, Paused, Resumed, TimedOut
from frogpbem.protocol.game import (
    REFEREE,
    Game,
    deadline_of,
    known_secrets,
    load,
    load_copy,
    open_move,
    open_setup,
    play_clock,
    referee_seed,
    replay,
    sealed_move_secret,
    termination_words,
    timeout_move,
)
from frogpbem.protocol.memory import HeadMemory
from frogpbem.protocol.secrets import SealedSecret
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import check_times, seconds_of, signature_mark
from frogpbem.views import write_views


@dataclass
class Applied:
    """What the referee did to a game in one call."""

    lines: list[str] = field(default_factory=list)
    """Each applied record in words (``red shoots G9: 2``)."""
    taken: int = 0
    """How many requests and notes of returned copies were new (:func:`take_requests`)."""
    waiting_for: tuple[str, ...] = ()
    """For a game that waits for its seats' joins: the seats still to join (empty once
    dealt, and for every other call)."""
    outcome: Outcome | None = None
    """The outcome, if the game ended in this call."""
    views: list[Path] = field(default_factory=list)
    """View files written."""


@dataclass(frozen=True)
class Returned:
    """What a seat sent back to the referee, read once: its copy of the game, or the
    request blocks it pasted into a reply.

    From a file (:meth:`read`), or from a message the judge or ``receive`` parsed
    already, which hands it over as it is (no file written between them).
    """

    name: Path
    """How a refusal names it (the file; for a message, a name its reader maps)."""
    copy: bytes | None = None
    """The copy's bytes as they came (``None``: request blocks)."""
    blocks: tuple[object, ...] = ()
    """The decoded request blocks (each checked as a signed request when taken)."""

    @classmethod
    def read(cls, path: Path) -> Returned:
        """A returned copy (attached, or pasted into a mail body), or a text holding
        request blocks that seats pasted into their replies."""
        data = read_bytes(path)
        copy = mailsafe.unmail(data)
        blocks = [] if copy.startswith(b"frogpbem:") else mailsafe.request_blocks(data)
        return cls(path, None, tuple(blocks)) if blocks else cls(path, data)

    @property
    def unmailed(self) -> bytes | None:
        """The copy's bytes with mail's reversible changes undone."""
        return None if self.copy is None else mailsafe.unmail(self.copy)

    def load(self, session: Session) -> Game:
        """The copy, loaded and checked on its own (as :func:`load` reads a file)."""
        data = self.copy if self.copy is not None else read_bytes(self.name)
        return load(self.name, session, parsed=parse_game(data, str(self.name), session.verified))


@dataclass
class Requested:
    """What a seat signed into its copy."""

    seat: str
    move: str
    """The move in canonical notation (the full one, also for a sealed move)."""
    n: int
    """The record it asks to become."""
    sealed: bool
    """Whether only the seat (its team) and the referee can read it until the end."""
    replaced: str | None = None
    """The seat's earlier pending request that this one replaces (or that was withdrawn)."""
    path: Path | None = None
    withdrawn: bool = False
    """The seat took its pending request ``replaced`` back and asks for nothing."""
    block: str = ""
    """The signed request as a block to paste into a mail reply instead of the file."""
    warnings: tuple[str, ...] = ()
    """What this seat's tool noticed of the copy that it cannot prove (a timeout recorded
    though it signed a move in time)."""

    @property
    def line(self) -> str:
        if self.withdrawn:
            return f"{self.seat} withdrew its request {self.replaced!r}"
        shown = self.move + (" (sealed: only you and the referee can read it)"
                             if self.sealed else "")
        again = f", replacing {self.replaced!r}" if self.replaced else ""
        where = self.path.name if self.path else "the game file"
        return "\n".join([*self.warnings, f"{self.seat} asks: {shown} (for record {self.n}"
                          f"{again}); send {where} to the referee"])


def move(
    path: Path,
    key: crypto.PrivateKey,
    text: str | None = None,
    seat: str | None = None,
    take_from: tuple[Path, ...] = (),
    discard_requests: bool = False,
    withdraw: bool = False,
    at: str | None = None,
    *,
    session: Session,
) -> Applied | Requested:
    """The ``move`` command: the referee applies (:func:`apply_moves`), a seat requests.

    A seat's copy is first checked against what this user's tool has seen (the
    ``session``'s memory).
    """
    memory = session.memory
    with locked(path):
        game = load(path, session, memory)
        role = game.role(key)
        if role != REFEREE:
            late = session.seen.see(game)
            if seat not in (None, role) or take_from or discard_requests:
                raise UsageError(f"key {key.public.fingerprint} holds seat {role}: "
                                 "--seat, --from and --discard-requests are the referee's")
            if withdraw:
                return withdraw_request(game, role)
            if text is None:
                raise UsageError(f"give the move to sign for {role}, e.g. \"shoot G9\"")
            try:
                return replace(request_move(game, key, text), warnings=tuple(late))
            except FrogPbemError as exc:  # over, or not its turn, on time: the warning says why
                exc.message = " ".join([exc.message, *late])
                raise
        if withdraw:
            raise UsageError("--withdraw is a seat's: it takes back its own pending request")
        return apply_moves(game, key, text, seat, take_from, discard_requests, memory,
                           at or session.clock.text())


def timeout_game(path: Path, key: crypto.PrivateKey, session: Session,
                 at: str | None = None) -> Applied:
    """The ``timeout`` command: the referee applies a passed deadline (:func:`apply_timeout`)."""
    memory = session.memory
    with locked(path):
        game = load(path, session, memory)
        if game.role(key) != REFEREE:
            raise UsageError("only the referee applies a deadline", path=path)
        return apply_timeout(game, key, memory, at)


def request_move(game: Game, key: crypto.PrivateKey, text: str) -> Requested:
    """Sign a move request for the key's seat into its copy (replacing its pending one).

    When it was signed is remembered (in this user's memory of the game, its session's): no
    record applying it may be dated before (:func:`~frogpbem.protocol.game.check_observed`).
    """
    seat = game.role(key)
    rules = game.ruleset
    parsed = rules.parse_move(text)
    state = replay(game, known_secrets(game, seat, key), keeper=key).final
    game.check_running()
    try:
        rules.check(state, seat, parsed)
    except GameOverError as exc:  # in the views' words (a loss on time, not a resignation)
        outcome = rules.outcome(state)
        if outcome is not None:
            exc.message = f"the game is over ({termination_words(game, outcome.termination)})"
        raise
    canonical = rules.format_move(parsed)
    n = len(game.file.log) + 1
    sealed = None
    if rules.is_sealed(parsed):
        sealed = SealedSecret.seal(game.game_id, seat, sealed_move_secret(n, canonical),
                                   game.recipients(seat)).field
    mine = [r for r in game.file.requests if r.seat == seat]
    request = Request(game.game_id, n, game.head, seat, rules.public_move(parsed),
                      sealed).signed(key)
    others = tuple(r for r in game.file.requests if r.seat != seat)
    game.file = replace(game.file, requests=(*others, request))
    write_atomic(game.path, game_bytes(game.file))
    game.stores.seen.signed(game, request.signature, request=(n, seat))
    return Requested(seat, canonical, n, sealed is not None,
                     mine[-1].move if mine else None, game.path,
                     block=mailsafe.request_block(request.to_json()))


def withdraw_request(game: Game, seat: str) -> Requested:
    """Take back ``seat``'s pending request from its copy before it is mailed."""
    mine = [r for r in game.file.requests if r.seat == seat]
    if not mine:
        raise UsageError(f"{seat} has no pending request to withdraw", path=game.path)
    game.file = replace(game.file, requests=tuple(r for r in game.file.requests
                                                  if r.seat != seat))
    write_atomic(game.path, game_bytes(game.file))
    return Requested(seat, "", mine[-1].n, False, mine[-1].move, game.path, withdrawn=True)


def take_requests(game: Game, returned: Returned | Path) -> int:
    """Copy the pending requests and new team notes of a seat's ``returned`` copy (or
    request blocks) into ``game``; a path is read first (:meth:`Returned.read`). Returns
    how many requests and notes were new.
    """
    if isinstance(returned, Path):
        returned = Returned.read(returned)
    if returned.blocks:
        requests, notes = _requests_from_blocks(game, returned.name, list(returned.blocks)), []
    else:
        other = load_copy(game, returned.name, returned.unmailed)
        requests, notes = list(other.file.requests), list(other.file.notes)
    # pending already, or applied already (a copy or message taken twice): not again. Known
    # by what was signed (signature_mark), never by the signature's text
    present = {signature_mark(r.signature) for r in game.file.requests}
    present |= {signature_mark(record.request) for record in game.file.log if record.request}
    fresh = [r for r in requests if signature_mark(r.signature) not in present]
    known = {signature_mark(note.signature) for note in game.file.notes}
    notes = [n for n in notes if signature_mark(n.signature) not in known]
    game.file = replace(game.file, requests=(*game.file.requests, *fresh),
                        notes=(*game.file.notes, *notes))
    return len(fresh) + len(notes)


def _requests_from_blocks(game: Game, path: Path, blocks: list[object]) -> list[Request]:
    """The signed requests of pasted blocks, each checked like one in a returned copy."""
    requests = []
    for index, value in enumerate(blocks):
        where = f"request block {index + 1}"
        try:
            schema.validate(value, "request", where)
            request = Request.from_json(cast(dict[str, Any], value), where)
        except FrogPbemError as exc:
            raise exc.within(path=path) from None
        if request.game != game.game_id:
            raise StaleCopyError(f"made for game {request.game!r}, not {game.game_id}",
                                 path=path, element=where)
        if request.seat not in game.seats:
            raise ChainError(f"{request.seat!r} is not a seat of this game", path=path,
                             element=where)
        try:
            request.verify(game.header.seat_keys[request.seat])
        except FrogPbemError as exc:
            raise exc.within(path=path, element=f"{where} ({request.label})") from None
        requests.append(request)
    return requests


def apply_moves(
    game: Game, key: crypto.PrivateKey, text: str | None = None, seat: str | None = None,
    take_from: Sequence[Returned | Path] = (), discard_requests: bool = False,
    memory: HeadMemory | None = None, at: str | None = None, views: bool = True,
) -> Applied:
    """The referee applies ``text`` for ``seat`` (or the seat to move), or the pending requests
    and those of the copies and blocks seats returned (``take_from``).

    Then it records automatic moves, reveals at the end, writes the file and (unless not
    ``views``: the demonstration writes them once, at the end) the views.
    """
    memory = memory or game.stores.memory
    with memory.holding(game.game_id):
        memory.check(game)
        applied, state = _apply(game, key, text, seat, take_from, discard_requests,
                                at or game.stores.clock.text())
        _check_dated_forward(game)
        data = game_bytes(game.file)
        memory.remember(game, data)
        write_atomic(game.path, data)
    if views:
        applied.views = write_views(game, state, key)
    return applied


def _apply(
    game: Game, key: crypto.PrivateKey, text: str | None, seat: str | None,
    take_from: Sequence[Returned | Path], discard_requests: bool, at: str,
) -> tuple[Applied, Any]:
    path = game.path
    state = replay(game, known_secrets(game, REFEREE, key), key, keeper=key).final
    applied = Applied()
    taken = applied.taken = sum(take_requests(game, other) for other in take_from)
    if discard_requests:
        game.file = replace(game.file, requests=())
    if text is not None:
        if game.file.requests:
            raise UsageError(
                f"{len(game.file.requests)} pending request(s): apply them first "
                f"(frogpbem move {path.name}) or drop them with --discard-requests", path=path,
            )
        actor = seat or game.ruleset.to_move(state) or game.seats[0]  # over: play() says so
        if actor not in game.seats:
            raise UsageError(f"{actor!r} is not a seat of game {game.game_id}")
        state, line = _append_record(game, state, actor, text, None, key, at)
        applied.lines.append(line)
    elif not game.file.requests and not discard_requests and not taken:
        raise NothingToApplyError("no move given and no pending requests to apply", path=path)
    for index, request in enumerate(game.file.requests):
        where = f"pending request {index + 1} ({request.label})"
        expected_n = len(game.file.log) + 1
        fits = (request.n, request.head) == (expected_n, game.head)
        late_resignation = request.move == "resign" and request.n < expected_n and \
            game.file.heads()[request.n - 1] == request.head
        if not fits and not late_resignation:
            raise StaleCopyError(
                f"was signed for record {request.n} at another point of the game (now record "
                f"{expected_n}): stale or replayed; drop it with --discard-requests",
                path=path, element=where,
            )
        try:
            state, line = _append_record(game, state, request.seat, request.move, request,
                                         key, at)
        except FrogPbemError as exc:
            raise exc.within(path=path, element=where) from None
        applied.lines.append(line)
    game.file = replace(game.file, requests=())
    return applied, _conclude(game, state, key, at, applied)


def _conclude(game: Game, state: Any, key: crypto.PrivateKey, at: str, applied: Applied) -> Any:
    """After the records of one call: the rules' own moves, and the reveal at the end."""
    state = automatic_moves(game, state, key, at, applied.lines)
    outcome = game.ruleset.outcome(state)
    if outcome is not None and game.file.reveal is None:
        # told as players read it (a loss on time); the reveal signs the rules' own words
        applied.outcome = replace(outcome, termination=termination_words(
            game, outcome.termination))
        _reveal(game, key, outcome, at)
    return state


def apply_timeout(game: Game, key: crypto.PrivateKey, memory: HeadMemory | None = None,
                  at: str | None = None) -> Applied:
    """The referee records the forfeit (or the passed turn) of the seat to move once its
    deadline has passed."""
    memory = memory or game.stores.memory
    at = at or game.stores.clock.text()
    with memory.holding(game.game_id):
        memory.check(game)
        state = replay(game, known_secrets(game, REFEREE, key), key, keeper=key).final
        due = deadline_of(game, state)
        if due is None:
            raise UsageError("no deadline to apply: the game has none, is paused or is over",
                             path=game.path)
        seat, until = due
        if seconds_of(at) < until:
            raise IllegalMoveError(f"{seat}'s time runs until "
                                   f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(until))}",
                                   path=game.path)
        if game.file.requests:
            raise UsageError("pending requests: apply them first", path=game.path)
        applied = Applied()
        if timeout_move(game, state, seat) == "pass":
            state, line = _append_clock(game, state, Passed(), key, at)
        else:
            state, line = _append_record(game, state, seat, "resign", None, key, at,
                                         timeout=True)
        applied.lines.append(line)
        return _write(game, _conclude(game, state, key, at, applied), key, memory, applied)


def pause_game(path: Path, key: crypto.PrivateKey, session: Session, reason: str = "",
               at: str | None = None) -> Applied:
    """The ``pause`` command: the referee stops the game and its clock (holidays)."""
    reason = " ".join(reason.split())
    if len(reason) > MAX_REASON:
        raise UsageError(f"the reason is {len(reason)} characters; at most {MAX_REASON}")
    return _clock_command(path, key, Paused(reason), session, at)


def resume_game(path: Path, key: crypto.PrivateKey, session: Session,
                at: str | None = None) -> Applied:
    """The ``resume`` command: the referee resumes a paused game; its clock starts again."""
    return _clock_command(path, key, Resumed(), session, at)


def _clock_command(path: Path, key: crypto.PrivateKey, result: Paused | Resumed,
                   session: Session, at: str | None) -> Applied:
    memory = session.memory
    with locked(path):
        game = load(path, session, memory)
        if game.role(key) != REFEREE:
            raise UsageError(f"only the referee may {result.move} a game", path=path)
        with memory.holding(game.game_id):
            memory.check(game)
            state = replay(game, known_secrets(game, REFEREE, key), key, keeper=key).final
            if game.file.requests:
                raise UsageError("pending requests: apply them first", path=path)
            applied = Applied()
            try:
                state, line = _append_clock(game, state, result, key,
                                            at or session.clock.text())
            except FrogPbemError as exc:
                raise exc.within(path=path) from None
            applied.lines.append(line)
            return _write(game, state, key, memory, applied)


def _write(game: Game, state: Any, key: crypto.PrivateKey, memory: HeadMemory,
           applied: Applied) -> Applied:
    """Remember and write the game (its memory first), then the views."""
    _check_dated_forward(game)
    data = game_bytes(game.file)
    memory.remember(game, data)
    write_atomic(game.path, data)
    applied.views = write_views(game, state, key)
    return applied


def _check_dated_forward(game: Game) -> None:
    """Refuse, before anything is written, a record dated before the one it follows (this
    computer's clock went back): every reader would refuse the file."""
    try:
        check_times(game.file)
    except FrogPbemError as exc:
        raise UsageError(f"{exc.element} would be dated back ({exc.message}): check this "
                         "computer's clock", path=game.path) from None


def _append_clock(game: Game, state: Any, result: ClockResult, key: crypto.PrivateKey,
                  at: str) -> tuple[Any, str]:
    """Sign a clock record (a passed turn, a pause, a resume) for the seat to move."""
    rules = game.ruleset
    seat = rules.to_move(state) or game.seats[0]  # over: play_clock says so
    state = play_clock(rules, state, seat, result, game.paused is not None)
    record = Record(len(game.file.log) + 1, game.head, seat, result.move, result.to_json(),
                    rules.scores(state), at, None, None, None,
                    timeout=isinstance(result, Passed)).signed(key)
    game.append(record, result)
    return state, rules.describe_record(seat, result.move, result)


def _append_record(
    game: Game, state: Any, seat: str, text: str, request: Request | None,
    key: crypto.PrivateKey, at: str, timeout: bool = False,
) -> tuple[Any, str]:
    game.check_running()
    rules = game.ruleset
    n = len(game.file.log) + 1
    sealed = request.sealed if request is not None else None
    if sealed is not None:  # a sealed request: the referee opens it
        text = open_move(game, n, seat, sealed, key).move
    move = rules.parse_move(text)
    state, result = rules.play(state, seat, move)
    if sealed is None and rules.is_sealed(move):
        sealed = SealedSecret.seal(game.game_id, seat,
                                   sealed_move_secret(n, rules.format_move(move)),
                                   game.recipients(seat, referee=False)
                                   + [key.public]).field
    asked = None
    if request is not None and (request.n, request.head) != (n, game.head):
        asked = Asked(request.n, request.head)  # a resignation that arrived later
    record = Record(n, game.head, seat, rules.public_move(move), result.to_json(),
                    rules.scores(state), at, sealed,
                    request.signature if request is not None else None, asked,
                    timeout=timeout).signed(key)
    told = TimedOut(result) if timeout else result
    game.append(record, told)
    return state, rules.describe_record(seat, record.move, told)


def _reveal(game: Game, key: crypto.PrivateKey, outcome: Outcome, at: str) -> None:
    secrets = {seat: open_setup(game, seat, key) for seat in game.file.dealing.sealed}
    moves = {r.n: open_move(game, r.n, r.seat, r.sealed, key)
             for r in game.file.log if r.sealed is not None}
    reveal = Reveal(game.head, secrets, outcome.to_json(), referee_seed(game, key), at, moves)
    game.file = replace(game.file, reveal=reveal.signed(key))


def automatic_moves(game: Game, state: Any, key: crypto.PrivateKey, at: str,
                    lines: list[str]) -> Any:
    """Record the moves the rules make by themselves (a pass for a seat with no legal move)."""
    rules = game.ruleset
    while (auto := rules.automatic(state)) is not None:
        seat = rules.to_move(state)
        assert seat is not None  # the rules only force a move on a seat to move
        state, line = _append_record(game, state, seat, rules.format_move(auto), None, key, at)
        lines.append(line)
    return state


__all__ = ["Applied", "Requested", "Returned", "apply_moves", "apply_timeout", "automatic_moves",
           "move", "pause_game", "resume_game", "timeout_game",
           "request_move", "take_requests", "withdraw_request"]
