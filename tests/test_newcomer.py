"""What a newcomer tripped on, each seen in a run, each now answered properly."""

from __future__ import annotations

import getpass
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from frogpbem.cli import output
from frogpbem.gamefile import strictyaml
from tests.conftest import Cli, Keys, Result


def test_record_has_json(finished_game: Path, cli: Cli) -> None:
    data = json.loads(cli("record", finished_game, "--json").stdout)
    assert data["result"] == "1-0" and len(data["moves"]) == 5
    assert data["moves"][0] == {"n": 1, "seat": "red", "move": "shoot C3",
                                "result": {"count": 1}, "comment": "1"}


def test_errors_are_json_on_stderr_with_json(cli: Cli, tmp_path: Path) -> None:
    result = cli("view", tmp_path / "missing.yaml", "--public", "--json")
    assert result.exit_code == 9
    error = json.loads(result.stderr)
    assert error["error"] == "FileAccessError" and error["exit_status"] == 9
    assert error["message"] == "no such file" and error["path"].endswith("missing.yaml")


def test_view_refuses_two_formats(new_game: Callable[..., Path], cli: Cli) -> None:
    result = cli("view", new_game(), "--public", "--json", "--format", "yaml")
    assert result.exit_code == 2
    assert "ask for two formats" in result.stderr


def test_a_public_key_given_as_key_is_named_as_such(new_game: Callable[..., Path], cli: Cli,
                                                     keys: Keys) -> None:
    result = cli("move", new_game(), "shoot C3", "--key", keys.pub("alice"))
    assert result.exit_code == 5
    assert "is a public key: give your private key" in result.stderr
    assert "chmod" not in result.stderr


def test_keygen_asks_the_passphrase_twice(cli: Cli, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["one secret", "another"])
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": next(answers))
    monkeypatch.setattr(output, "interactive", lambda: True)
    result = cli("keygen", tmp_path / "k", "--passphrase")
    assert result.exit_code == 2
    assert "the two passphrases differ" in result.stderr
    assert not (tmp_path / "k").exists()


def test_a_move_may_be_given_unquoted(new_game: Callable[..., Path], cli: Cli,
                                      keys: Keys) -> None:
    result = cli("move", new_game(), "shoot", "C3", "--key", keys.path("alice"))
    assert result.exit_code == 0, result.output
    assert "red asks: shoot C3 (for record 1)" in result.stdout


def test_a_pending_request_can_be_replaced_and_withdrawn(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    game = new_game()
    assert cli("move", game, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    replaced = cli("move", game, "shoot D4", "--key", keys.path("alice"))
    assert replaced.exit_code == 0, replaced.output
    assert "replacing 'shoot C3'" in replaced.stdout
    assert game.read_text().count("seat: red\n    move:") == 0  # sanity of the check below
    assert "shoot C3" not in game.read_text() and "shoot D4" in game.read_text()
    withdrawn = cli("move", game, "--withdraw", "--key", keys.path("alice"))
    assert withdrawn.exit_code == 0, withdrawn.output
    assert "withdrew its request 'shoot D4'" in withdrawn.stdout
    assert "shoot D4" not in game.read_text()
    again = cli("move", game, "--withdraw", "--key", keys.path("alice"))
    assert again.exit_code == 2 and "no pending request" in again.stderr


def test_help_short_alias_completion_and_choices(cli: Cli) -> None:
    short = cli("-h")
    assert short.exit_code == 0 and "--install-completion" in short.stdout
    new = " ".join(cli("new", "-h").stdout.replace("│", " ").split())  # unwrap the boxes
    assert "The ruleset: frogfinder, coan, froglet, secretmove." in new
    assert "teams=red+black,blue+purple" in new and "secretmove: none" in new
    assert "--key lookup" not in new


def test_legend_names_the_viewers_own_frogs_and_counts_records(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, play: Callable[..., Result]
) -> None:
    game = new_game()
    bob = cli("view", game, "--key", keys.path("bob")).stdout
    assert "b  blue's hidden frog" in bob and "r  red's hidden frog" not in bob
    play(game, "alice", "shoot C3")
    assert "after 1 record\n" in cli("view", game, "--public").stdout


def test_referee_view_title_in_every_ruleset(tmp_path: Path, cli: Cli, keys: Keys) -> None:
    game = tmp_path / "froglet.yaml"
    created = cli("new", game, "--rules", "froglet", "--referee", keys.path("referee"),
                  "--option", "size=4", "--seat", f"white={keys.pub('alice')}",
                  "--seat", f"black={keys.pub('bob')}")
    assert created.exit_code == 0, created.output
    text = cli("view", game, "--key", keys.path("referee")).stdout
    assert "View of: the referee (everything)" in text and "every frog" not in text


def test_export_does_not_overwrite_a_folder(finished_game: Path, cli: Cli,
                                            tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "mine.txt").write_text("keep me")
    result = cli("verify", finished_game, "--export", folder)
    assert result.exit_code == 9
    assert "not an empty folder" in result.stderr
    assert (folder / "mine.txt").read_text() == "keep me"
    assert sorted(p.name for p in folder.iterdir()) == ["mine.txt"]


def test_no_lock_files_are_left_beside_a_game(finished_game: Path) -> None:
    assert [p.name for p in finished_game.parent.iterdir() if p.name.startswith(".")] == []


def test_demo_folders_are_ignored_by_git() -> None:
    ignore = (Path(__file__).resolve().parent.parent / ".gitignore").read_text().splitlines()
    assert "/demo-game*/" in ignore


def test_a_late_resignation_is_applied(new_game: Callable[..., Path], cli: Cli, keys: Keys,
                                       tmp_path: Path, play: Callable[..., Result]) -> None:
    """Blue signs a resignation, the referee meanwhile applies red's move: it still counts."""
    game = new_game()
    blue_copy = tmp_path / "blue-copy.yaml"
    blue_copy.write_bytes(game.read_bytes())
    assert cli("move", blue_copy, "resign", "--key", keys.path("bob")).exit_code == 0
    play(game, "alice", "shoot C3")
    applied = cli("move", game, "--from", blue_copy, "--key", keys.path("referee"))
    assert applied.exit_code == 0, applied.output
    assert "blue resigns" in applied.stdout and "game over" in applied.stdout
    audited = cli("audit", game)
    assert audited.exit_code == 0, audited.output
    assert "2 of 2 records carry their seat's signed request" in audited.stdout


def test_a_default_key_outside_the_game_falls_back_to_the_public_view(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    game = new_game()
    ssh = Path.home() / ".ssh"
    ssh.mkdir(parents=True)
    (ssh / "id_ed25519").write_bytes(keys.path("mallory").read_bytes())
    (ssh / "id_ed25519").chmod(0o600)
    shown = cli("view", game)
    assert shown.exit_code == 0, shown.output
    assert "is not part of this game; showing the public view" in shown.stderr
    assert "View of: the public" in shown.stdout
    asked = cli("view", game, "--key", ssh / "id_ed25519")
    assert asked.exit_code == 5 and "neither the referee nor a seat" in asked.stderr


def test_a_json_error_names_the_file_and_the_element(finished_game: Path, cli: Cli) -> None:
    doc = strictyaml.loads(finished_game.read_bytes())
    doc["log"][0]["scores"] = 7  # not a mapping: the schema refuses it
    finished_game.write_text(strictyaml.dumps(doc))
    result = cli("view", finished_game, "--public", "--json")
    assert result.exit_code == 7, result.output
    error = json.loads(result.stderr)
    assert error["path"] == str(finished_game)
    assert error["element"].startswith("record 1")
    assert error["error"] == "GameFileError"
    plain = cli("view", finished_game, "--public")
    assert plain.stderr.startswith(f"frogpbem: {finished_game}: record 1")
