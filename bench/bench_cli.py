"""Benchmark the commands a referee and a player run, against the bare import floor.

Run by hand (``./run bench``); prints, from one run, the best wall time and
the median CPU time (user + system) of each command over ROUNDS runs, each as
a ratio to the same figure for ``python -c "import typer, yaml, pyrage,
cryptography, rfc8785"`` (the dependencies' import alone). Start-up dominates
every command; on a shared machine the best wall time and the CPU time are
the steadiest figures. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from frogpbem import crypto
from frogpbem.dealing import SeatSpec, create_game, start_game
from frogpbem.gamefile.model import ChosenSetup
from frogpbem.protocol.game import REFEREE, known_secrets, load, replay
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import Clock
from frogpbem.referee import move

ROUNDS = 20
RECORDS = 100
FLOOR = "import typer, yaml, pyrage, rfc8785, cryptography.hazmat.primitives.serialization"
FROGPBEM = [sys.executable, "-m", "frogpbem"]
# Byte-code caching as on a user's machine (some sandboxes switch it off).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], setup: Callable[[], None] | None = None) -> tuple[float, float]:
    """Best wall time and median CPU time (user + system) of ``command``.

    ``setup`` runs before each run. CPU time is steadier than wall time on a
    shared machine; both are printed.
    """
    times = []
    cpu = []
    if setup:
        setup()
    subprocess.run(command, capture_output=True, env=ENV)  # warm the byte-code caches
    for _ in range(ROUNDS):
        if setup:
            setup()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=ENV)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(times), statistics.median(cpu)


def build_game(folder: Path) -> tuple[Path, dict[str, Path]]:
    """A 20x20 game of RECORDS shots at empty squares, made through the library."""
    keys = {name: folder / name for name in ("referee", "alice", "bob")}
    for name, path in keys.items():
        crypto.generate_key(path, name)
    referee = crypto.load_private_key(keys["referee"])
    specs = [SeatSpec("red", crypto.load_private_key(keys["alice"]).public, "Alice"),
             SeatSpec("blue", crypto.load_private_key(keys["bob"]).public, "Bob")]
    setup = {"red": {"frogs": ["A1", "A2", "A3", "A4", "A5"]},
             "blue": {"frogs": ["T20", "T19", "T18", "T17", "T16"]}}
    game = folder / "game.yaml"
    file = create_game("frogfinder", referee, "Carol", specs, {"size": 20, "frogs": 5},
                       ChosenSetup.from_json(setup), created=Clock.from_environment().text())
    start_game(game, file, referee, Session.from_environment(state=folder / "state"))
    targets = [f"{chr(ord('C') + c)}{r}" for r in range(3, 18) for c in range(15)]
    players = [crypto.load_private_key(keys["alice"]), crypto.load_private_key(keys["bob"])]
    player = Session.from_environment(home=folder / "build-home")
    for index, target in enumerate(targets[:RECORDS]):  # each a seat's request, then applied
        move(game, players[index % 2], f"shoot {target}", session=player)
        move(game, referee, session=Session.from_environment(state=folder / "state"))
    loaded = load(game, Session.from_environment())
    assert len(loaded.file.log) == RECORDS
    replay(loaded, known_secrets(loaded, REFEREE, referee))
    return game, keys


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ENV["FROGPBEM_STATE"] = str(folder / "state")
        ENV["FROGPBEM_HOME"] = str(folder / "home")  # the player's memory of copies seen
        game, keys = build_game(folder)
        pristine = folder / "pristine.yaml"
        shutil.copy(game, pristine)
        # the referee's memory of what it signed, as it stands after record 100
        shutil.copytree(folder / "state", folder / "pristine-state")
        finished = folder / "finished.yaml"
        shutil.copy(game, finished)
        referee = crypto.load_private_key(keys["referee"])
        move(finished, crypto.load_private_key(keys["bob"]), "resign",
             session=Session.from_environment(home=folder / "build-home"))
        move(finished, referee, session=Session.from_environment(state=folder / "state2"))
        env_state = ["--key", str(keys["referee"])]

        def restore() -> None:
            shutil.copy(pristine, game)
            shutil.rmtree(folder / "state", ignore_errors=True)
            shutil.copytree(folder / "pristine-state", folder / "state")
            shutil.rmtree(folder / "home", ignore_errors=True)  # the seat has seen nothing yet

        def restore_without_memory() -> None:
            shutil.copy(pristine, game)
            shutil.rmtree(folder / "state", ignore_errors=True)

        floor = timed([sys.executable, "-c", FLOOR])
        results = {
            f"referee move on a {RECORDS}-record game": timed(
                [*FROGPBEM, "move", str(game), "shoot R19", *env_state], restore),
            "  the same, referee memory lost (all verified)": timed(
                [*FROGPBEM, "move", str(game), "shoot R19", *env_state], restore_without_memory),
            f"player request on a {RECORDS}-record game": timed(
                [*FROGPBEM, "move", str(game), "shoot R19", "--key", str(keys["alice"])], restore),
            "view (seat's text board)": timed(
                [*FROGPBEM, "view", str(pristine), "--key", str(keys["alice"])]),
            f"audit of a finished {RECORDS + 1}-record game": timed(
                [*FROGPBEM, "audit", str(finished)]),
        }
        print(f"floor (bare import of the dependencies): best wall {floor[0] * 1000:.0f} ms, "
              f"median CPU {floor[1] * 1000:.0f} ms ({ROUNDS} runs each)")
        for name, (best, cpu) in results.items():
            print(f"{name:<47} wall {best * 1000:4.0f} ms = {best / floor[0]:4.2f}x floor"
                  f"   CPU {cpu * 1000:4.0f} ms = {cpu / floor[1]:4.2f}x floor")


if __name__ == "__main__":
    main()
