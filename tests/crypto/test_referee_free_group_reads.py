"""Points read again, sums with the identity, and the multiples made without a general
multiplication: the remembered validity check gives the verdict of the independent
reference (tests/crypto/ed25519_ref.py) every time, and no shortcut changes a point."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.crypto.group import G, H, L, Point, Scalar, commit, total
from frogpbem.errors import ProofError
from tests.crypto import ed25519_ref as ref
from tests.crypto.test_referee_free_zk import torsion

scalars = st.integers(min_value=1, max_value=L - 1)


def verdict(data: bytes) -> bool:
    """Whether Point.from_hex accepts ``data`` (and then gives back exactly those bytes)."""
    try:
        point = Point.from_hex(data.hex(), "P")
    except ProofError:
        return False
    assert point.encoded == data
    return True


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_referee_free_any_bytes_read_twice_get_the_references_verdict(data: bytes) -> None:
    expected = ref.valid(data)
    assert verdict(data) is expected
    assert verdict(data) is expected


@settings(max_examples=15, deadline=None)
@given(k=scalars, t=st.integers(1, 7))
def test_referee_free_a_mixed_order_neighbour_of_a_point_read_is_refused(k: int, t: int
                                                                        ) -> None:
    good = ref.commit(1, k)
    mixed = ref.encode(ref.add(good, ref.decode(torsion()[t]) or ref.BASE))
    assert verdict(ref.encode(good))
    assert not verdict(mixed)
    assert not verdict(mixed)  # refused again, not taken for the point read before
    assert verdict(ref.encode(good))


@pytest.mark.parametrize("t", range(8))
def test_referee_free_small_order_points_stay_refused_when_read_again(t: int) -> None:
    for _ in range(3):
        with pytest.raises(ProofError, match="is not a valid point"):
            Point.from_hex(torsion()[t].hex(), "P")


@settings(max_examples=20, deadline=None)
@given(r=scalars, b=st.integers(0, 1))
def test_referee_free_the_identity_adds_and_subtracts_as_nothing(r: int, b: int) -> None:
    point = commit(b, Scalar(r))
    zero = Point.identity()
    assert point + zero == point == zero + point
    assert point - zero == point
    assert (zero - point).hex() == ref.phex(ref.neg(ref.commit(b, r)))
    assert (point - point).is_identity and (zero + zero).is_identity
    assert commit(0, Scalar(r)) == Scalar(r) * H
    assert commit(b, Scalar(r)).hex() == ref.phex(ref.commit(b, r))
    assert total([point]) == point and total([zero, point, zero]) == point
    assert total([point, G]).hex() == ref.phex(ref.add(ref.commit(b, r), ref.G))


@pytest.mark.parametrize("k", [2, 3, 8, 16, 63, 64, 65, 1000, L - 1])
def test_referee_free_multiples_of_g_and_h_are_the_references(k: int) -> None:
    """Small multiples of G are made by additions, multiples of H (the base point) from
    libsodium's table: both as the reference multiplies, on either side of the limit."""
    assert (Scalar(k) * G).hex() == ref.phex(ref.mul(k, ref.G))
    assert (k * G).hex() == ref.phex(ref.mul(k, ref.G))
    assert (Scalar(k) * H).hex() == ref.phex(ref.mul(k, ref.BASE))
