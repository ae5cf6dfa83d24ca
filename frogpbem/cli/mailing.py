"""The commands of a game by email: mail, receive, reply, and the judge.

Each command imports the library it calls in its body: the typer app is built
from every command's signature at each run, and importing the whole library
with them would add a fifth of a second to every command and to ``--help``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from frogpbem.cli import output
from frogpbem.cli.keys import load_key
from frogpbem.cli.output import emit, reported
from frogpbem.cli.params import JsonOption, KeyOption
from frogpbem.errors import FileAccessError, FrogPbemError, GameFileError, UsageError
from frogpbem.safetext import safe

if TYPE_CHECKING:
    from email.message import EmailMessage

    from frogpbem import crypto
    from frogpbem.mail import reply as replies
    from frogpbem.protocol.session import Session


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
    sendmail: Annotated[
        bool, typer.Option("--sendmail", help="A game without a referee: send with "
                                              "sendmail -t -oi.")
    ] = False,
    sendmail_path: Annotated[
        str, typer.Option(help="The sendmail program (a bare name is looked for in PATH).")
    ] = "/usr/sbin/sendmail",
    key: KeyOption = None,
    as_json: JsonOption = False,
) -> None:
    """Referee: mail each seat its board, the game file and how to answer (.eml or SMTP).

    A game without a referee: a seat mails the file to the other seat (the invitation
    after new --no-referee, or its last message); --to gives another address.
    """
    from frogpbem.cli.duel import is_duel_file
    from frogpbem.mail.compose import address, default_config, letters, send_letters, write_letters
    from frogpbem.protocol.game import load
    from frogpbem.protocol.session import Session

    if is_duel_file(game):
        _mail_duel(game, to, out, smtp, sendmail_path if sendmail else None, sender, key,
                   as_json)
        return
    with reported(as_json), Session.from_environment() as session:
        if sendmail:
            raise UsageError("--sendmail is for a game without a referee: give --out DIR or "
                             "--smtp URL")
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


def _mail_duel(game: Path, to: str, out: Path | None, smtp: str | None,
               sendmail: str | None, sender: str | None, key: Path | None,
               as_json: bool) -> None:
    """``frogpbem mail`` on a game without a referee: to the other seat, or to the notary
    when the header names one."""
    from frogpbem.mail import duel
    from frogpbem.mail.compose import default_config
    from frogpbem.mail.receive import header_text
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        if sum((out is not None, smtp is not None, sendmail is not None)) != 1:
            raise UsageError("give --out DIR (write an .eml file), --smtp URL or --sendmail "
                             "(send), one")
        mailed = duel.mail(game, load_key(key), to, sender, session)
        if out is not None:
            path = duel.write_mailed(mailed, out)
            whose = "the notary" if mailed.via else mailed.seat
            done = f"wrote {path}" + (f", to {mailed.address}{mailed.via}" if mailed.address
                                      else " (no To: the game file has no address for "
                                      f"{whose}; add it, or give --to)")
        else:
            done = duel.send_mailed(mailed, smtp, sendmail, default_config())
        duel.remember_thread(session, mailed.game, header_text(mailed.message, "message-id"))
        emit({"game": mailed.game, "to": mailed.seat, "address": mailed.address,
              "done": done}, as_json, done)


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
    from frogpbem.mail.duel import keeper
    from frogpbem.mail.receive import read_sources
    from frogpbem.mail.receive import receive as do_receive
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        paths = messages or [Path("-")]
        stdin = sys.stdin.buffer.read() if any(str(p) == "-" for p in paths) else None
        private = load_key(key)
        done = do_receive(read_sources(paths, stdin), games, private, session,
                          keeper(games, private, session))
        lines = [message.line for message in done]
        emit({"messages": lines}, as_json, "\n".join(lines))
        if any(message.refused is not None for message in done):
            raise typer.Exit(1)


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
    import shlex  # a fifth of a millisecond, for reply alone

    from frogpbem.gamefile.document import read_bytes
    from frogpbem.mail import duel as duels
    from frogpbem.mail import reply as replies
    from frogpbem.mail.compose import default_config
    from frogpbem.mail.receive import MAX_MESSAGE
    from frogpbem.protocol.session import Session
    from frogpbem.views import render_text

    with reported(as_json), Session.from_environment() as session:
        if sum((out is not None, smtp is not None, sendmail)) > 1:
            raise UsageError("give one of --out FILE, --smtp URL and --sendmail")
        if secret is not None and random_setup:
            raise UsageError("give your setup, or --random (not both)")
        chosen = replies.Setup(secret) if secret is not None or random_setup else None
        if str(message) == "-":
            if output.interactive():
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
            deliver = replies.send_smtp(smtp, default_config())
        elif sendmail:
            deliver = replies.send_sendmail(sendmail_path)
        private = load_key(key)
        duel_message = duels.carried(data)
        if duel_message is not None:
            _reply_duel(duel_message, message, words, private, key, games, note, sender, to,
                        chosen, out, smtp, sendmail_path if sendmail else None, session,
                        as_json)
            return
        if chosen is not None and words:  # a game without a referee takes both, above
            raise UsageError("give a move, or your setup before the deal (not both)")
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
            board = render_text(turn.view, output.colour()) if turn.view is not None else \
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


def _reply_duel(parsed: EmailMessage, message: Path, words: list[str] | None,
                private: crypto.PrivateKey, key: Path | None, games: Path | None,
                note: str | None, sender: str | None, to: str | None,
                chosen: replies.Setup | None,
                out: Path | None, smtp: str | None, sendmail: str | None,
                session: Session, as_json: bool) -> None:
    """``frogpbem reply`` on the other seat's message in a game without a referee."""
    import shlex

    from frogpbem.duel.rules import Choice
    from frogpbem.mail import duel
    from frogpbem.mail.compose import default_config
    from frogpbem.mail.reply import OptionError, default_games

    if note is not None:
        raise UsageError("a game without a referee takes no --note: its messages are "
                         "signed, not sealed to a team")
    choice = Choice(chosen.text) if chosen is not None else None
    deliver = duel.write_eml(out)
    if smtp is not None:
        deliver = duel.send_smtp(smtp, default_config())
    elif sendmail is not None:
        deliver = duel.send_sendmail(sendmail)
    command = " ".join(["frogpbem reply", shlex.quote(str(message)),
                        *(["--key", shlex.quote(str(key))] if key else []),
                        *(["--games", shlex.quote(str(games))] if games else [])])
    try:
        turn = duel.reply(parsed, private, games or default_games(session.home),
                          " ".join(words) if words else None,
                          sender or os.environ.get("FROGPBEM_FROM") or None, deliver, to,
                          session, command, choice)
    except OptionError:
        raise
    except FrogPbemError as exc:
        raise exc.within(path="standard input" if str(message) == "-" else message) from None
    if not turn.lines:
        emit({"game": turn.game, "seat": turn.seat, "copy": str(turn.copy),
              "messages": turn.messages, "next": turn.shown, "warnings": turn.warnings},
             as_json, "\n".join([*turn.warnings, turn.shown]))
        return
    emit({"game": turn.game, "seat": turn.seat, "copy": str(turn.copy),
          "messages": turn.messages, "signed": turn.lines, "sent": turn.sent, "to": turn.to,
          "warnings": turn.warnings}, as_json,
         "\n".join([*turn.warnings, *turn.lines, *([turn.sent] if turn.sent else []),
                    *([turn.then] if turn.then else [])]))


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
    tournament: Annotated[list[Path], typer.Option(
        "--tournament", help="A tournament file (repeat for more): the judge pairs its "
                             "next round once the last is over, its games going into "
                             "--games, and mails each player the final standings once. "
                             "The judge's key must be its director's.")] = [],  # noqa: B006
    key: KeyOption = None,
) -> None:
    """The referee as a service: take signed moves from mail, apply them, mail the boards.

    Every message is filed (frogpbem-done, frogpbem-refused, or frogpbem-automatic for
    bounces and autoresponders), never deleted; a person's unusable message is answered
    once, with the reason. One log line per message. One judge per games folder: a
    second one exits with status 12.

    With --tournament T.yaml (repeatable), the judge is also the tournament's director:
    each round, once every game of the last round has ended, it pairs the next round
    (frogpbem tournament pair) and mails its games like any other; once the last round
    is over it mails each player the final standings, once. A tournament that does not
    hold is logged once and not paired. Exit status 5 when the judge's key is not the
    director's of a tournament given.
    """
    from frogpbem.mail.compose import check_login, default_config, smtp_server
    from frogpbem.mail.judge import (
        ImapBox,
        Judge,
        Mailbox,
        MaildirBox,
        check_director,
        holding,
        judge_address,
        run,
    )
    from frogpbem.mail.outbox import SmtpOutbox
    from frogpbem.protocol.session import Session

    with reported():
        if (imap is None) == (maildir is None):
            raise UsageError("give the mailbox: --imap URL or --maildir DIR (one)")
        smtp_server(smtp)
        address = judge_address(address)
        referee = load_key(key)
        check_director(tournament, referee)
        check_login(smtp, default_config())
        with holding(games):
            box: Mailbox = MaildirBox(maildir) if maildir is not None else \
                ImapBox(imap or "", os.environ.get("FROGPBEM_IMAP_PASSWORD"),
                        imap_insecure_loopback)
            outbox = SmtpOutbox(smtp, default_config())
            with Session.from_environment() as session:
                judging = Judge(games, referee, box, outbox, session, address,
                                tournaments=tuple(tournament))
                for line in run(judging, once, every):
                    typer.echo(safe(line))  # subjects and reasons come from strangers' mail
