"""The one zero-knowledge proof of games without a referee (docs/format.md, "Proofs").

A statement is a set of branches, each a list of equations ``Y = x_w·B``; a proof
shows that one branch holds for scalars the prover knows, without saying which
(Cramer–Damgård–Schoenmakers OR of Schnorr proofs, Fiat–Shamir over the whole
statement). Nonces are derived from a secret key, the statement and the witness, as
EdDSA derives its own: proving is deterministic and one nonce never serves two
statements. The statements the games use are built here, so that prover and
verifier cannot disagree on a base or a target, and each builder refuses a context
without the keys the spec's table gives its tag (:data:`CONTEXT_KEYS`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from frogpbem.crypto.digest import canonical_json, sha512
from frogpbem.crypto.group import G, H, Point, Scalar, hash_to_scalar
from frogpbem.errors import ProofError
from frogpbem.frozen import frozen

PROOF_PREFIX = b"frogpbem/1 proof\n"
NONCE_PREFIX = b"frogpbem/1 nonce\n"
TAGS = ("bit", "mask", "select", "overlap", "legal", "empty", "box")
"""Every statement's tag (docs/format.md, "Proofs")."""
CONTEXT_KEYS: Mapping[str, tuple[str, ...]] = {
    "bit": ("game", "header", "seat", "attempt", "square"),
    "mask": ("game", "header", "seat", "attempt", "square"),
    "select": ("game", "header", "seat", "attempt", "square"),
    "overlap": ("game", "header", "seat", "attempt", "count"),
    "legal": ("game", "header", "seat", "n", "move"),
    "empty": ("game", "header", "seat", "n", "square"),
    "box": ("game", "header", "seat", "n", "square"),
}
"""The keys each tag's context must hold (the spec's table of statements)."""

Equation = tuple[int, Point, Point]
"""``(w, B, Y)``: ``Y = x_w·B``."""
Context = Mapping[str, str | int]


@frozen
class Statement:
    """What a proof proves: ``tag``, ``context`` and the branches, one of which holds."""

    tag: str
    context: Context
    branches: tuple[tuple[Equation, ...], ...]

    @property
    def witnesses(self) -> int:
        """``m``: how many secret scalars each branch uses."""
        return 1 + max(w for branch in self.branches for w, _, _ in branch)

    @property
    def size(self) -> int:
        """How many scalars a proof of this statement has: ``q·(1 + m)``."""
        return len(self.branches) * (1 + self.witnesses)

    def to_json(self) -> list[list[list[int | str]]]:
        """The branches as the challenge hashes them: ``[[[w, B, Y], …], …]``, points hex."""
        return [[[w, base.hex(), target.hex()] for w, base, target in branch]
                for branch in self.branches]


@frozen
class Proof:
    """Per branch ``i``, the challenge ``e_i`` then the responses ``z_{i,0} … z_{i,m-1}``."""

    scalars: tuple[Scalar, ...]

    def to_json(self) -> list[str]:
        return [scalar.hex() for scalar in self.scalars]

    @classmethod
    def from_json(cls, data: object, statement: Statement, what: str) -> Proof:
        """A proof read from a file, refused (ProofError naming ``what``) unless it is a list
        of as many canonical scalars as ``statement`` needs."""
        if not isinstance(data, list):
            raise ProofError(f"{what} is not a list of scalars")
        if len(data) != statement.size:
            raise ProofError(f"{what} has {len(data)} scalars, not {statement.size}")
        return cls(tuple(Scalar.from_hex(item, f"scalar {index} of {what}")
                         for index, item in enumerate(data)))

    def challenges(self, statement: Statement) -> list[tuple[Scalar, tuple[Scalar, ...]]]:
        """Per branch, ``(e_i, (z_{i,0}, …))``."""
        step = 1 + statement.witnesses
        return [(self.scalars[i * step], self.scalars[i * step + 1:(i + 1) * step])
                for i in range(len(statement.branches))]


def _challenge(statement: Statement, first: Sequence[Sequence[Point]]) -> Scalar:
    """``e``: SHA-512 of the whole statement and every first message, reduced."""
    body = {"tag": statement.tag, "context": dict(statement.context),
            "statement": statement.to_json(),
            "first": [[a.hex() for a in branch] for branch in first]}
    return hash_to_scalar(PROOF_PREFIX + canonical_json(body))


def _simulated(branch: tuple[Equation, ...], e: Scalar, z: Sequence[Scalar]) -> list[Point]:
    """``A_k = z_w·B − e·Y`` for each equation of ``branch``."""
    return [z[w] * base - e * target for w, base, target in branch]


def _nonces(statement: Statement, witnesses: Sequence[Scalar], nonce_key: bytes
            ) -> Iterator[Scalar]:
    """The prover's stream: ``reduce(SHA-512(seed + j as 4 bytes big-endian))``."""
    body = {"tag": statement.tag, "context": dict(statement.context),
            "statement": statement.to_json(), "key": nonce_key.hex(),
            "witness": [x.hex() for x in witnesses]}
    seed = sha512(NONCE_PREFIX + canonical_json(body))
    j = 0
    while True:
        yield hash_to_scalar(seed + j.to_bytes(4, "big"))
        j += 1


def holds(branch: tuple[Equation, ...], witnesses: Sequence[Scalar]) -> bool:
    """Whether every equation of ``branch`` holds for ``witnesses``."""
    return all(w < len(witnesses) and witnesses[w] * base == target
               for w, base, target in branch)


def prove(statement: Statement, true_branch: int, witnesses: Sequence[Scalar],
          nonce_key: bytes) -> Proof:
    """A proof of ``statement`` from the witnesses of its branch ``true_branch``.

    Raises ValueError if they do not satisfy that branch: a false proof is never made.
    """
    m, q = statement.witnesses, len(statement.branches)
    if not 0 <= true_branch < q or len(witnesses) != m \
            or not holds(statement.branches[true_branch], witnesses):
        raise ValueError(f"the witnesses do not satisfy branch {true_branch} of the "
                         f"{statement.tag} statement")
    stream = _nonces(statement, witnesses, nonce_key)
    u = [next(stream) for _ in range(m)]
    parts: dict[int, tuple[Scalar, tuple[Scalar, ...]]] = {}
    first: list[list[Point]] = []
    for i, branch in enumerate(statement.branches):
        if i == true_branch:
            first.append([u[w] * base for w, base, _ in branch])
        else:
            e_i = next(stream)
            z_i = tuple(next(stream) for _ in range(m))
            parts[i] = (e_i, z_i)
            first.append(_simulated(branch, e_i, z_i))
    e_true = _challenge(statement, first)
    for e_i, _ in parts.values():
        e_true = e_true - e_i
    parts[true_branch] = (e_true, tuple(u[w] + e_true * witnesses[w] for w in range(m)))
    scalars = tuple(s for i in range(q) for s in (parts[i][0], *parts[i][1]))
    if any(s.is_zero() for s in scalars):  # probability about 2^-250: draw nothing else
        raise ValueError("a proof scalar came out zero: use another nonce key")
    return Proof(scalars)


def first_messages(statement: Statement, proof: Proof) -> tuple[Point, ...]:
    """Every distinct ``A_{i,k}`` of ``proof``, in order: two proofs sharing one reused a
    nonce. A point repeated within one proof counts once: a statement may name one base
    twice for one witness (a complaint against a box whose key ``Y`` is ``H``), which
    reuses nothing."""
    return tuple(dict.fromkeys(a for branch, (e, z) in zip(
        statement.branches, proof.challenges(statement), strict=True)
        for a in _simulated(branch, e, z)))


def verify(statement: Statement, proof: Proof, what: str) -> None:
    """Raise ProofError (``what`` does not hold) unless ``proof`` proves ``statement``."""
    verified_first_messages(statement, proof, what)


def verified_first_messages(statement: Statement, proof: Proof, what: str
                            ) -> tuple[Point, ...]:
    """:func:`verify`, returning :func:`first_messages` made on the way (a game's check
    for a reused nonce needs them, and they cost as much as the proof): each distinct
    point once."""
    if len(proof.scalars) != statement.size:
        raise ProofError(f"{what} has {len(proof.scalars)} scalars, not {statement.size}")
    if any(s.is_zero() for s in proof.scalars):
        raise ProofError(f"{what} has a zero scalar")
    parts = proof.challenges(statement)
    first = [_simulated(branch, e, z) for branch, (e, z) in zip(statement.branches, parts,
                                                                 strict=True)]
    total = Scalar(0)
    for e, _ in parts:
        total = total + e
    if total != _challenge(statement, first):
        raise ProofError(f"{what} does not hold")
    return tuple(dict.fromkeys(a for row in first for a in row))


def _context(tag: str, context: Context) -> dict[str, str | int]:
    """``context`` as a plain dict, or ProofError unless it holds every key ``tag`` needs."""
    missing = [key for key in CONTEXT_KEYS[tag] if key not in context]
    if missing:
        raise ProofError(f"the context of a {tag} proof lacks {', '.join(missing)}")
    return dict(context)


def bit_statement(context: Context, c: Point) -> Statement:
    """``C`` commits to 0 (branch 0) or 1 (branch 1); the witness is its blinding."""
    return Statement("bit", _context("bit", context), (((0, H, c),), ((0, H, c - G),)))


def mask_statement(context: Context, p: Point, c: Point, d: Point) -> Statement:
    """Branch ``b``: ``C − b·G = r·H``, ``P = x·H`` and ``D = r·P`` (witnesses ``r``, ``x``).

    So ``b`` is the bit ``C`` commits to (only its branch has a blinding ``r``), and
    ``D = r·x·H = x·(C − b·G)``: the mask cannot be made for the other bit.
    """
    return Statement("mask", _context("mask", context), tuple(
        ((0, H, c - b * G), (1, H, p), (0, p, d)) for b in (0, 1)))


def select_statement(context: Context, k: Point, c: Point, d: Point, p: Point,
                     e: Point, f: Point) -> Statement:
    """``(E, F)`` is ``t·(H, P)`` if ``K`` commits to 0 (branch 0), ``(C, D) + t·(H, P)``
    if it commits to 1 (branch 1); witnesses: ``K``'s blinding, then ``t``."""
    return Statement("select", _context("select", context), (
        ((0, H, k), (1, H, e), (1, p, f)),
        ((0, H, k - G), (1, H, e - c), (1, p, f - d))))


def overlap_statement(context: Context, p: Point, s_e: Point, s_f: Point, m: int,
                      frogs: int) -> Statement:
    """``S_F = x·(S_E − m·G)`` for the key ``x`` of ``P = x·H``: one branch. ``m`` is a
    whole number 0..``frogs`` (not a bool), else ProofError."""
    if type(m) is not int or not 0 <= m <= frogs:
        raise ProofError(f"an overlap count is a whole number 0..{frogs}, not {m!r}")
    return Statement("overlap", _context("overlap", context),
                     (((0, H, p), (0, s_e - m * G, s_f)),))


def empty_statement(context: Context, c: Point) -> Statement:
    """``C = r·H``: the answering seat has no frog at the shot square (one branch; the
    witness is its blinding, which stays unshown)."""
    return Statement("empty", _context("empty", context), (((0, H, c),),))


def box_statement(context: Context, c: Point, a: Point, y: Point, z1: Point, z2: Point
                  ) -> Statement:
    """``C = r·H``, ``Z1 = r·Y``, ``A = a·H`` and ``Z2 = a·Y``: one branch, witnesses ``r``
    (the seat's blinding at the square: it has no frog there) and ``a`` (its box key).
    ``(Z1, Z2)`` are then the two keys of the count box sealed under ``Y`` to ``(C, A)``,
    and anyone can open it with them (a complaint against a false box)."""
    return Statement("box", _context("box", context),
                     (((0, H, c), (0, y, z1), (1, H, a), (1, y, z2)),))
