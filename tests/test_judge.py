"""The judge against real servers: Dovecot (IMAP) and an SMTP server delivering into it.

A throwaway Dovecot runs on loopback from a configuration in a temporary
folder (its login and mail processes as ``dovenull`` and ``dovecot``, users
in a passwd file, plaintext login on loopback); aiosmtpd takes mail on
loopback and delivers it into the Dovecot users' Maildirs. The judge runs in
its own process (``frogpbem judge --once``), the players use the CLI.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest

from frogpbem.audit import audit
from frogpbem.gamefile import strictyaml
from tests import crash_wrapper
from tests.conftest import FINISHING_MOVES, SETUP, Cli, Keys, here, write_setup
from tests.mailservers import (
    DOMAIN,
    PASSWORD,
    Servers,
    free_port,
    mail_servers,
    started_smtp,
)


@pytest.fixture
def servers() -> Iterator[Servers]:
    with mail_servers() as running:
        yield running


def judge(servers: Servers, games: Path, keys: Keys) -> subprocess.CompletedProcess[str]:
    """``frogpbem judge --once`` in a process of its own (forked from one that imported the
    CLI once: see :func:`tests.crash_wrapper.shared`)."""
    env = {**os.environ, "FROGPBEM_IMAP_PASSWORD": PASSWORD}
    done = crash_wrapper.shared().run(
        ["judge", "--games", str(games), "--imap",
         f"imap://judge@127.0.0.1:{servers.imap_port}", "--smtp", servers.smtp,
         "--from", f"judge@{DOMAIN}", "--imap-insecure-loopback", "--key",
         str(keys.path("referee")), "--once"],
        env, cwd=Path.cwd(), wrapped=False)
    assert done.returncode == 0, done.stderr
    return done


def send(servers: Servers, message: EmailMessage) -> None:
    import smtplib

    with smtplib.SMTP("127.0.0.1", servers.smtp_port) as client:
        client.send_message(message)


def send_bytes(servers: Servers, player: str, data: bytes) -> None:
    """A message sent as it is, byte for byte (as a message left in a mailbox is found)."""
    import smtplib

    with smtplib.SMTP("127.0.0.1", servers.smtp_port) as client:
        client.sendmail(f"{player}@{DOMAIN}", [f"judge@{DOMAIN}"], data)


def parse(data: bytes) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(message, EmailMessage)
    return message


def from_bob(subject: str, body: str) -> EmailMessage:
    """A plain message from Bob to the judge."""
    message = EmailMessage()
    message["From"] = f"bob@{DOMAIN}"
    message["To"] = f"judge@{DOMAIN}"
    message["Subject"] = subject
    message.set_content(body)
    return message


def reply_with(copy: Path, player: str, subject: str = "my move") -> EmailMessage:
    """A player's reply to the judge with its copy of the game attached."""
    reply = EmailMessage()
    reply["From"] = f"{player}@{DOMAIN}"
    reply["To"] = f"judge@{DOMAIN}"
    reply["Subject"] = subject
    reply.set_content("My move is in the attached file.")
    reply.add_attachment(copy.read_bytes(), maintype="application", subtype="yaml",
                         filename="game.yaml")
    return reply


def mail_game(cli: Cli, keys: Keys, tmp_path: Path, games: Path, name: str | None = None,
              *options: str) -> tuple[str, Path]:
    """The known two-seat game, with mail addresses, in the judge's folder: its id and file."""
    draft = tmp_path / "draft.yaml"
    made = cli("new", draft, "--referee", keys.path("referee"), "--referee-name", "Judge",
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--email", f"red=alice@{DOMAIN}", "--email", f"blue=bob@{DOMAIN}",
               "--option", "size=6", "--option", "frogs=2", *options,
               "--setup", write_setup(tmp_path, SETUP))
    assert made.exit_code == 0, made.output
    game_id = str(strictyaml.loads(draft.read_bytes())["header"]["game"])
    games.mkdir(exist_ok=True)
    game = games / (name or f"{game_id}.yaml")
    shutil.copy(draft, tmp_path / "first-copy.yaml")
    shutil.move(draft, game)
    return game_id, game


def test_a_whole_game_through_imap_and_smtp(servers: Servers, cli: Cli, keys: Keys,
                                            tmp_path: Path) -> None:
    games = tmp_path / "judge-games"
    game_id, _ = mail_game(cli, keys, tmp_path, games)
    started = judge(servers, games, keys)
    assert f"game {game_id}: mailed record 0" in started.stdout
    players = {"alice": tmp_path / "alice-games", "bob": tmp_path / "bob-games"}
    for number, (player, move) in enumerate(FINISHING_MOVES, 1):
        for name, folder in players.items():  # each player reads the judge's mail
            mail = servers.inbox(name)
            assert len(mail) == 1, (name, number)
            assert game_id in str(parse(mail[0])["Subject"])
            box = tmp_path / f"{name}-{number}.eml"
            box.write_bytes(mail[0])
            assert cli("receive", box, "--games", folder, "--key", keys.path(name)).exit_code \
                == 0
        copy = players[player] / f"{game_id}.yaml"
        asked = cli("move", copy, move, "--key", keys.path(player))
        assert asked.exit_code == 0, asked.output
        send(servers, reply_with(copy, player, f"Re: [frogpbem {game_id}] my move"))
        took = judge(servers, games, keys)
        assert f"mailed record {number}" in took.stdout, took.stdout
    final = servers.inbox("alice")
    assert "game over" in str(parse(final[0])["Subject"])
    report = audit(games / f"{game_id}.yaml", clock=here().clock)
    assert report.ok, report.text()
    assert servers.count("judge", "INBOX") == 0
    assert servers.count("judge", "frogpbem-done") == len(FINISHING_MOVES)


def test_an_unusable_message_is_answered_and_filed_never_deleted(
        servers: Servers, cli: Cli, keys: Keys, tmp_path: Path) -> None:
    games = tmp_path / "judge-games"
    games.mkdir()
    send(servers, from_bob("hello judge", "-----BEGIN FROGPBEM REQUEST-----\n"
                           "bm90IGEgcmVxdWVzdA==\n-----END FROGPBEM REQUEST-----\n"))
    took = judge(servers, games, keys)
    assert "refused" in took.stdout or "nothing taken" in took.stdout, took.stdout
    assert servers.count("judge", "frogpbem-refused") == 1
    answer = servers.inbox("bob")
    assert len(answer) == 1 and parse(answer[0])["Subject"] == "Re: hello judge"
    assert "was not used" in parse(answer[0]).get_content()
    again = judge(servers, games, keys)  # nothing waits any more: nothing happens twice
    assert again.stdout == ""
    assert servers.inbox("bob") == []


def test_a_message_the_email_package_cannot_read_is_refused_and_the_round_goes_on(
        servers: Servers, keys: Keys, tmp_path: Path) -> None:
    """From ``"x" <`` (a From: header the email package's parser fails on), with an HTML
    part in a charset Python does not know: such a message once ended every round in a
    traceback, and as it stayed waiting, it stopped every game of the mailbox."""
    import smtplib

    games = tmp_path / "judge-games"
    games.mkdir()
    odd = (b'From: "x" <\r\nTo: judge@' + DOMAIN.encode() + b"\r\nSubject: odd\r\n"
           b'MIME-Version: 1.0\r\nContent-Type: text/html; charset="x-no-such"\r\n\r\n'
           b"<p>hello judge</p>\r\n")
    with smtplib.SMTP("127.0.0.1", servers.smtp_port) as client:
        client.sendmail(f"x@{DOMAIN}", [f"judge@{DOMAIN}"], odd)
    send(servers, from_bob("[frogpbem] hello judge", "nothing for the judge"))  # answered
    took = judge(servers, games, keys)
    assert "('odd'): nothing taken" in took.stdout, took.stdout
    assert "('[frogpbem] hello judge'): nothing taken" in took.stdout, took.stdout
    assert servers.count("judge", "frogpbem-refused") == 2
    assert servers.count("judge", "INBOX") == 0
    answer = servers.inbox("bob")  # the odd sender has no address to answer
    assert len(answer) == 1 and parse(answer[0])["Subject"] == "Re: [frogpbem] hello judge"
    assert "was not used" in parse(answer[0]).get_content()


def test_an_answer_the_mail_server_cannot_take_waits_for_the_next_round(
        servers: Servers, keys: Keys, tmp_path: Path) -> None:
    """The SMTP server is away: the round goes on (it once ended there, and every message
    after it waited), the unusable message stays waiting, and is answered once it is back."""
    games = tmp_path / "judge-games"
    games.mkdir()
    for who in ("bob", "alice"):  # (one address is told its message held nothing once a day)
        message = from_bob(f"[frogpbem] from {who}", "nothing for the judge")
        message.replace_header("From", f"{who}@{DOMAIN}")
        send(servers, message)
    away = Servers(servers.folder, servers.imap_port, free_port())  # nobody listens there
    took = judge(away, games, keys)
    assert took.stdout.count("not answered (cannot send mail through") == 2, took.stdout
    assert servers.count("judge", "INBOX") == 2
    assert servers.count("judge", "frogpbem-refused") == 0
    again = judge(servers, games, keys)
    assert again.stdout.count("nothing taken") == 2 and "not answered" not in again.stdout
    assert servers.count("judge", "frogpbem-refused") == 2
    assert len(servers.inbox("bob")) == len(servers.inbox("alice")) == 1


def test_a_message_over_the_size_limit_is_answered_and_filed_unread(
        servers: Servers, keys: Keys, tmp_path: Path) -> None:
    """As ``frogpbem receive`` refuses one: a message of 16 MiB or more is not parsed."""
    from frogpbem.mail.receive import MAX_MESSAGE

    games = tmp_path / "judge-games"
    games.mkdir()
    send(servers, from_bob("a large file",
                           "frogpbem: 2\n" + ("x" * 75 + "\n") * (MAX_MESSAGE // 76 + 1)))
    took = judge(servers, games, keys)
    assert "('a large file'): refused: larger than 16 MiB" in took.stdout, took.stdout
    assert servers.count("judge", "frogpbem-refused") == 1
    answer = servers.inbox("bob")
    assert len(answer) == 1 and "larger than 16 MiB" in parse(answer[0]).get_content()


def test_damaged_marks_make_the_judge_mail_again_not_stop(
        servers: Servers, cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """The judge's marks of what it mailed (the head, and the file's hash) damaged on disk:
    the next round mails the game once more and writes them anew; it neither ends in a
    traceback nor goes silent, and the round after it mails nothing."""
    games = tmp_path / "judge-games"
    game_id, _ = mail_game(cli, keys, tmp_path, games)
    assert f"game {game_id}: mailed record 0" in judge(servers, games, keys).stdout
    marks = sorted((games / ".mailed").iterdir())
    assert len(marks) == 2
    for mark in marks:
        mark.write_bytes(b"\xff[[[ not a mark")
    again = judge(servers, games, keys)
    assert f"game {game_id}: mailed record 0" in again.stdout, again.stdout
    assert "skipped" not in again.stdout
    assert all(len(servers.inbox(name)) == 2 for name in ("alice", "bob"))  # both rounds'
    assert judge(servers, games, keys).stdout == ""
    assert not any(servers.inbox(name) for name in ("alice", "bob"))  # nothing more


def test_a_round_stopped_before_it_wrote_the_game_file_is_finished_by_the_next(
        servers: Servers, cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """Killed after the referee's memory kept the record it signed and before the game file
    was written (so before the message was filed and the record mailed), a round leaves the
    file behind its memory. The next round writes the kept copy in its place, finds the
    waiting message applied already, and mails the record: nothing lost, nothing refused.
    (The kill test below reaches that moment by chance; this one by construction.)"""
    games = tmp_path / "judge-games"
    game_id, game = mail_game(cli, keys, tmp_path, games)
    judge(servers, games, keys)
    for name in ("alice", "bob"):
        box = tmp_path / f"{name}.eml"
        box.write_bytes(servers.inbox(name)[0])
        assert cli("receive", box, "--games", tmp_path / f"{name}-games", "--key",
                   keys.path(name)).exit_code == 0
    player, move = FINISHING_MOVES[0]
    copy = tmp_path / f"{player}-games" / f"{game_id}.yaml"
    assert cli("move", copy, move, "--key", keys.path(player)).exit_code == 0
    before = game.read_bytes()
    marks = {path: path.read_bytes() for path in (games / ".mailed").iterdir()}
    reply = reply_with(copy, player).as_bytes(policy=policy.SMTP)
    send_bytes(servers, player, reply)
    judge(servers, games, keys)
    assert len(strictyaml.loads(game.read_bytes())["log"]) == 1
    # as if that round had been killed between its memory and the game file
    game.write_bytes(before)
    for path, data in marks.items():
        path.write_bytes(data)
    journal = games / ".judge" / "messages" / f"{hashlib.sha256(reply).hexdigest()}.json"
    assert json.loads(journal.read_text())[0] == "taken"
    # as the journal was then: taking it, with the game file as it was before
    journal.write_text(json.dumps(["taking", {game_id: "0" * 64}]))
    assert all(servers.inbox(name) for name in ("alice", "bob"))  # (never sent, then)
    send_bytes(servers, player, reply)  # the same message (never filed, then)
    again = judge(servers, games, keys)
    assert f"{game.name}: finished writing what the last round signed" in again.stdout
    assert "taken already" in again.stdout and "refused" not in again.stdout, again.stdout
    assert f"game {game_id}: mailed record 1" in again.stdout
    assert len(strictyaml.loads(game.read_bytes())["log"]) == 1
    assert servers.count("judge", "frogpbem-refused") == 0
    assert all(len(servers.inbox(name)) == 1 for name in ("alice", "bob"))  # the record, once


def judge_killed(servers: Servers, games: Path, keys: Keys, step: int) -> int:
    """The judge's round, killed (SIGKILL) at its ``step``-th file-system step."""
    env = {**os.environ, "FROGPBEM_IMAP_PASSWORD": PASSWORD, "CRASH_AT": str(step),
           "CRASH_COUNT": ""}
    done = crash_wrapper.shared().run(
        ["judge", "--games", str(games),
         "--imap", f"imap://judge@127.0.0.1:{servers.imap_port}", "--smtp", servers.smtp,
         "--from", f"judge@{DOMAIN}", "--imap-insecure-loopback", "--key",
         str(keys.path("referee")), "--once"], env)
    return done.returncode


def test_a_judge_killed_at_any_point_loses_and_repeats_no_move(
        servers: Servers, cli: Cli, keys: Keys, tmp_path: Path) -> None:
    import random

    rng = random.Random(7)
    games = tmp_path / "judge-games"
    game_id, _ = mail_game(cli, keys, tmp_path, games)
    kills = 0
    seen_subjects: dict[str, set[str]] = {"alice": set(), "bob": set()}
    players = {"alice": tmp_path / "alice-games", "bob": tmp_path / "bob-games"}
    for number, (player, move) in enumerate([(None, None), *FINISHING_MOVES]):
        if player is not None:
            copy = players[player] / f"{game_id}.yaml"
            assert cli("move", copy, move, "--key", keys.path(player)).exit_code == 0
            send(servers, reply_with(copy, player))
        for _ in range(5):  # killed at random points of its round, then started again
            status = judge_killed(servers, games, keys, rng.randint(1, 30))
            kills += status == -9
        judge(servers, games, keys)
        log = strictyaml.loads((games / f"{game_id}.yaml").read_bytes())["log"]
        assert len(log) == number  # every move applied once: none lost, none repeated
        for name, folder in players.items():
            mail = servers.inbox(name)
            assert mail, (name, number)
            subjects = {str(parse(m)["Subject"]) for m in mail}
            assert len(subjects) == 1  # repeated at most, never two different results
            seen_subjects[name] |= subjects
            box = tmp_path / f"{name}-{number}.eml"
            box.write_bytes(mail[-1])
            assert cli("receive", box, "--games", folder, "--key",
                       keys.path(name)).exit_code == 0
    print(f"\njudge killed {kills} times during a {len(FINISHING_MOVES)}-record game",
          file=sys.__stderr__)
    assert kills >= 20
    assert audit(games / f"{game_id}.yaml", clock=here().clock).ok
    assert servers.count("judge", "INBOX") == 0


def test_a_judge_on_a_maildir_takes_a_pasted_block(cli: Cli, keys: Keys, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge in this process, on a Maildir, sending through a real SMTP server."""

    sent: list[Any] = []

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            sent.append(envelope)
            return "250 OK"

    controller, port = started_smtp(Keep())
    try:
        games = tmp_path / "games"
        # any name: the judge finds a game by its id
        game_id, _ = mail_game(cli, keys, tmp_path, games, "club-game.yaml")
        alice = tmp_path / "first-copy.yaml"
        asked = cli("move", alice, "shoot C3", "--key", keys.path("alice"))
        box = tmp_path / "Maildir"
        for sub in ("new", "cur", "tmp"):
            (box / sub).mkdir(parents=True)
        reply = EmailMessage()
        reply["From"] = f"alice@{DOMAIN}"
        reply["Subject"] = "move"
        reply.set_content("> " + asked.stdout[asked.stdout.index("-----BEGIN"):]
                          .replace("\n", "\n> "), cte="quoted-printable")
        (box / "new" / "1.msg").write_bytes(bytes(reply))
        args = ["judge", "--games", games, "--maildir", box, "--smtp",
                f"smtp://127.0.0.1:{port}", "--once", "--key", keys.path("referee")]
        first = cli(*args)
        assert first.exit_code == 0, first.output
        assert "red shoots C3: 1" in first.stdout and "mailed record 1" in first.stdout
        assert len(strictyaml.loads((games / "club-game.yaml").read_bytes())["log"]) == 1
        assert game_id in first.stdout
        assert list((box / "new").iterdir()) == []
        assert [p.name for p in (box / ".frogpbem-done" / "cur").iterdir()] == ["1.msg"]
        assert sorted(e.rcpt_tos[0] for e in sent) == [f"alice@{DOMAIN}", f"bob@{DOMAIN}"]
        second = cli(*args)
        assert second.exit_code == 0 and second.stdout == ""  # nothing new, nothing mailed
        monkeypatch.delenv("FROGPBEM_IMAP_PASSWORD", raising=False)
        both = cli("judge", "--games", games, "--smtp", "smtp://x", "--key",
                   keys.path("referee"))
        assert both.exit_code == 2 and "--imap URL or --maildir DIR" in both.stderr
    finally:
        controller.stop()


def test_a_deadline_reminds_once_then_forfeits_once_and_audits(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With an injected clock ($FROGPBEM_NOW): 4 hours a move, forfeit when they pass."""

    sent: list[Any] = []

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            sent.append(parse(envelope.content))
            return "250 OK"

    controller, port = started_smtp(Keep())
    try:
        monkeypatch.setenv("FROGPBEM_NOW", "2026-12-01T00:00:00Z")
        games = tmp_path / "games"
        game_id, game = mail_game(cli, keys, tmp_path, games, None, "--option", "deadline=4h",
                                  "--option", "on_timeout=forfeit")
        box = tmp_path / "Maildir"
        for sub in ("new", "cur", "tmp"):
            (box / sub).mkdir(parents=True)
        args = ["judge", "--games", games, "--maildir", box, "--smtp",
                f"smtp://127.0.0.1:{port}", "--once", "--key", keys.path("referee")]

        def at(when: str) -> str:
            monkeypatch.setenv("FROGPBEM_NOW", when)
            result = cli(*args)
            assert result.exit_code == 0, result.output
            return result.stdout

        assert "mailed record 0" in at("2026-12-01T00:00:00Z") and len(sent) == 2
        assert at("2026-12-01T02:00:00Z") == ""  # early: nothing to say
        early = cli("timeout", game, "--key", keys.path("referee"))
        assert early.exit_code == 4 and "runs until 2026-12-01T04:00:00Z" in early.stderr
        assert "reminded red" in at("2026-12-01T03:30:00Z")
        reminder = sent[-1]
        assert reminder["To"].addresses[0].addr_spec == f"alice@{DOMAIN}"
        assert str(reminder["Subject"]).startswith(f"[frogpbem {game_id}] reminder: ")
        assert reminder["Auto-Submitted"] == "auto-generated" and reminder["Message-ID"]
        saved = tmp_path / "reminder.eml"  # it carries the game: answered as it is
        saved.write_bytes(reminder.as_bytes())
        answered = cli("reply", saved, "shoot C3", "--key", keys.path("alice"), "--games",
                       tmp_path / "alice-games", "--out", tmp_path / "answer.eml")
        assert answered.exit_code == 0, answered.output
        assert at("2026-12-01T03:45:00Z") == ""  # one reminder only
        mark = games / ".reminded" / f"{game_id}.json"
        mark.write_bytes(b"\xff{ damaged")  # a damaged mark names no reminder:
        assert "reminded red" in at("2026-12-01T03:50:00Z")  # once more, no traceback
        assert at("2026-12-01T03:55:00Z") == ""  # and the mark is written anew
        late = at("2026-12-01T04:00:01Z")
        assert "red forfeits on time" in late and "mailed record 1" in late
        assert at("2026-12-01T09:00:00Z") == ""  # applied once
        record = strictyaml.loads(game.read_bytes())["log"][0]
        assert record["timeout"] is True and record["at"] == "2026-12-01T04:00:01Z"
        assert len(sent) == 6  # the start to both, two reminders, the end to both
        report = audit(game, clock=here().clock)
        assert report.ok, report.text()
        assert cli("verify", game, "--key", keys.path("alice")).exit_code == 0
        from tests.test_audit import resign

        forged = tmp_path / "forged.yaml"  # a referee that did not wait for the deadline
        doc = strictyaml.loads(game.read_bytes())
        doc["log"][0]["at"] = "2026-12-01T01:00:00Z"
        resign(doc, keys.key("referee"))
        forged.write_text(strictyaml.dumps(doc))
        assert audit(forged, clock=here().clock).unasked == [1]
    finally:
        controller.stop()


def test_a_team_game_with_notes_through_the_servers(servers: Servers, cli: Cli, keys: Keys,
                                                    tmp_path: Path) -> None:
    """Four seats in two teams: moves and a team note go through IMAP and SMTP."""
    from frogpbem import crypto
    from tests.test_notes import MOVES, SEATS, TEAMS
    from tests.test_notes import SETUP as TEAM_SETUP

    seat_keys = {seat: tmp_path / f"{seat}.key" for seat in SEATS}
    for seat, path in seat_keys.items():
        crypto.generate_key(path, seat)
    games = tmp_path / "judge-games"
    games.mkdir()
    draft = tmp_path / "draft.yaml"
    args: list[Any] = ["new", draft, "--rules", "coan", "--referee", keys.path("referee"),
                       "--option", "size=6", "--option", "frogs=1", "--option",
                       f"teams={TEAMS}", "--setup", write_setup(tmp_path, TEAM_SETUP)]
    for seat in SEATS:
        args += ["--seat", f"{seat}={seat_keys[seat]}.pub", "--email", f"{seat}={seat}@{DOMAIN}"]
    assert cli(*args).exit_code == 0
    game_id = strictyaml.loads(draft.read_bytes())["header"]["game"]
    shutil.move(draft, games / f"{game_id}.yaml")
    judge(servers, games, keys)
    copies = {seat: tmp_path / f"{seat}-games" for seat in SEATS}

    def read_mail() -> None:
        for seat in SEATS:
            for index, data in enumerate(servers.inbox(seat)):
                box = tmp_path / f"{seat}-{time.time_ns()}-{index}.eml"
                box.write_bytes(data)
                got = cli("receive", box, "--games", copies[seat], "--key", seat_keys[seat])
                assert got.exit_code == 0, got.output

    for number, (seat, move) in enumerate(MOVES, 1):
        read_mail()
        copy = copies[seat] / f"{game_id}.yaml"
        if seat == "red":  # red leaves a note for black, its teammate
            assert cli("note", copy, "purple's frog is near F1", "--key",
                       seat_keys["red"]).exit_code == 0
        assert cli("move", copy, move, "--key", seat_keys[seat]).exit_code == 0
        send(servers, reply_with(copy, seat))
        assert f"mailed record {number}" in judge(servers, games, keys).stdout
    read_mail()
    black = cli("view", copies["black"] / f"{game_id}.yaml", "--key", seat_keys["black"])
    assert "red: purple's frog is near F1" in black.stdout
    blue = cli("view", copies["blue"] / f"{game_id}.yaml", "--key", seat_keys["blue"])
    assert "Team notes" not in blue.stdout and "purple's frog" not in blue.stdout
    assert len(strictyaml.loads((games / f"{game_id}.yaml").read_bytes())["log"]) == len(MOVES)


def test_a_running_judge_wakes_on_new_mail_with_idle(servers: Servers, cli: Cli, keys: Keys,
                                                      tmp_path: Path) -> None:
    """Without --once the judge waits in IMAP IDLE: a move is taken at once, not at --every."""
    games = tmp_path / "judge-games"
    game_id, game = mail_game(cli, keys, tmp_path, games)
    alice = tmp_path / "first-copy.yaml"
    env = {**os.environ, "FROGPBEM_IMAP_PASSWORD": PASSWORD}
    running = subprocess.Popen(
        [sys.executable, "-m", "frogpbem", "judge", "--games", str(games), "--imap",
         f"imap://judge@127.0.0.1:{servers.imap_port}", "--smtp", servers.smtp,
         "--from", f"judge@{DOMAIN}", "--imap-insecure-loopback", "--key",
         str(keys.path("referee")), "--every", "120"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(200):  # the first round mails the start
            if (games / ".mailed" / f"{game_id}.json").exists():
                break
            time.sleep(0.05)
        assert cli("move", alice, "shoot C3", "--key", keys.path("alice")).exit_code == 0
        reply = reply_with(alice, "alice")
        sent_at = time.monotonic()
        send(servers, reply)
        while not strictyaml.loads(game.read_bytes())["log"]:
            assert time.monotonic() - sent_at < 20, "the judge did not wake for new mail"
            time.sleep(0.05)
        assert time.monotonic() - sent_at < 20  # far sooner than --every 120
    finally:
        running.terminate()
        running.wait(timeout=20)
