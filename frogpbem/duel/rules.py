"""What each ruleset adds to a game without a referee: its protocol steps.

The engine (:mod:`frogpbem.duel.engine`) checks what every such game shares: the
signatures, the chain, the numbering, the second seat's join, the public seed, each
revealed secret against its commitment, whose message it is, and the moves through the
rules. Everything a ruleset needs beyond that (how the setup is dealt or proven, what
a seat must answer about its hidden pieces before it moves) is a :class:`DuelRules`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import field, replace
from typing import Any

from frogpbem import crypto
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.errors import CommitmentError, InconsistentResultError
from frogpbem.frozen import frozen
from frogpbem.gamefile.duelfile import DuelHeader, Message
from frogpbem.gamefile.model import JSON
from frogpbem.games import SomeRuleset, find_game


@frozen
class Played:
    """A move in the replay: its message, seat, notation and public result."""

    n: int
    seat: str
    move: str
    result: JSON


@frozen
class Progress:
    """Where a game without a referee stands after its first ``n`` messages."""

    header: DuelHeader
    ruleset: SomeRuleset
    n: int
    """Messages read so far."""
    head: str
    """The hash the next message names."""
    commitments: Mapping[str, str]
    """Each seat's seed commitment: the first's from the header, the second's from its join."""
    publics: Mapping[str, str] = field(default_factory=dict)
    """Each seat's public seed, once shown."""
    revealed: Mapping[str, SeatSecret] = field(default_factory=dict)
    """Each seat's secret, once revealed (checked against its commitment and public seed)."""
    steps: Mapping[str, JSON] = field(default_factory=dict)
    """The rules' own record of the protocol steps so far (Froglet: the dealt board)."""
    protocol: object = None
    """The rules' own typed record of their protocol steps, parsed and checked once (Frog
    Finder: :class:`~frogpbem.duel.frogfinder_rules.FrogFinderProgress`); ``None`` before
    the rules keep one."""
    state: Any = None
    """The rules' state once the setup is done (``None`` before)."""
    played: tuple[Played, ...] = ()

    @property
    def seats(self) -> tuple[str, ...]:
        return self.header.seat_names

    @property
    def first(self) -> str:
        return self.seats[0]

    @property
    def second(self) -> str:
        return self.seats[1]

    @property
    def joined(self) -> bool:
        return self.second in self.commitments

    @property
    def over(self) -> bool:
        return self.state is not None and self.ruleset.to_move(self.state) is None

    def other(self, seat: str) -> str:
        return self.second if seat == self.first else self.first


Parts = dict[str, JSON]
"""Parts of a message a seat's tool adds, by name (``reveal``, ``public``, ``setup``…)."""


class DuelRules(ABC):
    """The protocol steps of one ruleset without a referee.

    The engine calls it, per message, in this order:

    1. :meth:`due`, before any move may be played: the seat whose setup step is awaited
       (``None`` once :attr:`Progress.state` is set and the rules' own turn order holds).
       A message from another seat (but a resignation) is refused.
    2. :meth:`take`, with every message after the join: check the message's ruleset parts
       (``setup``, ``overlap``, ``answer``, and the use of a ``public`` or ``reveal`` the
       engine has checked against the commitments) and return the progress they make
       (the dealt state once the setup is complete). A part that does not belong now, or
       fails its check (a proof, an opening), raises a
       :class:`~frogpbem.errors.VerificationError` with one sentence.
    3. :meth:`play`, for the message's move: the state after it and its public result.

    A seat's tool asks :meth:`steps` what the seat must add now, before its move (the
    setup steps due from it, the answer to the other seat's last move), and
    :meth:`move_parts` what goes with its move; it seals nothing to anyone but itself
    unless :meth:`readers` says so.

    What is shown (:mod:`frogpbem.duel.looks`, :mod:`frogpbem.duel.audit`) asks
    :meth:`seat_state` and :meth:`public_state` for the state a seat or anyone knows (its
    typed view is then the ruleset's own), :meth:`proof_words` what each message proved,
    :meth:`audit_lines` what the end re-derives or leaves resting on a reveal, and
    :meth:`awaited_reveals` which reveals an audit still waits for.

    Frog Finder fits it so (docs/format.md, "Frog Finder without a referee"): ``due`` is
    red for its public seed and setup (commitments, bit and mask proofs), then blue for
    its setup (commitments, select proofs), then red for ``overlap`` (``m`` and its
    proof; ``m > 0`` starts attempt ``k + 1``: ``due`` goes back to red); ``take``
    checks each proof against the commitments it keeps in :attr:`Progress.protocol`;
    ``steps`` makes them from the seat's :class:`SeatSecret`; ``move_parts`` adds the
    mover's opening at the square (and, for a shot, its count sealed to the other seat:
    ``readers`` is that seat), and ``steps`` the ``answer`` to the last move, which
    ``take`` checks before ``play`` gives that move's result (a move's result is known
    once the other seat answered: :meth:`play` records it as pending).
    """

    @abstractmethod
    def due(self, progress: Progress) -> str | None:
        """The seat whose setup step is awaited; ``None`` once the rules' turns hold."""

    @abstractmethod
    def steps(self, progress: Progress, secret: SeatSecret) -> Parts:
        """What ``secret.seat`` adds now, before any move of its own (may be empty)."""

    @abstractmethod
    def take(self, progress: Progress, message: Message) -> Progress:
        """``progress`` with ``message``'s ruleset parts checked and taken in."""

    def move_parts(self, progress: Progress, secret: SeatSecret, move: str) -> Parts:
        """What goes with ``move`` in the seat's message (Froglet: nothing)."""
        return {}

    def play(self, progress: Progress, seat: str, move: str) -> tuple[Any, JSON]:
        """The state after ``seat``'s ``move`` and its public result (the rules' own
        :meth:`~frogpbem.games.Ruleset.play` where nothing is hidden)."""
        rules = progress.ruleset
        state, result = rules.play(progress.state, seat, rules.parse_move(move))
        return state, result.to_json()

    def readers(self, seat: str, part: str) -> tuple[str, ...]:
        """The seats a ``part`` made by ``seat`` is sealed to (its secret: itself alone)."""
        return (seat,)

    def awaited(self, progress: Progress) -> str | None:
        """Once dealt, the seat whose answer to a pending move is awaited before the rules'
        turn order goes on (``None``: none is; Froglet's moves need no answer)."""
        return None

    # --- what a seat, the public and an audit see (frogpbem.duel.looks, .audit) ---------

    def seat_state(self, progress: Progress, secret: SeatSecret) -> Any:
        """The rules' state as ``secret.seat`` knows it: the public state with its own
        hidden pieces (``None`` before the setup; Froglet: :attr:`Progress.state`, where
        nothing is hidden). Its view is then ``ruleset.view(state, {seat})``, or, once
        the game is over and no reveal is awaited (:meth:`awaited_reveals`), the view of
        every seat: the state must then hold every piece."""
        return progress.state

    def public_state(self, progress: Progress) -> Any:
        """The rules' state as anyone knows it from the file alone, seen with no seat's
        hidden pieces (``view(state, {})``; every piece once no reveal is awaited, as for
        :meth:`seat_state`). ``record`` draws it after every message."""
        return progress.state

    def proof_words(self, before: Progress, message: Message, after: Progress) -> list[str]:
        """What ``message``'s ruleset parts proved, in words, for an audit (each checked by
        :meth:`take` already): e.g. ``blue answered red's shoot C3 (count 2, proven)``."""
        return []

    def audit_lines(self, progress: Progress) -> list[str]:
        """What an audit of the whole game can add at the end: what was re-derived, and
        what rests on a reveal not made (``the placement of blue rests on its reveal, not
        made``)."""
        return []

    def awaited_reveals(self, progress: Progress) -> tuple[str, ...]:
        """The seats whose reveal the audit still needs once the game is over (by
        default every seat that has not revealed): until then it is not finished."""
        return tuple(s for s in progress.seats if s not in progress.revealed)


class FrogletDuel(DuelRules):
    """Froglet without a referee: nothing is hidden after the deal, so no proofs.

    The deal is fair from both seeds: the first seat (white) commits in the header, the
    second (black) joins with its public seed, then white reveals its secret (nothing is
    hidden in Froglet: it need not stay secret), and the board is Froglet's deal from
    ``DerivedChance(white.deal_key(black's public seed, 0))``. Anyone checks the revealed
    secret against the commitment and deals the board again.
    """

    def due(self, progress: Progress) -> str | None:
        return progress.first if progress.state is None else None

    def steps(self, progress: Progress, secret: SeatSecret) -> Parts:
        if progress.joined and progress.state is None and secret.seat == progress.first:
            return {"reveal": secret.secret}
        return {}

    def take(self, progress: Progress, message: Message) -> Progress:
        for name in ("setup", "overlap", "answer"):
            if message.step(name) is not None:
                raise InconsistentResultError(f"Froglet has no '{name}' step")
        if message.public is not None:
            raise InconsistentResultError("Froglet shows no public seed: white reveals its "
                                          "secret instead")
        if progress.state is not None or progress.first not in progress.revealed:
            return progress
        return dealt(progress)

    def seat_state(self, progress: Progress, secret: SeatSecret) -> Any:
        """White, before its reveal, sees the board its reveal will deal."""
        if progress.state is None and progress.joined and secret.seat == progress.first:
            return dealt(replace(progress, revealed={**progress.revealed,
                                                     secret.seat: secret})).state
        return progress.state

    def audit_lines(self, progress: Progress) -> list[str]:
        if progress.state is None:
            return [f"the deal waits for {progress.first}'s reveal"]
        return [f"the deal re-derived from {progress.first}'s revealed secret (it matches "
                f"its seed commitment) and {progress.second}'s public seed"]

    def awaited_reveals(self, progress: Progress) -> tuple[str, ...]:
        """Only white's secret deals the board; black's is never used."""
        return () if progress.first in progress.revealed else (progress.first,)


def dealt(progress: Progress) -> Progress:
    """``progress`` with Froglet's board dealt from white's revealed secret and black's
    public seed."""
    white = progress.revealed[progress.first]
    black_public = progress.publics.get(progress.second)
    if black_public is None:
        raise CommitmentError("white revealed its secret before black joined")
    header, rules = progress.header, progress.ruleset
    chance = crypto.DerivedChance(white.deal_key(black_public, 0))
    public, secrets = rules.deal(header.options, progress.seats, chance)
    state = rules.start(header.options, progress.seats, public, dict.fromkeys(progress.seats))
    return replace(progress, steps={**progress.steps, "public": public}, state=state)


def ruleset_of(header: DuelHeader) -> SomeRuleset:
    return find_game(header.rules)
