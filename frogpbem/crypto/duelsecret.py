"""A seat's one secret in a game without a referee, and all it derives
(docs/format.md, "A seat's secret").

With ``D(label, fields) = SHA-512("frogpbem/1 " + label + "\\n" + canonical_json(fields))``
and ``F = {"game", "seat", "secret"}``, every value a seat uses comes from ``F``, so the
seat can play from any machine that holds its key, and the reveal at the end is the
secret alone.
"""

from __future__ import annotations

import os
from typing import Any

from frogpbem.crypto.digest import PREFIX, canonical_json, sha256_tag, sha512
from frogpbem.crypto.group import Scalar
from frogpbem.frozen import frozen

SEED_COMMITMENT_PREFIX = b"frogpbem/1 duel-seed\n"


@frozen
class SeatSecret:
    """A seat's 32 random bytes (``secret``, 64 hex digits) in one game."""

    game: str
    seat: str
    secret: str

    @classmethod
    def new(cls, game: str, seat: str) -> SeatSecret:
        """A fresh secret from the operating system, drawn again if the mask key of
        attempt 0 is zero (docs/format.md, "A seat's secret": each derived scalar is zero
        with probability about 2^-252; any other one that is zero makes the tool refuse to
        make the value that needs it, never a false one)."""
        while True:
            made = cls(game, seat, os.urandom(32).hex())
            if not made.mask_key(0).is_zero():
                return made

    def _fields(self) -> dict[str, Any]:
        return {"game": self.game, "seat": self.seat, "secret": self.secret}

    def _derive(self, label: str, **extra: str | int) -> bytes:
        """``D(label, F + extra)``."""
        return sha512((PREFIX + label + "\n").encode() + canonical_json(self._fields() | extra))

    def seed_commitment(self) -> str:
        """``sha256:`` and the hex SHA-256 of the secret's fields: shown first."""
        return sha256_tag(SEED_COMMITMENT_PREFIX + canonical_json(self._fields()))

    def public_seed(self) -> str:
        """The first 32 bytes of ``D("duel-public", F)``, hex: shown once the other
        seat's commitment is in."""
        return self._derive("duel-public")[:32].hex()

    def deal_key(self, other_public: str, attempt: int) -> bytes:
        """The key of the fair dealer (:class:`~frogpbem.crypto.DerivedChance`) that
        places this seat's pieces in ``attempt``."""
        return self._derive("duel-deal", other=other_public, attempt=attempt)[:32]

    def blinding(self, attempt: int, square_name: str) -> Scalar:
        """``r_q``: the blinding of this seat's commitment at a square."""
        return Scalar.from_wide(self._derive("duel-blind", attempt=attempt, square=square_name))

    def mask_key(self, attempt: int) -> Scalar:
        """``x``: the key of the seat's mask ``P = x·H``."""
        return Scalar.from_wide(self._derive("duel-mask", attempt=attempt))

    def selection(self, attempt: int, square_name: str) -> Scalar:
        """``t_q``: the re-randomising blinding of the selection at a square."""
        return Scalar.from_wide(self._derive("duel-select", attempt=attempt,
                                             square=square_name))

    def count_key(self, n: int, square_name: str) -> Scalar:
        """``y``: the key of the count box of the seat's shot, move ``n`` at a square."""
        return Scalar.from_wide(self._derive("duel-count", n=n, square=square_name))

    def box_key(self, attempt: int) -> Scalar:
        """``a``: the key of the seat's box key ``A = a·H`` in ``attempt``, which the count
        boxes sealed to the seat use besides its commitment (a spectator who learns a
        blinding still cannot open them)."""
        return Scalar.from_wide(self._derive("duel-box", attempt=attempt))

    def nonce_key(self) -> bytes:
        """The key from which the seat's proof nonces are derived (32 bytes)."""
        return self._derive("duel-nonce")[:32]
