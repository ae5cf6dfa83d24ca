"""Team games through the CLI: teammates' frogs, private notes, what others cannot see."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from frogpbem import crypto
from frogpbem.audit import audit
from frogpbem.errors import KeyError_
from frogpbem.gamefile import strictyaml
from tests.conftest import Cli, Keys, here, write_setup

SEATS = ("red", "blue", "black", "purple")
TEAMS = "red+black,blue+purple"
SETUP = {"red": {"frogs": ["A1"]}, "blue": {"frogs": ["F6"]},
         "black": {"frogs": ["A6"]}, "purple": {"frogs": ["F1"]}}
OTHER_RED = {**SETUP, "red": {"frogs": ["B1"]}}  # differs only in red's frog
MOVES = [("red", "shoot D4"), ("blue", "shoot C3"), ("black", "guess E5"), ("purple", "shoot D2")]


@pytest.fixture
def seat_keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("teamkeys")
    keys = {}
    for seat in SEATS:
        keys[seat] = folder / seat
        crypto.generate_key(keys[seat], seat)
    return keys


@pytest.fixture
def team_game(tmp_path: Path, cli: Cli, keys: Keys,
              seat_keys: dict[str, Path]) -> Callable[..., Path]:
    def make(setup: dict[str, Any] = SETUP, name: str = "team.yaml", teams: str = TEAMS) -> Path:
        game = tmp_path / name
        folder = tmp_path / name.replace(".yaml", "")
        folder.mkdir()
        args: list[Any] = ["new", game, "--rules", "coan", "--referee", keys.path("referee"),
                           "--option", "size=6", "--option", "frogs=1",
                           "--setup", write_setup(folder, setup)]
        if teams:
            args += ["--option", f"teams={teams}"]
        for seat in SEATS:
            args += ["--seat", f"{seat}={seat_keys[seat]}.pub"]
        result = cli(*args)
        assert result.exit_code == 0, result.output
        return game

    return make


def play(cli: Cli, game: Path, keys: Keys, seat_keys: dict[str, Path]) -> None:
    for seat, move in MOVES:
        assert cli("move", game, move, "--key", seat_keys[seat]).exit_code == 0
        applied = cli("move", game, "--key", keys.path("referee"))
        assert applied.exit_code == 0, applied.output


def view(cli: Cli, game: Path, key: Path | None) -> dict[str, Any]:
    args = ["--key", key] if key else ["--public"]
    result = cli("view", game, "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_teammates_see_each_others_frogs_and_notes_others_see_neither(
    team_game: Callable[..., Path], cli: Cli, keys: Keys, seat_keys: dict[str, Path]
) -> None:
    game_a = team_game(SETUP, "a.yaml")
    game_b = team_game(OTHER_RED, "b.yaml")
    for game in (game_a, game_b):
        written = cli("note", game, "purple's frog is near F1", "--key", seat_keys["red"])
        assert written.exit_code == 0, written.output
        play(cli, game, keys, seat_keys)
    black = view(cli, game_a, seat_keys["black"])
    assert black["state"]["own_frogs"] == {"red": ["A1"], "black": ["A6"]}
    assert [n["text"] for n in black["notes"]] == ["purple's frog is near F1"]
    assert [n["text"] for n in view(cli, game_a, seat_keys["red"])["notes"]] == \
        ["purple's frog is near F1"]
    for seat in ("blue", "purple"):
        opponent = view(cli, game_a, seat_keys[seat])
        assert opponent["notes"] == []
        assert "red" not in opponent["state"]["own_frogs"]
        assert "black" not in opponent["state"]["own_frogs"]
        # the same view whatever red's hidden frog was
        assert opponent["state"] == view(cli, game_b, seat_keys[seat])["state"]
    assert view(cli, game_a, None)["state"] == view(cli, game_b, None)["state"]
    assert "notes" not in view(cli, game_a, None)
    text = cli("view", game_a, "--key", seat_keys["black"]).stdout
    assert "Team notes:" in text and "red: purple's frog is near F1" in text
    assert "Team notes:" not in cli("view", game_a, "--key", seat_keys["blue"]).stdout
    for seat in ("blue", "purple", "public"):
        written_a = strictyaml.loads(game_a.with_name(f"a.{seat}.view.yaml").read_bytes())
        written_b = strictyaml.loads(game_b.with_name(f"b.{seat}.view.yaml").read_bytes())
        assert written_a["state"] == written_b["state"]
    black_a = strictyaml.loads(game_a.with_name("a.black.view.yaml").read_bytes())
    black_b = strictyaml.loads(game_b.with_name("b.black.view.yaml").read_bytes())
    assert black_a["state"]["own_frogs"]["red"] != black_b["state"]["own_frogs"]["red"]


def test_sealed_setup_reaches_the_team_and_the_referee_only(
    team_game: Callable[..., Path], keys: Keys, seat_keys: dict[str, Path]
) -> None:
    game = team_game()
    sealed = strictyaml.loads(game.read_bytes())["header"]["setup"]["sealed"]["red"]
    for seat, can in (("red", True), ("black", True), ("blue", False), ("purple", False)):
        key = crypto.load_private_key(seat_keys[seat])
        if can:
            assert b'"frogs":["A1"]' in crypto.unseal(sealed, key)
        else:
            with pytest.raises(KeyError_):
                crypto.unseal(sealed, key)
    assert b'"frogs":["A1"]' in crypto.unseal(sealed, keys.key("referee"))


def test_the_referee_cannot_read_a_note_but_age_opens_it_for_a_teammate(
    team_game: Callable[..., Path], cli: Cli, keys: Keys, seat_keys: dict[str, Path],
    tmp_path: Path,
) -> None:
    game = team_game()
    assert cli("note", game, "shoot near F6", "--key", seat_keys["black"]).exit_code == 0
    note = strictyaml.loads(game.read_bytes())["notes"][0]
    assert note["to"] == ["red", "black"]
    with pytest.raises(KeyError_):
        crypto.unseal(note["sealed"], keys.key("referee"))
    if shutil.which("age") is None:
        pytest.skip("age is not installed")
    sealed = tmp_path / "note.age"
    sealed.write_text(note["sealed"])
    opened = subprocess.run(["age", "-d", "-i", str(seat_keys["red"]), str(sealed)],
                            capture_output=True, check=True)
    assert json.loads(opened.stdout)["secret"] == "shoot near F6"
    refused = subprocess.run(["age", "-d", "-i", str(seat_keys["blue"]), str(sealed)],
                             capture_output=True)
    assert refused.returncode != 0


def test_shot_or_guess_at_a_teammates_frog_is_refused(
    team_game: Callable[..., Path], cli: Cli, seat_keys: dict[str, Path]
) -> None:
    game = team_game()
    before = game.read_bytes()
    for move in ("shoot A6", "guess A6"):
        result = cli("move", game, move, "--key", seat_keys["red"])
        assert result.exit_code == 4
        assert "A6 is not open: it holds your teammate black's frog" in result.stderr
    assert game.read_bytes() == before


def test_a_note_by_a_stranger_is_refused(team_game: Callable[..., Path], cli: Cli,
                                        keys: Keys, seat_keys: dict[str, Path]) -> None:
    game = team_game()
    before = game.read_bytes()
    result = cli("note", game, "hello", "--key", keys.path("mallory"))
    assert result.exit_code == 5
    assert "neither the referee nor a seat" in result.stderr
    assert game.read_bytes() == before
    # a note whose author is changed after signing is refused on load
    assert cli("note", game, "hello", "--key", seat_keys["red"]).exit_code == 0
    doc = strictyaml.loads(game.read_bytes())
    doc["notes"][0]["seat"] = "blue"
    game.write_text(strictyaml.dumps(doc))
    forged = cli("view", game, "--public")
    assert forged.exit_code == 6
    assert "note 1 (by blue): invalid signature by blue" in forged.stderr


def test_notes_travel_and_the_audit_checks_them_without_reading(
    team_game: Callable[..., Path], cli: Cli, keys: Keys, seat_keys: dict[str, Path],
    tmp_path: Path,
) -> None:
    game = team_game()
    copy = tmp_path / "red-copy.yaml"
    copy.write_bytes(game.read_bytes())
    assert cli("note", copy, "from red's own copy", "--key", seat_keys["red"]).exit_code == 0
    assert cli("move", copy, "shoot D4", "--key", seat_keys["red"]).exit_code == 0
    taken = cli("move", game, "--from", copy, "--key", keys.path("referee"))
    assert taken.exit_code == 0, taken.output
    assert len(strictyaml.loads(game.read_bytes())["notes"]) == 1
    for seat, move in MOVES[1:]:
        assert cli("move", game, move, "--key", seat_keys[seat]).exit_code == 0
        assert cli("move", game, "--key", keys.path("referee")).exit_code == 0
    # finish: red+black find both opposing frogs
    for seat, move in (("red", "guess F6"), ("black", "guess F1")):
        assert cli("move", game, move, "--key", seat_keys[seat]).exit_code == 0
        assert cli("move", game, "--key", keys.path("referee")).exit_code == 0
    report = audit(game, clock=here().clock)
    assert report.ok, report.text()
    assert any("1 team note: signed by their authors" in c.what for c in report.checks)
    assert strictyaml.loads(game.read_bytes())["reveal"]["outcome"]["standing"][0]["seat"] == \
        "red+black"


def test_without_teams_a_note_is_a_private_notebook(
    team_game: Callable[..., Path], cli: Cli, seat_keys: dict[str, Path]
) -> None:
    game = team_game(teams="")
    assert cli("note", game, "my plan", "--key", seat_keys["red"]).exit_code == 0
    assert strictyaml.loads(game.read_bytes())["notes"][0]["to"] == ["red"]
    assert [n["text"] for n in view(cli, game, seat_keys["red"])["notes"]] == ["my plan"]
    assert view(cli, game, seat_keys["black"])["notes"] == []
