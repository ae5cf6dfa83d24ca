"""Provably fair dealing: seed commitments and the deterministic dealer.

The derivation (documented in the README):

    key   = SHA-256("frogpbem/1 deal-key\\n" + canonical_json(
                {"game": GAME, "referee_seed": HEX, "player_seeds": {SEAT: HEX, ...}}))
    block = HMAC-SHA256(key, counter as 8 bytes big-endian), counter = 0, 1, 2, ...
    randrange(n): take ceil(bits(n - 1) / 8) bytes of the stream, big-endian,
                  keep the low bits(n - 1) bits, retry while the value >= n
                  (rejection sampling: uniform, no modulo bias)

and the games shuffle with Fisher-Yates over ``randrange`` only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from frogpbem.crypto.digest import (
    DEAL_KEY_PREFIX,
    SEED_PREFIX,
    canonical_json,
    hmac_sha256,
    sha256,
    sha256_tag,
)

SCHEME = "frogpbem-deal-1"
"""The name of this derivation, written in every header that uses it."""


def new_seed() -> str:
    """32 random bytes from the operating system, hex."""
    return os.urandom(32).hex()


def seed_commitment(game: str, seed: str) -> str:
    """The header's commitment to the referee's seed."""
    return sha256_tag(SEED_PREFIX + canonical_json({"game": game, "seed": seed}))


def deal_key(game: str, referee_seed: str, player_seeds: Mapping[str, str]) -> bytes:
    """The dealer's key, from every seed."""
    body = canonical_json(
        {"game": game, "referee_seed": referee_seed, "player_seeds": dict(player_seeds)}
    )
    return sha256(DEAL_KEY_PREFIX + body)


class DerivedChance:
    """Uniform choices drawn from an HMAC-SHA256 stream under a key."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._buffer = b""

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += hmac_sha256(self._key, self._counter.to_bytes(8, "big"))
            self._counter += 1
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def randrange(self, stop: int, /) -> int:
        """A uniform integer in ``0 .. stop - 1``, by rejection sampling."""
        if stop <= 0:
            raise ValueError("empty range")
        bits = (stop - 1).bit_length()
        if bits == 0:
            return 0
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._take((bits + 7) // 8), "big") & mask
            if value < stop:
                return value
