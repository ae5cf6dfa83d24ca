"""Mail for a game: one message per recipient, written as .eml files or sent over SMTP.

Each message is built with the standard library's ``email`` package: a
subject naming the game and the last move, a plain-text part with that
recipient's board and the exact way to answer, the game file attached in
base64 (so that nothing re-wraps it), and for a seat its own view file.
A seat's view goes to that seat only.
"""

from __future__ import annotations

import configparser
import os
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from frogpbem import crypto
from frogpbem.errors import FileAccessError, UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.document import dump_game, dump_yaml, write_atomic
from frogpbem.protocol.game import REFEREE, Game, clock_words, known_secrets, replay
from frogpbem.safetext import safe
from frogpbem.views import make_view, render_letter, render_text


@frozen
class Letter:
    """One message, and whom it is for."""

    game: str
    role: str
    """The seat it is for, or ``referee``."""
    address: str | None
    """Where it goes (``None``: the game file gives no address for that role)."""
    message: EmailMessage


def subject_of(game: Game, state: Any) -> str:
    """``[frogpbem ff-7q3k] 12. red shoots G9: 2 — blue to move``."""
    rules = game.ruleset
    log = game.file.log
    if log:
        last = log[-1]
        said = f"{last.n}. {rules.describe_record(last.seat, last.move, game.results[-1])}"
    else:
        said = "the game begins"
    outcome = rules.outcome(state)
    if outcome is not None:
        after = f"game over: {outcome.standing_text()}"
    else:
        after = f"{rules.to_move(state) or 'nobody'} to move"
    return f"[frogpbem {game.game_id}] {said} \u2014 {after}"


def letters(game: Game, key: crypto.PrivateKey, to: str = "all",
            sender: str | None = None) -> list[Letter]:
    """The referee's messages after the last record: to each seat (or ``to`` one), or itself.

    They come from the referee's address in the game file, else from ``sender``.
    """
    if game.role(key) != REFEREE:
        raise UsageError("frogpbem mail is the referee's: it mails each seat its own board")
    wanted = list(game.seats) if to == "all" else [to]
    for role in wanted:
        if role not in (*game.seats, REFEREE):
            raise UsageError(f"--to {role!r}: give a seat of this game, all, or referee")
    if game.undealt:  # the seats join first: each one's invitation (frogpbem/invite.py)
        from frogpbem.invite import invitations

        return invitations(game, key, wanted, sender)
    state = replay(game, known_secrets(game, REFEREE, key), key, keeper=key).final
    subject = subject_of(game, state)
    parties = {party.seat or REFEREE: party for party in (*game.header.seats,
                                                         game.header.referee)}
    sender = parties[REFEREE].email or sender
    name = game.path.name
    data = dump_game(game.file)
    out = []
    for role in wanted:
        seat = None if role == REFEREE else role
        view = make_view(game, state, role)
        message = EmailMessage()
        message["Subject"] = subject
        if sender:
            message["From"] = f"{safe(parties[REFEREE].name)} <{sender}>"
        address = parties[role].email
        if address:
            message["To"] = f"{safe(parties[role].name)} <{address}>"
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain="frogpbem.invalid")
        message["X-Frogpbem-Game"] = game.game_id
        message["X-Frogpbem-Head"] = game.head
        body = _body(game, view, role, name, state)
        message.set_content(body)
        # the same words under the board's picture, for mail programs that show HTML
        message.add_alternative(render_letter(view, body), subtype="html", cte="base64")
        message.add_attachment(data, maintype="application",
                               subtype="yaml", filename=name)
        if seat is not None:  # its own signed view, for that seat only
            signed = view.signed(key)
            stem = name.removesuffix(".yaml")
            message.add_attachment(dump_yaml(signed.to_json()), maintype="application",
                                   subtype="yaml", filename=f"{stem}.{seat}.view.yaml")
        out.append(Letter(game.game_id, role, address, message))
    return out


def _body(game: Game, view: Any, role: str, name: str, state: Any) -> str:
    rules = game.ruleset
    lines = [render_text(view), ""]
    to_move = rules.to_move(state)
    if role == REFEREE:
        lines.append("Your own copy, as the referee.")
    elif rules.outcome(state) is not None:
        lines.append(f"The game is over; check it: frogpbem audit {name}")
    elif to_move == role or to_move is None:
        lines += [f"It is your move ({role}). Reply with one command:",
                  '    frogpbem reply THIS_MESSAGE.eml "YOUR MOVE" --key YOUR_KEY',
                  "(save this message, or pipe it from your mail program: frogpbem reply -",
                  "...). It writes your answer as an .eml file to send, or sends it",
                  "(--smtp URL, --sendmail).",
                  "",
                  f"Or by hand: save the attached {name}, then",
                  f'    frogpbem move {name} "YOUR MOVE" --key YOUR_KEY',
                  f"and reply with {name} attached, or with the request block that command",
                  "prints pasted into your reply."]
    else:
        lines += [f"{to_move} is to move. You may still resign:",
                  "    frogpbem reply THIS_MESSAGE.eml resign --key YOUR_KEY"]
        if rules.team_names(game.options):  # without teams a note reaches nobody else
            lines += ["or write a note to your team:",
                      '    frogpbem reply THIS_MESSAGE.eml --note "TEXT" --key YOUR_KEY']
    words = clock_words(game, state)
    if words:
        lines += ["", words]
    return "\n".join(lines) + "\n"


def write_letters(found: list[Letter], folder: Path) -> list[Path]:
    """Each message as ``ROLE.eml`` in ``folder`` (made if needed, never overwriting)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for letter in found:
        path = folder / f"{letter.game}-{letter.role}.eml"
        if os.path.lexists(path):
            raise FileAccessError("exists already; not overwriting a message", path=path)
        # a seat's message holds its hidden pieces: readable by its owner only
        write_atomic(path, bytes(letter.message), durable=False, private=True)
        written.append(path)
    return written


def send_letters(found: list[Letter], url: str, config: Path | None = None) -> list[str]:
    """Send the letters through the SMTP server at ``url`` (see :func:`send_messages`)."""
    missing = [letter.role for letter in found if not letter.address]
    if missing:
        raise UsageError(f"no mail address for {', '.join(missing)} in the game file "
                         "(frogpbem new --email SEAT=ADDRESS); use --out to write .eml files")
    send_messages([letter.message for letter in found], url, config)
    return [f"{letter.role}: {letter.address}" for letter in found]


def send_messages(messages: list[EmailMessage], url: str, config: Path | None = None) -> None:
    """Send over SMTP: ``smtp://host[:port]`` (STARTTLS when offered) or ``smtps://`` (TLS).

    The login comes from ``$FROGPBEM_SMTP_USER``/``$FROGPBEM_SMTP_PASSWORD`` or
    the ``[smtp]`` section of ``config`` (user, password), never the command line,
    and is never sent without TLS.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise UsageError(f"--smtp {url!r}: give smtp://HOST[:PORT] or smtps://HOST[:PORT]")
    if parts.username or parts.password:
        raise UsageError("no login in --smtp: set FROGPBEM_SMTP_USER and "
                         "FROGPBEM_SMTP_PASSWORD, or a config file")
    user, password = _login(config)
    port = parts.port or (465 if parts.scheme == "smtps" else 25)
    host = unquote(parts.hostname)
    try:
        server = smtplib.SMTP_SSL(host, port, context=_tls(), timeout=30) \
            if parts.scheme == "smtps" else smtplib.SMTP(host, port, timeout=30)
        with server:
            if parts.scheme == "smtp":
                server.ehlo()
                if server.has_extn("starttls"):
                    server.starttls(context=_tls())
                    server.ehlo()
                elif user:
                    raise UsageError(f"{host}:{port} offers no STARTTLS: not sending a "
                                     "password in the clear (use smtps://)")
            if user:
                server.login(user, password or "")
            for message in messages:
                server.send_message(message)
    except (OSError, smtplib.SMTPException) as exc:
        raise FileAccessError(f"cannot send mail through {host}:{port}: {exc}") from None


def _tls() -> ssl.SSLContext:
    """A verifying TLS context, made only when TLS is used (loading the CAs costs ~40 ms).

    A club's own server may use its own authority: ``$FROGPBEM_SMTP_CA`` names it.
    """
    return ssl.create_default_context(cafile=os.environ.get("FROGPBEM_SMTP_CA") or None)


def _login(config: Path | None) -> tuple[str | None, str | None]:
    user = os.environ.get("FROGPBEM_SMTP_USER")
    password = os.environ.get("FROGPBEM_SMTP_PASSWORD")
    if user is None and config is not None and config.exists():
        parser = configparser.ConfigParser()
        parser.read(config)
        for name, value in parser.items("smtp") if parser.has_section("smtp") else []:
            if name == "user":
                user = value
            elif name == "password":
                password = value
    return user, password


def default_config() -> Path:
    """``$FROGPBEM_CONFIG``, else ``$XDG_CONFIG_HOME/frogpbem/mail.ini``."""
    if os.environ.get("FROGPBEM_CONFIG"):
        return Path(os.environ["FROGPBEM_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "frogpbem" / "mail.ini"
