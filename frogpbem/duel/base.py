"""The hooks a ruleset fills to be played without a referee (:class:`DuelRules`), and
where a game stands as the engine replays it (:class:`Progress`).

They live apart from the rulesets (:mod:`frogpbem.duel.rules` and the modules it
registers) so that a ruleset's own module imports them without importing the registry.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.errors import UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.duelfile import DuelHeader, Message
from frogpbem.gamefile.model import JSON
from frogpbem.games import SomeRuleset


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


@frozen
class Choice:
    """A seat's own setup as it gave it (Secret Move: its headers): its words, or ``None``
    for one its tool draws at random."""

    text: str | None = None


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

    A seat's tool asks :meth:`choose` for the parts of a setup the seat chose (if it
    gave one), :meth:`steps` what the seat must add now, before its move (the setup
    steps due from it, the answer to the other seat's last move), :meth:`automatic` for
    a move its tool makes by itself when the seat gives none, and :meth:`move_parts`
    what goes with its move (a sealed move's full notation: the file shows its
    ``public_move``); it seals nothing to anyone but itself unless :meth:`readers` says
    so. Once the rules' moves are over, a seat's reveal carries :meth:`steps` too (the
    ruleset's closing parts), and :meth:`pending` names the reveals the outcome waits
    for.

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

    checks_proofs: bool = True
    """Whether :meth:`take` verifies the proofs of the parts it takes. The engine clears it
    while it replays messages this tool verified before (:mod:`frogpbem.protocol.verified`):
    their parts are still read and taken in, the moves played through the rules."""

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

    def arrival(self, progress: Progress, secret: SeatSecret) -> str | None:
        """Check, on a copy's arrival, what only ``secret``'s seat can check (Frog Finder:
        the mover's count box it must open to answer), before its tool remembers the copy;
        a line for the seat's view (Frog Finder: a false count box its next message
        proves), or ``None``. A copy refused here (VerificationError) is not kept."""
        return None

    def awaited(self, progress: Progress) -> str | None:
        """Once dealt, the seat whose answer to a pending move is awaited before the rules'
        turn order goes on (``None``: none is; Froglet's moves need no answer)."""
        return None

    # --- hooks with a default: a seat's choice, its tool's own moves, the end ----------

    def choose(self, progress: Progress, secret: SeatSecret, choice: Choice) -> Parts:
        """The parts of the seat's chosen setup (before :meth:`steps`); by default a
        ruleset has none to choose."""
        raise UsageError(f"{progress.ruleset.title} without a referee has no setup to "
                         "choose")

    def wants_choice(self, progress: Progress, seat: str) -> bool:
        """Whether ``seat`` gives a setup of its own choosing (:meth:`choose`: ``--setup``
        or ``--random``) when its next setup step comes; by default never."""
        return False

    def automatic(self, progress: Progress, secret: SeatSecret) -> str | None:
        """The move the seat's tool makes by itself when the seat gives none (Secret Move:
        the pass of a seat with no legal move); ``None``: none."""
        return None

    preview = "(before the setup is complete: only you see this)"
    """The words over a seat's view of :meth:`seat_state` before :attr:`Progress.state`."""

    def seat_state(self, progress: Progress, secret: SeatSecret) -> Any:
        """The rules' state as ``secret``'s seat knows it (its own hidden pieces too; it
        may be one before :attr:`Progress.state` is, shown under :attr:`preview`)."""
        return progress.state

    def pending(self, progress: Progress) -> tuple[str, ...]:
        """The seats whose closing message (a reveal) the outcome still waits for, once
        the rules' moves are over; by default none: the outcome is the rules'."""
        return ()

    def forfeit(self, progress: Progress) -> str | None:
        """A seat's forfeit that the protocol proved, in words (Secret Move: ``blue forfeits:
        its automatic pass (message 7) was false ...``), which ends the game; ``None``:
        none. The rules' state then holds the other seat's win."""
        return None

    # --- what the public and an audit see (frogpbem.duel.looks, .audit) -----------------

    def public_state(self, progress: Progress) -> Any:
        """The rules' state as anyone knows it from the file alone, seen with no seat's
        hidden pieces (``view(state, {})``; every piece once no reveal is awaited).
        ``record`` draws it after every message."""
        return progress.state

    def proof_words(self, before: Progress, message: Message, after: Progress) -> list[str]:
        """What ``message``'s ruleset parts proved, in words, for an audit (each checked by
        :meth:`take` already): e.g. ``blue answered red's shoot C3 (count 2, proven)``."""
        return []

    def audit_lines(self, progress: Progress) -> list[str]:
        """What ``verify`` and an audit of the whole game add after the messages: what was
        proven or re-derived (``OK …``), and what rests on a reveal not made."""
        return []

    def awaited_reveals(self, progress: Progress) -> tuple[str, ...]:
        """The seats whose reveal the audit still needs once the game is over (by
        default every seat that has not revealed): until then it is not finished."""
        return tuple(s for s in progress.seats if s not in progress.revealed)
