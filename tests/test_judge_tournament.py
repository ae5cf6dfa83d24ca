"""The judge runs a tournament: it pairs each round once the last is over, mails the
games, takes the players' moves, and mails the final standings once.

The players are bots on real servers (Dovecot and aiosmtpd, :mod:`tests.mailservers`):
each reads its own inbox, chooses a move from its own view of the game it was mailed
(the project's bot, as :func:`frogpbem.demo.play_out` does) and answers with
``frogpbem reply --smtp``. The judge's rounds (``frogpbem judge --once``) and the
players' commands run in this process (CliRunner): a round is then a few hundredths of
a second rather than a Python start, which keeps a whole tournament within seconds.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest

from frogpbem import crypto
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.tournament import read_tournament
from frogpbem.games import bot_move
from frogpbem.mail.judge import Judge, MaildirBox
from frogpbem.mail.outbox import MemoryOutbox
from frogpbem.protocol.game import known_secrets, load, replay
from frogpbem.views import make_view
from tests.conftest import Cli, here
from tests.mailservers import DOMAIN, PASSWORD, Servers, free_port, mail_servers

NAMES = ("Alice", "Bob", "Chloe", "Dmitri")
OPTIONS = ("size=4", "frogs=1")
MAX_ROUNDS = 200
"""Judge rounds after which a tournament that has not ended is a failure (a game of
Frog Finder on a 4 x 4 board with one frog each ends within 16 moves a seat)."""


def parse(data: bytes) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(message, EmailMessage)
    return message


@dataclass
class BotPlayer:
    """A player of the tournament: a mailbox, a key, and a folder of its own."""

    name: str
    key: Path
    folder: Path
    rng: random.Random
    standings: list[EmailMessage] = field(default_factory=list)
    """The judge's mail about the tournament itself (the final standings)."""
    answered: int = 0

    @property
    def user(self) -> str:
        return self.name.lower()

    @property
    def email(self) -> str:
        return f"{self.user}@{DOMAIN}"


@dataclass
class Club:
    """A tournament, its director (the judge's key) and its players."""

    folder: Path
    director: Path
    file: Path
    players: list[BotPlayer]

    @property
    def games(self) -> Path:
        return self.folder / "judge-games"


def make_club(cli: Cli, folder: Path, names: tuple[str, ...], system: str,
              rounds: int | None = None, seed: int = 1) -> Club:
    """Keys for the director and each player, and the tournament file, by the CLI."""
    keys = folder / "keys"
    keys.mkdir(parents=True)
    crypto.generate_key(keys / "director", "judge")
    players = []
    for index, name in enumerate(names):
        crypto.generate_key(keys / name.lower(), name.lower())
        players.append(BotPlayer(name, keys / name.lower(), folder / name.lower(),
                                 random.Random(seed * 100 + index)))
    file = folder / "t.yaml"
    args: list[str | Path] = [
        "tournament", "new", file, "--name", "Loopback Open", "--format", system,
        "--key", keys / "director", "--director-name", "Judge",
        "--email", f"director=judge@{DOMAIN}",
        *[arg for option in OPTIONS for arg in ("--option", option)],
        *(["--rounds", str(rounds)] if rounds else [])]
    for player in players:
        args += ["--player", f"{player.name}={player.key}.pub",
                 "--email", f"{player.name}={player.email}"]
    made = cli(*args)
    assert made.exit_code == 0, made.output
    club = Club(folder, keys / "director", file, players)
    club.games.mkdir()
    return club


def judge_args(servers: Servers, club: Club) -> list[str | Path]:
    return ["judge", "--games", club.games, "--imap",
            f"imap://judge@127.0.0.1:{servers.imap_port}", "--smtp", servers.smtp,
            "--from", f"judge@{DOMAIN}", "--imap-insecure-loopback", "--key", club.director,
            "--tournament", club.file, "--once"]


def answer_mail(cli: Cli, servers: Servers, player: BotPlayer) -> int:
    """The player reads its inbox and answers, for each game mailed, the last message when
    it is to move there, with its bot's move from its own view: the moves sent."""
    latest: dict[str, tuple[int, bytes]] = {}
    for index, data in enumerate(servers.inbox(player.user)):
        message = parse(data)
        game_id = message["X-Frogpbem-Game"]
        if game_id is None:
            player.standings.append(message)
            continue
        latest[str(game_id)] = (index, data)
    sent = 0
    for game_id, (index, data) in latest.items():
        move = chosen_move(player, parse(data), game_id)
        if move is None:
            continue
        saved = player.folder / "mail" / f"{game_id}-{player.answered}-{index}.eml"
        saved.parent.mkdir(parents=True, exist_ok=True)
        saved.write_bytes(data)
        replied = cli("reply", saved, move, "--key", player.key, "--games",
                      player.folder / "games", "--smtp", servers.smtp)
        assert replied.exit_code == 0, replied.output
        player.answered += 1
        sent += 1
    return sent


def chosen_move(player: BotPlayer, message: EmailMessage, game_id: str) -> str | None:
    """The bot's move in the game the message carries, when the player is to move."""
    attached = next(part for part in message.iter_attachments()
                    if part.get_filename() == f"{game_id}.yaml")
    copy = player.folder / "seen" / f"{game_id}.yaml"
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(attached.get_payload(decode=True))
    game = load(copy, here())
    key = crypto.load_private_key(player.key)
    seat = game.role(key)
    state = replay(game, known_secrets(game, seat, key)).final
    if game.ruleset.to_move(state) != seat:
        return None
    board = make_view(game, state, seat).board
    return bot_move(game.ruleset, board, seat, player.rng, "greedy")


@dataclass
class Run:
    """What a tournament through the judge took."""

    log: list[str]
    rounds: int
    moves: int


def play_through_judge(cli: Cli, servers: Servers, club: Club,
                       limit: int = MAX_ROUNDS) -> Run:
    """Judge rounds and the players' answers, in turn, until the judge says the tournament
    is over; the players then read the standings it mailed in that round."""
    ident = str(read_tournament(club.file).header.tournament)
    log: list[str] = []
    moves = 0
    for number in range(1, limit + 1):
        took = cli(*judge_args(servers, club))
        assert took.exit_code == 0, took.output
        log += took.stdout.splitlines()
        moves += sum(answer_mail(cli, servers, player) for player in club.players)
        if f"tournament {ident}: over" in took.stdout:
            return Run(log, number, moves)
    raise AssertionError(f"not over after {limit} judge rounds:\n" + "\n".join(log[-20:]))


@pytest.fixture
def servers() -> Iterator[Servers]:
    with mail_servers(("judge", *(name.lower() for name in NAMES))) as running:
        yield running


@pytest.fixture
def password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FROGPBEM_IMAP_PASSWORD", PASSWORD)


def test_a_round_robin_played_by_bots_through_the_judge(
        servers: Servers, cli: Cli, tmp_path: Path, password: None) -> None:
    club = make_club(cli, tmp_path, NAMES, "roundrobin")
    ident = str(read_tournament(club.file).header.tournament)
    run = play_through_judge(cli, servers, club)
    paired = [line for line in run.log if line.startswith(f"tournament {ident}: paired")]
    assert paired == [f"tournament {ident}: paired round {n} (2 games)" for n in (1, 2, 3)]
    assert [line for line in run.log if line.endswith(": over")] == [
        f"tournament {ident}: over"]
    assert not any("does not hold" in line or "skipped" in line for line in run.log), run.log
    file = read_tournament(club.file)
    assert len(file.rounds) == 3
    # every game was mailed from its start (record 0), and every move came by mail
    games = [listed.game for entry in file.rounds for listed in entry.games]
    for game_id in games:
        assert any(line.startswith(f"game {game_id}: mailed record 0 to") for line in run.log)
    records = sum(len(strictyaml.loads((club.games / f"{game_id}.yaml").read_bytes())["log"])
                  for game_id in games)
    assert records == run.moves > 0
    assert servers.count("judge", "frogpbem-done") == run.moves
    assert servers.count("judge", "frogpbem-refused") == servers.count("judge", "INBOX") == 0
    # from the files alone: the standings and the verdict
    shown = cli("tournament", "standings", club.file, "--games", club.games)
    assert shown.exit_code == 0, shown.output
    checked = cli("tournament", "verify", club.file, "--games", club.games, "--json")
    assert checked.exit_code == 0, checked.output
    verdict = json.loads(checked.stdout)
    assert verdict["ok"] and verdict["over"] and verdict["standings"]["counted"] == 6
    # each player got the final standings once: the crosstable the files give
    table = shown.stdout.rstrip("\n")
    for player in club.players:
        assert len(player.standings) == 1, player.name
        letter = player.standings[0]
        assert letter["To"].addresses[0].addr_spec == player.email
        assert letter["Auto-Submitted"] == "auto-generated" and letter["Message-ID"]
        assert letter["Date"] and ident in str(letter["Subject"])
        assert table in letter.get_content().replace("\r\n", "\n")
    # a judge started again neither pairs nor mails anything more
    again = cli(*judge_args(servers, club))
    assert again.exit_code == 0 and again.stdout == "", again.stdout
    assert all(servers.inbox(player.user) == [] for player in club.players)


@pytest.fixture
def sink() -> Iterator[tuple[str, list[EmailMessage]]]:
    """An SMTP server that keeps what it is sent (for a judge on a Maildir)."""
    from aiosmtpd.controller import Controller

    sent: list[EmailMessage] = []

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            sent.append(parse(envelope.content))
            return "250 OK"

    port = free_port()
    controller = Controller(Keep(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", sent
    finally:
        controller.stop()


def maildir_judge(club: Club, smtp: str, key: Path | None = None) -> list[str | Path]:
    box = club.folder / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True, exist_ok=True)
    return ["judge", "--games", club.games, "--maildir", box, "--smtp", smtp, "--from",
            f"judge@{DOMAIN}", "--key", key or club.director, "--tournament", club.file,
            "--once"]


def test_a_judge_with_another_key_than_the_directors_refuses_to_start(
        cli: Cli, tmp_path: Path, sink: tuple[str, list[EmailMessage]]) -> None:
    club = make_club(cli, tmp_path, NAMES, "roundrobin")
    before = club.file.read_bytes()
    refused = cli(*maildir_judge(club, sink[0], club.players[0].key))
    assert refused.exit_code == 5, refused.output
    assert refused.stdout == ""
    said = refused.stderr.strip()
    assert "\n" not in said and "director" in said and str(club.file) in said
    assert club.file.read_bytes() == before and list(club.games.iterdir()) == []
    assert sink[1] == []


def test_a_tournament_that_does_not_hold_is_said_once_and_not_paired(
        cli: Cli, tmp_path: Path, sink: tuple[str, list[EmailMessage]]) -> None:
    """A game of round 1 deleted from the judge's folder: the tournament is not paired
    further, and the judge says why once, not every round (nor at each start)."""
    club = make_club(cli, tmp_path, NAMES, "roundrobin")
    ident = str(read_tournament(club.file).header.tournament)
    args = maildir_judge(club, sink[0])
    first = cli(*args)
    assert first.exit_code == 0, first.output
    assert f"tournament {ident}: paired round 1 (2 games)" in first.stdout
    assert len(sink[1]) == 4  # each game's two seats, record 0
    gone = read_tournament(club.file).rounds[0].games[0].game
    (club.games / f"{gone}.yaml").unlink()
    said = []
    for _ in range(3):
        took = cli(*args)
        assert took.exit_code == 0, took.output
        said += [line for line in took.stdout.splitlines() if line.startswith("tournament")]
    assert len(said) == 1, said
    assert said[0].startswith(f"tournament {ident}: does not hold: game {gone} ")
    assert "missing" in said[0]
    assert len(read_tournament(club.file).rounds) == 1
    assert len(sink[1]) == 4  # nothing more was mailed
    # a tournament file damaged under a running judge: said once, even by a judge restarted
    club.file.write_bytes(club.file.read_bytes().replace(b"rounds:", b"rounds: [", 1))
    said = []
    for _ in range(2):
        with here() as session:
            judge = Judge(club.games, crypto.load_private_key(club.director),
                          MaildirBox(club.folder / "Maildir"), MemoryOutbox(), session,
                          tournaments=(club.file,))
            said += judge.round() + judge.round()
    assert len(said) == 1 and said[0].startswith("tournament t.yaml: does not hold: "), said
