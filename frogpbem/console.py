"""The console script, and the commands run most often, without typer.

A seat's ``move`` (a signed request), the referee's ``move`` (``--from`` a
returned copy) and ``view`` run at every turn of every game. Importing typer
(and the standard modules it pulls in) and building its command line cost 40
to 70 ms of each, a quarter or more of such a command. :func:`main` reads
these commands' arguments itself when they are written plainly: the
command's name first, then its arguments, and its options each as a token of
its own (``--key PATH``, ``--json``). It calls the same function that typer
calls, with the same values.

Anything else goes to typer (:mod:`frogpbem.cli`), whose command line is the
one definition of every command, its help and its errors: ``--help``, an
unknown or repeated option, ``--key=PATH``, ``--``, a value that begins with
``-``, an empty value or a name with a NUL character, a missing or an extra
argument. A test checks that for any arguments the quick reading either steps
aside or gives typer's values.

The helpers here (reporting an error, printing, finding the key) serve both.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from frogpbem.errors import FrogPbemError, IllegalMoveError, KeyError_, UsageError
from frogpbem.safetext import safe

if TYPE_CHECKING:
    from frogpbem import crypto
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


def passphrase(path: Path) -> bytes | None:
    """A key's passphrase: ``$FROGPBEM_PASSPHRASE``, else asked on a terminal."""
    if "FROGPBEM_PASSPHRASE" in os.environ:
        return os.environ["FROGPBEM_PASSPHRASE"].encode()
    if sys.stdin.isatty():
        import getpass

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
    from frogpbem import crypto

    path, _ = key_path(explicit)
    if path is None:
        raise KeyError_("no key: give --key, set FROGPBEM_KEY, or create ~/.ssh/id_ed25519")
    return crypto.load_private_key(path.expanduser(), passphrase)


def colour() -> IO[str] | None:
    """The terminal text is shown on in colour, if it is one (and NO_COLOR is not set)."""
    if not sys.stdout.isatty():  # never colour: spare the pictures' import
        return None
    from frogpbem.pictures.terminal import colour_wanted

    return sys.stdout if colour_wanted(sys.stdout) else None


# --- the commands read here as well ------------------------------------------------------


def move(game: Path, words: list[str] | None, key: Path | None, seat: str | None,
         take_from: list[Path], discard_requests: bool, withdraw: bool,
         as_json: bool) -> None:
    """``frogpbem move`` (its help is in :mod:`frogpbem.cli`)."""
    from frogpbem.protocol.session import Session
    from frogpbem.referee import Applied
    from frogpbem.referee import move as do_move

    with reported(as_json), Session.from_environment() as session:
        text = " ".join(words) if words else None
        result = do_move(game, load_key(key), text, seat, tuple(take_from), discard_requests,
                         withdraw, session=session)
        if not isinstance(result, Applied):
            words_out = result.line
            if result.block:
                words_out += ("\nor paste this block into your reply to the referee:\n"
                              + result.block.rstrip("\n"))
            emit({"request": result.line, "seat": result.seat, "move": result.move,
                  "n": result.n, "sealed": result.sealed, "replaced": result.replaced,
                  "withdrawn": result.withdrawn, "block": result.block or None}, as_json,
                 words_out)
            return
        emit_applied(result, as_json)


def view(game: Path, key: Path | None, public: bool, as_json: bool, fmt: str) -> None:
    """``frogpbem view`` (its help is in :mod:`frogpbem.cli`)."""
    from frogpbem.gamefile.document import parse_view, read_bytes
    from frogpbem.protocol.game import deadline_words, load
    from frogpbem.protocol.session import Session
    from frogpbem.views import RENDERERS, view_for

    with reported(as_json), Session.from_environment() as session:
        if fmt not in RENDERERS:
            raise UsageError(f"--format must be {', '.join(RENDERERS)}, got {fmt!r}")
        if as_json and fmt not in ("text", "json"):
            raise UsageError(f"--json and --format {fmt} ask for two formats: give one")
        painted = colour() if fmt == "text" and not as_json else None
        mailed = parse_view(read_bytes(game), str(game))
        if mailed is not None:  # a view file, as the referee mails it to a seat
            from frogpbem.views import show_view_file

            if fmt in ("json", "yaml") or as_json:
                raise UsageError("a view file is YAML already; --format json/yaml and --json "
                                 "show game files")
            try:
                shown_file = show_view_file(mailed, session.seen, fmt, painted,
                                            lambda words: echo(f"note: {words}", err=True))
            except FrogPbemError as exc:
                raise exc.within(path=game) from None
            echo(shown_file)
            return
        loaded = load(game, session)
        session.seen.see(loaded)
        if loaded.undealt:
            waiting = ", ".join(loaded.waiting_for) or "the referee to deal"
            if fmt in ("svg", "html"):  # a line of text in place of a picture: a broken file
                raise IllegalMoveError(f"game {loaded.game_id} is not dealt yet: no board to "
                                       f"draw (waiting for {waiting})", path=game)
            deadline = loaded.header.deadline
            data = {"game": loaded.game_id, "dealt": False, "waiting_for": loaded.waiting_for,
                    "deadline": deadline.to_json() if deadline else None}
            if fmt == "yaml":
                from frogpbem.gamefile.document import dump_yaml

                echo(dump_yaml(data).decode(), nl=False)
                return
            line = (f"{loaded.ruleset.title} - game {loaded.game_id}: not dealt yet, "
                    f"waiting for {waiting}. {deadline_words(loaded.header)}")
            emit(data, as_json or fmt == "json", line)
            return
        private = None
        path, asked = key_path(key)
        if not public and path is not None:
            private = load_key(path)
        shown = view_for(loaded, private, asked)
        if private is not None and shown.role is None:
            echo(f"note: {path} is not part of this game; showing the public view", err=True)
        if painted is not None:
            from frogpbem.views import render_text

            echo(render_text(shown, painted))
            return
        echo(RENDERERS["json" if as_json else fmt](shown), nl=fmt in ("text", "json"))


# --- reading their arguments ------------------------------------------------------------


class _Reading(NamedTuple):
    """How one command's arguments are read here: the same names and defaults as its
    typer parameters in :mod:`frogpbem.cli`."""

    run: Callable[..., None]
    valued: dict[str, str]
    """Options that take a value: the token, and the parameter it sets."""
    flags: dict[str, tuple[str, bool]]
    """Options without a value: the token, the parameter, and the value it sets."""
    defaults: dict[str, Any]
    """Every parameter but ``GAME``, as typer gives it when not written."""
    rest: str | None = None
    """The parameter that takes the arguments after ``GAME``, if any."""
    repeated: str | None = None
    """The one option that may be written more than once (each value is kept)."""
    paths: frozenset[str] = frozenset({"game", "key"})
    """Parameters that typer reads as paths."""


QUICK = {
    "move": _Reading(
        move,
        {"--key": "key", "-k": "key", "--seat": "seat", "--from": "take_from"},
        {"--discard-requests": ("discard_requests", True),
         "--no-discard-requests": ("discard_requests", False),
         "--withdraw": ("withdraw", True), "--json": ("as_json", True)},
        {"words": None, "key": None, "seat": None, "take_from": [], "discard_requests": False,
         "withdraw": False, "as_json": False},
        rest="words", repeated="take_from", paths=frozenset({"game", "key", "take_from"})),
    "view": _Reading(
        view,
        {"--key": "key", "-k": "key", "--format": "fmt"},
        {"--public": ("public", True), "--json": ("as_json", True)},
        {"key": None, "public": False, "as_json": False, "fmt": "text"}),
}
"""The commands read here, by name."""


def quick(argv: list[str]) -> tuple[Callable[..., None], dict[str, Any]] | None:
    """The command function and its arguments, if ``argv`` (after the program's name) is
    plainly one of :data:`QUICK`; ``None`` for everything that typer should read."""
    reading = QUICK.get(argv[0]) if argv else None
    if reading is None:
        return None
    given: dict[str, Any] = {}
    positional: list[str] = []
    tokens = iter(argv[1:])
    for token in tokens:
        if token in reading.valued:
            name = reading.valued[token]
            value = next(tokens, "")
            if not value or value.startswith("-"):
                return None
            if name == reading.repeated:
                given.setdefault(name, []).append(value)
                continue
            if name in given:
                return None
            given[name] = value
        elif token in reading.flags:
            name, flag = reading.flags[token]
            if name in given:
                return None
            given[name] = flag
        elif not token or token.startswith("-"):
            return None
        else:
            positional.append(token)
    if not positional:
        return None  # typer says what is missing
    given["game"] = positional[0]
    if len(positional) > 1:
        if reading.rest is None:
            return None  # typer names the extra argument
        given[reading.rest] = positional[1:]
    for name in reading.paths & given.keys():
        values = given[name] if isinstance(given[name], list) else [given[name]]
        if not all(map(_readable, values)):
            return None  # typer refuses such a path with its own message
        given[name] = [Path(v) for v in values] if isinstance(given[name], list) else \
            Path(given[name])
    return reading.run, {**reading.defaults, **given}


def _readable(path: str) -> bool:
    """Whether typer takes ``path``: a path that exists must be readable (and a name with
    a NUL character is left to typer, which refuses it)."""
    try:
        os.stat(path)
    except OSError:
        return True
    except ValueError:
        return False
    return os.access(path, os.R_OK)


def version() -> None:
    """``frogpbem --version``: as typer's callback says it, without typer."""
    from frogpbem import __version__

    echo(f"frogpbem {__version__}")


def main() -> None:
    """The console script: a command of :data:`QUICK` written plainly, and ``--version``,
    run here; anything else goes to :func:`frogpbem.cli.main`.

    Each command keeps what its session made for the next command when it is done,
    whatever its outcome (:meth:`frogpbem.protocol.session.Session.finish`).
    """
    found = (version, {}) if sys.argv[1:] == ["--version"] else quick(sys.argv[1:])
    if found is None:
        from frogpbem import cli

        cli.main()
        return
    run, arguments = found
    # Such a command lives a fraction of a second, and what it makes is freed as it
    # goes (reference counting): the cyclic collector would only scan, again and
    # again, the objects that imports and a long game's values leave (a few ms).
    gc.disable()
    try:
        run(**arguments)
    except BrokenPipeError:  # the reader went away (``| head``): as typer does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
