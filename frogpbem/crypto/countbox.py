"""The count box of a Frog Finder shot without a referee (docs/format.md, "Frog Finder
without a referee").

The mover of a shot puts its own count around the square, ``k_M`` and its blinding sum
``R_M``, in a box that only the answerer can open, and only if the answerer has no frog
on the shot square. The box has two keys: ``y·C`` for the answerer's commitment ``C``
there and ``y·A`` for the answerer's box key ``A = a·H``, with the mover's ``Y = y·H``.
With no frog ``C = r·H`` and the answerer computes ``r·Y`` and ``a·Y``; with a frog
``C = G + r·H``, it would need ``y·G``. A spectator who isolates ``r`` from public sums
still lacks ``a·Y``. The answerer can show both keys with a ``box`` proof, so that anyone
opens a box it says is false.
"""

from __future__ import annotations

from collections.abc import Mapping

from frogpbem.crypto.digest import canonical_json, sha512
from frogpbem.crypto.group import H, L, Point, Scalar
from frogpbem.errors import ProofError

COUNT_BOX_PREFIX = b"frogpbem/1 count-box\n"
BOX_LENGTH = 33
"""The count (1 byte) and its blinding (32 bytes, little-endian)."""
BOX_CONTEXT = ("game", "header", "seat", "n", "square")
"""What a box is about: its game, header, the moving seat, the move's number and square."""


def _pad(context: Mapping[str, str | int], y_point: Point, key: Point, shared: Point
         ) -> bytes:
    """The first 33 bytes of ``SHA-512(prefix + canonical_json(context + {Y, key,
    shared}))``."""
    missing = [name for name in BOX_CONTEXT if name not in context]
    if missing:
        raise ProofError(f"the context of a count box lacks {', '.join(missing)}")
    body = dict(context) | {"Y": y_point.hex(), "key": key.hex(), "shared": shared.hex()}
    return sha512(COUNT_BOX_PREFIX + canonical_json(body))[:BOX_LENGTH]


def _xor(left: bytes, right: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(left, right, strict=True))


def seal_count(context: Mapping[str, str | int], y: Scalar, answering: Point,
               box_key: Point, count: int, blinding: Scalar) -> tuple[Point, bytes]:
    """``(Y, box)``: the mover's ``count`` (0..255) and ``blinding`` sealed under
    ``y·answering`` and ``y·box_key``, where ``answering`` is the answerer's commitment at
    the square and ``box_key`` its box key ``A``."""
    if y.is_zero():
        raise ValueError("a count key is never zero")
    if not 0 <= count <= 255:
        raise ValueError("a count is one byte")
    y_point = y * H
    plain = bytes([count]) + blinding.to_bytes()
    return y_point, _xor(plain, _pad(context, y_point, y * answering, y * box_key))


def box_keys(y_point: Point, opening: Scalar, box_secret: Scalar) -> tuple[Point, Point]:
    """``(Z1, Z2) = (r·Y, a·Y)``: the two keys of a box, as the answerer computes them from
    its blinding ``r`` at the square and the key ``a`` of its box key."""
    return opening * y_point, box_secret * y_point


def open_count(context: Mapping[str, str | int], y_point: Point, box: bytes, key: Point,
               shared: Point) -> tuple[int, Scalar] | None:
    """The box's ``(count, blinding)`` opened with its two keys (:func:`box_keys`, or those
    a complaint shows), or ``None`` where the bytes hold no scalar. With wrong keys what
    comes out is noise: check it against the mover's commitments before trusting it."""
    if len(box) != BOX_LENGTH:
        raise ProofError(f"a count box is {BOX_LENGTH} bytes, not {len(box)}")
    plain = _xor(box, _pad(context, y_point, key, shared))
    value = int.from_bytes(plain[1:], "little")
    return (plain[0], Scalar(value)) if value < L else None
