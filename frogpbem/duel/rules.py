"""What each ruleset adds to a game without a referee: its protocol steps.

The engine (:mod:`frogpbem.duel.engine`) checks what every such game shares: the
signatures, the chain, the numbering, the second seat's join, the public seed, each
revealed secret against its commitment, whose message it is, and the moves through the
rules. Everything a ruleset needs beyond that (how the setup is dealt or proven, what
a seat must answer about its hidden pieces before it moves) is a :class:`DuelRules`
(:mod:`frogpbem.duel.base`, re-exported here); :mod:`frogpbem.duel.registry` names each
one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from frogpbem import crypto
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.duel.base import Choice as Choice
from frogpbem.duel.base import DuelRules as DuelRules
from frogpbem.duel.base import Parts as Parts
from frogpbem.duel.base import Played as Played
from frogpbem.duel.base import Progress as Progress
from frogpbem.errors import CommitmentError, InconsistentResultError
from frogpbem.gamefile.duelfile import DuelHeader, Message
from frogpbem.games import SomeRuleset, find_game


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

    preview = "(the board your reveal deals: only you see it before your move)"

    def seat_state(self, progress: Progress, secret: SeatSecret) -> Any:
        """Once black joined and before white's reveal, white's tool sees the board its
        reveal will deal."""
        if progress.state is not None or secret.seat != progress.first \
                or not progress.joined:
            return progress.state
        return dealt(replace(progress, revealed={**progress.revealed,
                                                 secret.seat: secret})).state

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
