"""The audit of many finished games, against the bound of verifying exactly their signatures.

Run by hand (``python bench/bench_audit.py [GAMES]``, default 100). The games
are played by the demonstration's bots through the real flow (small boards,
all four rulesets in turn), then audited in one process. The bound is the
time Ed25519 verification alone takes for exactly the signatures the audits
checked (collected while they ran, then checked again by themselves). Nothing
here asserts a time.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem import crypto  # noqa: E402
from frogpbem.audit import audit  # noqa: E402
from frogpbem.demo import play_demo  # noqa: E402
from frogpbem.gamefile.document import read_game  # noqa: E402

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
            play_demo(folder, rules, seed=index, options=options)
            games.append(folder / "game.yaml")
        made = time.perf_counter() - start
        checked: list[tuple[crypto.PublicKey, bytes, str]] = []
        real = crypto.verify_message

        def keeping(key: crypto.PublicKey, message: bytes, signature: str) -> None:
            checked.append((key, message, signature))
            real(key, message, signature)

        crypto.verify_message = keeping  # type: ignore[assignment]
        start = time.perf_counter()
        for game in games:
            report = audit(game)
            assert report.ok, report.text()
        audited = time.perf_counter() - start
        crypto.verify_message = real  # type: ignore[assignment]
        start = time.perf_counter()
        for key, message, signature in checked:
            real(key, message, signature)
        bound = time.perf_counter() - start
        records = sum(len(read_game(game).log) for game in games)
    print(f"{count} finished games ({records} records), made in {made:.1f} s by the demo bots")
    print(f"audit of all of them: {audited:.2f} s; verifying exactly the {len(checked)} "
          f"signatures they checked: {bound:.2f} s; audit / bound = {audited / bound:.2f}x")


if __name__ == "__main__":
    main()
