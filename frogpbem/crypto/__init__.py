"""All of frogpbem's cryptography: keys, SSH signatures, age sealing, hashes, and the
group, proofs and seat secrets of games without a referee.

Nothing outside this package imports ``cryptography`` or ``pyrage``.
Functions take and return ``bytes`` or ``str`` and raise
:class:`~frogpbem.errors.KeyError_`, :class:`~frogpbem.errors.SignatureError`
or :class:`~frogpbem.errors.CommitmentError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from frogpbem.crypto.digest import (
    KINDS,
    MAX_SAFE_INTEGER,
    PREFIX,
    Sha256Stream,
    b64decode_strict,
    b64encode,
    canonical_json,
    canonical_members,
    commitment,
    element_hash,
    new_salt,
    sha256,
    sha256_tag,
    signed_bytes,
    signed_bytes_of_parts,
)
from frogpbem.crypto.fairness import (
    SCHEME,
    DerivedChance,
    deal_key,
    new_seed,
    seed_commitment,
)
from frogpbem.crypto.keys import (
    PassphraseSource,
    PrivateKey,
    PublicKey,
    generate_key,
    load_private_key,
    load_public_key,
)
from frogpbem.crypto.seal import (
    payload_length,
    plaintext_length,
    recipient_tag,
    recipient_tags,
    seal,
    sealed_to_exactly,
    unseal,
)
from frogpbem.crypto.sshsig import armor, signer_of
from frogpbem.crypto.sshsig import sign as sign_blob
from frogpbem.crypto.sshsig import verify as verify_blob
from frogpbem.errors import SignatureError

if TYPE_CHECKING:
    import random

    from frogpbem.crypto.countbox import open_count, seal_count
    from frogpbem.crypto.duelsecret import SeatSecret
    from frogpbem.crypto.group import (
        G,
        H,
        L,
        Point,
        Scalar,
        commit,
        hash_to_scalar,
        opens_to,
        total,
    )
    from frogpbem.crypto.proofs import (
        Equation,
        Proof,
        Statement,
        bit_statement,
        empty_statement,
        first_messages,
        mask_statement,
        overlap_statement,
        prove,
        select_statement,
        verified_first_messages,
        verify,
    )

_REFEREE_FREE = {
    "frogpbem.crypto.group": ("G", "H", "L", "Point", "Scalar", "commit", "hash_to_scalar",
                              "opens_to", "total"),
    "frogpbem.crypto.proofs": ("Equation", "Proof", "Statement", "bit_statement",
                               "empty_statement", "first_messages", "mask_statement",
                               "overlap_statement", "prove", "select_statement",
                               "verified_first_messages", "verify"),
    "frogpbem.crypto.duelsecret": ("SeatSecret",),
    "frogpbem.crypto.countbox": ("open_count", "seal_count"),
}
"""The names of games without a referee, by module: imported when first asked for, so
that a command that plays none does not load libsodium (about 25 ms)."""

__all__ = [
    "KINDS",
    "MAX_SAFE_INTEGER",
    "PREFIX",
    "SCHEME",
    "Sha256Stream",
    "DerivedChance",
    "deal_key",
    "new_seed",
    "seed_commitment",
    "PassphraseSource",
    "PrivateKey",
    "PublicKey",
    "armor",
    "b64decode_strict",
    "b64encode",
    "canonical_json",
    "canonical_members",
    "commitment",
    "element_hash",
    "generate_key",
    "load_private_key",
    "load_public_key",
    "new_salt",
    "payload_length",
    "plaintext_length",
    "recipient_tag",
    "recipient_tags",
    "seal",
    "sealed_to_exactly",
    "secure_random",
    "sha256",
    "sha256_tag",
    "sign_blob",
    "sign_element",
    "signed_bytes",
    "signed_bytes_of_parts",
    "signer_of",
    "unseal",
    "verify_blob",
    "verify_message",
    "sign_message",
    # games without a referee (imported when first asked for, see _REFEREE_FREE)
    "G",
    "H",
    "L",
    "Point",
    "Scalar",
    "commit",
    "hash_to_scalar",
    "opens_to",
    "total",
    "Equation",
    "Proof",
    "Statement",
    "bit_statement",
    "empty_statement",
    "first_messages",
    "mask_statement",
    "overlap_statement",
    "prove",
    "select_statement",
    "verify",
    "verified_first_messages",
    "SeatSecret",
    "open_count",
    "seal_count",
]


def __getattr__(name: str) -> object:
    """A name of games without a referee (see ``_REFEREE_FREE``), from its module."""
    import importlib

    for module, names in _REFEREE_FREE.items():
        if name in names:
            return getattr(importlib.import_module(module), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def sign_message(key: PrivateKey, message: bytes) -> str:
    """The base64 SSHSIG signature of ``message`` (an element's :func:`signed_bytes`)."""
    return b64encode(sign_blob(key, message))


def verify_message(key: PublicKey, message: bytes, signature: str) -> None:
    """Check a base64 SSHSIG ``signature`` of ``message``; raises :class:`SignatureError`."""
    try:
        blob = b64decode_strict(signature)
    except ValueError:
        raise SignatureError("malformed signature") from None
    verify_blob(key, message, blob)


def sign_element(key: PrivateKey, kind: str, element: dict[str, object],
                 encoded: dict[str, bytes] | None = None) -> str:
    """The base64 SSHSIG signature of an element (its ``signature`` field left out), with
    the members ``encoded`` given as canonical JSON already."""
    if encoded:
        return sign_message(key, signed_bytes_of_parts(kind, element, encoded))
    return sign_message(key, signed_bytes(kind, element))


def secure_random() -> random.Random:
    """A random generator backed by the operating system's CSPRNG."""
    import random

    return random.SystemRandom()
