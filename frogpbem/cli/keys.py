"""Finding and opening the key a command signs or reads with (``--key``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from frogpbem.errors import KeyError_

if TYPE_CHECKING:
    from frogpbem import crypto


def passphrase(path: Path) -> bytes | None:
    """A key's passphrase: ``$FROGPBEM_PASSPHRASE``, else asked on a terminal."""
    if "FROGPBEM_PASSPHRASE" in os.environ:
        return os.environ["FROGPBEM_PASSPHRASE"].encode()
    if sys.stdin.isatty():
        import getpass  # with termios, half a millisecond: only to ask

        return getpass.getpass(f"Passphrase for {path}: ").encode()
    return None


def key_path(explicit: Path | None) -> tuple[Path | None, bool]:
    """The key to use, and whether it was asked for (option or environment)."""
    if explicit is not None:
        return explicit, True
    if os.environ.get("FROGPBEM_KEY"):
        return Path(os.environ["FROGPBEM_KEY"]), True
    default = Path.home() / ".ssh" / "id_ed25519"
    return (default, False) if default.exists() else (None, False)


def load_key(explicit: Path | None) -> crypto.PrivateKey:
    """The private key ``--key`` names, else ``$FROGPBEM_KEY``, else ``~/.ssh/id_ed25519``."""
    # crypto (and the cryptography package) only once a key is read: not for the
    # public view, the help, or a usage error
    from frogpbem import crypto

    path, _ = key_path(explicit)
    if path is None:
        raise KeyError_("no key: give --key, set FROGPBEM_KEY, or create ~/.ssh/id_ed25519")
    return crypto.load_private_key(path.expanduser(), passphrase)
