"""Every refusal: one clear line, the documented exit status, the game file untouched."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frogpbem.gamefile import strictyaml
from tests.conftest import Cli, Keys, Result, here


def refused(cli: Cli, game: Path, args: list[object], code: int, message: str) -> Result:
    before = game.read_bytes() if game.exists() else None
    result = cli(*args)
    assert result.exit_code == code, result.output
    assert message in result.stderr, result.stderr
    assert result.stderr.startswith("frogpbem: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output
    if before is not None:
        assert game.read_bytes() == before
    return result


@pytest.fixture
def game(new_game: Callable[..., Path]) -> Path:
    return new_game()


def test_unknown_key(game: Path, cli: Cli, keys: Keys) -> None:
    refused(cli, game, ["move", game, "shoot C3", "--key", keys.path("mallory")], 5,
            "is neither the referee nor a seat of game")


def test_missing_key_file(game: Path, cli: Cli, tmp_path: Path) -> None:
    refused(cli, game, ["move", game, "shoot C3", "--key", tmp_path / "nokey"], 5,
            "cannot read key")


def test_private_key_readable_by_others(game: Path, cli: Cli, keys: Keys, tmp_path: Path) -> None:
    loose = tmp_path / "loose"
    shutil.copy(keys.path("alice"), loose)
    loose.chmod(0o644)
    refused(cli, game, ["move", game, "shoot C3", "--key", loose], 5,
            "is accessible by others (mode 0644)")


def test_a_seat_key_cannot_act_for_another_seat(game: Path, cli: Cli, keys: Keys) -> None:
    refused(cli, game, ["move", game, "resign", "--seat", "blue", "--key", keys.path("alice")], 2,
            "holds seat red")


def test_forged_seat_in_a_request(game: Path, cli: Cli, keys: Keys) -> None:
    assert cli("move", game, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    doc = strictyaml.loads(game.read_bytes())
    doc["requests"][0]["seat"] = "blue"
    game.write_text(strictyaml.dumps(doc))
    refused(cli, game, ["move", game, "--key", keys.path("referee")], 6,
            "invalid signature by blue")


def test_move_out_of_turn(game: Path, cli: Cli, keys: Keys) -> None:
    refused(cli, game, ["move", game, "shoot C3", "--key", keys.path("bob")], 4,
            "it is red's turn, not blue's")


def test_referee_move_for_a_seat_out_of_turn(game: Path, cli: Cli, keys: Keys) -> None:
    refused(cli, game, ["move", game, "shoot C3", "--seat", "blue", "--key",
                        keys.path("referee")], 4, "it is red's turn, not blue's")


def test_request_replayed_at_a_later_move(game: Path, cli: Cli, keys: Keys) -> None:
    assert cli("move", game, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    request = strictyaml.loads(game.read_bytes())["requests"][0]
    assert cli("move", game, "--key", keys.path("referee")).exit_code == 0
    assert cli("move", game, "shoot D1", "--key", keys.path("referee"), "--seat", "blue")\
        .exit_code == 0
    doc = strictyaml.loads(game.read_bytes())
    doc["requests"].append(request)  # the old signed request, sent again
    game.write_text(strictyaml.dumps(doc))
    refused(cli, game, ["move", game, "--key", keys.path("referee")], 8, "stale or replayed")
    dropped = cli("move", game, "--discard-requests", "--key", keys.path("referee"))
    assert dropped.exit_code == 0, dropped.output
    assert strictyaml.loads(game.read_bytes())["requests"] == []


def test_request_from_another_game(new_game: Callable[..., Path], cli: Cli, keys: Keys) -> None:
    game = new_game()
    other = new_game(name="other.yaml")
    assert cli("move", other, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    doc = strictyaml.loads(game.read_bytes())
    doc["requests"].append(strictyaml.loads(other.read_bytes())["requests"][0])
    game.write_text(strictyaml.dumps(doc))
    refused(cli, game, ["move", game, "--key", keys.path("referee")], 6, "made for game")


def test_returned_copy_from_another_game(new_game: Callable[..., Path], cli: Cli,
                                         keys: Keys) -> None:
    game = new_game()
    other = new_game(name="other.yaml")
    refused(cli, game, ["move", game, "--from", other, "--key", keys.path("referee")], 8,
            "is not a copy of game")


@pytest.mark.parametrize(("move", "message"), [
    ("shoot G1", "square G1 is off the board (A1..F6)"),
    ("guess A1", "A1 is not open: it holds your own frog"),
])
def test_square_off_board_or_not_open(game: Path, cli: Cli, keys: Keys, move: str,
                                      message: str) -> None:
    refused(cli, game, ["move", game, move, "--key", keys.path("alice")], 4, message)


def test_square_already_shot(game: Path, cli: Cli, keys: Keys) -> None:
    assert cli("move", game, "shoot C3", "--key", keys.path("referee")).exit_code == 0
    assert cli("move", game, "shoot D1", "--key", keys.path("referee")).exit_code == 0
    refused(cli, game, ["move", game, "guess c3", "--key", keys.path("alice")], 4,
            "C3 is not open: it was shot already")


@pytest.mark.parametrize("text", ["shot G9", "fire at will", "guess", "resign please"])
def test_garbage_notation(game: Path, cli: Cli, keys: Keys, text: str) -> None:
    refused(cli, game, ["move", game, text, "--key", keys.path("alice")], 3,
            f'expected "shoot SQUARE", "guess SQUARE" or "resign", got {text!r}')


def test_tampered_file(game: Path, cli: Cli, keys: Keys) -> None:
    game.write_text(game.read_text().replace("name: Bob", "name: Bobby"))
    refused(cli, game, ["move", game, "shoot C3", "--key", keys.path("referee")], 6,
            "header: invalid signature by the referee")


def test_truncated_file(game: Path, cli: Cli, keys: Keys) -> None:
    data = game.read_bytes()
    game.write_bytes(data[: len(data) // 2])
    refused(cli, game, ["move", game, "shoot C3", "--key", keys.path("referee")], 7, "game.yaml")


@pytest.mark.parametrize(("edit", "message"), [
    (lambda t: t.replace("name: Alice", "name: &a Alice").replace("name: Bob", "name: *a"),
     "YAML anchor refused"),
    (lambda t: t.replace("name: Alice", "name: !!str Alice"), "YAML tag"),
    (lambda t: t.replace("name: Alice", "name: Alice\n    name: Eve"), "duplicate key 'name'"),
    (lambda t: t.replace("requests: []", "requests: []\nrequests: []"), "duplicate key"),
])
def test_unsafe_yaml(game: Path, cli: Cli, keys: Keys, edit: Callable[[str], str],
                     message: str) -> None:
    game.write_text(edit(game.read_text()))
    refused(cli, game, ["move", game, "shoot C3", "--key", keys.path("referee")], 7, message)


def test_file_over_size_limit(game: Path, cli: Cli, keys: Keys) -> None:
    game.write_text(game.read_text() + "#" * (4 * 1024 * 1024))
    refused(cli, game, ["view", game, "--public"], 7, "larger than 4 MiB")


def test_missing_game_file(tmp_path: Path, cli: Cli, keys: Keys) -> None:
    refused(cli, tmp_path / "none.yaml", ["view", tmp_path / "none.yaml"], 9, "no such file")


def test_unknown_format_version(game: Path, cli: Cli) -> None:
    game.write_text(game.read_text().replace("frogpbem: 2", "frogpbem: 3", 1))
    refused(cli, game, ["view", game, "--public"], 7, "unsupported format version 3")


def test_stale_copy_at_the_referee(game: Path, cli: Cli, keys: Keys, tmp_path: Path) -> None:
    old = tmp_path / "old.yaml"
    old.write_bytes(game.read_bytes())
    assert cli("move", game, "shoot C3", "--key", keys.path("referee")).exit_code == 0
    refused(cli, old, ["move", old, "shoot D1", "--key", keys.path("referee")], 8,
            "this copy is stale")


def test_game_already_exists(game: Path, cli: Cli, keys: Keys) -> None:
    refused(cli, game, ["new", game, "--referee", keys.path("referee"),
                        "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}"],
            9, "exists already")


def test_bad_setup_file(tmp_path: Path, cli: Cli, keys: Keys) -> None:
    setup = tmp_path / "setup.yaml"
    setup.write_text("red:\n  frogs: [A1, B2]\nblue:\n  frogs: [A1, C3]\n")
    result = cli("new", tmp_path / "g.yaml", "--referee", keys.path("referee"),
                 "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                 "--option", "size=6", "--option", "frogs=2", "--setup", setup)
    assert result.exit_code == 3
    assert "A1 holds frogs of both red and blue" in result.stderr
    assert not (tmp_path / "g.yaml").exists()


def test_writers_are_serialised_by_the_lock(game: Path, keys: Keys) -> None:
    before = game.read_bytes()
    held = os.open(game.parent, os.O_RDONLY)  # writers lock the folder that holds the game
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        writer = subprocess.Popen(
            [sys.executable, "-m", "frogpbem", "move", str(game), "shoot C3",
             "--key", str(keys.path("referee"))],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ),
        )
        time.sleep(1.5)
        assert writer.poll() is None, "the second writer did not wait for the lock"
        assert game.read_bytes() == before
        fcntl.flock(held, fcntl.LOCK_UN)
    finally:
        os.close(held)
    out, err = writer.communicate(timeout=60)
    assert writer.returncode == 0, err
    assert out.decode().strip() == "red shoots C3: 1"


def test_referee_memory_does_not_excuse_a_changed_signature(game: Path, cli: Cli,
                                                            keys: Keys) -> None:
    """The referee skips re-verifying what it signed itself, but only byte for byte."""
    for move in ("shoot C3", "shoot D1"):
        assert cli("move", game, move, "--key", keys.path("referee")).exit_code == 0
    doc = strictyaml.loads(game.read_bytes())
    other = strictyaml.loads(game.read_bytes())["log"][1]["signature"]
    doc["log"][0]["signature"] = other  # well-formed, but not record 1's
    game.write_text(strictyaml.dumps(doc))
    refused(cli, game, ["move", game, "shoot D2", "--key", keys.path("referee")], 6,
            "record 1: invalid signature by the referee")


def test_unknown_rules_list_the_known_ones(tmp_path: Path, cli: Cli, keys: Keys) -> None:
    refused(cli, tmp_path / "g.yaml", ["new", tmp_path / "g.yaml", "--rules", "chess",
                                       "--referee", keys.path("referee")], 2,
            "unknown rules 'chess' (known: coan, frogfinder, froglet, secretmove)")


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=30),
                 st.from_regex(r"\A(shoot|guess|SHOOT|resign) ?[A-Ha-h]? ?[0-9]{0,3}\Z")))
def test_any_move_text_is_applied_or_refused_in_one_line(game: Path, keys: Keys,
                                                         text: str) -> None:
    from frogpbem.errors import FrogPbemError
    from frogpbem.referee import move

    before = game.read_bytes()
    try:
        move(game, keys.key("alice"), text, session=here())
    except FrogPbemError as exc:
        assert "\n" not in str(exc)
        assert game.read_bytes() == before
    else:
        doc = strictyaml.loads(game.read_bytes())
        assert doc["requests"][-1]["seat"] == "red"
        game.write_bytes(before)


def new_args(game: Path, keys: Keys, *extra: object) -> list[object]:
    return ["new", game, "--referee", keys.path("referee"), "--seat",
            f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}", *extra]


@pytest.mark.parametrize("address", [
    "alice@example.org\r\nBcc: spy@evil.invalid", "Alice <alice@example.org>",
    "alice@example.org, spy@evil.invalid", "alice", "alice@", "", "(me) alice@example.org",
])
def test_new_refuses_an_email_that_is_not_one_address(tmp_path: Path, cli: Cli, keys: Keys,
                                                      address: str) -> None:
    """An address lands in mail headers: a line break or a second address would add one."""
    game = tmp_path / "g.yaml"
    refused(cli, game, new_args(game, keys, "--email", f"red={address}"), 2,
            "--email red: ")
    assert not game.exists()


@pytest.mark.parametrize(("option", "value"), [
    ("--name", "red=Alice\r\nBcc: spy@evil.invalid"), ("--name", "red=A\x1b[2Jlice"),
    ("--name", "red=" + "A" * 101), ("--name", "red= "), ("--referee-name", "Carol\nX"),
])
def test_new_refuses_a_name_not_on_one_line(tmp_path: Path, cli: Cli, keys: Keys, option: str,
                                            value: str) -> None:
    game = tmp_path / "g.yaml"
    refused(cli, game, new_args(game, keys, option, value), 2, f"{option}")
    assert not game.exists()


def test_new_takes_a_name_with_angle_brackets_and_a_plain_address(tmp_path: Path, cli: Cli,
                                                                  keys: Keys) -> None:
    """A name is free text; what makes it safe in a header is how mail quotes it."""
    game = tmp_path / "g.yaml"
    made = cli(*new_args(game, keys, "--name", "red=Bob <spy@evil.invalid>", "--email",
                         'red="al ice"@example.org', "--email", "blue=bob@[192.0.2.1]"))
    assert made.exit_code == 0, made.output
    text = game.read_text()
    assert "Bob <spy@evil.invalid>" in text and '\\"al ice\\"@example.org' in text


@pytest.mark.parametrize("content", [
    "{alice}{bob}", "{alice}\n\n# a comment\n", "ssh-ed25519 {blob} a\x1b[2Jcomment\n",
    "ssh-ed25519 {blob} alice\rssh-ed25519 {blob} bob\n",
])
def test_new_refuses_a_pub_that_is_not_one_key_line(tmp_path: Path, cli: Cli, keys: Keys,
                                                    content: str) -> None:
    """Two keys in one .pub (or anything after the line) made a file that failed its own
    schema."""
    alice, bob = keys.pub("alice").read_text(), keys.pub("bob").read_text()
    pub = tmp_path / "two.pub"
    pub.write_text(content.format(alice=alice, bob=bob, blob=alice.split()[1]), newline="")
    game = tmp_path / "g.yaml"
    refused(cli, game, ["new", game, "--referee", keys.path("referee"), "--seat",
                        f"red={pub}", "--seat", f"blue={keys.pub('bob')}"], 5, "two.pub: ")
    assert not game.exists()


def test_a_pub_with_a_trailing_blank_line_is_one_key(tmp_path: Path, cli: Cli,
                                                     keys: Keys) -> None:
    pub = tmp_path / "alice.pub"
    pub.write_text(keys.pub("alice").read_text() + "\n\n")
    game = tmp_path / "g.yaml"
    made = cli("new", game, "--referee", keys.path("referee"), "--seat", f"red={pub}",
               "--seat", f"blue={keys.pub('bob')}")
    assert made.exit_code == 0, made.output


@pytest.mark.parametrize("command", [
    ["view"], ["view", "--json"], ["move", "shoot C3", "--key", "alice"], ["verify"], ["audit"],
    ["record"], ["hint"],
])
def test_a_folder_given_as_the_game_file(tmp_path: Path, cli: Cli, keys: Keys,
                                         command: list[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    result = cli(command[0], folder,
                 *[keys.path(a) if a == "alice" else a for a in command[1:]])
    assert result.exit_code == 9, result.output
    assert "is a directory" in result.stderr and "Traceback" not in result.output
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("where", ["a file", "below a file", "in /proc"])
def test_simulate_records_where_no_folder_can_be(tmp_path: Path, cli: Cli, where: str) -> None:
    file = tmp_path / "records"
    file.write_text("mine\n")
    records = {"a file": file, "below a file": file / "sub",
               "in /proc": Path("/proc/frogpbem-records")}[where]
    result = cli("simulate", "--games", "1", "--records", records)
    assert result.exit_code == 9, result.output
    assert result.stderr.startswith(f"frogpbem: {records}: --records: ")
    assert result.stderr.count("\n") == 1 and "average" not in result.stdout
    assert file.read_text() == "mine\n"


@pytest.mark.parametrize("path", ["", ".", "/", "sub/.."])
def test_keygen_at_a_path_without_a_file_name(tmp_path: Path, cli: Cli, path: str) -> None:
    refused(cli, tmp_path / "none", ["keygen", path], 2, "names no file")


def test_keygen_refuses_a_comment_that_breaks_the_key_line(tmp_path: Path, cli: Cli) -> None:
    """A comment with a newline wrote a .pub of two lines, which no game takes."""
    refused(cli, tmp_path / "k", ["keygen", tmp_path / "k", "--comment", "me\nssh-ed25519 X"],
            2, "holds control characters")
    assert not (tmp_path / "k").exists() and not (tmp_path / "k.pub").exists()


@pytest.mark.parametrize("twice", [["--seat", "red={bob}"], ["--option", "size=8"],
                                   ["--name", "red=Eve"]])
def test_an_option_given_twice_for_one_name(tmp_path: Path, cli: Cli, keys: Keys,
                                            twice: list[str]) -> None:
    """The last one silently won (a second --seat red=… dropped a player)."""
    game = tmp_path / "g.yaml"
    args = new_args(game, keys, "--option", "size=6", "--name", "red=Alice", twice[0],
                    twice[1].format(bob=keys.pub("bob")))
    refused(cli, game, args, 2, f"{twice[0]} {twice[1].partition('=')[0]}=… is given twice")
    assert not game.exists()


@pytest.mark.parametrize("rules", ["frogfinder", "froglet", "secretmove"])
def test_a_huge_move_is_not_echoed_back(rules: str, cli: Cli, keys: Keys,
                                        finished_demos: dict[str, Path], tmp_path: Path) -> None:
    game = tmp_path / "g.yaml"
    game.write_bytes(finished_demos[rules].read_bytes())
    key = tmp_path / "alice"
    key.write_bytes((finished_demos[rules].parent / "alice").read_bytes())
    key.chmod(0o600)
    result = refused(cli, game, ["move", game, "shoot " + "A" * 1_000_000, "--key", key], 3,
                     "got 'shoot AAAA")
    assert len(result.stderr) < 300


@pytest.mark.parametrize("where", ["a file", "below a file", "in /proc"])
def test_demo_where_no_folder_can_be(tmp_path: Path, cli: Cli, where: str) -> None:
    file = tmp_path / "taken"
    file.write_text("mine\n")
    folder = {"a file": file, "below a file": file / "sub",
              "in /proc": Path("/proc/frogpbem-demo")}[where]
    result = cli("demo", folder, "--moves", "1")
    assert result.exit_code == 9, result.output
    assert result.stderr.startswith(f"frogpbem: {folder}: ") and "Traceback" not in result.output
    assert file.read_text() == "mine\n"


def test_a_view_that_cannot_be_written_says_the_move_counts(game: Path, cli: Cli,
                                                            keys: Keys) -> None:
    """The game file is written before the views: a referee told only 'cannot write' would
    apply the move again, for the next seat."""
    view = game.parent / "game.red.view.yaml"
    view.unlink()
    view.mkdir()
    result = cli("move", game, "shoot C3", "--key", keys.path("referee"))
    assert result.exit_code == 9, result.output
    assert "game.yaml itself is saved and what was done counts" in result.stderr
    assert len(strictyaml.loads(game.read_bytes())["log"]) == 1


@pytest.mark.parametrize("where", ["below a file", "in /proc"])
def test_verify_export_where_no_folder_can_be(game: Path, cli: Cli, where: str) -> None:
    folder = {"below a file": game / "sub", "in /proc": Path("/proc/frogpbem-export")}[where]
    refused(cli, game, ["verify", game, "--export", folder], 9, f"{folder}: cannot write: ")


@pytest.mark.parametrize("extra", [["--option", "size=" + "9" * 100_000],
                                   ["--option", "x" * 100_000 + "=1"],
                                   ["--rules", "x" * 100_000],
                                   ["--rules", "coan", "--option", "teams=" + "r" * 100_000]])
def test_a_huge_option_is_not_echoed_back(tmp_path: Path, cli: Cli, keys: Keys,
                                          extra: list[str]) -> None:
    game = tmp_path / "g.yaml"
    result = refused(cli, game, new_args(game, keys, *extra), 2, "…")
    assert len(result.stderr) < 300 and not game.exists()


@pytest.mark.parametrize("command", [["move", "{game}", "--from", "{view}", "--key", "referee"],
                                     ["record", "{view}"], ["audit", "{view}"],
                                     ["verify", "{view}"], ["audit", "{pub}"]])
def test_a_view_file_or_key_given_as_the_game(game: Path, cli: Cli, keys: Keys,
                                              command: list[str]) -> None:
    """A view file read as an old game file ('format version 1 … finish the game with the
    version that started it'), and audit called a file that is no game 'DOES NOT HOLD'."""
    paths = {"{game}": game, "{view}": game.with_name("game.public.view.yaml"),
             "{pub}": keys.pub("alice"), "referee": keys.path("referee")}
    result = refused(cli, game, [paths.get(a, a) for a in command], 7,
                     "a view file (a board to look at" if "{view}" in command
                     else "not a frogpbem game file")
    assert "DOES NOT HOLD" not in result.output


@pytest.mark.parametrize("fmt", ["svg", "html", "yaml"])
def test_a_game_not_dealt_yet_is_drawn_in_no_picture(tmp_path: Path, cli: Cli, keys: Keys,
                                                     fmt: str) -> None:
    """A line of text where a picture (or YAML) was asked made a broken file."""
    game = tmp_path / "g.yaml"
    assert cli(*new_args(game, keys, "--join")).exit_code == 0
    result = cli("view", game, "--format", fmt)
    if fmt == "yaml":
        assert result.exit_code == 0 and strictyaml.loads(result.stdout.encode())["dealt"] is False
    else:
        refused(cli, game, ["view", game, "--format", fmt], 4, "not dealt yet: no board to draw")
