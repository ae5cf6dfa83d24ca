"""Canonical bytes, hashes and commitments: every domain prefix lives here."""

from __future__ import annotations

import base64
import json
import os
import re
from typing import Any

import rfc8785
from cryptography.hazmat.primitives import hashes, hmac

from frogpbem.errors import GameFileError

PREFIX = "frogpbem/1 "
KINDS = ("header", "record", "request", "reveal", "view", "note", "join", "deal", "duel",
         "message", "stamp", "timeout", "tournament", "round")
"""The kinds of signed element; a signature of one kind never verifies as another (``duel``
and ``message``: the header and the messages of a game without a referee; ``stamp`` and
``timeout``: its notary's; ``tournament`` and ``round``: a tournament file's)."""
COMMIT_PREFIX = b"frogpbem/1 commit\n"
"""Commitments to a seat's hidden setup, or to a sealed move."""
SEED_PREFIX = b"frogpbem/1 seed\n"
"""The commitment to the referee's dealing seed."""
DEAL_KEY_PREFIX = b"frogpbem/1 deal-key\n"
"""The dealer's key derived from every seed (not a signing kind: its own tag)."""


MAX_SAFE_INTEGER = 2**53 - 1
"""Integers up to this size (either sign) are written by canonical JSON as they are."""
_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def canonical_json(value: Any) -> bytes:
    """RFC 8785 canonical JSON of ``value``.

    For the values frogpbem signs (objects, arrays, strings, safe integers,
    booleans, null) the standard library's encoder with sorted keys writes
    exactly the RFC 8785 bytes, much faster than a general implementation;
    anything else (floats, keys beyond the BMP whose UTF-16 order differs)
    goes to the ``rfc8785`` package. Tests check the two agree.
    """
    if _simple(value):
        return _encoder.encode(value).encode("utf-8")
    try:
        data: bytes = rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, TypeError, ValueError) as exc:
        raise GameFileError(f"value cannot be canonicalised: {exc}") from None
    return data


def _simple(value: Any) -> bool:
    """Whether ``value`` holds only what the standard encoder writes canonically (a value
    nested too deeply to look through is not)."""
    try:
        return _plain(value)
    except RecursionError:
        return False


_SURROGATE = re.compile("[\ud800-\udfff]")


def _plain(value: Any) -> bool:
    kind = type(value)
    if kind is dict:
        for key, item in value.items():  # most members are strings: looked at here
            if type(key) is not str or not key.isascii():
                return False
            if type(item) is str:
                if not item.isascii() and _SURROGATE.search(item):
                    return False
            elif not _plain(item):
                return False
        return True
    if kind is str:
        return value.isascii() or not _SURROGATE.search(value)
    if kind is list:
        return all(map(_plain, value))
    if kind is int:
        number: int = value
        return -MAX_SAFE_INTEGER <= number <= MAX_SAFE_INTEGER
    return value is None or kind is bool


def signed_bytes(kind: str, element: dict[str, Any]) -> bytes:
    """The bytes signed for an element: prefix, kind, newline, canonical JSON (no signature)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    body = {k: v for k, v in element.items() if k != "signature"}
    return f"{PREFIX}{kind}\n".encode() + canonical_json(body)


def signed_bytes_of_parts(kind: str, element: dict[str, Any],
                          encoded: dict[str, bytes]) -> bytes:
    """:func:`signed_bytes` of ``element`` with the members ``encoded`` added, each given
    as its canonical JSON already (a view's list of every record, made once per record)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    members = {k: v for k, v in element.items() if k != "signature"}
    return f"{PREFIX}{kind}\n".encode() + canonical_members(members, encoded)


def canonical_members(members: dict[str, Any], encoded: dict[str, bytes]) -> bytes:
    """The canonical JSON of an object of ``members`` and of the members ``encoded``,
    given as canonical JSON already: the same bytes as :func:`canonical_json` of the
    whole object (members in the order of their names, which must be ASCII)."""
    parts = {name: canonical_json(value) for name, value in members.items()}
    parts.update(encoded)
    if not all(name.isascii() for name in parts):
        raise ValueError("member names must be ASCII")
    return b"{" + b",".join(canonical_json(name) + b":" + parts[name]
                            for name in sorted(parts)) + b"}"


def sha256(data: bytes) -> bytes:
    """The SHA-256 digest of ``data``.

    Every hash of frogpbem is made with cryptography's OpenSSL, already loaded for the
    signatures: the standard library's ``hashlib`` would load a second OpenSSL at every
    command's start.
    """
    digest = hashes.Hash(hashes.SHA256())
    digest.update(data)
    return digest.finalize()


class Sha256Stream:
    """SHA-256 of bytes given piece by piece; :meth:`copy` forks it, so that a digest of
    a longer text can go on from one of its beginning."""

    def __init__(self, state: hashes.Hash | None = None) -> None:
        self._state = state if state is not None else hashes.Hash(hashes.SHA256())

    def update(self, data: bytes) -> None:
        self._state.update(data)

    def copy(self) -> Sha256Stream:
        return Sha256Stream(self._state.copy())

    def tag(self) -> str:
        """``sha256:`` and the hex digest of everything given so far (it can go on)."""
        return "sha256:" + self._state.copy().finalize().hex()


def sha512(data: bytes) -> bytes:
    """The SHA-512 digest of ``data`` (SSH signatures hash their message with it)."""
    digest = hashes.Hash(hashes.SHA512())
    digest.update(data)
    return digest.finalize()


def hmac_sha256(key: bytes, data: bytes) -> bytes:
    """HMAC-SHA256 of ``data`` under ``key``."""
    mac = hmac.HMAC(key, hashes.SHA256())
    mac.update(data)
    return mac.finalize()


def sha256_tag(data: bytes) -> str:
    """``sha256:`` and the hex digest of ``data``."""
    return "sha256:" + sha256(data).hex()


def element_hash(kind: str, element: dict[str, Any]) -> str:
    """The hash that the next element's ``prev`` names."""
    return sha256_tag(signed_bytes(kind, element))


def commitment(game: str, seat: str, salt: str, secret: Any) -> str:
    """The header's commitment to one seat's hidden data."""
    body = canonical_json({"game": game, "seat": seat, "salt": salt, "secret": secret})
    return sha256_tag(COMMIT_PREFIX + body)


def new_salt() -> str:
    """32 random bytes, hex."""
    return os.urandom(32).hex()


def b64encode(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64decode_strict(text: str) -> bytes:
    """Decode base64, refusing anything but the one canonical encoding."""
    try:
        data = base64.b64decode(text, validate=True)
    except (ValueError, TypeError):
        raise ValueError("not base64") from None
    if base64.b64encode(data).decode("ascii") != text:
        raise ValueError("not canonical base64")
    return data
