"""The judge as a good citizen of mail: no loops, one answer per message, one notice per
problem, addresses that cannot be forged, one judge per folder.

The end-to-end tests run on the real Dovecot and SMTP server of :mod:`tests.test_judge`
(its SMTP server refuses an unknown user with 550, as an MTA does); the others run
the judge on a Maildir and send through a real aiosmtpd server in this process.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import smtplib
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest

from frogpbem.gamefile import strictyaml
from tests import crash_wrapper
from tests.conftest import Cli, Keys, game_addressed, write_setup
from tests.test_judge import (
    DOMAIN,
    Servers,
    free_port,
    judge,
    mail_servers,
    parse,
    started_smtp,
)


@pytest.fixture(name="servers")
def running_servers() -> Iterator[Servers]:
    """Dovecot and the SMTP server of :mod:`tests.test_judge`, for one test."""
    with mail_servers() as running:
        yield running


def club_game(cli: Cli, keys: Keys, tmp_path: Path, games: Path, *options: str,
              blue: str = f"bob@{DOMAIN}", name: str = "draft") -> tuple[str, Path]:
    """The known two-seat game in the judge's folder (blue's address given): id and file."""
    draft = tmp_path / f"{name}.yaml"
    made = cli("new", draft, "--referee", keys.path("referee"), "--seat",
               f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--email", f"red=alice@{DOMAIN}", "--email", f"blue={blue}",
               "--option", "size=6", "--option", "frogs=2", *options,
               "--setup", write_setup(tmp_path))
    assert made.exit_code == 0, made.output
    game_id = str(strictyaml.loads(draft.read_bytes())["header"]["game"])
    games.mkdir(exist_ok=True)
    return game_id, Path(draft.replace(games / f"{game_id}.yaml"))


def send(servers: Servers, message: EmailMessage, sender: str = "") -> None:
    """Send as a client would (an empty ``sender``: the null return path of a bounce)."""
    with smtplib.SMTP("127.0.0.1", servers.smtp_port) as client:
        client.send_message(message, from_addr=sender or None)


def person(sender: str, subject: str, body: str = "Hello judge.") -> EmailMessage:
    message = EmailMessage()
    message["From"] = f"{sender.capitalize()} <{sender}@{DOMAIN}>"
    message["To"] = f"judge@{DOMAIN}"
    message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain=DOMAIN)
    message.set_content(body)
    return message


def out_of_office() -> EmailMessage:
    """Bob's autoresponder, answering the judge's start of the game (RFC 3834)."""
    message = person("bob", "Out of office: [frogpbem] the game begins",
                     "I am away until Monday and will answer your message then.")
    message["Auto-Submitted"] = "auto-replied"
    return message


def bounce() -> EmailMessage:
    """A delivery status notification, as an MTA writes one (RFC 3464)."""
    message = EmailMessage()
    message["Return-Path"] = "<>"
    message["From"] = f"Mail Delivery System <MAILER-DAEMON@{DOMAIN}>"
    message["To"] = f"judge@{DOMAIN}"
    message["Subject"] = "Undelivered Mail Returned to Sender"
    message["Message-ID"] = make_msgid(domain=DOMAIN)
    message.set_content("I'm sorry to have to inform you that your message could not be "
                        "delivered to one or more recipients.")
    status = EmailMessage()
    status.set_content("Reporting-MTA: dns; mail.test.invalid\n\nFinal-Recipient: rfc822; "
                       f"bbo@{DOMAIN}\nAction: failed\nStatus: 5.1.1\n")
    message.make_mixed()
    message.attach(status)
    message.replace_header("Content-Type", 'multipart/report; report-type=delivery-status; '
                           f'boundary="{message.get_boundary()}"')
    return message


def answers(mail: list[bytes]) -> list[EmailMessage]:
    """The judge's answers among a player's mail (not its game mail)."""
    return [m for m in map(parse, mail) if m["X-Frogpbem-Game"] is None]


def test_automatic_mail_and_a_refused_address_make_no_loop_and_one_notice_each(
        servers: Servers, cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """Blue's address is mistyped (the server refuses it: 550); an out-of-office reply, a
    bounce and a message from the judge's own address come in. Over several rounds
    nobody is answered, red is mailed the start once (it once was, every round), the
    referee is told of blue's address once, and the game goes on."""
    games = tmp_path / "judge-games"
    game_id, _ = club_game(cli, keys, tmp_path, games, blue=f"bbo@{DOMAIN}")
    log = judge(servers, games, keys).stdout
    send(servers, out_of_office())
    send(servers, bounce(), sender="<>")
    own = person("judge", "a note to myself")
    send(servers, own)
    for _ in range(3):
        log += judge(servers, games, keys).stdout
    assert log.count(f"game {game_id}: mailed record 0 to red: alice@{DOMAIN}") == 1, log
    assert log.count("550") == 1 and "blue's address" in log, log
    assert log.count("filed in frogpbem-automatic, not answered") == 4, log  # + the notice
    alice = servers.inbox("alice")
    assert len(alice) == 1
    start = parse(alice[0])
    assert start["Auto-Submitted"] == "auto-generated" and start["Date"]
    assert str(start["Message-ID"]).endswith(f"@{DOMAIN}>")
    assert start["From"].addresses[0].display_name == "Referee"
    assert start["From"].addresses[0].addr_spec == f"judge@{DOMAIN}"
    assert str(start["To"]) == f"Red <alice@{DOMAIN}>"
    assert servers.inbox("bob") == []  # no answer to its autoresponder
    assert servers.count("judge", "INBOX") == 0
    assert servers.count("judge", "frogpbem-refused") == 0
    filed = [parse(m) for m in servers.inbox("judge", "frogpbem-automatic")]
    notices = [m for m in filed if "cannot mail blue" in str(m["Subject"])]
    assert len(filed) == 4 and len(notices) == 1
    assert f"bbo@{DOMAIN}" in notices[0].get_content()
    assert notices[0]["Auto-Submitted"] == "auto-generated"
    # the game goes on: red moves, red is mailed, blue's address is not tried again
    mine = tmp_path / "alice-games"
    box = tmp_path / "start.eml"
    box.write_bytes(alice[0])
    assert cli("receive", box, "--games", mine, "--key", keys.path("alice")).exit_code == 0
    copy = mine / f"{game_id}.yaml"
    assert cli("move", copy, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    reply = person("alice", f"Re: [frogpbem {game_id}] the game begins", "My move.")
    reply.add_attachment(copy.read_bytes(), maintype="application", subtype="yaml",
                         filename=copy.name)
    send(servers, reply)
    moved = judge(servers, games, keys).stdout
    assert f"mailed record 1 to red: alice@{DOMAIN}" in moved and "550" not in moved, moved
    assert len(servers.inbox("alice")) == 1
    assert judge(servers, games, keys).stdout == ""


def test_each_unusable_message_is_answered_exactly_once(
        servers: Servers, cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A copy sent back unchanged (``move`` forgotten), a game the judge does not hold,
    a message with nothing in it and a damaged game file: each is answered once over
    three rounds (the first two once got no answer at all), in a player's words,
    quoting its subject, naming the game and the next command."""
    games = tmp_path / "judge-games"
    game_id, _ = club_game(cli, keys, tmp_path, games)
    judge(servers, games, keys)
    start = servers.inbox("alice")[0]
    assert servers.inbox("bob")
    unchanged = person("alice", f"Re: [frogpbem {game_id}] the game begins", "Here.")
    unchanged.add_attachment(parse(start).get_payload()[1].get_content(),  # type: ignore[index]
                             maintype="application", subtype="yaml", filename="game.yaml")
    elsewhere = tmp_path / "elsewhere"
    other_id, other = club_game(cli, keys, tmp_path, elsewhere, name="other")
    stranger = person("bob", "my move in the other game")
    stranger.add_attachment(other.read_bytes(), maintype="application", subtype="yaml",
                            filename="other.yaml")
    empty = person("bob", "how do I play?", "What do I do now?")
    damaged = person("alice", "my move")
    damaged.add_attachment(b"frogpbem: 2\nheader: [unclosed\n", maintype="application",
                           subtype="yaml", filename="game.yaml")
    sent = {"unchanged": unchanged, "stranger": stranger, "empty": empty,
            "damaged": damaged}
    for message in sent.values():
        send(servers, message)
    log = "".join(judge(servers, games, keys).stdout for _ in range(3))
    got = answers(servers.inbox("alice")) + answers(servers.inbox("bob"))
    counted = Counter(str(m["In-Reply-To"]) for m in got)
    assert counted == Counter(str(m["Message-ID"]) for m in sent.values()), log
    assert servers.count("judge", "frogpbem-refused") == len(sent)
    assert servers.count("judge", "INBOX") == 0
    by_reply = {str(m["In-Reply-To"]): m for m in got}
    for what, message in sent.items():
        reply = by_reply[str(message["Message-ID"])]
        body = reply.get_content()
        assert reply["Auto-Submitted"] == "auto-replied" and reply["Date"], what
        assert str(reply["Message-ID"]).endswith(f"@{DOMAIN}>"), what
        assert str(message["Message-ID"]) in str(reply["References"]), what
        assert reply["From"].addresses[0].display_name == "frogpbem judge", what
        assert str(reply["Subject"]).endswith(str(message["Subject"])), what
        assert f'"{message["Subject"]}"' in body, what
        assert 'frogpbem reply MESSAGE "YOUR MOVE" --key YOUR_KEY' in body, what
        assert "--discard-requests" not in body, what
    unchanged_answer = by_reply[str(unchanged["Message-ID"])]
    assert "there is no move in it" in unchanged_answer.get_content()
    assert unchanged_answer["Subject"] == f"Re: [frogpbem {game_id}] the game begins"
    stranger_answer = by_reply[str(stranger["Message-ID"])]
    assert f"does not run game {other_id}" in stranger_answer.get_content()
    assert str(stranger_answer["Subject"]).startswith(f"[frogpbem {other_id}] Re: ")
    assert not (games / f"{other_id}.yaml").exists()


@contextlib.contextmanager
def smtp_keeping(busy: set[str] | None = None,
                 gone: set[str] | None = None) -> Iterator[tuple[str, list[Any]]]:
    """An SMTP server in this process that keeps every envelope (refusing bbo@ and the
    addresses of ``gone``, as an MTA refuses a mistyped address; asking to try the
    addresses of ``busy`` later)."""

    kept: list[Any] = []

    class Keep:
        async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                              options: list[str]) -> str:
            if address.startswith("bbo@") or address in (gone or set()):
                return "550 5.1.1 no such user"
            if address in (busy or set()):
                return "451 4.3.0 try again later"
            envelope.rcpt_tos.append(address)
            return "250 OK"

        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            kept.append(envelope)
            return "250 OK"

    controller, port = started_smtp(Keep())
    try:
        yield f"smtp://127.0.0.1:{port}", kept
    finally:
        controller.stop()


def maildir(folder: Path) -> Path:
    for sub in ("new", "cur", "tmp"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return folder


def test_a_name_cannot_add_a_recipient(cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """``--name 'blue=Bob <spy@evil.invalid>'`` once put the spy in ``To:``, and blue's own
    view (its hidden frogs) went to the spy. A name stays a name."""
    games = tmp_path / "games"
    _, game = club_game(cli, keys, tmp_path, games, "--name", "blue=Bob <spy@evil.invalid>")
    with smtp_keeping() as (url, kept):
        mailed = cli("mail", game, "--smtp", url, "--key", keys.path("referee"))
        assert mailed.exit_code == 0, mailed.output
    recipients = sorted(r for envelope in kept for r in envelope.rcpt_tos)
    assert recipients == [f"alice@{DOMAIN}", f"bob@{DOMAIN}"]
    to_blue = next(parse(e.content) for e in kept if e.rcpt_tos == [f"bob@{DOMAIN}"])
    (to,) = to_blue["To"].addresses
    assert to.addr_spec == f"bob@{DOMAIN}" and to.display_name == "Bob <spy@evil.invalid>"


def test_an_address_with_a_line_break_stops_its_game_only(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A CR LF in one game's address once ended every round in a traceback: no game was
    mailed. Now that game is refused in one sentence, once, and the others are mailed."""
    games = tmp_path / "games"
    games.mkdir()  # new refuses such an address: a game of an older or hostile tool's
    game_addressed(games / "bad.yaml", keys, {
        "red": f"alice@{DOMAIN}", "blue": f"bob@{DOMAIN}\r\nBcc: spy@evil.invalid"})
    good_id, _ = club_game(cli, keys, tmp_path, games, name="good")
    box = maildir(tmp_path / "Maildir")
    with smtp_keeping() as (url, kept):
        args = ["judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                "--from", f"judge@{DOMAIN}", "--key", keys.path("referee")]
        first = cli(*args)
        assert first.exit_code == 0, first.output
        assert f"game {good_id}: mailed record 0" in first.stdout
        assert "bad.yaml: skipped: the mail address of blue is not one mail address" \
            in first.stdout
        again = cli(*args)  # the bad game waits; the good one is not mailed again
        assert again.stdout.count("\n") == 1 and "not one mail address" in again.stdout
    assert sorted(r for e in kept for r in e.rcpt_tos) == [f"alice@{DOMAIN}", f"bob@{DOMAIN}"]
    assert not any(b"spy@" in e.content for e in kept)


def test_one_judge_per_games_folder(cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A second judge on a folder says so and exits 12 (two once gave tracebacks); a
    folder where a mark should be is one sentence, and the other games are mailed."""
    games = tmp_path / "games"
    held_id, _ = club_game(cli, keys, tmp_path, games, name="held")
    other_id, _ = club_game(cli, keys, tmp_path, games, name="other")
    box = maildir(tmp_path / "Maildir")
    with smtp_keeping() as (url, kept):
        args = ["judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                "--key", keys.path("referee")]
        with open(games / ".judge.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            second = cli(*args)
        assert second.exit_code == 12, second.output
        assert second.stderr.strip().endswith("another judge is running on this games folder")
        assert "Traceback" not in second.output and kept == []
        (games / ".mailed" / f"{held_id}.json").mkdir(parents=True)
        first = cli(*args)
        assert first.exit_code == 0, first.output
        assert f"game {other_id}: mailed record 0" in first.stdout
        assert f"skipped: .mailed/{held_id}.json is not a file" in first.stdout
        again = cli(*args)
        assert again.stdout.count("\n") == 1 and "is not a file" in again.stdout
    assert len(kept) == 2


def test_crash_between_answering_and_filing_never_answers_twice(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """The judge killed at each file-system step of a round that answers one message, then
    run again: the message is answered at most once, and filed."""
    games = tmp_path / "games"
    games.mkdir()
    message = person("bob", "Re: [frogpbem] hello judge").as_bytes(policy=policy.SMTP)
    with smtp_keeping() as (url, kept):
        steps = tmp_path / "steps"
        answered = 0
        env = {**os.environ, "CRASH_COUNT": str(steps)}

        def run(step: int, box: Path) -> int:
            return crash_wrapper.shared().run(
                ["judge", "--games", str(games),
                 "--maildir", str(box), "--smtp", url, "--once", "--from", f"judge@{DOMAIN}",
                 "--key", str(keys.path("referee"))],
                {**env, "CRASH_AT": str(step)}).returncode

        box = maildir(tmp_path / "box0")
        (box / "new" / "1.msg").write_bytes(message)
        assert run(0, box) == 0
        total = int(steps.read_text())
        assert len(kept) == 1 and total > 3
        for step in range(1, total + 1):
            kept.clear()
            shutil.rmtree(games)
            games.mkdir()
            box = maildir(tmp_path / f"box{step}")
            (box / "new" / "1.msg").write_bytes(message)
            assert run(step, box) == -9
            assert run(0, box) == 0
            assert len(kept) <= 1, step
            assert list((box / ".frogpbem-refused" / "cur").iterdir()), step
            answered += len(kept)
    assert answered >= total - 2  # lost only if killed between the journal and the send


def test_a_plain_imap_login_needs_tls_or_the_loopback_opt_out(
        servers: Servers, keys: Keys, tmp_path: Path, cli: Cli) -> None:
    """Dovecot offers no STARTTLS here: the password is not sent without the opt-out,
    which is refused for a host that is not this machine; no usage error shows a
    password."""
    games = tmp_path / "games"
    games.mkdir()
    env = {**os.environ, "FROGPBEM_IMAP_PASSWORD": "secret"}
    base = [sys.executable, "-m", "frogpbem", "judge", "--games", str(games), "--smtp",
            servers.smtp, "--key", str(keys.path("referee")), "--once", "--imap"]
    plain = subprocess.run([*base, f"imap://judge@127.0.0.1:{servers.imap_port}"], env=env,
                           capture_output=True, text=True, check=False, timeout=60)
    assert plain.returncode == 2, plain.stderr
    assert "offers no STARTTLS: not sending the password" in plain.stderr
    far = subprocess.run([*base, "imap://judge@192.0.2.1", "--imap-insecure-loopback"],
                         env=env, capture_output=True, text=True, check=False, timeout=60)
    assert far.returncode == 2 and "127.0.0.0/8 or ::1" in far.stderr, far.stderr
    _, game = club_game(cli, keys, tmp_path, games)
    for args in (["mail", game, "--smtp", "smtpx://u:hunter2@host"],
                 ["judge", "--games", games, "--maildir", maildir(tmp_path / "box"),
                  "--smtp", "smtpx://u:hunter2@host", "--once"],
                 ["judge", "--games", games, "--imap", "imapx://u:hunter2@host",
                  "--smtp", "smtp://host", "--once"]):
        refused = cli(*args, "--key", keys.path("referee"))
        assert refused.exit_code == 2 and "hunter2" not in refused.output, refused.output


def test_a_subject_reads_back_with_no_runs_of_spaces(cli: Cli, keys: Keys,
                                                     tmp_path: Path) -> None:
    """A subject longer than a line was folded by the email package before the encoded
    dash with a space left on each side: it read back with two spaces."""
    games = tmp_path / "games"
    _, game = club_game(cli, keys, tmp_path, games)
    paused = cli("pause", game, "--reason", "holidays", "--key", keys.path("referee"))
    assert paused.exit_code == 0, paused.output
    written = cli("mail", game, "--out", tmp_path / "out", "--key", keys.path("referee"))
    assert written.exit_code == 0, written.output
    for path in (tmp_path / "out").iterdir():
        subject = str(parse(path.read_bytes())["Subject"])
        assert "pauses the game (holidays) \u2014 " in subject, subject
        assert "  " not in subject, subject


def test_a_server_that_says_try_later_is_tried_later_and_later(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 4xx for red's address: blue is mailed once, red is tried again after 60 s, then
    120 s, and mailed once the server takes it; nothing is mailed twice."""
    games = tmp_path / "games"
    game_id, _ = club_game(cli, keys, tmp_path, games)
    box = maildir(tmp_path / "Maildir")
    busy = {f"alice@{DOMAIN}"}
    with smtp_keeping(busy) as (url, kept):
        args = ["judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                "--key", keys.path("referee")]

        def at(when: str) -> str:
            monkeypatch.setenv("FROGPBEM_NOW", when)
            result = cli(*args)
            assert result.exit_code == 0, result.output
            return result.stdout

        first = at("2026-12-01T00:00:00Z")
        assert f"game {game_id}: mailed record 0 to blue: bob@{DOMAIN}" in first, first
        assert "red: alice@test.invalid refused: 451" in first and "in 60 s" in first
        assert at("2026-12-01T00:00:59Z") == ""  # waits
        assert "in 120 s" in at("2026-12-01T00:01:00Z")
        assert at("2026-12-01T00:02:59Z") == ""
        busy.clear()
        assert f"mailed record 0 to red: alice@{DOMAIN}" in at("2026-12-01T00:03:00Z")
        assert at("2026-12-01T00:10:00Z") == ""
    assert sorted(r for e in kept for r in e.rcpt_tos) == [f"alice@{DOMAIN}", f"bob@{DOMAIN}"]
    assert not (games / ".judge" / "backoff" / f"{game_id}.json").exists()


def test_automatic_mail_is_told_from_a_person_s() -> None:
    from frogpbem.mail.answers import automatic

    def message(*headers: tuple[str, str], kind: str = "plain") -> EmailMessage:
        made = EmailMessage()
        made["From"] = f"bob@{DOMAIN}"
        for name, value in headers:
            made[name] = value
        made.set_content("hello", subtype=kind)
        return made

    own = f"judge@{DOMAIN}"
    assert automatic(message(), own) is None
    assert automatic(message(("Auto-Submitted", "no")), own) is None
    machines = [message(("Return-Path", "<>")), message(("Auto-Submitted", "auto-replied")),
                message(("Auto-Submitted", "auto-generated; type=dsn")),
                message(("Precedence", "bulk")), message(("Precedence", "List")),
                message(("List-Id", "<club.example.org>")), message(("X-Autoreply", "yes")),
                message(kind="x-unused")]
    machines[-1].replace_header("Content-Type", "multipart/report")
    bounced = message()
    bounced.replace_header("From", f"MAILER-DAEMON@{DOMAIN}")
    mine = message()
    mine.replace_header("From", f"Judge <JUDGE@{DOMAIN}>")
    for made in [*machines, bounced, mine]:
        assert automatic(made, own), made


def test_a_refusal_is_said_in_a_player_s_words() -> None:
    from frogpbem import errors
    from frogpbem.mail.answers import NEXT_STEP, unused_for

    said = {kind: unused_for(kind("technical words"), "ff-game") for kind in (
        errors.NothingToApplyError, errors.GameOverError, errors.NotYourTurnError,
        errors.NotationError, errors.IllegalMoveError, errors.StaleCopyError,
        errors.KeyError_, errors.SignatureError, errors.GameFileError, errors.UsageError)}
    assert len({unused.words for unused in said.values()}) == len(said)
    stale = unused_for(errors.StaleCopyError("stale or replayed; drop it with "
                                             "--discard-requests"), "ff-game")
    assert stale.detail is None and "--discard" not in stale.words + stale.next_step
    assert said[errors.IllegalMoveError].detail == "technical words"
    assert all('frogpbem reply MESSAGE "YOUR MOVE"' in u.next_step or
               "frogpbem audit" in u.next_step for u in said.values())
    assert said[errors.NotationError].next_step == NEXT_STEP
    assert all(u.game == "ff-game" for u in said.values())


def test_an_answer_that_waited_is_sent_though_the_game_moved_meanwhile(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A copy sent back unchanged while the mail server is away waits; a move is taken
    before the next round comes to it. It is still answered (not taken for a message
    taken before a crash because its game changed), once."""
    games = tmp_path / "games"
    game_id, game = club_game(cli, keys, tmp_path, games)
    unchanged = person("alice", "here is my move")
    unchanged.add_attachment(game.read_bytes(), maintype="application", subtype="yaml",
                             filename="game.yaml")
    box = maildir(tmp_path / "Maildir")
    (box / "new" / "2.msg").write_bytes(unchanged.as_bytes(policy=policy.SMTP))
    args = ["judge", "--games", games, "--maildir", box, "--once", "--from",
            f"judge@{DOMAIN}", "--key", keys.path("referee"), "--smtp"]
    away = cli(*args, f"smtp://127.0.0.1:{free_port()}")
    assert "no move in it" not in away.stdout and "it waits" in away.stdout, away.stdout
    copy = tmp_path / "alice.yaml"
    copy.write_bytes(game.read_bytes())
    assert cli("move", copy, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    move = person("alice", "my real move")
    move.add_attachment(copy.read_bytes(), maintype="application", subtype="yaml",
                        filename="game.yaml")
    (box / "new" / "1.msg").write_bytes(move.as_bytes(policy=policy.SMTP))
    with smtp_keeping() as (url, kept):
        back = cli(*args, url)
        assert "red shoots C3" in back.stdout and "taken already" not in back.stdout, \
            back.stdout
        assert cli(*args, url).exit_code == 0
    answered = [parse(e.content) for e in kept if b"In-Reply-To" in e.content]
    assert [str(m["In-Reply-To"]) for m in answered] == [str(unchanged["Message-ID"])]
    assert len(strictyaml.loads(game.read_bytes())["log"]) == 1
    assert sorted(p.name for p in (box / ".frogpbem-refused" / "cur").iterdir()) == ["2.msg"]
    assert game_id in str(answered[0]["Subject"])


def test_a_refused_address_is_told_to_the_referee_once(cli: Cli, keys: Keys,
                                                       tmp_path: Path) -> None:
    """With no referee address in the game, the notice goes to the judge's own address."""
    games = tmp_path / "games"
    game_id, _ = club_game(cli, keys, tmp_path, games, blue=f"bbo@{DOMAIN}")
    box = maildir(tmp_path / "Maildir")
    with smtp_keeping() as (url, kept):
        args = ["judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                "--from", f"judge@{DOMAIN}", "--key", keys.path("referee")]
        first = cli(*args).stdout
        assert f"blue's address bbo@{DOMAIN} refused: 550" in first, first
        assert f"the referee was told at judge@{DOMAIN}" in first
        assert cli(*args).stdout == ""
    assert [e.rcpt_tos for e in kept] == [[f"alice@{DOMAIN}"], [f"judge@{DOMAIN}"]]
    told = parse(kept[1].content)
    assert str(told["Subject"]) == f"[frogpbem {game_id}] cannot mail blue"
    assert f".judge/bounced/{game_id}.json" in told.get_content()


def test_a_folder_where_the_reminder_mark_goes_sends_no_reminder_each_round(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FROGPBEM_NOW", "2026-12-01T00:00:00Z")
    games = tmp_path / "games"
    game_id, _ = club_game(cli, keys, tmp_path, games, "--option", "deadline=4h")
    box = maildir(tmp_path / "Maildir")
    with smtp_keeping() as (url, kept):
        args = ["judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                "--key", keys.path("referee")]
        assert "mailed record 0" in cli(*args).stdout
        (games / ".reminded" / f"{game_id}.json").mkdir(parents=True)
        for when in ("2026-12-01T03:30:00Z", "2026-12-01T03:40:00Z"):
            monkeypatch.setenv("FROGPBEM_NOW", when)
            late = cli(*args)
            assert late.exit_code == 0 and "reminded red" not in late.stdout, late.output
        assert f".reminded/{game_id}.json is not a file" in late.stdout
    assert len(kept) == 2  # the start, to each seat; no reminder


def test_a_message_over_the_limit_in_a_maildir_is_answered_not_a_stop(
        keys: Keys, cli: Cli, tmp_path: Path) -> None:
    """Over 16 MiB in a Maildir, a message once ended every round (exit 7): the judge
    stopped for good. It is answered from its headers and filed, as over IMAP."""
    from frogpbem.mail.receive import MAX_MESSAGE

    games = tmp_path / "games"
    games.mkdir()
    box = maildir(tmp_path / "Maildir")
    large = person("bob", "a large file").as_bytes(policy=policy.SMTP)
    (box / "new" / "1.msg").write_bytes(large + b"x" * MAX_MESSAGE)
    with smtp_keeping() as (url, kept):
        took = cli("judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                   "--key", keys.path("referee"))
    assert took.exit_code == 0, took.output
    assert "refused: larger than 16 MiB" in took.stdout
    assert [e.rcpt_tos for e in kept] == [[f"bob@{DOMAIN}"]]
    assert [p.name for p in (box / ".frogpbem-refused" / "cur").iterdir()] == ["1.msg"]


def test_a_message_nested_past_the_parser_s_depth_is_answered_and_the_round_goes_on(
        keys: Keys, cli: Cli, tmp_path: Path) -> None:
    """66 KiB of multipart nested 1,000 deep once ended every round in a RecursionError;
    now it is answered from its headers, filed, and the message after it is read."""
    games = tmp_path / "games"
    games.mkdir()
    box = maildir(tmp_path / "Maildir")
    deep = (b"From: bob@" + DOMAIN.encode() + b"\r\nSubject: deep\r\nMIME-Version: 1.0\r\n"
            + b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n'
                       % (i, i) for i in range(1000))
            + b"Content-Type: text/plain\r\n\r\nhi\r\n"
            + b"".join(b"--b%d--\r\n" % i for i in reversed(range(1000))))
    (box / "new" / "1.msg").write_bytes(deep)
    (box / "new" / "2.msg").write_bytes(person("alice", "[frogpbem] hello")
                                        .as_bytes(policy=policy.SMTP))
    with smtp_keeping() as (url, kept):
        args = ["judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                "--key", keys.path("referee")]
        took = cli(*args)
        assert took.exit_code == 0, took.output
        assert "('deep'): nothing taken: the message has more than 100 parts" in took.stdout
        assert "('[frogpbem] hello'): nothing taken" in took.stdout
        assert cli(*args).stdout == ""
    assert sorted(r for e in kept for r in e.rcpt_tos) == [f"alice@{DOMAIN}", f"bob@{DOMAIN}"]
