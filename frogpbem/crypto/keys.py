"""OpenSSH Ed25519 identities: loading, generating, fingerprints."""

from __future__ import annotations

import base64
import functools
import os
import stat
import struct
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from frogpbem.crypto.digest import sha256
from frogpbem.errors import FileAccessError, KeyError_, UsageError
from frogpbem.frozen import frozen

if TYPE_CHECKING:
    from cryptography.hazmat.primitives import serialization

KEY_TYPE = "ssh-ed25519"

PassphraseSource = Callable[[Path], bytes | None]
"""Given the key's path, returns its passphrase (or ``None`` to give up)."""


def _has_control(text: str) -> bool:
    """Whether ``text`` holds a control character other than a tab (C0, DEL or C1)."""
    return any(ord(char) < 0x20 or 0x7f <= ord(char) < 0xa0 for char in text if char != "\t")


def ssh_string(data: bytes) -> bytes:
    """An SSH wire-format string: 4-byte big-endian length, then the bytes."""
    return struct.pack(">I", len(data)) + data


@frozen
class PublicKey:
    """An Ed25519 public key as an OpenSSH key line."""

    blob: bytes
    """The key in SSH wire format (type and key bytes)."""
    comment: str = ""
    """The comment after the key, if any (not part of the key)."""

    @classmethod
    def parse(cls, line: str) -> PublicKey:
        """Parse ``ssh-ed25519 AAAA… comment``, exactly one line; raises :class:`KeyError_`."""
        text = line.strip()
        lines = len(text.splitlines())
        if lines > 1:
            raise KeyError_(f"expected one 'ssh-ed25519 AAAA…' public key line, got {lines} "
                            "lines: give a .pub file with exactly one key")
        if _has_control(text):
            raise KeyError_("a public key line may not hold control characters (in its "
                            "comment, say)")
        parts = text.split(None, 2)
        if len(parts) < 2 or parts[0] != KEY_TYPE:
            shown = line.strip()[:40]
            raise KeyError_(f"expected an 'ssh-ed25519 AAAA…' public key, got {shown!r}")
        try:
            blob = base64.b64decode(parts[1], validate=True)
            usable = _usable(_key_bytes(blob))
        except ValueError:
            raise KeyError_(f"malformed ssh-ed25519 public key {parts[1][:20]!r}…") from None
        if not usable:
            raise KeyError_(f"ssh-ed25519 public key {parts[1][:20]!r}… is no key anybody "
                            "holds (not a point of Ed25519's prime-order group, in its one "
                            "encoding): no signature by it would be accepted")
        return cls(blob, parts[2] if len(parts) > 2 else "")

    @property
    def line(self) -> str:
        """The full key line, with its comment when it has one."""
        text = f"{KEY_TYPE} {base64.b64encode(self.blob).decode()}"
        return f"{text} {self.comment}" if self.comment else text

    @property
    def fingerprint(self) -> str:
        """``SHA256:…`` as ssh-keygen prints it."""
        digest = base64.b64encode(sha256(self.blob)).decode().rstrip("=")
        return f"SHA256:{digest}"

    def same_key(self, other: PublicKey) -> bool:
        """True when both name the same key (comments aside)."""
        return self.blob == other.blob

    @property
    def raw(self) -> bytes:
        """The 32 bytes of the Ed25519 key (RFC 8032's encoding of its point)."""
        return _key_bytes(self.blob)

    def verifier(self) -> Ed25519PublicKey:
        """OpenSSL's verifier of the key: a second implementation for the tests to check
        against (frogpbem checks signatures with libsodium, see :mod:`.sshsig`)."""
        return Ed25519PublicKey.from_public_bytes(_key_bytes(self.blob))


@functools.lru_cache(maxsize=1024)
def _usable(raw: bytes) -> bool:
    """Whether the 32 bytes encode, canonically, a point of the prime-order group other
    than the neutral one: what every key made from a secret scalar is, and what libsodium
    checks a signer's key to be (a key of small order is refused there, whoever signs)."""
    from nacl.bindings import crypto_core_ed25519_is_valid_point

    return bool(crypto_core_ed25519_is_valid_point(raw))


def _key_bytes(blob: bytes) -> bytes:
    expected = ssh_string(KEY_TYPE.encode())
    if not blob.startswith(expected) or len(blob) != len(expected) + 4 + 32:
        raise ValueError("not an ssh-ed25519 key blob")
    return blob[len(expected) + 4 :]


@frozen
class PrivateKey:
    """An Ed25519 private key loaded from an OpenSSH key file."""

    signer: Ed25519PrivateKey
    """The key itself."""
    public: PublicKey
    """Its public half."""
    path: Path | None = None
    """Where it was read from."""
    _age: list[Any] = field(default_factory=list, repr=False, compare=False)
    _opened: OrderedDict[str, bytes] = field(default_factory=OrderedDict, repr=False,
                                             compare=False)
    """The last sealed data this key opened, by ciphertext (see :func:`~frogpbem.crypto.unseal`)."""
    _pem: bytes | None = field(default=None, repr=False, compare=False)
    """The key file's own bytes when it was an unencrypted OpenSSH key (for age)."""

    def sign_raw(self, data: bytes) -> bytes:
        return self.signer.sign(data)

    def unencrypted_pem(self) -> bytes:
        """The key as an unencrypted OpenSSH PEM (in memory only, for age)."""
        if self._pem is not None:
            return self._pem
        from cryptography.hazmat.primitives import serialization

        return self.signer.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.OpenSSH,
            serialization.NoEncryption(),
        )


def from_signer(
    signer: Ed25519PrivateKey, comment: str = "", path: Path | None = None
) -> PrivateKey:
    raw = signer.public_key().public_bytes_raw()
    blob = ssh_string(KEY_TYPE.encode()) + ssh_string(raw)
    return PrivateKey(signer, PublicKey(blob, comment), path)


def load_public_key(text_or_path: str) -> PublicKey:
    """A public key from a key line or from a ``.pub`` file."""
    if text_or_path.lstrip().startswith("ssh-"):
        return PublicKey.parse(text_or_path)
    path = Path(text_or_path).expanduser()
    try:
        return PublicKey.parse(read_key_file(path).decode("utf-8", "replace"))
    except OSError as exc:
        raise FileAccessError(f"cannot read public key {str(path)!r}: {exc.strerror}") from None
    except KeyError_ as exc:
        raise exc.within(path=path) from None


def load_private_key(path: Path, passphrase: PassphraseSource | None = None) -> PrivateKey:
    """Load an OpenSSH Ed25519 private key, refusing one readable by others."""
    try:
        info = path.stat()
        data = read_key_file(path)
    except OSError as exc:
        raise KeyError_(f"cannot read key {str(path)!r}: {exc.strerror}") from None
    if data.startswith(b"ssh-"):
        private = path.with_name(path.name.removesuffix(".pub"))
        hint = f" (the private key is probably {str(private)!r})" if private != path else ""
        raise KeyError_(f"{str(path)!r} is a public key: give your private key{hint}")
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        mode = stat.S_IMODE(info.st_mode)
        raise KeyError_(
            f"private key {str(path)!r} is accessible by others (mode {mode:04o}); "
            f"run: chmod 600 {path}"
        )
    if b"PRIVATE KEY" not in data:
        raise KeyError_(f"{str(path)!r} is not a private key file")
    comment = ""
    pub = path.with_name(path.name + ".pub")
    if pub.exists():
        try:
            comment = PublicKey.parse(read_key_file(pub).decode("utf-8", "replace")).comment
        except (OSError, KeyError_):
            comment = ""
    plain = _plain_openssh_ed25519(data)
    if plain is not None:
        signer, blob, pem = plain
        return PrivateKey(signer, PublicKey(blob, comment), path, _pem=pem)
    password = None
    if b"bcrypt" in _openssh_header(data):
        password = passphrase(path) if passphrase else None
        if password is None:
            raise KeyError_(
                f"key {str(path)!r} is protected by a passphrase; "
                "set FROGPBEM_PASSPHRASE or run in a terminal"
            )
    from cryptography.hazmat.primitives import serialization

    try:
        loaded = serialization.load_ssh_private_key(data, password)
    except ValueError as exc:
        reason = "wrong passphrase" if password is not None else str(exc)
        raise KeyError_(f"cannot load key {str(path)!r}: {reason}") from None
    except Exception as exc:  # cryptography's UnsupportedAlgorithm and friends
        raise KeyError_(f"cannot load key {str(path)!r}: {exc}") from None
    if not isinstance(loaded, Ed25519PrivateKey):
        raise KeyError_(f"key {str(path)!r} is not an Ed25519 key (use ssh-keygen -t ed25519)")
    return from_signer(loaded, comment, path)


KEY_FILE_LIMIT = 64 * 1024
"""Key files are small; anything larger is not one."""


def read_key_file(path: Path) -> bytes:
    """A key file's bytes: a regular file of at most KEY_FILE_LIMIT bytes (no pipe, no device).

    Raises :class:`KeyError_` for what is not a key file, ``OSError`` if it cannot be read.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise KeyError_(f"{str(path)!r} is not a regular file")
        data = handle.read(KEY_FILE_LIMIT + 1)
    if len(data) > KEY_FILE_LIMIT:
        raise KeyError_(f"{str(path)!r} is too large to be a key file")
    return data


_OPENSSH_MAGIC = b"openssh-key-v1\0"


def _plain_openssh_ed25519(data: bytes) -> tuple[Ed25519PrivateKey, bytes, bytes] | None:
    """The key, its public blob and the file as OpenSSH writes it (lines of 70, for age),
    of an unencrypted OpenSSH Ed25519 key file, read directly.

    This is the common case, and reading it by hand spares every command the import of
    cryptography's key serialization. Anything else (a passphrase, another
    key type, a damaged file) gives ``None``, and cryptography's loader then reads it or
    says what is wrong.
    """
    lines = data.strip().splitlines()
    if len(lines) < 3 or lines[0] != b"-----BEGIN OPENSSH PRIVATE KEY-----" \
            or lines[-1] != b"-----END OPENSSH PRIVATE KEY-----":
        return None
    try:
        body = base64.b64decode(b"".join(lines[1:-1]), validate=True)
    except ValueError:
        return None
    if not body.startswith(_OPENSSH_MAGIC):
        return None
    try:
        fields = SshReader(body[len(_OPENSSH_MAGIC):])
        cipher, kdf, options = fields.string(), fields.string(), fields.string()
        if (cipher, kdf, options, fields.uint()) != (b"none", b"none", b"", 1):
            return None
        blob, private = fields.string(), SshReader(fields.string())
        if fields.rest():
            return None
        check, again = private.uint(), private.uint()
        kind, public, secret = private.string(), private.string(), private.string()
        private.string()  # the comment: the .pub file's comment is the one shown
        padding = private.rest()
    except ValueError:  # a field runs past the end
        return None
    if (check != again or kind != KEY_TYPE.encode()
            or len(public) != 32 or len(secret) != 64 or secret[32:] != public
            or blob != ssh_string(kind) + ssh_string(public)
            or padding != bytes(range(1, len(padding) + 1))):
        return None
    signer = Ed25519PrivateKey.from_private_bytes(secret[:32])
    if signer.public_key().public_bytes_raw() != public:
        return None
    encoded = base64.b64encode(body)
    pem = b"\n".join([lines[0], *(encoded[i:i + 70] for i in range(0, len(encoded), 70)),
                      lines[-1]]) + b"\n"
    return signer, blob, pem


class SshReader:
    """Reads SSH wire-format fields (key files, signature blobs) from bytes in order;
    raises ``ValueError`` for a field that runs past the end."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, count: int) -> bytes:
        if self.pos + count > len(self.data):
            raise ValueError("truncated")
        chunk = self.data[self.pos : self.pos + count]
        self.pos += count
        return chunk

    def uint(self) -> int:
        return int(struct.unpack(">I", self.take(4))[0])

    def string(self) -> bytes:
        return self.take(self.uint())

    def rest(self) -> bytes:
        """What is left after the fields read so far."""
        return self.data[self.pos:]


def _openssh_header(data: bytes) -> bytes:
    """The decoded start of an OpenSSH private key (cipher and KDF names)."""
    body = b"".join(
        line for line in data.splitlines() if line and not line.startswith(b"-----")
    )
    try:
        return base64.b64decode(body)[:80]
    except ValueError:
        return b""


def generate_key(path: Path, comment: str, passphrase: bytes | None = None) -> PrivateKey:
    """Write a new key to ``path`` (mode 0600) and ``path.pub``; refuse to overwrite.

    Raises :class:`UsageError` for a path without a file name (``.``) or a comment that
    would not stay on the key's one line."""
    from cryptography.hazmat.primitives import serialization

    if path.name in ("", ".", ".."):
        raise UsageError(f"{str(path)!r} names no file: give the key's file name, such as "
                         "~/.ssh/frogpbem")
    if _has_control(comment):
        raise UsageError(f"the comment {comment!r} holds control characters: a key's comment "
                         "is one line of text")
    signer = Ed25519PrivateKey.generate()
    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase)
        if passphrase
        else serialization.NoEncryption()
    )
    pem = signer.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, encryption
    )
    key = from_signer(signer, comment, path)
    pub_path = path.with_name(path.name + ".pub")
    for existing in (path, pub_path):
        if os.path.lexists(existing):
            raise FileAccessError(f"{str(existing)!r} exists already; not overwriting a key")
    _write_new(path, pem, 0o600)
    _write_new(pub_path, (key.public.line + "\n").encode(), 0o644)
    return key


def _write_new(path: Path, data: bytes, mode: int) -> None:
    """Create ``path`` (never through a symbolic link, never over a file) and write it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    except FileExistsError:
        raise FileAccessError(f"{str(path)!r} exists already; not overwriting a key") from None
    except OSError as exc:
        raise FileAccessError(f"cannot write {str(path)!r}: {exc.strerror}") from None
    with os.fdopen(fd, "wb") as out:
        out.write(data)
