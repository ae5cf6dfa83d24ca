"""Frog Finder without a referee (docs/format.md, "Frog Finder without a referee").

Red and blue each commit to every square (``C_q = b_q·G + r_q·H`` with a ``bit``
proof), then test their placements for a shared square without showing them: red
masks its commitments under a key ``x`` (:class:`Mask`), blue selects red's masked
commitments where blue has a frog (:class:`Selection`), and red opens how many squares
the two share (:class:`Overlap`); a non-zero overlap sends both to the next attempt.
In play, a move carries the mover's opening of its own ``C_q`` (:class:`MoverPart`)
and, for a shot, its count around ``q`` (:class:`CountPart`) in a :class:`CountBox`
that only an answerer without a frog on ``q`` can open; the other seat answers with its
own opening (a hit, a guess) or, for an empty shot, an ``empty`` proof and the total
(:class:`Answer`), which anyone checks against both seats' commitments.

Every value here holds exactly what the spec shows and nothing more (the leak
argument: each scalar shown is the same combination of blindings as the fact it
opens is of bits). Checks raise :class:`~frogpbem.errors.ProofError`; a value read
with ``from_json`` of another shape raises :class:`~frogpbem.errors.GameFileError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from frogpbem.board import Board, Square
from frogpbem.crypto.countbox import BOX_LENGTH, box_keys, open_count, seal_count
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.crypto.fairness import DerivedChance
from frogpbem.crypto.group import G, H, Point, Scalar, commit, opens_to, total
from frogpbem.crypto.proofs import (
    Proof,
    Statement,
    bit_statement,
    box_statement,
    empty_statement,
    mask_statement,
    overlap_statement,
    prove,
    select_statement,
    verified_first_messages,
)
from frogpbem.errors import GameFileError, IllegalMoveError, NotationError, ProofError
from frogpbem.frozen import frozen
from frogpbem.games import JSON, Chance, sample
from frogpbem.games.frogs_notation import Count, Found, FrogResult, Guess, Miss, Shoot, Shot

Proven = tuple[Statement, Proof]
"""A statement with the proof a value carries for it."""
Firsts = tuple[Point, ...]
"""The first messages of the proofs a check verified, for :func:`check_fresh_nonces`."""
MAX_COUNT = 8
"""The most frogs around a square."""
BIT_SCALARS = 4
"""Scalars of a ``bit`` proof (two branches, one witness)."""
MASK_SCALARS = 6
"""Scalars of a ``mask`` proof (two branches, two witnesses)."""
SELECT_SCALARS = 6
"""Scalars of a ``select`` proof (two branches, two witnesses)."""
OVERLAP_SCALARS = 2
"""Scalars of an ``overlap`` proof (one branch, one witness)."""
EMPTY_SCALARS = 2
"""Scalars of an ``empty`` proof (one branch, one witness)."""
BOX_SCALARS = 3
"""Scalars of a ``box`` proof (one branch, two witnesses)."""


# --- the proofs' context -------------------------------------------------------------------


@frozen
class Context:
    """What every proof of one seat in one attempt is about: the game's id, the header's
    hash, the proving seat and the attempt (docs/format.md, the table of statements)."""

    game: str
    header: str
    seat: str
    attempt: int

    def of(self, seat: str) -> Context:
        """The same game and attempt, for ``seat``'s proofs."""
        return Context(self.game, self.header, seat, self.attempt)

    def _base(self) -> dict[str, str | int]:
        return {"game": self.game, "header": self.header, "seat": self.seat,
                "attempt": self.attempt}

    def square(self, square: Square) -> dict[str, str | int]:
        """The context of a ``bit``, ``mask`` or ``select`` proof at ``square``."""
        return self._base() | {"square": square.name}

    def count(self, m: int) -> dict[str, str | int]:
        """The context of the ``overlap`` proof that the placements share ``m`` squares."""
        return self._base() | {"count": m}

    def move(self, n: int, square: Square) -> dict[str, str | int]:
        """The context of move ``n`` at ``square`` (its count box, the ``empty`` proof of
        its answer): the game, header, seat and the move, not the attempt."""
        return {"game": self.game, "header": self.header, "seat": self.seat, "n": n,
                "square": square.name}


# --- fair placement ------------------------------------------------------------------------


def placement(secret: SeatSecret, board: Board, frogs: int, other_public: str,
              attempt: int) -> frozenset[Square]:
    """The seat's frogs in ``attempt``: the fair dealer keyed by its secret and the other
    seat's public seed draws them over the squares in the board's order."""
    chance = DerivedChance(secret.deal_key(other_public, attempt))
    return frozenset(sample(chance, list(board.squares()), frogs))


def chosen_placement(text: str, board: Board, frogs: int) -> frozenset[Square]:
    """The frogs a seat places itself, from ``"A1 B2 C3"`` (spaces or commas between): exactly
    ``frogs`` distinct squares of the board, else a NotationError in one sentence."""
    names = text.replace(",", " ").split()
    last = Square(board.size - 1, board.size - 1).name
    words = f'give {frogs} distinct squares of the board A1..{last}, e.g. --setup "A1 B2"'
    if len(names) != frogs:
        raise NotationError(f"{words}: got {len(names)} square{'' if len(names) == 1 else 's'}")
    squares = [board.parse(name) for name in names]  # off the board: its own sentence
    twice = next((q for i, q in enumerate(squares) if q in squares[:i]), None)
    if twice is not None:
        raise NotationError(f"{words}: {twice.name} is given twice")
    return frozenset(squares)


def drawn_placement(board: Board, frogs: int, chance: Chance) -> frozenset[Square]:
    """The frogs a seat's tool places for it (``--random``): ``frogs`` squares drawn by
    ``chance`` (the operating system's, not derived: nothing else need find them again)."""
    return frozenset(sample(chance, list(board.squares()), frogs))


def own_placement(secret: SeatSecret, board: Board, attempt: int,
                  commitments: Commitments) -> frozenset[Square]:
    """The frogs a seat placed itself in ``attempt``, found again from its own commitments
    with its secret: ``C_q − r_q·H`` is ``G`` where it placed a frog (the identity
    elsewhere), so nothing but the secret is kept."""
    return frozenset(q for q, point in zip(_squares(board), commitments.points, strict=True)
                     if commit(1, secret.blinding(attempt, q.name)) == point)


# --- reading JSON --------------------------------------------------------------------------


def _fields(data: JSON, keys: Sequence[str], what: str) -> tuple[JSON, ...]:
    """The values of a JSON object with exactly ``keys``, in their order."""
    if not isinstance(data, dict) or set(data) != set(keys):
        raise GameFileError(f"{what} is not an object with exactly the keys "
                            f"{', '.join(keys)}")
    return tuple(data[key] for key in keys)


def _list(data: JSON, length: int, what: str) -> list[JSON]:
    if not isinstance(data, list) or len(data) != length:
        raise GameFileError(f"{what} is not a list of {length} items")
    return data


def _points(data: JSON, length: int, what: str) -> tuple[Point, ...]:
    return tuple(Point.from_hex(item, f"point {index} of {what}")
                 for index, item in enumerate(_list(data, length, what)))


def _proof(data: JSON, size: int, what: str) -> Proof:
    return Proof(tuple(Scalar.from_hex(item, f"scalar {index} of {what}")
                       for index, item in enumerate(_list(data, size, what))))


def _proofs(data: JSON, length: int, size: int, what: str) -> tuple[Proof, ...]:
    return tuple(_proof(item, size, f"proof {index} of {what}")
                 for index, item in enumerate(_list(data, length, what)))


def _count(data: JSON, high: int, what: str) -> int:
    if type(data) is not int or not 0 <= data <= high:
        raise GameFileError(f"{what} is not a whole number 0..{high}")
    return data


def _hex(points: Iterable[Point]) -> list[JSON]:
    return [point.hex() for point in points]


def _proofs_json(proofs: Iterable[Proof]) -> list[JSON]:
    return [list(proof.to_json()) for proof in proofs]


def _verify_all(board: Board, proven: Iterable[Proven], what: str) -> Firsts:
    """Verify each square's proof (``proven`` in the board's order), naming the square;
    their first messages."""
    return tuple(first for q, (statement, proof) in zip(_squares(board), proven, strict=True)
                 for first in verified_first_messages(
                     statement, proof, f"the {statement.tag} proof of {what} at {q.name}"))


def _squares(board: Board) -> list[Square]:
    return list(board.squares())


# --- commitments ---------------------------------------------------------------------------


@frozen
class Commitments:
    """A seat's commitment to every square, in the board's order, each with its ``bit``
    proof, and ``frogs_blinding`` (the sum of the blindings, which opens the total to the
    game's number of frogs)."""

    points: tuple[Point, ...]
    frogs_blinding: Scalar
    proofs: tuple[Proof, ...]

    def at(self, board: Board, square: Square) -> Point:
        """``C_q``."""
        return self.points[square.row * board.size + square.col]

    def around(self, board: Board, square: Square) -> Point:
        """``Σ C_j`` over the squares ``j`` around ``square``."""
        return total(self.at(board, near) for near in board.neighbours(square))

    def proven(self, ctx: Context, board: Board) -> list[Proven]:
        """Each ``bit`` statement with its proof; ``ctx`` is the committing seat's."""
        return [(bit_statement(ctx.square(q), c), proof)
                for q, c, proof in zip(_squares(board), self.points, self.proofs, strict=True)]

    def to_json(self) -> JSON:
        return {"points": _hex(self.points), "frogs_blinding": self.frogs_blinding.hex(),
                "proofs": _proofs_json(self.proofs)}

    @classmethod
    def from_json(cls, data: JSON, board: Board) -> Commitments:
        points, blinding, proofs = _fields(data, ("points", "frogs_blinding", "proofs"),
                                           "commitments")
        n = board.size ** 2
        return cls(_points(points, n, "the commitments"),
                   Scalar.from_hex(blinding, "frogs_blinding"),
                   _proofs(proofs, n, BIT_SCALARS, "the commitments"))


def commit_placement(ctx: Context, secret: SeatSecret, board: Board,
                     frogs: frozenset[Square]) -> Commitments:
    """The seat's commitments to its placement ``frogs`` in ``ctx.attempt``."""
    key = secret.nonce_key()
    points, proofs, blindings = [], [], []
    for q in _squares(board):
        bit = int(q in frogs)
        r = secret.blinding(ctx.attempt, q.name)
        c = commit(bit, r)
        points.append(c)
        proofs.append(prove(bit_statement(ctx.square(q), c), bit, [r], key))
        blindings.append(r)
    return Commitments(tuple(points), sum(blindings, Scalar(0)), tuple(proofs))


def check_commitments(ctx: Context, board: Board, frogs: int,
                      commitments: Commitments) -> Firsts:
    """Raise ProofError unless every square commits to 0 or 1 and they add up to ``frogs``
    (``ctx`` is the committing seat's); the proofs' first messages."""
    if len(commitments.points) != board.size ** 2 or \
            len(commitments.proofs) != board.size ** 2:
        raise ProofError(f"{ctx.seat}'s commitments do not cover the board")
    if not opens_to(total(commitments.points), frogs, commitments.frogs_blinding):
        raise ProofError(f"{ctx.seat}'s commitments do not add up to {frogs} frogs with "
                         "its frogs_blinding")
    return _verify_all(board, commitments.proven(ctx, board), f"{ctx.seat}'s commitment")


# --- the disjointness test -----------------------------------------------------------------


@frozen
class Mask:
    """Red's key ``P = x·H`` and, per square, ``D_q = x·(C_q − b_q·G)`` with its ``mask``
    proof: ``(C_q, D_q)`` encrypts red's bit under ``x``."""

    key: Point
    shares: tuple[Point, ...]
    proofs: tuple[Proof, ...]

    def proven(self, ctx: Context, board: Board, commitments: Commitments) -> list[Proven]:
        """Each ``mask`` statement with its proof; ``ctx`` is red's."""
        return [(mask_statement(ctx.square(q), self.key, c, d), proof)
                for q, c, d, proof in zip(_squares(board), commitments.points, self.shares,
                                          self.proofs, strict=True)]

    def to_json(self) -> JSON:
        return {"key": self.key.hex(), "shares": _hex(self.shares),
                "proofs": _proofs_json(self.proofs)}

    @classmethod
    def from_json(cls, data: JSON, board: Board) -> Mask:
        key, shares, proofs = _fields(data, ("key", "shares", "proofs"), "the mask")
        n = board.size ** 2
        return cls(Point.from_hex(key, "the mask's key"), _points(shares, n, "the mask"),
                   _proofs(proofs, n, MASK_SCALARS, "the mask"))


def make_mask(ctx: Context, secret: SeatSecret, board: Board, frogs: frozenset[Square],
              commitments: Commitments) -> Mask:
    """Red's mask of its own ``commitments`` (of placement ``frogs``) in ``ctx.attempt``."""
    x = secret.mask_key(ctx.attempt)
    p = x * H
    key = secret.nonce_key()
    shares, proofs = [], []
    for q, c in zip(_squares(board), commitments.points, strict=True):
        bit = int(q in frogs)
        r = secret.blinding(ctx.attempt, q.name)
        d = r * p  # = x·(C − b·G)
        shares.append(d)
        proofs.append(prove(mask_statement(ctx.square(q), p, c, d), bit, [r, x], key))
    return Mask(p, tuple(shares), tuple(proofs))


def check_mask(ctx: Context, board: Board, commitments: Commitments, mask: Mask) -> Firsts:
    """Raise ProofError unless ``mask`` masks red's ``commitments`` (``ctx``: red's); the
    proofs' first messages."""
    if len(mask.shares) != board.size ** 2 or len(mask.proofs) != board.size ** 2:
        raise ProofError(f"{ctx.seat}'s mask does not cover the board")
    return _verify_all(board, mask.proven(ctx, board, commitments), f"{ctx.seat}'s mask")


@frozen
class Selection:
    """Blue's ``E_q = K_q·C_q + t_q·H`` and ``F_q = K_q·D_q + t_q·P`` per square, with its
    ``select`` proof against blue's own commitment ``K_q``."""

    points: tuple[Point, ...]
    shares: tuple[Point, ...]
    proofs: tuple[Proof, ...]

    def proven(self, ctx: Context, board: Board, own: Commitments, red: Commitments,
               mask: Mask) -> list[Proven]:
        """Each ``select`` statement with its proof; ``ctx`` is blue's, ``own`` blue's
        commitments, ``red`` and ``mask`` red's."""
        return [(select_statement(ctx.square(q), k, c, d, mask.key, e, f), proof)
                for q, k, c, d, e, f, proof in zip(
                    _squares(board), own.points, red.points, mask.shares, self.points,
                    self.shares, self.proofs, strict=True)]

    def to_json(self) -> JSON:
        return {"points": _hex(self.points), "shares": _hex(self.shares),
                "proofs": _proofs_json(self.proofs)}

    @classmethod
    def from_json(cls, data: JSON, board: Board) -> Selection:
        points, shares, proofs = _fields(data, ("points", "shares", "proofs"),
                                         "the selection")
        n = board.size ** 2
        return cls(_points(points, n, "the selection"), _points(shares, n, "the selection"),
                   _proofs(proofs, n, SELECT_SCALARS, "the selection"))


def make_selection(ctx: Context, secret: SeatSecret, board: Board, frogs: frozenset[Square],
                   red: Commitments, mask: Mask) -> Selection:
    """Blue's selection (``ctx``: blue's) of red's masked commitments where blue's
    placement ``frogs`` has a frog."""
    key = secret.nonce_key()
    points, shares, proofs = [], [], []
    for q, c, d in zip(_squares(board), red.points, mask.shares, strict=True):
        bit = int(q in frogs)
        r, t = secret.blinding(ctx.attempt, q.name), secret.selection(ctx.attempt, q.name)
        e, f = bit * c + t * H, bit * d + t * mask.key
        points.append(e)
        shares.append(f)
        statement = select_statement(ctx.square(q), commit(bit, r), c, d, mask.key, e, f)
        proofs.append(prove(statement, bit, [r, t], key))
    return Selection(tuple(points), tuple(shares), tuple(proofs))


def check_selection(ctx: Context, board: Board, own: Commitments, red: Commitments,
                    mask: Mask, selection: Selection) -> Firsts:
    """Raise ProofError unless ``selection`` selects red's masked commitments exactly where
    blue's commitments ``own`` hold a frog (``ctx``: blue's); the proofs' first messages."""
    if len(selection.points) != board.size ** 2 or len(selection.shares) != board.size ** 2 \
            or len(selection.proofs) != board.size ** 2:
        raise ProofError(f"{ctx.seat}'s selection does not cover the board")
    return _verify_all(board, selection.proven(ctx, board, own, red, mask),
                       f"{ctx.seat}'s selection")


@frozen
class Overlap:
    """How many squares the two placements share (``m``), with red's ``overlap`` proof."""

    count: int
    proof: Proof

    def proven(self, ctx: Context, mask: Mask, selection: Selection, frogs: int) -> Proven:
        """The ``overlap`` statement with its proof; ``ctx`` is red's."""
        return (overlap_statement(ctx.count(self.count), mask.key, total(selection.points),
                                  total(selection.shares), self.count, frogs), self.proof)

    def to_json(self) -> JSON:
        return {"count": self.count, "proof": list(self.proof.to_json())}

    @classmethod
    def from_json(cls, data: JSON, frogs: int) -> Overlap:
        count, proof = _fields(data, ("count", "proof"), "the overlap")
        return cls(_count(count, frogs, "the overlap's count"),
                   _proof(proof, OVERLAP_SCALARS, "the overlap"))


def find_overlap(ctx: Context, secret: SeatSecret, frogs: int, mask: Mask,
                 selection: Selection) -> Overlap:
    """Red (``ctx``) decrypts ``m`` from blue's selection: ``S_E − x⁻¹·S_F = m·G``."""
    x = secret.mask_key(ctx.attempt)
    s_e, s_f = total(selection.points), total(selection.shares)
    opened = s_e - x.inverse() * s_f
    m = next((m for m in range(frogs + 1) if opened == m * G), None)
    if m is None:
        raise ProofError("the selection encrypts no number of shared squares "
                         f"0..{frogs}")
    statement = overlap_statement(ctx.count(m), mask.key, s_e, s_f, m, frogs)
    return Overlap(m, prove(statement, 0, [x], secret.nonce_key()))


def check_overlap(ctx: Context, mask: Mask, selection: Selection, overlap: Overlap,
                  frogs: int) -> Firsts:
    """Raise ProofError unless ``overlap`` is the number the selection encrypts (``ctx``:
    red's; ``frogs`` per seat bound it); the proof's first messages."""
    statement, proof = overlap.proven(ctx, mask, selection, frogs)
    return verified_first_messages(statement, proof,
                                   f"{ctx.seat}'s overlap count {overlap.count}")


# --- moves and answers ---------------------------------------------------------------------


@frozen
class MoverPart:
    """The mover's opening of its own ``C_q`` to 0: it has no frog on the square it moves
    at (public)."""

    blinding: Scalar

    def to_json(self) -> JSON:
        return {"blinding": self.blinding.hex()}

    @classmethod
    def from_json(cls, data: JSON) -> MoverPart:
        (blinding,) = _fields(data, ("blinding",), "the mover's opening")
        return cls(Scalar.from_hex(blinding, "the mover's opening"))


@frozen
class CountPart:
    """For a shot, the mover's frogs around the square and the sum of their blindings
    (shown to the answerer alone, in a :class:`CountBox`)."""

    count: int
    blinding: Scalar


@frozen
class CountBox:
    """The mover's :class:`CountPart` sealed to an answerer without a frog on the square:
    ``Y = y·H`` and 33 bytes (:mod:`frogpbem.crypto.countbox`)."""

    key: Point
    box: bytes

    def to_json(self) -> JSON:
        return {"key": self.key.hex(), "box": self.box.hex()}

    @classmethod
    def from_json(cls, data: JSON) -> CountBox:
        key, box = _fields(data, ("key", "box"), "the count box")
        if not isinstance(box, str) or len(box) != 2 * BOX_LENGTH or \
                any(c not in "0123456789abcdef" for c in box):
            raise GameFileError(f"the count box is not {BOX_LENGTH} bytes as lower-case hex")
        return cls(Point.from_hex(key, "the count box's key"), bytes.fromhex(box))


def _around(secret: SeatSecret, attempt: int, board: Board, frogs: frozenset[Square],
            square: Square) -> tuple[int, Scalar]:
    """The seat's own frogs around ``square`` and the sum of their squares' blindings."""
    near = board.neighbours(square)
    return (sum(q in frogs for q in near),
            sum((secret.blinding(attempt, q.name) for q in near), Scalar(0)))


def mover_part(secret: SeatSecret, attempt: int, board: Board, frogs: frozenset[Square],
               move: Shoot | Guess) -> tuple[MoverPart, CountPart | None]:
    """The mover's opening at the move's square and, for a shot, its count part; raises
    IllegalMoveError on a square of its own frogs (no false opening is made)."""
    square = move.square
    if square in frogs:
        raise IllegalMoveError(f"{square.name} is not open: it holds your own frog")
    opening = MoverPart(secret.blinding(attempt, square.name))
    if isinstance(move, Guess):
        return opening, None
    return opening, CountPart(*_around(secret, attempt, board, frogs, square))


def seal_box(ctx: Context, secret: SeatSecret, board: Board, answering: Commitments,
             box_key: Point, n: int, square: Square, count: CountPart) -> CountBox:
    """The mover's (``ctx``: the mover's) count box for its shot ``n`` at ``square``,
    sealed to the answerer's commitment there and its box key ``box_key``: openable only
    by the answerer, and only if ``answering`` commits to no frog there."""
    y = secret.count_key(n, square.name)
    key, box = seal_count(ctx.move(n, square), y, answering.at(board, square), box_key,
                          count.count, count.blinding)
    return CountBox(key, box)


def _opened(ctx: Context, board: Board, mover: Commitments, n: int, square: Square,
            box: CountBox, key: Point, shared: Point) -> CountPart | None:
    """The mover's count part in ``box`` opened with its two keys and checked against the
    mover's commitments around ``square``; ``None`` where it does not open them."""
    opened = open_count(ctx.move(n, square), box.key, box.box, key, shared)
    if opened is None or opened[0] > MAX_COUNT or not opens_to(
            mover.around(board, square), opened[0], opened[1]):
        return None
    return CountPart(*opened)


def open_box(ctx: Context, secret: SeatSecret, board: Board, mover: Commitments, n: int,
             square: Square, box: CountBox) -> CountPart | None:
    """The mover's count part, opened by the answerer (``secret``, without a frog on
    ``square``; ``ctx``: the mover's) and checked against the mover's commitments around
    ``square``; ``None`` for a false box (the answerer then complains: :func:`complain`)."""
    key, shared = box_keys(box.key, secret.blinding(ctx.attempt, square.name),
                           secret.box_key(ctx.attempt))
    return _opened(ctx, board, mover, n, square, box, key, shared)


@frozen
class Complaint:
    """The answerer's proof that the mover's count box is false: the box's two keys
    ``Z1 = r·Y`` (``key``) and ``Z2 = a·Y`` (``shared``) with the ``box`` proof, so that
    anyone opens the box and sees it does not open the mover's commitments."""

    key: Point
    shared: Point
    proof: Proof

    def to_json(self) -> JSON:
        return {"key": self.key.hex(), "shared": self.shared.hex(),
                "proof": list(self.proof.to_json())}

    @classmethod
    def from_json(cls, data: JSON) -> Complaint:
        key, shared, proof = _fields(data, ("key", "shared", "proof"), "the complaint")
        return cls(Point.from_hex(key, "the complaint's key"),
                   Point.from_hex(shared, "the complaint's shared key"),
                   _proof(proof, BOX_SCALARS, "the complaint's box proof"))

    def statement(self, ctx: Context, board: Board, n: int, square: Square,
                  answering: Commitments, box_key: Point, box: CountBox) -> Statement:
        """The ``box`` statement of the complaint (``ctx``: the answerer's)."""
        return box_statement(ctx.move(n, square), answering.at(board, square), box_key,
                             box.key, self.key, self.shared)


def complain(ctx: Context, secret: SeatSecret, board: Board, answering: Commitments,
             n: int, square: Square, box: CountBox) -> Complaint:
    """The answerer's (``ctx``: its own) complaint against the false ``box`` of move ``n``
    at ``square``; ValueError from :func:`prove` if the seat has a frog there (no false
    proof is made)."""
    r, a = secret.blinding(ctx.attempt, square.name), secret.box_key(ctx.attempt)
    key, shared = box_keys(box.key, r, a)
    statement = box_statement(ctx.move(n, square), answering.at(board, square), a * H,
                              box.key, key, shared)
    return Complaint(key, shared, prove(statement, 0, [r, a], secret.nonce_key()))


def check_complaint(ctx: Context, mover_seat: str, board: Board, n: int,
                    move: Shoot | Guess, answering: Commitments, box_key: Point,
                    mover: Commitments, box: CountBox | None, complaint: Complaint
                    ) -> Firsts:
    """The first messages of ``complaint``'s proof, or ProofError: the proof must hold
    (``ctx``: the answerer's; ``box_key`` its box key) and the box, opened with the keys
    it shows, must not open the mover's commitments around the square (a complaint
    against a true box is a false answer)."""
    square = move.square
    if isinstance(move, Guess) or box is None:
        raise ProofError(f"{ctx.seat} complains about {move}, which has no count box")
    firsts = verified_first_messages(
        complaint.statement(ctx, board, n, square, answering, box_key, box),
        complaint.proof, f"{ctx.seat}'s box proof at {square.name}")
    if _opened(ctx.of(mover_seat), board, mover, n, square, box,
               complaint.key, complaint.shared) is not None:
        raise ProofError(f"{ctx.seat}'s complaint is false: the count box for the shot at "
                         f"{square.name} opens the mover's commitments")
    return firsts


def check_mover_part(board: Board, mover: Commitments, move: Shoot | Guess, part: MoverPart,
                     count: CountPart | None = None) -> None:
    """Raise ProofError unless ``part`` opens the mover's commitment at the move's square
    to 0 and ``count`` (the answerer opened it from the box; spectators cannot) opens the
    mover's commitments around it."""
    square = move.square
    if not opens_to(mover.at(board, square), 0, part.blinding):
        raise ProofError(f"the mover's opening does not show {square.name} empty of its "
                         "own frogs")
    if count is not None and isinstance(move, Guess):
        raise ProofError(f"the mover gave a count with {move}, which shows none")
    if count is not None and not opens_to(mover.around(board, square), count.count,
                                          count.blinding):
        raise ProofError(f"the mover's count {count.count} around {square.name} does not "
                         "open its commitments")


@frozen
class Answer:
    """The answering seat's answer to a move at its square: for a hit or a guess, its
    opening ``(bit, blinding)`` there; for a shot on a square without its frog, the
    ``empty`` proof of its commitment there (``proof``; the blinding stays unshown, or
    anyone could open the count box) with the total around it and the total's blinding
    (both seats' frogs, summed: the split stays unshown); for a shot whose count box is
    false, the ``complaint`` that proves it (the mover forfeits)."""

    bit: int
    blinding: Scalar | None = None
    count: int | None = None
    count_blinding: Scalar | None = None
    proof: Proof | None = None
    complaint: Complaint | None = None

    def to_json(self) -> JSON:
        if self.complaint is not None:
            return {"complaint": self.complaint.to_json()}
        if self.count is not None and self.count_blinding is not None and \
                self.proof is not None:
            return {"count": self.count, "count_blinding": self.count_blinding.hex(),
                    "empty": list(self.proof.to_json())}
        assert self.blinding is not None
        return {"bit": self.bit, "blinding": self.blinding.hex()}

    @classmethod
    def from_json(cls, data: JSON) -> Answer:
        if isinstance(data, dict) and "complaint" in data:
            (complaint,) = _fields(data, ("complaint",), "the answer")
            return cls(0, complaint=Complaint.from_json(complaint))
        if isinstance(data, dict) and "empty" in data:
            count, count_blinding, proof = _fields(
                data, ("count", "count_blinding", "empty"), "the answer")
            return cls(0, None, _count(count, MAX_COUNT, "the answer's count"),
                       Scalar.from_hex(count_blinding, "the answer's count blinding"),
                       _proof(proof, EMPTY_SCALARS, "the answer's empty proof"))
        bit, blinding = _fields(data, ("bit", "blinding"), "the answer")
        return cls(_count(bit, 1, "the answer's bit"),
                   Scalar.from_hex(blinding, "the answer's opening"))


def answer(ctx: Context, secret: SeatSecret, board: Board, frogs: frozenset[Square], n: int,
           move: Shoot | Guess, mover_count: CountPart | None = None) -> Answer:
    """The answer of the seat (``ctx``: its own) whose placement is ``frogs`` to the other
    seat's move ``n``; a shot at an empty square needs the mover's count part (opened
    from its box and checked)."""
    square = move.square
    bit = int(square in frogs)
    opening = secret.blinding(ctx.attempt, square.name)
    if bit or isinstance(move, Guess):
        return Answer(bit, opening)
    if mover_count is None:
        raise ValueError("answering a shot at an empty square needs the mover's count")
    count, blinding = _around(secret, ctx.attempt, board, frogs, square)
    statement = empty_statement(ctx.move(n, square), commit(0, opening))
    proof = prove(statement, 0, [opening], secret.nonce_key())
    return Answer(0, None, count + mover_count.count, blinding + mover_count.blinding, proof)


def check_answer(ctx: Context, board: Board, n: int, move: Shoot | Guess,
                 answering: Commitments, mover: Commitments, given: Answer,
                 mover_count: CountPart | None = None) -> tuple[FrogResult, Firsts]:
    """The public result ``given`` proves (``ctx``: the answerer's), with the first
    messages of its proof, or ProofError: a hit's or a guess's opening must open the
    answerer's commitment at the square; an empty shot's proof must prove that commitment
    empty and its total open the sum of both seats' commitments around it. The mover's
    tool passes its own ``mover_count`` and so also checks the answerer's part; a
    spectator's checks the total alone."""
    square = move.square
    answerer = ctx.seat
    if given.complaint is not None:
        raise ProofError(f"{answerer}'s complaint is checked against the count box")
    empty_shot = given.proof is not None
    if empty_shot != (given.count is not None) or empty_shot == (given.blinding is not None):
        raise ProofError(f"{answerer}'s answer to {move} is neither an opening nor a count")
    if empty_shot and isinstance(move, Guess):
        raise ProofError(f"{answerer}'s answer to {move} has a count")
    if not empty_shot:
        assert given.blinding is not None
        if not opens_to(answering.at(board, square), given.bit, given.blinding):
            raise ProofError(f"{answerer}'s answer does not open its commitment at "
                             f"{square.name}")
        if given.bit:
            return (Shot(answerer) if isinstance(move, Shoot) else Found(answerer)), ()
        if isinstance(move, Shoot):
            raise ProofError(f"{answerer}'s answer to {move} opens its commitment to no "
                             "frog: an empty square is answered with a count")
        return Miss(), ()
    assert given.count is not None and given.count_blinding is not None and given.proof
    firsts = verified_first_messages(
        empty_statement(ctx.move(n, square), answering.at(board, square)), given.proof,
        f"{answerer}'s empty proof at {square.name}")
    answerers = answering.around(board, square)
    if not opens_to(answerers + mover.around(board, square), given.count,
                    given.count_blinding):
        raise ProofError(f"{answerer}'s count {given.count} around {square.name} does not "
                         "open both seats' commitments")
    if mover_count is not None and not opens_to(
            answerers, given.count - mover_count.count,
            given.count_blinding - mover_count.blinding):
        raise ProofError(f"{answerer}'s part of the count around {square.name} does not "
                         "open its commitments")
    return Count(given.count), firsts


def answer_result(answerer: str, move: Shoot | Guess, given: Answer) -> FrogResult:
    """The public result ``given`` claims, unchecked: for an answer that :func:`check_answer`
    verified before (a message this tool verified, replayed again)."""
    if given.proof is not None and given.count is not None:
        return Count(given.count)
    if given.bit:
        return Shot(answerer) if isinstance(move, Shoot) else Found(answerer)
    return Miss()


# --- nonces --------------------------------------------------------------------------------


def check_fresh_nonces(firsts: Iterable[Point]) -> None:
    """Raise ProofError if two of a game's proofs share a first message (a reused nonce
    gives the witness away): ``firsts`` are all that the checks returned, every attempt's."""
    seen: set[Point] = set()
    for first in firsts:
        if first in seen:
            raise ProofError("two proofs of the game share a first message (a reused nonce)")
        seen.add(first)


# --- the parts of a message (docs/format.md, "Frog Finder without a referee") --------------


def _some(data: JSON, allowed: Sequence[str], what: str) -> list[JSON | None]:
    """The values of a non-empty JSON object whose keys are among ``allowed``, in their
    order (``None`` where absent)."""
    if not isinstance(data, dict) or not data or not set(data) <= set(allowed):
        raise GameFileError(f"{what} is not an object with some of the keys "
                            f"{', '.join(allowed)} and no other")
    return [data.get(key) for key in allowed]


@frozen
class Setup:
    """A seat's ``setup`` part: its commitments, its box key ``A = a·H`` (the count boxes
    sealed to it use it) and, for red, its mask, for blue, its selection (exactly one of
    the two)."""

    commitments: Commitments
    box_key: Point
    mask: Mask | None = None
    selection: Selection | None = None

    def to_json(self) -> JSON:
        second: tuple[str, JSON] = ("mask", self.mask.to_json()) if self.mask is not None \
            else ("selection", self.selection.to_json() if self.selection else None)
        return {"commitments": self.commitments.to_json(), second[0]: second[1],
                "box_key": self.box_key.hex()}

    @classmethod
    def from_json(cls, data: JSON, board: Board, red: bool) -> Setup:
        second = "mask" if red else "selection"
        commitments, other, box_key = _fields(data, ("commitments", second, "box_key"),
                                              f"{'red' if red else 'blue'}'s setup")
        made = Commitments.from_json(commitments, board)
        key = Point.from_hex(box_key, "the setup's box key")  # never the identity
        if red:
            return cls(made, key, mask=Mask.from_json(other, board))
        return cls(made, key, selection=Selection.from_json(other, board))


@frozen
class MoveOpening:
    """What goes with a move: the mover's opening at its square and, with a shot, its
    count box (``{"opening": r_q, "box": {"key", "box"}}``)."""

    opening: MoverPart
    box: CountBox | None = None

    def to_json(self) -> JSON:
        made: dict[str, JSON] = {"opening": self.opening.blinding.hex()}
        if self.box is not None:
            made["box"] = self.box.to_json()
        return made

    @classmethod
    def from_json(cls, data: JSON) -> MoveOpening:
        opening, box = _some(data, ("opening", "box"), "a move's part")
        if opening is None:
            raise GameFileError("a move's part has no opening")
        return cls(MoverPart(Scalar.from_hex(opening, "the mover's opening")),
                   None if box is None else CountBox.from_json(box))


@frozen
class AnswerPart:
    """A message's ``answer`` part: the answer ``to`` the other seat's pending move, and
    the ``move`` part of the message's own move (either or both)."""

    to: Answer | None = None
    move: MoveOpening | None = None

    def to_json(self) -> JSON:
        made: dict[str, JSON] = {}
        if self.to is not None:
            made["to"] = self.to.to_json()
        if self.move is not None:
            made["move"] = self.move.to_json()
        return made

    @classmethod
    def from_json(cls, data: JSON) -> AnswerPart:
        to, move = _some(data, ("to", "move"), "the answer part")
        return cls(None if to is None else Answer.from_json(to),
                   None if move is None else MoveOpening.from_json(move))
