"""What the command-line tests of games without a referee share: two seats, each a player
with a folder, a home and a state of its own, and the mail between them (a copy of the
file)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import Cli, Keys, Result

Run = Callable[..., Result]
"""A command run as a seat (see :func:`as_seat`)."""


@dataclass
class Seat:
    """A seat's name, its player (whose key it holds) and the folder of its copy."""

    name: str
    player: str
    folder: Path

    @property
    def game(self) -> Path:
        return self.folder / "game.yaml"


def two_seats(tmp_path: Path, first: str, second: str) -> tuple[Seat, Seat]:
    """``first`` played by alice and ``second`` by bob, each with a folder of its own."""
    pair = Seat(first, "alice", tmp_path / "alice"), Seat(second, "bob", tmp_path / "bob")
    for seat in pair:
        seat.folder.mkdir()
    return pair


def mail(sender: Seat, receiver: Seat) -> None:
    """The sender's copy becomes the receiver's, as a mail would carry it."""
    shutil.copyfile(sender.game, receiver.game)


@pytest.fixture
def as_seat(cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run a command as a seat's player: its own home and state, and its key unless
    ``key=False``."""

    def run(seat: Seat, *args: str | Path, key: bool = True) -> Result:
        monkeypatch.setenv("FROGPBEM_HOME", str(tmp_path / f"home-{seat.player}"))
        monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / f"state-{seat.player}"))
        extra: tuple[str | Path, ...] = ("--key", keys.path(seat.player)) if key else ()
        return cli(*args, *extra)

    return run
