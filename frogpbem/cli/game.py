"""The commands of a game by hand: keys, a new game, the deal, moves, views, the clock.

Each command imports the library it calls in its body: the typer app is built
from every command's signature at each run, and importing the whole library
with them would add a fifth of a second to every command and to ``--help``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from frogpbem.cli import output, turns
from frogpbem.cli.keys import load_key
from frogpbem.cli.output import emit, emit_applied, reported
from frogpbem.cli.params import (
    OPTION_HELP,
    RULES_HELP,
    JsonOption,
    KeyOption,
    deadline_of,
    pairs,
)
from frogpbem.errors import FileAccessError, GameFileError, UsageError


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
            if not secret and output.interactive():
                import getpass  # with termios, half a millisecond: only to ask

                secret = getpass.getpass("New passphrase: ").encode()
                if getpass.getpass("Same passphrase again: ").encode() != secret:
                    raise UsageError("the two passphrases differ; no key was written")
            if not secret:
                raise UsageError("--passphrase needs $FROGPBEM_PASSPHRASE or a terminal")
        key = crypto.generate_key(path, comment or path.name, secret)
        data = {"key": str(path), "public": key.public.line, "fingerprint": key.public.fingerprint}
        emit(data, as_json, f"wrote {path} and {path}.pub\n{key.public.fingerprint}")


def new(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file to create.")],
    rules: Annotated[str, typer.Option(help=RULES_HELP)] = "frogfinder",
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
    option: Annotated[list[str], typer.Option(help=OPTION_HELP)] = [],  # noqa: B006
    setup: Annotated[
        Path | None, typer.Option(help="YAML file with the hidden setup, chosen instead of dealt.")
    ] = None,
    join: Annotated[
        bool, typer.Option("--join", help="Each seat adds a seed (frogpbem join) before the deal.")
    ] = False,
    no_referee: Annotated[
        bool, typer.Option("--no-referee", help="No referee: the two seats write the file "
                                                "(froglet); --key is the first seat's.")
    ] = False,
    own_key: Annotated[
        Path | None, typer.Option("--key", "-k", help="With --no-referee: your private key, "
                                                      "the first seat's.")
    ] = None,
    notary: Annotated[
        Path | None, typer.Option(help="With --no-referee: the notary's .pub file or key "
                                       "line (it relays and stamps the mail; --email "
                                       "notary=ADDRESS).")
    ] = None,
    per_message: Annotated[
        str | None, typer.Option("--deadline", help="With --no-referee and --notary: the "
                                                    "time for each message (72h, 3d, "
                                                    "1h30m), by the notary's stamps.")
    ] = None,
    placed: Annotated[
        str | None, typer.Option("--placed", help="With --no-referee, frogfinder: 'players': "
                                                  "each seat places its own frogs (move "
                                                  "--setup); by default they are dealt.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Create a game: deal and seal the setup, sign the header, write the views."""
    if no_referee:
        from frogpbem.cli import duel

        with reported(as_json):
            emails = pairs(email, "--email")
            notary_email = emails.pop("notary", None)
            if referee is not None or setup is not None or join or \
                    referee_name != "Referee":
                raise UsageError("--no-referee takes no --referee, --referee-name, --setup "
                                 "or --join: the two seats deal from their own seeds")
            if "referee" in emails:
                raise UsageError("--no-referee: there is no referee to give an email")
            seat_keys, names = pairs(seat, "--seat"), pairs(name, "--name")
            for extra in sorted((set(names) | set(emails)) - set(seat_keys)):
                raise UsageError(f"--name/--email for {extra!r}, which has no --seat")
            duel.new(game, rules, own_key, seat_keys, names, emails, pairs(option, "--option"),
                     as_json, duel.NotaryOptions(notary, notary_email, per_message), placed)
        return
    if placed is not None:
        with reported(as_json):
            raise UsageError("--placed is for --no-referee; a referee's game takes --setup "
                             "FILE")
    if notary is not None or per_message is not None:
        raise UsageError("--notary and --deadline are for --no-referee; a referee's game "
                         "takes --option deadline=72h")
    if own_key is not None:
        raise UsageError("--key is the first seat's, with --no-referee; the referee's key "
                         "is --referee")
    from frogpbem import crypto
    from frogpbem.dealing import SeatSpec, create_game, start_game
    from frogpbem.gamefile import strictyaml
    from frogpbem.gamefile.document import read_bytes
    from frogpbem.gamefile.model import ChosenSetup
    from frogpbem.mail.contact import check_address, check_name
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        key = load_key(referee)
        seat_keys = pairs(seat, "--seat")
        names = pairs(name, "--name")
        emails = pairs(email, "--email")
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
        options = pairs(option, "--option")
        deadline = deadline_of(options)
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


def join(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    key: KeyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Add your own random seed to the deal of a game created with --join (or join a game
    without a referee)."""
    from frogpbem.cli import duel

    if duel.is_duel_file(game):
        with reported(as_json):
            duel.move(game, None, key, as_json, join_only=True)
        return
    from frogpbem.dealing import join_game
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        line = join_game(game, load_key(key), session)
        emit({"join": line}, as_json, line)


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
    """Choose your own secret setup (Secret Move): sealed to you and the referee (without
    a referee: committed in your next message)."""
    from frogpbem.cli import duel

    if duel.is_duel_file(game):
        with reported(as_json):
            if (text is None) == (not random_setup):
                raise UsageError("give your setup, or --random (not both)")
            duel.move(game, None, key, as_json, setup=text, random_setup=random_setup)
        return
    from frogpbem.dealing import submit_setup
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        if (text is None) == (not random_setup):
            raise UsageError("give your setup, or --random (not both)")
        line = submit_setup(game, load_key(key), None if random_setup else text, session)
        emit({"setup": line}, as_json, line)


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
        emit({"dealt": not applied.waiting_for, "lines": applied.lines,
               "views": [str(v) for v in applied.views]}, as_json, "\n".join(applied.lines))


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
    setup: Annotated[
        str | None, typer.Option("--setup", help='Without a referee: your setup first, e.g. '
                                                 '"cols=0,3,5 rows=1,2,4" (Secret Move).')
    ] = None,
    random_setup: Annotated[
        bool, typer.Option("--random", help="Without a referee: your setup drawn at random.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Referee: apply MOVE or the pending signed requests. Seat: sign MOVE as a request."""
    turns.move(game, words, key, seat, take_from, discard_requests, withdraw, as_json,
               setup, random_setup)


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
    turns.view(game, key, public, as_json, fmt)


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
    from frogpbem.cli import duel

    with reported(as_json):
        if fmt not in ("text", "json", "svg", "html"):
            raise UsageError(f"--format must be text, json, svg or html, got {fmt!r}")
        if as_json and fmt not in ("text", "json"):
            raise UsageError(f"--json and --format {fmt} ask for two formats: give one")
        if duel.is_duel_file(game):
            duel.hint(game, key, as_json, fmt)
            return
    from frogpbem.protocol.game import load
    from frogpbem.protocol.session import Session
    from frogpbem.views import render_html, render_svg, view_for

    with reported(as_json), Session.from_environment() as session:
        loaded = load(game, session)
        shown = view_for(loaded, load_key(key))
        if shown.seat is None:
            raise UsageError("a hint is a seat's: give the key of a seat of this game "
                             "(the referee sees everything already)")
        rules = loaded.ruleset
        if shown.outcome is not None:
            raise UsageError("the game is over: nothing is hidden any more")
        hints = rules.hints
        if hints is None:
            raise UsageError(f"{rules.title} gives no hints")
        data = hints.hint(shown.board, shown.seat)
        if fmt in ("svg", "html"):
            if hints.heat(data) is None:
                raise UsageError(f"--format {fmt}: {rules.title}'s hint has no heat map; "
                                 "use text or json")
            typer.echo((render_svg if fmt == "svg" else render_html)(shown, data), nl=False)
            return
        emit(data, as_json or fmt == "json", hints.text(shown.board, data))


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
