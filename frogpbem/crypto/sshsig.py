"""SSH signatures (the SSHSIG format of ``ssh-keygen -Y sign``) with Ed25519.

See OpenSSH's PROTOCOL.sshsig. The blob is what the armoured
``-----BEGIN SSH SIGNATURE-----`` file holds, base64-decoded.
"""

from __future__ import annotations

import base64
import struct

from cryptography.exceptions import InvalidSignature

from frogpbem.crypto.digest import sha256, sha512
from frogpbem.crypto.keys import KEY_TYPE, PrivateKey, PublicKey, SshReader, ssh_string
from frogpbem.errors import SignatureError

MAGIC = b"SSHSIG"
VERSION = 1
NAMESPACE = "frogpbem"
HASH = "sha512"
_HASHES = {"sha512": sha512, "sha256": sha256}


def _to_be_signed(message: bytes, namespace: str, hash_name: str) -> bytes:
    digest = _HASHES[hash_name](message)
    return (
        MAGIC
        + ssh_string(namespace.encode())
        + ssh_string(b"")
        + ssh_string(hash_name.encode())
        + ssh_string(digest)
    )


def sign(key: PrivateKey, message: bytes, namespace: str = NAMESPACE) -> bytes:
    """An SSHSIG blob over ``message``."""
    raw = key.sign_raw(_to_be_signed(message, namespace, HASH))
    return (
        MAGIC
        + struct.pack(">I", VERSION)
        + ssh_string(key.public.blob)
        + ssh_string(namespace.encode())
        + ssh_string(b"")
        + ssh_string(HASH.encode())
        + ssh_string(ssh_string(KEY_TYPE.encode()) + ssh_string(raw))
    )


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
    """Check that ``blob`` is ``key``'s signature of ``message``; raises :class:`SignatureError`."""
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
    try:
        key.verifier().verify(raw, _to_be_signed(message, namespace, hash_name))
    except InvalidSignature:
        raise SignatureError("invalid signature") from None


def armor(blob: bytes) -> str:
    """The blob as ``ssh-keygen`` writes it to a ``.sig`` file."""
    text = base64.b64encode(blob).decode()
    lines = [text[i : i + 70] for i in range(0, len(text), 70)]
    return "-----BEGIN SSH SIGNATURE-----\n" + "\n".join(lines) + "\n-----END SSH SIGNATURE-----\n"
