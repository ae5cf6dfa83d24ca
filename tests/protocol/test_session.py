"""One session: its folders hold every store, its clock dates everything, and two sessions
share no cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from frogpbem.dealing import SeatSpec, create_game, start_game
from frogpbem.gamefile.model import ChosenSetup
from frogpbem.protocol.game import REFEREE, known_secrets, load, replay
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import Clock
from frogpbem.referee import Applied, move
from tests.conftest import SETUP, Keys

NOW = "2026-12-01T09:30:00Z"


def started(keys: Keys, folder: Path, session: Session) -> Path:
    """A game created and started in ``session``, in ``folder``."""
    specs = [SeatSpec("red", keys.key("alice").public, "Alice"),
             SeatSpec("blue", keys.key("bob").public, "Bob")]
    file = create_game("frogfinder", keys.key("referee"), "Carol", specs,
                       {"size": 6, "frogs": 2}, ChosenSetup.from_json(SETUP),
                       created=session.clock.text())
    game = folder / "game.yaml"
    start_game(game, file, keys.key("referee"), session)
    return game


def test_a_sessions_stores_land_in_its_folders_and_its_clock_dates_everything(
        keys: Keys, tmp_path: Path) -> None:
    home, state = tmp_path / "home", tmp_path / "state"
    clock = Clock(NOW)
    session = Session(home=home, state=state, clock=clock)
    assert session.clock is clock
    game = started(keys, tmp_path, session)
    assert (state / "heads").is_dir()  # the referee's memory of what it signed
    referee = keys.key("referee")
    played = move(game, referee, "shoot C3", session=session)
    assert isinstance(played, Applied) and played.lines == ["red shoots C3: 1"]
    loaded = load(game, session)
    assert loaded.header.created == NOW and loaded.file.log[-1].at == NOW
    assert (home / "verified" / f"{loaded.game_id}.json").exists()
    session.seen.see(loaded)
    seen = json.loads((home / "seen" / f"{loaded.game_id}.json").read_text())
    assert set(seen["first_seen"]) == {NOW}  # this tool's readings: the session's clock
    replay(loaded, known_secrets(loaded, REFEREE, referee), referee, keeper=referee)
    session.finish()  # the replay the referee made, kept for the next command
    assert list((state / "replays").iterdir())
    assert not (tmp_path / "elsewhere").exists()


def test_two_sessions_share_no_cache(keys: Keys, tmp_path: Path) -> None:
    one = Session(tmp_path / "home", tmp_path / "state", Clock(NOW))
    game = started(keys, tmp_path, one)
    other = Session(tmp_path / "home", tmp_path / "state", Clock(NOW))
    referee = keys.key("referee")
    loaded = load(game, one)
    replay(loaded, known_secrets(loaded, REFEREE, referee), referee)
    one.seen.see(loaded)
    assert one.replays.made and one.seen.known
    assert not other.replays.made and not other.seen.known
    again = load(game, other)
    assert again.stores is other and loaded.stores is one


def test_the_session_of_the_environment_reads_the_same_folders_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FROGPBEM_HOME", str(tmp_path / "h"))
    monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / "s"))
    session = Session.from_environment()
    assert (session.home, session.state) == (tmp_path / "h", tmp_path / "s")
    assert session.seen.folder == tmp_path / "h"
    assert session.verified.folder == tmp_path / "h" / "verified"
    assert session.memory.folder == tmp_path / "s"
    assert session.replays.folder == tmp_path / "s" / "replays"
    monkeypatch.delenv("FROGPBEM_HOME")
    monkeypatch.delenv("FROGPBEM_STATE")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xstate"))
    session = Session.from_environment()
    assert (session.home, session.state) == (tmp_path / "data" / "frogpbem",
                                             tmp_path / "xstate" / "frogpbem")
    given = Session.from_environment(home=tmp_path / "mine")
    assert given.home == tmp_path / "mine" and given.state == session.state


def test_the_clock_of_the_environment_reads_frogpbem_now_when_the_time_is_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Session.from_environment().clock
    monkeypatch.setenv("FROGPBEM_NOW", NOW)
    assert clock.text() == NOW
    monkeypatch.setenv("FROGPBEM_NOW", "2026-12-02T00:00:00Z")
    assert clock.text() == "2026-12-02T00:00:00Z"
    monkeypatch.delenv("FROGPBEM_NOW")
    assert clock.text() != NOW and Clock().text() >= "2026"  # the system's clock
    assert Clock(NOW).text() == NOW
