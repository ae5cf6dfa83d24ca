"""What a newcomer met walking through the README: the judge's answers, ``reply``'s
warnings and words, ``receive`` of a message twice, exit statuses, ``mail``'s sender
and ``new``'s folder.

The judge runs on a Maildir and sends through the SMTP server in this process of
:mod:`tests.test_judge_citizen`.
"""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from frogpbem.gamefile import strictyaml
from tests.conftest import Cli, Keys
from tests.test_judge import DOMAIN, parse
from tests.test_judge_citizen import club_game, maildir, person, smtp_keeping
from tests.test_reply import JUDGE, Table


@pytest.fixture(name="table")
def judge_table(tmp_path: Path, cli: Cli, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> Table:
    """The judge's game and its mail to the seats as files (:class:`tests.test_reply.Table`),
    in the current folder."""
    monkeypatch.chdir(tmp_path)
    return Table(tmp_path, cli, keys)


def _copy_with(cli: Cli, game: Path, to: Path, move: str, key: str, keys: Keys) -> Path:
    """A player's copy of ``game`` with ``move`` requested by ``key``'s seat."""
    to.write_bytes(game.read_bytes())
    moved = cli("move", to, move, "--key", keys.path(key))
    assert moved.exit_code == 0, moved.output
    return to


def _mail(sender: str, subject: str, copy: Path) -> EmailMessage:
    message = person(sender, subject)
    message.add_attachment(copy.read_bytes(), maintype="application", subtype="yaml",
                           filename=copy.name)
    return message


def test_the_judge_says_a_move_sent_twice_was_applied_and_a_move_after_the_end_is_over(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """Blue answers record 2 twice: the first is applied; the second was answered "your copy
    is older than the judge's: move again" (and the log named the referee's
    --discard-requests), though it was red's turn. Red then resigns, and a move from red's
    older copy was answered the same way, though the game was over."""
    games = tmp_path / "games"
    game_id, game = club_game(cli, keys, tmp_path, games)
    box = maildir(tmp_path / "Maildir")
    args = ["judge", "--games", games, "--maildir", box, "--once", "--from",
            f"judge@{DOMAIN}", "--key", keys.path("referee"), "--smtp"]
    red = _copy_with(cli, game, tmp_path / "red.yaml", "shoot C3", "alice", keys)
    sent = [_mail("alice", "my move", red)]
    log = ""
    with smtp_keeping() as (url, kept):
        def judge_takes(message: EmailMessage) -> None:
            nonlocal log
            name = f"{len(list((box / 'new').iterdir())) + 100}.msg"
            (box / "new" / name).write_bytes(message.as_bytes(policy=policy.SMTP))
            took = cli(*args, url)
            assert took.exit_code == 0, took.output
            log += took.stdout

        judge_takes(sent[0])
        first = _copy_with(cli, game, tmp_path / "b1.yaml", "shoot D4", "bob", keys)
        second = _copy_with(cli, game, tmp_path / "b2.yaml", "shoot D5", "bob", keys)
        judge_takes(_mail("bob", "D4", first))
        twice = _mail("bob", "D5", second)
        judge_takes(twice)
        resign = _copy_with(cli, game, tmp_path / "r2.yaml", "resign", "alice", keys)
        late = _copy_with(cli, game, tmp_path / "r3.yaml", "shoot E5", "alice", keys)
        judge_takes(_mail("alice", "I resign", resign))
        after = _mail("alice", "E5", late)
        judge_takes(after)
    assert [r["move"] for r in strictyaml.loads(game.read_bytes())["log"]][:3] == \
        ["shoot C3", "shoot D4", "resign"], log
    assert "--discard-requests" not in log, log
    answered = {str(m["In-Reply-To"]): m.get_content() for m in
                (parse(e.content) for e in kept) if m["In-Reply-To"] is not None}
    again = " ".join(answered[str(twice["Message-ID"])].split())
    assert "your move for record 2 came in an earlier message and was applied" in again
    assert "it is red's turn now" in again and "older than the judge's" not in again
    over = " ".join(answered[str(after["Message-ID"])].split())
    assert "the game is over: red resigned; no more moves are taken" in over, over
    assert f"frogpbem audit {game_id}.yaml" in over and "reply MESSAGE" not in over


def test_reply_warns_that_a_record_was_answered_already(table: Table) -> None:
    """A second answer to one message replaced the first in the player's copy without a
    word, though the first may have reached the judge, which takes the first to arrive."""
    message = table.mail("red", "red-0.eml")
    first = table.reply("alice", message, "shoot D4", "--out", "b1.eml")
    assert first.exit_code == 0 and "already" not in first.stdout, first.output
    second = table.reply("alice", message, "shoot D5", "--out", "b2.eml")
    assert second.exit_code == 0, second.output
    assert "you already answered record 1 with 'shoot D4' (wrote b1.eml, to Carol " \
        f"<{JUDGE}>); the judge takes the first answer that arrives" in second.stdout
    assert "replacing 'shoot D4'" in second.stdout


def test_receive_of_a_message_taken_before_says_so_and_succeeds(table: Table) -> None:
    """The same answer received twice was 'refused: no move given and no pending requests
    to apply' (exit 1), as if it were wrong; its move is in the game."""
    table.reply("alice", table.mail("red", "red-0.eml"), "shoot C3", "--out", "m.eml")
    table.take(table.folder / "m.eml")
    again = table.cli("receive", table.folder / "m.eml", "--games", table.game.parent,
                      "--key", table.keys.path("referee"))
    assert again.exit_code == 0, again.output
    assert again.stdout.endswith(": taken already: nothing new in it\n"), again.stdout


def test_reply_on_the_judge_s_answer_says_what_it_is(cli: Cli, keys: Keys,
                                                      tmp_path: Path) -> None:
    """The judge's answer to a message it could not use carries no game file; reply on it
    said "reply to a message from the judge", though it is one."""
    from frogpbem.mail.answers import Unused, answer

    theirs = person("alice", "Re: [frogpbem ff-abcdefgh] the game begins")
    made = answer(theirs, Unused("refused: stale", "your copy is old.", None, "ff-abcdefgh"),
                  f"judge@{DOMAIN}")
    assert made is not None
    saved = tmp_path / "answer.eml"
    saved.write_bytes(bytes(made))
    said = cli("reply", saved, "shoot C3", "--key", keys.path("alice"), "--games",
               tmp_path / "games")
    assert said.exit_code == 2, said.output
    assert "this is the judge's answer to a message it could not use" in said.stderr
    assert "answer its last message about game ff-abcdefgh (subject [frogpbem ff-abcdefgh]" \
        in said.stderr and "reply to a message from the judge" not in said.stderr


def test_reply_warns_of_a_deadline_passed_and_still_signs(
        cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move signed after the seat's deadline by the player's own clock went without a
    word: the judge has likely recorded the timeout. It is signed (the judge decides)."""
    from tests.test_clock_trust import as_user, forfeit_game, hours, run

    monkeypatch.chdir(tmp_path)
    game = forfeit_game(cli, keys, tmp_path, monkeypatch, hours(0))
    assert run(cli, keys, "referee", "mail", game, "--out", tmp_path / "out").exit_code == 0
    letter = next((tmp_path / "out").glob("*-red.eml"))
    as_user(monkeypatch, tmp_path, "alice")
    alice = ["--key", keys.path("alice"), "--games", tmp_path / "alice-games"]
    in_time = cli("reply", letter, "shoot C3", *alice, "--out", "a.eml")
    assert in_time.exit_code == 0 and "deadline" not in in_time.stdout, in_time.output
    monkeypatch.setenv("FROGPBEM_NOW", hours(73))
    late = cli("reply", letter, "shoot C4", *alice, "--out", "b.eml")
    assert late.exit_code == 0, late.output
    assert "your deadline passed at 2026-12-04 00:00 UTC" in late.stdout
    assert "the judge has probably recorded the timeout" in late.stdout
    assert (tmp_path / "b.eml").exists()


def test_mail_takes_from_and_says_when_its_messages_have_no_from(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A game without a referee address was mailed with no From: (no answer could reach
    the referee), in silence, and mail had no --from."""
    _, game = club_game(cli, keys, tmp_path, tmp_path / "games")
    bare = cli("mail", game, "--out", tmp_path / "bare", "--key", keys.path("referee"))
    assert bare.exit_code == 0, bare.output
    assert "no From: and cannot be answered; give --from ADDRESS" in bare.stderr
    assert all(parse(p.read_bytes())["From"] is None for p in (tmp_path / "bare").iterdir())
    sent = cli("mail", game, "--out", tmp_path / "from", "--from", f"carol@{DOMAIN}",
               "--key", keys.path("referee"))
    assert sent.exit_code == 0 and "From" not in sent.stderr, sent.output
    assert {parse(p.read_bytes())["From"].addresses[0].addr_spec
            for p in (tmp_path / "from").glob("*.eml")} == {f"carol@{DOMAIN}"}
    wrong = cli("mail", game, "--out", tmp_path / "x", "--from", "carol",
                "--key", keys.path("referee"))
    assert wrong.exit_code == 2 and "--from 'carol'" in wrong.stderr, wrong.output


def test_new_makes_the_games_folder_and_says_when_it_cannot(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """``new judge/games/club.yaml`` (README's judge section) said "cannot lock its folder:
    No such file or directory" (exit 9) until the folder was made by hand."""
    made = cli("new", tmp_path / "judge" / "games" / "club.yaml", "--referee",
               keys.path("referee"), "--seat", f"red={keys.pub('alice')}", "--seat",
               f"blue={keys.pub('bob')}", "--join")
    assert made.exit_code == 0, made.output
    assert (tmp_path / "judge" / "games" / "club.yaml").is_file()
    assert "or the judge, which deals on the last join" in made.stdout
    (tmp_path / "file").write_text("not a folder")
    under = cli("new", tmp_path / "file" / "club.yaml", "--referee", keys.path("referee"),
                "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                "--join")
    assert under.exit_code == 9 and "cannot lock its folder" in under.stderr, under.output


def test_the_same_message_twice_is_not_said_to_follow_a_stop(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A message delivered twice was logged "answered already (before the judge stopped)",
    though the judge never stopped."""
    games = tmp_path / "games"
    games.mkdir()
    box = maildir(tmp_path / "Maildir")
    data = person("bob", "[frogpbem] hello judge").as_bytes(policy=policy.SMTP)
    for name in ("1.msg", "2.msg"):
        (box / "new" / name).write_bytes(data)
    with smtp_keeping() as (url, kept):
        took = cli("judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                   "--from", f"judge@{DOMAIN}", "--key", keys.path("referee"))
    assert took.exit_code == 0, took.output
    assert "answered already (the same message came before): filed" in took.stdout, took.stdout
    assert "stopped" not in took.stdout and len(kept) == 1


def test_the_judge_names_the_invitation_s_file_as_it_is_called(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """The answer to a reply without a join said "frogpbem join ID.yaml", though the
    invitation's attachment is named as the judge's file (club2.yaml)."""
    games = tmp_path / "games"
    game = games / "club2.yaml"
    made = cli("new", game, "--referee", keys.path("referee"), "--seat",
               f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}", "--email",
               f"red=alice@{DOMAIN}", "--email", f"blue=bob@{DOMAIN}", "--join")
    assert made.exit_code == 0, made.output
    box = maildir(tmp_path / "Maildir")
    unjoined = _mail("alice", "Re: join", game)
    (box / "new" / "1.msg").write_bytes(unjoined.as_bytes(policy=policy.SMTP))
    with smtp_keeping() as (url, kept):
        took = cli("judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                   "--from", f"judge@{DOMAIN}", "--key", keys.path("referee"))
    assert took.exit_code == 0, took.output
    [said] = [parse(e.content).get_content() for e in kept
              if parse(e.content)["In-Reply-To"] is not None]
    assert "frogpbem join club2.yaml --key YOUR_KEY" in said, said
