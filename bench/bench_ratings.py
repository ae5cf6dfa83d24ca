"""``frogpbem ratings`` over many audited games: the cold run, the warm run, and their split.

Run by hand: ``python bench/bench_ratings.py CORPUS [GAMES]`` (default 10,000 games).

The corpus is made once, in the folder CORPUS, and kept there: GAMES distinct
finished games among 200 players, each played by the real flow (the demo: keys,
creation, every move a signed request applied by the referee, the reveal), the
players' keys copied into each game's folder first so that the same players meet
again. The games mix frogfinder and coan on a 6x6 board with 2 frogs a seat (coan
with 3 or 4 seats, or two teams of two) and secretmove. Making 10,000 games takes
long (tens of minutes on two processors): it is done in both, at a low priority,
and what is already there is kept, so a second run goes on where the first stopped.
``--make-only`` makes the corpus and times nothing.

Then it times ``ratings`` over the corpus's games, as the command does: cold (no
cache: every file audited, in one process per processor), then warm (every verdict
in the cache), each split into the time spent auditing (or reading the cache) and
the time spent rating. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PLAYERS = 200


def _key_pool(corpus: Path) -> Path:
    """The 200 players' keys, made once (``p000`` … ``p199`` and their ``.pub``)."""
    from frogpbem import crypto

    keys = corpus / "keys"
    keys.mkdir(parents=True, exist_ok=True)
    for number in range(PLAYERS):
        path = keys / f"p{number:03d}"
        if not path.exists():
            crypto.generate_key(path, f"p{number:03d}@frogpbem.bench")
    referee = keys / "referee"
    if not referee.exists():
        crypto.generate_key(referee, "referee@frogpbem.bench")
    return keys


def _plan(index: int) -> tuple[str, int, dict[str, str], list[int]]:
    """Game ``index``'s rules, seats, options and players (the same for every run)."""
    rng = random.Random(index)
    kind = index % 10
    if kind < 4:
        rules, seats, options = "frogfinder", 2, {"size": "6", "frogs": "2"}
    elif kind < 7:
        rules, seats, options = "secretmove", 2, {}
    elif kind < 9:
        rules, seats, options = "coan", 3 + kind % 2, {"size": "6", "frogs": "2"}
    else:
        rules, seats = "coan", 4
        options = {"size": "6", "frogs": "2", "teams": "red+black,blue+purple"}
    return rules, seats, options, rng.sample(range(PLAYERS), seats)


def _no_record(_game: object) -> str:
    """No record page nor PGN for the corpus's games (a seventh of the demo's time)."""
    return ""


def _make_one(args: tuple[Path, int]) -> str:
    """Play game ``index`` into ``CORPUS/games/NNNNN.yaml`` unless it is there already."""
    corpus, index = args
    target = corpus / "games" / f"{index:05d}.yaml"
    if target.exists():
        return "kept"
    from frogpbem import demo
    from frogpbem.protocol.session import Session

    rules, seats, options, players = _plan(index)
    names = tuple(f"P{number:03d}" for number in players)
    with tempfile.TemporaryDirectory(dir=corpus / "work") as scratch:
        folder = Path(scratch) / "game"
        folder.mkdir()
        for name in ("referee", *(n.lower() for n in names)):
            shutil.copy(corpus / "keys" / name, folder / name)
        demo.PLAYERS = names  # the demo names its seats, and their key files, from these
        demo.record_html = demo.game_record = _no_record  # its record is not needed here
        session = Session.from_environment(corpus / "state" / "home", corpus / "state" / "st")
        played = demo.play_demo(folder, rules, seed=index, seats=seats, options=options,
                                bot="greedy", session=session)
        if played.outcome is None or not played.audit.ok:
            return f"not finished: {index}"
        partial = target.with_suffix(".part")
        shutil.copy(played.game, partial)
        partial.replace(target)
    return "made"


def make_corpus(corpus: Path, games: int, processes: int) -> list[Path]:
    """The corpus's first ``games`` games, made where missing."""
    (corpus / "games").mkdir(parents=True, exist_ok=True)
    (corpus / "work").mkdir(exist_ok=True)
    _key_pool(corpus)
    missing = [i for i in range(games) if not (corpus / "games" / f"{i:05d}.yaml").exists()]
    if missing:
        start = time.perf_counter()
        print(f"making {len(missing)} games in {processes} processes…", flush=True)
        context = multiprocessing.get_context("fork")
        with context.Pool(processes) as pool:
            for done, outcome in enumerate(
                    pool.imap_unordered(_make_one, [(corpus, i) for i in missing], 8), 1):
                if outcome.startswith("not"):
                    print(outcome, flush=True)
                if done % 200 == 0:
                    spent = time.perf_counter() - start
                    print(f"  {done}/{len(missing)} in {spent:.0f} s", flush=True)
    return sorted((corpus / "games").glob("*.yaml"))[:games]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("games", type=int, nargs="?", default=10_000)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--make-only", action="store_true")
    args = parser.parse_args()
    paths = make_corpus(args.corpus, args.games, args.processes)
    print(f"{len(paths)} games in {args.corpus / 'games'}", flush=True)
    if not args.make_only:
        time_ratings(paths)


def time_ratings(paths: list[Path]) -> None:
    """Cold and warm ``ratings`` over ``paths``, each split into audit and rating; then
    ``ratings`` over games audited before by ``frogpbem audit`` (as a club audits each
    game when it ends); and the floor of a cold run: its Ed25519 checks alone."""
    from frogpbem.protocol.times import Clock
    from frogpbem.ratings import Ratings, rate_files
    from frogpbem.verdicts import AuditCache

    clock = Clock.from_environment()

    def show(label: str, whole: float, table: Ratings) -> None:
        timing = table.timing
        print(f"{label}: {whole:.1f} s for {len(paths)} files "
              f"({1000 * whole / max(1, len(paths)):.2f} ms a file): "
              f"audit {timing.audit:.1f} s ({timing.audited} audited, "
              f"{timing.cached} from the cache), rating {timing.rating:.1f} s; "
              f"{len(table.players)} players, {len(table.counted)} games counted, "
              f"{len(table.not_counted)} not counted", flush=True)

    with tempfile.TemporaryDirectory() as state:
        cache = AuditCache(Path(state))
        for label in ("cold (nothing cached)", "warm (every verdict cached)"):
            start = time.perf_counter()
            table = rate_files(paths, clock=clock, cache=cache, jobs=0)
            show(label, time.perf_counter() - start, table)
    with tempfile.TemporaryDirectory() as state:
        start = time.perf_counter()
        for first in range(0, len(paths), 1000):  # as a club audits its games, by the batch
            subprocess.run([sys.executable, "-m", "frogpbem", "audit", "--jobs", "0",
                            *map(str, paths[first:first + 1000])],
                           env={**os.environ, "FROGPBEM_STATE": state},
                           stdout=subprocess.DEVNULL, check=True)
        print(f"frogpbem audit of every game beforehand: {time.perf_counter() - start:.1f} s",
              flush=True)
        start = time.perf_counter()
        table = rate_files(paths, clock=clock, cache=AuditCache(Path(state)), jobs=0)
        show("games audited beforehand", time.perf_counter() - start, table)
    signatures, seconds = _signature_floor(paths)
    print(f"floor of a cold run: {signatures} Ed25519 checks at {seconds * 1e6:.0f} us each "
          f"= {signatures * seconds / (os.cpu_count() or 1):.1f} s on "
          f"{os.cpu_count() or 1} processors", flush=True)


def _signature_floor(paths: list[Path]) -> tuple[int, float]:
    """How many signatures an audit of ``paths`` checks (counted over a sample of 200 files,
    scaled), and what one Ed25519 check (libsodium's, as frogpbem makes it) costs here."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from nacl.bindings import crypto_sign_open

    from frogpbem import crypto
    from frogpbem.crypto import sshsig
    from frogpbem.gamefile import chain
    from frogpbem.gamefile.document import read_game

    sample = paths[:: max(1, len(paths) // 200)]
    checked = 0
    verify = crypto.verify_message

    def counting(*args: object) -> None:
        nonlocal checked
        checked += 1
        verify(*args)  # type: ignore[arg-type]

    crypto.verify_message = counting  # type: ignore[assignment]
    try:
        for path in sample:
            chain.check_chain(read_game(path, bulk=True))
    finally:
        crypto.verify_message = verify
    key = Ed25519PrivateKey.generate()
    message = sshsig._to_be_signed(os.urandom(600), sshsig.NAMESPACE, sshsig.HASH)
    signed = key.sign(message) + message
    public = key.public_key().public_bytes_raw()
    start = time.perf_counter()
    for _ in range(2000):
        crypto_sign_open(signed, public)  # the check frogpbem makes (crypto.sshsig.verify)
    return round(checked * len(paths) / len(sample)), (time.perf_counter() - start) / 2000


if __name__ == "__main__":
    main()
