"""A seat's secret and what it derives (docs/format.md, "A seat's secret"), recomputed
here with hashlib and the standard library's JSON from the spec's text."""

from __future__ import annotations

import hashlib
import json

import pytest

from frogpbem.crypto import DerivedChance, SeatSecret
from frogpbem.crypto.group import L, Scalar

SECRET = "00" * 31 + "01"
F = {"game": "g-7", "seat": "red", "secret": SECRET}
SEAT = SeatSecret("g-7", "red", SECRET)


def cjson(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def derived(label: str, **extra: object) -> bytes:
    """``D(label, F + extra)`` from the spec."""
    return hashlib.sha512(b"frogpbem/1 " + label.encode() + b"\n" + cjson({**F, **extra})).digest()


def reduced(data: bytes) -> int:
    return int.from_bytes(data, "little") % L


def test_referee_free_seed_commitment_and_public_seed() -> None:
    expected = hashlib.sha256(b"frogpbem/1 duel-seed\n" + cjson(F)).hexdigest()
    assert SEAT.seed_commitment() == "sha256:" + expected
    assert SEAT.public_seed() == derived("duel-public")[:32].hex()
    assert len(SEAT.public_seed()) == 64


@pytest.mark.parametrize("attempt", [0, 1, 12])
def test_referee_free_deal_key_and_scalars(attempt: int) -> None:
    other = "ab" * 32
    assert SEAT.deal_key(other, attempt) == derived("duel-deal", other=other,
                                                    attempt=attempt)[:32]
    assert SEAT.mask_key(attempt) == Scalar(reduced(derived("duel-mask", attempt=attempt)))
    for square in ("A1", "L12"):
        assert SEAT.blinding(attempt, square) == \
            Scalar(reduced(derived("duel-blind", attempt=attempt, square=square)))
        assert SEAT.selection(attempt, square) == \
            Scalar(reduced(derived("duel-select", attempt=attempt, square=square)))
    assert SEAT.nonce_key() == derived("duel-nonce")[:32]


def test_referee_free_every_field_changes_every_derivation() -> None:
    others = [SeatSecret("g-8", "red", SECRET), SeatSecret("g-7", "blue", SECRET),
              SeatSecret("g-7", "red", "00" * 31 + "02")]
    for other in others:
        assert other.seed_commitment() != SEAT.seed_commitment()
        assert other.public_seed() != SEAT.public_seed()
        assert other.nonce_key() != SEAT.nonce_key()
        assert other.blinding(0, "A1") != SEAT.blinding(0, "A1")
    assert SEAT.blinding(0, "A1") not in (SEAT.blinding(1, "A1"), SEAT.blinding(0, "B1"),
                                          SEAT.selection(0, "A1"))


def test_referee_free_a_new_secret_is_fresh_and_well_formed() -> None:
    made = [SeatSecret.new("g-7", "blue") for _ in range(4)]
    assert len({m.secret for m in made}) == 4
    for m in made:
        assert (m.game, m.seat) == ("g-7", "blue")
        assert len(m.secret) == 64 and bytes.fromhex(m.secret).hex() == m.secret
        assert not m.mask_key(0).is_zero()


def test_referee_free_the_deal_key_drives_the_fair_dealer() -> None:
    first = DerivedChance(SEAT.deal_key("cd" * 32, 0))
    again = DerivedChance(SEAT.deal_key("cd" * 32, 0))
    draws = [first.randrange(144) for _ in range(10)]
    assert draws == [again.randrange(144) for _ in range(10)]
    other = DerivedChance(SEAT.deal_key("cd" * 32, 1))
    assert draws != [other.randrange(144) for _ in range(10)]
