"""The audit of many finished games, against the bound of verifying exactly their signatures.

Run by hand (``python bench/bench_audit.py [GAMES]``, default 100). The games
are played by the demonstration's bots through the real flow (small boards,
all four rulesets in turn), then audited in one process. The bound is the
time Ed25519 verification alone takes for exactly the signatures the audits
checked (collected while they ran, then checked again by themselves). Audits
and bound run side by side, ROUNDS times each in turn, on a noisy shared
machine; the best of each and every round's ratio are printed. Nothing here
asserts a time.

Then the same audits in two processes at once (``audit --jobs 2``, what a
tournament director with this machine's two cores would run), against the
same bound: that bound is one core's, so this ratio is no like-for-like
comparison, only what a user waits.

Last, what the audit would cost if reading the files' YAML took no time at
all: each file's value is read once beforehand and handed over ready-made
(every check after it is made as before), again side by side with the bound.
It shows how far any faster YAML reader could bring the audit.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem import crypto  # noqa: E402
from frogpbem.audit import audit, audit_many  # noqa: E402
from frogpbem.demo import play_demo  # noqa: E402
from frogpbem.gamefile import strictyaml  # noqa: E402
from frogpbem.gamefile.document import read_game  # noqa: E402
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import Clock

ROUNDS = 5
RULES = [("frogfinder", {"size": "8", "frogs": "3"}), ("coan", {"size": "8", "frogs": "2"}),
         ("froglet", {"size": "6"}), ("secretmove", {})]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["FROGPBEM_HOME"] = str(Path(tmp) / "home")
        os.environ["FROGPBEM_STATE"] = str(Path(tmp) / "state")
        games = []
        start = time.perf_counter()
        for index in range(count):
            rules, options = RULES[index % len(RULES)]
            folder = Path(tmp) / f"g{index}"
            play_demo(folder, rules, seed=index, options=options,
                      session=Session.from_environment())
            games.append(folder / "game.yaml")
        made = time.perf_counter() - start
        checked: list[tuple[crypto.PublicKey, bytes, str]] = []
        real = crypto.verify_message

        def keeping(key: crypto.PublicKey, message: bytes, signature: str) -> None:
            checked.append((key, message, signature))
            real(key, message, signature)

        crypto.verify_message = keeping
        for game in games:
            report = audit(game, clock=Clock.from_environment())
            assert report.ok, report.text()
        crypto.verify_message = real
        audits, bounds, together = [], [], []
        for _ in range(ROUNDS):  # side by side: each round audits all, then checks the bound
            start = time.perf_counter()
            for game in games:  # read in bulk, as audit_many reads several files
                audit(game, clock=Clock.from_environment(), bulk=True)
            audits.append(time.perf_counter() - start)
            start = time.perf_counter()
            for key, message, signature in checked:
                real(key, message, signature)
            bounds.append(time.perf_counter() - start)
            start = time.perf_counter()
            audit_many(games, jobs=2, clock=Clock.from_environment())
            together.append(time.perf_counter() - start)
        records = sum(len(read_game(game).log) for game in games)
        free, free_bounds = read_for_free(games, checked)
    ratios = sorted(a / b for a, b in zip(audits, bounds, strict=True))
    print(f"{count} finished games ({records} records), made in {made:.1f} s by the demo bots")
    print(f"audit of all of them: best {min(audits):.2f} s; verifying exactly the "
          f"{len(checked)} signatures they checked: best {min(bounds):.2f} s")
    print(f"audit / bound: {min(audits) / min(bounds):.2f}x (best against best); per round "
          f"{', '.join(f'{r:.2f}x' for r in ratios)}")
    print(f"in two processes at once (--jobs 2): best {min(together):.2f} s, "
          f"{min(together) / min(bounds):.2f}x the one-core bound (best against best)")
    ratios = sorted(a / b for a, b in zip(free, free_bounds, strict=True))
    print(f"with the YAML read beforehand (reading at no cost): best {min(free):.2f} s, "
          f"{min(free) / min(free_bounds):.2f}x the bound (best {min(free_bounds):.2f} s); per "
          f"round {', '.join(f'{r:.2f}x' for r in ratios)}")


def read_for_free(games: list[Path], checked: list[tuple[crypto.PublicKey, bytes, str]]
                  ) -> tuple[list[float], list[float]]:
    """The audits (and the bound, in turn) with each file's YAML value read beforehand and
    handed over as it was read: what the audit would cost if reading YAML were free."""
    real = strictyaml.loads
    values = {}
    for game in games:
        data = game.read_bytes()
        values[data] = real(data)

    def ready(data: bytes, name: str = "<input>", bulk: bool = False) -> object:
        return values[data] if data in values else real(data, name, bulk)

    audits, bounds = [], []
    strictyaml.loads = ready
    try:
        for _ in range(ROUNDS):
            start = time.perf_counter()
            for game in games:
                assert audit(game, clock=Clock.from_environment()).ok
            audits.append(time.perf_counter() - start)
            start = time.perf_counter()
            for key, message, signature in checked:
                crypto.verify_message(key, message, signature)
            bounds.append(time.perf_counter() - start)
    finally:
        strictyaml.loads = real
    return audits, bounds


if __name__ == "__main__":
    main()
