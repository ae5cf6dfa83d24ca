"""Frog Finder without a referee through the engine (docs/format.md, "Frog Finder without a
referee"): the :class:`~frogpbem.duel.rules.DuelRules` of ``frogfinder``.

The protocol values are :mod:`frogpbem.duel.frogfinder`'s; here they are put in messages and
checked as they come. The record of the steps (:attr:`Progress.steps`) holds the attempt,
both seats' commitments, red's mask, blue's selection, the first messages of every proof
(a reused nonce is refused) and the move awaiting its answer. The public state knows no
seat's frogs; each result comes from the answer, checked, through the rules' own
``play(state, seat, move, claimed)``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from frogpbem.board import Board
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.crypto.group import commit
from frogpbem.duel.frogfinder import (
    Answer,
    Commitments,
    Context,
    CountBox,
    Mask,
    MoverPart,
    Overlap,
    Selection,
    answer,
    check_answer,
    check_commitments,
    check_mask,
    check_mover_part,
    check_overlap,
    check_selection,
    commit_placement,
    find_overlap,
    make_mask,
    make_selection,
    mover_part,
    open_box,
    placement,
    seal_box,
)
from frogpbem.duel.rules import DuelRules, Parts, Played, Progress
from frogpbem.errors import CommitmentError, InconsistentResultError, ProofError
from frogpbem.gamefile.duelfile import Message
from frogpbem.gamefile.model import JSON
from frogpbem.games.frogs import State
from frogpbem.games.frogs_notation import Guess, Shoot
from frogpbem.jsonvalue import as_dict

RED, BLUE = "red", "blue"


def _board(progress: Progress) -> Board:
    return Board(int(progress.header.options["size"]))


def _frogs(progress: Progress) -> int:
    return int(progress.header.options["frogs"])


def _attempt(progress: Progress) -> int:
    value = progress.steps.get("attempt", 0)
    return value if isinstance(value, int) else 0


def _ctx(progress: Progress, seat: str) -> Context:
    header = progress.header
    return Context(header.game, header.hash, seat, _attempt(progress))


def _commitments(progress: Progress, seat: str) -> Commitments:
    return Commitments.from_json(progress.steps[seat], _board(progress))


def _record(progress: Progress, firsts: tuple[Any, ...] = (), **steps: JSON) -> Progress:
    """``progress`` with ``steps`` set (``None`` removes one) and the proofs' first messages
    added to the game's, refused if one was seen before (a reused nonce)."""
    merged = dict(progress.steps)
    if firsts:
        seen = list(merged.get("firsts") or [])  # type: ignore[arg-type]
        known = {str(a) for a in seen}
        fresh = [a.hex() for a in firsts]
        if known.intersection(fresh) or len(set(fresh)) != len(fresh):
            raise ProofError("two proofs of the game share a first message (a reused nonce)")
        merged["firsts"] = [*seen, *fresh]
    for name, value in steps.items():
        if value is None:
            merged.pop(name, None)
        else:
            merged[name] = value
    return replace(progress, steps=merged)


def _placement(progress: Progress, secret: SeatSecret) -> frozenset[Any]:
    other = progress.publics[progress.other(secret.seat)]
    return placement(secret, _board(progress), _frogs(progress), other, _attempt(progress))


def _move_of(progress: Progress, text: str) -> Shoot | Guess:
    move = progress.ruleset.parse_move(text)
    if not isinstance(move, Shoot | Guess):
        raise InconsistentResultError(f"{text} is not a shot or a guess")
    return move


def _number(progress: Progress) -> int:
    """The next move's ``n``: one more than the moves played."""
    return len(progress.played) + 1


class FrogFinderDuel(DuelRules):
    """Frog Finder without a referee: red's public seed and setup (commitments, bit and
    mask proofs), blue's setup (commitments, bit and select proofs), red's overlap (a
    non-zero one starts the next attempt); then each move waits for its answer, which
    comes first in the other seat's next message."""

    # --- whose step ------------------------------------------------------------------------

    def due(self, progress: Progress) -> str | None:
        if progress.state is not None:
            return None
        steps = progress.steps
        if RED not in steps:
            return RED
        if BLUE not in steps:
            return BLUE
        return RED  # the overlap

    def awaited(self, progress: Progress) -> str | None:
        pending = progress.steps.get("pending")
        if not pending or progress.state is None or progress.ruleset.to_move(
                progress.state) is None:
            return None
        return progress.other(str(as_dict(pending)["seat"]))

    # --- what a seat's tool adds -----------------------------------------------------------

    def steps(self, progress: Progress, secret: SeatSecret) -> Parts:
        seat, steps, board = secret.seat, progress.steps, _board(progress)
        if not progress.joined:
            return {}
        if progress.state is None:
            ctx = _ctx(progress, seat)
            if seat == RED and RED not in steps:
                parts: Parts = {} if RED in progress.publics else \
                    {"public": secret.public_seed()}
                publics = {**progress.publics, RED: secret.public_seed()}
                frogs = _placement(replace(progress, publics=publics), secret)
                own = commit_placement(ctx, secret, board, frogs)
                mask = make_mask(ctx, secret, board, frogs, own)
                return parts | {"setup": {"commitments": own.to_json(),
                                          "mask": mask.to_json()}}
            if seat == BLUE and RED in steps and BLUE not in steps:
                frogs = _placement(progress, secret)
                own = commit_placement(ctx, secret, board, frogs)
                mask = Mask.from_json(steps["mask"], board)
                selection = make_selection(ctx, secret, board, frogs,
                                           _commitments(progress, RED), mask)
                return {"setup": {"commitments": own.to_json(),
                                  "selection": selection.to_json()}}
            if seat == RED and BLUE in steps:
                overlap = find_overlap(ctx, secret, _frogs(progress),
                                       Mask.from_json(steps["mask"], board),
                                       Selection.from_json(steps["selection"], board))
                return {"overlap": overlap.to_json()}
            return {}
        pending = steps.get("pending")
        if not pending or self.awaited(progress) != seat:
            return {}
        return {"answer": {"to": self._answer(progress, secret, as_dict(pending))}}

    def _answer(self, progress: Progress, secret: SeatSecret, pending: dict[str, JSON]
                ) -> JSON:
        """The answer of ``secret``'s seat to the pending move; its count box is opened and
        checked first (a false one refuses the mail: ProofError)."""
        board, mover = _board(progress), str(pending["seat"])
        n = int(str(pending["n"]))
        move = _move_of(progress, str(pending["move"]))
        frogs = _placement(progress, secret)
        count = None
        if isinstance(move, Shoot) and move.square not in frogs:
            box = CountBox.from_json(pending["box"])
            count = open_box(_ctx(progress, mover), secret, board,
                             _commitments(progress, mover), n, move.square, box)
        return answer(_ctx(progress, secret.seat), secret, board, frogs, n, move,
                      count).to_json()

    def move_parts(self, progress: Progress, secret: SeatSecret, move: str) -> Parts:
        parsed = progress.ruleset.parse_move(move)
        if not isinstance(parsed, Shoot | Guess) or progress.state is None:
            return {}
        board, seat = _board(progress), secret.seat
        frogs = _placement(progress, secret)
        opening, count = mover_part(secret, _attempt(progress), board, frogs, parsed)
        part: dict[str, JSON] = {"opening": opening.blinding.hex()}
        if count is not None:
            box = seal_box(_ctx(progress, seat), secret, board,
                           _commitments(progress, progress.other(seat)), _number(progress),
                           parsed.square, count)
            part["box"] = box.to_json()
        return {"answer": {"move": part}}

    # --- checking a message ----------------------------------------------------------------

    def take(self, progress: Progress, message: Message) -> Progress:
        seat = message.seat
        overlap, setup = message.step("overlap"), message.step("setup")
        said = message.step("answer")
        if progress.joined and message.join is None and progress.state is None and \
                message.public is not None and RED in progress.steps:
            raise InconsistentResultError("red shows its public seed with its first setup")
        if overlap is not None:
            progress = self._take_overlap(progress, seat, overlap)
        if setup is not None:
            progress = self._take_setup(progress, seat, setup)
        if message.reveal is not None:
            self._check_reveal(progress, message.seat)
        to, own = None, None
        if said is not None:
            fields = as_dict(said)
            if not set(fields) <= {"to", "move"} or not fields:
                raise InconsistentResultError("an answer part holds 'to' and/or 'move' alone")
            to, own = fields.get("to"), fields.get("move")
        if progress.state is None:
            if said is not None:
                raise InconsistentResultError("no move has been made to answer")
            return progress
        pending = progress.steps.get("pending")
        if to is not None:
            if not pending or self.awaited(progress) != seat:
                raise InconsistentResultError(f"{seat} answers a move that was not made")
            progress = self._take_answer(progress, seat, as_dict(pending), to)
        elif pending and self.awaited(progress) == seat and not (
                message.resign and message.move is None):
            raise InconsistentResultError(f"{seat}'s message lacks its answer to "
                                          f"{progress.other(seat)}'s move")
        if message.move is not None:
            move = _move_of(progress, message.move)
            if own is None:
                raise ProofError(f"{seat}'s move {message.move} lacks its opening")
            progress = self._take_move(progress, seat, move, message.move, own)
        elif own is not None:
            raise InconsistentResultError("an opening without a move")
        return progress

    def _take_overlap(self, progress: Progress, seat: str, data: JSON) -> Progress:
        if seat != RED or progress.state is not None or BLUE not in progress.steps:
            raise InconsistentResultError("an overlap comes from red, after blue's setup")
        board, ctx = _board(progress), _ctx(progress, RED)
        overlap = Overlap.from_json(data, _frogs(progress))
        firsts = check_overlap(ctx, Mask.from_json(progress.steps["mask"], board),
                               Selection.from_json(progress.steps["selection"], board),
                               overlap, _frogs(progress))
        progress = _record(progress, firsts)
        if overlap.count > 0:  # discard both placements: the next attempt
            return _record(progress, attempt=_attempt(progress) + 1, red=None, blue=None,
                           mask=None, selection=None)
        header, rules = progress.header, progress.ruleset
        state = rules.start(header.options, progress.seats, None,
                            dict.fromkeys(progress.seats))
        return replace(progress, state=state)

    def _take_setup(self, progress: Progress, seat: str, data: JSON) -> Progress:
        board, ctx, steps = _board(progress), _ctx(progress, seat), progress.steps
        if progress.state is not None or seat in steps or (seat == BLUE and RED not in steps):
            raise InconsistentResultError(f"{seat}'s setup does not come now")
        fields = as_dict(data)
        second = "mask" if seat == RED else "selection"
        if set(fields) != {"commitments", second}:
            raise InconsistentResultError(f"{seat}'s setup holds its commitments and its "
                                          f"{second}")
        own = Commitments.from_json(fields["commitments"], board)
        firsts = check_commitments(ctx, board, _frogs(progress), own)
        if seat == RED:
            mask = Mask.from_json(fields["mask"], board)
            firsts += check_mask(ctx, board, own, mask)
            return _record(progress, firsts, red=own.to_json(), mask=mask.to_json())
        selection = Selection.from_json(fields["selection"], board)
        firsts += check_selection(ctx, board, own, _commitments(progress, RED),
                                  Mask.from_json(steps["mask"], board), selection)
        return _record(progress, firsts, blue=own.to_json(), selection=selection.to_json())

    def _take_answer(self, progress: Progress, seat: str, pending: dict[str, JSON],
                     data: JSON) -> Progress:
        board, mover = _board(progress), str(pending["seat"])
        n = int(str(pending["n"]))
        move = _move_of(progress, str(pending["move"]))
        result, firsts = check_answer(_ctx(progress, seat), board, n, move,
                                      _commitments(progress, seat),
                                      _commitments(progress, mover), Answer.from_json(data))
        state, checked = progress.ruleset.play(progress.state, mover, move, result)
        played = progress.played
        last = played[-1]
        fixed = Played(last.n, last.seat, last.move, checked.to_json())
        progress = replace(progress, state=state, played=(*played[:-1], fixed))
        return _record(progress, firsts, pending=None)

    def _take_move(self, progress: Progress, seat: str, move: Shoot | Guess, text: str,
                   data: JSON) -> Progress:
        board = _board(progress)
        fields = as_dict(data)
        wanted = {"opening", "box"} if isinstance(move, Shoot) else {"opening"}
        if set(fields) != wanted:
            raise InconsistentResultError(f"{seat}'s {text} carries "
                                          f"{' and '.join(sorted(wanted))}")
        opening = MoverPart.from_json({"blinding": fields["opening"]})
        check_mover_part(board, _commitments(progress, seat), move, opening)
        pending: dict[str, JSON] = {"seat": seat, "n": _number(progress),
                                    "move": text}
        if isinstance(move, Shoot):
            pending["box"] = CountBox.from_json(fields["box"]).to_json()
        return _record(progress, pending=pending)

    def _check_reveal(self, progress: Progress, seat: str) -> None:
        """The revealed secret gives the seat's placement, and that placement its
        commitments (of the accepted attempt), square by square."""
        secret = progress.revealed.get(seat)
        if secret is None or seat not in progress.steps:
            return
        frogs = _placement(progress, secret)
        board = _board(progress)
        points = _commitments(progress, seat).points
        for square, point in zip(board.squares(), points, strict=True):
            bit = int(square in frogs)
            if commit(bit, secret.blinding(_attempt(progress), square.name)) != point:
                raise CommitmentError(f"{seat}'s revealed secret does not give its "
                                      f"commitment at {square.name}")

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

    # --- the audit -----------------------------------------------------------------------

    def audit(self, progress: Progress) -> list[str]:
        """What the result rests on: each seat's reveal, made (and checked) or not."""
        if progress.state is None:
            return []
        lines = []
        for seat in progress.seats:
            if seat in progress.revealed:
                lines.append(f"OK {seat}'s revealed secret gives its placement and every "
                             "commitment")
            else:
                lines.append(f"the result rests on {seat}'s reveal, not yet made")
        return lines
