"""SIGKILL at any point, and several referees' processes at once, never fork or lose a game.

A ``move`` or ``deal`` is killed at every file-system step it takes (and at
spread-out moments from outside, for at least 50 runs each); afterwards the
game file and the referee's memory must agree: the memory is never behind
the file, and when it is ahead the signed copy it kept extends the file.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from frogpbem.gamefile.document import read_game
from frogpbem.protocol.game import load
from tests.conftest import Cli, Keys, here
from tests.crash_wrapper import Forks
from tests.test_attacks import joined_game

ROOT = Path(__file__).resolve().parent.parent
RUNS = 50


@pytest.fixture(scope="module")
def forks() -> Iterator[Forks]:
    """Each command of these tests in a child forked from a process that imported the CLI
    once (the commands are otherwise mostly imports)."""
    started = Forks()
    yield started
    started.close()


def run(forks: Forks, args: list[str], env: dict[str, str], crash_at: int = 0,
        count: Path | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env, "CRASH_AT": str(crash_at),
            "CRASH_COUNT": str(count) if count else ""}
    return forks.run(args, full)


def killed_after(forks: Forks, args: list[str], env: dict[str, str], delay: float) -> None:
    full = {**os.environ, **env, "CRASH_AT": "0", "CRASH_COUNT": ""}
    forks.start(args, full)
    time.sleep(delay)
    forks.wait(kill=True)


def consistent(game: Path, state: Path, before: int) -> str:
    """Check the game file against the referee's memory; say which state it is in."""
    file = load(game, here()).file  # the game file is whole and its chain checks
    assert len(file.log) in (before, before + 1) or file.deal is not None
    memory_path = state / "heads" / f"{file.game}.json"
    memory = json.loads(memory_path.read_text())
    kept = read_game(memory_path.with_suffix(".yaml"))
    if memory["head"] != kept.head:  # killed between the kept copy and the memory:
        assert len(kept.log) == memory["n"] + 1 or (kept.deal and not memory["n"])
        assert memory["head"] == file.head  # the memory and the file still agree
        return "copy ahead"  # the copy was never sent; the next move signs afresh
    assert memory["n"] == len(kept.log)
    assert memory["n"] >= len(file.log), "the memory is behind the file"
    if memory["head"] == file.head:
        return "both written" if len(file.log) > before or file.deal else "neither written"
    # the memory is ahead: the file is a prefix of the copy it kept (nothing lost)
    assert [r.hash for r in kept.log[:len(file.log)]] == [r.hash for r in file.log]
    assert file.deal is None or kept.deal == file.deal
    return "memory ahead"


def crash_runs(forks: Forks, tmp_path: Path, template: Path,
               args: Callable[[Path], list[str]], before: int) -> dict[str, int]:
    """Kill ``args`` at every step, then at spread-out moments: RUNS runs at least."""
    outcomes: dict[str, int] = {}
    probe = tmp_path / "probe"
    shutil.copytree(template, probe)
    count = tmp_path / "count"
    started = time.monotonic()
    done = run(forks, args(probe), {"FROGPBEM_STATE": str(probe / "state")}, 0, count)
    duration = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    steps = int(count.read_text())
    plan = [("step", k) for k in range(1, steps + 1)]
    plan += [("time", i) for i in range(max(RUNS - len(plan), 10))]
    for index, (how, point) in enumerate(plan):
        folder = tmp_path / f"run{index}"
        shutil.copytree(template, folder)
        env = {"FROGPBEM_STATE": str(folder / "state")}
        if how == "step":
            result = run(forks, args(folder), env, point)
            assert result.returncode in (0, -signal.SIGKILL), result.stderr
        else:
            killed_after(forks, args(folder), env, duration * point / (len(plan) - steps))
        state = consistent(folder / "game.yaml", folder / "state", before)
        outcomes[state] = outcomes.get(state, 0) + 1
        again = run(forks, args(folder), env)  # and the referee's next try
        if state == "memory ahead":
            assert again.returncode == 8 and "is kept in" in again.stderr, again.stderr
        else:
            assert again.returncode in (0, 2, 4), again.stderr
        shutil.rmtree(folder)
    assert sum(outcomes.values()) >= RUNS
    print(f"\n{' '.join(args(template)[:1])}: {len(plan)} kills ({steps} at each file-system "
          f"step, {len(plan) - steps} timed): {outcomes}", file=sys.__stderr__)
    return outcomes


@pytest.fixture
def pending(new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path) -> Path:
    """A game folder whose file holds red's request, and the referee's memory."""
    game = new_game()
    assert cli("move", game, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    template = tmp_path / "template"
    template.mkdir()
    shutil.copy(game, template / "game.yaml")
    shutil.copytree(tmp_path / "state", template / "state")
    return template


def test_move_killed_at_any_point_leaves_file_and_memory_consistent(
    forks: Forks, pending: Path, keys: Keys, tmp_path: Path
) -> None:
    outcomes = crash_runs(forks, tmp_path / "runs", pending,
                          lambda f: ["move", str(f / "game.yaml"), "--key",
                                     str(keys.path("referee"))], 0)
    assert outcomes.get("memory ahead", 0) >= 1  # a kill between the two writes was tried
    assert outcomes.get("neither written", 0) >= 1


def test_deal_killed_at_any_point_leaves_file_and_memory_consistent(
    forks: Forks, cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    template = tmp_path / "template"
    template.mkdir()
    joined_game(cli, keys, template / "game.yaml")
    shutil.copytree(tmp_path / "state", template / "state")
    outcomes = crash_runs(forks, tmp_path / "runs", template,
                          lambda f: ["deal", str(f / "game.yaml"), "--key",
                                     str(keys.path("referee"))], 0)
    assert outcomes.get("memory ahead", 0) >= 1


@pytest.mark.parametrize("attempt", range(6))
def test_referees_applying_one_request_at_once_sign_one_record(
    attempt: int, pending: Path, keys: Keys, tmp_path: Path
) -> None:
    """Two processes on the game file and two on copies of it, all started together."""
    folder = tmp_path / "game"
    shutil.copytree(pending, folder)
    copies = [folder / "game.yaml", folder / "game.yaml"]
    for index in range(2):
        other = tmp_path / f"copy{index}"
        other.mkdir()
        shutil.copy(folder / "game.yaml", other / "game.yaml")
        copies.append(other / "game.yaml")
    env = {**os.environ, "FROGPBEM_STATE": str(folder / "state"), "CRASH_AT": "0"}
    processes = [subprocess.Popen([sys.executable, "-m", "tests.crash_wrapper", "move",
                                   str(path), "--key", str(keys.path("referee"))],
                                  cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for path in copies]
    statuses = [p.wait(timeout=60) for p in processes]
    assert statuses.count(0) == 1, [p.stderr.read() for p in processes if p.stderr]
    assert set(statuses) <= {0, 2, 8}  # the others: no request left (2) or a stale copy (8)
    records = {read_game(path).log[0].hash for path in copies if read_game(path).log}
    assert len(records) == 1  # never two different records 1
