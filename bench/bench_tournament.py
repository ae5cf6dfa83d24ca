"""A Swiss tournament of 16 bot players over 5 rounds, played through the judge on real
mail servers: the acceptance run of ``frogpbem judge --tournament``.

Run by hand (``python bench/bench_tournament.py``, as root: it starts a throwaway
Dovecot and an SMTP server on loopback, as the tests do, with a mailbox for the
judge and each player). The judge runs in this process as a running judge does (one
IMAP session, :meth:`Judge.steps` each round); each player, between two of its
rounds, reads its inbox, chooses its move from its own view with the project's bot
and answers with ``frogpbem reply --smtp`` (the CLI, in this process). Once the judge
says the tournament is over:

- the standings page (``tournament standings --html``) is drawn by headless
  chromium: the screenshot is not blank and the page's DOM names every player;
- ``tournament verify`` on a copy of the tournament file and its games alone, in a
  fresh process with an empty state, counts the same standings (JSON) as
  ``tournament standings`` did in the judge's folder, and the crosstable each player
  was mailed is that one;
- the figures: wall time, mails sent, games, judge rounds, seconds per move.

``BENCH_PLAYERS`` and ``BENCH_ROUNDS`` change the size (16 and 5).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typer.testing import CliRunner  # noqa: E402

NAMES = ("Alice", "Bob", "Chloe", "Dmitri", "Emeka", "Fatima", "Gustav", "Hana", "Ivan",
         "Jun", "Kofi", "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quentin", "Rosa",
         "Sanjay", "Tove")
PLAYERS = int(os.environ.get("BENCH_PLAYERS", "16"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
MAX_JUDGE_ROUNDS = 400


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="frogpbem-bench-tournament-"))
    for name, sub in (("HOME", "home"), ("FROGPBEM_HOME", "home"),
                      ("FROGPBEM_STATE", "state")):
        os.environ[name] = str(work / sub)
    for name in ("FROGPBEM_KEY", "FROGPBEM_PASSPHRASE", "XDG_STATE_HOME", "FROGPBEM_NOW"):
        os.environ.pop(name, None)
    try:
        run(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(work: Path) -> None:
    from frogpbem import crypto
    from frogpbem.cli import app
    from frogpbem.gamefile.tournament import read_tournament
    from frogpbem.mail.judge import ImapBox, Judge, check_director
    from frogpbem.mail.outbox import SmtpOutbox
    from frogpbem.protocol.session import Session
    from tests.conftest import Result
    from tests.mailservers import DOMAIN, PASSWORD, mail_servers
    from tests.test_judge_tournament import answer_mail, make_club

    runner = CliRunner()

    def cli(*args: str | os.PathLike[str]) -> Result:
        done = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
        return Result(done.exit_code, done.stdout, done.stderr)

    names = NAMES[:PLAYERS]
    with mail_servers(("judge", *(name.lower() for name in names))) as servers:
        club = make_club(cli, work / "club", names, "swiss", ROUNDS, seed=7)
        ident = read_tournament(club.file).header.tournament
        director = crypto.load_private_key(club.director)
        check_director([club.file], director)
        print(f"tournament {ident}: swiss, {PLAYERS} players, {ROUNDS} rounds, Frog Finder "
              "4x4 with one frog each; Dovecot and aiosmtpd on loopback")
        started = time.monotonic()
        judged = 0.0
        moves = rounds = 0
        log: list[str] = []
        box = ImapBox(f"imap://judge@127.0.0.1:{servers.imap_port}", PASSWORD, True)
        with Session.from_environment() as session:
            judge = Judge(club.games, director, box, SmtpOutbox(servers.smtp), session,
                          f"judge@{DOMAIN}", tournaments=(club.file,))
            try:
                while f"tournament {ident}: over" not in log:
                    rounds += 1
                    if rounds > MAX_JUDGE_ROUNDS:
                        raise SystemExit(f"not over after {MAX_JUDGE_ROUNDS} judge rounds")
                    before = time.monotonic()
                    said = list(judge.steps())
                    judged += time.monotonic() - before
                    log += said
                    for line in said:
                        if line.startswith("tournament"):
                            print(f"  judge round {rounds:>3}: {line}")
                    moves += sum(answer_mail(cli, servers, player) for player in club.players)
                again = list(judge.steps())  # nothing left: no pairing, no second standings
            finally:
                box.close()
        wall = time.monotonic() - started
        assert again == [], again
        problems = [line for line in log if "does not hold" in line or "skipped" in line
                    or "refused" in line]
        assert not problems, problems
        assert servers.count("judge", "frogpbem-done") == moves
        file = read_tournament(club.file)
        games = [listed.game for entry in file.rounds for listed in entry.games]
        byes = sum(len(entry.byes) for entry in file.rounds)
        assert len(file.rounds) == ROUNDS
        mails = len(servers.delivered)
        to_players = mails - moves

        # the standings, as the judge's folder gives them, and its page
        shown = cli("tournament", "standings", club.file, "--games", club.games, "--json")
        assert shown.exit_code == 0, shown.output
        table = json.loads(shown.stdout)
        text = cli("tournament", "standings", club.file, "--games", club.games)
        assert text.exit_code == 0, text.output
        pages = work / "pages"
        made = cli("tournament", "standings", club.file, "--games", club.games, "--html", pages)
        assert made.exit_code == 0, made.output
        dom, colours = render(pages / "index.html", work / "chromium")
        missing = [name for name in names if name not in dom]
        assert not missing, f"the page does not name {missing}"
        assert colours > 4, "the screenshot is blank"

        # verify, from a copy of the files alone, in a fresh process with an empty state
        alone = work / "alone"
        (alone / "games").mkdir(parents=True)
        shutil.copy(club.file, alone / "t.yaml")
        for game_id in games:
            shutil.copy(club.games / f"{game_id}.yaml", alone / "games")
        fresh = {**os.environ, "HOME": str(alone / "home"), "FROGPBEM_HOME": str(alone / "home"),
                 "FROGPBEM_STATE": str(alone / "state")}
        verify_started = time.monotonic()
        verified = subprocess.run(
            [sys.executable, "-m", "frogpbem", "tournament", "verify", str(alone / "t.yaml"),
             "--games", str(alone / "games"), "--json"],
            env=fresh, capture_output=True, text=True, check=False, timeout=600,
            cwd=Path(__file__).resolve().parent.parent)
        verify_wall = time.monotonic() - verify_started
        assert verified.returncode == 0, verified.stdout[-2000:] + verified.stderr[-2000:]
        verdict = json.loads(verified.stdout)
        assert verdict["ok"] and verdict["over"], verdict["problems"]
        same = verdict["standings"] == {key: value for key, value in table.items()
                                        if key != "problems"}
        assert same, "verify counts other standings than the judge's folder"
        crosstable = text.stdout.rstrip("\n")
        mailed = [message for player in club.players for message in player.standings]
        assert len(mailed) == PLAYERS and all(
            crosstable in message.get_content().replace("\r\n", "\n") for message in mailed)

        print(text.stdout.rstrip())
        print(f"\nwall time            {wall:8.1f} s (the judge's rounds {judged:.1f} s, "
              f"the players {wall - judged:.1f} s)")
        print(f"judge rounds         {rounds:8d}")
        print(f"games                {len(games):8d} ({ROUNDS} rounds, {byes} byes)")
        print(f"moves                {moves:8d} (each a mail to the judge)")
        print(f"mails sent           {mails:8d} ({to_players} by the judge: boards and "
              f"{len(mailed)} final standings; {moves} moves by the players)")
        print(f"seconds per move     {wall / moves:8.3f} (wall), {judged / moves:.3f} (judge)")
        print(f"verify from files    {verify_wall:8.1f} s: same standings "
              f"({verdict['standings']['counted']} games counted)")
        print(f"page                 {len(dom):8d} bytes of DOM, every player named; "
              f"screenshot {colours} colours")


def render(page: Path, profile: Path) -> tuple[str, int]:
    """The page as headless chromium draws it: its DOM, and the number of colours of its
    screenshot (1: blank)."""
    from PIL import Image

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("chromium is missing (apt-get install chromium)")
    common = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--hide-scrollbars", f"--user-data-dir={profile}", "--window-size=1200,900",
              "--virtual-time-budget=3000"]
    dom = subprocess.run([*common, "--dump-dom", page.resolve().as_uri()],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    shot = profile.parent / "standings.png"
    subprocess.run([*common, f"--screenshot={shot}", page.resolve().as_uri()],
                   capture_output=True, text=True, timeout=120, check=True)
    colours = Image.open(shot).convert("RGB").getcolors(maxcolors=1 << 20) or []
    return dom, len(colours)


if __name__ == "__main__":
    main()
