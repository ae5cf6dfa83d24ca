"""Secret Move without a referee (docs/format.md, "Secret Move without a referee").

A seat commits to its six headers as a 6x6 permutation matrix of bit commitments
(:class:`HeaderCommitments`), proves each stone move legal against them without
showing a value (:class:`LegalProof`), hands in its guess as a hash commitment opened
once both are in (:class:`GuessCommitment`, :class:`GuessOpening`), and at the end
reveals its headers and secret (:func:`check_reveal`). These are pure values: the
engine puts them in signed messages; the rules (``frogpbem.games.secretmove``) still
check everything public, and replay the game with the revealed headers at the end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from frogpbem.crypto.digest import canonical_json, sha256_tag
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.crypto.group import G, H, Point, Scalar, commit, total
from frogpbem.crypto.proofs import (
    Proof,
    Statement,
    bit_statement,
    prove,
    verified_first_messages,
)
from frogpbem.errors import (
    CommitmentError,
    GameFileError,
    IllegalMoveError,
    NotationError,
    ProofError,
)
from frogpbem.frozen import cached, frozen
from frogpbem.games.secretmove import StoneMove, check_secret
from frogpbem.games.secretmove_view import SQUARES
from frogpbem.jsonvalue import JSON

HEADERS = ("A", "B", "C", "1", "2", "3")
"""The six headers, in the order of a seat's setup (``cols=A,B,C rows=1,2,3``)."""
VALUES = tuple(range(6))
ATTEMPT = 0
"""Secret Move commits once: every blinding is of attempt 0."""
MAX_GAP = 8
"""Square values lie in 1..9, so value(Y) − value(X) is at most 8."""
GUESS_PREFIX = b"frogpbem/1 duel-guess\n"
GUESS_SALT = "guess"
"""The square name whose attempt-0 blinding, as hex, salts a seat's guess commitment."""
GUESS_PAD = "guess-pad"
"""The square name whose attempt-0 blinding pads the seat's own copy of its guess."""
GUESSES = 9**9
"""How many guesses there are: nine values 1 to 9."""
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_SALT = re.compile(r"[0-9a-f]{64}")

Headers = tuple[int, int, int, int, int, int]
"""A seat's header values, for A, B, C, 1, 2, 3."""


def cell(header: str, value: int) -> str:
    """The name of one cell of the matrix in a proof's context: ``A=3``."""
    return f"{header}={value}"


def read_headers(secret: JSON) -> Headers:
    """The headers of a Secret Move secret ``{"cols": [a, b, c], "rows": [d, e, f]}``;
    raises :class:`NotationError` unless they are 0..5, each once."""
    check_secret(secret)
    match secret:
        case {"cols": [int(a), int(b), int(c)], "rows": [int(d), int(e), int(f)]}:
            return (a, b, c, d, e, f)
    raise NotationError("setup: expected 'cols' and 'rows' of three numbers each")


def headers_secret(headers: Headers) -> dict[str, JSON]:
    """The rules' secret for ``headers``: ``{"cols": [A, B, C], "rows": [1, 2, 3]}``."""
    return {"cols": list(headers[:3]), "rows": list(headers[3:])}


def _check_headers(headers: Sequence[int]) -> None:
    if len(headers) != 6 or sorted(headers) != list(VALUES) \
            or not all(type(v) is int for v in headers):
        raise NotationError(f"the six headers take 0, 1, 2, 3, 4, 5 once each, got "
                            f"{list(headers)}")


def _context(game: str, header: str, seat: str, **more: str | int) -> dict[str, str | int]:
    return {"game": game, "header": header, "seat": seat, **more}


def _scalar_list(data: JSON, count: int, what: str) -> tuple[Scalar, ...]:
    if not isinstance(data, list) or len(data) != count:
        raise ProofError(f"{what} is not a list of {count} scalars")
    return tuple(Scalar.from_hex(item, f"{what}, scalar {i}") for i, item in enumerate(data))


def _grid(data: JSON, what: str) -> list[list[JSON]]:
    """A 6x6 list of lists (headers A..3 by values 0..5), else ProofError."""
    if not isinstance(data, list) or len(data) != 6 \
            or not all(isinstance(row, list) and len(row) == 6 for row in data):
        raise ProofError(f"{what} is not six lists of six (headers A, B, C, 1, 2, 3 by "
                         f"values 0 to 5)")
    return [row for row in data if isinstance(row, list)]


@frozen
class HeaderCommitments:
    """A seat's commitments to its headers: ``cells[h][v]`` commits to 1 where header
    ``HEADERS[h]`` has value ``v``, else to 0, each with its ``bit`` proof; ``rows[h]``
    and ``columns[v]`` are the blinding sums with which each row and each column opens
    to 1. Together they prove the matrix a permutation: each header one value, each
    value one header."""

    cells: tuple[tuple[Point, ...], ...]
    bits: tuple[tuple[Proof, ...], ...]
    rows: tuple[Scalar, ...]
    columns: tuple[Scalar, ...]

    @classmethod
    def make(cls, secret: SeatSecret, header: str, headers: Headers) -> HeaderCommitments:
        """The commitments of ``secret``'s seat to ``headers`` (refused in a sentence
        unless they are 0..5, each once)."""
        _check_headers(headers)
        key = secret.nonce_key()
        blind = _blindings(secret)
        cells, bits = [], []
        for h, name in enumerate(HEADERS):
            row_cells, row_bits = [], []
            for v in VALUES:
                bit = int(headers[h] == v)
                r = blind[h][v]
                point = commit(bit, r)
                statement = bit_statement(_context(secret.game, header, secret.seat,
                                                   attempt=ATTEMPT, square=cell(name, v)),
                                          point)
                row_cells.append(point)
                row_bits.append(prove(statement, bit, (r,), key))
            cells.append(tuple(row_cells))
            bits.append(tuple(row_bits))
        return cls(tuple(cells), tuple(bits),
                   tuple(_sum(blind[h]) for h in range(6)),
                   tuple(_sum(blind[h][v] for h in range(6)) for v in VALUES))

    def check(self, game: str, header: str, seat: str) -> tuple[Point, ...]:
        """Raises :class:`ProofError` unless every cell commits to a bit and every row and
        column to exactly one 1; returns the first messages of the bit proofs (a game
        refuses a nonce used twice)."""
        firsts: list[Point] = []
        if len(self.cells) != 6 or len(self.bits) != 6 or len(self.rows) != 6 \
                or len(self.columns) != 6 or any(len(row) != 6 for row in self.cells) \
                or any(len(row) != 6 for row in self.bits):
            raise ProofError(f"{seat}'s header commitments are not six by six")
        for h, name in enumerate(HEADERS):
            for v in VALUES:
                statement = bit_statement(_context(game, header, seat, attempt=ATTEMPT,
                                                   square=cell(name, v)), self.cells[h][v])
                firsts += verified_first_messages(
                    statement, self.bits[h][v],
                    f"{seat}'s proof that cell {cell(name, v)} commits to 0 or 1")
        for h, name in enumerate(HEADERS):
            if total(self.cells[h]) != commit(1, self.rows[h]):
                raise ProofError(f"{seat}'s header {name} does not take exactly one value")
        for v in VALUES:
            if total(row[v] for row in self.cells) != commit(1, self.columns[v]):
                raise ProofError(f"{seat}'s value {v} is not on exactly one header")
        return tuple(firsts)

    @cached
    def header_values(self) -> tuple[Point, ...]:
        """Each header's value commitment ``Σ_v v·C[h][v]``, made once."""
        return tuple(total(v * point for v, point in zip(VALUES, row, strict=True))
                     for row in self.cells)

    def value(self, name: str) -> Point:
        """The commitment to header ``name``'s value: ``Σ_v v·C[h][v]``."""
        return self.header_values[HEADERS.index(name)]

    def square(self, square: str) -> Point:
        """The commitment to a square's value: its column header's plus its row header's."""
        return self.value(square[0]) + self.value(square[1])

    def to_json(self) -> dict[str, JSON]:
        return {"cells": [[point.hex() for point in row] for row in self.cells],
                "bits": [[list(proof.to_json()) for proof in row] for row in self.bits],
                "rows": [r.hex() for r in self.rows],
                "columns": [r.hex() for r in self.columns]}

    @classmethod
    def from_json(cls, data: JSON, seat: str) -> HeaderCommitments:
        """Commitments as :meth:`to_json` writes them; anything else is refused
        (:class:`ProofError`). :meth:`check` then checks what they prove."""
        match data:
            case {"cells": cells, "bits": bits, "rows": rows, "columns": columns, **rest} \
                    if not rest:
                pass
            case _:
                raise ProofError(f"{seat}'s header commitments are not an object of 'cells', "
                                 f"'bits', 'rows' and 'columns'")
        return cls(
            tuple(tuple(Point.from_hex(item, f"{seat}'s commitment to cell {cell(name, v)}")
                        for v, item in enumerate(row))
                  for name, row in zip(HEADERS, _grid(cells, f"{seat}'s cells"), strict=True)),
            tuple(tuple(Proof(_scalar_list(item, 4, f"{seat}'s proof for cell "
                                                    f"{cell(name, v)}"))
                        for v, item in enumerate(row))
                  for name, row in zip(HEADERS, _grid(bits, f"{seat}'s bit proofs"),
                                       strict=True)),
            _scalar_list(rows, 6, f"{seat}'s row sums"),
            _scalar_list(columns, 6, f"{seat}'s column sums"))


def _sum(scalars: Iterable[Scalar]) -> Scalar:
    result = Scalar(0)
    for scalar in scalars:
        result = result + scalar
    return result


def _blindings(secret: SeatSecret) -> list[list[Scalar]]:
    """``r[h][v]``, the blinding of each cell."""
    return [[secret.blinding(ATTEMPT, cell(name, v)) for v in VALUES] for name in HEADERS]


def _value_blinding(blind: list[list[Scalar]], square: str) -> Scalar:
    """The blinding of a square's value commitment: ``Σ_v v·(r[col][v] + r[row][v])``."""
    col, row = blind[HEADERS.index(square[0])], blind[HEADERS.index(square[1])]
    return _sum(Scalar(v) * (col[v] + row[v]) for v in VALUES)


def _square_value(headers: Headers, square: str) -> int:
    return headers[HEADERS.index(square[0])] + headers[HEADERS.index(square[1])]


def legal_statement(commitments: HeaderCommitments, game: str, header: str, seat: str,
                    n: int, move: StoneMove) -> Statement:
    """``value(Y) − value(X) = c + j`` for one ``j`` of ``0 .. 8 − c``: the move's count
    is at most the gap, and nothing more (the gap is never above 8)."""
    if not 1 <= move.count <= MAX_GAP:
        raise ProofError(f"{seat}'s move {move} can never be legal: a count is 1 to {MAX_GAP}")
    gap = commitments.square(move.dst) - commitments.square(move.src)
    context = _context(game, header, seat, n=n, move=str(move))
    return Statement("legal", context, tuple(((0, H, gap - k * G),)
                                             for k in range(move.count, MAX_GAP + 1)))


@frozen
class LegalProof:
    """The mover's proof that its stone move ``X-Y c`` is legal on its hidden values:
    value(Y) − value(X) ≥ c. Adjacency and stones are public: the rules check them."""

    proof: Proof

    @classmethod
    def make(cls, commitments: HeaderCommitments, secret: SeatSecret, header: str,
             headers: Headers, n: int, move: StoneMove) -> LegalProof:
        """The proof for the seat's ``n``-th stone move; raises :class:`IllegalMoveError`
        for a move the headers do not allow (no proof of it can be made)."""
        gap = _square_value(headers, move.dst) - _square_value(headers, move.src)
        if not 1 <= move.count <= gap:
            raise IllegalMoveError(f"{move}: {move.dst} is worth {gap} more than {move.src}, "
                                   f"so at most {max(gap, 0)} stones may go")
        statement = legal_statement(commitments, secret.game, header, secret.seat, n, move)
        blind = _blindings(secret)
        witness = _value_blinding(blind, move.dst) - _value_blinding(blind, move.src)
        try:
            proof = prove(statement, gap - move.count, (witness,), secret.nonce_key())
        except ValueError:
            raise ProofError(f"{secret.seat}'s commitments are not those of its secret and "
                             f"headers") from None
        return cls(proof)

    def check(self, commitments: HeaderCommitments, game: str, header: str, seat: str,
              n: int, move: StoneMove) -> tuple[Point, ...]:
        """Raises :class:`ProofError` unless this proves ``move`` legal for ``seat``'s
        commitments, as its ``n``-th stone move of this game; returns the proof's first
        messages."""
        return verified_first_messages(
            legal_statement(commitments, game, header, seat, n, move), self.proof,
            f"{seat}'s proof that {move} is legal")

    def to_json(self) -> list[str]:
        return self.proof.to_json()

    @classmethod
    def from_json(cls, data: JSON, seat: str) -> LegalProof:
        """A proof as :meth:`to_json` writes it: 2 to 16 scalars (2 per possible gap)."""
        what = f"{seat}'s legal move proof"
        if not isinstance(data, list) or not 2 <= len(data) <= 2 * MAX_GAP or len(data) % 2:
            raise ProofError(f"{what} is not a list of 2 to {2 * MAX_GAP} scalars, two per "
                             f"possible gap")
        return cls(Proof(_scalar_list(data, len(data), what)))


def _check_guess(guess: Sequence[int]) -> tuple[int, ...]:
    if len(guess) != len(SQUARES) or not all(type(v) is int and 1 <= v <= 9 for v in guess):
        raise NotationError(f"a guess is nine values 1 to 9, row 1 first, got {list(guess)}")
    return tuple(guess)


@frozen
class GuessOpening:
    """A guess (the opponent's nine values, row 1 first) and the salt of its commitment,
    shown once both seats' commitments are in."""

    guess: tuple[int, ...]
    salt: str

    @classmethod
    def make(cls, secret: SeatSecret, guess: Sequence[int]) -> GuessOpening:
        """The opening of ``secret``'s seat's guess; its salt is derived from the secret
        (the blinding of square ``guess``, hex), so the seat need keep nothing else."""
        return cls(_check_guess(guess), secret.blinding(ATTEMPT, GUESS_SALT).hex())

    def to_json(self) -> dict[str, JSON]:
        return {"guess": list(self.guess), "salt": self.salt}

    @classmethod
    def from_json(cls, data: JSON) -> GuessOpening:
        match data:
            case {"guess": [*guess], "salt": str(salt), **rest} if not rest \
                    and _SALT.fullmatch(salt) and len(guess) == len(SQUARES) \
                    and all(type(v) is int and 1 <= v <= 9 for v in guess):
                return cls(tuple(v for v in guess if isinstance(v, int)), salt)
        raise GameFileError("a guess opening is not {'guess': nine values 1 to 9, 'salt': "
                            "64 hex digits}")


@frozen
class GuessCommitment:
    """``sha256:`` + SHA-256 of the guess and its salt: shown first, opened when both
    seats' commitments are in, so neither guess can follow the other."""

    digest: str

    @classmethod
    def make(cls, game: str, seat: str, opening: GuessOpening) -> GuessCommitment:
        body = {"game": game, "seat": seat, "guess": list(opening.guess), "salt": opening.salt}
        return cls(sha256_tag(GUESS_PREFIX + canonical_json(body)))

    def check(self, game: str, seat: str, opening: GuessOpening) -> None:
        """Raises :class:`CommitmentError` unless ``opening`` is what ``seat`` committed to."""
        if GuessCommitment.make(game, seat, opening) != self:
            raise CommitmentError(f"{seat}'s opened guess is not the one it committed to")

    def open(self, game: str, seat: str, opening: GuessOpening) -> tuple[int, ...]:
        """The guess, once :meth:`check` found it the committed one."""
        self.check(game, seat, opening)
        return opening.guess

    def to_json(self) -> str:
        return self.digest

    @classmethod
    def from_json(cls, data: JSON) -> GuessCommitment:
        if not isinstance(data, str) or _DIGEST.fullmatch(data) is None:
            raise GameFileError("a guess commitment is not 'sha256:' and 64 hex digits")
        return cls(data)


def check_reveal(commitments: HeaderCommitments, headers: Headers, secret: SeatSecret) -> None:
    """Raises :class:`CommitmentError` unless ``headers`` and ``secret`` (revealed at the
    end) open every one of the seat's 36 cell commitments."""
    try:
        _check_headers(headers)
    except NotationError as error:
        raise CommitmentError(f"{secret.seat}'s revealed headers are no setup: {error}") \
            from None
    blind = _blindings(secret)
    for h, name in enumerate(HEADERS):
        for v in VALUES:
            if commitments.cells[h][v] != commit(int(headers[h] == v), blind[h][v]):
                raise CommitmentError(f"{secret.seat}'s revealed headers and secret do not "
                                      f"open its commitment to cell {cell(name, v)}")


def own_headers(commitments: HeaderCommitments, secret: SeatSecret) -> Headers:
    """The headers ``secret``'s seat committed to, read back from its own commitments
    (its blindings are derived from the secret: the seat keeps nothing else). Raises
    :class:`CommitmentError` unless each header's row opens to one value with them."""
    blind = _blindings(secret)
    found = []
    for h, name in enumerate(HEADERS):
        ones = [v for v in VALUES if commitments.cells[h][v] == commit(1, blind[h][v])]
        if len(ones) != 1:
            raise CommitmentError(f"{secret.seat}'s header commitments are not made with its "
                                  f"secret (header {name})")
        found.append(ones[0])
    headers: Headers = (found[0], found[1], found[2], found[3], found[4], found[5])
    return headers


def _guess_number(guess: Sequence[int]) -> int:
    """A guess as a number below 9^9: its values less one, as digits in base 9, the value
    of square A1 the lowest."""
    return sum((value - 1) * 9**i for i, value in enumerate(_check_guess(guess)))


def seal_guess(secret: SeatSecret, guess: Sequence[int]) -> int:
    """The seat's own copy of its guess, for its tool to open it later from the secret
    alone: ``(guess + pad) mod 9^9``, with ``pad`` the blinding of square ``guess-pad``
    (a one-time pad: uniform whatever the guess, until the secret is revealed)."""
    return (_guess_number(guess) + secret.blinding(ATTEMPT, GUESS_PAD).value) % GUESSES


def unseal_guess(secret: SeatSecret, sealed: int) -> tuple[int, ...]:
    """The guess :func:`seal_guess` sealed."""
    number = (sealed - secret.blinding(ATTEMPT, GUESS_PAD).value) % GUESSES
    return tuple(number // 9**i % 9 + 1 for i in range(len(SQUARES)))
