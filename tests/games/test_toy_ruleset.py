"""A fifth game needs one rules module and its registration: a toy played through the CLI.

The toy lives in this module alone; nothing in frogpbem names it, and every command,
picture and list of games finds it through the registry."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from frogpbem import games
from frogpbem.board import Square
from frogpbem.errors import IllegalMoveError, NotationError, UsageError
from frogpbem.games import (
    JSON,
    Chance,
    OptionSpec,
    Outcome,
    Resign,
    Resigned,
    Ruleset,
    rank_by_points,
    register,
)
from tests.conftest import Cli, Keys


@dataclass(frozen=True)
class Take:
    """Claim an empty square of the 3x3 board."""

    square: Square

    def __str__(self) -> str:
        return f"take {self.square.name}"


@dataclass(frozen=True)
class Taken:
    def to_json(self) -> JSON:
        return {"taken": True}


@dataclass(frozen=True)
class ToyState:
    seats: tuple[str, ...]
    owners: Mapping[Square, str]
    ply: int = 0
    resigned: str | None = None


@dataclass(frozen=True)
class ToyView:
    rules: str
    to_move: str | None
    points: Mapping[str, int]
    owners: Mapping[str, str]
    outcome: Outcome | None = None

    def to_json(self) -> dict[str, JSON]:
        return {"to_move": self.to_move, "points": dict(self.points), "outcome": None,
                "owners": dict(self.owners)}

    def retold(self, termination: str) -> ToyView:
        return self


class Claim(Ruleset[ToyState, Take | Resign, Taken | Resigned, ToyView]):
    """Claim squares in turn; when the nine are taken, most squares wins."""

    name = "toyclaim"
    title = "Claim (a toy)"
    seat_order = ("red", "blue")
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("bonus", 0, "0..9", "points for nothing (a toy's option)"),
    )

    def deal(self, options: Mapping[str, Any], seats: Sequence[str],
             rng: Chance) -> tuple[JSON, dict[str, JSON]]:
        return None, {}

    def check_setup(self, options: Mapping[str, Any], seats: Sequence[str], public: JSON,
                    secrets: Mapping[str, JSON]) -> None:
        pass

    def start(self, options: Mapping[str, Any], seats: Sequence[str], public: JSON,
              secrets: Mapping[str, JSON | None]) -> ToyState:
        return ToyState(tuple(seats), {})

    def parse_move(self, text: str) -> Take | Resign:
        if text.strip().lower() == "resign":
            return Resign()
        match = re.fullmatch(r"\s*take\s+(\w+)\s*", text, re.I)
        if match is None:
            raise NotationError(f'expected "take SQUARE", got {text!r}')
        return Take(Square.parse(match[1]))

    def parse_result(self, data: JSON) -> Taken | Resigned:
        for result in (Taken(), Resigned()):
            if data == result.to_json():
                return result
        raise NotationError(f"not a toy result: {data!r}")

    def board_size(self, state: ToyState) -> int:
        return 3

    def squares_of(self, move: Take | Resign) -> tuple[Square, ...]:
        return (move.square,) if isinstance(move, Take) else ()

    def check_move(self, state: ToyState, seat: str, move: Take | Resign) -> None:
        if isinstance(move, Take) and move.square in state.owners:
            raise IllegalMoveError(f"{move.square.name} is taken")

    def apply(self, state: ToyState, seat: str, move: Take | Resign,
              claimed: Taken | Resigned | None) -> tuple[ToyState, Taken | Resigned]:
        if isinstance(move, Resign):
            return replace(state, resigned=seat), Resigned()
        owners = {**state.owners, move.square: seat}
        return replace(state, owners=owners, ply=state.ply + 1), Taken()

    def to_move(self, state: ToyState) -> str | None:
        if state.resigned or len(state.owners) == 9:
            return None
        return state.seats[state.ply % 2]

    def scores(self, state: ToyState) -> dict[str, int]:
        return {s: sum(1 for o in state.owners.values() if o == s) for s in state.seats}

    def outcome(self, state: ToyState) -> Outcome | None:
        if self.to_move(state) is not None:
            return None
        points = self.scores(state)
        if state.resigned:
            points = {s: (0 if s == state.resigned else 1) for s in state.seats}
        return Outcome("all taken" if not state.resigned else f"{state.resigned} resigned",
                       rank_by_points(points))

    def view(self, state: ToyState, viewers: frozenset[str]) -> ToyView:
        return ToyView(self.name, self.to_move(state), self.scores(state),
                       {sq.name: s for sq, s in state.owners.items()})

    def read_view(self, data: JSON) -> ToyView:
        return ToyView(self.name, data["to_move"], data["points"], data["owners"])

    def render(self, view: ToyView, you: frozenset[str] = frozenset()) -> str:
        return " ".join(f"{sq}:{owner}" for sq, owner in sorted(view.owners.items()))

    def describe(self, seat: str, move: str, result: Taken | Resigned) -> str:
        return f"{seat} {move}"


def test_a_toy_ruleset_plays_through_new_move_view_and_audit(
    tmp_path: Path, cli: Cli, keys: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games, "_REGISTERED", dict(games._REGISTERED))  # forget it afterwards
    register(Claim())
    game = tmp_path / "toy.yaml"
    created = cli("new", game, "--rules", "toyclaim", "--referee", keys.path("referee"),
                  "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}")
    assert created.exit_code == 0, created.output
    squares = [f"{c}{r}" for r in (1, 2, 3) for c in "ABC"]
    random.Random(7).shuffle(squares)
    players = {"red": "alice", "blue": "bob"}
    for index, square in enumerate(squares):
        seat = ("red", "blue")[index % 2]
        asked = cli("move", game, "take", square.lower(), "--key", keys.path(players[seat]))
        assert asked.exit_code == 0, asked.output
        applied = cli("move", game, "--key", keys.path("referee"))
        assert applied.exit_code == 0, applied.output
        if index == 0:
            again = cli("move", game, "take", square, "--key", keys.path("bob"))
            assert again.exit_code == 4 and f"{square} is taken" in again.stderr
    shown = json.loads(cli("view", game, "--public", "--json").stdout)
    assert len(shown["state"]["owners"]) == 9
    assert shown["state"]["points"] == {"red": 5, "blue": 4}
    text = cli("view", game, "--key", keys.path("alice")).stdout
    assert "Game over: all taken. Standing: 1. red (Red) 5, 2. blue (Blue) 4" in text
    audited = cli("audit", game)
    assert audited.exit_code == 0, audited.output
    assert "replay: every result, score and turn of 9 records" in audited.stdout


FROGPBEM = Path(__file__).resolve().parents[2] / "frogpbem"


def test_nothing_in_frogpbem_names_the_toy() -> None:
    named = [path for path in FROGPBEM.rglob("*") if path.is_file()
             and b"toyclaim" in path.read_bytes().lower()]
    assert named == []


def test_the_registry_lists_the_toy_with_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "_REGISTERED", dict(games._REGISTERED))
    assert "toyclaim" not in games.known_games()
    toy = register(Claim())
    assert games.find_game("toyclaim") is toy
    assert "toyclaim" in games.known_games() and games.listed_games()[-1] == "toyclaim"
    assert toy.option_defaults == {"bonus": 0}
    assert toy.option_help == "bonus=0..9 (0)"


def test_an_unknown_game_is_refused_with_the_list_of_known_ones() -> None:
    with pytest.raises(UsageError, match=r"unknown rules 'chess' \(known: coan, frogfinder, "
                                         r"froglet, secretmove\)"):
        games.find_game("chess")


def test_a_ruleset_may_not_take_the_name_of_a_game_that_comes_with_frogpbem() -> None:
    """Registering under ``frogfinder`` would change the rules every Frog Finder file is
    checked with, in the whole process."""
    impostor = Claim()
    impostor.name = "frogfinder"  # type: ignore[misc]
    with pytest.raises(UsageError, match="'frogfinder' come with frogpbem"):
        register(impostor)
    assert games.find_game("frogfinder").title == "Frog Finder"


def test_a_game_without_a_picture_of_its_own_is_drawn_as_its_text_board(
    tmp_path: Path, cli: Cli, keys: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games, "_REGISTERED", dict(games._REGISTERED))
    register(Claim())
    game = tmp_path / "toy.yaml"
    created = cli("new", game, "--rules", "toyclaim", "--referee", keys.path("referee"),
                  "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}")
    assert created.exit_code == 0, created.output
    for seat, square in (("alice", "b2"), ("bob", "c3")):
        assert cli("move", game, f"take {square}", "--key", keys.path(seat)).exit_code == 0
        assert cli("move", game, "--key", keys.path("referee")).exit_code == 0
    drawn = cli("view", game, "--public", "--format", "svg")
    assert drawn.exit_code == 0, drawn.output
    assert "Claim (a toy) board" in drawn.stdout
    assert ">B2:red C3:blue</text>" in drawn.stdout
    page = cli("view", game, "--public", "--format", "html")
    assert page.exit_code == 0 and ">B2:red C3:blue</text>" in page.stdout


def test_new_help_lists_the_toy_and_its_options(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The help of ``new`` is read from the registry when it is shown."""
    monkeypatch.setattr(games, "_REGISTERED", dict(games._REGISTERED))
    register(Claim())
    shown = cli("new", "--help")
    assert shown.exit_code == 0, shown.output
    words = " ".join(shown.stdout.split())
    assert "toyclaim" in words
    assert "bonus=0..9 (0)" in words
