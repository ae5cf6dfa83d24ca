"""Games without a referee by email: what each seat's command costs, as players run them.

Run by hand (``python bench/bench_duel.py [SIZE] [FROGS]``; default a 12x12 Frog Finder
board with 5 frogs a seat). Two seats, each with its own home, play one whole game with
no referee and no notary: every step is ``frogpbem reply MAIL [MOVE] --out NEXT.eml`` on
the mail the other seat's tool wrote last, so each command reads the attached copy,
checks it against the seat's memory, verifies what it has not verified yet, answers the
pending move with its proof, signs and writes the next mail. Between two steps the
bench itself (not timed) reads the seat's view to choose its move with the bot.

Prints the CPU time (user + system, of the child process) of each kind of command: the
setup mails (the join, red's setup, blue's setup, red's overlap and first move), the
median and the worst move, and the whole game, each also as a ratio to the CPU time of
``frogpbem --version`` measured in the same run. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FROGPBEM = str(Path(sys.executable).with_name("frogpbem"))
sys.path.insert(0, str(ROOT))

from frogpbem.games import bot_move, find_game  # noqa: E402


def cpu(args: list[str], env: dict[str, str], may_fail: bool = False
        ) -> tuple[float, str] | None:
    """Run ``frogpbem ARGS``; its CPU seconds (user + system) and its output (``None``
    for a refusal, if ``may_fail``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([FROGPBEM, *args], env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        if may_fail:
            return None
        raise SystemExit(f"frogpbem {' '.join(args)} failed ({done.returncode}): "
                         f"{done.stderr.strip()}")
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return spent, done.stdout + done.stderr


def run(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    done = cpu(args, env)
    assert done is not None
    return done


def main() -> None:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    frogs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rules = find_game("frogfinder")
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(os.environ.get("BENCH_KEEP") or tmp)  # BENCH_KEEP=DIR keeps the game
        base.mkdir(parents=True, exist_ok=True)
        seats = {}
        for seat, player in (("red", "alice"), ("blue", "bob")):
            home = base / player
            home.mkdir()
            env = {**os.environ, "FROGPBEM_HOME": str(home / "home"),
                   "FROGPBEM_STATE": str(home / "state"), "NO_COLOR": "1"}
            env.pop("PYTHONDONTWRITEBYTECODE", None)  # as users run it: compiled once
            key = home / "key"
            run(["keygen", str(key)], env)
            seats[seat] = (env, key, home / "games")
        red_env, red_key, _ = seats["red"]
        run(["--help"], red_env)  # compiles what the commands import, once
        version, _ = run(["--version"], red_env)
        game = base / "alice" / "game.yaml"
        run(["new", str(game), "--rules", "frogfinder", "--no-referee",
             "--seat", f"red={seats['red'][1]}.pub", "--seat", f"blue={seats['blue'][1]}.pub",
             "--email", "red=alice@example.org", "--email", "blue=bob@example.org",
             "--option", f"size={size}", "--option", f"frogs={frogs}",
             "--key", str(red_key)], red_env)
        outbox = base / "mail"
        outbox.mkdir()
        run(["mail", str(game), "--key", str(red_key), "--out", str(outbox)], red_env)
        last = next(outbox.glob("*.eml"))
        setup: list[float] = []
        moves: list[float] = []
        seat = "blue"
        ending = False
        for step in range(10_000):
            env, key, games = seats[seat]
            run(["receive", str(last), "--games", str(games), "--key", str(key)], env)
            copy = next(games.glob("*.yaml"))
            shown = json.loads(run(["view", str(copy), "--json", "--key", str(key)], env)[1])
            view = shown.get("view") if isinstance(shown, dict) else None
            args = ["reply", str(last), "--games", str(games), "--key", str(key)]
            nxt = outbox / f"{step:04d}.eml"
            playing = isinstance(view, dict) and view.get("to_move") == seat \
                and view.get("outcome") is None
            if playing:
                move = bot_move(rules, rules.read_view(view), seat, rng, "greedy")
                spent, said = run([*args[:2], move, *args[2:], "--out", str(nxt)], env)
            else:
                # steps alone; or the steps with a first move the view cannot show yet
                # (red's overlap): then any square that is not red's own frog
                squares = [f"{chr(65 + c)}{r + 1}" for r in range(size) for c in range(size)]
                rng.shuffle(squares)
                for square in [None, *squares]:
                    extra = [] if square is None else [f"shoot {square}"]
                    done = cpu([*args[:2], *extra, *args[2:], "--out", str(nxt)], env,
                               may_fail=square is not None)
                    if done is not None and nxt.exists():
                        spent, said = done
                        playing = square is not None
                        break
            if os.environ.get("BENCH_DEBUG"):
                print(seat, playing, said.strip().replace("\n", " | ")[:200])
            (moves if playing else setup).append(spent)
            if not nxt.exists() or "game over" in said and ending:
                break  # the other seat's reveal, after the end, was the last mail
            ending = ending or "game over" in said
            last = nxt
            seat = "red" if seat == "blue" else "blue"
        whole = sum(setup) + sum(moves)
        print(f"Frog Finder {size}x{size}, {frogs} frogs a seat, no referee, by mail "
              f"(frogpbem reply): CPU seconds, and x frogpbem --version ({version:.3f} s)")
        for i, spent in enumerate(setup[:4]):
            print(f"  setup mail {i + 1}:  {spent:6.3f} s  {spent / version:5.1f}x")
        if moves:
            print(f"  a move (median of {len(moves)}): {statistics.median(moves):6.3f} s  "
                  f"{statistics.median(moves) / version:5.1f}x")
            print(f"  the worst move:        {max(moves):6.3f} s  {max(moves) / version:5.1f}x")
        print(f"  the end (a reveal):    {setup[-1]:6.3f} s  {setup[-1] / version:5.1f}x")
        print(f"  the whole game ({len(setup) + len(moves)} mails): {whole:6.2f} s")


if __name__ == "__main__":
    main()
