"""Froglet: jump paths (vectors), refusals with reasons, a whole game by the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from frogpbem.audit import audit
from frogpbem.errors import IllegalMoveError, NotationError
from frogpbem.gamefile import strictyaml
from frogpbem.games import find_game
from frogpbem.games.froglet import Froglet, State, counts_for, legal_paths, parse_move
from tests.conftest import Cli, Keys, here, write_setup

RULES: Froglet = find_game("froglet")  # type: ignore[assignment]
VECTORS = strictyaml.loads((Path(__file__).parent / "froglet_vectors.yaml").read_bytes())


def position(rows: list[str], ply: int = 1) -> State:
    state = RULES.start({"size": len(rows)}, ("white", "black"), {"rows": rows}, {})
    return State(**{**state.__dict__, "ply": ply})


@pytest.mark.parametrize("case", VECTORS, ids=[c["name"] for c in VECTORS])
def test_legal_paths(case: dict[str, Any]) -> None:
    found = {"-".join(s.name for s in path): points
             for path, points in legal_paths(position(case["rows"]))}
    assert found == dict(case["paths"])
    assert len(legal_paths(position(case["rows"]))) == len(case["paths"])
    # every listed path is playable and scores what it says
    for path, points in case["paths"]:
        seat = RULES.to_move(position(case["rows"]))
        _, result = RULES.play(position(case["rows"]), seat, parse_move(path))  # type: ignore[arg-type]
        assert result.to_json()["points"] == points


CROSS = [".....", "..G..", ".YB..", "..G..", "....."]


@pytest.mark.parametrize(("path", "reason"), [
    ("C3-D4", "C3-D4: a hop goes straight along a row or a column"),
    ("C3-C6", "square C6 is off the board (A1..E5)"),
    ("C3-E3", "C3-E3: no frog on D3 to jump over"),
    ("C3-C4", "C3-C4: a hop must land two squares away"),
    ("C3-C2", "C3-C2: a hop must land two squares away"),
    ("B3-E3", "B3-E3: a hop must land two squares away"),
    ("A1-A3", "A1-A3: no frog on A1"),
    ("C4-C2", "C4-C2: C2 is not empty"),
    ("C3-C5-C3", "C5-C3: no frog on C4 to jump over"),
    ("remove C4", "only the first move removes a frog"),
])
def test_illegal_paths_are_refused_with_their_reason(path: str, reason: str) -> None:
    state = position(CROSS)
    with pytest.raises(IllegalMoveError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        RULES.play(state, "black", parse_move(path))


def test_the_first_move_removes_a_green_frog() -> None:
    board = ["GY", "RB"]
    start = position(board, ply=0)
    with pytest.raises(IllegalMoveError, match="the first move removes a green frog"):
        RULES.play(start, "white", parse_move("A1-B1"))
    with pytest.raises(IllegalMoveError, match="B2 holds a yellow frog: the first move removes"):
        RULES.play(start, "white", parse_move("remove B2"))
    with pytest.raises(IllegalMoveError, match="it is white's turn"):
        RULES.play(start, "black", parse_move("remove A2"))
    after, result = RULES.play(start, "white", parse_move("remove a2"))
    assert result.to_json() == {"removed": "G"}
    # on 2x2 nothing can ever jump: the game ends at once, a 0-0 draw
    assert RULES.outcome(after).termination == "no jump is left"  # type: ignore[union-attr]
    assert RULES.outcome(after).is_draw  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["C3-", "C3--C5", "C3 C5", "remove", "jump C3-C5", "C3",
                                  "C3-C5-", "remove Z0"])
def test_notation_errors(text: str) -> None:
    with pytest.raises(NotationError, match='expected "remove SQUARE", a jump path'):
        parse_move(text)


@pytest.mark.parametrize(("text", "canonical"), [
    ("c3-c5", "C3-C5"), (" C3 - C5 - E5 ", "C3-C5-E5"), ("REMOVE b2", "remove B2"),
    ("resign", "resign"),
])
def test_notation_round_trip(text: str, canonical: str) -> None:
    assert str(parse_move(text)) == canonical
    assert str(parse_move(canonical)) == canonical


def test_counts_on_12x12_are_brainkings() -> None:
    assert counts_for(12) == {"G": 66, "Y": 51, "R": 21, "B": 6}
    assert sum(counts_for(7).values()) == 49


BOARD_4 = ["GYRB", "GGGG", "YGGR", "GGGY"]


def test_a_game_through_the_cli_and_the_audit(tmp_path: Path, cli: Cli, keys: Keys) -> None:
    game = tmp_path / "froglet.yaml"
    created = cli("new", game, "--rules", "froglet", "--referee", keys.path("referee"),
                  "--seat", f"white={keys.pub('alice')}", "--seat", f"black={keys.pub('bob')}",
                  "--option", "size=4", "--setup", write_setup(tmp_path, {"public":
                                                                          {"rows": BOARD_4}}))
    assert created.exit_code == 0, created.output
    before = game.read_bytes()
    refused = cli("move", game, "remove B4", "--key", keys.path("alice"))
    assert refused.exit_code == 4
    assert "B4 holds a yellow frog" in refused.stderr
    assert game.read_bytes() == before
    for player, move, line in [
        ("alice", "remove A1", "white removes A1 (green)"),
        ("bob", "A3-A1", "black jumps A3-A1: yellow (+2)"),
        ("alice", "C2-A2", "white jumps C2-A2: green (+1)"),
    ]:
        assert cli("move", game, move, "--key", keys.path(player)).exit_code == 0
        applied = cli("move", game, "--key", keys.path("referee"))
        assert applied.stdout.strip() == line, applied.output
    shown = json.loads(cli("view", game, "--public", "--json").stdout)["state"]
    assert shown["rows"] == ["GYRB", ".GGG", "G..R", "GGGY"]
    assert shown["points"] == {"white": 1, "black": 2}
    assert cli("move", game, "resign", "--key", keys.path("bob")).exit_code == 0
    assert cli("move", game, "--key", keys.path("referee")).exit_code == 0
    report = audit(game, clock=here().clock)
    assert report.ok, report.text()
    assert "1-0" in cli("record", game).stdout


def test_demo_plays_froglet(tmp_path: Path, cli: Cli) -> None:
    result = cli("demo", tmp_path / "d", "--rules", "froglet", "--option", "size=6", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "verdict: everything holds" in result.stdout
    assert "deal: re-derived" in result.stdout
    doc = strictyaml.loads((tmp_path / "d" / "game.yaml").read_bytes())
    assert doc["header"]["setup"]["sealed"] == {} and doc["deal"]["seed"] is not None


def test_views_show_the_board_to_everyone(new_game: Callable[..., Path]) -> None:
    view = RULES.view(position(CROSS), frozenset())
    assert list(view.rows) == CROSS
    text = RULES.render(view)
    assert "G green 1" in text and " B " in text
