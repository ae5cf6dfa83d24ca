"""STAND-IN for nr-crypto's ``duelsecret`` (take theirs at the merge): a seat's secret in a
game without a referee, and what is derived from it (docs/format.md, "A seat's secret").

Only what the file and Froglet's deal need: the seed commitment, the public seed and the
deal key, each as the spec derives it.
"""

from __future__ import annotations

import os

from frogpbem.crypto.digest import canonical_json, sha256_tag, sha512
from frogpbem.frozen import frozen


@frozen
class SeatSecret:
    """A seat's 32 random bytes (hex) in one game."""

    game: str
    seat: str
    secret: str

    @classmethod
    def new(cls, game: str, seat: str) -> SeatSecret:
        return cls(game, seat, os.urandom(32).hex())

    def _fields(self) -> dict[str, str]:
        return {"game": self.game, "seat": self.seat, "secret": self.secret}

    def _derived(self, label: str, extra: dict[str, str | int] | None = None) -> bytes:
        fields: dict[str, str | int] = {**self._fields(), **(extra or {})}
        return sha512(f"frogpbem/1 {label}\n".encode() + canonical_json(fields))

    def seed_commitment(self) -> str:
        return sha256_tag(b"frogpbem/1 duel-seed\n" + canonical_json(self._fields()))

    def public_seed(self) -> str:
        return self._derived("duel-public")[:32].hex()

    def deal_key(self, other_public: str, attempt: int) -> bytes:
        return self._derived("duel-deal", {"other": other_public, "attempt": attempt})[:32]
