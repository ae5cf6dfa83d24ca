"""The ``frogpbem`` command: parse arguments, call the library, map errors to exit codes."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from frogpbem import console
from frogpbem.console import colour as _colour
from frogpbem.console import emit, emit_applied, load_key, reported
from frogpbem.errors import FileAccessError, FrogPbemError, GameFileError, UsageError
from frogpbem.safetext import safe

HELP = "Play hidden-information board games by email with a signed, auditable referee."
SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"]}
RULES = ("frogfinder", "coan", "froglet", "secretmove")
"""The rulesets, for --help (``frogpbem.games`` is not imported just to list them)."""

app = typer.Typer(
    name="frogpbem",
    help=HELP,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help and errors: no rich import (~0.15 s) for --help
    context_settings=SETTINGS,
)

KeyOption = Annotated[
    Path | None,
    typer.Option(
        "--key", "-k",
        help="Your OpenSSH Ed25519 private key (default: $FROGPBEM_KEY, then ~/.ssh/id_ed25519).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the report as JSON.")]


def _interactive() -> bool:
    """Whether a person can be asked (standard input is a terminal)."""
    return sys.stdin.isatty()


def _pairs(values: list[str], what: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"{what} must be written NAME=VALUE, got {value!r}")
        if name.strip() in pairs:  # the last would silently win
            raise UsageError(f"{what} {name.strip()}=… is given twice")
        pairs[name.strip()] = rest.strip()
    return pairs


def _version(value: bool) -> None:
    if value:
        from frogpbem import __version__

        typer.echo(f"frogpbem {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Play hidden-information board games by email with a signed, auditable referee."""


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


@app.command()
def keygen(
    path: Annotated[
        Path, typer.Argument(metavar="PATH",
                             help="Where to write the private key (PATH.pub beside it).")
    ],
    comment: Annotated[str, typer.Option(help="Comment for the public key line.")] = "",
    passphrase: Annotated[
        bool, typer.Option("--passphrase", help="Protect the key ($FROGPBEM_PASSPHRASE or ask).")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Make a new OpenSSH Ed25519 key pair (private key mode 0600)."""
    from frogpbem import crypto

    with reported(as_json):
        secret = None
        if passphrase:
            secret = os.environ.get("FROGPBEM_PASSPHRASE", "").encode()
            if not secret and _interactive():
                import getpass

                secret = getpass.getpass("New passphrase: ").encode()
                if getpass.getpass("Same passphrase again: ").encode() != secret:
                    raise UsageError("the two passphrases differ; no key was written")
            if not secret:
                raise UsageError("--passphrase needs $FROGPBEM_PASSPHRASE or a terminal")
        key = crypto.generate_key(path, comment or path.name, secret)
        data = {"key": str(path), "public": key.public.line, "fingerprint": key.public.fingerprint}
        emit(data, as_json, f"wrote {path} and {path}.pub\n{key.public.fingerprint}")


@app.command()
def new(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file to create.")],
    rules: Annotated[str, typer.Option(
        help=f"The ruleset: {', '.join(RULES)}.")] = "frogfinder",
    referee: Annotated[
        Path | None, typer.Option(help="The referee's private key (default: $FROGPBEM_KEY, "
                                       "then ~/.ssh/id_ed25519).")
    ] = None,
    referee_name: Annotated[str, typer.Option(help="The referee's name.")] = "Referee",
    seat: Annotated[
        list[str], typer.Option(help="SEAT=PUB: a seat and its .pub file or key line.")
    ] = [],  # noqa: B006 - typer reads the default
    name: Annotated[list[str], typer.Option(help="SEAT=NAME: a player's name.")] = [],  # noqa: B006
    email: Annotated[list[str], typer.Option(
        help="SEAT=ADDRESS: a player's email; referee=ADDRESS: where answers go (the judge's)."
    )] = [],  # noqa: B006
    option: Annotated[
        list[str], typer.Option(help="NAME=VALUE: a rules option. frogfinder: size=3..26 (12), "
                                     "frogs=N (5); coan: the same and teams=red+black,blue+purple;"
                                     " froglet: size=3..26 (12); secretmove: none. Any game: "
                                     "deadline=72h (or 3d, 90m) and on_timeout=forfeit or "
                                     "pass.")
    ] = [],  # noqa: B006
    setup: Annotated[
        Path | None, typer.Option(help="YAML file with the hidden setup, chosen instead of dealt.")
    ] = None,
    join: Annotated[
        bool, typer.Option("--join", help="Each seat adds a seed (frogpbem join) before the deal.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Create a game: deal and seal the setup, sign the header, write the views."""
    from frogpbem import crypto
    from frogpbem.dealing import SeatSpec, create_game, start_game
    from frogpbem.gamefile import strictyaml
    from frogpbem.gamefile.document import read_bytes
    from frogpbem.gamefile.model import ChosenSetup, Deadline
    from frogpbem.mail.contact import check_address, check_name
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        key = load_key(referee)
        seat_keys = _pairs(seat, "--seat")
        names = _pairs(name, "--name")
        emails = _pairs(email, "--email")
        referee_email = emails.pop("referee", None)
        for extra in sorted((set(names) | set(emails)) - set(seat_keys)):
            raise UsageError(f"--name/--email for {extra!r}, which has no --seat")
        check_name(referee_name, "--referee-name")
        for who, text in names.items():
            check_name(text, f"--name {who}")
        for who, text in [*emails.items(), *([("referee", referee_email)]
                                             if referee_email is not None else [])]:
            check_address(text, f"--email {who}")
        specs = [
            SeatSpec(s, crypto.load_public_key(pub), names.get(s, s.capitalize()), emails.get(s))
            for s, pub in seat_keys.items()
        ]
        chosen = None
        if setup is not None:
            try:
                chosen = ChosenSetup.from_json(strictyaml.loads(read_bytes(setup), str(setup)))
            except GameFileError as exc:
                raise UsageError(exc.message, path=setup) from None
        options = _pairs(option, "--option")
        deadline = None
        if "deadline" in options or "on_timeout" in options:
            if "deadline" not in options:
                raise UsageError("--option on_timeout needs --option deadline=72h (or 3d, 90m)")
            try:
                deadline = Deadline.parse(options.pop("deadline"),
                                          options.pop("on_timeout", "forfeit"))
            except GameFileError as exc:
                raise UsageError(exc.message) from None
        file = create_game(rules, key, referee_name, specs, options, chosen,
                           created=session.clock.text(), join=join,
                           deadline=deadline, referee_email=referee_email)
        if not game.parent.exists():  # a folder of games made on first use (the judge's)
            try:
                game.parent.mkdir(parents=True)
            except OSError as exc:
                raise FileAccessError(f"cannot make its folder: {exc.strerror}",
                                      path=game) from None
        views = start_game(game, file, key, session)
        data = {"game": file.game, "file": str(game), "views": [str(v) for v in views]}
        text = f"created {file.game} in {game}\n" + (
            "views: " + ", ".join(str(v) for v in views) if views else
            f"now each seat joins (frogpbem join {game.name}), then you deal (frogpbem deal; "
            "or the judge, which deals on the last join)"
        )
        emit(data, as_json, text)


@app.command()
def join(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    key: KeyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Add your own random seed to the deal of a game created with --join."""
    from frogpbem.dealing import join_game
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        line = join_game(game, load_key(key), session)
        emit({"join": line}, as_json, line)


@app.command()
def setup(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    text: Annotated[
        str | None,
        typer.Argument(metavar="SETUP", help='Your secret, e.g. "cols=0,3,5 rows=1,2,4".'),
    ] = None,
    random_setup: Annotated[
        bool, typer.Option("--random", help="Let your tool choose your secret at random.")
    ] = False,
    key: KeyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Choose your own secret setup (Secret Move): sealed to you and the referee."""
    from frogpbem.dealing import submit_setup
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        if (text is None) == (not random_setup):
            raise UsageError("give your setup, or --random (not both)")
        line = submit_setup(game, load_key(key), None if random_setup else text, session)
        emit({"setup": line}, as_json, line)


@app.command()
def deal(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    key: KeyOption = None,
    take_from: Annotated[
        list[Path], typer.Option("--from", help="A seat's returned copy holding its join.")
    ] = [],  # noqa: B006
    as_json: JsonOption = False,
) -> None:
    """Referee: take the seats' joins (or chosen setups) and deal once all are in."""
    from frogpbem.dealing import deal_game
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        applied = deal_game(game, load_key(key), session, take_from)
        emit({"dealt": not applied.lines[-1].startswith("waiting"), "lines": applied.lines,
               "views": [str(v) for v in applied.views]}, as_json, "\n".join(applied.lines))


@app.command()
def move(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    words: Annotated[
        list[str] | None,
        typer.Argument(metavar="MOVE", help='The move, e.g. "shoot G9" (quotes optional).'),
    ] = None,
    key: KeyOption = None,
    seat: Annotated[
        str | None, typer.Option(help="Referee: the seat that moves (e.g. a resignation).")
    ] = None,
    take_from: Annotated[
        list[Path], typer.Option("--from", help="Referee: take pending requests (and team notes) "
                                                "from this returned copy; may be repeated.")
    ] = [],  # noqa: B006
    discard_requests: Annotated[
        bool, typer.Option(help="Referee: drop pending requests that cannot be applied.")
    ] = False,
    withdraw: Annotated[
        bool, typer.Option("--withdraw", help="Seat: take back your pending request.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Referee: apply MOVE or the pending signed requests. Seat: sign MOVE as a request."""
    console.move(game, words, key, seat, take_from, discard_requests, withdraw, as_json)


@app.command()
def note(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    text: Annotated[str, typer.Argument(metavar="TEXT", help="The note, for your team only.")],
    key: KeyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Leave a private note for your team (for yourself alone without teams)."""
    from frogpbem.notes import add_note
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        line = add_note(game, load_key(key), text, session)
        emit({"note": line}, as_json, line)


@app.command()
def view(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    key: KeyOption = None,
    public: Annotated[bool, typer.Option("--public", help="Show the public view.")] = False,
    as_json: JsonOption = False,
    fmt: Annotated[str, typer.Option(
        "--format", help="text, json, yaml, svg (a picture) or html (a page with the picture)."
    )] = "text",
) -> None:
    """Show your view of the game (or the public view).

    Text is in colour on a terminal, unless NO_COLOR is set.
    """
    console.view(game, key, public, as_json, fmt)


@app.command()
def hint(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    key: KeyOption = None,
    as_json: JsonOption = False,
    fmt: Annotated[str, typer.Option(
        "--format", help="text, json, or (Frog Finder, Coan) svg or html: your board with "
                         "the odds as a heat map.")] = "text",
) -> None:
    """What your own view alone tells you: exact odds of the frogs you cannot see (Frog
    Finder, Coan), the value grids your opponent may still have (Secret Move), the best
    jumps (Froglet). Only a seat's key: a hint uses nothing your view does not show."""
    from frogpbem.protocol.game import load
    from frogpbem.protocol.session import Session
    from frogpbem.views import render_html, render_svg, view_for

    with reported(as_json), Session.from_environment() as session:
        if fmt not in ("text", "json", "svg", "html"):
            raise UsageError(f"--format must be text, json, svg or html, got {fmt!r}")
        if as_json and fmt not in ("text", "json"):
            raise UsageError(f"--json and --format {fmt} ask for two formats: give one")
        loaded = load(game, session)
        shown = view_for(loaded, load_key(key))
        if shown.seat is None:
            raise UsageError("a hint is a seat's: give the key of a seat of this game "
                             "(the referee sees everything already)")
        rules = loaded.ruleset
        if shown.outcome is not None:
            raise UsageError("the game is over: nothing is hidden any more")
        data = rules.hint(shown.board, shown.seat)
        if data is None:
            raise UsageError(f"{rules.title} gives no hints")
        if fmt in ("svg", "html"):
            if rules.hint_heat(data) is None:
                raise UsageError(f"--format {fmt}: {rules.title}'s hint has no heat map; "
                                 "use text or json")
            typer.echo((render_svg if fmt == "svg" else render_html)(shown, data), nl=False)
            return
        emit(data, as_json or fmt == "json", rules.hint_text(shown.board, data))


@app.command()
def verify(
    game: Annotated[Path | None, typer.Argument(metavar="GAME", help="The game file.")] = None,
    key: KeyOption = None,
    export: Annotated[
        Path | None,
        typer.Option(help="Write each signed element, its .sig and allowed_signers into this "
                          "new (or empty) folder."),
    ] = None,
    against: Annotated[
        Path | None, typer.Option(help="Another copy: print proof if the referee forked history.")
    ] = None,
    proof: Annotated[
        Path | None, typer.Option(help="Check a saved fork proof instead of a game.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Check signatures and chain; with a seat's key, its setup and every result it can check.

    Every copy checked is compared with the copies of the same game seen on
    this machine before: a fork (the referee signed two histories) fails with
    a proof saved for anyone to check (--proof), a rollback (an older copy)
    fails too.
    """
    from frogpbem.audit import check_proof
    from frogpbem.audit import verify as do_verify
    from frogpbem.export import export_signatures
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        if (game is None) == (proof is None):
            raise UsageError("give a game file to verify, or --proof FILE (not both)")
        if proof is not None:
            if key is not None or export is not None or against is not None:
                raise UsageError("--proof checks a proof alone: no --key, --export or --against")
            report = check_proof(proof)
            emit(report.to_json(), as_json, report.text())
            if not report.ok:
                raise typer.Exit(1)
            return
        assert game is not None
        private = load_key(key) if key is not None or os.environ.get("FROGPBEM_KEY") else None
        report = do_verify(game, session, private, against, session.seen)
        data = report.to_json()
        text = report.text()
        if export is not None and report.ok:
            written = export_signatures(game, export)
            data.update(exported=[w.to_json() for w in written])
            text += f"\nexported {len(written)} signed elements to {export}; check one with:\n"
            text += f"  {written[0].command}" if written else ""
        emit(data, as_json, text)
        if not report.ok:
            raise typer.Exit(1)


@app.command()
def audit(
    games: Annotated[list[Path], typer.Argument(metavar="GAME...", help="Finished game files.")],
    key: Annotated[
        Path | None,
        typer.Option("--key", "-k", help="Optional: also decrypt the sealed setups this key can."),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0,
                          help="Audit this many files at once, in as many processes "
                               "(0: one for each processor; not with --key).")
    ] = 1,
    as_json: JsonOption = False,
) -> None:
    """Re-check a finished game: signatures, chain, commitments, every result and point.

    Exit status 0 when everything holds, 1 when something does not, 10 when a
    game has not ended yet (nothing wrong found so far).
    """
    from frogpbem.audit import audit_many
    from frogpbem.protocol.times import Clock

    with reported(as_json):
        private = load_key(key) if key is not None else None
        reports = audit_many(games, private, jobs, clock=Clock.from_environment())
        if as_json:
            typer.echo(json.dumps([r.to_json() for r in reports], indent=2))
        else:
            typer.echo("\n".join(r.text() for r in reports))
        status = max(r.exit_status() for r in reports)
        worst = 1 if any(r.exit_status() == 1 for r in reports) else status
        if worst:
            raise typer.Exit(worst)


@app.command()
def mail(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    to: Annotated[str, typer.Option(help="A seat, all (every seat), or referee.")] = "all",
    out: Annotated[
        Path | None, typer.Option(help="Write one .eml file per recipient into this folder.")
    ] = None,
    smtp: Annotated[
        str | None, typer.Option(help="Send over smtp://HOST[:PORT] (STARTTLS when offered) "
                                      "or smtps://HOST[:PORT]; login from "
                                      "$FROGPBEM_SMTP_USER/$FROGPBEM_SMTP_PASSWORD or the "
                                      "config file.")
    ] = None,
    sender: Annotated[
        str | None, typer.Option("--from", help="Your address, user@host: the messages come "
                                                "from it when the game file names no "
                                                "referee address, and answers go to it.")
    ] = None,
    key: KeyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Referee: mail each seat its board, the game file and how to answer (.eml or SMTP)."""
    from frogpbem.mail.compose import address, default_config, letters, send_letters, write_letters
    from frogpbem.protocol.game import load
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        if (out is None) == (smtp is None):
            raise UsageError("give --out DIR (write .eml files) or --smtp URL (send), one")
        if sender is not None:
            try:
                address(None, sender, "--from")
            except GameFileError:  # an option, not the game file
                raise UsageError(f"--from {sender!r}: give one mail address, e.g. "
                                 "referee@example.org") from None
        found = letters(load(game, session), load_key(key), to, sender)
        if any(letter.message.get_all("From") is None for letter in found):
            typer.echo("frogpbem: warning: the game file names no referee address, so the "
                       "messages have no From: and cannot be answered; give --from ADDRESS",
                       err=True)
        if out is not None:
            paths = write_letters(found, out)
            emit({"written": [str(p) for p in paths]}, as_json,
                  "\n".join(f"wrote {p}" for p in paths))
        else:
            assert smtp is not None
            sent = send_letters(found, smtp, default_config())
            emit({"sent": sent}, as_json, "\n".join(f"sent to {line}" for line in sent))


@app.command()
def receive(
    messages: Annotated[
        list[Path], typer.Argument(metavar="MESSAGE...", help="Raw messages or mboxes; - (or "
                                                               "none) reads standard input.")
    ] = [],  # noqa: B006 - typer reads the default
    games: Annotated[Path, typer.Option(help="The folder of your games, one ID.yaml each.")]
    = Path("."),
    key: KeyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Take game files and request blocks out of mail: the referee applies, a seat keeps.

    Only signatures count, never From:. One line per message.
    """
    from frogpbem.mail.receive import read_sources
    from frogpbem.mail.receive import receive as do_receive
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        paths = messages or [Path("-")]
        stdin = sys.stdin.buffer.read() if any(str(p) == "-" for p in paths) else None
        lines = do_receive(read_sources(paths, stdin), games, load_key(key), session)
        emit({"messages": lines}, as_json, "\n".join(lines))
        if any(": refused: " in line for line in lines):
            raise typer.Exit(1)


@app.command()
def reply(
    message: Annotated[
        Path, typer.Argument(metavar="MESSAGE", help="The judge's (or referee's) message: a "
                                                     "saved .eml, an mbox holding it, or - "
                                                     "(piped from your mail program).")
    ],
    words: Annotated[
        list[str] | None,
        typer.Argument(metavar="MOVE", help='Your move, e.g. "shoot C3", or resign (quotes '
                                            "optional); none: show your board and what to run.")
    ] = None,
    key: KeyOption = None,
    games: Annotated[
        Path | None, typer.Option(help="The folder of your games, one ID.yaml each (default: "
                                       "games/ in $FROGPBEM_HOME, ~/.local/share/frogpbem).")
    ] = None,
    note: Annotated[
        str | None, typer.Option(help="A note sealed to your team (with or without a move).")
    ] = None,
    sender: Annotated[
        str | None, typer.Option("--from", help="Your address (default: $FROGPBEM_FROM, "
                                                "else your seat's in the game file, else "
                                                "the To: of the message).")
    ] = None,
    to: Annotated[
        str | None, typer.Option("--to", help="Answer to this address (default: the "
                                              "referee's in the game file, else the one you "
                                              "answered first in this game); it is kept for "
                                              "the game's next answers.")
    ] = None,
    secret: Annotated[
        str | None, typer.Option("--setup", help="Secret Move, before the deal: your secret "
                                                 "(as for frogpbem setup).")
    ] = None,
    random_setup: Annotated[
        bool, typer.Option("--random", help="Secret Move, before the deal: a secret chosen "
                                            "at random.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option(help="Write the answer here (default: GAME-SEAT-N.eml in "
                                       "this folder); never over a file.")
    ] = None,
    smtp: Annotated[
        str | None, typer.Option(help="Send the answer over smtp://HOST[:PORT] or "
                                      "smtps://HOST[:PORT] (login as for frogpbem mail).")
    ] = None,
    sendmail: Annotated[
        bool, typer.Option("--sendmail", help="Send the answer with sendmail -t -oi.")
    ] = False,
    sendmail_path: Annotated[
        str, typer.Option(help="The sendmail program (a bare name is looked for in PATH).")
    ] = "/usr/sbin/sendmail",
    as_json: JsonOption = False,
) -> None:
    """Player: answer the judge's message with your move, in one command.

    Takes the game file out of MESSAGE, keeps it in your games folder, signs
    MOVE as frogpbem move does, and writes the reply (the game file attached)
    as an .eml file, or sends it (--smtp, --sendmail).
    """
    import shlex

    from frogpbem.gamefile.document import read_bytes
    from frogpbem.mail import reply as replies
    from frogpbem.mail.receive import MAX_MESSAGE
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        if sum((out is not None, smtp is not None, sendmail)) > 1:
            raise UsageError("give one of --out FILE, --smtp URL and --sendmail")
        if secret is not None and random_setup:
            raise UsageError("give your setup, or --random (not both)")
        if (secret is not None or random_setup) and words:
            raise UsageError("give a move, or your setup before the deal (not both)")
        chosen = replies.Setup(secret) if secret is not None or random_setup else None
        if str(message) == "-":
            if _interactive():
                raise UsageError("pipe the message in (frogpbem reply - ...), or give its file")
            data = sys.stdin.buffer.read(MAX_MESSAGE + 1)
        elif message.is_dir():
            raise FileAccessError("is a folder: give the saved message", path=message)
        else:
            try:
                data = read_bytes(message, MAX_MESSAGE)
            except GameFileError as exc:  # too large: a message, not a game file
                raise FileAccessError(exc.message, path=message) from None
        deliver = replies.write_eml(out)
        if smtp is not None:
            from frogpbem.mail.compose import default_config

            deliver = replies.send_smtp(smtp, default_config())
        elif sendmail:
            deliver = replies.send_sendmail(sendmail_path)
        private = load_key(key)
        try:
            turn = replies.reply(data, private, games or replies.default_games(session.home),
                                 " ".join(words) if words else None, note,
                                 sender or os.environ.get("FROGPBEM_FROM") or None, deliver,
                                 to=to, setup=chosen, session=session)
        except replies.OptionError:  # about an option given, not the message
            raise
        except FrogPbemError as exc:  # named after the message it came from
            raise exc.within(path="standard input" if str(message) == "-" else message) \
                from None
        command = " ".join(["frogpbem reply", shlex.quote(str(message)),
                            *(["--key", shlex.quote(str(key))] if key else []),
                            *(["--games", shlex.quote(str(games))] if games else [])])
        done = turn.lines + ([turn.sent] if turn.sent else [])
        if not done:
            from frogpbem.views import render_text

            board = render_text(turn.view, _colour()) if turn.view is not None else \
                f"{turn.loaded.ruleset.title} - game {turn.game}, you play {turn.seat}"
            after = replies.next_step(turn, command)
            emit({"game": turn.game, "seat": turn.seat, "copy": str(turn.copy),
                  "records": turn.records, "next": after, "warnings": turn.warnings}, as_json,
                 "\n".join([*turn.warnings, f"{board}\n\n{after}\n(your copy: {turn.copy})"]))
            return
        emit({"game": turn.game, "seat": turn.seat, "copy": str(turn.copy),
              "records": turn.records, "signed": turn.lines, "sent": turn.sent,
              "to": turn.to, "warnings": turn.warnings}, as_json,
             "\n".join([*turn.warnings, *done]))


@app.command()
def timeout(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    key: KeyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Referee: the seat to move let its deadline pass; record its forfeit (or pass), signed."""
    from frogpbem.protocol.session import Session
    from frogpbem.referee import timeout_game

    with reported(as_json), Session.from_environment() as session:
        emit_applied(timeout_game(game, load_key(key), session), as_json)


@app.command()
def pause(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    key: KeyOption = None,
    reason: Annotated[str, typer.Option(help="Why, for every seat to read (holidays...).")]
    = "",
    as_json: JsonOption = False,
) -> None:
    """Referee: pause the game (no move and no deadline until resume), signed in the log."""
    from frogpbem.protocol.session import Session
    from frogpbem.referee import pause_game

    with reported(as_json), Session.from_environment() as session:
        emit_applied(pause_game(game, load_key(key), session, reason), as_json)


@app.command()
def resume(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    key: KeyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Referee: resume a paused game; the clock of the seat to move starts again."""
    from frogpbem.protocol.session import Session
    from frogpbem.referee import resume_game

    with reported(as_json), Session.from_environment() as session:
        emit_applied(resume_game(game, load_key(key), session), as_json)


@app.command()
def judge(
    games: Annotated[Path, typer.Option(help="The folder of the judge's games, ID.yaml each.")],
    smtp: Annotated[str, typer.Option(help="Where mail goes out: smtp://HOST[:PORT] or "
                                           "smtps://HOST[:PORT].")],
    imap: Annotated[
        str | None, typer.Option(help="The mailbox: imap://USER@HOST[:PORT] or imaps://…; "
                                      "password from $FROGPBEM_IMAP_PASSWORD.")
    ] = None,
    maildir: Annotated[Path | None, typer.Option(help="The mailbox as a Maildir folder.")]
    = None,
    address: Annotated[str, typer.Option("--from", help="The judge's own address (its "
                                                        "Message-IDs are in its domain).")]
    = "frogpbem-judge@localhost",
    once: Annotated[bool, typer.Option("--once", help="Take what is there, then exit "
                                                      "(for cron).")] = False,
    every: Annotated[float, typer.Option(help="Seconds between rounds (IDLE wakes it "
                                              "sooner).")] = 30.0,
    imap_insecure_loopback: Annotated[bool, typer.Option(
        "--imap-insecure-loopback", help="Log in without TLS to an IMAP server on this "
                                         "machine (127.0.0.0/8, ::1) that offers none.")]
    = False,
    key: KeyOption = None,
) -> None:
    """The referee as a service: take signed moves from mail, apply them, mail the boards.

    Every message is filed (frogpbem-done, frogpbem-refused, or frogpbem-automatic for
    bounces and autoresponders), never deleted; a person's unusable message is answered
    once, with the reason. One log line per message. One judge per games folder: a
    second one exits with status 12.
    """
    from frogpbem.mail.compose import check_login, default_config, smtp_server
    from frogpbem.mail.judge import ImapBox, Judge, Mailbox, MaildirBox, holding, judge_address, run

    with reported():
        if (imap is None) == (maildir is None):
            raise UsageError("give the mailbox: --imap URL or --maildir DIR (one)")
        smtp_server(smtp)
        address = judge_address(address)
        referee = load_key(key)
        check_login(smtp, default_config())
        with holding(games):
            box: Mailbox = MaildirBox(maildir) if maildir is not None else \
                ImapBox(imap or "", os.environ.get("FROGPBEM_IMAP_PASSWORD"),
                        imap_insecure_loopback)
            judge = Judge(games, referee, box, smtp, address, config=default_config())
            with judge.session:
                for line in run(judge, once, every):
                    typer.echo(safe(line))  # subjects and reasons come from strangers' mail


@app.command()
def record(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    as_json: JsonOption = False,
    fmt: Annotated[str, typer.Option(
        "--format", help="text (PGN-like), json, or html: a page that steps through the moves "
                         "on the public board, with the reveal at the end.")] = "text",
) -> None:
    """Print the game as a PGN-like record (or as data, or as a page to step through)."""
    from frogpbem.protocol.game import load
    from frogpbem.protocol.session import Session
    from frogpbem.record import game_record, record_html, record_json

    with reported(as_json), Session.from_environment() as session:
        if fmt not in ("text", "json", "html"):
            raise UsageError(f"--format must be text, json or html, got {fmt!r}")
        if as_json and fmt == "html":
            raise UsageError("--json and --format html ask for two formats: give one")
        loaded = load(game, session)
        if as_json or fmt == "json":
            typer.echo(json.dumps(record_json(loaded), indent=2))
        else:
            typer.echo((record_html if fmt == "html" else game_record)(loaded), nl=False)


@app.command()
def simulate(
    rules: Annotated[str, typer.Option(help=f"The ruleset: {', '.join(RULES)}.")] = "frogfinder",
    games: Annotated[int, typer.Option(min=1, help="How many games.")] = 100,
    bots: Annotated[str, typer.Option(
        help="The bots, one for every seat or one for all: random, greedy, strong "
             "(e.g. strong,greedy).")] = "strong",
    swap: Annotated[bool, typer.Option(
        "--swap", help="Two bots change seats every other game.")] = False,
    seed: Annotated[int, typer.Option(help="Game i is dealt and played from seed+i.")] = 0,
    seats: Annotated[int | None, typer.Option(help="Number of seats (coan: 2 to 6).")] = None,
    option: Annotated[
        list[str], typer.Option(help="NAME=VALUE: a rules option (size=8, teams=...).")
    ] = [],  # noqa: B006
    records: Annotated[Path | None, typer.Option(
        help="Write each game's moves into this folder (otherwise nothing is written).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Play games between bots on this machine (no keys, no files) and tally them: each
    seat's wins with a 95 % interval, draws, average points."""
    from frogpbem.simulate import simulate as run

    with reported(as_json):
        progress = None
        if not as_json and sys.stderr.isatty():
            from rich.progress import Progress

            bar = Progress(transient=True, console=_stderr_console())
            task = bar.add_task(f"{rules}: playing", total=games)
            bar.start()

            def progress(done: int) -> None:
                bar.update(task, completed=done)
        try:
            tally = run(rules, games, [b.strip() for b in bots.split(",")], seed,
                        _pairs(option, "--option"), seats, swap, progress, records)
        finally:
            if progress is not None:
                bar.stop()
        emit(tally.to_json(), as_json, tally.table())


@app.command()
def play(
    rules: Annotated[str, typer.Option(help=f"The ruleset: {', '.join(RULES)}.")] = "frogfinder",
    vs: Annotated[str, typer.Option(
        help="Your opponents: bot (the strong one), or random, greedy, strong.")] = "bot",
    seat: Annotated[str | None, typer.Option(help="Your seat (default: the first).")] = None,
    seats: Annotated[int | None, typer.Option(help="Number of seats (coan: 2 to 6).")] = None,
    option: Annotated[
        list[str], typer.Option(help="NAME=VALUE: a rules option (size=8, teams=...).")
    ] = [],  # noqa: B006
    seed: Annotated[int | None, typer.Option(help="Seed for the deal and the bots.")] = None,
) -> None:
    """Play a game against bots on this terminal, with the referee built in (no keys, no
    files). Type moves as in a game by email; quit leaves."""
    from frogpbem.simulate import play_terminal

    colour = _colour()

    def paint(board: Any, last: tuple[str, str] | None) -> Any:
        if colour is None:
            return None
        from frogpbem.pictures.terminal import painter

        return painter(rules, board, last, colour)

    def ask(prompt: str) -> str:
        try:
            return str(typer.prompt(prompt))
        except typer.Abort:  # end of input
            return "quit"

    with reported(False):
        play_terminal(rules, seat, "strong" if vs == "bot" else vs, seed, ask,
                      lambda line: typer.echo(line, color=colour is not None or None),
                      _pairs(option, "--option"), seats, paint)


@app.command()
def demo(
    folder: Annotated[
        Path, typer.Argument(metavar="FOLDER", help="Where to put keys and game files.")
    ] = Path("frogpbem-demo"),
    rules: Annotated[str, typer.Option(
        help=f"The ruleset: {', '.join(RULES)}.")] = "frogfinder",
    seed: Annotated[int | None, typer.Option(help="Seed for the bots' choices.")] = None,
    seats: Annotated[
        int | None, typer.Option(help="Number of seats (coan: 2 to 6).")
    ] = None,
    option: Annotated[
        list[str], typer.Option(help="NAME=VALUE: a rules option (teams=red+black,blue+purple).")
    ] = [],  # noqa: B006
    moves: Annotated[int | None, typer.Option(
        min=0, help="Stop after this many moves, leaving the game unfinished.")] = None,
    bot: Annotated[str, typer.Option(help="The bots: random, greedy or strong.")] = "strong",
    as_json: JsonOption = False,
) -> None:
    """Play a whole game between bots through the real flow, then audit it."""
    from frogpbem.demo import play_demo
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        result = play_demo(folder, rules, seed, echo=None if as_json else typer.echo,
                           seats=seats, options=_pairs(option, "--option"), moves=moves,
                           bot=bot, session=session)
        if as_json:
            typer.echo(json.dumps(result.to_json(), indent=2))
        if not result.audit.ok:
            raise typer.Exit(1)


def main() -> None:
    """Typer's reading of the command line (the console script, :func:`frogpbem.console.main`,
    reads the commonest commands itself and leaves the rest to this).

    Building the whole typer app inspects every command's signature, a good
    part of each run's start-up; when the first argument names a command, an
    app of that command alone is built with typer's public API (its help and
    errors read the same). Anything else (``--help``, ``--version``,
    completion, a wrong name) goes to the whole app.
    """
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    callback = COMMANDS.get(wanted)
    if callback is None:
        app()
        return
    single = typer.Typer(name="frogpbem", help=HELP, add_completion=False,
                         pretty_exceptions_enable=False, rich_markup_mode=None,
                         context_settings=SETTINGS)
    single.callback()(main_options)
    single.command(wanted)(callback)
    single()


COMMANDS = {(info.name or info.callback.__name__): info.callback
            for info in app.registered_commands if info.callback is not None}
"""Each command's function by name."""
