"""Mail for a game: one message per recipient, written as .eml files or sent over SMTP.

Each message is built with the standard library's ``email`` package: a
subject naming the game and the last move, a plain-text part with that
recipient's board and the exact way to answer, the game file attached in
base64 (so that nothing re-wraps it), and for a seat its own view file.
A seat's view goes to that seat only.
"""

from __future__ import annotations

import configparser
import contextlib
import os
import smtplib
import ssl
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from frogpbem import crypto
from frogpbem.errors import FileAccessError, UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.document import dump_game, dump_yaml, write_atomic
from frogpbem.mail.headers import Letter, address, addressed, re_subject, stamp
from frogpbem.mail.invite import invitations
from frogpbem.protocol.game import REFEREE, Game, clock_words, known_secrets, replay
from frogpbem.safetext import safe
from frogpbem.views import make_view, render_letter, render_text


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
    # one space between words: a move or a name may hold runs of spaces, tabs or breaks
    return " ".join(f"[frogpbem {game.game_id}] {said} \u2014 {after}".split())


def letters(game: Game, key: crypto.PrivateKey, to: str = "all",
            sender: str | None = None, reminder: str | None = None) -> list[Letter]:
    """The referee's messages after the last record: to each seat (or ``to`` one), or itself.

    They come from the referee's address in the game file, else from ``sender``;
    answers go to ``sender`` (``Reply-To``) when it is given, and the Message-IDs are
    in its domain. Raises :class:`GameFileError` when an address of the game file is
    not a mail address. ``reminder`` makes each the judge's reminder of a deadline: its
    words come first, under the subject ``[frogpbem ID] reminder: …``, and the rest is
    the letter as it was (the game file, the view, how to reply).
    """
    if game.role(key) != REFEREE:
        raise UsageError("frogpbem mail is the referee's: it mails each seat its own board")
    wanted = list(game.seats) if to == "all" else [to]
    for role in wanted:
        if role not in (*game.seats, REFEREE):
            raise UsageError(f"--to {role!r}: give a seat of this game, all, or referee")
    if game.undealt:  # the seats join first: each one's invitation (mail/invite.py)
        return invitations(game, key, wanted, sender)
    state = replay(game, known_secrets(game, REFEREE, key), key, keeper=key).final
    subject = subject_of(game, state)
    if reminder is not None:
        subject = subject.replace("] ", "] reminder: ", 1)
    name = game.path.name
    data = dump_game(game.file)
    out = []
    for role in wanted:
        seat = None if role == REFEREE else role
        view = make_view(game, state, role)
        message = EmailMessage()
        message["Subject"] = subject
        recipient, domain = addressed(message, game, role, sender)
        message["X-Frogpbem-Game"] = game.game_id
        message["X-Frogpbem-Head"] = game.head
        body = _body(game, view, role, name, state)
        if reminder is not None:
            body = f"{reminder}\n\n{body}"
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
        stamp(message, domain, "auto-generated")
        out.append(Letter(game.game_id, role, recipient, message))
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
    """Send the letters through the SMTP server at ``url``, each to its one address (see
    :func:`deliver`); raises :class:`FileAccessError` naming any the server refused,
    after the others are sent."""
    missing = [letter.role for letter in found if not letter.address]
    if missing:
        raise UsageError(f"no mail address for {', '.join(missing)} in the game file "
                         "(frogpbem new --email SEAT=ADDRESS); use --out to write .eml files")
    refused = deliver([(letter.message, letter.address or "") for letter in found],
                      url, config)
    failed = [str(r) for r in refused if r is not None]
    if failed:
        raise FileAccessError("; ".join(failed))
    return [f"{letter.role}: {letter.address}" for letter in found]


def send_messages(messages: list[EmailMessage], url: str, config: Path | None = None) -> None:
    """Send each message to the addresses of its ``To`` header (see :func:`deliver`);
    raises :class:`FileAccessError` when the server refuses one."""
    refused = deliver([(message, to) for message in messages for to in recipients(message)],
                      url, config)
    failed = [str(r) for r in refused if r is not None]
    if failed:
        raise FileAccessError("; ".join(failed))


def recipients(message: EmailMessage) -> list[str]:
    """The addresses of a message's ``To`` headers."""
    return [str(to.addr_spec) for header in message.get_all("to", [])
            for to in header.addresses]


@frozen
class Refusal:
    """A server's refusal of one message for one address."""

    address: str
    code: int
    """The SMTP reply code (``0``: the connection failed before the server answered)."""
    reply: str
    """The server's words."""

    @property
    def permanent(self) -> bool:
        """A 5xx reply: the address (or the message) will never be taken as it is."""
        return 500 <= self.code < 600

    def __str__(self) -> str:
        if self.code:
            return f"{self.address} refused: {self.code} {self.reply}"
        return f"{self.address} not sent: {self.reply}"


def deliver(envelopes: list[tuple[EmailMessage, str]], url: str,
            config: Path | None = None,
            sending: Callable[[], None] | None = None) -> list[Refusal | None]:
    """Send each message to its one address, in one session with the SMTP server at
    ``url``: ``smtp://host[:port]`` (STARTTLS when offered) or ``smtps://`` (TLS).

    Each is sent on its own, so that one refused address holds back nobody else. Returns,
    in order, ``None`` for each message sent and a :class:`Refusal` for each refused
    (a connection lost midway refuses the rest with code 0). Raises
    :class:`FileAccessError` when the server cannot be reached at all.

    The login comes from ``$FROGPBEM_SMTP_USER``/``$FROGPBEM_SMTP_PASSWORD`` or
    the ``[smtp]`` section of ``config`` (user, password), never the command line,
    and is never sent without TLS. ``sending`` is called once the session is up (TLS and
    login done), just before the first message goes: the judge notes there that it answered.
    """
    scheme, host, port = smtp_server(url)
    user, password = _login(config)
    try:
        server = smtplib.SMTP_SSL(host, port, context=_tls(), timeout=30) \
            if scheme == "smtps" else smtplib.SMTP(host, port, timeout=30)
    except (OSError, smtplib.SMTPException) as exc:
        raise FileAccessError(f"cannot send mail through {host}:{port}: {exc}") from None
    try:  # not 'with server': its QUIT raises on any reply but 221, after mail went out
        try:
            if scheme == "smtp":
                server.ehlo()
                if server.has_extn("starttls"):
                    server.starttls(context=_tls())
                    server.ehlo()
                elif user:
                    raise UsageError(f"{host}:{port} offers no STARTTLS: not sending a "
                                     "password in the clear (use smtps://)")
            if user:
                server.login(user, password or "")
        except (OSError, smtplib.SMTPException) as exc:
            raise FileAccessError(f"cannot send mail through {host}:{port}: {exc}") \
                from None
        if sending is not None:
            sending()
        return [_send_one(server, message, to) for message, to in envelopes]
    finally:
        with contextlib.suppress(OSError, smtplib.SMTPException):
            server.quit()
        server.close()


def check_login(url: str, config: Path | None) -> None:
    """With a login set, open a session with the SMTP server at ``url`` once, sending
    nothing: :class:`UsageError` when it cannot be used (a login, and no STARTTLS), so that
    a service is not started that cannot answer anybody. A server that is away now is
    tried again by the rounds."""
    if _login(config)[0] is None:
        return
    with contextlib.suppress(FileAccessError):
        deliver([], url, config)


def smtp_server(url: str) -> tuple[str, str, int]:
    """The scheme, host and port of an ``--smtp`` URL; :class:`UsageError` for any other
    URL (one with a login is never repeated: it would show the password)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:  # a port that is not a number
        parts, port = urlsplit(""), None
    if parts.username or parts.password:
        raise UsageError("no login in --smtp: set FROGPBEM_SMTP_USER and "
                         "FROGPBEM_SMTP_PASSWORD, or a config file")
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise UsageError(f"--smtp {safe(url)!r}: give smtp://HOST[:PORT] or "
                         "smtps://HOST[:PORT]")
    return parts.scheme, unquote(parts.hostname), port or \
        (465 if parts.scheme == "smtps" else 25)


def _send_one(server: smtplib.SMTP, message: EmailMessage, to: str) -> Refusal | None:
    """One message to one address: ``None`` once sent, else the server's refusal."""
    try:
        server.send_message(message, to_addrs=[to])
    except smtplib.SMTPRecipientsRefused as exc:
        code, reply = exc.recipients.get(to, (550, b"refused"))
        return Refusal(to, code, _said(reply))
    except smtplib.SMTPSenderRefused as exc:  # not the address's fault: tried again later
        _reset(server)
        return Refusal(to, 0, f"the server refused the sender {exc.sender!r}: "
                              f"{exc.smtp_code} {_said(exc.smtp_error)}")
    except smtplib.SMTPResponseException as exc:  # sender or data refused
        _reset(server)
        return Refusal(to, exc.smtp_code, _said(exc.smtp_error))
    except (OSError, smtplib.SMTPException) as exc:  # the connection was lost
        return Refusal(to, 0, str(exc))
    return None


def _said(reply: bytes | str) -> str:
    text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else reply
    return safe(" ".join(text.split()))[:200]


def _reset(server: smtplib.SMTP) -> None:
    """Start the next message afresh after a refusal (a lost connection stays lost)."""
    try:
        server.rset()
    except (OSError, smtplib.SMTPException):
        pass


def _tls() -> ssl.SSLContext:
    """A verifying TLS context, made only when TLS is used (loading the CAs is slow).

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


__all__ = ["Letter", "Refusal", "address", "check_login", "default_config", "deliver",
           "letters", "re_subject", "recipients", "send_letters", "send_messages", "smtp_server",
           "subject_of", "write_letters"]
