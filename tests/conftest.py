"""Shared fixtures: real keys, a CLI runner, small games with known setups."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from frogpbem import crypto
from frogpbem.cli import app
from frogpbem.gamefile import strictyaml
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import Clock

# A 6x6 board with 2 frogs each: small enough to reason about by hand.
SETUP = {"red": {"frogs": ["A1", "B2"]}, "blue": {"frogs": ["E5", "F6"]}}


@dataclass
class Keys:
    folder: Path

    def path(self, name: str) -> Path:
        return self.folder / name

    def pub(self, name: str) -> Path:
        return self.folder / f"{name}.pub"

    def key(self, name: str) -> crypto.PrivateKey:
        return crypto.load_private_key(self.path(name))


def here(state: Path | None = None, home: Path | None = None) -> Session:
    """The session of the environment a test set up: its temporary home and state (``home``
    and ``state`` when given), and ``$FROGPBEM_NOW`` when the test fixed it."""
    return Session.from_environment(home=home, state=state)


def now() -> str:
    """The time now, by the clock of :func:`here`."""
    return Clock.from_environment().text()


@pytest.fixture(scope="session")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Keys:
    folder = tmp_path_factory.mktemp("keys")
    for name in ("referee", "alice", "bob", "mallory"):
        crypto.generate_key(folder / name, f"{name}@example.org")
    return Keys(folder)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the real home, key or referee memory; each test reads files
    as a command of its own does."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / "state"))
    monkeypatch.setenv("FROGPBEM_HOME", str(tmp_path / "home"))
    for name in ("FROGPBEM_KEY", "FROGPBEM_PASSPHRASE", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


Cli = Callable[..., Result]


@pytest.fixture
def cli() -> Cli:
    runner = CliRunner()

    def run(*args: str | os.PathLike[str]) -> Result:
        result = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
        return Result(result.exit_code, result.stdout, result.stderr)

    return run


def write_setup(folder: Path, setup: dict[str, object] = SETUP) -> Path:
    path = folder / "setup.yaml"
    path.write_text(strictyaml.dumps(setup))
    return path


@pytest.fixture
def new_game(tmp_path: Path, keys: Keys, cli: Cli) -> Callable[..., Path]:
    """Create a game by the CLI; by default the small known setup."""

    def make(setup: dict[str, object] | None = SETUP, size: int = 6, frogs: int = 2,
             name: str = "game.yaml") -> Path:
        game = tmp_path / name
        args: list[str | Path] = [
            "new", game, "--referee", keys.path("referee"), "--referee-name", "Carol",
            "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
            "--name", "red=Alice", "--name", "blue=Bob",
            "--option", f"size={size}", "--option", f"frogs={frogs}",
        ]
        if setup is not None:
            args += ["--setup", write_setup(tmp_path, setup)]
        result = cli(*args)
        assert result.exit_code == 0, result.output
        return game

    return make


def play_moves(cli: Cli, keys: Keys, game: Path, moves: list[tuple[str, str]]) -> None:
    """Each (player, move): the player signs a request, then the referee applies it."""
    for player, move in moves:
        asked = cli("move", game, move, "--key", keys.path(player))
        assert asked.exit_code == 0, asked.output
        applied = cli("move", game, "--key", keys.path("referee"))
        assert applied.exit_code == 0, applied.output


@pytest.fixture
def play(cli: Cli, keys: Keys) -> Callable[..., Result]:
    """A seat signs a request, then the referee applies it."""

    def run(game: Path, player: str, move: str) -> Result:
        asked = cli("move", game, move, "--key", keys.path(player))
        assert asked.exit_code == 0, asked.output
        applied = cli("move", game, "--key", keys.path("referee"))
        assert applied.exit_code == 0, applied.output
        return applied

    return run


# Moves that finish the known-setup game: red finds both blue frogs.
FINISHING_MOVES = [
    ("alice", "shoot C3"),   # next to B2 (red): 1
    ("bob", "guess A2"),     # wrong: -3
    ("alice", "guess E5"),   # found: +5
    ("bob", "shoot B2"),     # red frog shot: bob -5, red +5
    ("alice", "guess F6"),   # found: +5, blue cleared; red +2 +1 bonus
]


@pytest.fixture
def finished_game(new_game: Callable[..., Path], play: Callable[..., Result]) -> Path:
    game = new_game()
    for player, move in FINISHING_MOVES:
        play(game, player, move)
    return game


DEMO_RULES = {"frogfinder": {"size": "5", "frogs": "2"}, "coan": {"size": "5", "frogs": "1"},
              "froglet": {"size": "4"}, "secretmove": {}}
"""Small boards: a finished game of each ruleset in a fraction of a second."""


@pytest.fixture(scope="session")
def finished_demos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished demonstration game of each ruleset (its views and keys beside it), made
    once for the session: tests copy what they change."""
    from frogpbem.demo import play_demo

    root = tmp_path_factory.mktemp("demos")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FROGPBEM_HOME", str(root / "home"))
        patch.setenv("FROGPBEM_STATE", str(root / "state"))
        return {rules: play_demo(root / rules, rules, seed=3, options=options, session=here()).game
                for rules, options in DEMO_RULES.items()}


def game_addressed(path: Path, keys: Keys, emails: dict[str, str], join: bool = False,
                   names: dict[str, str] | None = None) -> str:
    """The known two-seat game (or, with ``join``, one that waits for joins) whose header
    gives the seats ``emails`` (and ``names``) as they are, as a hostile referee's tool, or
    a frogpbem from before ``new`` checked them, signs them; written to ``path`` and
    remembered as ``new`` does. Its id."""
    from frogpbem.dealing import SeatSpec, create_game, start_game
    from frogpbem.gamefile.model import ChosenSetup

    referee = keys.key("referee")
    seats = [SeatSpec(seat, keys.key(player).public,
                      (names or {}).get(seat, player.capitalize()), emails.get(seat))
             for seat, player in (("red", "alice"), ("blue", "bob"))]
    file = create_game("frogfinder", referee, "Judge", seats, {"size": 6, "frogs": 2},
                       None if join else ChosenSetup.from_json(SETUP), join=join, created=now())
    start_game(path, file, referee, here())
    return file.game
