"""The prime-order group of Ed25519, for games without a referee (docs/format.md, "The group").

Points are 32-byte compressed Edwards encodings, handled by libsodium through PyNaCl;
scalars are integers below ``L``, computed with Python's own integers (exact, and no
slower than a call into libsodium for one addition). A point or scalar read from a
file goes through :meth:`Point.from_hex` or :meth:`Scalar.from_hex`, which refuse
anything the spec refuses. The identity only ever comes out of arithmetic (``0·G``,
``C − C``): it is never a valid point in a file, and libsodium is never asked to
multiply it or by zero.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from nacl import bindings
from nacl.exceptions import RuntimeError as NaclRuntimeError

from frogpbem.crypto.digest import sha256, sha512
from frogpbem.errors import ProofError
from frogpbem.frozen import frozen

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup (ℓ)."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_IDENTITY = b"\x01" + bytes(31)
GENERATOR_G_PREFIX = b"frogpbem/1 generator G\n"


def _hex32(text: object, what: str, kind: str) -> bytes:
    """The 32 bytes of 64 lower-case hex digits, or a ProofError naming ``what``."""
    if not isinstance(text, str) or _HEX64.fullmatch(text) is None:
        raise ProofError(f"{what} is not a {kind} (64 lower-case hex digits)")
    return bytes.fromhex(text)


@frozen(slots=True)
class Scalar:
    """An integer modulo ``L``, kept as its least non-negative value."""

    value: int

    def __post_init__(self) -> None:
        if not 0 <= self.value < L:
            raise ValueError("a scalar is an integer in 0 .. L - 1")

    @classmethod
    def of(cls, value: int) -> Scalar:
        """``value`` modulo ``L`` (any integer, negative ones too)."""
        return cls(value % L)

    @classmethod
    def from_hex(cls, text: object, what: str) -> Scalar:
        """A scalar read from a file: 32 bytes little-endian, strictly below ``L``."""
        value = int.from_bytes(_hex32(text, what, "scalar"), "little")
        if value >= L:
            raise ProofError(f"{what} is not a canonical scalar (it is not below the group order)")
        return cls(value)

    @classmethod
    def from_wide(cls, data: bytes) -> Scalar:
        """``reduce(B)`` of the spec: 64 bytes, little-endian, modulo ``L``."""
        if len(data) != 64:
            raise ValueError("reduce takes 64 bytes")
        return cls(int.from_bytes(data, "little") % L)

    def to_bytes(self) -> bytes:
        return self.value.to_bytes(32, "little")

    def hex(self) -> str:
        return self.to_bytes().hex()

    def is_zero(self) -> bool:
        return self.value == 0

    def __add__(self, other: Scalar) -> Scalar:
        return Scalar((self.value + other.value) % L)

    def __sub__(self, other: Scalar) -> Scalar:
        return Scalar((self.value - other.value) % L)

    def __mul__(self, other: Scalar) -> Scalar:
        if not isinstance(other, Scalar):
            return NotImplemented  # a Point multiplies itself: Point.__rmul__
        return Scalar((self.value * other.value) % L)

    def __neg__(self) -> Scalar:
        return Scalar(-self.value % L)

    def inverse(self) -> Scalar:
        """The multiplicative inverse; zero has none (ValueError)."""
        if self.value == 0:
            raise ValueError("zero has no inverse")
        return Scalar(pow(self.value, -1, L))


def hash_to_scalar(data: bytes) -> Scalar:
    """``reduce(SHA-512(data))``."""
    return Scalar.from_wide(sha512(data))


@lru_cache(maxsize=4096)
def _valid_encoding(encoded: bytes) -> bool:
    """libsodium's check that ``encoded`` is a canonical point of the prime-order subgroup
    and not of small order, remembered for the last few thousand encodings: a game's
    commitments are read again by every check that replays the file, and the check costs
    a multiplication by ``L``. Only public points are ever looked at, and an answer is
    kept for exactly those 32 bytes."""
    return bool(bindings.crypto_core_ed25519_is_valid_point(encoded))


@frozen(slots=True)
class Point:
    """A point of the prime-order subgroup, or the identity, as its canonical encoding."""

    encoded: bytes

    @classmethod
    def from_hex(cls, text: object, what: str) -> Point:
        """A point read from a file: canonical, on the curve, in the prime-order subgroup,
        not of small order (so never the identity)."""
        encoded = _hex32(text, what, "point")
        if not _valid_encoding(encoded):
            raise ProofError(f"{what} is not a valid point of the prime-order group")
        return cls(encoded)

    @classmethod
    def identity(cls) -> Point:
        return cls(_IDENTITY)

    @property
    def is_identity(self) -> bool:
        return self.encoded == _IDENTITY

    def hex(self) -> str:
        return self.encoded.hex()

    def __add__(self, other: Point) -> Point:
        # Adding the identity gives the other point back, as libsodium would: each call
        # costs as much as a signature (two decodings and an encoding), so none is made
        # for it (``commit(0, r)`` is then ``r·H`` alone, and a sum starts at its first
        # point).
        if other.encoded == _IDENTITY:
            return self
        if self.encoded == _IDENTITY:
            return other
        return Point(bindings.crypto_core_ed25519_add(self.encoded, other.encoded))

    def __sub__(self, other: Point) -> Point:
        if other.encoded == _IDENTITY:
            return self
        return Point(bindings.crypto_core_ed25519_sub(self.encoded, other.encoded))

    def __neg__(self) -> Point:
        return Point(_IDENTITY) - self

    def __rmul__(self, factor: Scalar | int) -> Point:
        k = factor.value if isinstance(factor, Scalar) else factor % L
        if k == 0 or self.is_identity:
            return Point(_IDENTITY)
        if k == 1:
            return self
        if k < SMALL and self.encoded == _G_ENCODED:
            return _small_multiple(k)
        n = k.to_bytes(32, "little")
        try:
            if self.encoded == _BASE:
                return Point(bindings.crypto_scalarmult_ed25519_base_noclamp(n))
            return Point(bindings.crypto_scalarmult_ed25519_noclamp(n, self.encoded))
        except NaclRuntimeError:
            raise ProofError("a point is outside the prime-order group") from None

    def __repr__(self) -> str:
        return f"Point({self.hex()})"


_BASE = bindings.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))


def generator_g() -> tuple[int, Point]:
    """``G`` by try-and-increment, with its counter ``c``: the first valid
    ``SHA-256(prefix + c as 4 bytes big-endian)``."""
    c = 0
    while True:
        candidate = sha256(GENERATOR_G_PREFIX + c.to_bytes(4, "big"))
        if bindings.crypto_core_ed25519_is_valid_point(candidate):
            return c, Point(candidate)
        c += 1


G = generator_g()[1]
"""The generator of committed values, whose logarithm to ``H`` nobody knows."""
_G_ENCODED = G.encoded
SMALL = 64
"""``k·G`` for ``k`` below this (a count, a number of frogs) is made by additions."""


@lru_cache(maxsize=SMALL)
def _small_multiple(k: int) -> Point:
    """``k·G`` for a small ``k`` ≥ 1, each from the one before (an addition costs a
    fifth of a multiplication by a point other than the base point)."""
    return G if k == 1 else _small_multiple(k - 1) + G
H = Point(_BASE)
"""The Ed25519 base point, the generator of blindings: every blinding, proof response
and key multiplies it, and libsodium multiplies the base point from a precomputed table,
about five times faster than any other point."""


def commit(b: int, r: Scalar) -> Point:
    """``b·G + r·H``: a commitment to ``b`` with blinding ``r``."""
    return b * G + r * H


def total(points: Iterable[Point]) -> Point:
    """The sum of ``points`` (the identity for none)."""
    result = Point.identity()
    for point in points:
        result = result + point
    return result


def opens_to(point: Point, k: int, r: Scalar) -> bool:
    """Whether ``point = k·G + r·H`` (checked as ``point = r·H`` when ``k = 0``)."""
    return point == commit(k, r)
