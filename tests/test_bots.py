"""Bots, hints, local games: legal at every strength, stronger where they say so, and a
hint drawn from the seat's view alone."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from frogpbem.games import STRENGTHS, find_game
from frogpbem.simulate import play_local, simulate, wilson
from tests.conftest import Cli, Keys, Result, here

SEATS = {"frogfinder": 2, "coan": 4, "froglet": 2, "secretmove": 2}


@pytest.mark.parametrize("rules", sorted(SEATS))
@pytest.mark.parametrize("strength", STRENGTHS)
def test_every_bot_plays_legal_moves_to_the_end(rules: str, strength: str) -> None:
    ruleset = find_game(rules)
    options = ruleset.options({"size": 8} if rules in ("frogfinder", "coan", "froglet") else {})
    seats = ruleset.seats(options, SEATS[rules])
    for seed in range(1 if strength == "expert" else 3):  # the expert's own tests play more
        moves: list[str] = []
        # rules.play refuses an illegal move: a whole game is a whole game of legal moves
        outcome, points = play_local(ruleset, options, seats, dict.fromkeys(seats, strength),
                                     random.Random(seed), moves)
        assert moves and outcome.standing and set(points) <= set(seats) | {"red", "blue"}


@pytest.mark.no_cover  # CPU-heavy; every package line it runs, other tests cover too
def test_the_strong_frog_finder_bot_beats_the_weaker_ones() -> None:
    """A small run of what bench/bench_bots.py measures over thousands of games."""
    small = {"size": "8"}  # 8x8, 5 frogs a seat: a fifth of the default game's work
    random_games = simulate("frogfinder", 20, ["strong", "random"], seed=100, swap=True,
                            options=small)
    assert random_games.bot_wins.get("strong", 0) >= 19
    greedy_games = simulate("frogfinder", 40, ["strong", "greedy"], seed=100, swap=True,
                            options=small)
    assert greedy_games.bot_wins.get("strong", 0) > 26  # more than 65 %


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    # the interval always holds the share itself (rounding once put 1.0 above it)
    assert all(wilson(w, n)[0] <= w / n <= wilson(w, n)[1]
               for n in range(1, 300) for w in range(n + 1))


def test_simulate_prints_a_table_and_writes_only_when_asked(cli: Cli, tmp_path: Path) -> None:
    shown = cli("simulate", "--games", "6", "--bots", "strong,greedy", "--swap", "--json")
    assert shown.exit_code == 0, shown.output
    tally = json.loads(shown.stdout)
    assert tally["games"] == 6
    assert sum(w["games"] for w in tally["wins"].values()) + tally["draws"]["games"] == 6
    assert sum(w["games"] for w in tally["bot_wins"].values()) == 6 - tally["draws"]["games"]
    before = set(tmp_path.iterdir())
    text = cli("simulate", "--rules", "froglet", "--games", "2", "--option", "size=6")
    assert text.exit_code == 0 and "white wins" in text.stdout and "95 % interval" in text.stdout
    assert set(tmp_path.iterdir()) == before
    folder = tmp_path / "records"
    saved = cli("simulate", "--rules", "secretmove", "--games", "2", "--records", folder)
    assert saved.exit_code == 0 and len(list(folder.glob("game-*.txt"))) == 2
    for wrong in (["--bots", "clever"], ["--bots", "strong,greedy,random"], ["--rules", "go"]):
        assert cli("simulate", "--games", "1", *wrong).exit_code == 2


def test_play_on_a_terminal_against_a_bot(cli_input: Callable[..., Result]) -> None:
    moves = "\n".join(["shoot A1", "shoot Z99", "guess", *[f"shoot {c}{r}" for r in range(1, 7)
                                                       for c in "ABCDEF"]]) + "\n"
    shown = cli_input(moves, "play", "--seed", "4", "--option", "size=6", "--option",
                      "frogs=1", "--vs", "greedy")
    assert shown.exit_code == 0, shown.output
    assert "you are red" in shown.stdout
    assert "red shoots A1" in shown.stdout and "blue shoots" in shown.stdout
    assert "off the board" in shown.stdout  # a wrong move is refused, then asked again
    assert "Game over" in shown.stdout or "You leave the game" in shown.stdout
    left = cli_input("quit\n", "play", "--rules", "secretmove", "--seat", "blue")
    assert left.exit_code == 0 and "You leave the game" in left.stdout
    assert cli_input("", "play", "--seat", "green").exit_code == 2


@pytest.fixture
def cli_input() -> Callable[..., Result]:
    from typer.testing import CliRunner

    from frogpbem.cli import app

    def run(text: str, *args: str) -> Result:
        result = CliRunner().invoke(app, list(args), input=text, catch_exceptions=False)
        return Result(result.exit_code, result.stdout, result.stderr)

    return run


def test_hint_in_every_form_and_only_for_a_seat(
    new_game: Callable[..., Path], play: Callable[..., Any], cli: Cli, keys: Keys
) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    as_json = cli("hint", game, "--key", keys.path("bob"), "--json")
    assert as_json.exit_code == 0, as_json.output
    odds = json.loads(as_json.stdout)["probabilities"]
    assert set(odds) == {f"{c}{r}" for c in "ABCDEF" for r in range(1, 7)} - {"C3", "E5", "F6"}
    assert sum(odds.values()) == pytest.approx(2.0)  # red's two frogs are somewhere
    text = cli("hint", game, "--key", keys.path("bob"))
    assert text.exit_code == 0 and "in percent" in text.stdout
    svg = cli("hint", game, "--key", keys.path("bob"), "--format", "svg")
    assert svg.exit_code == 0 and svg.stdout.count("#e53935") >= len(odds)
    for refused in (["--key", keys.path("referee")], ["--key", keys.path("mallory")],
                    ["--key", keys.path("bob"), "--format", "pdf"]):
        assert cli("hint", game, *refused).exit_code in (2, 5), refused


def test_a_hint_is_the_same_for_two_setups_that_differ_in_the_other_seat(
    cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_pictures import two_setups_game
    from tests.test_views import SETUP_A, SETUP_B

    shown = []
    for label, setup in (("a", SETUP_A), ("b", SETUP_B)):
        game = two_setups_game(cli, keys, tmp_path / label, setup, monkeypatch)
        outputs = [cli("hint", game, "--key", keys.path("bob"), *fmt).stdout
                   for fmt in ([], ["--json"], ["--format", "svg"], ["--format", "html"])]
        shown.append(outputs)
    assert shown[0] == shown[1]  # byte for byte: bob's hint knows nothing of red's frogs
    assert json.loads(shown[0][1])["hidden"] == 1  # red found one of them: A1


@pytest.mark.parametrize("rules", ["froglet", "secretmove"])
def test_hints_of_the_other_games(rules: str, cli: Cli, tmp_path: Path) -> None:
    from frogpbem.demo import play_demo

    result = play_demo(tmp_path / rules, rules, seed=2, moves=4, session=here())
    shown = cli("hint", result.game, "--key", tmp_path / rules / "bob", "--json")
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    if rules == "froglet":
        from frogpbem.board import Board, Square
        from frogpbem.games.froglet import jump_paths

        view = json.loads(cli("view", result.game, "--public", "--json").stdout)["state"]
        size = view["size"]
        frogs = {Square(col, size - 1 - i): c for i, row in enumerate(view["rows"])
                 for col, c in enumerate(row) if c != "."}
        legal = {"-".join(s.name for s in path): points
                 for path, points in jump_paths(Board(size), frogs)}
        assert data["best_now"][0]["points"] == max(legal.values())
        for jump in data["best_now"] + data["searched"]:
            assert legal[jump["move"]] == jump["points"]
        nets = [j["net"] for j in data["searched"]]
        assert nets == sorted(nets, reverse=True)
    else:
        assert 1 <= data["grids_left"] <= 648
        for chances in data["values"].values():
            assert sum(chances.values()) == pytest.approx(1.0)
    assert cli("hint", result.game, "--key", tmp_path / rules / "bob").exit_code == 0
    picture = cli("hint", result.game, "--key", tmp_path / rules / "bob", "--format", "svg")
    if rules == "froglet":
        assert picture.exit_code == 2  # no heat map for jumps
    else:  # the likeliest value of each of red's squares, and how sure it is
        assert picture.exit_code == 0, picture.output
        for square, chances in data["values"].items():
            value, chance = max(chances.items(), key=lambda item: (item[1], -int(item[0])))
            assert f">{value}: {round(100 * chance)}%<" in picture.stdout, square
