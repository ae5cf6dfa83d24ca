"""Sealing with age to ``ssh-ed25519`` recipients (ASCII-armoured)."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

import pyrage
from pyrage import ssh as age_ssh

from frogpbem.crypto.digest import sha256
from frogpbem.crypto.keys import PrivateKey, PublicKey
from frogpbem.errors import CommitmentError, KeyError_

ARMOR_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"


def seal(plaintext: bytes, recipients: Sequence[PublicKey]) -> str:
    """``plaintext`` encrypted with age to every recipient, armoured."""
    targets = [age_ssh.Recipient.from_str(key.line) for key in recipients]
    armored: bytes = pyrage.encrypt(plaintext, targets, armored=True)
    return armored.decode("ascii")


def _identity(key: PrivateKey) -> Any:
    if not key._age:
        key._age.append(age_ssh.Identity.from_buffer(key.unencrypted_pem()))
    return key._age[0]


RECENT_OPENED = 64
"""How many plaintexts a key keeps, by ciphertext (a referee and its players' tools open
the same setups at every move of a game kept in memory)."""


def unseal(armored: str, key: PrivateKey) -> bytes:
    """Decrypt an age file with ``key``; raises :class:`KeyError_` if it cannot."""
    opened = key._opened
    if armored in opened:
        opened.move_to_end(armored)
        return opened[armored]
    try:
        plaintext: bytes = pyrage.decrypt(armored.encode("ascii"), [_identity(key)])
    except (pyrage.DecryptError, UnicodeEncodeError, ValueError):
        raise KeyError_(
            f"key {key.public.fingerprint} cannot open this sealed data"
        ) from None
    opened[armored] = plaintext
    while len(opened) > RECENT_OPENED:
        opened.popitem(last=False)
    return plaintext


def recipient_tag(key: PublicKey) -> str:
    """The tag age writes in an ``ssh-ed25519`` stanza for ``key``."""
    return base64.b64encode(sha256(key.blob)[:4]).decode().rstrip("=")


def _dearmor(armored: str) -> bytes:
    lines = armored.strip().splitlines()
    if not lines or lines[0] != ARMOR_BEGIN or not lines[-1].startswith("-----END"):
        raise CommitmentError("sealed data is not an armoured age file")
    try:
        return base64.b64decode("".join(lines[1:-1]), validate=True)
    except ValueError:
        raise CommitmentError("sealed data is not valid base64") from None


def payload_length(armored: str) -> int:
    """Length of the encrypted payload, after the age header.

    The header's length varies at random (age adds a "grease" stanza of
    random size to every file); the payload's length is the padded
    plaintext's, the same for every secret of a game.
    """
    raw = _dearmor(armored)
    mac_line = raw.index(b"\n---")
    return len(raw) - raw.index(b"\n", mac_line + 1) - 1


def plaintext_length(armored: str) -> int:
    """The length of what an age file holds: its payload less the nonce and the chunk tags."""
    body = payload_length(armored) - 16  # the payload's 16-byte nonce
    chunks = max(1, -(-body // (65536 + 16)))  # 64 KiB chunks, each with a 16-byte tag
    return body - 16 * chunks


def sealed_to_exactly(armored: str, keys: Sequence[PublicKey]) -> bool:
    """Whether an age file is addressed to exactly ``keys``, and to no one else.

    Every recipient stanza must be an ``ssh-ed25519`` one with the tag of one
    of ``keys``, each once; the only others allowed are the "grease" stanzas
    age adds, which no one can open. An X25519 or plugin stanza fails.
    """
    return sorted(recipient_tags(armored, strict=True)) == sorted(recipient_tag(k) for k in keys)


def recipient_tags(armored: str, strict: bool = False) -> list[str]:
    """The ``ssh-ed25519`` recipient tags in an armoured age file's header.

    ``strict``: any other stanza, but grease, raises :class:`CommitmentError`.
    """
    raw = _dearmor(armored)
    header = raw.split(b"\n---", 1)[0].decode("ascii", "replace").splitlines()
    if not header or header[0] != "age-encryption.org/v1":
        raise CommitmentError("sealed data is not an age v1 file")
    tags = []
    for line in header[1:]:
        if not line.startswith("-> "):
            continue
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "ssh-ed25519":
            tags.append(parts[2])
        elif strict and not (len(parts) >= 2 and parts[1].endswith("-grease")):
            raise CommitmentError(f"sealed data has a {parts[1:2]} recipient stanza")
    return tags
