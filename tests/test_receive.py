"""Mail both ways: the referee's messages (.eml and a real SMTP server), and reading replies.

Replies come attached, pasted as a request block into a quoted-printable
body, forwarded as message/rfc822, or as an HTML-only reply; From: is never
trusted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.gamefile import strictyaml
from tests.conftest import SETUP, Cli, Keys, here, now, write_setup
from tests.test_judge import started_smtp


@pytest.fixture
def mailed_game(tmp_path: Path, cli: Cli, keys: Keys) -> Callable[[], Path]:
    """A game with mail addresses, in the referee's games folder as ID.yaml."""
    def make() -> Path:
        games = tmp_path / "referee-games"
        games.mkdir(exist_ok=True)
        draft = tmp_path / "new.yaml"
        created = cli("new", draft, "--referee", keys.path("referee"), "--referee-name",
                      "Carol", "--seat", f"red={keys.pub('alice')}", "--seat",
                      f"blue={keys.pub('bob')}", "--name", "red=Alice", "--name", "blue=Bob",
                      "--email", "red=alice@example.org", "--email", "blue=bob@example.org",
                      "--option", "size=6", "--option", "frogs=2",
                      "--setup", write_setup(tmp_path, SETUP))
        assert created.exit_code == 0, created.output
        game_id = strictyaml.loads(draft.read_bytes())["header"]["game"]
        game = games / f"{game_id}.yaml"
        draft.rename(game)
        return game
    return make


def message(path: Path) -> EmailMessage:
    parsed = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_the_referee_mails_each_seat_its_own_board(
    mailed_game: Callable[[], Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    game = mailed_game()
    written = cli("mail", game, "--out", tmp_path / "out", "--key", keys.path("referee"))
    assert written.exit_code == 0, written.output
    red = message(next((tmp_path / "out").glob("*-red.eml")))
    assert red["To"] == "Alice <alice@example.org>"
    assert red["Subject"].startswith("[frogpbem ff-") and "red to move" in red["Subject"]
    text = red.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "View of: red (Alice)" in text and 'frogpbem move' in text
    names = [part.get_filename() for part in red.iter_attachments()]
    assert names == [game.name, f"{game.stem}.red.view.yaml"]
    blue = message(next((tmp_path / "out").glob("*-blue.eml")))
    assert [p.get_filename() for p in blue.iter_attachments()] == \
        [game.name, f"{game.stem}.blue.view.yaml"]  # blue never gets red's view
    attached = next(iter(blue.iter_attachments()))
    assert attached["Content-Transfer-Encoding"] == "base64"
    refused = cli("mail", game, "--out", tmp_path / "x", "--key", keys.path("alice"))
    assert refused.exit_code == 2


def reply_from_alice(cli: Cli, keys: Keys, tmp_path: Path, red_mail: Path,
                   how: str) -> Path:
    """Alice receives her mail, moves, and replies in the way ``how`` names."""
    alice_games = tmp_path / "alice-games"
    got = cli("receive", red_mail, "--games", alice_games, "--key", keys.path("alice"))
    assert got.exit_code == 0 and "kept the copy" in got.stdout, got.output
    copy = next(alice_games.glob("ff-*.yaml"))
    asked = cli("move", copy, "shoot C3", "--key", keys.path("alice"))
    assert asked.exit_code == 0, asked.output
    block = asked.stdout[asked.stdout.index("-----BEGIN"):]
    reply = EmailMessage()
    reply["Subject"] = "Re: your move"
    reply["From"] = "alice@example.org"
    if how == "attachment":
        reply.set_content("My move is in the file.")
        reply.add_attachment(copy.read_bytes(), maintype="application", subtype="octet-stream",
                             filename="game.yaml")
    elif how == "quoted-block":
        quoted = "".join(f"> {line}\n" for line in block.splitlines())
        reply.set_content(f"Here it is:\n\n{quoted}\n-- \nAlice\n", cte="quoted-printable")
    elif how == "forwarded":
        inner = EmailMessage()
        inner["Subject"] = "my copy"
        inner.set_content("see attached")
        inner.add_attachment(copy.read_bytes(), maintype="text", subtype="plain",
                             filename="game.txt")
        reply.set_content("Forwarding my copy.")
        reply.add_attachment(inner)
    elif how == "html-only":
        html = block.replace("\n", "<br>\n")
        reply.set_content(f"<html><body><p>Hi Carol,</p><p>{html}</p></body></html>",
                          subtype="html", cte="base64")
    path = tmp_path / f"reply-{how}.eml"
    path.write_bytes(bytes(reply))
    return path


@pytest.mark.parametrize("how", ["attachment", "quoted-block", "forwarded", "html-only"])
def test_a_reply_is_taken_however_it_is_wrapped(
    how: str, mailed_game: Callable[[], Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    game = mailed_game()
    assert cli("mail", game, "--out", tmp_path / "out", "--key",
               keys.path("referee")).exit_code == 0
    reply = reply_from_alice(cli, keys, tmp_path, next((tmp_path / "out").glob("*-red.eml")),
                           how)
    taken = cli("receive", reply, "--games", game.parent, "--key", keys.path("referee"))
    assert taken.exit_code == 0, taken.output
    assert "red shoots C3: 1" in taken.stdout
    assert len(strictyaml.loads(game.read_bytes())["log"]) == 1
    again = cli("receive", reply, "--games", game.parent, "--key", keys.path("referee"))
    assert again.exit_code == 0, again.output  # the same message twice changes nothing
    assert "taken already: nothing new in it" in again.stdout
    assert len(strictyaml.loads(game.read_bytes())["log"]) == 1


def test_a_forged_from_does_not_help_a_wrong_signature(
    mailed_game: Callable[[], Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    game = mailed_game()
    assert cli("mail", game, "--out", tmp_path / "out", "--key",
               keys.path("referee")).exit_code == 0
    reply = reply_from_alice(cli, keys, tmp_path, next((tmp_path / "out").glob("*-red.eml")),
                           "quoted-block")
    text = reply.read_bytes().decode()
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("> eyJ"))
    lines[index + 1] = "> " + ("A" if lines[index + 1][2] != "A" else "B") + lines[index + 1][3:]
    reply.write_text("\n".join(lines) + "\n")
    taken = cli("receive", reply, "--games", game.parent, "--key", keys.path("referee"))
    assert taken.exit_code == 1 and "refused" in taken.stdout, taken.output
    assert strictyaml.loads(game.read_bytes())["log"] == []


def test_an_mbox_of_messages(mailed_game: Callable[[], Path], cli: Cli, keys: Keys,
                             tmp_path: Path) -> None:
    game = mailed_game()
    assert cli("mail", game, "--out", tmp_path / "out", "--key",
               keys.path("referee")).exit_code == 0
    reply = reply_from_alice(cli, keys, tmp_path, next((tmp_path / "out").glob("*-red.eml")),
                           "attachment")
    box = tmp_path / "inbox.mbox"
    chatter = b"Subject: hello\n\nNothing for frogpbem here.\n"
    box.write_bytes(b"From alice Mon Nov 30 12:00:00 2026\n" + reply.read_bytes()
                    + b"\nFrom bob Mon Nov 30 12:01:00 2026\n" + chatter)
    taken = cli("receive", box, "--games", game.parent, "--key", keys.path("referee"))
    assert taken.exit_code == 0, taken.output
    assert "message 1" in taken.stdout and "red shoots C3: 1" in taken.stdout
    assert "message 2 ('hello'): nothing taken" in taken.stdout


def test_a_reply_in_an_unknown_charset_from_a_broken_address_is_taken(
    mailed_game: Callable[[], Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    """An HTML reply whose charset Python does not know, from ``"x" <`` (a From: header
    the email package's parser fails on), in an mbox with a header that is not ASCII:
    each once ended ``receive`` (and the judge's round) in a traceback."""
    game = mailed_game()
    assert cli("mail", game, "--out", tmp_path / "out", "--key",
               keys.path("referee")).exit_code == 0
    reply = reply_from_alice(cli, keys, tmp_path, next((tmp_path / "out").glob("*-red.eml")),
                           "html-only")
    data = reply.read_bytes()
    assert b'charset="utf-8"' in data and b"From: alice@example.org" in data
    data = data.replace(b'charset="utf-8"', b'charset="x-no-such"').replace(
        b"From: alice@example.org", 'From: "x" <\nX-Note: caf\u00e9'.encode())
    box = tmp_path / "odd.mbox"
    box.write_bytes(b"From alice Mon Nov 30 12:00:00 2026\n" + data)
    taken = cli("receive", box, "--games", game.parent, "--key", keys.path("referee"))
    assert taken.exit_code == 0, taken.output
    assert "red shoots C3: 1" in taken.stdout


def test_a_header_the_email_package_cannot_read_is_empty_text() -> None:
    import email

    from frogpbem.mail.receive import header_text, subject

    broken = email.message_from_bytes(b'From: "x" <\r\nSubject: hi\r\n\r\n',
                                      policy=policy.default)
    with pytest.raises(IndexError):  # the package's own parser, as of Python 3.11
        str(broken["From"])
    assert header_text(broken, "from") == "" and subject([broken]) == "hi"
    fine = email.message_from_bytes(b"From: Alice <alice@example.org>\r\n\r\n",
                                    policy=policy.default)
    assert header_text(fine, "from") == "Alice <alice@example.org>"
    assert header_text(fine, "subject") == ""


HEADERS = [b"From: a@b", b'From: "x" <', b"From: <<@>>", b"From: =?utf-8?q?=E2=82?= <a@b>",
           b"Subject: =?utf-8?b?////?=", b"Subject: =?unknown?q?x?=", b"Subject: \xff\xfe",
           b'Content-Type: text/html; charset="x-no-such"',
           b"Content-Type: text/html; charset=idna",
           b"Content-Type: text/html; charset=zlib", b'Content-Type: text/plain; charset=""',
           b'Content-Type: multipart/mixed; boundary="b"', b"Content-Type: multipart/mixed",
           b"Content-Type: message/rfc822", b"Content-Type: ;;;", b"MIME-Version: 1.0",
           b"Content-Transfer-Encoding: base64", b"Content-Transfer-Encoding: quoted-printable",
           b"Content-Transfer-Encoding: x-uuencode", b"To: ,,,@",
           b"Content-Disposition: attachment; filename*=x''%FF"]
BODIES = [b"frogpbem: 2\n", b"<p>frogpbem: 2</p>", b"=FF=FE=\r\n", b"!!!!", b"\xff\xfe\x00f",
          b'--b\r\nContent-Type: text/html; charset=nope\r\n\r\n<p>x</p>\r\n--b--\r\n',
          b"begin 644 x\n#0V%T\n`\nend\n", b"-----BEGIN FROGPBEM REQUEST-----\nx\n"]


@settings(max_examples=300)
@given(st.booleans(), st.lists(st.sampled_from(HEADERS), max_size=6),
       st.lists(st.sampled_from(BODIES), max_size=3), st.booleans())
def test_any_message_is_read_without_a_traceback(
        mbox: bool, headers: list[bytes], bodies: list[bytes], crlf: bool) -> None:
    """What a mail reader takes of any message ends in what it found, or a FrogPbemError:
    a message from anyone must not stop ``receive`` or the judge (the fuzzer's target)."""
    from fuzz.targets import read_mail

    data = (b"From x Mon Nov 30 12:00:00 2026\n" if mbox else b"") + b"\n".join(headers) \
        + b"\n\n" + b"".join(bodies)
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    read_mail(data)


@pytest.fixture
def smtp_server() -> Iterator[tuple[int, list[Any]]]:
    """A real SMTP server (aiosmtpd) on loopback that keeps what it receives."""

    received: list[Any] = []

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            received.append(envelope)
            return "250 OK"

    controller, port = started_smtp(Keep())
    try:
        yield port, received
    finally:
        controller.stop()


def test_mail_is_sent_over_smtp(mailed_game: Callable[[], Path], cli: Cli, keys: Keys,
                                smtp_server: tuple[int, list[Any]]) -> None:
    port, received = smtp_server
    game = mailed_game()
    sent = cli("mail", game, "--smtp", f"smtp://127.0.0.1:{port}", "--key",
               keys.path("referee"))
    assert sent.exit_code == 0, sent.output
    assert sorted(env.rcpt_tos[0] for env in received) == ["alice@example.org",
                                                          "bob@example.org"]
    for envelope in received:
        parsed = BytesParser(policy=policy.default).parsebytes(envelope.content)
        seat = "red" if envelope.rcpt_tos == ["alice@example.org"] else "blue"
        views = [p.get_filename() for p in parsed.iter_attachments()  # type: ignore[attr-defined]
                 if "view" in (p.get_filename() or "")]
        assert views == [f"{game.stem}.{seat}.view.yaml"]
    with_login = cli("mail", game, "--smtp", f"smtp://user:pw@127.0.0.1:{port}", "--key",
                     keys.path("referee"))
    assert with_login.exit_code == 2 and "no login in --smtp" in with_login.stderr


def test_a_message_piped_in_on_standard_input(mailed_game: Callable[[], Path], cli: Cli,
                                              keys: Keys, tmp_path: Path) -> None:
    """As behind a .forward or procmail pipe: frogpbem receive - (or no file at all)."""
    from typer.testing import CliRunner

    from frogpbem.cli import app

    game = mailed_game()
    assert cli("mail", game, "--out", tmp_path / "out", "--key",
               keys.path("referee")).exit_code == 0
    reply = reply_from_alice(cli, keys, tmp_path, next((tmp_path / "out").glob("*-red.eml")),
                             "quoted-block")
    piped = CliRunner().invoke(app, ["receive", "--games", str(game.parent), "--key",
                                     str(keys.path("referee"))], input=reply.read_bytes())
    assert piped.exit_code == 0, piped.output
    assert "red shoots C3: 1" in piped.stdout


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1, its own authority, and its key."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "server.pem", folder / "server.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize("implicit", [False, True])
def test_mail_over_tls_with_a_login_from_the_config_file(
    implicit: bool, mailed_game: Callable[[], Path], cli: Cli, keys: Keys, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """STARTTLS (smtp://) or implicit TLS (smtps://), and AUTH only over TLS."""
    import ssl

    from aiosmtpd.smtp import AuthResult, LoginPassword

    cert, key = self_signed(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    received: list[Any] = []
    logins: list[bytes] = []

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            received.append(envelope)
            return "250 OK"

    def check(server: Any, session: Any, envelope: Any, mechanism: str,
              data: Any) -> AuthResult:
        ok = isinstance(data, LoginPassword) and data.password == b"s3cret"
        logins.append(data.login if isinstance(data, LoginPassword) else b"")
        return AuthResult(success=ok)

    options: dict[str, Any] = {"authenticator": check, "auth_required": True}
    if implicit:  # the whole connection is TLS; aiosmtpd only knows of STARTTLS's
        options.update(ssl_context=context, auth_require_tls=False)
    else:
        options.update(tls_context=context, require_starttls=True)
    controller, port = started_smtp(Keep(), **options)
    try:
        config = tmp_path / "mail.ini"
        config.write_text("[smtp]\nuser = carol\npassword = s3cret\n")
        monkeypatch.setenv("FROGPBEM_CONFIG", str(config))
        monkeypatch.setenv("FROGPBEM_SMTP_CA", str(cert))
        game = mailed_game()
        url = f"{'smtps' if implicit else 'smtp'}://127.0.0.1:{port}"
        sent = cli("mail", game, "--smtp", url, "--key", keys.path("referee"))
        assert sent.exit_code == 0, sent.output
        assert logins == [b"carol"] and len(received) == 2
        monkeypatch.delenv("FROGPBEM_SMTP_CA")  # the server's certificate is then not trusted
        untrusted = cli("mail", game, "--smtp", url, "--key", keys.path("referee"))
        assert untrusted.exit_code == 9 and "cannot send mail" in untrusted.stderr
        assert len(received) == 2
    finally:
        controller.stop()


@pytest.mark.parametrize("game_id", ["\x00bad", "../../etc/passwd", "ff-" + "a" * 200, ""])
def test_a_block_naming_a_hostile_game_id_is_refused_in_a_sentence(
        game_id: str, keys: Keys, tmp_path: Path) -> None:
    import base64
    import json

    from frogpbem.mail.receive import receive

    block = base64.b64encode(json.dumps({"game": game_id}).encode()).decode()
    message = (f"Subject: x\n\n-----BEGIN FROGPBEM REQUEST-----\n{block}\n"
               "-----END FROGPBEM REQUEST-----\n").encode()
    said = [done.line for done in receive([message], tmp_path, keys.key("referee"), here())]
    assert len(said) == 1 and "refused" in said[0] and "is not a game id" in said[0]
    assert list(tmp_path.iterdir()) == []


def test_a_block_of_json_nested_too_deeply_is_refused_in_a_sentence(
        keys: Keys, tmp_path: Path) -> None:
    """``[[[[…`` a hundred thousand deep made the JSON reader raise RecursionError out of
    ``receive`` (and the judge's round)."""
    import base64

    from frogpbem.mail.receive import receive

    block = base64.b64encode(b"[" * 100_000).decode()
    lines = "\n".join(block[i:i + 64] for i in range(0, len(block), 64))
    message = (f"Subject: x\n\n-----BEGIN FROGPBEM REQUEST-----\n{lines}\n"
               "-----END FROGPBEM REQUEST-----\n").encode()
    said = [done.line for done in receive([message], tmp_path, keys.key("referee"), here())]
    assert len(said) == 1 and "refused" in said[0] and "changed in transit" in said[0]
    assert list(tmp_path.iterdir()) == []


def test_every_reply_of_the_corpus_is_applied_or_refused_with_its_reason(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each real client's reply (tests/mail/corpus) gives red's move to ``frogpbem receive``
    with the referee's key; each unusable one is refused or answered with its reason, the
    game file untouched. Joined lines, text before BEGIN, and non-breaking spaces once made
    a reply "taken" with an empty line, its move lost."""
    from tests.mailcorpus import corpus_game, replies

    game = corpus_game(cli, keys, tmp_path)
    pristine = game.path.read_bytes()
    wrong = []
    for index, reply in enumerate(replies(game.values)):
        games = tmp_path / f"games{index}"
        games.mkdir()
        held = games / game.path.name
        held.write_bytes(pristine)
        monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / f"state{index}"))
        message = tmp_path / reply.name
        message.write_bytes(reply.data)
        taken = cli("receive", message, "--games", games, "--key", keys.path("referee"))
        applied = len(strictyaml.loads(held.read_bytes())["log"])
        if reply.usable:
            ok = taken.exit_code == 0 and "red shoots C3" in taken.stdout and applied == 1
        else:
            ok = reply.reason in taken.stdout and held.read_bytes() == pristine
        if not ok:
            wrong.append(f"{reply.name}: exit {taken.exit_code}: {taken.output.strip()}")
    assert not wrong, "\n".join(wrong)


def test_what_receive_did_is_told_by_typed_fields_not_by_its_words(
    mailed_game: Callable[[], Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    """A reply whose subject reads ": refused: " is taken: the exit status follows what was
    done (``Received.refused``), not the words of the line (the CLI looked for
    ``": refused: "`` in it, and exited 1 for this applied move)."""
    from frogpbem.mail.receive import receive

    game = mailed_game()
    assert cli("mail", game, "--out", tmp_path / "out", "--key",
               keys.path("referee")).exit_code == 0
    reply = reply_from_alice(cli, keys, tmp_path, next((tmp_path / "out").glob("*-red.eml")),
                             "attachment")
    tricky = message(reply)
    tricky.replace_header("Subject", "Re: my move: refused: or not?")
    reply.write_bytes(bytes(tricky))
    nothing = tmp_path / "nothing.eml"
    nothing.write_bytes(b"Subject: hello\n\nJust saying hello.\n")
    (first, second) = receive([reply.read_bytes(), nothing.read_bytes()], game.parent,
                              keys.key("referee"), here())
    assert first.refused is None and first.again is None and first.taken is not None
    assert first.taken.nothing is None and first.taken.games[0].endswith("red shoots C3: 1")
    assert second.taken is not None and second.taken.games == ()
    assert second.taken.nothing == "no game file and no request block in it"
    assert second.line == "message 2 ('hello'): nothing taken: no game file and no request " \
                          "block in it"
    again = cli("receive", reply, "--games", game.parent, "--key", keys.path("referee"))
    assert again.exit_code == 0, again.output  # taken already: nothing refused
    assert "): taken already: nothing new in it" in again.stdout
    assert len(strictyaml.loads(game.read_bytes())["log"]) == 1


@pytest.mark.parametrize("how", ["attachment", "quoted-block"])
def test_a_reply_goes_to_the_referee_without_a_temporary_file(
    how: str, mailed_game: Callable[[], Path], cli: Cli, keys: Keys, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copies and blocks read out of a message reach the referee as values (they were
    written to a temporary folder and read back)."""
    import tempfile

    from frogpbem.mail.receive import receive

    game = mailed_game()
    assert cli("mail", game, "--out", tmp_path / "out", "--key",
               keys.path("referee")).exit_code == 0
    reply = reply_from_alice(cli, keys, tmp_path, next((tmp_path / "out").glob("*-red.eml")),
                             how)

    def no_temporary_folder(*args: object, **kwargs: object) -> None:
        raise AssertionError("a temporary folder was made")

    monkeypatch.setattr(tempfile, "TemporaryDirectory", no_temporary_folder)
    (done,) = receive([reply.read_bytes()], game.parent, keys.key("referee"), here())
    assert done.refused is None, done.line
    assert done.line.endswith("red shoots C3: 1")


def attached(data: bytes, subject: str = "my copy") -> bytes:
    """A message with ``data`` attached as a game file."""
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = "someone@example.org"
    message.set_content("Here is the game.")
    message.add_attachment(data, maintype="application", subtype="octet-stream",
                           filename="game.yaml")
    return bytes(message)


def strangers_game(keys: Keys, red: str, game_id: str | None = None) -> bytes:
    """A game of mallory's (its referee), with ``red``'s key in the red seat."""
    from frogpbem.dealing import SeatSpec, create_game
    from frogpbem.gamefile.document import dump_game

    seats = [SeatSpec("red", keys.key(red).public, "Red"),
             SeatSpec("blue", keys.key("bob").public, "Blue")]
    return dump_game(create_game("frogfinder", keys.key("mallory"), "Mallory", seats,
                                 {"size": 6, "frogs": 2}, game_id=game_id, created=now()))


def test_a_copy_under_another_header_never_replaces_the_game_held(
        new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A stranger's game with the id of Alice's and her key in a seat once replaced her
    file (when her tool's memory had not seen the game: copied by hand, or another home)."""
    game = new_game()
    games = tmp_path / "alice-games"
    games.mkdir()
    held = games / "mine.yaml"
    held.write_bytes(game.read_bytes())
    game_id = strictyaml.loads(game.read_bytes())["header"]["game"]
    forged = tmp_path / "forged.eml"
    forged.write_bytes(attached(strangers_game(keys, "alice", game_id)))
    taken = cli("receive", forged, "--games", games, "--key", keys.path("alice"))
    assert taken.exit_code == 1, taken.output
    assert f"another game under the id {game_id}" in taken.stdout
    assert "/tmp" not in taken.stdout  # the message names what was in it, not a scratch file
    assert held.read_bytes() == game.read_bytes() and sorted(games.iterdir()) == [held]


def test_the_judge_keeps_no_game_a_stranger_mails_it(keys: Keys, tmp_path: Path) -> None:
    """A stranger's game naming the judge's key as a seat was kept in the judge's folder,
    as a player keeps the first copy of a game; the judge holds only its operator's."""
    from frogpbem.mail.answers import Unused
    from frogpbem.mail.judge import Judge, MaildirBox
    from frogpbem.mail.outbox import MemoryOutbox
    from frogpbem.mail.receive import contents, messages_in, take_found

    games = tmp_path / "games"
    games.mkdir()
    for sub in ("new", "cur", "tmp"):
        (tmp_path / "box" / sub).mkdir(parents=True)
    judge = Judge(games, keys.key("referee"), MaildirBox(tmp_path / "box"), MemoryOutbox(),
                  here())
    planted = attached(strangers_game(keys, "referee"))
    unused = judge._taken("digest", messages_in(planted), None)
    assert isinstance(unused, Unused) and "is not one of the games held here" in unused.said
    assert "does not run game" in unused.words
    assert list(games.glob("*.yaml")) == []  # (the judge's journal is all it wrote)
    kept = take_found(contents(*messages_in(planted)), games, keys.key("referee"), here())
    assert "kept the copy" in str(kept)  # as a player's first copy: what keep_new=False prevents


def nested(depth: int) -> bytes:
    """A message of multipart parts nested ``depth`` deep, a line of text at the bottom."""
    head = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i)
                    for i in range(depth))
    tail = b"".join(b"\n--b%d--\n" % i for i in reversed(range(depth)))
    return (b"From: someone@example.org\nSubject: deep\nMIME-Version: 1.0\n" + head
            + b"Content-Type: text/plain\n\nhello\n" + tail)


def test_a_message_nested_a_thousand_deep_is_refused_and_the_next_is_taken(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """66 KiB of multipart nested 1,000 deep made the email package's parser raise
    RecursionError out of ``receive`` (the genuine reply after it in the mbox was lost) and
    out of the judge's round; so did a Content-Type of ``((((…``."""
    from frogpbem.mail.receive import contents, messages_in
    from tests.mailcorpus import corpus_game

    game = corpus_game(cli, keys, tmp_path)
    deep = nested(1000)
    assert 60_000 < len(deep) < 70_000
    reply = (f"From: alice@example.org\nSubject: my move\n\n{game.values['BLOCK']}\n"
             .encode())
    box = tmp_path / "inbox.mbox"
    box.write_bytes(b"From x Mon Nov 30 12:00:00 2026\n" + deep
                    + b"\nFrom alice Mon Nov 30 12:01:00 2026\n" + reply)
    taken = cli("receive", box, "--games", game.path.parent, "--key", keys.path("referee"))
    assert taken.exit_code == 0, taken.output
    assert "message 1 ('deep'): nothing taken: the message has more than 100 parts" \
        in taken.stdout
    assert "message 2 ('my move'): " in taken.stdout and "red shoots C3: 1" in taken.stdout
    commented = b"From: a@example.org\nSubject: s\nContent-Type: " + b"(" * 5000 + b"\n\nhi"
    for data in (deep, commented):  # what the judge reads of a message
        found = contents(*messages_in(data))
        assert not found.blocks and len(found.problems) == 1, found
    assert "nested too deeply" in contents(*messages_in(commented)).problems[0]
    assert contents(*messages_in(nested(90))).problems == []  # within the limit: read


def test_receive_says_in_a_sentence_what_it_cannot_read(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """Empty input, a folder for a message, a file for --games, a folder where a game file
    is: each a sentence and exit 9 (some were tracebacks, empty input a 'message 1')."""
    from typer.testing import CliRunner

    from frogpbem.cli import app

    empty = tmp_path / "empty.eml"
    empty.write_bytes(b"\n")
    folder = tmp_path / "folder"
    (folder / "x.yaml").mkdir(parents=True)
    message = tmp_path / "m.eml"
    message.write_bytes(attached(strangers_game(keys, "alice")))
    referee = keys.path("referee")
    for args, said in [((empty,), "'" + str(empty) + "' is empty"),
                       ((folder,), "is a folder, not a message"),
                       ((message, "--games", message), "is not a folder")]:
        result = cli("receive", *args, "--games", folder, "--key", referee) \
            if "--games" not in args else cli("receive", *args, "--key", referee)
        assert result.exit_code == 9 and said in result.stderr, result.output
        assert len(result.stderr.strip().splitlines()) == 1
    piped = CliRunner().invoke(app, ["receive", "--games", str(folder), "--key", str(referee)],
                               input=b"")
    assert piped.exit_code == 9 and "standard input is empty" in piped.stderr, piped.output
    game_id = strictyaml.loads(strangers_game(keys, "alice"))["header"]["game"]
    (folder / f"{game_id}.yaml").mkdir()
    mine = tmp_path / "mine.eml"
    mine.write_bytes(attached(strangers_game(keys, "alice", game_id)))
    result = cli("receive", mine, "--games", folder, "--key", keys.path("alice"))
    assert result.exit_code == 1 and "is not a game file" in result.stdout, result.output


@pytest.mark.parametrize(("flowed", "delsp", "text"), [
    ("a \nb\nc", False, "a b\nc"),  # a soft break joins, a hard one ends the paragraph
    ("a \nb", True, "ab"),  # DelSp=yes: the space was added by the sender, not typed
    ("> q \n> r\n>> s \n> t\n -- \n From x", False, "> q r\n> > s \n> t\n-- \nFrom x"),
])
def test_a_format_flowed_text_is_read_as_its_writer_typed_it(
        flowed: str, delsp: bool, text: str) -> None:
    """RFC 3676: soft breaks joined within one quote depth, space-stuffing undone, the
    signature separator never joined."""
    from frogpbem.mail.receive import unflowed

    assert unflowed(flowed, delsp) == text


def test_a_message_of_many_request_blocks_is_refused_unread(keys: Keys, tmp_path: Path) -> None:
    """Every block is decoded and compared with the others: thousands in 16 MiB would keep
    the judge busy for hours."""
    import base64

    from frogpbem.mail.receive import receive

    blocks = "".join(f"-----BEGIN FROGPBEM REQUEST-----\n"
                     f"{base64.b64encode(str(n).encode() * 20).decode()}\n"
                     "-----END FROGPBEM REQUEST-----\n" for n in range(21))
    said = [done.line for done in receive([f"Subject: x\n\n{blocks}".encode()], tmp_path,
                                          keys.key("referee"), here())]
    assert said == ["message 1 ('x'): refused: the message holds more than 20 request "
                    "blocks; none was read"]
