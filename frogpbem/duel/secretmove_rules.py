"""Secret Move without a referee: the steps of docs/format.md, "Secret Move without a
referee", as the engine's hooks (:class:`SecretMoveDuel`).

Red creates the game; blue joins with its setup (its header commitments, checked on
arrival); red's first message holds its setup and its first move. A stone move carries
its ``legal`` proof; a pass of a seat with no legal move is added by its own tool,
claimed ``auto`` and checked at the reveal (a false one, proven by the seat's revealed
headers, forfeits the game for that seat); a guess is its commitment (and the seat's
own copy, padded with its secret); once both are in, each seat's last message opens its
guess, shows its headers and reveals its secret, and the rules replay the whole game
with both seats' headers. The public state knows no header until the reveal: a seat's
tool reads its own headers back from its commitments with its secret.

A message's Secret Move parts, in the file (all JSON, opaque to the file model):

- ``setup``: the seat's :class:`~frogpbem.duel.secretmove.HeaderCommitments`;
- ``answer`` with a stone move: ``{"legal": proof}``; with a pass: nothing, or
  ``{"auto": true}``; with the move ``guess``: ``{"guess": commitment, "sealed": n}``;
- ``answer`` with the reveal: ``{"headers": {"cols", "rows"}, "opening": {"guess",
  "salt"}}`` (the opening once both guesses are in).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, replace

from frogpbem import crypto
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.crypto.group import Point
from frogpbem.duel.base import Choice, DuelRules, Parts, Progress
from frogpbem.duel.secretmove import (
    GUESSES,
    GuessCommitment,
    GuessOpening,
    HeaderCommitments,
    Headers,
    LegalProof,
    check_reveal,
    headers_secret,
    own_headers,
    read_headers,
    seal_guess,
    unseal_guess,
)
from frogpbem.errors import (
    CommitmentError,
    GameFileError,
    IllegalMoveError,
    InconsistentResultError,
    NotationError,
    ProofError,
    UsageError,
)
from frogpbem.frozen import frozen
from frogpbem.gamefile.duelfile import Message
from frogpbem.games.secretmove import (
    AutoPass,
    Pass,
    Quiet,
    SealedGuess,
    SecretMove,
    SecretMoveResult,
    State,
    StoneMove,
    legal_moves,
)
from frogpbem.games.secretmove_view import values_of
from frogpbem.jsonvalue import JSON, as_int, as_str, dict_of, list_of

SETUP_WORDS = 'frogpbem move GAME --setup "cols=0,3,5 rows=1,2,4" (or --random)'
"""How a seat gives its headers."""


@frozen
class Record:
    """What the replay keeps of the Secret Move steps (in :attr:`Progress.steps`)."""

    commitments: Mapping[str, JSON] = field(default_factory=dict)
    """Each seat's header commitments as its setup wrote them (checked on arrival)."""
    guesses: Mapping[str, str] = field(default_factory=dict)
    """Each seat's guess commitment."""
    sealed: Mapping[str, int] = field(default_factory=dict)
    """Each seat's own padded copy of its guess."""
    opened: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Each seat's guess, once opened and checked."""
    headers: Mapping[str, Headers] = field(default_factory=dict)
    """Each seat's headers, once revealed and checked."""
    auto: bool = False
    """Whether the message taken last claims its pass automatic (read by ``play``)."""
    forfeit: str | None = None
    """Once a reveal proved a seat's automatic pass false: that seat's forfeit, in words."""

    def to_json(self) -> JSON:
        return {"commitments": dict(self.commitments), "guesses": dict(self.guesses),
                "sealed": dict(self.sealed),
                "opened": {s: list(g) for s, g in self.opened.items()},
                "headers": {s: list(h) for s, h in self.headers.items()}, "auto": self.auto,
                "forfeit": self.forfeit}

    @classmethod
    def of(cls, progress: Progress) -> Record:
        """The record in ``progress`` (written by :meth:`to_json`; empty before)."""
        match progress.steps:
            case {"record": {"commitments": dict(commitments), "guesses": dict(guesses),
                             "sealed": dict(sealed), "opened": dict(opened),
                             "headers": dict(headers), "auto": bool(auto),
                             "forfeit": str() | None as forfeit}}:
                return cls(commitments, dict_of(as_str, guesses), dict_of(as_int, sealed),
                           {s: tuple(list_of(as_int, g)) for s, g in opened.items()},
                           {s: _headers(list_of(as_int, h)) for s, h in headers.items()},
                           auto, forfeit)
        return cls()

    def into(self, progress: Progress, state: State | None = None) -> Progress:
        """``progress`` holding this record (and ``state``, when given)."""
        steps = {**progress.steps, "record": self.to_json()}
        return replace(progress, steps=steps, state=progress.state if state is None else state)


@frozen
class Nonces:
    """The first messages of every proof of the game so far (kept in
    :attr:`Progress.protocol`): a nonce used twice gives the witness away, and is
    refused, as in Frog Finder."""

    firsts: frozenset[Point] = frozenset()

    @classmethod
    def of(cls, progress: Progress) -> Nonces:
        kept = progress.protocol
        return kept if isinstance(kept, Nonces) else cls()

    def fresh(self, progress: Progress, firsts: tuple[Point, ...]) -> Progress:
        """``progress`` with ``firsts`` kept, refused if one was met before."""
        if len(set(firsts)) != len(firsts) or self.firsts.intersection(firsts):
            raise ProofError("two proofs of the game share a first message (a reused nonce)")
        return replace(progress, protocol=Nonces(self.firsts | frozenset(firsts)))


def _headers(numbers: list[int]) -> Headers:
    a, b, c, d, e, f = numbers
    return (a, b, c, d, e, f)


def _rules_secret(headers: Headers) -> dict[str, list[int]]:
    """The rules' secret of ``headers``, typed as :class:`State` keeps it."""
    return {"cols": list(headers[:3]), "rows": list(headers[3:])}


class _FalsePass(Exception):
    """A seat's automatic pass that its revealed headers prove false (internal)."""

    def __init__(self, seat: str, words: str) -> None:
        super().__init__(words)
        self.seat, self.words = seat, words


class SecretMoveDuel(DuelRules):
    """Secret Move without a referee (see the module)."""


    def wants_choice(self, progress: Progress, seat: str) -> bool:
        return True  # each seat chooses its headers (or has them drawn)
    def __init__(self) -> None:
        self.rules = SecretMove()
        self._parsed: dict[str, tuple[JSON, HeaderCommitments]] = {}
        """Each seat's commitments read once (their JSON, kept to tell them apart)."""

    # --- reading ------------------------------------------------------------------------

    def commitments(self, progress: Progress, seat: str) -> HeaderCommitments:
        """``seat``'s header commitments (checked when its setup arrived)."""
        data = Record.of(progress).commitments[seat]
        known = self._parsed.get(seat)
        if known is not None and known[0] is data:
            return known[1]
        made = HeaderCommitments.from_json(data, seat)
        self._parsed[seat] = (data, made)
        return made

    def _state(self, progress: Progress) -> State | None:
        state = progress.state
        assert state is None or isinstance(state, State)
        return state

    def own_headers(self, progress: Progress, secret: SeatSecret) -> Headers:
        """The seat's headers, read back from its commitments with its secret."""
        return own_headers(self.commitments(progress, secret.seat), secret)

    # --- the hooks ----------------------------------------------------------------------

    def due(self, progress: Progress) -> str | None:
        if progress.state is not None:
            return None
        record = Record.of(progress)
        return next((s for s in (progress.second, progress.first)
                     if s not in record.commitments), None)

    def choose(self, progress: Progress, secret: SeatSecret, choice: Choice) -> Parts:
        seat = secret.seat
        if seat in Record.of(progress).commitments:
            raise UsageError(f"{seat} has chosen its headers already")
        if choice.text is None:
            drawn = self.rules.deal(progress.header.options, [seat], crypto.secure_random())
            headers = read_headers(drawn[1][seat])
        else:
            headers = read_headers(self.rules.parse_secret(choice.text))
        made = HeaderCommitments.make(secret, progress.header.hash, headers)
        return {"setup": made.to_json()}

    def steps(self, progress: Progress, secret: SeatSecret) -> Parts:
        seat = secret.seat
        state = self._state(progress)
        if state is None:
            if progress.joined and self.due(progress) == seat:
                raise UsageError(f"{seat} chooses its headers first: {SETUP_WORDS}")
            return {}
        if self.rules.to_move(state) is not None or seat in progress.revealed:
            return {}
        record = Record.of(progress)  # the moves are over: the seat's closing parts
        answer: dict[str, JSON] = {"headers": headers_secret(self.own_headers(progress, secret))}
        if seat in record.sealed and len(record.guesses) == 2:
            guess = unseal_guess(secret, record.sealed[seat])
            answer["opening"] = GuessOpening.make(secret, guess).to_json()
        return {"answer": answer}

    def automatic(self, progress: Progress, secret: SeatSecret) -> str | None:
        own = self.seat_state(progress, secret)
        if own is None or self.rules.phase(own) != "moves" \
                or self.rules.to_move(own) != secret.seat:
            return None
        return None if self.rules.automatic(own) is None else "pass"

    preview = "(your headers are in; the other seat's are not yet: only you see yours)"

    def seat_state(self, progress: Progress, secret: SeatSecret) -> State | None:
        """The state with the seat's own headers (before the other seat's setup: the
        start, once the seat's own is in)."""
        state = self._state(progress)
        if state is None:
            if secret.seat not in Record.of(progress).commitments:
                return None
            state = self.rules.start(progress.header.options, progress.seats, None,
                                     dict.fromkeys(progress.seats))
        if state.secrets[secret.seat] is not None:
            return state
        headers = self.own_headers(progress, secret)
        return replace(state, secrets={**state.secrets, secret.seat: _rules_secret(headers)})

    def move_parts(self, progress: Progress, secret: SeatSecret, move: str) -> Parts:
        own = self.seat_state(progress, secret)
        if own is None:
            return {}
        seat, parsed = secret.seat, self.rules.parse_move(move)
        self.rules.check(own, seat, parsed)  # the rules' own sentence for an illegal move
        if isinstance(parsed, StoneMove):
            headers = self.own_headers(progress, secret)
            proof = LegalProof.make(self.commitments(progress, seat), secret,
                                    progress.header.hash, headers,
                                    len(own.history[seat]) + 1, parsed)
            scalars: list[JSON] = [*proof.to_json()]
            return {"answer": {"legal": scalars}}
        if isinstance(parsed, Pass):
            return {"answer": {"auto": True}} if self.rules.automatic(own) is not None else {}
        if isinstance(parsed, SealedGuess):
            if parsed.values is None:
                raise UsageError("give your guess of the other seat's nine values, row 1 "
                                 "first: guess 146/257/479")
            opening = GuessOpening.make(secret, parsed.values)
            return {"answer": {"guess": GuessCommitment.make(secret.game, seat,
                                                             opening).to_json(),
                               "sealed": seal_guess(secret, parsed.values)}}
        return {}

    def take(self, progress: Progress, message: Message) -> Progress:
        seat = message.seat
        if message.step("overlap") is not None:
            raise InconsistentResultError("Secret Move has no 'overlap' step")
        if message.public is not None:
            raise InconsistentResultError("Secret Move shows no public seed")
        record = replace(Record.of(progress), auto=False)
        setup, answer = message.step("setup"), message.step("answer")
        state = self._state(progress)
        if setup is not None:
            if seat in record.commitments:
                raise InconsistentResultError(f"{seat} has set up already")
            made = HeaderCommitments.from_json(setup, seat)
            progress = Nonces.of(progress).fresh(
                progress, made.check(progress.header.game, progress.header.hash, seat))
            record = replace(record, commitments={**record.commitments, seat: setup})
            if all(s in record.commitments for s in progress.seats):
                state = self.rules.start(progress.header.options, progress.seats, None,
                                         dict.fromkeys(progress.seats))
        progress = record.into(progress, state)
        if message.reveal is not None:
            return self._reveal(progress, record, message)
        if message.move is None or state is None:
            if answer is not None:
                raise InconsistentResultError("an 'answer' comes with a move or a reveal")
            return progress
        return self._move(progress, record, state, seat, message.move, answer)

    def _move(self, progress: Progress, record: Record, state: State, seat: str,
              move: str, answer: JSON) -> Progress:
        """The checks on a move's answer, on arrival."""
        parsed = self.rules.parse_move(move)
        if isinstance(parsed, StoneMove):
            match answer:
                case {"legal": proof, **rest} if not rest:
                    firsts = LegalProof.from_json(proof, seat).check(
                        self.commitments(progress, seat), progress.header.game,
                        progress.header.hash, seat, len(state.history[seat]) + 1, parsed)
                    return Nonces.of(progress).fresh(progress, firsts)
            raise ProofError(f"{seat}'s move {parsed} comes without its legal proof")
        if isinstance(parsed, Pass):
            match answer:
                case None:
                    return progress
                case {"auto": True, **rest} if not rest:
                    return replace(record, auto=True).into(progress)
            raise InconsistentResultError("a pass is answered with nothing, or {'auto': true}")
        if isinstance(parsed, SealedGuess):
            if parsed.values is not None:
                raise InconsistentResultError("a guess stays sealed: the move is 'guess', its "
                                              "values are only in its commitment")
            match answer:
                case {"opening": _, **_rest}:
                    raise InconsistentResultError(f"{seat} opens its guess before both "
                                                  "guesses are committed")
                case {"guess": digest, "sealed": int(sealed), **rest} \
                        if not rest and 0 <= sealed < GUESSES:
                    commitment = GuessCommitment.from_json(digest)
                    return replace(record, guesses={**record.guesses, seat: commitment.digest},
                                   sealed={**record.sealed, seat: sealed}).into(progress)
            raise GameFileError(f"{seat}'s guess is not answered with its commitment and "
                                "its sealed copy")
        if answer is not None:
            raise InconsistentResultError(f"{parsed} takes no 'answer'")
        return progress

    def _reveal(self, progress: Progress, record: Record, message: Message) -> Progress:
        """A seat's closing message: its headers, its guess opened, its secret."""
        seat, answer = message.seat, message.step("answer")
        state = self._state(progress)
        both = len(record.guesses) == 2
        match answer:
            case {"headers": shown, "opening": opened, **rest} if not rest:
                pass
            case {"headers": shown, **rest} if not rest:
                opened = None
            case _:
                raise CommitmentError(f"{seat} reveals its secret without its headers")
        if state is None or self.rules.to_move(state) is not None:
            raise InconsistentResultError(
                f"{seat} opens its guess before both guesses are committed"
                if opened is not None else f"{seat} reveals its headers before the game is over")
        try:
            headers = read_headers(shown)
        except NotationError as exc:
            raise CommitmentError(f"{seat}'s revealed headers are no setup: {exc.message}") \
                from None
        check_reveal(self.commitments(progress, seat), headers, progress.revealed[seat])
        opened_guesses = dict(record.opened)
        if seat in record.guesses and both:
            if opened is None:
                raise CommitmentError(f"{seat} reveals without opening its guess")
            opening = GuessOpening.from_json(opened)
            opened_guesses[seat] = GuessCommitment(record.guesses[seat]).open(
                progress.header.game, seat, opening)
        elif opened is not None:
            raise InconsistentResultError(f"{seat} opens a guess it has not committed "
                                          "(or before both guesses are committed)")
        record = replace(record, opened=opened_guesses,
                         headers={**record.headers, seat: headers})
        if record.forfeit is not None:  # decided already: a reveal is only checked
            return record.into(progress)
        try:
            return record.into(progress, self._replayed(progress, record))
        except _FalsePass as false:
            # the reveal proves the seat's automatic pass false: it forfeits, at once
            return replace(record, forfeit=false.words).into(
                progress, replace(state, resigned=false.seat))

    def _replayed(self, progress: Progress, record: Record) -> State:
        """The whole game replayed by the rules with every header revealed so far: each
        move legal, the guesses opened; an automatic pass with a legal move on the seat's
        revealed headers raises :class:`_FalsePass`."""
        rules = self.rules
        state = rules.start(progress.header.options, progress.seats, None,
                            {s: headers_secret(h) for s, h in record.headers.items()})
        for played in progress.played:
            move, claimed = rules.parse_move(played.move), rules.parse_result(played.result)
            values = state.secrets[played.seat]
            if isinstance(claimed, AutoPass) and values is not None:
                found = legal_moves(state.stones[played.seat], values_of(values))
                if found:
                    src, dst, count = found[0]
                    raise _FalsePass(played.seat, f"{played.seat} forfeits: its automatic "
                                     f"pass (message {played.n}) was false: its revealed "
                                     f"headers allow {src}-{dst} {count} there")
            try:
                state, _ = rules.play(state, played.seat, move, claimed)
            except (IllegalMoveError, InconsistentResultError) as exc:
                raise InconsistentResultError(f"message {played.n}: {exc.message}") from None
        guesses = {s: record.opened.get(s) for s in state.guesses or {}}
        return replace(state, guesses=guesses)

    def play(self, progress: Progress, seat: str, move: str) -> tuple[State, JSON]:
        state = self._state(progress)
        assert state is not None
        parsed = self.rules.parse_move(move)
        claimed: SecretMoveResult | None = None
        if isinstance(parsed, Pass):
            claimed = AutoPass() if Record.of(progress).auto else Quiet()
        new, result = self.rules.play(state, seat, parsed, claimed)
        return new, result.to_json()

    # --- the end ------------------------------------------------------------------------

    def forfeit(self, progress: Progress) -> str | None:
        return Record.of(progress).forfeit

    def pending(self, progress: Progress) -> tuple[str, ...]:
        state = self._state(progress)
        if state is None or self.rules.to_move(state) is not None \
                or self.rules.outcome(state) is not None:
            return ()
        return tuple(s for s in progress.seats if s not in progress.revealed)

    def audit_lines(self, progress: Progress) -> list[str]:
        record = Record.of(progress)
        lines = [f"OK {seat}'s header commitments: 36 bits, each header one value and each "
                 "value one header" for seat in progress.seats if seat in record.commitments]
        stones = sum(1 for p in progress.played
                     if isinstance(self.rules.parse_move(p.move), StoneMove))
        if stones:
            lines.append(f"OK {stones} stone moves, each with its legal proof")
        for seat in progress.seats:
            autos = sum(1 for p in progress.played if p.seat == seat
                        and isinstance(self.rules.parse_result(p.result), AutoPass))
            if autos and record.forfeit is not None and \
                    record.forfeit.startswith(f"{seat} forfeits"):
                lines.append(f"{seat}'s automatic pass: FALSE on its revealed headers: "
                             f"{record.forfeit}")
            elif autos:
                lines.append(f"OK {seat}'s automatic pass: no legal move on its revealed "
                             "headers" if seat in record.headers else
                             f"{seat}'s automatic pass: checked at its reveal")
        lines += [f"OK {seat}'s guess opens its commitment" for seat in record.opened]
        lines += [f"OK {seat}'s revealed headers open its commitments, the game replayed "
                  "with them" for seat in record.headers]
        return lines
