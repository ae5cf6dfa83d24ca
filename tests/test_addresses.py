"""Addresses the email package's parser cannot read (``<"@b>``, ``a@[``, ``@b``) and
shapes no frogpbem wrote: each is one sentence, never a traceback that stops the judge for
every game or a command half done."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Cli, Keys, game_addressed
from tests.test_judge_citizen import DOMAIN, club_game, maildir, smtp_keeping


def test_the_judge_is_not_stopped_by_an_address_its_parser_cannot_read(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A stranger's ``From: <"@b>`` (HeaderParseError) ended every round of the judge in a
    traceback, as did a game whose seat address is ``@b``: every game stopped."""
    games = tmp_path / "games"
    good_id, _ = club_game(cli, keys, tmp_path, games, name="good")
    game_addressed(games / "bad.yaml", keys, {"red": f"alice@{DOMAIN}", "blue": "@b"})
    box = maildir(tmp_path / "Maildir")
    (box / "new" / "1.msg").write_bytes(
        b'From: <"@b>\nTo: judge@test.invalid\nSubject: [frogpbem x] hello\n\nhi\n')
    with smtp_keeping() as (url, kept):
        took = cli("judge", "--games", games, "--maildir", box, "--smtp", url, "--once",
                   "--from", f"judge@{DOMAIN}", "--key", keys.path("referee"))
    assert took.exit_code == 0, took.output
    assert f"game {good_id}: mailed record 0" in took.stdout
    assert "bad.yaml: skipped: the mail address of blue is not one mail address" in took.stdout
    assert "(no address to answer)" in took.stdout
    assert not list((box / "new").iterdir())  # filed
    assert sorted(r for e in kept for r in e.rcpt_tos) == [f"alice@{DOMAIN}", f"bob@{DOMAIN}"]


def test_options_holding_an_address_the_parser_cannot_read_are_refused(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """``a@[`` made the parser raise AttributeError: a traceback in new and judge; and new
    signed a referee address without looking at it."""
    for email in ("red=a@[", "referee=@b", "referee=judge@x.org, spy@evil.invalid"):
        made = cli("new", tmp_path / "g.yaml", "--referee", keys.path("referee"),
                   "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                   "--email", email)
        assert made.exit_code == 2 and "is not one email address" in made.stderr, made.output
        assert not (tmp_path / "g.yaml").exists()
    box = maildir(tmp_path / "Maildir")
    (tmp_path / "games").mkdir()
    judged = cli("judge", "--games", tmp_path / "games", "--maildir", box, "--smtp",
                 "smtp://127.0.0.1:1", "--once", "--from", "a@[", "--key", keys.path("referee"))
    assert judged.exit_code == 2 and "--from 'a@[': give one mail address" in judged.stderr


def test_a_seen_memory_of_another_shape_is_named_unreadable(
        cli: Cli, keys: Keys, tmp_path: Path, finished_game: Path) -> None:
    """A memory holding ``[]``, or ``signed`` as a list, ended verify in AttributeError."""
    assert cli("verify", finished_game, "--key", keys.path("alice")).exit_code == 0
    [memory] = (tmp_path / "home" / "seen").glob("*.json")
    for damaged in (b"[]", b'{"header": "x", "history": [], "signed": []}'):
        memory.write_bytes(damaged)
        said = cli("verify", finished_game, "--key", keys.path("alice"))
        assert said.exit_code == 1 and "is unreadable; move it away" in said.stdout, said.output


def test_reply_to_a_message_read_for_its_headers_only_is_a_sentence(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A ``Content-Type`` of 5,000 ``(`` is read for its headers only (as a plain Message):
    reply ended in an AssertionError."""
    deep = tmp_path / "deep.eml"
    deep.write_bytes(b"From: judge@test.invalid\nSubject: x\nContent-Type: text/plain; a="
                     + b"(" * 5000 + b"\n\nhi\n")
    said = cli("reply", deep, "shoot C3", "--key", keys.path("alice"), "--games",
               tmp_path / "games", "--out", tmp_path / "a.eml")
    assert said.exit_code == 2 and "the message cannot be read" in said.stderr, said.output
    assert not (tmp_path / "a.eml").exists()


def test_receive_of_the_same_mail_again_keeps_the_move_not_mailed_yet(
        cli: Cli, keys: Keys, tmp_path: Path, new_game: Callable[..., Path]) -> None:
    """receive run again on the mail it took (a filter run twice) overwrote the copy held,
    and the move signed into it, not yet mailed, was gone."""
    game = new_game()
    letters = tmp_path / "letters"
    assert cli("mail", game, "--out", letters, "--key", keys.path("referee")).exit_code == 0
    [to_red] = letters.glob("*-red.eml")
    games = tmp_path / "alice-games"
    args = ("receive", to_red, "--games", games, "--key", keys.path("alice"))
    assert cli(*args).exit_code == 0
    [copy] = games.glob("*.yaml")
    assert cli("move", copy, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    signed = copy.read_bytes()
    again = cli(*args)
    assert again.exit_code == 0 and "you hold this copy already" in again.stdout, again.output
    assert copy.read_bytes() == signed
