"""``simulate`` at scale: the same games and totals on one process, on a pool, on Dask;
results streamed to a JSON lines file, a stopped run resumed, any game replayed from its
line (docs/simulate.md)."""

from __future__ import annotations

import functools
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem import engines
from frogpbem.errors import FrogPbemError
from frogpbem.simulate import Stopped, simulate
from tests.conftest import Cli

ROOT = Path(__file__).resolve().parent.parent
SMALL = {"size": "6"}
"""A small Frog Finder board: a game of strong against greedy is a few hundredths of a
second."""
RUN = ["--rules", "frogfinder", "--option", "size=6", "--bots", "strong,greedy", "--swap"]
"""The same run on the command line."""
TIMEOUT = 120
"""Seconds a command in a subprocess may take before the test fails (never a hang)."""


def lines(path: Path) -> set[str]:
    return set(path.read_text().splitlines())


def games_in(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def command(*args: str | Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    """``frogpbem ARGS`` in a process of its own (signals, Dask's processes)."""
    return subprocess.run([sys.executable, "-m", "frogpbem", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@functools.cache
def unbroken(folder: Path, games: int, rules: str = "frogfinder") -> tuple[Path, str]:
    """A run of ``games`` games in one go, on one process: its file and its totals."""
    path = folder / f"unbroken-{rules}-{games}.jsonl"
    tally = simulate(rules, games, ["strong", "greedy"], seed=3, swap=True,
                     options=SMALL if rules == "frogfinder" else {}, out=path)
    return path, json.dumps(tally.to_json())


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("unbroken")


def test_a_pool_plays_the_games_of_one_process(tmp_path: Path, base: Path) -> None:
    """Two processes: the same lines (in the order the games ended), the same totals, the
    same records."""
    path, totals = unbroken(base, 8)
    pooled = tmp_path / "pooled.jsonl"
    tally = simulate("frogfinder", 8, ["strong", "greedy"], seed=3, swap=True, options=SMALL,
                     out=pooled, jobs=2, records=tmp_path / "pooled")
    assert json.dumps(tally.to_json()) == totals
    assert lines(pooled) == lines(path)
    assert sorted(game["game"] for game in games_in(pooled)) == list(range(8))
    simulate("frogfinder", 8, ["strong", "greedy"], seed=3, swap=True, options=SMALL,
             records=tmp_path / "alone")
    records = sorted(p.name for p in (tmp_path / "alone").iterdir())
    assert records == sorted(p.name for p in (tmp_path / "pooled").iterdir())
    assert all((tmp_path / "alone" / name).read_bytes()
               == (tmp_path / "pooled" / name).read_bytes() for name in records)


def test_each_line_says_its_game(base: Path) -> None:
    path, _ = unbroken(base, 8)
    first = json.loads(path.read_text().splitlines()[0])
    assert first == {"simulate": 1, "rules": "frogfinder", "options": {"size": 6, "frogs": 5},
                     "seats": ["red", "blue"], "bots": ["strong", "greedy"], "swap": True,
                     "seed": 3}
    for game in games_in(path):
        assert game["seed"] == 3 + game["game"]
        swapped = game["game"] % 2 == 1
        assert game["bots"] == ({"red": "greedy", "blue": "strong"} if swapped
                                else {"red": "strong", "blue": "greedy"})
        assert game["options"] == first["options"] and game["seats"] == first["seats"]
        ranks = [place["rank"] for place in game["standing"]]
        assert game["winners"] == [p["seat"] for p in game["standing"] if p["rank"] == 1]
        assert ranks == sorted(ranks) and game["moves"] > 0 and game["termination"]


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=4))
def test_a_run_stopped_anywhere_and_resumed_equals_an_unbroken_one(
        tmp_path_factory: pytest.TempPathFactory, stops: list[int]) -> None:
    """However many games each stopped run plays, the file and the totals at the end are
    those of one unbroken run."""
    folder = tmp_path_factory.mktemp("stops")
    path, totals = unbroken(tmp_path_factory.getbasetemp(), 6, "secretmove")
    resumed = folder / "resumed.jsonl"
    for stop in stops:
        simulate("secretmove", 6, ["strong", "greedy"], seed=3, swap=True, out=resumed,
                 stop_after=stop)
    tally = simulate("secretmove", 6, ["strong", "greedy"], seed=3, swap=True, out=resumed)
    assert json.dumps(tally.to_json()) == totals
    assert lines(resumed) == lines(path)
    assert len(resumed.read_text().splitlines()) == 7  # no game played twice


def test_a_run_killed_by_a_signal_goes_on_where_it_stopped(tmp_path: Path, base: Path) -> None:
    path, totals = unbroken(base, 24)
    out = tmp_path / "killed.jsonl"
    args = ["simulate", *RUN, "--seed", "3", "--games", "24", "--out", out, "--jobs", "2"]
    process = subprocess.Popen([sys.executable, "-m", "frogpbem", *map(str, args)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        end = time.monotonic() + TIMEOUT
        while (not out.exists() or len(out.read_text().splitlines()) < 3) \
                and process.poll() is None and time.monotonic() < end:
            time.sleep(0.01)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=TIMEOUT)
    finally:
        process.kill()
    held = games_in(out)
    if process.returncode == 130:  # else it had ended before the signal came
        assert "the same command goes on" in stderr and len(held) < 24
        assert f"holds {len(held)} of the 24 games" in stderr
    went_on = command(*args[:-2], "--json")  # every core again: no parameter of the file
    assert went_on.returncode == 0, went_on.stderr
    assert json.dumps(json.loads(went_on.stdout)) == totals
    assert lines(out) == lines(path)


def test_a_torn_last_line_is_dropped_and_its_game_played_again(tmp_path: Path,
                                                               base: Path) -> None:
    path, totals = unbroken(base, 8)
    whole = path.read_text().splitlines(keepends=True)
    torn = tmp_path / "torn.jsonl"
    torn.write_text("".join(whole[:4]) + whole[4][:30])
    said: list[str] = []
    tally = simulate("frogfinder", 8, ["strong", "greedy"], seed=3, swap=True, options=SMALL,
                     out=torn, note=said.append)
    assert json.dumps(tally.to_json()) == totals and lines(torn) == lines(path)
    assert len(said) == 2 and "the last line was cut short" in said[0]
    assert said[1].endswith("3 games of the 8 already there; the others to play")
    header = tmp_path / "header.jsonl"  # torn in its first line: nothing was there
    header.write_text(whole[0][:10])
    simulate("frogfinder", 8, ["strong", "greedy"], seed=3, swap=True, options=SMALL,
             out=header, note=said.append)
    assert lines(header) == lines(path) and len(said) == 3


def test_another_runs_file_or_a_damaged_one_is_refused_and_left_alone(cli: Cli,
                                                                       tmp_path: Path,
                                                                       base: Path) -> None:
    path, _ = unbroken(base, 8)
    out = tmp_path / "other.jsonl"
    out.write_bytes(path.read_bytes())
    same = ["simulate", *RUN, "--seed", "3", "--games", "8", "--out", out]
    for change in (["--bots", "strong"], ["--seed", "4"], ["--option", "frogs=4"]):
        refused = cli(*same, *change)
        assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1
        assert "not this run's results" in refused.stderr
        assert out.read_bytes() == path.read_bytes()
    unswapped = cli(*[a for a in same if a != "--swap"])
    assert unswapped.exit_code == 2 and "swap true, not false" in unswapped.stderr
    text = path.read_text().splitlines(keepends=True)
    damaged = "".join([*text[:3], text[3].replace('"moves"', '"mooves"'), *text[4:]])
    out.write_text(damaged)
    refused = cli(*same)
    assert refused.exit_code == 7 and "line 4 is not a game" in refused.stderr
    assert out.read_text() == damaged
    out.write_text(text[0] + "a note of my own, with no newline")  # not a line cut short
    assert cli(*same).exit_code == 7
    out.write_bytes(path.read_bytes() + b'{"game":')  # torn, and another run's: not cut
    assert cli(*same, "--seed", "4").exit_code == 2
    assert out.read_bytes() == path.read_bytes() + b'{"game":'
    foreign = tmp_path / "notes.txt"
    foreign.write_text("a file that is no results file")
    assert cli(*same[:-1], foreign).exit_code == 2
    assert foreign.read_text() == "a file that is no results file"
    assert cli(*same, "--jobs", "-1").exit_code == 2


def test_more_games_play_only_the_missing_ones_fewer_tally_the_first(tmp_path: Path,
                                                                     base: Path) -> None:
    path, totals = unbroken(base, 8)
    out = tmp_path / "grown.jsonl"
    simulate("frogfinder", 5, ["strong", "greedy"], seed=3, swap=True, options=SMALL, out=out)
    fewer = simulate("frogfinder", 3, ["strong", "greedy"], seed=3, swap=True, options=SMALL,
                     out=out)
    assert fewer.games == 3 and len(games_in(out)) == 5
    more = simulate("frogfinder", 8, ["strong", "greedy"], seed=3, swap=True, options=SMALL,
                    out=out, jobs=2)
    assert json.dumps(more.to_json()) == totals and lines(out) == lines(path)


def test_a_line_replays_its_game_from_its_seed(cli: Cli, tmp_path: Path, base: Path) -> None:
    """The seed and bots of a line, played as a run of one game, give its moves and
    outcome (an odd game: its bots changed seats)."""
    path, _ = unbroken(base, 8)
    for game in [g for g in games_in(path) if g["game"] in (4, 5)]:
        folder = tmp_path / f"replay-{game['game']}"
        bots = ",".join(game["bots"][seat] for seat in game["seats"])
        replayed = cli("simulate", "--rules", "frogfinder", "--option", "size=6", "--games",
                       "1", "--seed", str(game["seed"]), "--bots", bots, "--records", folder,
                       "--jobs", "1")
        assert replayed.exit_code == 0, replayed.output
        record = (folder / "game-0001.txt").read_text().split("\n\n")
        standing = ", ".join(f"{p['rank']}. {p['seat']} {p['points']}"
                             for p in game["standing"])
        assert len(record[1].splitlines()) == game["moves"]
        assert record[2].strip() == f"{game['termination']}; {standing}"


def test_dask_local_cluster_plays_the_same_games(tmp_path: Path, base: Path) -> None:
    """A Dask local cluster of one worker process (spawned: imports of its own)."""
    path, totals = unbroken(base, 8)
    out = tmp_path / "dask.jsonl"
    done = command("simulate", *RUN, "--seed", "3", "--games", "8", "--out", out,
                   "--cluster", "local", "--jobs", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.dumps(json.loads(done.stdout)) == totals and lines(out) == lines(path)


def test_dask_at_an_address_plays_the_same_games(tmp_path: Path, base: Path) -> None:
    """A scheduler of the test's own, its worker threads here; the first three games played
    before, in one process."""
    import distributed  # the test extra installs it, as the cluster extra does

    path, totals = unbroken(base, 8)
    out = tmp_path / "address.jsonl"
    simulate("frogfinder", 3, ["strong", "greedy"], seed=3, swap=True, options=SMALL, out=out)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=":0") as cluster:  # a tcp address
        tally = simulate("frogfinder", 8, ["strong", "greedy"], seed=3, swap=True,
                         options=SMALL, out=out, cluster=cluster.scheduler_address)
    assert json.dumps(tally.to_json()) == totals and lines(out) == lines(path)


def test_an_address_where_no_scheduler_answers_is_said(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engines, "CONNECT_SECONDS", 1)
    with pytest.raises(FrogPbemError, match="no Dask scheduler answers there"):
        simulate("secretmove", 1, ["strong"], cluster="tcp://127.0.0.1:9")


def test_without_dask_a_cluster_is_refused_in_one_sentence(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # an import of it fails
    out = tmp_path / "nothing.jsonl"
    refused = cli("simulate", "--games", "1", "--cluster", "local", "--out", out)
    assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1
    assert "pip install 'frogpbem[cluster]'" in refused.stderr and not out.exists()
    probe = "import sys, frogpbem.simulate; print('dask' in sys.modules or 'distributed' in " \
            "sys.modules)"
    imported = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                              text=True, timeout=TIMEOUT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert imported.stdout == "False\n", imported.stderr  # Dask only when a cluster is asked


def test_an_interrupt_says_how_many_games_the_file_holds(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C after the third game: the file holds three whole games, and says so."""
    seen: list[int] = []

    def progress(done: int) -> None:
        seen.append(done)
        if done == 3:
            raise KeyboardInterrupt

    out = tmp_path / "interrupted.jsonl"
    with pytest.raises(Stopped) as stopped:
        simulate("secretmove", 6, ["strong"], out=out, progress=progress)
    assert stopped.value.games == 3 == len(games_in(out)) and seen == [1, 2, 3]


def test_a_file_another_run_is_writing_is_refused(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "busy.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | "
         "os.O_CREAT); fcntl.lockf(fd, fcntl.LOCK_EX); print('held', flush=True); "
         "sys.stdin.read()", str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        refused = cli("simulate", "--rules", "secretmove", "--games", "1", "--out", out)
        assert refused.exit_code == 9 and "another run is writing this file" in refused.stderr
        assert out.read_bytes() == b""
    finally:
        holder.communicate("", timeout=TIMEOUT)
    assert cli("simulate", "--rules", "secretmove", "--games", "1", "--out", out).exit_code == 0


def test_a_run_holds_its_file_until_it_ends(cli: Cli, tmp_path: Path) -> None:
    """The lock taken when the file is opened lasts while its games are read and played
    (reading it must not drop it): a second run on the same file is refused meanwhile."""
    out = tmp_path / "held.jsonl"
    assert cli("simulate", "--rules", "secretmove", "--games", "1", "--out", out).exit_code == 0
    before = out.read_bytes()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from frogpbem.simulate import Run, ResultsFile; "
         "from frogpbem.games import find_game; g = find_game('secretmove'); "
         "o = g.options({}); run = Run('secretmove', o, g.seats(o, 2), ('strong', 'strong'), "
         "False, 0)\nwith ResultsFile.open(__import__('pathlib').Path(sys.argv[1]), run, "
         "print) as held:\n    print('held', len(held.games), flush=True); sys.stdin.read()",
         str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held 1\n"
        refused = cli("simulate", "--rules", "secretmove", "--games", "2", "--out", out)
        assert refused.exit_code == 9 and "another run is writing this file" in refused.stderr
        assert out.read_bytes() == before
    finally:
        holder.communicate("", timeout=TIMEOUT)
    assert cli("simulate", "--rules", "secretmove", "--games", "2", "--out", out).exit_code == 0


def test_out_must_be_a_regular_file(tmp_path: Path) -> None:
    """A FIFO or a device is refused at once (exit 9), never read without end."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target in (fifo, Path("/dev/zero")):
        refused = command("simulate", "--rules", "secretmove", "--games", "1", "--out", target)
        assert refused.returncode == 9, refused.stderr
        assert refused.stderr.count("\n") == 1 and "not a regular file" in refused.stderr


def _mutants(base: Path) -> dict[str, bytes]:
    """Files that differ from a run's own file in one line it never writes."""
    path, _ = unbroken(base, 8)
    first, *games = path.read_bytes().splitlines(keepends=True)
    game = games[1]  # game 1
    assert b'"game":1,' in game and b'"swap":true' in first and b'"seed":3}' in first
    standing = json.loads(game)["standing"]
    seat = standing[0]["seat"]
    other = json.loads(game)
    other["standing"][0]["seat"] = "green"
    empty = json.loads(game)
    empty["standing"] = []

    def line(value: dict[str, Any]) -> bytes:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"

    whole = b"".join([first, *games])
    return {
        "a game numbered true": whole.replace(game, game.replace(b'"game":1,', b'"game":true,')),
        "an empty standing": whole.replace(game, line(empty)),
        "a seat of no run": whole.replace(game, line(other)),
        "a rank of true": whole.replace(game, game.replace(
            f'"rank":1,"seat":"{seat}"'.encode(), f'"rank":true,"seat":"{seat}"'.encode())),
        "a line nested too deep": whole.replace(game, b"[" * 100_000 + b"]" * 100_000 + b"\n"),
        "UTF-16 text": whole.decode().encode("utf-16"),
        "a swap of 1": whole.replace(b'"swap":true', b'"swap":1'),
        "a seed of 3.0": whole.replace(b'"seed":3}', b'"seed":3.0}'),
        "a first line nested too deep": b"[" * 100_000 + b"]" * 100_000 + b"\n" + whole,
    }


@pytest.mark.parametrize("name", ["a game numbered true", "an empty standing",
                                  "a seat of no run", "a rank of true",
                                  "a line nested too deep", "UTF-16 text", "a swap of 1",
                                  "a seed of 3.0", "a first line nested too deep"])
def test_a_line_the_program_never_writes_is_refused(cli: Cli, tmp_path: Path, base: Path,
                                                    name: str) -> None:
    """By the run that would add to the file (left untouched) and by balance, each in one
    sentence."""
    data = _mutants(base)[name]
    out = tmp_path / "mutant.jsonl"
    out.write_bytes(data)
    refused = cli("simulate", *RUN, "--seed", "3", "--games", "9", "--out", out)
    assert refused.exit_code in (2, 7) and len(refused.stderr.splitlines()) == 1, refused.stderr
    assert out.read_bytes() == data
    report = cli("balance", out)
    assert report.exit_code == 7 and len(report.stderr.splitlines()) == 1, report.stderr


def _suicide(job: int) -> int:
    if job == 5:
        os._exit(3)  # as a process killed by the system would end
    return job


def test_a_pool_process_that_dies_ends_the_run_in_a_sentence() -> None:
    with pytest.raises(FrogPbemError, match="died"):
        list(engines.run_on_pool(_suicide, range(20), 2))


def test_jobs_are_handed_out_as_they_are_needed() -> None:
    """Endless jobs: the pool takes only a few ahead of the results asked for."""
    taken: list[int] = []

    def jobs() -> Any:
        for job in itertools.count():
            taken.append(job)
            yield job

    results = engines.run_on_pool(abs, jobs(), 2)
    assert sorted(next(results) for _ in range(10)) != []
    results.close()
    assert len(taken) <= 10 + 2 * engines.AHEAD


def test_a_run_of_a_trillion_games_stopped_after_two_plays_two(tmp_path: Path) -> None:
    """No list of the games to play is made: a run as long as anyone likes starts at once."""
    out = tmp_path / "long.jsonl"
    tally = simulate("secretmove", 10**12, ["strong"], out=out, jobs=2, stop_after=2)
    assert tally.games == 2 and len(games_in(out)) == 2
    assert engines.MAX_JOBS < 10**5
    with pytest.raises(FrogPbemError, match="--jobs"):
        simulate("secretmove", 1, ["strong"], jobs=10**5)


def test_a_run_from_a_negative_seed_goes_on_from_its_file(tmp_path: Path) -> None:
    """Seeds below 0 are seeds (game i from seed + i): their lines are read back."""
    out = tmp_path / "negative.jsonl"
    simulate("secretmove", 3, ["strong"], seed=-5, out=out, stop_after=2)
    again = simulate("secretmove", 3, ["strong"], seed=-5, out=out)
    assert again.games == 3 and [game["seed"] for game in games_in(out)] == [-5, -4, -3]
