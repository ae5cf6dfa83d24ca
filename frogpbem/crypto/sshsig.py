"""SSH signatures (the SSHSIG format of ``ssh-keygen -Y sign``) with Ed25519.

See OpenSSH's PROTOCOL.sshsig. The blob is what the armoured
``-----BEGIN SSH SIGNATURE-----`` file holds, base64-decoded.
"""

from __future__ import annotations

import base64
import functools
import struct

from frogpbem.crypto.digest import sha256, sha512
from frogpbem.crypto.keys import KEY_TYPE, PrivateKey, PublicKey, SshReader, ssh_string
from frogpbem.errors import SignatureError

MAGIC = b"SSHSIG"
VERSION = 1
NAMESPACE = "frogpbem"
HASH = "sha512"
_HASHES = {"sha512": sha512, "sha256": sha256}


def _to_be_signed(message: bytes, namespace: str, hash_name: str) -> bytes:
    """What the Ed25519 signature covers: the fields of :func:`_signed_lead`, then the
    hash of ``message``."""
    return _signed_lead(namespace, hash_name) + ssh_string(_HASHES[hash_name](message))


@functools.lru_cache(maxsize=8)
def _signed_lead(namespace: str, hash_name: str) -> bytes:
    """The signed text's fields before the message's hash: the magic, the namespace, an
    empty ``reserved`` field and the hash's name."""
    return (MAGIC + ssh_string(namespace.encode()) + ssh_string(b"")
            + ssh_string(hash_name.encode()))


RAW_SIZE = 64
"""The size of an Ed25519 signature."""


@functools.lru_cache(maxsize=64)
def _lead(key_blob: bytes, namespace: str) -> bytes:
    """All of a signature blob that :func:`sign` makes with this key and namespace but its
    last ``RAW_SIZE`` bytes, the Ed25519 signature itself."""
    return (
        MAGIC
        + struct.pack(">I", VERSION)
        + ssh_string(key_blob)
        + ssh_string(namespace.encode())
        + ssh_string(b"")
        + ssh_string(HASH.encode())
        + struct.pack(">I", 4 + len(KEY_TYPE) + 4 + RAW_SIZE)
        + ssh_string(KEY_TYPE.encode())
        + struct.pack(">I", RAW_SIZE)
    )


def sign(key: PrivateKey, message: bytes, namespace: str = NAMESPACE) -> bytes:
    """An SSHSIG blob over ``message``."""
    raw = key.sign_raw(_to_be_signed(message, namespace, HASH))  # RAW_SIZE bytes: Ed25519
    return _lead(key.public.blob, namespace) + raw


def signer_of(blob: bytes) -> PublicKey:
    """The public key a signature blob claims to be made by."""
    try:
        reader = SshReader(blob)
        if reader.take(6) != MAGIC:
            raise ValueError("bad magic")
        reader.take(4)
        return PublicKey(reader.string())
    except (ValueError, struct.error):
        raise SignatureError("malformed signature") from None


def verify(key: PublicKey, message: bytes, blob: bytes, namespace: str = NAMESPACE) -> None:
    """Check that ``blob`` is ``key``'s signature of ``message``; raises :class:`SignatureError`.

    Only the one form :func:`sign` writes is accepted (SSHSIG v1, this key and namespace,
    an empty ``reserved`` field, SHA-512 inside, an Ed25519 signature): ``ssh-keygen -Y
    sign`` writes the same. The blob's ``reserved`` field is not covered by the Ed25519
    signature (OpenSSH signs an empty one whatever the blob holds), so a blob allowing
    others could be re-written by anyone into another text that still verifies: a
    signature must have one text, as requests and notes are recognised by it. Any other
    blob is read field by field only to say what is wrong with it.
    """
    lead = _lead(key.blob, namespace)
    if len(blob) != len(lead) + RAW_SIZE or not blob.startswith(lead):
        _read(key, blob, namespace)
        raise SignatureError("signature not in the one form frogpbem accepts (SSHSIG v1, "
                             "SHA-512, empty reserved field): re-written by someone")
    from nacl.bindings import crypto_sign_open  # here: a command that checks nothing needs none
    from nacl.exceptions import BadSignatureError

    try:
        raw_key = _raw_key(key.blob)
    except ValueError:
        raise SignatureError("malformed key: not an ssh-ed25519 key") from None
    try:
        crypto_sign_open(blob[len(lead):] + _to_be_signed(message, namespace, HASH), raw_key)
    except BadSignatureError:
        raise SignatureError("invalid signature") from None


def raw_signature(blob: bytes) -> bytes:
    """The Ed25519 signature a verified blob ends with: what the signer's key made,
    the same whatever was written around it."""
    return blob[-RAW_SIZE:]


@functools.lru_cache(maxsize=64)
def _raw_key(key_blob: bytes) -> bytes:
    """The key's 32 bytes, taken once per key (a game's signatures are mostly the
    referee's); raises ``ValueError`` for a blob that is no ssh-ed25519 key (libsodium
    reads 32 bytes, whatever it is given)."""
    raw = PublicKey(key_blob).raw
    if len(raw) != 32:
        raise ValueError("not a 32-byte key")
    return raw


def _read(key: PublicKey, blob: bytes, namespace: str) -> tuple[bytes, str]:
    """A signature blob read field by field and checked to be ``key``'s, in ``namespace``:
    the Ed25519 signature and the name of the hash it signs (what :func:`verify` says of
    a blob not in its one form)."""
    try:
        reader = SshReader(blob)
        if reader.take(6) != MAGIC or struct.unpack(">I", reader.take(4))[0] != VERSION:
            raise ValueError("not an SSHSIG v1 signature")
        signer = reader.string()
        signed_namespace = reader.string().decode()
        reader.string()  # reserved
        hash_name = reader.string().decode()
        inner = SshReader(reader.string())
        sig_type = inner.string()
        raw = inner.string()
        if reader.pos != len(blob) or inner.pos != len(inner.data):
            raise ValueError("trailing bytes")
    except (ValueError, struct.error, UnicodeDecodeError):
        raise SignatureError("malformed signature") from None
    if signer != key.blob:
        raise SignatureError(f"signed by another key ({PublicKey(signer).fingerprint})")
    if signed_namespace != namespace:
        raise SignatureError(f"signature is for namespace {signed_namespace!r}")
    if hash_name not in _HASHES or sig_type != KEY_TYPE.encode():
        raise SignatureError("unsupported signature algorithm")
    return raw, hash_name


def armor(blob: bytes) -> str:
    """The blob as ``ssh-keygen`` writes it to a ``.sig`` file."""
    text = base64.b64encode(blob).decode()
    lines = [text[i : i + 70] for i in range(0, len(text), 70)]
    return "-----BEGIN SSH SIGNATURE-----\n" + "\n".join(lines) + "\n-----END SSH SIGNATURE-----\n"
