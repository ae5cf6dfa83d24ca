"""The judge after an outside review: a cleared bounce brings a seat back, signed moves in
automatic-looking mail count, no invitation twice, no answer loop, no answer lost.

They run the judge on a Maildir and send through the aiosmtpd server of
:func:`tests.test_judge_citizen.smtp_keeping` (in this process).
"""

from __future__ import annotations

import os
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from frogpbem import crypto
from frogpbem.gamefile import strictyaml
from frogpbem.mail.judge import Incoming, Judge, MaildirBox
from frogpbem.mail.outbox import SmtpOutbox
from tests.conftest import Cli, Keys, game_addressed, here
from tests.test_judge import DOMAIN, parse
from tests.test_judge_citizen import club_game, maildir, person, smtp_keeping


def judge_args(games: Path, box: Path, url: str, keys: Keys) -> list[object]:
    return ["judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
            "--from", f"judge@{DOMAIN}", "--key", keys.path("referee")]


def moved(cli: Cli, keys: Keys, tmp_path: Path, game: Path, subject: str) -> EmailMessage:
    """Alice's mail with red's move ``shoot C3`` in her copy of ``game``, attached."""
    copy = tmp_path / "alice.yaml"
    copy.write_bytes(game.read_bytes())
    assert cli("move", copy, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    message = person("alice", subject)
    message.add_attachment(copy.read_bytes(), maintype="application", subtype="yaml",
                           filename=game.name)
    return message


def test_a_cleared_bounce_brings_the_seat_back(cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """Blue's address is refused for good, then works again and the referee removes
    ``.judge/bounced/GAME.json`` as told: blue is mailed the record it missed. (The round
    that skipped blue once marked the game mailed: blue was never mailed again.)"""
    games = tmp_path / "games"
    game_id, _ = club_game(cli, keys, tmp_path, games)
    box = maildir(tmp_path / "Maildir")
    gone = {f"bob@{DOMAIN}"}
    with smtp_keeping(gone=gone) as (url, kept):
        first = cli(*judge_args(games, box, url, keys))
        assert f"blue's address bob@{DOMAIN} refused: 550" in first.stdout, first.output
        assert cli(*judge_args(games, box, url, keys)).stdout == ""
        gone.clear()
        (games / ".judge" / "bounced" / f"{game_id}.json").unlink()
        back = cli(*judge_args(games, box, url, keys)).stdout
        assert f"game {game_id}: mailed record 0 to blue: bob@{DOMAIN}" in back, back
        assert cli(*judge_args(games, box, url, keys)).stdout == ""
    assert [e.rcpt_tos for e in kept] == [[f"alice@{DOMAIN}"], [f"judge@{DOMAIN}"],
                                          [f"bob@{DOMAIN}"]]


@pytest.mark.parametrize("header", [("List-Id", "<club.example.org>"),
                                    ("Auto-Submitted", "auto-generated")])
def test_a_signed_move_in_automatic_looking_mail_is_taken(
        cli: Cli, keys: Keys, tmp_path: Path, header: tuple[str, str]) -> None:
    """A move cc'd to the club's list (List-Id), or sent by a player's bot
    (Auto-Submitted), once was filed unused in frogpbem-automatic: the game stood still.
    Signatures decide what is taken; such mail is only never answered."""
    games = tmp_path / "games"
    game_id, game = club_game(cli, keys, tmp_path, games)
    message = moved(cli, keys, tmp_path, game, "my move")
    message[header[0]] = header[1]
    box = maildir(tmp_path / "Maildir")
    (box / "new" / "1.msg").write_bytes(message.as_bytes(policy=policy.SMTP))
    with smtp_keeping() as (url, _):
        took = cli(*judge_args(games, box, url, keys))
    assert "red shoots C3" in took.stdout, took.output
    assert len(strictyaml.loads(game.read_bytes())["log"]) == 1
    assert [p.name for p in (box / ".frogpbem-done" / "cur").iterdir()] == ["1.msg"]


def test_a_login_the_server_cannot_take_leaves_the_message_to_answer(
        keys: Keys, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A login is set and the server offers no STARTTLS: the judge once exited 2 with the
    message journalled as answered, and the next run filed it unanswered. Now the judge
    says so at start-up (exit 2, nothing touched); a round that meets it leaves the
    message waiting, answered once the configuration is right."""
    games = tmp_path / "games"
    games.mkdir()
    box = maildir(tmp_path / "Maildir")
    (box / "new" / "1.msg").write_bytes(person("bob", "Re: [frogpbem] hello")
                                        .as_bytes(policy=policy.SMTP))
    with smtp_keeping() as (url, kept):
        monkeypatch.setenv("FROGPBEM_SMTP_USER", "judge")
        refused = cli(*judge_args(games, box, url, keys))
        assert refused.exit_code == 2 and "offers no STARTTLS" in refused.stderr
        judge = Judge(games, crypto.load_private_key(keys.path("referee")), MaildirBox(box),
                      SmtpOutbox(url), here(), f"judge@{DOMAIN}")
        [stuck] = judge.round()
        assert "offers no STARTTLS" in stuck and "it waits" in stuck, stuck
        assert [p.name for p in (box / "new").iterdir()] == ["1.msg"]
        monkeypatch.delenv("FROGPBEM_SMTP_USER")
        assert "('Re: [frogpbem] hello')" in cli(*judge_args(games, box, url, keys)).stdout
        assert cli(*judge_args(games, box, url, keys)).stdout == ""
    assert [e.rcpt_tos for e in kept] == [[f"bob@{DOMAIN}"]]


class ReadBox(MaildirBox):
    """A Maildir that a mail program reads while the judge works: as soon as the judge
    has listed the messages, the first is marked seen (``cur/NAME:2,S``), the second is
    deleted."""

    def waiting(self) -> list[Incoming]:
        found = super().waiting()
        seen, deleted = sorted((self.path / "new").iterdir())
        seen.rename(self.path / "cur" / f"{seen.name}:2,S")
        deleted.unlink()
        return found


def test_a_mail_program_on_the_maildir_stops_no_round(keys: Keys, tmp_path: Path) -> None:
    """Once ``FileNotFoundError`` ended the round in a traceback (and the service with it)."""
    games = tmp_path / "games"
    games.mkdir()
    box = maildir(tmp_path / "Maildir")
    for name in ("1.host", "2.host"):
        (box / "new" / name).write_bytes(person("bob", f"[frogpbem] {name}")
                                         .as_bytes(policy=policy.SMTP))
    with smtp_keeping() as (url, kept):
        judge = Judge(games, crypto.load_private_key(keys.path("referee")), ReadBox(box),
                      SmtpOutbox(url), here(), f"judge@{DOMAIN}")
        log = judge.round()
    assert "('[frogpbem] 1.host'): nothing taken" in log[0]
    assert log[1] == "message new/2.host: gone from the mailbox (taken by another program): " \
        "left alone"
    assert os.listdir(box / ".frogpbem-refused" / "cur") == ["1.host:2,S"]
    assert kept


def test_a_judge_address_with_a_display_name(cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """``--from 'Judge <judge@…>'`` once made every game's mail fail ("not one mail
    address"); two addresses are refused after the option, exit 2."""
    games = tmp_path / "games"
    game_id, _ = club_game(cli, keys, tmp_path, games)
    box = maildir(tmp_path / "Maildir")
    with smtp_keeping() as (url, kept):
        args = judge_args(games, box, url, keys)
        args[args.index("--from") + 1] = f"Club Judge <judge@{DOMAIN}>"
        mailed = cli(*args)
        assert f"game {game_id}: mailed record 0" in mailed.stdout, mailed.output
        args[args.index("--from") + 1] = f"judge@{DOMAIN}, spy@{DOMAIN}"
        two = cli(*args)
        assert two.exit_code == 2 and "--from" in two.stderr, two.output
    assert parse(kept[0].content)["From"].addresses[0].addr_spec == f"judge@{DOMAIN}"


def join_game(cli: Cli, keys: Keys, tmp_path: Path, games: Path) -> tuple[str, Path]:
    """A two-seat game that waits for its seats to join (``--join``), in the judge's folder."""
    games.mkdir()
    draft = tmp_path / "draft.yaml"
    made = cli("new", draft, "--join", "--referee", keys.path("referee"),
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--email", f"red=alice@{DOMAIN}", "--email", f"blue=bob@{DOMAIN}",
               "--option", "size=6", "--option", "frogs=2")
    assert made.exit_code == 0, made.output
    game_id = str(strictyaml.loads(draft.read_bytes())["header"]["game"])
    return game_id, Path(draft.replace(games / f"{game_id}.yaml"))


def test_a_join_game_invites_each_seat_once_though_another_is_deferred(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blue's server says "try later" for hours: red was invited again at every retry."""
    games = tmp_path / "games"
    game_id, _ = join_game(cli, keys, tmp_path, games)
    box = maildir(tmp_path / "Maildir")
    busy = {f"bob@{DOMAIN}"}
    with smtp_keeping(busy) as (url, kept):
        for hour in range(4):
            monkeypatch.setenv("FROGPBEM_NOW", f"2026-12-01T0{hour}:00:00Z")
            assert cli(*judge_args(games, box, url, keys)).exit_code == 0
        busy.clear()
        monkeypatch.setenv("FROGPBEM_NOW", "2026-12-01T05:00:00Z")
        last = cli(*judge_args(games, box, url, keys)).stdout
        assert f"game {game_id}: waiting for red, blue to join: mailed blue: bob@" in last
        assert cli(*judge_args(games, box, url, keys)).stdout == ""
    assert [e.rcpt_tos for e in kept] == [[f"alice@{DOMAIN}"], [f"bob@{DOMAIN}"]]


def test_a_reply_that_forgot_to_join_is_told_how_to_join(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """Red replies to the invitation with the file unchanged. The answer once said "your
    move is not allowed" and named frogpbem reply "YOUR MOVE" and frogpbem move, which
    both refuse a game not yet dealt."""
    games = tmp_path / "games"
    game_id, game = join_game(cli, keys, tmp_path, games)
    box = maildir(tmp_path / "Maildir")
    forgot = person("alice", f"Re: [frogpbem {game_id}] join")
    forgot.add_attachment(game.read_bytes(), maintype="application", subtype="yaml",
                          filename=game.name)
    (box / "new" / "1.msg").write_bytes(forgot.as_bytes(policy=policy.SMTP))
    with smtp_keeping() as (url, kept):
        took = cli(*judge_args(games, box, url, keys))
        assert "holds no join" in took.stdout, took.output
    [answer] = [parse(e.content) for e in kept if b"In-Reply-To" in e.content]
    text = " ".join(answer.get_content().split())
    assert "your copy holds no join" in text and "not allowed" not in text, text
    assert "frogpbem reply MESSAGE join --key YOUR_KEY" in text
    assert f"frogpbem join {game_id}.yaml --key YOUR_KEY" in text
    assert "YOUR MOVE" not in text and "frogpbem move" not in text


def test_no_loop_with_an_autoresponder_and_no_answer_to_spam(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An autoresponder that marks nothing answered each answer of the judge's (one
    exchange a round, for ever), and spam under a forged sender was answered. Now a reply
    to the judge's answer with nothing in it is not answered; a message that nothing ties
    to a game is not; and one address is told its message held nothing once a day."""
    monkeypatch.setenv("FROGPBEM_NOW", "2026-12-01T00:00:00Z")
    games = tmp_path / "games"
    games.mkdir()
    box = maildir(tmp_path / "Maildir")
    (box / "new" / "1.msg").write_bytes(person("bob", "Re: [frogpbem ff-abcd] hi")
                                        .as_bytes(policy=policy.SMTP))
    spam = person("victim", "Cheap watches")
    (box / "new" / "2.msg").write_bytes(spam.as_bytes(policy=policy.SMTP))
    with smtp_keeping() as (url, kept):
        first = cli(*judge_args(games, box, url, keys)).stdout
        assert "not answered: nothing ties it to a game" in first, first
        [answer] = [parse(e.content) for e in kept]
        ticket = person("bob", f"Re: Ticket received: {answer['Subject']}",
                        "Thank you, your ticket is received.")
        ticket["In-Reply-To"] = str(answer["Message-ID"])
        (box / "new" / "3.msg").write_bytes(ticket.as_bytes(policy=policy.SMTP))
        again = person("bob", "Re: [frogpbem ff-abcd] hi again")
        (box / "new" / "4.msg").write_bytes(again.as_bytes(policy=policy.SMTP))
        second = cli(*judge_args(games, box, url, keys)).stdout
        assert "not answered: it answers the judge's own answer" in second, second
        assert f"not answered: bob@{DOMAIN} was answered so in the last day" in second
        assert len(kept) == 1
        monkeypatch.setenv("FROGPBEM_NOW", "2026-12-02T00:00:01Z")
        (box / "new" / "5.msg").write_bytes(person("bob", "Re: [frogpbem ff-abcd] later")
                                            .as_bytes(policy=policy.SMTP))
        cli(*judge_args(games, box, url, keys))
    assert [e.rcpt_tos for e in kept] == [[f"bob@{DOMAIN}"]] * 2
    assert len(os.listdir(box / ".frogpbem-refused" / "cur")) == 5


def test_headers_keep_to_the_lengths_of_mail(cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A 1,200-character name once gave a To: line over 998 characters (a server refuses
    it: "500 Line too long"), and every header was one encoded word of up to ~990
    (RFC 2047 allows 75). A name is cut at 200 characters; headers are folded as the
    email package folds them, but for one that would not read back as it was."""
    import re

    games = tmp_path / "games"
    games.mkdir()
    name = "Bob Example-" * 100  # new refuses it now: an older or hostile tool's game
    game_id = game_addressed(games / "draft.yaml", keys, {
        "red": f"alice@{DOMAIN}", "blue": f"bob@{DOMAIN}"}, names={"blue": name, "red": "Al\u00e9"})
    game = (games / "draft.yaml").rename(games / f"{game_id}.yaml")
    written = cli("mail", game, "--out", tmp_path / "out", "--key", keys.path("referee"))
    assert written.exit_code == 0, written.output
    for path in (tmp_path / "out").iterdir():
        data = path.read_bytes()
        head = data[:data.index(b"\n\n")].decode("ascii")
        assert max(len(line) for line in head.splitlines()) <= 998, path.name
        words = re.findall(r"=\?[^?]+\?[bBqQ]\?[^?]*\?=", head)  # the email package's
        assert max(map(len, words)) <= 76  # own folding writes them to 76 (RFC 2047: 75)
        parsed = parse(data)
        assert "  " not in str(parsed["Subject"])
    to_blue = parse((tmp_path / "out" / f"{game.stem}-blue.eml").read_bytes())
    assert to_blue["To"].addresses[0].addr_spec == f"bob@{DOMAIN}"
    assert to_blue["To"].addresses[0].display_name == name[:200]
    to_red = parse((tmp_path / "out" / f"{game.stem}-red.eml").read_bytes())
    assert to_red["To"].addresses[0].display_name == "Al\u00e9"


def test_join_refusals_name_the_join_not_a_move() -> None:
    """A second join, and a Secret Move copy without its secret, in a seat's words."""
    from frogpbem.dealing import JoinRefusedError
    from frogpbem.mail.answers import unused_for

    again, secret = JoinRefusedError("joined already"), JoinRefusedError("holds no join")
    again.joined, secret.choosing = True, True
    said = unused_for(again, "ff-game")
    assert "you joined already: the first join counts" in said.words
    assert "frogpbem reply" not in said.next_step and "YOUR MOVE" not in said.next_step
    said = unused_for(secret, "ff-game")
    assert 'frogpbem reply MESSAGE --setup "YOUR SECRET" --key YOUR_KEY' in said.next_step
    assert "--random" in said.next_step
    assert 'frogpbem setup ff-game.yaml "YOUR SECRET" --key YOUR_KEY' in said.next_step
