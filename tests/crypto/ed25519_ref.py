"""An independent reference for the tests of games without a referee: Ed25519 in pure
Python (RFC 8032 section 5.1: decoding, encoding, extended-coordinate addition), and the
spec's proof (docs/format.md, "Proofs") written again from its text, with hashlib and the
standard library's JSON. Nothing here imports frogpbem or nacl."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)

Pt = tuple[int, int, int, int]
"""Extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, x·y = T/Z."""
IDENTITY: Pt = (0, 1, 1, 0)


def add(a: Pt, b: Pt) -> Pt:
    """RFC 8032 5.1.4 (complete: doubling too)."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa, bb = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    cc, dd = t1 * 2 * D * t2 % P, z1 * 2 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def neg(a: Pt) -> Pt:
    x, y, z, t = a
    return (-x % P, y, z, -t % P)


def sub(a: Pt, b: Pt) -> Pt:
    return add(a, neg(b))


def mul(k: int, a: Pt) -> Pt:
    """Double and add; ``k`` taken as it is (not reduced), so ``L·P`` tests the order."""
    result = IDENTITY
    while k > 0:
        if k & 1:
            result = add(result, a)
        a = add(a, a)
        k >>= 1
    return result


def equal(a: Pt, b: Pt) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def recover_x(y: int, sign: int) -> int | None:
    """RFC 8032 5.1.3 step 2-4."""
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P:
        return None
    return P - x if (x & 1) != sign else x


def decode(data: bytes) -> Pt | None:
    """RFC 8032 5.1.3: None for a non-canonical ``y`` or a point off the curve."""
    if len(data) != 32:
        return None
    n = int.from_bytes(data, "little")
    y, sign = n & ((1 << 255) - 1), n >> 255
    x = recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % P)


def encode(a: Pt) -> bytes:
    """RFC 8032 5.1.2."""
    zi = pow(a[2], P - 2, P)
    x, y = a[0] * zi % P, a[1] * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def valid(data: bytes) -> bool:
    """Canonical, on the curve, in the prime-order subgroup, not of small order."""
    a = decode(data)
    return a is not None and not equal(mul(8, a), IDENTITY) and equal(mul(L, a), IDENTITY)


B_Y = 4 * pow(5, P - 2, P) % P
BASE: Pt = (recover_x(B_Y, 0) or 0, B_Y, 1, (recover_x(B_Y, 0) or 0) * B_Y % P)


def generator_g() -> tuple[int, Pt]:
    c = 0
    while True:
        data = hashlib.sha256(b"frogpbem/1 generator G\n" + c.to_bytes(4, "big")).digest()
        if valid(data):
            point = decode(data)
            assert point is not None
            return c, point
        c += 1


G_COUNTER, G = generator_g()
H = BASE


def commit(b: int, r: int) -> Pt:
    return add(mul(b % L, G), mul(r % L, H))


# --- the proof, from the spec's text --------------------------------------------------------

Eq = tuple[int, Pt, Pt]


def cjson(value: object) -> bytes:
    """RFC 8785 for ASCII strings, safe integers, lists and objects."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def shex(k: int) -> str:
    return (k % L).to_bytes(32, "little").hex()


def phex(a: Pt) -> str:
    return encode(a).hex()


def reduce512(data: bytes) -> int:
    return int.from_bytes(hashlib.sha512(data).digest(), "little") % L


def statement_json(branches: Sequence[Sequence[Eq]]) -> list[list[list[object]]]:
    return [[[w, phex(b), phex(y)] for w, b, y in branch] for branch in branches]


def challenge(tag: str, context: Mapping[str, object], branches: Sequence[Sequence[Eq]],
              first: Sequence[Sequence[Pt]]) -> int:
    t = {"tag": tag, "context": dict(context), "statement": statement_json(branches),
         "first": [[phex(a) for a in row] for row in first]}
    return reduce512(b"frogpbem/1 proof\n" + cjson(t))


def nonce_stream(tag: str, context: Mapping[str, object], branches: Sequence[Sequence[Eq]],
                 key: bytes, witness: Sequence[int]) -> Iterator[int]:
    body = {"tag": tag, "context": dict(context), "statement": statement_json(branches),
            "key": key.hex(), "witness": [shex(x) for x in witness]}
    seed = hashlib.sha512(b"frogpbem/1 nonce\n" + cjson(body)).digest()
    j = 0
    while True:
        yield reduce512(seed + j.to_bytes(4, "big"))
        j += 1


def witnesses_count(branches: Sequence[Sequence[Eq]]) -> int:
    return 1 + max(w for branch in branches for w, _, _ in branch)


def prove(tag: str, context: Mapping[str, object], branches: Sequence[Sequence[Eq]], tau: int,
          witness: Sequence[int], key: bytes = b"",
          stream: Callable[[], Iterator[int]] | None = None) -> list[int]:
    """The spec's prover, checking nothing: it proves false statements as readily (the
    tests need such proofs), and takes another nonce stream if given one."""
    m = witnesses_count(branches)
    draw = stream() if stream else nonce_stream(tag, context, branches, key, witness)
    u = [next(draw) for _ in range(m)]
    es: dict[int, int] = {}
    zs: dict[int, list[int]] = {}
    first = []
    for i, branch in enumerate(branches):
        if i == tau:
            first.append([mul(u[w], b) for w, b, _ in branch])
        else:
            es[i] = next(draw)
            zs[i] = [next(draw) for _ in range(m)]
            first.append([sub(mul(zs[i][w], b), mul(es[i], y)) for w, b, y in branch])
    e = challenge(tag, context, branches, first)
    es[tau] = (e - sum(es.values())) % L
    zs[tau] = [(u[w] + es[tau] * witness[w]) % L for w in range(m)]
    return [s for i in range(len(branches)) for s in (es[i], *zs[i])]


def verify(tag: str, context: Mapping[str, object], branches: Sequence[Sequence[Eq]],
           scalars: Sequence[int], refuse_zero: bool = True) -> bool:
    m, q = witnesses_count(branches), len(branches)
    if len(scalars) != q * (1 + m) or any(not 0 <= s < L for s in scalars):
        return False
    if refuse_zero and 0 in scalars:
        return False
    es = [scalars[i * (1 + m)] for i in range(q)]
    zs = [scalars[i * (1 + m) + 1:(i + 1) * (1 + m)] for i in range(q)]
    first = [[sub(mul(zs[i][w], b), mul(es[i], y)) for w, b, y in branch]
             for i, branch in enumerate(branches)]
    return sum(es) % L == challenge(tag, context, branches, first)


def bit(c: Pt) -> list[list[Eq]]:
    return [[(0, H, c)], [(0, H, sub(c, G))]]


def mask(p: Pt, c: Pt, d: Pt) -> list[list[Eq]]:
    """Branch b: C − b·G = r·H, P = x·H, D = r·P (witnesses r, x)."""
    return [[(0, H, sub(c, mul(b, G)) if b else c), (1, H, p), (0, p, d)] for b in (0, 1)]


def empty(c: Pt) -> list[list[Eq]]:
    return [[(0, H, c)]]


def select(k: Pt, c: Pt, d: Pt, p: Pt, e: Pt, f: Pt) -> list[list[Eq]]:
    return [[(0, H, k), (1, H, e), (1, p, f)],
            [(0, H, sub(k, G)), (1, H, sub(e, c)), (1, p, sub(f, d))]]


def overlap(p: Pt, s_e: Pt, s_f: Pt, m: int) -> list[list[Eq]]:
    return [[(0, H, p), (0, sub(s_e, mul(m, G)), s_f)]]
