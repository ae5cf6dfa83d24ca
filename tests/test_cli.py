"""A whole game through the CLI: new, requests, referee moves, views, record, audit."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

import pytest

from frogpbem import games
from frogpbem.cli import commands
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.document import read_game
from frogpbem.games import OptionSpec, register
from tests.conftest import FINISHING_MOVES, Cli, Keys, Result
from tests.games.test_toy_ruleset import Claim


def load(path: Path) -> dict:  # type: ignore[type-arg]
    return strictyaml.loads(path.read_bytes())


def test_new_writes_game_and_views(new_game: Callable[..., Path]) -> None:
    game = new_game()
    doc = load(game)
    assert doc["header"]["setup"]["dealt"] == "chosen"
    assert [s["seat"] for s in doc["header"]["seats"]] == ["red", "blue"]
    for seat in ("red", "blue", "public"):
        view = load(game.with_name(f"game.{seat}.view.yaml"))
        assert view["state"]["to_move"] == "red"
    red = load(game.with_name("game.red.view.yaml"))
    assert red["state"]["own_frogs"] == {"red": ["A1", "B2"]}
    public = load(game.with_name("game.public.view.yaml"))
    assert public["state"]["own_frogs"] == {}


def test_whole_game_scores_and_reveal(finished_game: Path, cli: Cli) -> None:
    doc = load(finished_game)
    log = doc["log"]
    assert [r["move"] for r in log] == [m for _, m in FINISHING_MOVES]
    assert log[0]["result"] == {"count": 1}
    assert log[1]["result"] == {"miss": True}
    assert log[2]["result"] == {"found": "blue"}
    assert log[3]["result"] == {"shot": "red"}
    # red: +5 (found E5) +5 (its frog shot) +5 (found F6) +2 bonus +1 hidden frog = 18
    # blue: -3 (wrong guess) -5 (shot a frog) = -8
    assert log[-1]["scores"] == {"red": 18, "blue": -8}
    assert all("request" in r for r in log)
    reveal = doc["reveal"]
    assert reveal["outcome"]["standing"][0] == {"rank": 1, "seat": "red", "points": 18}
    assert reveal["secrets"]["blue"]["secret"] == {"frogs": ["E5", "F6"]}
    result = cli("audit", finished_game)
    assert result.exit_code == 0, result.output
    assert "everything holds" in result.stdout


def test_referee_move_prints_public_result(new_game: Callable[..., Path], cli: Cli,
                                           keys: Keys) -> None:
    game = new_game()
    result = cli("move", game, "shoot c3", "--key", keys.path("referee"))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "red shoots C3: 1"
    assert load(game)["log"][0]["move"] == "shoot C3"
    assert "request" not in load(game)["log"][0]


def test_player_request_is_added_and_applied(new_game: Callable[..., Path], cli: Cli,
                                             keys: Keys) -> None:
    game = new_game()
    asked = cli("move", game, "  SHOOT   d2 ", "--key", keys.path("alice"))
    assert asked.exit_code == 0, asked.output
    requests = load(game)["requests"]
    assert [(r["seat"], r["move"], r["n"]) for r in requests] == [("red", "shoot D2", 1)]
    applied = cli("move", game, "--key", keys.path("referee"), "--json")
    assert applied.exit_code == 0, applied.output
    assert json.loads(applied.stdout)["applied"] == ["red shoots D2: 0"]
    assert load(game)["requests"] == []


def test_referee_takes_requests_from_returned_copy(new_game: Callable[..., Path], cli: Cli,
                                                  keys: Keys, tmp_path: Path) -> None:
    game = new_game()
    copy = tmp_path / "alice-copy.yaml"
    copy.write_bytes(game.read_bytes())
    assert cli("move", copy, "shoot D4", "--key", keys.path("alice")).exit_code == 0
    result = cli("move", game, "--from", copy, "--key", keys.path("referee"))
    assert result.exit_code == 0, result.output
    assert load(game)["log"][0]["move"] == "shoot D4"


def test_out_of_turn_resignation_by_request(new_game: Callable[..., Path], cli: Cli,
                                            keys: Keys) -> None:
    game = new_game()
    assert cli("move", game, "resign", "--key", keys.path("bob")).exit_code == 0
    result = cli("move", game, "--key", keys.path("referee"))
    assert result.exit_code == 0, result.output
    doc = load(game)
    assert doc["reveal"]["outcome"]["termination"] == "blue resigned"
    assert doc["reveal"]["outcome"]["standing"][0]["seat"] == "red"
    assert cli("audit", game).exit_code == 0


def test_view_text_for_seat_and_public(finished_game: Path, cli: Cli, keys: Keys) -> None:
    red = cli("view", finished_game, "--key", keys.path("alice"))
    assert red.exit_code == 0, red.output
    assert "View of: red (Alice)" in red.stdout
    assert "Game over: all blue frogs revealed" in red.stdout
    public = cli("view", finished_game, "--public")
    assert "View of: the public" in public.stdout
    as_json = cli("view", finished_game, "--key", keys.path("bob"), "--json")
    assert json.loads(as_json.stdout)["seat"] == "blue"
    # once the game is over everything is revealed, to everybody
    public_json = json.loads(cli("view", finished_game, "--public", "--json").stdout)
    assert public_json["state"]["own_frogs"] == {"red": ["A1"], "blue": []}


def test_record_is_pgn_like(finished_game: Path, cli: Cli) -> None:
    result = cli("record", finished_game)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert '[Red "Alice"]' in text and '[Blue "Bob"]' in text and '[Referee "Carol"]' in text
    assert '[Result "1-0"]' in text
    assert '[Termination "all blue frogs revealed"]' in text
    assert "1. shoot C3 {1} guess A2 {-3} 2. guess E5 {blue frog found +5}" in text
    assert text.rstrip().endswith("1-0")


def test_demo_plays_and_audits(tmp_path: Path, cli: Cli) -> None:
    result = cli("demo", tmp_path / "demo", "--seed", "7", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["audit_ok"] is True and summary["audit"]["verdict"] == "everything holds"
    assert summary["outcome"]["standing"]
    audited = cli("audit", tmp_path / "demo" / "game.yaml")
    assert audited.exit_code == 0, audited.output
    # the files held while the bots played are the final ones: the views, the memories
    game = read_game(tmp_path / "demo" / "game.yaml")
    assert len(game.log) == summary["records"]
    for seat in (*game.header.seat_names, "public"):
        view = strictyaml.loads((tmp_path / "demo" / f"game.{seat}.view.yaml").read_bytes())
        assert (view["n"], view["head"]) == (summary["records"], game.head), seat
    memory = json.loads((tmp_path / "demo" / ".referee-state" / "heads" /
                         f"{game.game}.json").read_text())
    assert (memory["n"], memory["head"]) == (summary["records"], game.head)
    seen = json.loads((tmp_path / "demo" / ".players-memory" / "seen" /
                       f"{game.game}.json").read_text())
    assert seen["records"] == summary["records"] - 1  # each seat's copy before its move
    hashes = [e.hash for e in game.history]
    assert seen["history"] == hashes[:-2]  # without the last record, and the reveal
    kept = tmp_path / "demo" / ".referee-state" / "heads" / f"{game.game}.yaml"
    assert kept.read_bytes() == (tmp_path / "demo" / "game.yaml").read_bytes()
    copy = read_game(tmp_path / "demo" / ".players-memory" / "seen" / f"{game.game}.yaml")
    assert [e.hash for e in copy.history] == seen["history"]


def test_keygen_writes_private_0600_and_pub(tmp_path: Path, cli: Cli) -> None:
    path = tmp_path / "k"
    result = cli("keygen", path, "--comment", "me@example.org")
    assert result.exit_code == 0, result.output
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.with_name("k.pub").read_text().startswith("ssh-ed25519 ")
    again = cli("keygen", path)
    assert again.exit_code == 9
    assert "exists already" in again.stderr


def test_referee_applies_request_at_once(
    play: Callable[..., Result], new_game: Callable[..., Path]
) -> None:
    game = new_game()
    result = play(game, "alice", "shoot F1")
    assert result.stdout.strip() == "red shoots F1: 0"


def test_written_views_follow_the_view_schema(finished_game: Path) -> None:
    import jsonschema

    from frogpbem.gamefile import schema

    validator = jsonschema.Draft202012Validator(schema.load_schema("view.schema.json"))
    for seat in ("red", "blue", "public"):
        view = load(finished_game.with_name(f"game.{seat}.view.yaml"))
        assert validator.is_valid(view), list(validator.iter_errors(view))[:1]
        schema.validate(view, "view", seat)


def test_referee_view_shows_every_frog(new_game: Callable[..., Path], cli: Cli,
                                       keys: Keys) -> None:
    game = new_game()
    shown = json.loads(cli("view", game, "--key", keys.path("referee"), "--json").stdout)
    assert shown["state"]["own_frogs"] == {"red": ["A1", "B2"], "blue": ["E5", "F6"]}
    text = cli("view", game, "--key", keys.path("referee")).stdout
    assert "View of: the referee (everything)" in text


def test_version_and_help(cli: Cli) -> None:
    version = cli("--version")
    assert version.exit_code == 0 and version.stdout.startswith("frogpbem ")
    usage = cli("move", "--help")
    assert usage.exit_code == 0
    assert "Referee: apply MOVE" in usage.stdout


def test_console_script_builds_one_command_or_the_whole_group(tmp_path: Path) -> None:
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "frogpbem", *args], capture_output=True,
                              text=True, timeout=120)

    one = run("view", "--help")
    assert one.returncode == 0 and "frogpbem view" in one.stdout  # noqa: PT018
    group = run("--help")
    assert group.returncode == 0
    assert all(name in group.stdout for name in ("keygen", "move", "audit", "demo"))
    assert run("nosuch").returncode == 2
    missing = run("view", str(tmp_path / "none.yaml"))
    assert missing.returncode == 9 and "no such file" in missing.stderr  # noqa: PT018


def test_help_and_usage_errors_are_plain_text_without_rich() -> None:
    """Help and a usage error are plain text, made without importing rich (its markdown and
    traceback modules cost more to import than the rest of the command line)."""
    import subprocess
    import sys

    probe = ("import sys; from frogpbem.cli import commands\n"
             "sys.argv = ['frogpbem', *sys.argv[1:]]\n"
             "try:\n    commands.main()\nexcept SystemExit as done:\n    code = done.code\n"
             "print('rich loaded' if any(m.split('.')[0] == 'rich' for m in sys.modules) "
             "else 'no rich', code)")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", probe, *args], capture_output=True,
                              text=True, timeout=120)

    group, one, wrong = run("--help"), run("audit", "--help"), run("nosuch")
    assert group.stdout.endswith("no rich 0\n") and one.stdout.endswith("no rich 0\n")
    assert wrong.stdout == "no rich 2\n"
    assert "Error: No such command 'nosuch'." in wrong.stderr
    assert "Usage: frogpbem audit [OPTIONS] {GAME...}" in one.stdout
    assert not any(box in out for out in (group.stdout, one.stdout, wrong.stderr)
                   for box in "╭│╰")


def test_one_of_a_thing_is_counted_in_the_singular(new_game: Callable[..., Path], cli: Cli,
                                                   keys: Keys) -> None:
    """'1 record', not '1 records': in the view, verify, audit, a picture and simulate."""
    game = new_game()
    assert cli("move", game, "resign", "--key", keys.path("alice")).exit_code == 0
    assert cli("move", game, "--key", keys.path("referee")).exit_code == 0
    said = [cli("view", game, "--key", keys.path("alice")).stdout,
            cli("view", game, "--public", "--format", "svg").stdout,
            cli("verify", game).stdout, cli("audit", game).stdout,
            cli("simulate", "--games", "1", "--option", "size=4", "--option", "frogs=1").stdout]
    text = "\n".join(said)
    assert "after 1 record\n" in said[0] and "header, 1 record, reveal" in said[3]
    assert "1 of 1 record carries its seat's signed request" in said[3]
    assert "turn of 1 record\n" in said[3] and "1 game of frogfinder" in said[4]
    for plural in ("1 records", "1 games", "1 points", "1 salts", "1 requests", "1 frogs"):
        assert plural not in text, plural


class Corners(Claim):
    """The toy ruleset, with an option of its own."""

    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("corners", 4, "0..4", "the corners taken first"),)


def test_the_help_lists_a_ruleset_registered_at_run_time_with_its_options(
        cli: Cli, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The rulesets and their options in the help come from the games registry when the
    help is shown (the four games' as they say them), in the whole app and in the one
    command the console script builds."""
    monkeypatch.setattr(games, "_REGISTERED", dict(games._REGISTERED))  # forget it afterwards
    register(Corners())
    said = " ".join(cli("new", "--help").stdout.split())  # as one line, not wrapped
    assert "The ruleset: frogfinder, coan, froglet, secretmove, toyclaim. [default: " in said
    assert ("NAME=VALUE: a rules option. frogfinder: size=3..26 (12), frogs=N (5); "
            "coan: size=3..26 (12), frogs=N (5), teams=red+black,blue+purple (none); "
            "froglet: size=3..26 (12); secretmove: none; toyclaim: corners=0..4 (4). Any "
            "game: deadline=72h (or 3d, 90m) and on_timeout=forfeit or pass.") in said
    for command in ("simulate", "play", "demo"):
        assert "secretmove, toyclaim. [default: " in " ".join(
            cli(command, "--help").stdout.split()), command
    monkeypatch.setattr(sys, "argv", ["frogpbem", "new", "--help"])
    with pytest.raises(SystemExit) as done:
        commands.main()
    assert done.value.code == 0
    assert "toyclaim: corners=0..4 (4)." in " ".join(capsys.readouterr().out.split())
