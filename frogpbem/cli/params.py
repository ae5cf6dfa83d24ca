"""What several commands share: their common options, and reading ``NAME=VALUE`` pairs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from frogpbem.errors import UsageError

RULES = ("frogfinder", "coan", "froglet", "secretmove")
"""The rulesets, for --help (``frogpbem.games`` is not imported just to list them)."""

KeyOption = Annotated[
    Path | None,
    typer.Option(
        "--key", "-k",
        help="Your OpenSSH Ed25519 private key (default: $FROGPBEM_KEY, then ~/.ssh/id_ed25519).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the report as JSON.")]


def pairs(values: list[str], what: str) -> dict[str, str]:
    """``NAME=VALUE`` options (``--seat``, ``--option``…) by name; each name once."""
    found: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"{what} must be written NAME=VALUE, got {value!r}")
        if name.strip() in found:  # the last would silently win
            raise UsageError(f"{what} {name.strip()}=… is given twice")
        found[name.strip()] = rest.strip()
    return found
