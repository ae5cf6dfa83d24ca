"""frogpbem reply: a player's turn from the judge's message in one command, and every refusal.

The messages are the judge's own (:func:`frogpbem.mail.compose.letters` with the judge's
address, as ``frogpbem judge`` sends them); the answers are taken by the
referee's ``receive``, as the judge takes them.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from frogpbem.cli import app
from frogpbem.gamefile import strictyaml
from frogpbem.mail.compose import letters
from frogpbem.protocol.game import load
from tests.conftest import SETUP, Cli, Keys, here, write_setup
from tests.test_judge import Servers, judge, mail_game, mail_servers, parse, send

JUDGE = "judge@example.org"


def invoke(*args: Any, data: bytes = b"") -> Any:
    """The CLI with ``data`` on standard input (a pipe, as from a mail program)."""
    return CliRunner().invoke(app, [str(a) for a in args], input=data,
                              catch_exceptions=False)


def parsed(data: bytes) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(message, EmailMessage)
    return message


class Table:
    """The judge's games folder, and its mail to the seats, saved as files."""

    def __init__(self, tmp_path: Path, cli: Cli, keys: Keys, *extra: str) -> None:
        self.folder, self.cli, self.keys = tmp_path, cli, keys
        judge = tmp_path / "judge"
        judge.mkdir()
        draft = tmp_path / "draft.yaml"
        made = cli("new", draft, "--referee", keys.path("referee"), "--referee-name", "Carol",
                   "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                   "--name", "red=Alice", "--name", "blue=Bob",
                   "--email", "red=alice@example.org", "--email", "blue=bob@example.org",
                   "--option", "size=6", "--option", "frogs=2",
                   "--setup", write_setup(tmp_path, SETUP), *extra)
        assert made.exit_code == 0, made.output
        self.id = str(strictyaml.loads(draft.read_bytes())["header"]["game"])
        self.game = judge / f"{self.id}.yaml"
        draft.rename(self.game)
        self.games = {"alice": tmp_path / "alice-games", "bob": tmp_path / "bob-games"}

    def mail(self, seat: str, name: str, game: Path | None = None, **headers: str) -> Path:
        """The judge's message to ``seat`` after the last record (of ``game``, by default the
        judge's own), saved as ``name``."""
        found = letters(load(game or self.game, here()), self.keys.key("referee"), seat,
                        sender=JUDGE)
        message = found[0].message
        for header, value in headers.items():  # in place of the judge's own (Reply-To)
            del message[header.replace("_", "-")]
            message[header.replace("_", "-")] = value
        path = self.folder / name
        path.write_bytes(bytes(message))
        return path

    def reply(self, player: str, *args: Any, data: bytes = b"") -> Any:
        return invoke("reply", *args, "--key", self.keys.path(player), "--games",
                      self.games[player], data=data)

    def take(self, answer: Path) -> str:
        """The judge takes a player's answer; what it applied."""
        taken = self.cli("receive", answer, "--games", self.game.parent, "--key",
                         self.keys.path("referee"))
        assert taken.exit_code == 0, taken.output
        return taken.stdout

    def copy(self, player: str) -> Path:
        return self.games[player] / f"{self.id}.yaml"


@pytest.fixture
def table(tmp_path: Path, cli: Cli, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.chdir(tmp_path)  # where the answers are written by default
    return Table(tmp_path, cli, keys)


def test_a_move_is_signed_and_the_answer_threads_under_the_judges_message(
        table: Table) -> None:
    message = table.mail("red", "red-0.eml")
    judged = parsed(message.read_bytes())
    done = table.reply("alice", message, "shoot", "C3")
    assert done.exit_code == 0, done.output
    assert done.stdout == (f"red asks: shoot C3 (for record 1)\nwrote {table.id}-red-1.eml, to "
                           f"Carol <{JUDGE}>\n")
    answer_path = table.folder / f"{table.id}-red-1.eml"
    answer = parsed(answer_path.read_bytes())
    assert answer["To"].addresses[0].addr_spec == JUDGE  # its From: it has no Reply-To
    assert answer["From"].addresses[0].addr_spec == "alice@example.org"  # its To:
    assert answer["Subject"] == f"Re: {judged['Subject']}"
    assert answer["In-Reply-To"] == judged["Message-ID"]
    assert answer["References"] == judged["Message-ID"]
    assert answer["Date"] and answer["Message-ID"].endswith("@example.org>")
    assert "Auto-Submitted" not in answer  # a person's answer, which the judge takes
    body = answer.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert f"My move in game {table.id} (red, for record 1): shoot C3" in body
    [attached] = answer.iter_attachments()
    assert attached.get_filename() == f"{table.id}.yaml"
    sent = strictyaml.loads(attached.get_content())
    assert [r["move"] for r in sent["requests"]] == ["shoot C3"]
    assert table.copy("alice").read_bytes() == attached.get_content()  # the copy follows
    assert f"game {table.id}: red shoots C3: 1" in table.take(answer_path)
    # the next reply is written beside it, never over it
    again = table.reply("alice", message, "shoot D4")
    assert again.exit_code == 0, again.output
    assert f"wrote {table.id}-red-1-2.eml" in again.stdout
    assert answer_path.read_bytes() != (table.folder / f"{table.id}-red-1-2.eml").read_bytes()


def test_the_answer_goes_to_reply_to_from_the_address_given(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    message = table.mail("red", "red-0.eml", Reply_To="Club moves <moves@example.org>",
                         References="<older@example.org> junk <a b@c>")
    ident = parsed(message.read_bytes())["Message-ID"]
    given = table.reply("alice", message, "shoot C3", "--from", "Alice L <al@example.net>",
                        "--out", "a.eml")
    assert given.exit_code == 0, given.output
    answer = parsed((table.folder / "a.eml").read_bytes())
    assert str(answer["To"]) == "Club moves <moves@example.org>"
    assert str(answer["From"]) == "Alice L <al@example.net>"
    assert answer["References"].split() == ["<older@example.org>", ident]
    monkeypatch.setenv("FROGPBEM_FROM", "alice@example.com")
    from_env = table.reply("alice", message, "shoot C3", "--out", "b.eml")
    assert from_env.exit_code == 0, from_env.output
    assert str(parsed((table.folder / "b.eml").read_bytes())["From"]) == "alice@example.com"
    bad = table.reply("alice", message, "shoot C3", "--from", "Eve <e@x>\r\nBcc: x@y",
                      "--out", "c.eml")
    assert bad.exit_code == 2 and "give one address" in bad.stderr, bad.output
    assert bad.stderr.startswith("frogpbem: --from ")  # not blamed on the message
    assert not (table.folder / "c.eml").exists()


def test_a_message_piped_in_shows_the_board_then_takes_the_move(table: Table) -> None:
    data = table.mail("red", "red-0.eml").read_bytes()
    shown = table.reply("alice", "-", data=data)
    assert shown.exit_code == 0, shown.output
    assert "View of: red (Alice)" in shown.stdout
    assert "It is your move (red). Answer with:" in shown.stdout
    assert "frogpbem reply - --key" in shown.stdout and '"YOUR MOVE"' in shown.stdout
    assert table.copy("alice").exists()  # kept, as receive keeps it
    assert list(table.folder.glob("*-red-*.eml")) == []  # nothing signed, nothing written
    done = table.reply("alice", "-", "shoot C3", "--json", data=data)
    assert done.exit_code == 0, done.output
    assert '"signed": [\n    "red asks: shoot C3 (for record 1)"' in done.stdout
    assert "red shoots C3: 1" in table.take(table.folder / f"{table.id}-red-1.eml")
    # a seat not to move is shown what it may still do: no team note without teams
    waiting = table.reply("bob", table.mail("blue", "blue-1.eml"))
    assert waiting.exit_code == 0, waiting.output
    assert "red shoots C3: 1" in waiting.stdout
    assert "blue is to move" not in waiting.stdout and "It is your move (blue)" in \
        waiting.stdout


def test_a_resignation_and_a_note_out_of_turn(table: Table) -> None:
    table.reply("alice", table.mail("red", "red-0.eml"), "shoot C3", "--out", "m.eml")
    table.take(table.folder / "m.eml")
    message = table.folder / "red-1.mbox"  # blue is to move; saved as an mbox of one
    message.write_bytes(b"From judge  Mon Nov 30 10:00:00 2026\n" +
                        table.mail("red", "red-1.eml").read_bytes())
    shown = table.reply("alice", message)
    assert "blue is to move. You may still resign:" in shown.stdout, shown.output
    assert "--note" not in shown.stdout  # no teams: a note would reach nobody else
    done = table.reply("alice", message, "resign", "--note", "good game", "--out", "r.eml")
    assert done.exit_code == 0, done.output
    body = parsed((table.folder / "r.eml").read_bytes()).get_body(("plain",))
    text = body.get_content()  # type: ignore[union-attr]
    assert "(red, for record 2): resign" in text and "A note for my team" in text
    assert "good game" not in text  # sealed, not in the clear
    assert "red resigns" in table.take(table.folder / "r.eml")


def test_a_note_written_in_the_copy_and_not_mailed_yet_goes_with_the_move(table: Table) -> None:
    message = table.mail("red", "red-0.eml")
    assert table.reply("alice", message).exit_code == 0  # the copy is kept
    noted = table.cli("note", table.copy("alice"), "C3 first", "--key", table.keys.path("alice"))
    assert noted.exit_code == 0, noted.output
    done = table.reply("alice", message, "shoot C3", "--out", "m.eml")
    assert done.exit_code == 0, done.output
    [attached] = parsed((table.folder / "m.eml").read_bytes()).iter_attachments()
    sent = strictyaml.loads(attached.get_content())
    assert len(sent["notes"]) == 1 and [r["move"] for r in sent["requests"]] == ["shoot C3"]


def test_the_move_goes_to_the_judge_not_where_a_forward_or_a_reply_to_points(
        table: Table, tmp_path: Path, cli: Cli, keys: Keys) -> None:
    """The answer once went to the message's Reply-To (else From): a message forwarded by
    the opponent, or a forged Reply-To, took the move away from the judge."""
    judged = table.mail("red", "red-0.eml")
    forward = EmailMessage()  # the opponent forwards the judge's message to Alice
    forward["From"], forward["To"] = "Bob <bob@example.org>", "alice@example.org"
    forward["Subject"] = "Fwd: your move"
    forward.set_content("the judge's mail: just run frogpbem reply on it")
    forward.add_attachment(parsed(judged.read_bytes()))
    (tmp_path / "fwd.eml").write_bytes(bytes(forward))
    refused = table.reply("alice", tmp_path / "fwd.eml", "shoot C3", "--out", "f.eml")
    assert refused.exit_code == 2, refused.output
    assert "at bob@example.org, the address of blue in game" in refused.stderr
    assert not (tmp_path / "f.eml").exists()
    first = table.reply("alice", judged, "shoot C3", "--out", "a.eml")  # trusted: the first
    assert first.exit_code == 0 and f"wrote a.eml, to Carol <{JUDGE}>" in first.stdout
    forged = table.mail("red", "forged.eml", Reply_To="moves@evil.invalid")
    refused = table.reply("alice", forged, "shoot C3", "--out", "b.eml")
    assert refused.exit_code == 2, refused.output
    assert f"but your answers in game {table.id} went to {JUDGE}" in refused.stderr
    assert "give --to 'moves@evil.invalid'" in refused.stderr
    moved = table.reply("alice", forged, "shoot C3", "--to", "moves@evil.invalid", "--out",
                        "b.eml")
    assert moved.exit_code == 0 and "to moves@evil.invalid" in moved.stdout, moved.output
    assert parsed((tmp_path / "b.eml").read_bytes())["To"] == "moves@evil.invalid"
    nobody = parsed(judged.read_bytes())
    del nobody["From"]
    (tmp_path / "nobody.eml").write_bytes(bytes(nobody))
    unsigned = invoke("reply", tmp_path / "nobody.eml", "shoot C3", "--key",
                      keys.path("alice"), "--games", tmp_path / "other-games", "--out", "c.eml")
    assert "wrote c.eml, with no To:" in unsigned.stdout, unsigned.output

    signed = tmp_path / "signed"  # the referee's address signed in the header wins
    signed.mkdir()
    club = Table(signed, cli, keys, "--email", "referee=moves@example.org")
    sent = club.reply("alice", club.mail("red", "red.eml", Reply_To="x@evil.invalid"),
                      "shoot C3", "--out", "d.eml")
    assert sent.exit_code == 0 and "to Carol <moves@example.org>" in sent.stdout, sent.output
    assert parsed((tmp_path / "d.eml").read_bytes())["To"].addresses[0].addr_spec == \
        "moves@example.org"


def test_the_answer_is_from_the_seats_own_address_never_to_it(table: Table) -> None:
    """A message to both players once had Bob answer From: Alice (its first To:)."""
    both = parsed(table.mail("blue", "blue-0.eml").read_bytes())
    del both["To"]
    both["To"] = "Alice <alice@example.org>, Bob <bob@example.org>"
    (table.folder / "both.eml").write_bytes(bytes(both))
    done = table.reply("bob", table.folder / "both.eml", "resign", "--out", "r.eml")
    assert done.exit_code == 0, done.output
    assert str(parsed((table.folder / "r.eml").read_bytes())["From"]) == "Bob <bob@example.org>"
    own = table.reply("bob", table.folder / "both.eml", "resign", "--from", JUDGE, "--out",
                      "s.eml")
    assert own.exit_code == 2 and "would go to your own address" in own.stderr, own.output


def test_a_refused_move_keeps_the_newer_copy_with_the_note_not_mailed_yet(table: Table) -> None:
    """The memory of what was seen took the message's copy before the move was checked, the
    copy was kept only once the answer was out: after a typo, the player's own copy was
    "a rollback". And a note written in the copy was dropped when the message was ahead."""
    alice = table.keys.path("alice")
    table.reply("alice", table.mail("red", "red-0.eml"), "shoot C3", "--out", "m1.eml")
    table.take(table.folder / "m1.eml")
    red1 = table.mail("red", "red-1.eml")
    table.reply("bob", table.mail("blue", "blue-1.eml"), "shoot A6", "--out", "m2.eml")
    table.take(table.folder / "m2.eml")
    red2 = table.mail("red", "red-2.eml")
    assert table.reply("alice", red1).exit_code == 0  # the copy at record 1
    assert table.cli("note", table.copy("alice"), "corners", "--key", alice).exit_code == 0
    typo = table.reply("alice", red2, "shot D4")
    assert typo.exit_code == 3, typo.output
    kept = load(table.copy("alice"), here())
    assert (len(kept.file.log), len(kept.file.notes), kept.file.requests) == (2, 1, ())
    assert table.cli("view", table.copy("alice"), "--key", alice).exit_code == 0
    done = table.reply("alice", red2, "shoot D4", "--out", "m3.eml")
    assert done.exit_code == 0, done.output
    [attached] = parsed((table.folder / "m3.eml").read_bytes()).iter_attachments()
    assert len(strictyaml.loads(attached.get_content())["notes"]) == 1
    assert "red shoots D4" in table.take(table.folder / "m3.eml")


def test_the_games_folder_is_checked_before_the_answer_is_sent(table: Table) -> None:
    """A games folder that could not be made was found out after the answer was sent: the
    command failed (exit 9) and a second run signed a second request."""
    sendmail = table.folder / "sendmail"
    sendmail.write_text(f"#!/bin/sh\ncat > {table.folder}/sent.eml\n"
                        f'[ -e {table.folder}/break ] && rm -r "$GAMES" && touch "$GAMES"\n'
                        "exit 0\n")
    sendmail.chmod(0o755)
    message = table.mail("red", "red-0.eml")
    games = table.games["alice"]
    games.write_text("a file, not a folder")
    send = ["--sendmail", "--sendmail-path", sendmail]
    refused = table.reply("alice", message, "shoot C3", *send)
    assert refused.exit_code == 9 and "cannot make the games folder" in refused.stderr, \
        refused.output
    assert not (table.folder / "sent.eml").exists()
    games.unlink()
    (table.folder / "break").touch()  # the folder goes away while the answer is sent
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GAMES", str(games))
        lost = table.reply("alice", message, "shoot C3", *send)
    assert lost.exit_code == 13, lost.output
    assert f"sent to Carol <{JUDGE}> with {sendmail}, but your copy could not be kept" in \
        lost.stderr
    assert (table.folder / "sent.eml").exists()


def test_sendmail_gets_the_answer_with_its_recipients_from_the_headers(table: Table) -> None:
    sendmail = table.folder / "sendmail"
    sendmail.write_text(f'#!/bin/sh\necho "$@" > {table.folder}/args\n'
                        f"cat > {table.folder}/sent.eml\n")
    sendmail.chmod(0o755)
    done = table.reply("alice", table.mail("red", "red-0.eml"), "shoot C3", "--sendmail",
                       "--sendmail-path", sendmail)
    assert done.exit_code == 0, done.output
    assert (table.folder / "args").read_text() == "-t -oi\n"
    sent = parsed((table.folder / "sent.eml").read_bytes())
    assert sent["To"].addresses[0].addr_spec == JUDGE
    assert "red shoots C3: 1" in table.take(table.folder / "sent.eml")
    assert list(table.folder.glob(f"{table.id}-*.eml")) == []  # sent, not written


ERRORS = [
    # (who, which message, arguments, exit status, words of the refusal)
    ("alice", "red", ["shoot D4"], 4, "it is blue's turn, not red's"),
    ("bob", "blue", ["zap", "C3"], 3, "got 'zap C3'"),
    ("bob", "blue", ["shoot", "Z9"], 4, "square Z9 is off the board"),
    ("alice", "red-old", ["shoot D4"], 8, "the message is an old one"),
    ("bob", "plain", ["shoot D4"], 2, "has no game file attached"),
    ("bob", "two", ["shoot D4"], 2, "holds 2 messages"),
    ("bob", "-", ["shoot D4"], 2, "the message is empty"),
    ("referee", "blue", ["shoot D4"], 2, "reply is a seat's"),
    ("mallory", "blue", ["shoot D4"], 5, "neither the referee nor a seat"),
    ("bob", "blue", ["shoot D4", "--out", "taken.eml"], 9, "not overwriting"),
    ("bob", "blue", ["shoot D4", "--sendmail", "--sendmail-path", "./failing"], 9,
     "refused the message (exit 75): no route"),
    ("bob", "blue", ["shoot D4", "--sendmail", "--sendmail-path", "./missing"], 9,
     "cannot run"),
    ("bob", "blue", ["shoot D4", "--out", "x.eml", "--sendmail"], 2, "give one of"),
    ("bob", "blue", ["shoot D4", "--random"], 2, "give a move, or your setup"),
    ("bob", "blue", ["shoot D4", "--smtp", "http://x"], 2, "frogpbem: --smtp 'http://x': give"),
    ("bob", "no-from", ["shoot D4", "--smtp", "smtp://127.0.0.1:9"], 2,
     "the message names nobody to answer (no From: or Reply-To:): give --to"),
    ("bob", "huge", ["shoot D4"], 9, "larger than"),
    ("bob", "forked", ["guess A2"], 11, "FORK: the referee signed two different"),
    ("bob", "deep", ["guess A2"], 2, "the message cannot be read: the message has more than"),
    ("bob", "two-histories", ["shoot D4"], 11, "FORK: the referee signed two different"),
    ("bob", "big-headers", ["shoot D4"], 2, "headers are larger than 256 KiB"),
    ("bob", "decoded", ["shoot D4"], 2, "in mutt, unset pipe_decode"),
    ("bob", "reminder", ["shoot D4"], 2, "the judge's reminder for game ff-"),
    ("bob", "folder", ["shoot D4"], 9, "is a folder: give the saved message"),
    ("bob", "blue", ["shoot D4", "--sendmail", "--sendmail-path", "failing"], 2,
     "--sendmail-path failing: no such program in PATH"),
]


@pytest.mark.parametrize(("who", "which", "args", "status", "words"), ERRORS)
def test_a_refusal_is_one_sentence_and_changes_no_copy(
        table: Table, keys: Keys, who: str, which: str, args: list[str], status: int,
        words: str) -> None:
    old = table.mail("red", "red-0.eml")
    other = table.folder / "other.yaml"  # the referee's second history: red shot elsewhere
    shutil.copy(table.game, other)
    with pytest.MonkeyPatch.context() as patch:  # signed where its memory of heads is not
        patch.setenv("FROGPBEM_STATE", str(table.folder / "other-state"))
        assert table.cli("move", other, "shoot D4", "--key", keys.path("referee")).exit_code \
            == 0
    table.reply("alice", old, "shoot C3", "--out", "m.eml")
    table.take(table.folder / "m.eml")
    messages = {"red": table.mail("red", "red-1.eml"), "blue": table.mail("blue", "blue-1.eml"),
                "red-old": old, "-": Path("-")}
    for player, seat in (("alice", "red"), ("bob", "blue")):  # each keeps its copy
        assert table.reply(player, messages[seat]).exit_code == 0
    messages["plain"] = table.folder / "plain.eml"
    messages["plain"].write_text("From: judge@example.org\nSubject: hello\n\nno game here\n")
    messages["two"] = table.folder / "two.mbox"
    blue = messages["blue"].read_bytes()
    messages["two"].write_bytes(b"From judge  Mon Nov 30 10:00:00 2026\n" + blue +
                                b"\nFrom judge  Mon Nov 30 10:00:01 2026\n" + blue)
    messages["forked"] = table.mail("blue", "forked.eml", other)
    no_from = parsed(blue)
    del no_from["From"]
    messages["no-from"] = table.folder / "no-from.eml"
    messages["no-from"].write_bytes(bytes(no_from))
    messages["huge"] = table.folder / "huge.eml"
    messages["huge"].write_bytes(blue + b" " * (16 * 1024 * 1024))
    messages["deep"] = table.folder / "deep.eml"  # multipart in multipart, 1,000 deep
    messages["deep"].write_bytes(
        b"From: judge@example.org\nSubject: deep\n" +
        b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i)
                 for i in range(1000)) + b"Content-Type: text/plain\n\nhi\n")
    two = parsed(blue)  # the genuine copy, and the referee's other history of record 1
    two.add_attachment(other.read_bytes(), maintype="application", subtype="yaml",
                       filename="other.yaml")
    messages["two-histories"] = table.folder / "two-histories.eml"
    messages["two-histories"].write_bytes(bytes(two))
    messages["big-headers"] = table.folder / "big-headers.eml"  # 400 KB of References
    messages["big-headers"].write_bytes(b"References: " + b"<a@example.org>\n " * 25000 +
                                        b"<b@example.org>\n" + blue)
    messages["decoded"] = table.folder / "decoded.eml"  # as mutt pipes it with pipe_decode
    judged, decoded = parsed(blue), EmailMessage()  # headers and text only
    for name in ("From", "To", "Subject", "X-Frogpbem-Game"):
        decoded[name] = judged[name]
    decoded.set_content(judged.get_body(("plain",)).get_content())  # type: ignore[union-attr]
    messages["decoded"].write_bytes(bytes(decoded))
    messages["folder"] = table.games["bob"]
    messages["reminder"] = table.folder / "reminder.eml"
    messages["reminder"].write_text(f"From: {JUDGE}\nSubject: [frogpbem {table.id}] reminder: "
                                    "your move (blue)\n\nIt is your move (blue).\n")
    (table.folder / "taken.eml").write_text("mine")
    (table.folder / "failing").write_text('#!/bin/sh\necho "no route to host" >&2\nexit 75\n')
    (table.folder / "failing").chmod(0o755)
    copies = {player: table.copy(player).read_bytes() for player in ("alice", "bob")}
    before = sorted(p.name for p in table.folder.iterdir())
    games = table.folder / f"{who}-games"
    refused = invoke("reply", messages[which], *args, "--key", keys.path(who), "--games", games)
    assert refused.exit_code == status, refused.output
    assert refused.stdout == ""
    assert refused.stderr.startswith("frogpbem: ") and refused.stderr.count("\n") == 1
    assert words in refused.stderr
    assert {player: table.copy(player).read_bytes() for player in copies} == copies
    # no answer written (a fork's proof is kept in the memory of what was seen)
    assert sorted(p.name for p in table.folder.iterdir()) == before
    assert (table.folder / "taken.eml").read_text() == "mine"


def test_a_file_of_another_game_under_the_games_name_is_left_alone(table: Table,
                                                                 cli: Cli, keys: Keys) -> None:
    stranger = table.folder / "stranger.yaml"
    made = cli("new", stranger, "--referee", keys.path("referee"), "--seat",
               f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}")
    assert made.exit_code == 0, made.output
    table.games["bob"].mkdir()
    planted = table.copy("bob")
    shutil.copy(stranger, planted)
    refused = table.reply("bob", table.mail("blue", "blue-0.eml"), "resign", "--out", "x.eml")
    assert refused.exit_code == 8, refused.output
    assert f"{planted}: the message's copy of game {table.id} differs" in refused.stderr
    assert planted.read_bytes() == stranger.read_bytes()
    assert not (table.folder / "x.eml").exists()


def test_the_judges_mail_names_reply_and_team_notes_only_with_teams(
        table: Table, tmp_path: Path, cli: Cli, keys: Keys) -> None:
    red, blue = (table.mail(seat, f"{seat}.eml") for seat in ("red", "blue"))
    to_move = parsed(red.read_bytes()).get_body(("plain",)).get_content()  # type: ignore
    assert 'frogpbem reply THIS_MESSAGE.eml "YOUR MOVE" --key YOUR_KEY' in to_move
    assert f'frogpbem move {table.id}.yaml "YOUR MOVE"' in to_move  # the way by hand
    waiting = parsed(blue.read_bytes()).get_body(("plain",)).get_content()  # type: ignore
    assert "frogpbem reply THIS_MESSAGE.eml resign --key YOUR_KEY" in waiting
    assert "note" not in waiting  # no teams in this game

    from frogpbem import crypto
    from tests.test_notes import SEATS, TEAMS
    from tests.test_notes import SETUP as TEAM_SETUP

    args: list[Any] = ["new", tmp_path / "team.yaml", "--rules", "coan", "--referee",
                       keys.path("referee"), "--option", "size=6", "--option", "frogs=1",
                       "--option", f"teams={TEAMS}", "--setup",
                       write_setup(tmp_path, TEAM_SETUP)]
    for seat in SEATS:
        crypto.generate_key(tmp_path / seat, seat)
        args += ["--seat", f"{seat}={tmp_path / seat}.pub"]
    assert cli(*args).exit_code == 0
    team = letters(load(tmp_path / "team.yaml", here()), keys.key("referee"), "black")[0].message
    text = team.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert 'frogpbem reply THIS_MESSAGE.eml --note "TEXT" --key YOUR_KEY' in text


def test_a_sealed_move_is_not_named_in_the_answer() -> None:
    from frogpbem.mail.reply import _words
    from frogpbem.referee import Requested

    class Game:
        game_id = "sm-1"

    sealed = _words(Game(), Requested("red", "guess 1,2,3,4,5,6,7,8,9", 5, True),  # type: ignore
                    None)
    assert "guess" not in sealed and "sealed in the attached game file" in sealed
    plain = _words(Game(), Requested("red", "A1-B2 3", 5, False), None)  # type: ignore
    assert "A1-B2 3" in plain



@pytest.fixture
def servers() -> Iterator[Servers]:
    """Dovecot and an SMTP server on loopback, as tests/test_judge.py runs them."""
    with mail_servers() as running:
        yield running


def test_a_whole_game_by_reply_alone_through_imap_and_smtp(
        servers: Servers, cli: Cli, keys: Keys, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each player only runs frogpbem reply on the judge's newest message: piped in and sent
    over SMTP, or saved, written as .eml and sent by the mail program."""
    monkeypatch.chdir(tmp_path)
    games = tmp_path / "judge-games"
    game_id, game = mail_game(cli, keys, tmp_path, games)
    folders = {player: tmp_path / f"{player}-games" for player in ("alice", "bob")}
    received: dict[str, list[bytes]] = {"alice": [], "bob": []}

    def round_of_judge() -> Any:
        """The judge's round; each player's mail taken out at once, so that the newest is
        known by when it came (IMAP numbers mail found together in no set order)."""
        took = judge(servers, games, keys)
        for player, mail in received.items():
            mail += servers.inbox(player)
        return took

    def newest(player: str) -> bytes:
        assert received[player], player
        return received[player][-1]

    round_of_judge()

    for number, (player, move, how) in enumerate(
            [("alice", "guess E5", "piped"), ("bob", "guess A2", "saved"),
             ("alice", "guess F6", "saved")], 1):
        args: list[Any] = ["reply", "-", move, "--key", keys.path(player), "--games",
                           folders[player]]
        if how == "piped":
            done = invoke(*args, "--smtp", servers.smtp, data=newest(player))
        else:
            saved = tmp_path / f"{player}-{number}.eml"
            saved.write_bytes(newest(player))
            args[1] = saved
            done = invoke(*args, "--out", f"answer-{number}.eml")
            assert done.exit_code == 0, done.output
            send(servers, parse((tmp_path / f"answer-{number}.eml").read_bytes()))
        assert done.exit_code == 0, done.output
        took = round_of_judge()
        assert f"game {game_id}: mailed record {number}" in took.stdout, took.stdout
    ended = tmp_path / "alice-end.eml"
    ended.write_bytes(newest("alice"))
    shown = invoke("reply", ended, "--key", keys.path("alice"), "--games", folders["alice"])
    assert "The game is over; check it: frogpbem audit" in shown.stdout, shown.output
    assert cli("audit", game).exit_code == 0
    assert cli("audit", folders["alice"] / f"{game_id}.yaml").exit_code == 0
    assert servers.count("judge", "frogpbem-done") == 3
