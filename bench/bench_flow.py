"""Time against game length, in the real by-email flow, against the import floor F1.

Run by hand (``python bench/bench_flow.py [RECORDS...]``, default 10 100 1000).
Nothing here asserts a time.

For each length N a Frog Finder game on a 26x26 board (one frog a seat) is
played to N records: the first 600 are shots at every square in turn; from
then on each seat guesses an empty square that nobody shot, a wrong guess
(3 points off) that the rules allow again and again, so that a game can
reach 1,000 records and more on a board of 676 squares. It is played the
way players and referee play by email: each
party has its own tool state (``$FROGPBEM_HOME``, ``$FROGPBEM_STATE``), every
record is a seat's signed request applied by the referee from the seat's
returned copy. Then, each timed over ROUNDS runs of the real command line:

- seat request: red signs its move into the copy the referee mailed it
  (red's tool last read and verified the game two records earlier, as in play,
  and kept the state it replayed to then, as every command with a key does);
- referee ``move --from``: the referee applies that returned copy (its tool
  too last read the game two records earlier; it remembers what it signed);
- view: blue looks at its copy (its tool last read it two records earlier);
- ``--version`` and ``--help``.

Each command runs as users run it, the ``frogpbem`` script installed beside
this Python (``python -m frogpbem`` where there is none).
F1 is ``python -c "import typer, yaml, cryptography, pyrage, rfc8785"``,
run just before every run of every command, so that each command and its
F1 see the same load (this machine is shared and noisy). Figures: a
command's median CPU time (user + system) and best wall time, each as a
ratio to F1's over the same rounds; peak memory (maximum resident set) of
one run (from a small launcher, so that it is the command's own). The audit
of the finished game is timed the same way.

It prints a table of the commands' median CPU times against the records, one
of their ratios to F1, and draws the times in ``bench_flow.svg`` (in the
current folder, or the file ``$BENCH_PLOT`` names).
"""

from __future__ import annotations

import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from html import escape
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem import crypto  # noqa: E402
from frogpbem.dealing import SeatSpec, create_game, start_game  # noqa: E402
from frogpbem.gamefile.document import keep_history, read_game  # noqa: E402
from frogpbem.gamefile.model import ChosenSetup  # noqa: E402
from frogpbem.protocol.game import REFEREE, known_secrets, load, replay  # noqa: E402
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import Clock
from frogpbem.protocol.verified import VerifiedHistories  # noqa: E402
from frogpbem.referee import move  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "7"))
SHOTS = 600
"""Records that are shots; the ones after them are wrong guesses at one empty square."""
F1 = "import typer, yaml, cryptography, pyrage, rfc8785"
_SCRIPT = Path(sys.executable).with_name("frogpbem")
FROGPBEM = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "frogpbem"]
"""The command as users run it: the ``frogpbem`` script installed beside this Python."""
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SIZE = 26


def squares() -> list[str]:
    """Every square but the two frogs' (A1, Z26), in a fixed order."""
    names = [f"{chr(ord('A') + c)}{r}" for r in range(1, SIZE + 1) for c in range(SIZE)]
    return [n for n in names if n not in ("A1", f"Z{SIZE}")]


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak resident KiB of one run of ``command``."""
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    assert child.stderr is not None
    error = child.stderr.read().decode()
    child.stderr.close()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {child.returncode}: {error}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


LAUNCH = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
          "stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN)"
          ".ru_maxrss)")
"""Runs a command from a small process: a child forked from this (large) benchmark
would count this process's memory as its own peak (Linux keeps it across exec)."""


def peak(command: list[str], env: dict[str, str]) -> int:
    """Peak resident KiB of one run of ``command``."""
    done = subprocess.run([sys.executable, "-c", LAUNCH, *command], env=env, check=True,
                          capture_output=True, text=True)
    return int(done.stdout.split()[-1])


Timing = tuple[float, float, int, float, float]
"""Best wall, median CPU and peak memory of a command; best wall and median CPU of F1
in the same rounds."""


def timed(command: list[str], env: dict[str, str],
          setup: Callable[[], None] | None = None) -> Timing:
    """``command`` over ROUNDS runs (after one warm-up), each round also running F1 just
    before it, so that both see the same load on a shared machine; and its peak memory."""
    floor = [sys.executable, "-c", F1]
    if setup:
        setup()
    run(command, env)
    run(floor, ENV)
    walls, cpus, floor_walls, floor_cpus = [], [], [], []
    for _ in range(ROUNDS):
        wall, cpu, _ = run(floor, ENV)
        floor_walls.append(wall)
        floor_cpus.append(cpu)
        if setup:
            setup()
        wall, cpu, _ = run(command, env)
        walls.append(wall)
        cpus.append(cpu)
    if setup:
        setup()
    return (min(walls), statistics.median(cpus), peak(command, env), min(floor_walls),
            statistics.median(floor_cpus))


class Flow:
    """One game played by email to N records, each party with its own folder."""

    def __init__(self, folder: Path, records: int) -> None:
        self.folder = folder
        (folder / "keys").mkdir()
        self.keys = {name: folder / "keys" / name for name in ("referee", "alice", "bob")}
        for name, path in self.keys.items():
            crypto.generate_key(path, name)
        self.referee = crypto.load_private_key(self.keys["referee"])
        self.players = {"red": crypto.load_private_key(self.keys["alice"]),
                        "blue": crypto.load_private_key(self.keys["bob"])}
        specs = [SeatSpec("red", self.players["red"].public, "Alice"),
                 SeatSpec("blue", self.players["blue"].public, "Bob")]
        setup = {"red": {"frogs": ["A1"]}, "blue": {"frogs": [f"Z{SIZE}"]}}
        file = create_game("frogfinder", self.referee, "Carol", specs,
                           {"size": SIZE, "frogs": 1}, ChosenSetup.from_json(setup),
                           created=Clock.from_environment().text())
        self.game = folder / "referee" / "game.yaml"
        self.game.parent.mkdir()
        for party in ("red", "blue"):
            (folder / party).mkdir()
        start_game(self.game, file, self.referee,
                   Session.from_environment(state=self.state("referee")))
        self.targets = squares()
        self.records = 0
        while self.records < records:
            self.play()

    def move_at(self, index: int) -> str:
        """Record ``index + 1``'s move: a shot at a new square, or past SHOTS a wrong guess at
        the last square of ``targets`` (never shot, and no frog's)."""
        if index < SHOTS:
            return f"shoot {self.targets[index]}"
        return f"guess {self.targets[-1]}"

    def state(self, party: str) -> Path:
        return self.folder / f"{party}-state"

    def home(self, party: str) -> Path:
        return self.folder / f"{party}-home"

    def copy(self, party: str) -> Path:
        """The game file as the referee last mailed it to ``party``."""
        return self.folder / party / "game.yaml"

    def play(self) -> None:
        """The seat to move signs a request into its copy; the referee applies it --from it."""
        seat = ("red", "blue")[self.records % 2]
        copy = self.copy(seat)
        shutil.copy(self.game, copy)
        move(copy, self.players[seat], self.move_at(self.records),
             session=Session.from_environment(home=self.home(seat)))
        move(self.game, self.referee, take_from=(copy,),
             session=Session.from_environment(state=self.state("referee")))
        self.records += 1

    def env(self, party: str) -> dict[str, str]:
        return {**ENV, "FROGPBEM_HOME": str(self.home(party)),
                "FROGPBEM_STATE": str(self.state(party))}


def keep_replay(game_file: Path, key: crypto.PrivateKey, role: str, state: Path) -> None:
    """The replay a party's last command kept in its tool state (``state``), as that command
    made it: a seat's without its key's role, the referee's with it."""
    with Session.from_environment(state=state) as session:
        game = load(game_file, session)
        replay(game, known_secrets(game, role, key), key if role == REFEREE else None,
               keeper=key)


def measure(flow: Flow) -> dict[str, Timing]:
    """The commands of one move, in the flow, on a game of ``flow.records`` records."""
    folder = flow.folder
    before = folder / "two-records-before.yaml"  # red's tool verified this copy last
    shutil.copy(flow.game, before)
    flow.play()
    flow.play()
    for party in ("red", "blue", "referee"):  # each tool read the game two records ago
        store = VerifiedHistories(flow.home(party) / "verified")
        file = read_game(before)
        store.remember(file)
        keep_history(file, before.read_bytes(), store)
    for party, key, role in (("red", flow.players["red"], "red"),
                             ("blue", flow.players["blue"], "blue"),
                             ("referee", flow.referee, REFEREE)):
        keep_replay(before, key, role, flow.state(party))
    for party in ("red", "blue", "referee"):
        for name in (f"{party}-home", f"{party}-state"):
            if (folder / name).exists():
                shutil.copytree(folder / name, folder / f"{name}.kept")
    mailed = folder / "mailed.yaml"
    shutil.copy(flow.game, mailed)
    target = flow.move_at(flow.records)
    red_copy = flow.copy("red")
    blue_copy = flow.copy("blue")

    def restore(*parties: str) -> Callable[[], None]:
        def again() -> None:
            shutil.copy(mailed, red_copy)
            shutil.copy(mailed, blue_copy)
            shutil.copy(mailed, flow.game)
            for party in parties:
                for name in (f"{party}-home", f"{party}-state"):
                    shutil.rmtree(folder / name, ignore_errors=True)
                    if (folder / f"{name}.kept").exists():
                        shutil.copytree(folder / f"{name}.kept", folder / name)
        return again

    asked = folder / "asked.yaml"
    restore("red")()
    subprocess.run([*FROGPBEM, "move", str(red_copy), target, "--key",
                    str(flow.keys["alice"])], env=flow.env("red"), check=True,
                   capture_output=True)
    shutil.copy(red_copy, asked)

    def referee_setup() -> None:
        restore("referee")()
        shutil.copy(asked, red_copy)

    return {
        "seat request": timed([*FROGPBEM, "move", str(red_copy), target, "--key",
                               str(flow.keys["alice"])], flow.env("red"), restore("red")),
        "referee move --from": timed(
            [*FROGPBEM, "move", str(flow.game), "--from", str(red_copy), "--key",
             str(flow.keys["referee"])], flow.env("referee"), referee_setup),
        "view (seat)": timed([*FROGPBEM, "view", str(blue_copy), "--key",
                              str(flow.keys["bob"])], flow.env("blue"), restore("blue")),
        "--version": timed([*FROGPBEM, "--version"], flow.env("blue")),
        "--help": timed([*FROGPBEM, "--help"], flow.env("blue")),
    }


def ratio(timing: Timing) -> str:
    wall, cpu, rss, floor_wall, floor_cpu = timing
    return f"{cpu / floor_cpu:.2f}x ({wall / floor_wall:.2f}x), {rss / 1024:.0f} MiB"


def main() -> None:
    lengths = [int(a) for a in sys.argv[1:]] or [10, 100, 1000]
    columns: dict[int, dict[str, Timing]] = {}
    audits: dict[int, Timing] = {}
    built: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        # the in-process building keeps its own tool state, not the user's
        os.environ["FROGPBEM_HOME"] = str(Path(tmp) / "build-home")
        os.environ["FROGPBEM_STATE"] = str(Path(tmp) / "build-state")
        for length in lengths:
            folder = Path(tmp) / f"n{length}"
            folder.mkdir()
            start = time.perf_counter()
            flow = Flow(folder, length - 2)
            built[length] = time.perf_counter() - start
            columns[length] = measure(flow)
            finished = folder / "finished.yaml"
            shutil.copy(flow.game, finished)
            move(finished, flow.players["red"], "resign",
                 session=Session.from_environment(home=folder / "x-home"))
            move(finished, flow.referee, session=Session.from_environment(state=folder / "x-state"))
            audits[length] = timed([*FROGPBEM, "audit", str(finished)], flow.env("blue"))
    f1 = [columns[n][name][4] for n in lengths for name in columns[n]]
    print(f"F1 = python -c \"{F1}\", run just before each run of a command: median CPU "
          f"{statistics.median(f1) * 1000:.0f} ms (from {min(f1) * 1000:.0f} to "
          f"{max(f1) * 1000:.0f} ms over the commands' rounds; {ROUNDS} rounds each)\n")
    head = "| command | " + " | ".join(f"{n} records" for n in lengths) + " |"
    rows = {**{name: [columns[n][name] for n in lengths] for name in columns[lengths[0]]},
            "audit of the finished game": [audits[n] for n in lengths]}
    print("Median CPU time against the records (F1's in the same rounds in brackets):\n")
    print(head)
    print("|" + " --- |" * (len(lengths) + 1))
    for name, timings in rows.items():
        print(f"| {name} | " + " | ".join(f"{t[1] * 1000:.0f} ms ({t[4] * 1000:.0f} ms)"
                                          for t in timings) + " |")
    print()
    print("Median CPU time as a ratio to F1's in the same rounds (best wall times' ratio "
          "in brackets), peak memory:\n")
    print(head)
    print("|" + " --- |" * (len(lengths) + 1))
    for name in columns[lengths[0]]:
        cells = []
        for n in lengths:
            cells.append(ratio(columns[n][name]))
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| audit of the finished game | " + " | ".join(ratio(audits[n]) for n in lengths)
          + " |")
    print("\nbuilding each game in-process: " + ", ".join(
        f"{n} records {built[n]:.1f} s" for n in lengths))
    plot = Path(os.environ.get("BENCH_PLOT", "bench_flow.svg"))
    plot.write_text(chart(lengths, rows, statistics.median(f1)))
    print(f"the times, drawn: {plot}")


COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def chart(lengths: list[int], rows: dict[str, list[Timing]], floor: float) -> str:
    """An SVG line chart of each command's median CPU time against the records (records
    on a log scale), with F1's median as a dashed line."""
    width, height, left, bottom, top = 640, 360, 60, 40, 20
    span = max(max(t[1] for t in timings) for timings in rows.values()) * 1.1
    low, high = math.log10(min(lengths)), math.log10(max(lengths))

    def x(n: int) -> float:
        share = (math.log10(n) - low) / (high - low) if high > low else 0.5
        return left + share * (width - left - 20)

    def y(seconds: float) -> float:
        return height - bottom - seconds / span * (height - bottom - top)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             'font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<line x1="{left}" y1="{y(0):.0f}" x2="{width - 20}" y2="{y(0):.0f}" '
             'stroke="black"/>',
             f'<line x1="{left}" y1="{y(0):.0f}" x2="{left}" y2="{top}" stroke="black"/>',
             f'<text x="{width / 2:.0f}" y="{height - 8}" text-anchor="middle">records '
             '(log scale)</text>',
             f'<text x="12" y="{top + 4}">ms</text>',
             f'<line x1="{left}" y1="{y(floor):.1f}" x2="{width - 20}" y2="{y(floor):.1f}" '
             'stroke="grey" stroke-dasharray="4 3"/>',
             f'<text x="{width - 22}" y="{y(floor) - 4:.1f}" text-anchor="end" fill="grey">'
             f'F1 {floor * 1000:.0f} ms</text>']
    for n in lengths:
        parts.append(f'<text x="{x(n):.1f}" y="{y(0) + 14:.0f}" text-anchor="middle">{n}</text>')
    for step in range(1, 5):
        value = span * step / 5
        parts.append(f'<text x="{left - 4}" y="{y(value) + 4:.1f}" text-anchor="end">'
                     f'{value * 1000:.0f}</text>')
    for index, (name, timings) in enumerate(rows.items()):
        colour = COLOURS[index % len(COLOURS)]
        points = " ".join(f"{x(n):.1f},{y(t[1]):.1f}" for n, t in zip(lengths, timings,
                                                                     strict=True))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                     'stroke-width="2"/>')
        parts.append(f'<text x="{left + 8}" y="{top + 14 * index + 4}" fill="{colour}">'
                     f'{escape(name)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    main()
