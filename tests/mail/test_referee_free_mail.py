"""A game without a referee by email: each seat's mail goes straight to the other seat.

Each seat has a home of its own (its memory of the game) and a games folder of its own,
and answers only with ``frogpbem reply`` on the message it got. A whole game of each
ruleset (Froglet, Frog Finder, Secret Move) goes through a real SMTP server (aiosmtpd)
and Dovecot, one pair of servers for the module, each seat fetching from its own IMAP
mailbox with imapclient (the driver: tests/mail/referee_free_play.py); the rest works on
.eml files: the wrappings of real mail programs (tests/mail/corpus), and every refusal.
"""

from __future__ import annotations

import base64
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from frogpbem.cli import app
from frogpbem.duel.engine import create
from frogpbem.gamefile.duelfile import DuelFile, Message, dump_duel, parse_duel
from frogpbem.gamefile.model import Party
from frogpbem.games.froglet import Froglet, State
from tests.conftest import Keys, now
from tests.duel.test_referee_free_cli import choose, independent_board, independent_replay
from tests.mailcorpus import CORPUS, render
from tests.test_judge import DOMAIN, PASSWORD, Servers, mail_servers

SUBJECT = re.compile(r"\[frogpbem (?P<game>[a-z0-9-]+)\] (?P<said>.+) \u2014 (?P<after>.+)")


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str


@dataclass
class Seat:
    name: str
    player: str
    root: Path

    @property
    def games(self) -> Path:
        return self.root / "games"

    @property
    def address(self) -> str:
        return f"{self.player}@{DOMAIN}"

    def copy(self, game: str) -> Path:
        return self.games / f"{game}.yaml"


class Table:
    """Two seats, each running the CLI with its own home, state and key."""

    def __init__(self, tmp_path: Path, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tmp, self.keys, self.monkeypatch = tmp_path, keys, monkeypatch
        self.white = Seat("white", "alice", tmp_path / "alice")
        self.black = Seat("black", "bob", tmp_path / "bob")
        for seat in (self.white, self.black):
            seat.root.mkdir()
        monkeypatch.chdir(tmp_path)
        self.count = 0

    def run(self, seat: Seat, *args: Any, data: bytes = b"", key: bool = True) -> Result:
        self.monkeypatch.setenv("FROGPBEM_HOME", str(seat.root / "home"))
        self.monkeypatch.setenv("FROGPBEM_STATE", str(seat.root / "state"))
        extra = ["--key", str(self.keys.path(seat.player))] if key else []
        done = CliRunner().invoke(app, [str(a) for a in args] + extra, input=data,
                                  catch_exceptions=False)
        return Result(done.exit_code, done.stdout, done.stderr)

    def new(self, emails: bool = True, rules: str = "froglet") -> Path:
        first, second = ("white", "black") if rules == "froglet" else ("red", "blue")
        options = {"froglet": ["--option", "size=4"],
                   "frogfinder": ["--option", "size=6", "--option", "frogs=2"]}
        game = self.white.root / "game.yaml"
        made = self.run(self.white, "new", game, "--rules", rules, "--no-referee",
                        "--seat", f"{first}={self.keys.pub('alice')}",
                        "--seat", f"{second}={self.keys.pub('bob')}",
                        "--name", f"{first}=Alice", "--name", f"{second}=Bob",
                        *options.get(rules, []),
                        *(["--email", f"{first}={self.white.address}",
                           "--email", f"{second}={self.black.address}"] if emails else []))
        assert made.exit_code == 0, made.stderr
        return game

    def out(self) -> Path:
        self.count += 1
        return self.tmp / f"answer-{self.count}.eml"

    def reply(self, seat: Seat, message: Path, *args: Any) -> tuple[Result, Path]:
        """``seat`` answers ``message`` into a new .eml file."""
        answer = self.out()
        done = self.run(seat, "reply", message, *args, "--games", seat.games, "--out", answer)
        return done, answer

    def invitation(self, rules: str = "froglet") -> tuple[Path, str]:
        """A new game, mailed to the second seat as an .eml file; its id."""
        game = self.new(rules=rules)
        folder = self.tmp / "out"
        sent = self.run(self.white, "mail", game, "--out", folder)
        assert sent.exit_code == 0, sent.stderr
        (path,) = folder.glob("*.eml")
        return path, str(parsed(path.read_bytes())["X-Frogpbem-Game"])

    def dealt(self) -> tuple[Path, Path, str]:
        """The game after black's join and white's reveal with its first move: black's
        join (the mail to white) and white's first move (the mail to black); the id."""
        invite, game = self.invitation()
        joined, join_mail = self.reply(self.black, invite)
        assert joined.exit_code == 0, joined.stderr
        board = independent_state(self.white, game, join_mail, self.keys)
        first, move_mail = self.reply(self.white, join_mail, choose(board, random.Random(3)))
        assert first.exit_code == 0, first.stderr
        return join_mail, move_mail, game


def parsed(data: bytes) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(message, EmailMessage)
    return message


def attached(message: EmailMessage) -> bytes:
    """The game file attached, checked to be base64 (as refereed games attach theirs)."""
    (part,) = list(message.iter_attachments())
    assert part["Content-Transfer-Encoding"] == "base64"
    assert part.get_content_type() == "application/yaml"
    data = part.get_payload(decode=True)
    assert isinstance(data, bytes)
    return data


def independent_state(white: Seat, game: str, join_mail: Path, keys: Keys) -> State:
    """The board white's reveal will deal, from white's sealed secret opened by hand (age,
    via the test's key) and the spec's derivation (for choosing white's first move)."""
    from frogpbem import crypto

    file = parse_duel(attached(parsed(join_mail.read_bytes())), "mail")
    opened = crypto.unseal(file.header.secret.sealed, keys.key("alice"))
    secret = re.search(rb'"secret":"([0-9a-f]+)"', opened)
    assert secret is not None
    revealed = DuelFile(file.header, (*file.messages,
                                      Message(2, "", "white", now(), reveal=secret[1].decode())))
    board = independent_board(revealed)
    return Froglet().start(file.header.options, ("white", "black"), board,
                           {"white": None, "black": None})


@pytest.fixture
def table(tmp_path: Path, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> Table:
    return Table(tmp_path, keys, monkeypatch)


# --- the mail -----------------------------------------------------------------------------


def test_referee_free_invitation_goes_from_the_first_seat_to_the_second(table: Table) -> None:
    invite, game = table.invitation()
    message = parsed(invite.read_bytes())
    assert message["From"].addresses[0].addr_spec == table.white.address
    assert message["To"].addresses[0].addr_spec == table.black.address
    assert str(message["Subject"]) == f"[frogpbem {game}] white created the game \u2014 black " \
                                      "to join"
    assert message["Auto-Submitted"] is None  # a person's mail (RFC 3834)
    assert re.fullmatch(r"<[^<>@\s]+@test\.invalid>", message["Message-ID"])
    assert message["Date"] is not None and message["In-Reply-To"] is None
    text = message.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "frogpbem reply THIS_MESSAGE.eml --key YOUR_KEY" in text
    kept = table.white.root / "game.yaml"
    assert attached(message) == kept.read_bytes()


def test_referee_free_each_answer_goes_to_the_other_seat_threaded(table: Table) -> None:
    invite, game = table.invitation()
    joined, join_mail = table.reply(table.black, invite)
    assert joined.exit_code == 0, joined.stderr
    assert f"black joined game {game}" in joined.stdout
    assert f"wrote {join_mail}, to Alice <{table.white.address}>" in joined.stdout
    first, second = parsed(invite.read_bytes()), parsed(join_mail.read_bytes())
    assert second["From"].addresses[0].addr_spec == table.black.address
    assert second["To"].addresses[0].addr_spec == table.white.address
    assert second["In-Reply-To"] == first["Message-ID"]
    assert first["Message-ID"] in str(second["References"]).split()
    assert second["Auto-Submitted"] is None
    found = SUBJECT.fullmatch(str(second["Subject"]))
    assert found and found["said"] == f"1. black joined game {game}" and \
        found["after"] == "white to move"
    file = parse_duel(attached(second), "mail")
    assert [m.seat for m in file.messages] == ["black"] and file.messages[0].join
    assert table.black.copy(game).read_bytes() == dump_duel(file)
    body = second.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    # before white's reveal the board needs white's key: the mail says what to run
    assert "Your board needs your own key to show" in body and "(G)" not in body
    assert 'frogpbem reply THIS_MESSAGE.eml "YOUR MOVE" --key YOUR_KEY' in body
    shown = table.run(table.white, "reply", join_mail, "--games", table.white.games)
    assert shown.exit_code == 0, shown.stderr
    assert "the board your reveal deals" in shown.stdout
    assert "It is your move (white)" in shown.stdout
    board = independent_state(table.white, game, join_mail, table.keys)
    move = choose(board, random.Random(3))
    played, move_mail = table.reply(table.white, join_mail, move)
    assert played.exit_code == 0, played.stderr
    third = parsed(move_mail.read_bytes())
    assert third["In-Reply-To"] == second["Message-ID"]
    assert str(third["References"]).split()[-2:] == [first["Message-ID"], second["Message-ID"]]
    after = parse_duel(attached(third), "mail")
    state = independent_replay(after)
    found = SUBJECT.fullmatch(str(third["Subject"]))
    assert found and found["said"].startswith("2. white revealed its secret; the board is "
                                              f"dealt; white removes {move.split()[-1]}")
    assert found["after"] == "black to move"
    body = third.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    board_text = Froglet().render(Froglet().view(state, frozenset(state.seats)))
    assert board_text in body  # nothing hidden once dealt: black's board as its tool shows it


# --- real clients' wrappings --------------------------------------------------------------


def _wrapped(template: str, game: str, file_text: str, flowed: bool = False) -> bytes:
    """A corpus template with the file pasted where the client's reply had the block;
    ``flowed``: space-stuffed as a format=flowed sender writes it (RFC 3676, 4.4)."""
    lines = file_text.rstrip("\n").split("\n")
    if flowed:
        lines = [f" {line}" if line.startswith((" ", ">", "From ")) else line
                 for line in lines]
    values = {"GAME_ID": game, "GAME_FILE": "\n".join(lines), "BLOCK": "\n".join(lines),
              "BLOCK_HTML": "<br>".join(line.replace(" ", "&nbsp;") for line in lines)}
    return render((CORPUS / template).read_text(), values,
                  crlf=template.startswith(("gmail", "outlook")))


def _forwarded_as_attachment(original: bytes) -> bytes:
    """Thunderbird's forward of the whole message as a message/rfc822 attachment."""
    outer = EmailMessage()
    outer["From"] = "Alice Martin <alice@example.org>"
    outer["To"] = "alice.martin@gmail.com"
    outer["Subject"] = "Fwd: the game"
    outer["User-Agent"] = "Mozilla Thunderbird"
    outer.set_content("Forwarding this to my other address.\n")
    outer.add_attachment(parsed(original), filename="the game.eml")
    return bytes(outer)


def _base64_text_attachment(file_text: str, game: str) -> bytes:
    """An attachment as Gmail writes a .yaml file: text/plain, base64, CRLF lines."""
    encoded = base64.encodebytes(file_text.replace("\n", "\r\n").encode()).decode()
    return (f"MIME-Version: 1.0\r\nFrom: Bob <bob@gmail.com>\r\nTo: alice@example.org\r\n"
            f"Subject: Re: [frogpbem {game}] 1. black joined\r\n"
            "Content-Type: multipart/mixed; boundary=\"000000000000a1\"\r\n\r\n"
            "--000000000000a1\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n\r\n"
            "Here it is.\r\n\r\n--000000000000a1\r\n"
            f"Content-Type: text/plain; charset=\"US-ASCII\"; name=\"{game}.yaml\"\r\n"
            f"Content-Disposition: attachment; filename=\"{game}.yaml\"\r\n"
            "Content-Transfer-Encoding: base64\r\n\r\n"
            f"{encoded.replace(chr(10), chr(13) + chr(10))}--000000000000a1--\r\n").encode()


def test_referee_free_a_duel_file_wrapped_by_real_mail_programs_is_taken(
        table: Table) -> None:
    invite, game = table.invitation()
    joined, join_mail = table.reply(table.black, invite)
    assert joined.exit_code == 0, joined.stderr
    original = join_mail.read_bytes()
    file_bytes = attached(parsed(original))
    text = file_bytes.decode()
    variants = {
        "mutt-attachment": _wrapped("mutt-attachment.eml", game, text),
        "apple-mail-qp": _wrapped("apple-mail-qp.eml", game, text),
        "thunderbird-forward-attached": _wrapped("thunderbird-forward-attached.eml", game,
                                                 text, flowed=True),
        "gmail-forward-inline": _wrapped("gmail-forward-inline.eml", game, text),
        "forwarded-whole": _forwarded_as_attachment(original),
        "base64-crlf-attachment": _base64_text_attachment(text, game),
    }
    assert b"=3D" in variants["apple-mail-qp"] or b"=\n" in variants["apple-mail-qp"]
    for name, data in variants.items():
        saved = table.tmp / f"{name}.eml"
        saved.write_bytes(data)
        games = table.tmp / f"games-{name}"
        shown = table.run(table.white, "reply", saved, "--games", games)
        assert shown.exit_code == 0, (name, shown.stderr)
        assert "It is your move (white)" in shown.stdout, name
        assert (games / f"{game}.yaml").read_bytes() == file_bytes, name
        kept = table.run(table.white, "receive", saved, "--games", table.tmp / f"r-{name}")
        assert kept.exit_code == 0, (name, kept.stdout)
        assert f"game {game}: kept the copy after message 1" in kept.stdout, name


# --- refusals -----------------------------------------------------------------------------


def _with_file(template: Path, data: bytes, out: Path) -> Path:
    """``template`` (a mail) with its attached game file replaced by ``data``."""
    message = parsed(template.read_bytes())
    for part in message.iter_attachments():
        part.set_content(data, maintype="application", subtype="yaml",
                         filename=part.get_filename())
    out.write_bytes(bytes(message))
    return out


def _state(seat: Seat) -> dict[str, bytes]:
    """Everything a seat keeps: its games folder and its home (memory, threads)."""
    return {str(p.relative_to(seat.root)): p.read_bytes() for p in sorted(seat.root.rglob("*"))
            if p.is_file()}


def test_referee_free_a_tampered_duel_file_is_refused_and_nothing_kept(table: Table) -> None:
    invite, game = table.invitation()
    joined, join_mail = table.reply(table.black, invite)
    assert joined.exit_code == 0
    data = attached(parsed(join_mail.read_bytes()))
    file = parse_duel(data, "mail")
    at = file.messages[0].at  # a later time, the signature left as it was
    later = "2099" + at[4:]
    tampered = data.replace(f'at: "{at}"'.encode(), f'at: "{later}"'.encode())
    assert tampered != data
    bad = _with_file(join_mail, tampered, table.tmp / "tampered.eml")
    before = _state(table.white)
    done, answer = table.reply(table.white, bad, "remove A1")
    assert done.exit_code == 6, done.stderr
    assert "not signed by black's key" in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert _state(table.white) == before and not answer.exists()
    received = table.run(table.white, "receive", bad, "--games", table.white.games)
    assert received.exit_code == 1 and "refused" in received.stdout
    assert _state(table.white) == before


def test_referee_free_a_rolled_back_copy_is_refused(table: Table) -> None:
    join_mail, move_mail, game = table.dealt()
    board = independent_replay(parse_duel(attached(parsed(move_mail.read_bytes())), "m"))
    answered, back_mail = table.reply(table.black, move_mail, choose(board, random.Random(1)))
    assert answered.exit_code == 0, answered.stderr
    took = table.run(table.white, "receive", back_mail, "--games", table.white.games)
    assert took.exit_code == 0 and "kept the copy after message 3" in took.stdout
    before = _state(table.white)
    # the join mail again: its copy ends before black's message 3, which white has seen
    done, answer = table.reply(table.white, join_mail, "remove A1")
    assert done.exit_code == 8, done.stderr
    assert "old one" in done.stderr and done.stderr.count("\n") == 1
    assert _state(table.white) == before and not answer.exists()
    # a games folder without that copy: the memory refuses the rollback all the same
    elsewhere = table.run(table.white, "reply", join_mail, "remove A1", "--games",
                          table.tmp / "other-games", "--out", table.tmp / "x.eml")
    assert elsewhere.exit_code == 8, elsewhere.stderr
    assert "rollback" in elsewhere.stderr
    assert not (table.tmp / "x.eml").exists()


def test_referee_free_another_game_under_the_same_id_is_refused(
        table: Table, keys: Keys) -> None:
    invite, game = table.invitation()
    joined, _ = table.reply(table.black, invite)
    assert joined.exit_code == 0
    kept = table.black.copy(game).read_bytes()
    stranger = create("froglet", keys.key("mallory"),
                      [Party("Mallory", keys.key("mallory").public.line, "white"),
                       Party("Bob", keys.key("bob").public.line, "black")],
                      {"size": 4}, now(), game)
    assert stranger.game == game
    other = _with_file(invite, dump_duel(stranger), table.tmp / "stranger.eml")
    before = _state(table.black)
    done, answer = table.reply(table.black, other)
    assert done.exit_code == 8, done.stderr
    assert f"another game under the id {game}" in done.stderr
    assert table.black.copy(game).read_bytes() == kept and _state(table.black) == before
    received = table.run(table.black, "receive", other, "--games", table.black.games)
    assert received.exit_code == 1 and "another game under the id" in received.stdout
    assert table.black.copy(game).read_bytes() == kept


def test_referee_free_replying_twice_sends_the_same_answer_never_a_second(
        table: Table) -> None:
    join_mail, move_mail, game = table.dealt()
    board = independent_replay(parse_duel(attached(parsed(move_mail.read_bytes())), "m"))
    move, other = choose(board, random.Random(1)), choose(board, random.Random(2))
    first, answer = table.reply(table.black, move_mail, move)
    assert first.exit_code == 0, first.stderr
    kept = table.black.copy(game).read_bytes()
    again, second = table.reply(table.black, move_mail, move)
    assert again.exit_code == 0, again.stderr
    assert "warning: you already answered message 2" in again.stdout
    assert attached(parsed(second.read_bytes())) == attached(parsed(answer.read_bytes()))
    assert table.black.copy(game).read_bytes() == kept
    if other != move:
        refused, third = table.reply(table.black, move_mail, other)
        assert refused.exit_code == 4, refused.stderr
        assert "would fork the game" in refused.stderr
        assert table.black.copy(game).read_bytes() == kept and not third.exists()
    bad, fourth = table.reply(table.black, move_mail, "fly away")
    assert bad.exit_code == 3 and not fourth.exists()


def test_referee_free_refereed_options_are_refused_on_a_duel_message(table: Table) -> None:
    invite, _ = table.invitation()
    done, answer = table.reply(table.black, invite, "--note", "hi")
    assert done.exit_code == 2 and "takes no --note" in done.stderr and not answer.exists()


# --- one whole game through real servers --------------------------------------------------


@pytest.fixture(scope="module")
def servers() -> Iterator[Servers]:
    """One Dovecot and one aiosmtpd for the module's games, one game after another."""
    with mail_servers() as running:
        yield running


def fetch(servers: Servers, user: str) -> list[bytes]:
    """The user's new mail, fetched with imapclient as a mail program would, then deleted."""
    from imapclient import IMAPClient

    with IMAPClient("127.0.0.1", port=servers.imap_port, ssl=False) as client:
        client.login(user, PASSWORD)
        client.select_folder("INBOX")
        found = client.search(["ALL"])
        data = client.fetch(found, ["RFC822"]) if found else {}
        messages = [bytes(data[number][b"RFC822"]) for number in sorted(found)]
        if found:
            client.delete_messages(found)
            client.expunge()
    return messages


@pytest.mark.parametrize(("rules", "seed"), [
    ("froglet", 7), ("frogfinder", 3), ("secretmove", 4)])
def test_referee_free_a_whole_game_by_mail_through_smtp_and_imap(
        table: Table, servers: Servers, rules: str, seed: int) -> None:
    """Each seat only answers the newest mail in its own mailbox, straight from the other
    seat, with frogpbem reply alone, as the mail says (Secret Move's headers --random, a
    seat's moves alone, each reveal due); the moves are the bots' from the seat's own view
    --json; both final copies are the same bytes, which audit accepts."""
    from tests.mail.referee_free_play import Player, check_finished, write_transcript

    player = Player(table, servers, rules, seed)
    finished = player.play()
    write_transcript(finished, f"{rules}-mail")
    assert finished.mails >= 4
    # Froglet's white reveals at the deal; in the others a reveal goes by reply alone when
    # its mail asks for it (Frog Finder's answerer reveals with its answer that ends it)
    assert player.reveals == {"froglet": 0, "frogfinder": 1, "secretmove": 2}[rules]
    if rules == "secretmove":  # a seat with no move left: the other moves alone
        assert player.alone > 0
    check_finished(player, finished)


def test_referee_free_frogfinder_step_by_reply_says_what_it_sent(table: Table) -> None:
    """A Frog Finder setup step (the overlap, which has no words of its own) answered by
    reply: the command says what it signed and where the answer went (it said nothing)."""
    invite, game = table.invitation(rules="frogfinder")
    joined, join_mail = table.reply(table.black, invite)
    assert joined.exit_code == 0, joined.stderr
    stepped, step_mail = table.reply(table.white, join_mail)
    assert stepped.exit_code == 0, stepped.stderr
    assert step_mail.exists()
    assert stepped.stdout.splitlines() == ["red's step",
                                           f"wrote {step_mail}, to Bob <{table.black.address}>"]
    file = parse_duel(attached(parsed(step_mail.read_bytes())), "mail")
    assert [m.seat for m in file.messages] == ["blue", "red"]


def _body(path: Path) -> str:
    return parsed(path.read_bytes()).get_body(("plain",)).get_content()  # type: ignore[union-attr, no-any-return]


def _seats_of(path: Path) -> list[str]:
    return [m.seat for m in parse_duel(attached(parsed(path.read_bytes())), "mail").messages]


def test_referee_free_secretmove_set_up_by_reply_alone(table: Table) -> None:
    """Blue joins a Secret Move game with the command its invitation gives (its headers
    --random, or --setup); red gives its headers to reply, which keeps them and shows its
    board, then answers the same mail with its first move: both go in one mail."""
    invite, game = table.invitation(rules="secretmove")
    text = _body(invite)
    assert "frogpbem reply THIS_MESSAGE.eml --random --key YOUR_KEY" in text
    assert 'frogpbem reply THIS_MESSAGE.eml --setup "cols=0,3,5 rows=1,2,4" --key YOUR_KEY' \
        in text
    bare, nothing = table.reply(table.black, invite)
    assert bare.exit_code == 2 and not nothing.exists()
    assert "blue gives its setup first: frogpbem reply" in bare.stderr
    assert "--random" in bare.stderr and "Traceback" not in bare.stderr
    both, nothing = table.reply(table.black, invite, "--random", "pass")
    assert both.exit_code == 4 and not nothing.exists()  # red moves first
    assert "it is red's turn, not blue's" in both.stderr
    joined, join_mail = table.reply(table.black, invite, "--setup", "cols=0,1,2 rows=3,4,5")
    assert joined.exit_code == 0, joined.stderr
    assert f"blue joined game {game}" in joined.stdout and join_mail.exists()
    file = parse_duel(attached(parsed(join_mail.read_bytes())), "mail")
    assert [m.seat for m in file.messages] == ["blue"] and file.messages[0].step("setup")
    said = _body(join_mail)
    assert 'frogpbem reply THIS_MESSAGE.eml --setup "cols=0,3,5 rows=1,2,4" --key YOUR_KEY' \
        in said and 'frogpbem reply THIS_MESSAGE.eml "YOUR MOVE" --key YOUR_KEY' in said
    shown, nothing = table.reply(table.white, join_mail)
    assert shown.exit_code == 0 and not nothing.exists()
    assert "with your setup first" in shown.stdout
    moved, nothing = table.reply(table.white, join_mail, "pass")
    assert moved.exit_code == 2 and "red gives its setup first" in moved.stderr
    kept, nothing = table.reply(table.white, join_mail, "--random")
    assert kept.exit_code == 0, kept.stderr
    assert not nothing.exists()  # kept, not sent: its move goes with it
    assert "not sent yet: it goes with your move" in kept.stdout
    assert "It is your move (red)" in kept.stdout
    assert [m.seat for m in parse_duel(table.white.copy(game).read_bytes(),
                                       "copy").messages] == ["blue", "red"]
    first, move_mail = table.reply(table.white, join_mail, "pass")
    assert first.exit_code == 0, first.stderr
    assert "red passes" in first.stdout and "It is your move again" not in first.stdout
    after = parse_duel(attached(parsed(move_mail.read_bytes())), "mail")
    assert [(m.seat, m.move) for m in after.messages] == [("blue", None), ("red", None),
                                                          ("red", "pass")]
    assert after.messages[1].step("setup") and parsed(move_mail.read_bytes())[
        "In-Reply-To"] == parsed(join_mail.read_bytes())["Message-ID"]


def test_referee_free_secretmove_a_seat_moves_alone_answering_one_mail_again(
        table: Table) -> None:
    """Red passes at once (it is done); blue then moves alone: each of its messages answers
    red's one mail again, built on its own copy (messages n+1, n+2), each mailed; red
    keeps the last; a second, different message of one number is still refused."""
    invite, game = table.invitation(rules="secretmove")
    joined, join_mail = table.reply(table.black, invite, "--setup", "cols=0,1,2 rows=3,4,5")
    assert joined.exit_code == 0, joined.stderr
    kept, _ = table.reply(table.white, join_mail, "--random")
    assert kept.exit_code == 0, kept.stderr
    passed, pass_mail = table.reply(table.white, join_mail, "pass")
    assert passed.exit_code == 0, passed.stderr
    # blue's board: each square's value is its column's header plus its row's (docs/rules.md)
    shown, _ = table.reply(table.black, pass_mail)
    assert "It is your move (blue)" in shown.stdout
    answers = []
    for move in ("A1-B1 1", "A2-B2 1"):  # from 0+3 to 1+3, from 0+4 to 1+4: a gap of 1
        done, answer = table.reply(table.black, pass_mail, move)
        assert done.exit_code == 0, done.stderr
        assert "It is your move again (blue)" in done.stdout and answer.exists()
        answers.append(answer)
    assert _seats_of(answers[0]) == ["blue", "red", "red", "blue"]
    assert _seats_of(answers[1]) == ["blue", "red", "red", "blue", "blue"]
    for answer in answers:
        message = parsed(answer.read_bytes())
        assert message["In-Reply-To"] == parsed(pass_mail.read_bytes())["Message-ID"]
        assert "blue is to move" in _body(answer)
    took = table.run(table.white, "receive", answers[1], "--games", table.white.games)
    assert took.exit_code == 0 and "kept the copy after message 5" in took.stdout
    older = table.run(table.white, "receive", answers[0], "--games", table.white.games)
    assert older.exit_code == 1 and "old one" in older.stdout
    # red answers nothing: blue is to move; its resignation would be its only message
    red_view, nothing = table.reply(table.white, answers[1])
    assert red_view.exit_code == 0 and "blue is to move" in red_view.stdout
    assert not nothing.exists()
