"""Sealed secrets: sealing and committing, opening and checking, in one place.

Every secret in a game file — a seat's hidden setup, a sealed move, a team
note, the referee's dealing seed — is the same thing: the canonical JSON of
``{game, seat, salt, secret}`` padded to a fixed length and sealed with age
to its readers, usually with a commitment to ``{game, seat, salt, secret}``
beside it. Opening checks that the plaintext belongs to this game and this
owner, and that it matches the commitment.
"""

from __future__ import annotations

from collections.abc import Sequence

from frogpbem import crypto
from frogpbem.errors import CommitmentError, FrogPbemError, GameFileError, KeyError_
from frogpbem.frozen import frozen
from frogpbem.gamefile.model import JSON, Opened, Plaintext, Sealed

BLOCK = 256
"""Plaintexts are padded to a multiple of this many bytes (their length says little)."""


def pad(body: bytes, length: int | None = None) -> bytes:
    """``body`` padded with JSON white space to ``length``, or to the next multiple of BLOCK.

    Trailing spaces are JSON white space: the stock ``age -d`` output still parses.
    """
    target = length if length is not None else len(body) + (-len(body) % BLOCK)
    if len(body) > target:
        raise GameFileError(f"a secret is too large to seal ({len(body)} > {target} bytes)")
    return body + b" " * (target - len(body))


def setup_length(bound: int) -> int:
    """The one plaintext length of every seat's setup, for secrets of at most ``bound`` bytes."""
    return -(-(bound + BLOCK) // BLOCK) * BLOCK


@frozen
class SealedSecret:
    """A secret of ``owner`` in game ``game``, sealed (and usually committed to)."""

    game: str
    owner: str
    """The seat it belongs to (``referee`` for the dealing seed)."""
    armored: str
    """The age-armoured ciphertext."""
    commitment: str | None = None
    """``commit(game, owner, salt, secret)``; ``None`` for what needs none (notes)."""
    what: str = "sealed data"
    """What it is, for messages (``sealed setup of red``)."""

    @classmethod
    def seal(cls, game: str, owner: str, secret: JSON, recipients: Sequence[crypto.PublicKey],
             length: int | None = None, what: str = "sealed data") -> SealedSecret:
        """Seal ``secret`` to ``recipients`` with a fresh salt, and commit to it."""
        salt = crypto.new_salt()
        body = crypto.canonical_json({"game": game, "seat": owner, "salt": salt, "secret": secret})
        return cls(game, owner, crypto.seal(pad(body, length), list(recipients)),
                   crypto.commitment(game, owner, salt, secret), what)

    @classmethod
    def of(cls, game: str, owner: str, sealed: Sealed, what: str) -> SealedSecret:
        """A sealed-and-committed field of the file."""
        return cls(game, owner, sealed.sealed, sealed.commitment, what)

    @property
    def field(self) -> Sealed:
        """As the file holds it."""
        if self.commitment is None:
            raise ValueError("a secret without commitment is not a Sealed field")
        return Sealed(self.armored, self.commitment)

    def open(self, key: crypto.PrivateKey) -> Opened:
        """Decrypt with ``key`` and check owner, game and commitment; raises CommitmentError."""
        try:
            plain = Plaintext.parse(crypto.unseal(self.armored, key))
        except GameFileError:
            raise CommitmentError(f"the {self.what} is not readable") from None
        except KeyError_:  # callers open only what the key's holder may read
            raise CommitmentError(f"the {self.what} does not open with key "
                                  f"{key.public.fingerprint}: it is damaged, or not sealed "
                                  "to that key") from None
        opened = Opened(plain.salt, plain.secret)
        if (plain.game, plain.seat) != (self.game, self.owner):
            raise CommitmentError(f"the {self.what} belongs to another game or seat")
        self.check(opened)
        return opened

    def matches(self, opened: Opened) -> bool:
        """Whether a revealed secret is the one committed to."""
        return self.commitment is None or crypto.commitment(
            self.game, self.owner, opened.salt, opened.secret) == self.commitment

    def check(self, opened: Opened) -> None:
        """Raise :class:`CommitmentError` unless ``opened`` matches the commitment."""
        if not self.matches(opened):
            raise CommitmentError(f"the {self.what} does not match its commitment")

    def addressed_to_exactly(self, recipients: Sequence[crypto.PublicKey]) -> bool:
        """Whether the age file names exactly these recipients (no one else can open it)."""
        try:
            return crypto.sealed_to_exactly(self.armored, list(recipients))
        except FrogPbemError:
            return False
