"""What every command prints: its report (text, or JSON with ``--json``) and its error.

The one place output and errors are formatted, for the typer commands and the
quick path alike; it imports neither.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from frogpbem.errors import FrogPbemError
from frogpbem.safetext import safe

if TYPE_CHECKING:
    from frogpbem.referee import Applied


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Print ``text`` (and a newline) on standard output or error, at once."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n" if nl else text)
    stream.flush()


@contextlib.contextmanager
def reported(as_json: bool = False) -> Iterator[None]:
    """Turn a :class:`FrogPbemError` into one line on stderr (JSON with ``--json``) and its
    exit status."""
    try:
        yield
    except FrogPbemError as exc:
        # the message may quote a file: escaped onto one line, no control characters
        echo(json.dumps(exc.to_json()) if as_json else f"frogpbem: {safe(str(exc))}", err=True)
        raise SystemExit(exc.exit_code) from None
    except KeyboardInterrupt:
        echo("frogpbem: interrupted", err=True)
        raise SystemExit(130) from None


def emit(data: Any, as_json: bool, text: str) -> None:
    """Print ``data`` as JSON with ``--json``, else ``text``."""
    echo(json.dumps(data, indent=2) if as_json else text)


def emit_applied(result: Applied, as_json: bool) -> None:
    """What the referee applied: the records in words, the outcome, the views written."""
    outcome = result.outcome
    text_out = "\n".join(result.lines)
    if outcome:
        text_out += f"\ngame over: {outcome.termination}; {outcome.standing_text()}"
    emit({"applied": result.lines, "outcome": outcome.to_json() if outcome else None,
          "views": [str(v) for v in result.views]}, as_json, text_out)


def interactive() -> bool:
    """Whether a person can be asked (standard input is a terminal)."""
    return sys.stdin.isatty()


def colour() -> IO[str] | None:
    """The terminal text is shown on in colour, if it is one (and NO_COLOR is not set)."""
    if not sys.stdout.isatty():  # never colour: spare the pictures' import
        return None
    from frogpbem.pictures.terminal import colour_wanted

    return sys.stdout if colour_wanted(sys.stdout) else None
