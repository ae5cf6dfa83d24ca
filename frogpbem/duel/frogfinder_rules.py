"""Frog Finder without a referee through the engine (docs/format.md, "Frog Finder without a
referee"): the :class:`~frogpbem.duel.rules.DuelRules` of ``frogfinder``.

The protocol values are :mod:`frogpbem.duel.frogfinder`'s; here they are read from messages
once, checked as they come, and kept typed in a :class:`FrogFinderProgress` (the attempt,
both seats' commitments, red's mask, blue's selection, every overlap, the first messages of
every proof: a reused nonce is refused, and the move awaiting its answer). The public state
knows no seat's frogs; each result comes from the answer, checked, through the rules' own
``play(state, seat, move, claimed)``. A seat's state adds its own frogs, from its secret.

The proofs of a part are verified once per command: the rules keep what they verified by
the message's ``prev`` and the part's bytes, so the engine may take a growing message (a
seat's steps, then its move) again without checking its setup again. A message this tool
verified in an earlier command (:mod:`frogpbem.protocol.verified`) is replayed with
:attr:`~frogpbem.duel.base.DuelRules.checks_proofs` cleared: its parts are read and taken
in, each result is the one its answer gives, but no proof is verified again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field, replace
from typing import Any

from frogpbem import crypto
from frogpbem.board import Board, Square
from frogpbem.crypto import secure_random
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.crypto.group import H, Point, commit
from frogpbem.duel.frogfinder import (
    Answer,
    AnswerPart,
    Commitments,
    Context,
    CountBox,
    CountPart,
    Firsts,
    Mask,
    MoveOpening,
    Overlap,
    Selection,
    Setup,
    answer,
    answer_result,
    check_answer,
    check_commitments,
    check_complaint,
    check_mask,
    check_mover_part,
    check_overlap,
    check_selection,
    chosen_placement,
    commit_placement,
    complain,
    drawn_placement,
    find_overlap,
    make_mask,
    make_selection,
    mover_part,
    open_box,
    own_placement,
    placement,
    seal_box,
)
from frogpbem.duel.rules import Choice, DuelRules, Parts, Played, Progress
from frogpbem.errors import CommitmentError, InconsistentResultError, ProofError, UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.duelfile import PLACED, Message
from frogpbem.gamefile.model import JSON
from frogpbem.games.frogs import State
from frogpbem.games.frogs_notation import (
    Count,
    Found,
    FrogResult,
    Guess,
    Miss,
    Shoot,
    Shot,
    parse_result,
)

RED, BLUE = "red", "blue"

SETUP_WORDS = 'frogpbem move GAME --setup "A1 B2 C3" (or --random)'
"""How a seat places its own frogs (a game created with ``--placed players``)."""


@frozen
class Pending:
    """A move awaiting the other seat's answer: its seat, its number in the game (the
    ``n`` of its count box and empty proof), the move and, for a shot, its count box."""

    seat: str
    n: int
    move: Shoot | Guess
    text: str
    box: CountBox | None = None


@frozen
class FrogFinderProgress:
    """Frog Finder's protocol so far, typed: every part read and checked once."""

    board: Board
    frogs: int
    attempt: int = 0
    commitments: Mapping[str, Commitments] = field(default_factory=dict)
    """Each seat's commitments of the current attempt, once its setup is in."""
    box_keys: Mapping[str, Point] = field(default_factory=dict)
    """Each seat's box key ``A`` of the current attempt, with its commitments."""
    mask: Mask | None = None
    selection: Selection | None = None
    overlaps: tuple[int, ...] = ()
    """Each attempt's overlap ``m``, in order (the last is 0 once the board is dealt)."""
    firsts: frozenset[Point] = frozenset()
    """The first messages of every proof of the game (a nonce used twice is refused)."""
    pending: Pending | None = None
    forfeit: str | None = None
    """Once an answerer proved the mover's count box false: the mover's forfeit, in words."""

    def ctx(self, progress: Progress, seat: str) -> Context:
        header = progress.header
        return Context(header.game, header.hash, seat, self.attempt)

    def fresh(self, firsts: Firsts) -> FrogFinderProgress:
        """With ``firsts`` added, refused if one of them was seen before."""
        if len(set(firsts)) != len(firsts) or self.firsts.intersection(firsts):
            raise ProofError("two proofs of the game share a first message (a reused nonce)")
        return replace(self, firsts=self.firsts | frozenset(firsts))


def protocol(progress: Progress) -> FrogFinderProgress:
    """The progress's Frog Finder record (a new one before the rules kept any)."""
    kept = progress.protocol
    if isinstance(kept, FrogFinderProgress):
        return kept
    start = progress.ruleset.start(progress.header.options, progress.seats, None,
                                   dict.fromkeys(progress.seats))
    assert isinstance(start, State)
    return FrogFinderProgress(start.board, start.frogs)


def chosen(progress: Progress) -> bool:
    """Whether each seat places its own frogs (the header's ``placed: players``)."""
    return progress.header.placed == PLACED


def _placement(progress: Progress, ff: FrogFinderProgress, secret: SeatSecret,
               publics: Mapping[str, str] | None = None) -> frozenset[Square]:
    """The seat's frogs in the current attempt: dealt from both seeds, or (placed by the
    seat) found again from its own commitments, which must be in."""
    if chosen(progress):
        return own_placement(secret, ff.board, ff.attempt, ff.commitments[secret.seat])
    other = (publics or progress.publics)[progress.other(secret.seat)]
    return placement(secret, ff.board, ff.frogs, other, ff.attempt)


def _box_key(secret: SeatSecret, ff: FrogFinderProgress) -> Point:
    """``A = a·H``: the seat's box key of the current attempt, shown in its setup."""
    return secret.box_key(ff.attempt) * H


def _again(ff: FrogFinderProgress) -> bool:
    """Whether the last overlap test sent both seats to place their frogs again."""
    return bool(ff.overlaps) and ff.overlaps[-1] > 0


def _choose_first(progress: Progress, ff: FrogFinderProgress, seat: str) -> UsageError:
    """The refusal to go on before ``seat`` placed its frogs (again, after an overlap: it
    says only that the placements overlapped)."""
    if _again(ff):
        return UsageError(f"your placement overlapped {progress.other(seat)}'s: place your "
                          f"{ff.frogs} frogs again: {SETUP_WORDS}")
    return UsageError(f"{seat} places its {ff.frogs} frogs first: {SETUP_WORDS}")


def _move_of(progress: Progress, text: str) -> Shoot | Guess:
    move = progress.ruleset.parse_move(text)
    if not isinstance(move, Shoot | Guess):
        raise InconsistentResultError(f"{text} is not a shot or a guess")
    return move


def _awaited(progress: Progress, ff: FrogFinderProgress) -> str | None:
    if ff.pending is None or progress.state is None or \
            progress.ruleset.to_move(progress.state) is None:
        return None
    return progress.other(ff.pending.seat)


def _result_words(result: FrogResult) -> str:
    if isinstance(result, Count):
        return f"count {result.count}"
    if isinstance(result, Shot):
        return f"{result.owner}'s frog shot"
    if isinstance(result, Found):
        return f"{result.owner}'s frog found"
    return "miss" if isinstance(result, Miss) else str(result.to_json())


class FrogFinderDuel(DuelRules):
    """Frog Finder without a referee: red's public seed and setup (commitments, bit and
    mask proofs), blue's setup (commitments, bit and select proofs), red's overlap (a
    non-zero one starts the next attempt); then each move waits for its answer, which
    comes first in the other seat's next message."""

    def __init__(self) -> None:
        self._verified: dict[tuple[str, str, int, bytes], Firsts] = {}
        """What this command verified: by message ``prev``, part, attempt and bytes."""

    def _once(self, message: Message, what: str, attempt: int, data: JSON,
              check: Callable[[], Firsts]) -> Firsts:
        """``check()``'s first messages, verified once per command for one part; none
        while the engine replays a message verified before (:attr:`checks_proofs`)."""
        if not self.checks_proofs:
            return ()
        key = (message.prev, what, attempt, crypto.canonical_json(data))
        done = self._verified.get(key)
        if done is None:
            done = self._verified[key] = check()
        return done

    # --- whose step ------------------------------------------------------------------------

    def due(self, progress: Progress) -> str | None:
        if progress.state is not None:
            return None
        made = protocol(progress).commitments
        if RED not in made:
            return RED
        if BLUE not in made:
            return BLUE
        return RED  # the overlap

    def awaited(self, progress: Progress) -> str | None:
        return _awaited(progress, protocol(progress))

    # --- what a seat's tool adds -----------------------------------------------------------

    def steps(self, progress: Progress, secret: SeatSecret) -> Parts:
        if not progress.joined:
            return {}
        seat, ff = secret.seat, protocol(progress)
        board, made = ff.board, ff.commitments
        if progress.state is None:
            ctx = ff.ctx(progress, seat)
            if seat == RED and RED not in made:
                if chosen(progress):
                    raise _choose_first(progress, ff, seat)
                publics = {**progress.publics, RED: secret.public_seed()}
                return self._setup(progress, ff, secret,
                                   _placement(progress, ff, secret, publics))
            if seat == BLUE and RED in made and BLUE not in made and ff.mask is not None:
                if chosen(progress):
                    raise _choose_first(progress, ff, seat)
                frogs = _placement(progress, ff, secret)
                own = commit_placement(ctx, secret, board, frogs)
                selection = make_selection(ctx, secret, board, frogs, made[RED], ff.mask)
                return {"setup": Setup(own, _box_key(secret, ff),
                                       selection=selection).to_json()}
            if seat == RED and BLUE in made and ff.mask is not None and \
                    ff.selection is not None:
                overlap = find_overlap(ctx, secret, ff.frogs, ff.mask, ff.selection)
                return {"overlap": overlap.to_json()}
            return {}
        pending = ff.pending
        if pending is None or _awaited(progress, ff) != seat:
            return {}
        return {"answer": AnswerPart(to=self._answer(progress, ff, secret,
                                                     pending)).to_json()}

    def arrival(self, progress: Progress, secret: SeatSecret) -> str | None:
        """The seat that must answer a shot at a square with none of its frogs opens the
        mover's count box: a false one is kept (the seat's next message proves it false),
        and this says so in one line."""
        ff = protocol(progress)
        pending = ff.pending
        if progress.state is None or pending is None or not isinstance(pending.move, Shoot) \
                or _awaited(progress, ff) != secret.seat or \
                self._count(progress, ff, secret, pending) is not None:
            return None
        square = pending.move.square
        if square in _placement(progress, ff, secret):
            return None
        return (f"{pending.seat}'s count box for its shot at {square.name} is false: your "
                f"next message proves it ({pending.seat} forfeits)")

    def _count(self, progress: Progress, ff: FrogFinderProgress, secret: SeatSecret,
               pending: Pending) -> CountPart | None:
        """The mover's count part, opened from its box by ``secret``'s seat and checked;
        ``None`` for a false box (or none, or a square with the seat's own frog)."""
        move = pending.move
        if not isinstance(move, Shoot) or pending.box is None:
            return None
        return open_box(ff.ctx(progress, pending.seat), secret, ff.board,
                        ff.commitments[pending.seat], pending.n, move.square, pending.box)

    def _setup(self, progress: Progress, ff: FrogFinderProgress, secret: SeatSecret,
               frogs: frozenset[Square]) -> Parts:
        """Red's setup of ``ff.attempt`` for ``frogs`` (with its public seed the first
        time): its commitments and its mask."""
        ctx, board = ff.ctx(progress, RED), ff.board
        parts: Parts = {} if RED in progress.publics else {"public": secret.public_seed()}
        own = commit_placement(ctx, secret, board, frogs)
        mask = make_mask(ctx, secret, board, frogs, own)
        return parts | {"setup": Setup(own, _box_key(secret, ff), mask=mask).to_json()}

    def wants_choice(self, progress: Progress, seat: str) -> bool:
        """Only a game placed by the players, and only while the seat has no placement of
        the current attempt (after an overlap, both place again)."""
        return chosen(progress) and progress.joined and self.due(progress) == seat and \
            seat not in protocol(progress).commitments

    def choose(self, progress: Progress, secret: SeatSecret, choice: Choice) -> Parts:
        """The setup of the frogs the seat places itself (``choice``'s squares, or drawn by
        its tool), in a game created with ``--placed players``; red, when its overlap step
        is due, makes it first (its placement goes only with a non-zero overlap)."""
        if not chosen(progress):
            raise UsageError("this game's frogs are dealt from both seeds: it was not "
                             "created with --placed players")
        seat, ff = secret.seat, protocol(progress)
        parts: Parts = {}
        if seat == RED and self.due(progress) == RED and RED in ff.commitments and \
                ff.mask is not None and ff.selection is not None:
            overlap = find_overlap(ff.ctx(progress, RED), secret, ff.frogs, ff.mask,
                                   ff.selection)
            if overlap.count == 0:
                raise UsageError(f"{seat} has placed its frogs already")
            parts = {"overlap": overlap.to_json()}
            ff = replace(ff, attempt=ff.attempt + 1, commitments={}, box_keys={}, mask=None,
                         selection=None, overlaps=(*ff.overlaps, overlap.count))
        elif progress.state is not None or seat in ff.commitments:
            raise UsageError(f"{seat} has placed its frogs already")
        elif not progress.joined or self.due(progress) != seat:
            raise UsageError(f"{seat} places its frogs after {progress.other(seat)}'s setup")
        frogs = drawn_placement(ff.board, ff.frogs, secure_random()) if choice.text is None \
            else chosen_placement(choice.text, ff.board, ff.frogs)
        if seat == RED:
            return parts | self._setup(progress, ff, secret, frogs)
        assert ff.mask is not None
        ctx = ff.ctx(progress, seat)
        own = commit_placement(ctx, secret, ff.board, frogs)
        selection = make_selection(ctx, secret, ff.board, frogs, ff.commitments[RED], ff.mask)
        return {"setup": Setup(own, _box_key(secret, ff), selection=selection).to_json()}

    def _answer(self, progress: Progress, ff: FrogFinderProgress, secret: SeatSecret,
                pending: Pending) -> Answer:
        """The answer of ``secret``'s seat to the pending move; for a shot at a square
        without its frog, the mover's count box is opened and checked first, and a false
        one is answered with the complaint that proves it."""
        board, move = ff.board, pending.move
        frogs = _placement(progress, ff, secret)
        count = None
        ctx = ff.ctx(progress, secret.seat)
        if isinstance(move, Shoot) and move.square not in frogs:
            count = self._count(progress, ff, secret, pending)
            if count is None:
                if pending.box is None:
                    raise ProofError(f"{pending.seat}'s shot at {move.square.name} has no "
                                     "count box")
                return Answer(0, complaint=complain(ctx, secret, board,
                                                    ff.commitments[secret.seat], pending.n,
                                                    move.square, pending.box))
        return answer(ctx, secret, board, frogs, pending.n, move, count)

    def move_parts(self, progress: Progress, secret: SeatSecret, move: str) -> Parts:
        parsed = progress.ruleset.parse_move(move)
        if not isinstance(parsed, Shoot | Guess) or progress.state is None:
            return {}
        seat, ff = secret.seat, protocol(progress)
        frogs = _placement(progress, ff, secret)
        opening, count = mover_part(secret, ff.attempt, ff.board, frogs, parsed)
        box = None
        if count is not None:
            other = progress.other(seat)
            box = seal_box(ff.ctx(progress, seat), secret, ff.board, ff.commitments[other],
                           ff.box_keys[other], len(progress.played) + 1, parsed.square,
                           count)
        return {"answer": AnswerPart(move=MoveOpening(opening, box)).to_json()}

    # --- checking a message ----------------------------------------------------------------

    def take(self, progress: Progress, message: Message) -> Progress:
        seat, ff = message.seat, protocol(progress)
        overlap, setup = message.step("overlap"), message.step("setup")
        said = message.step("answer")
        if progress.joined and message.join is None and progress.state is None and \
                message.public is not None and RED in ff.commitments:
            raise InconsistentResultError("red shows its public seed with its first setup")
        if overlap is not None:
            progress, ff = self._take_overlap(progress, ff, message, overlap)
        if setup is not None:
            ff = self._take_setup(progress, ff, message, setup)
        part = AnswerPart.from_json(said) if said is not None else AnswerPart()
        if progress.state is None:
            if message.reveal is not None:  # its commitments would then go unchecked
                raise InconsistentResultError(f"{seat} reveals its secret before the game "
                                              "is over")
            if said is not None:
                raise InconsistentResultError("no move has been made to answer")
            return replace(progress, protocol=ff)
        awaited = _awaited(progress, ff)
        if part.to is not None:
            if ff.pending is None or awaited != seat:
                raise InconsistentResultError(f"{seat} answers a move that was not made")
            progress, ff = self._take_answer(progress, ff, seat, ff.pending, part)
            if ff.forfeit is not None and (message.move is not None or message.resign):
                raise InconsistentResultError(f"{seat}'s complaint ends the game: no move "
                                              "or resignation goes with it")
        elif awaited == seat:
            raise InconsistentResultError(f"{seat}'s message lacks its answer to "
                                          f"{progress.other(seat)}'s move")
        elif message.resign and ff.pending is not None and ff.pending.seat == seat:
            # the mover resigns before its move is answered: the move is withdrawn
            progress = replace(progress, played=progress.played[:-1])
            ff = replace(ff, pending=None)
        if message.reveal is not None:  # with the answer that ended the game, or after
            if not (progress.over or message.resign):
                raise InconsistentResultError(f"{seat} reveals its secret before the game "
                                              "is over")
            self._check_reveal(progress, ff, seat)
        if message.move is not None:
            move = _move_of(progress, message.move)
            if part.move is None:
                raise ProofError(f"{seat}'s move {message.move} lacks its opening")
            ff = self._take_move(progress, ff, seat, move, message.move, part.move)
        elif part.move is not None:
            raise InconsistentResultError("an opening without a move")
        return replace(progress, protocol=ff)

    def _take_overlap(self, progress: Progress, ff: FrogFinderProgress, message: Message,
                      data: JSON) -> tuple[Progress, FrogFinderProgress]:
        if message.seat != RED or progress.state is not None or ff.mask is None or \
                ff.selection is None:
            raise InconsistentResultError("an overlap comes from red, after blue's setup")
        mask, selection = ff.mask, ff.selection
        overlap = Overlap.from_json(data, ff.frogs)
        ctx = ff.ctx(progress, RED)
        ff = ff.fresh(self._once(message, "overlap", ff.attempt, data, lambda: check_overlap(
            ctx, mask, selection, overlap, ff.frogs)))
        ff = replace(ff, overlaps=(*ff.overlaps, overlap.count))
        if overlap.count > 0:  # discard both placements: the next attempt
            return progress, replace(ff, attempt=ff.attempt + 1, commitments={}, box_keys={},
                                     mask=None, selection=None)
        header, rules = progress.header, progress.ruleset
        state = rules.start(header.options, progress.seats, None,
                            dict.fromkeys(progress.seats))
        return replace(progress, state=state), ff

    def _take_setup(self, progress: Progress, ff: FrogFinderProgress, message: Message,
                    data: JSON) -> FrogFinderProgress:
        seat, board, made = message.seat, ff.board, ff.commitments
        if progress.state is not None or seat in made or (seat == BLUE and RED not in made):
            raise InconsistentResultError(f"{seat}'s setup does not come now")
        setup = Setup.from_json(data, board, seat == RED)
        own, ctx = setup.commitments, ff.ctx(progress, seat)
        if seat == RED:
            assert setup.mask is not None
            mask: Mask = setup.mask
            firsts = self._once(message, "setup", ff.attempt, data, lambda: (
                check_commitments(ctx, board, ff.frogs, own)
                + check_mask(ctx, board, own, mask)))
            return replace(ff.fresh(firsts), commitments={RED: own},
                           box_keys={RED: setup.box_key}, mask=mask)
        assert setup.selection is not None and ff.mask is not None
        selection: Selection = setup.selection
        red_mask: Mask = ff.mask
        firsts = self._once(message, "setup", ff.attempt, data, lambda: (
            check_commitments(ctx, board, ff.frogs, own)
            + check_selection(ctx, board, own, made[RED], red_mask, selection)))
        return replace(ff.fresh(firsts), commitments={**made, BLUE: own},
                       box_keys={**ff.box_keys, BLUE: setup.box_key}, selection=selection)

    def _take_answer(self, progress: Progress, ff: FrogFinderProgress, seat: str,
                     pending: Pending, part: AnswerPart
                     ) -> tuple[Progress, FrogFinderProgress]:
        assert part.to is not None
        if part.to.complaint is not None:
            return self._take_complaint(progress, ff, seat, pending, part)
        if self.checks_proofs:
            result, firsts = check_answer(ff.ctx(progress, seat), ff.board, pending.n,
                                          pending.move, ff.commitments[seat],
                                          ff.commitments[pending.seat], part.to)
        else:
            result, firsts = answer_result(seat, pending.move, part.to), ()
        state, checked = progress.ruleset.play(progress.state, pending.seat, pending.move,
                                               result)
        last = progress.played[-1]
        fixed = Played(last.n, last.seat, last.move, checked.to_json())
        progress = replace(progress, state=state, played=(*progress.played[:-1], fixed))
        return progress, replace(ff.fresh(firsts), pending=None)

    def _take_complaint(self, progress: Progress, ff: FrogFinderProgress, seat: str,
                        pending: Pending, part: AnswerPart
                        ) -> tuple[Progress, FrogFinderProgress]:
        """``seat``'s complaint against the mover's count box, checked: the move is void and
        the mover forfeits (the game is over; no reveal is due)."""
        assert part.to is not None and part.to.complaint is not None
        firsts: Firsts = ()
        if self.checks_proofs:
            firsts = check_complaint(ff.ctx(progress, seat), pending.seat, ff.board, pending.n,
                                     pending.move, ff.commitments[seat], ff.box_keys[seat],
                                     ff.commitments[pending.seat], pending.box,
                                     part.to.complaint)
        rules = progress.ruleset
        state, _ = rules.play(progress.state, pending.seat, rules.parse_move("resign"))
        words = (f"{pending.seat} forfeits: its count box for its {pending.text} (message "
                 f"{progress.played[-1].n}) was proven false by {seat}")
        progress = replace(progress, state=state, played=progress.played[:-1])
        return progress, replace(ff.fresh(firsts), pending=None, forfeit=words)

    def _take_move(self, progress: Progress, ff: FrogFinderProgress, seat: str,
                   move: Shoot | Guess, text: str, part: MoveOpening) -> FrogFinderProgress:
        if isinstance(move, Shoot) != (part.box is not None):
            raise InconsistentResultError(f"{seat}'s {text} carries " + (
                "its opening and its count box" if isinstance(move, Shoot) else
                "its opening alone"))
        if self.checks_proofs:
            check_mover_part(ff.board, ff.commitments[seat], move, part.opening)
        return replace(ff, pending=Pending(seat, len(progress.played) + 1, move, text,
                                           part.box))

    def _check_reveal(self, progress: Progress, ff: FrogFinderProgress, seat: str) -> None:
        """The revealed secret gives the seat's placement, and that placement its
        commitments (of the accepted attempt), square by square."""
        secret = progress.revealed.get(seat)
        if secret is None or not self.checks_proofs:
            return
        if seat not in ff.commitments:
            raise InconsistentResultError(f"{seat} reveals its secret before its setup")
        frogs = _placement(progress, ff, secret)
        points = ff.commitments[seat].points
        for square, point in zip(ff.board.squares(), points, strict=True):
            bit = int(square in frogs)
            if commit(bit, secret.blinding(ff.attempt, square.name)) != point:
                raise CommitmentError(f"{seat}'s revealed secret does not give its "
                                      f"commitment at {square.name}")
        if _box_key(secret, ff) != ff.box_keys[seat]:
            raise CommitmentError(f"{seat}'s revealed secret does not give its box key")

    # --- the move ------------------------------------------------------------------------

    def play(self, progress: Progress, seat: str, move: str) -> tuple[Any, JSON]:
        rules = progress.ruleset
        parsed = rules.parse_move(move)
        state = progress.state
        assert isinstance(state, State)
        if not isinstance(parsed, Shoot | Guess):  # a resignation: known at once
            state, result = rules.play(state, seat, parsed)
            return state, result.to_json()
        rules.check(state, seat, parsed)  # the turn, the game not over, the square open
        return state, None  # pending: the answer gives the result

    # --- what a seat and the public know ---------------------------------------------------

    def _with_frogs(self, progress: Progress, state: State,
                    secrets: Mapping[str, SeatSecret]) -> State:
        """``state`` with each of ``secrets``' seats' frogs (those not revealed yet)."""
        ff = protocol(progress)
        hidden = dict(state.hidden)
        for seat, secret in secrets.items():
            out = {square for square, frog in state.revealed.items() if frog.owner == seat}
            hidden[seat] = _placement(progress, ff, secret) - out
        return replace(state, hidden=hidden)

    def _everyone(self, progress: Progress) -> bool:
        return progress.over and set(progress.revealed) == set(progress.seats)

    preview = "(the board once your overlap step goes with your first move: only you " \
        "see it now)"

    def seat_state(self, progress: Progress, secret: SeatSecret) -> Any:
        """The public state with the seat's own frogs (every frog once both revealed);
        before red's overlap step, red's tool, which finds the overlap by itself, sees the
        board its first move will be made on if the placements are disjoint."""
        state = progress.state
        if state is None and secret.seat == RED:
            state = self._before_overlap(progress, secret)
        if not isinstance(state, State):
            return None
        if self._everyone(progress):
            return self._with_frogs(progress, state, progress.revealed)
        return self._with_frogs(progress, state, {secret.seat: secret})

    def _before_overlap(self, progress: Progress, secret: SeatSecret) -> State | None:
        """The dealt state red's overlap step will make, when both setups are in and the
        placements are disjoint (``None`` otherwise: nothing to show yet)."""
        ff = protocol(progress)
        if BLUE not in ff.commitments or ff.mask is None or ff.selection is None:
            return None
        ctx = ff.ctx(progress, RED)
        if find_overlap(ctx, secret, ff.frogs, ff.mask, ff.selection).count > 0:
            return None
        header, rules = progress.header, progress.ruleset
        started = rules.start(header.options, progress.seats, None,
                              dict.fromkeys(progress.seats))
        return started if isinstance(started, State) else None

    def public_state(self, progress: Progress) -> Any:
        """No seat's frogs, but every frog once the game is over and both revealed."""
        state = progress.state
        if isinstance(state, State) and self._everyone(progress):
            return self._with_frogs(progress, state, progress.revealed)
        return state

    # --- the audit -----------------------------------------------------------------------

    def proof_words(self, before: Progress, message: Message, after: Progress) -> list[str]:
        was, ff = protocol(before), protocol(after)
        seat, words = message.seat, []
        squares = ff.board.size ** 2
        if message.step("overlap") is not None:
            m = ff.overlaps[-1]
            words.append(f"red's overlap: the placements of attempt {was.attempt} share "
                         f"{m} square{'' if m == 1 else 's'} (proven)" +
                         ("; both are discarded: attempt " + str(ff.attempt) if m else ""))
        if message.step("setup") is not None:
            what = "masked them (mask proofs)" if seat == RED else \
                "selected red's masked commitments where it has a frog (select proofs)"
            words.append(f"{seat} committed to its {ff.frogs} frogs of attempt "
                         f"{ff.attempt} on all {squares} squares (bit proofs, the total "
                         f"opened) and {what}")
        for old, new in zip(before.played, after.played, strict=False):
            if old.result is None and new.result is not None:
                result = parse_result(new.result)
                words.append(f"{new.n}. {seat} answered {new.seat}'s {new.move}: "
                             f"{_result_words(result)}, proven when given")
        if ff.forfeit is not None and was.forfeit is None:
            words.append(f"{seat}'s complaint, proven (a box proof; with its keys anyone "
                         f"opens the box): {ff.forfeit}")
        if message.move is not None and ff.pending is not None:
            move = ff.pending.move
            words.append(f"{seat}'s opening shows {move.square.name} empty of its own frogs"
                         + (f"; its count sealed to {after.other(seat)}"
                            if isinstance(move, Shoot) else ""))
        if message.resign and was.pending is not None and was.pending.seat == seat:
            words.append(f"{seat}'s {was.pending.text}, not answered, is withdrawn")
        if message.reveal is not None and seat in ff.commitments:
            words.append(f"{seat}'s revealed secret gives its placement and every "
                         f"commitment of attempt {ff.attempt}")
        return words

    def audit_lines(self, progress: Progress) -> list[str]:
        """What each result rests on: the proofs as given, and each seat's reveal."""
        if progress.state is None:
            return []
        ff = protocol(progress)
        lines = [f"each answer proven when given against both seats' commitments of "
                 f"attempt {ff.attempt} ({len(ff.overlaps)} overlap test"
                 f"{'' if len(ff.overlaps) == 1 else 's'})"]
        if chosen(progress):
            return [*lines, "each placement was its seat's own choice (placed by the "
                    "players): no reveal is needed"]
        for seat in progress.seats:
            if seat in progress.revealed:
                lines.append(f"{seat}'s revealed secret gives its placement and every "
                             "commitment")
            else:
                lines.append(f"the placement of {seat} rests on its reveal, not made")
        return lines

    def forfeit(self, progress: Progress) -> str | None:
        """The mover's forfeit once the answerer proved its count box false."""
        return protocol(progress).forfeit

    def awaited_reveals(self, progress: Progress) -> tuple[str, ...]:
        """None when each seat placed its own frogs (nothing rests on a reveal); else every
        seat that has not revealed (its placement rests on it)."""
        if chosen(progress):
            return ()
        return super().awaited_reveals(progress)
