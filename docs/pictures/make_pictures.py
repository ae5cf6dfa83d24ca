"""Make the screenshots under docs/pictures/ (run by hand: python docs/pictures/make_pictures.py).

Each ruleset's demonstration bots play part of a game; then frogpbem draws
the first seat's view as a page (``view --format html``) and the whole
record (``record --format html``), and a real headless chromium takes the
pictures, as the tests do.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GAMES = [  # rules, demo options, moves played, file name
    ("frogfinder", [], 44, "frogfinder-view.png"),
    ("coan", ["--seats", "4", "--option", "teams=red+black,blue+purple"], 60, "coan-view.png"),
    ("froglet", [], 24, "froglet-view.png"),
    ("secretmove", [], 10, "secretmove-view.png"),
]


def frogpbem(*args: object, out: Path | None = None) -> None:
    with open(out, "wb") if out else open(os.devnull, "wb") as sink:
        subprocess.run([sys.executable, "-m", "frogpbem", *map(str, args)], check=True,
                       stdout=sink)


def screenshot(page: Path, png: Path, size: str, query: str = "") -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--hide-scrollbars", "--force-device-scale-factor=1",
                        f"--user-data-dir={profile}", f"--window-size={size}",
                        "--virtual-time-budget=3000", f"--screenshot={png}",
                        page.as_uri() + query], check=True, capture_output=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        os.environ["FROGPBEM_HOME"] = f"{work}/home"
        os.environ["FROGPBEM_STATE"] = f"{work}/state"
        for rules, options, moves, name in GAMES:
            folder = Path(work) / rules
            frogpbem("demo", folder, "--rules", rules, "--seed", 11, "--moves", moves, *options)
            page = folder / "view.html"
            frogpbem("view", folder / "game.yaml", "--key", folder / "alice", "--format", "html",
                     out=page)
            screenshot(page, HERE / name, "1040,760")
        finished = Path(work) / "finished"
        frogpbem("demo", finished, "--seed", 11)
        page = finished / "record.html"
        frogpbem("record", finished / "game.yaml", "--format", "html", out=page)
        screenshot(page, HERE / "record-page.png", "1040,700", "?60")
    for png in sorted(HERE.glob("*.png")):
        print(png.relative_to(HERE.parent.parent), png.stat().st_size)


if __name__ == "__main__":
    main()
