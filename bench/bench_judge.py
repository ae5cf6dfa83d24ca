"""How many moves a second the judge carries from IMAP to SMTP, against the bare round trip.

Run by hand (``python bench/bench_judge.py``, as root: it starts a throwaway
Dovecot and an SMTP server on loopback, as the tests do). The game is played
as by email: each player keeps its own copy (the file the judge mailed),
signs its move into it and mails it back as an attachment; the judge takes
each message in one round (IMAP fetch, apply, file the message, mail both
seats). The floor is what any mail robot pays for the same traffic: fetching
the message over IMAP and sending two messages of the same size over SMTP,
measured in the same run.
"""

from __future__ import annotations

import imaplib
import shutil
import smtplib
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem import crypto  # noqa: E402
from frogpbem.dealing import SeatSpec, create_game, start_game  # noqa: E402
from frogpbem.gamefile.document import read_game  # noqa: E402
from frogpbem.gamefile.model import ChosenSetup  # noqa: E402
from frogpbem.mail.judge import ImapBox, Judge  # noqa: E402
from frogpbem.mail.outbox import SmtpOutbox  # noqa: E402
from frogpbem.protocol.session import Session  # noqa: E402
from frogpbem.protocol.times import Clock  # noqa: E402
from frogpbem.referee import move  # noqa: E402
from tests.test_judge import DOMAIN, PASSWORD, Servers, mail_servers, reply_with  # noqa: E402

MOVES = int(__import__("os").environ.get("BENCH_MOVES", "40"))


def deliver(servers: Servers, player: str, copy: Path) -> None:
    with smtplib.SMTP("127.0.0.1", servers.smtp_port) as client:
        client.send_message(reply_with(copy, player))


def wait_for(servers: Servers, user: str, count: int) -> None:
    while servers.count(user, "INBOX") < count:
        time.sleep(0.005)


def floor(servers: Servers, size: int, rounds: int) -> float:
    """Seconds per message for: IMAP fetch of one waiting message, two SMTP sends."""
    body = "x" * size
    total = 0.0
    for _ in range(rounds):
        note = EmailMessage()
        note["From"] = f"alice@{DOMAIN}"
        note["To"] = f"judge@{DOMAIN}"
        note["Subject"] = "floor"
        note.set_content(body)
        with smtplib.SMTP("127.0.0.1", servers.smtp_port) as client:
            client.send_message(note)
        wait_for(servers, "judge", 1)
        start = time.perf_counter()
        imap = imaplib.IMAP4("127.0.0.1", servers.imap_port)
        imap.login("judge", PASSWORD)
        imap.select("INBOX")
        _, found = imap.search(None, "ALL")
        for number in found[0].split():
            imap.fetch(number, "(RFC822)")
            imap.store(number, "+FLAGS", "\\Deleted")
        imap.expunge()
        imap.logout()
        with smtplib.SMTP("127.0.0.1", servers.smtp_port) as client:
            for user in ("alice", "bob"):
                out = EmailMessage()
                out["From"] = f"judge@{DOMAIN}"
                out["To"] = f"{user}@{DOMAIN}"
                out["Subject"] = "floor"
                out.set_content(body)
                client.send_message(out)
        total += time.perf_counter() - start
        servers.inbox("alice")
        servers.inbox("bob")
    return total / rounds


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp, mail_servers() as servers:
        folder = Path(tmp)
        keys = {name: folder / name for name in ("referee", "alice", "bob")}
        for name, path in keys.items():
            crypto.generate_key(path, name)
        referee = crypto.load_private_key(keys["referee"])
        players = {"alice": crypto.load_private_key(keys["alice"]),
                   "bob": crypto.load_private_key(keys["bob"])}
        specs = [SeatSpec("red", players["alice"].public, "Alice", f"alice@{DOMAIN}"),
                 SeatSpec("blue", players["bob"].public, "Bob", f"bob@{DOMAIN}")]
        setup = {"red": {"frogs": ["A1", "A2", "A3", "A4", "A5"]},
                 "blue": {"frogs": ["T20", "T19", "T18", "T17", "T16"]}}
        file = create_game("frogfinder", referee, "Judge", specs, {"size": 20, "frogs": 5},
                           ChosenSetup.from_json(setup), created=Clock.from_environment().text())
        games = folder / "games"
        games.mkdir()
        game = games / f"{file.game}.yaml"
        state = folder / "judge-state"
        start_game(game, file, referee, Session.from_environment(state=state))
        box = ImapBox(f"imap://judge@127.0.0.1:{servers.imap_port}", PASSWORD,
                      insecure_loopback=True)
        judge = Judge(games, referee, box, SmtpOutbox(servers.smtp),
                      Session.from_environment(state=state), f"judge@{DOMAIN}")
        judge.round()  # mails the start
        targets = [f"{chr(ord('C') + c)}{r}" for r in range(3, 18) for c in range(15)]
        homes = {name: Session.from_environment(home=folder / f"{name}-home")
                 for name in players}
        spent = 0.0
        for index in range(MOVES):
            player = ("alice", "bob")[index % 2]
            copy = folder / f"{player}.yaml"
            shutil.copy(game, copy)  # the attachment of the judge's last mail to this player
            move(copy, players[player], f"shoot {targets[index]}", session=homes[player])
            deliver(servers, player, copy)
            wait_for(servers, "judge", 1)
            start = time.perf_counter()
            lines = judge.round()
            spent += time.perf_counter() - start
            assert len(read_game(game).log) == index + 1, lines  # the move was taken
            servers.inbox("alice")
            servers.inbox("bob")
        box.close()
        per_move = spent / MOVES
        base = floor(servers, game.stat().st_size, 20)
        print(f"judge: {MOVES} moves, {per_move * 1000:.1f} ms a move = "
              f"{1 / per_move:.1f} moves/s")
        print(f"floor (IMAP fetch + 2 SMTP sends of the same size): {base * 1000:.1f} ms "
              f"= {1 / base:.1f} round trips/s")
        print(f"judge / floor: {per_move / base:.2f}x")


if __name__ == "__main__":
    main()
