"""Games without a referee through the judge as a notary: it relays, stamps, times out.

Froglet is played by two seats through the CLI (each with its own home), their mail going
through the judge: in memory (a Maildir and an outbox that keeps the letters) for the
quick tests, and through Dovecot and aiosmtpd on loopback for one whole game. The clock
is ``$FROGPBEM_NOW``. The stamps are checked by ``verify``, and each forgery of them is
refused in one sentence.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from frogpbem.duel.engine import replay, send_to
from frogpbem.errors import ChainError, FrogPbemError, SignatureError
from frogpbem.gamefile.duelfile import DuelFile, Stamp, dump_duel, parse_duel
from frogpbem.mail.judge import AUTOMATIC, REFUSED, Judge, MaildirBox
from frogpbem.mail.outbox import MemoryOutbox
from frogpbem.protocol.times import Clock, seconds_of, text_of
from frogpbem.ratings import rate_files
from tests.conftest import Cli, Keys, Result, here
from tests.duel.test_referee_free_cli import choose, independent_replay
from tests.test_judge import DOMAIN, PASSWORD, Servers, mail_servers, send
from tests.test_judge_citizen import club_game, maildir

WHITE, BLACK, NOTARY = f"alice@{DOMAIN}", f"bob@{DOMAIN}", f"judge@{DOMAIN}"
T0 = "2026-12-01T09:00:00Z"
HOUR = 3600


def at(seconds: int) -> str:
    return text_of(seconds_of(T0) + seconds)


@dataclass
class Seat:
    name: str
    player: str
    address: str
    folder: Path

    @property
    def game(self) -> Path:
        return self.folder / "game.yaml"


@dataclass
class Table:
    """Two seats, the command line run as either, and the clock."""

    cli: Cli
    keys: Keys
    tmp: Path
    monkeypatch: pytest.MonkeyPatch
    white: Seat
    black: Seat

    def run(self, seat: Seat, *args: str | Path, key: bool = True) -> Result:
        self.monkeypatch.setenv("FROGPBEM_HOME", str(self.tmp / f"home-{seat.player}"))
        self.monkeypatch.setenv("FROGPBEM_STATE", str(self.tmp / f"state-{seat.player}"))
        extra: tuple[str | Path, ...] = ("--key", self.keys.path(seat.player)) if key else ()
        return self.cli(*args, *extra)

    def clock(self, when: str) -> None:
        self.monkeypatch.setenv("FROGPBEM_NOW", when)

    def other(self, seat: Seat) -> Seat:
        return self.black if seat is self.white else self.white

    def create(self, *extra: str) -> str:
        made = self.run(self.white, "new", self.white.game, "--rules", "froglet",
                        "--no-referee", "--seat", f"white={self.keys.pub('alice')}",
                        "--seat", f"black={self.keys.pub('bob')}", "--email",
                        f"white={WHITE}", "--email", f"black={BLACK}", "--email",
                        f"notary={NOTARY}", "--notary", self.keys.pub("referee"),
                        "--option", "size=4", *extra)
        assert made.exit_code == 0, made.output
        assert f"now mail it to the notary ({NOTARY})" in made.stdout
        return parse_duel(self.white.game.read_bytes(), "new").game

    def step(self, seat: Seat, rng: random.Random) -> None:
        """The seat's message(s): its join, or (white, before the deal) its reveal and
        first move, or a move chosen from the rules alone."""
        file = parse_duel(seat.game.read_bytes(), "copy")
        if not file.messages:
            done = self.run(seat, "move", seat.game)
            assert done.exit_code == 0 and "black joined" in done.stdout, done.output
            return
        if not any(m.reveal for m in file.messages):
            done = self.run(seat, "move", seat.game)  # white's reveal, alone: it deals
            assert done.exit_code == 0, done.output
            file = parse_duel(seat.game.read_bytes(), "copy")
        done = self.run(seat, "move", seat.game, choose(independent_replay(file), rng))
        assert done.exit_code == 0, done.output


@pytest.fixture
def table(cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    white = Seat("white", "alice", WHITE, tmp_path / "alice")
    black = Seat("black", "bob", BLACK, tmp_path / "bob")
    for seat in (white, black):
        seat.folder.mkdir()
    monkeypatch.setenv("FROGPBEM_NOW", T0)
    return Table(cli, keys, tmp_path, monkeypatch, white, black)


def parse(data: bytes) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(data)
    assert isinstance(message, EmailMessage)
    return message


def attached(message: EmailMessage) -> bytes:
    """The game file attached to the notary's letter."""
    (part,) = [p for p in message.iter_attachments() if p.get_content_type() ==
               "application/yaml"]
    data = part.get_payload(decode=True)
    assert isinstance(data, bytes)
    return data


def letter(seat: Seat, data: bytes, subject: str = "my move", **headers: str) -> EmailMessage:
    """A seat's mail to the notary, its copy attached."""
    mail = EmailMessage()
    mail["From"] = seat.address
    mail["To"] = NOTARY
    mail["Subject"] = subject
    for name, value in headers.items():
        mail[name.replace("_", "-")] = value
    mail.set_content("My message is in the attached file.")
    mail.add_attachment(data, maintype="application", subtype="yaml", filename="game.yaml")
    return mail


class Relay:
    """The judge in memory: a Maildir and an outbox that keeps its letters."""

    def __init__(self, table: Table) -> None:
        self.box = maildir(table.tmp / "Maildir")
        self.outbox = MemoryOutbox()
        self.games = table.tmp / "games"
        self.games.mkdir(exist_ok=True)
        self.judge = Judge(self.games, table.keys.key("referee"), MaildirBox(self.box),
                           self.outbox, here(state=table.tmp / "judge-state"), NOTARY)
        self.count = 0

    def post(self, mail: EmailMessage) -> None:
        self.count += 1
        (self.box / "new" / f"{self.count}.msg").write_bytes(bytes(mail))

    def round(self) -> list[str]:
        return self.judge.round()

    def inbox(self, address: str) -> list[EmailMessage]:
        return self.outbox.to(address)


def play(table: Table, post: Callable[[EmailMessage], None], round_: Callable[[], list[str]],
         inbox: Callable[[Seat], list[EmailMessage]], seed: int) -> tuple[str, int, int]:
    """A whole game through the notary from its creation: its id, the messages played and
    the mails sent to the notary (white's reveal and first move go in one).
    Each step the clock moves on five minutes (well within the hour a message has)."""
    game = table.create("--deadline", "1h")
    post(letter(table.white, table.white.game.read_bytes(), "a new game"))
    log = round_()
    assert f"game {game}: the notary holds it now (after message 0)" in "\n".join(log), log
    assert f"game {game}: forwarded to black: {BLACK}" in log, log
    rng = random.Random(seed)
    seat, minutes, posts = table.black, 0, 1
    while True:
        (mail,) = inbox(seat)
        assert str(mail["Subject"]).startswith(f"[frogpbem {game}] ")
        assert mail["Auto-Submitted"] == "auto-generated"
        data = attached(mail)
        seat.game.write_bytes(data)
        file = parse_duel(data, "forwarded")
        if any(m.reveal for m in file.messages) and \
                independent_replay(file).outcome is not None:
            return game, len(file.messages), posts
        minutes += 5
        table.clock(at(60 * minutes))
        table.step(seat, rng)
        post(letter(seat, seat.game.read_bytes(), f"Re: {mail['Subject']}"))
        posts += 1
        log = round_()
        assert any(f"game {game}: stamped message" in line for line in log), log
        assert f"game {game}: forwarded to {table.other(seat).name}: " \
               f"{table.other(seat).address}" in log, log
        seat = table.other(seat)


def message_hash(element: dict[str, object]) -> str:
    """A message's hash, by the spec (docs/format.md, "Signatures"), with hashlib alone."""
    body = {k: v for k, v in element.items() if k != "signature"}
    data = b"frogpbem/1 message\n" + json.dumps(body, sort_keys=True, separators=(",", ":"),
                                                ensure_ascii=False).encode()
    return "sha256:" + hashlib.sha256(data).hexdigest()


def check_stamped(table: Table, path: Path, messages: int) -> None:
    """Every message stamped once, in order, naming its hash (computed here); ``verify``
    prints each stamped time."""
    file = parse_duel(path.read_bytes(), "final")
    assert len(file.messages) == len(file.stamps) == messages
    times = [stamp.at for stamp in file.stamps]
    assert times == sorted(times)
    for stamp, message in zip(file.stamps, file.messages, strict=True):
        assert stamp.message == message_hash(message.to_json())
        assert stamp.at >= message.at  # one clock here: never before the message
    checked = table.run(table.white, "verify", path, key=False)
    assert checked.exit_code == 0, checked.output
    for stamp, message in zip(file.stamps, file.messages, strict=True):
        assert f"OK message {stamp.n} ({message.seat}) stamped by the notary at {stamp.at}" \
            in checked.stdout


def test_referee_free_game_through_the_notary_in_memory_beside_a_refereed_game(
        table: Table) -> None:
    relay = Relay(table)
    club, _ = club_game(table.cli, table.keys, table.tmp, relay.games)
    game, messages, _ = play(table, relay.post, relay.round,
                          lambda seat: relay.inbox(seat.address)[-1:], seed=3)
    assert any(f"game {club}: mailed record 0" in str(m["Subject"]) or
               m["X-Frogpbem-Game"] == club for m in relay.inbox(WHITE))  # served too
    check_stamped(table, relay.games / f"{game}.yaml", messages)
    assert relay.round() == []  # nothing new: nothing stamped or mailed again
    header = parse_duel((relay.games / f"{game}.yaml").read_bytes(), "final").header
    assert send_to(header, "white") == send_to(header, "black") == NOTARY
    assert header.deadline is not None and header.deadline.per_move == "1h"


def test_referee_free_notary_records_a_timeout_and_refuses_late_mail_once(
        table: Table) -> None:
    relay = Relay(table)
    game = table.create("--deadline", "1h")
    relay.post(letter(table.white, table.white.game.read_bytes()))
    relay.round()
    table.black.game.write_bytes(attached(relay.inbox(BLACK)[-1]))
    table.clock(at(600))
    table.step(table.black, random.Random(1))
    relay.post(letter(table.black, table.black.game.read_bytes()))
    assert f"game {game}: stamped message 1 (black) at {at(600)}" in relay.round()[0]
    table.white.game.write_bytes(attached(relay.inbox(WHITE)[-1]))
    table.clock(at(600 + HOUR - 1))
    assert relay.round() == []  # a second before white's deadline: nothing
    table.clock(at(600 + HOUR))
    log = relay.round()
    assert log[0] == f"game {game}: white's deadline passed ({at(600 + HOUR)}): timeout " \
                     f"recorded at {at(600 + HOUR)}; white forfeits", log
    assert {m["X-Frogpbem-Game"] for m in relay.inbox(WHITE)[-1:] + relay.inbox(BLACK)[-1:]} \
        == {game}
    assert "forfeits on time" in str(relay.inbox(BLACK)[-1]["Subject"])
    assert relay.round() == []  # recorded once
    notarised = relay.games / f"{game}.yaml"
    checked = table.run(table.white, "verify", notarised, key=False)
    assert checked.exit_code == 0, checked.output
    assert f"OK timeout: white sent nothing before its deadline; recorded by the notary at " \
           f"{at(600 + HOUR)}" in checked.stdout
    assert "game over: white forfeits on time" in checked.stdout
    # ratings count it: black's win, ended at the timeout
    result = rate_files([notarised], clock=Clock.from_environment(), jobs=1).counted[0].result
    assert result.places == ((1, ("black",)), (2, ("white",)))
    assert result.ended == at(600 + HOUR) and result.termination == "white forfeits on time"
    shown = table.run(table.black, "view", notarised)
    assert shown.exit_code == 0, shown.output
    assert f"game over: white forfeits on time (the notary's timeout at {at(600 + HOUR)})" \
        in shown.stdout and "waiting for" not in shown.stdout
    # white moves late on the copy it had: refused, answered once, in one sentence
    table.clock(at(600 + HOUR + 300))
    table.step(table.white, random.Random(1))
    late = letter(table.white, table.white.game.read_bytes(), "late move")
    relay.post(late)
    before = notarised.read_bytes()
    (took,) = [line for line in relay.round() if line.startswith("message ")]
    assert "refused: the game is over: the notary recorded white's timeout" in took, took
    answer = relay.inbox(WHITE)[-1]
    assert answer["Subject"] == f"[frogpbem {game}] Re: late move"
    assert answer["Auto-Submitted"] == "auto-replied"
    said = answer.get_content()
    assert "What happened: the game is over: the notary recorded white's timeout at " \
           f"{at(600 + HOUR)}, and takes no message after it." in said
    assert notarised.read_bytes() == before
    sent = len(relay.outbox.sent)
    relay.post(late)  # the same message again: filed, not answered twice
    relay.post(letter(table.white, table.white.game.read_bytes(), "auto",
                      Auto_Submitted="auto-replied"))  # a machine's: never answered
    log = relay.round()
    assert len(relay.outbox.sent) == sent, log
    assert sum(1 for _ in (relay.box / f".{REFUSED}" / "cur").iterdir()) == 2
    assert sum(1 for _ in (relay.box / f".{AUTOMATIC}" / "cur").iterdir()) == 1
    timed_out = table.black.folder / "timed-out.yaml"  # black's tool takes no move either
    timed_out.write_bytes(attached(relay.inbox(BLACK)[-1]))
    refused = table.run(table.black, "move", timed_out, "resign")
    assert refused.exit_code == 4 and "the notary recorded white's timeout" in refused.stderr


# --- forgeries, refused by verify ---------------------------------------------------------


@pytest.fixture
def notarised(table: Table) -> tuple[Table, Relay, Path]:
    """A game through the notary: black's join and white's reveal and first move
    stamped, black's answer stamped, white's deadline run out: the timeout recorded."""
    relay = Relay(table)
    game = table.create("--deadline", "1h")
    relay.post(letter(table.white, table.white.game.read_bytes()))
    relay.round()
    rng = random.Random(5)
    seat = table.black
    for minutes in (10, 20, 30):
        table.clock(at(60 * minutes))
        seat.game.write_bytes(attached(relay.inbox(seat.address)[-1]))
        table.step(seat, rng)
        relay.post(letter(seat, seat.game.read_bytes()))
        relay.round()
        seat = table.other(seat)
    table.clock(at(30 * 60 + HOUR + 60))
    relay.round()
    path = relay.games / f"{game}.yaml"
    file = parse_duel(path.read_bytes(), "notarised")
    assert [m.seat for m in file.messages] == ["black", "white", "white", "black"]
    assert [s.at for s in file.stamps] == [at(600), at(1200), at(1200), at(1800)]
    assert file.timeout is not None and file.timeout.seat == "white"
    return table, relay, path


def forged(table: Table, path: Path, file: DuelFile, words: str) -> None:
    """``file`` written beside ``path`` is refused by verify: exit 6, one sentence."""
    copy = path.with_name("forged.yaml")
    copy.write_bytes(dump_duel(file))
    checked = table.run(table.white, "verify", copy, key=False)
    assert checked.exit_code == 6, checked.output
    assert words in checked.stderr, checked.stderr
    assert checked.stderr.count("\n") == 1 and "Traceback" not in checked.output


def test_referee_free_notary_forgeries_are_refused_by_verify(
        notarised: tuple[Table, Relay, Path]) -> None:
    table, _, path = notarised
    file = parse_duel(path.read_bytes(), "notarised")
    notary, mallory = table.keys.key("referee"), table.keys.key("mallory")
    stamps = list(file.stamps)
    # a stamp by another key
    other = replace(stamps[1], signature="").signed(mallory)
    forged(table, path, replace(file, stamps=(stamps[0], other, *stamps[2:])),
           "stamp 2: not signed by the notary's key")
    # a stamp dated back, before the stamp before it (signed by the notary itself)
    back = replace(stamps[3], at=at(900), signature="").signed(notary)
    forged(table, path, replace(file, stamps=(*stamps[:3], back)),
           f"stamp 4: dated {at(900)}, before stamp 3 ({at(1200)}): the notary's times never "
           "go back")
    # a stamp dated back, before its message says it was written, past the skew
    early = replace(stamps[0], at=at(-60), signature="").signed(notary)
    forged(table, path, replace(file, stamps=(early, *stamps[1:])),
           f"stamp 1: dated {at(-60)}, more than 10 minutes before message 1 says it was "
           f"written ({at(600)})")
    # a timeout before the deadline (white's ran from black's stamp 4 for an hour)
    assert file.timeout is not None
    soon = replace(file.timeout, at=at(1800 + HOUR - 1), signature="").signed(notary)
    forged(table, path, replace(file, timeout=soon),
           f"the timeout: dated {at(1800 + HOUR - 1)}, before white's deadline passed "
           f"({at(1800 + HOUR)}, 1h after stamp {at(1800)})")
    # a stamp removed: in the middle, and the last one (before the timeout)
    forged(table, path, replace(file, stamps=(stamps[0], *stamps[2:])),
           "stamp 2: numbered 3, where the stamp of message 2 comes")
    forged(table, path, replace(file, stamps=tuple(stamps[:3])),
           "the timeout: message 4 is not stamped, yet the notary recorded a timeout")
    forged(table, path, replace(file, stamps=tuple(stamps[:1]), timeout=None),
           "message 2: not stamped, yet the other seat answered it")
    # a timeout by another key, and one naming the seat that was not due
    forged(table, path, replace(file, timeout=replace(file.timeout, signature="")
                                .signed(mallory)), "the timeout: not signed by the notary's key")
    forged(table, path, replace(file, timeout=replace(file.timeout, seat="black",
                                                      signature="").signed(notary)),
           "the timeout: names black, but it was white's step")
    # a message after the timeout (the notary's copy with white's late move)
    late = table.white.folder / "late.yaml"
    late.write_bytes(dump_duel(replace(file, timeout=None)))
    table.clock(at(30 * 60 + HOUR + 120))
    assert table.run(table.white, "move", late, choose(independent_replay(
        parse_duel(late.read_bytes(), "late")), random.Random(2))).exit_code == 0
    grown = parse_duel(late.read_bytes(), "late")
    forged(table, path, replace(grown, timeout=file.timeout),
           "message 5: comes after the notary's timeout of white (after message 4)")
    # a stamp ahead of this computer's clock
    table.clock(at(1200 - 60))
    forged(table, path, replace(file, timeout=None),
           "stamp 4: dated 2026-12-01T09:30:00Z, more than 10 minutes ahead of this "
           "computer's clock")


def test_referee_free_a_deadline_needs_a_notary_and_forfeit(table: Table) -> None:
    made = table.run(table.white, "new", table.white.game, "--rules", "froglet",
                     "--no-referee", "--seat", f"white={table.keys.pub('alice')}",
                     "--seat", f"black={table.keys.pub('bob')}", "--deadline", "3d")
    assert made.exit_code == 2 and "need --notary NOTARY.pub" in made.stderr
    same = table.run(table.white, "new", table.white.game, "--rules", "froglet",
                     "--no-referee", "--seat", f"white={table.keys.pub('alice')}",
                     "--seat", f"black={table.keys.pub('bob')}", "--notary",
                     table.keys.pub("bob"))
    assert same.exit_code == 2 and "the notary needs a key of its own" in same.stderr
    assert not table.white.game.exists()
    table.create("--deadline", "3d")
    file = parse_duel(table.white.game.read_bytes(), "new")
    alice = table.keys.key("alice")
    for header, words in (
            (replace(file.header, notary=None, signature=""), "a deadline needs a notary"),
            (replace(file.header, deadline=replace(file.header.deadline, on_timeout="pass"),
                     signature=""), "on_timeout: 'forfeit' was expected")):
        bad = table.white.folder / "bad.yaml"
        doc = DuelFile(header.signed(alice))
        if header.notary is None:
            bad.write_bytes(dump_duel(doc).replace(b"stamps: []\n", b""))
        else:
            bad.write_bytes(dump_duel(doc))
        checked = table.run(table.white, "verify", bad, key=False)
        assert checked.exit_code == 7 and words in checked.stderr, checked.output


@settings(max_examples=40, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@example(first=10, steps=[10, 0, 10])  # as the notary stamped them: they hold
@example(first=10, steps=[10, 0, -1])  # back a minute
@example(first=10, steps=[60, 0, 10])  # white's messages an hour after black's join
@example(first=-1, steps=[21, 0, 10])  # 11 minutes before black's join was written
@given(first=st.integers(-5, 40), steps=st.lists(st.integers(-5, 70), min_size=3, max_size=3))
def test_referee_free_stamp_times_hold_exactly_when_the_rules_say(
        notarised: tuple[Table, Relay, Path], first: int, steps: list[int]) -> None:
    """Stamps re-signed at times drawn here (minutes from T0) verify exactly when the
    rules hold, computed here: never back, not more than 10 minutes before their message,
    and each due seat's message stamped within the hour from the other seat's last stamp
    (black's join has no clock; white's two messages run from stamp 1, black's from 3)."""
    table, _, path = notarised
    file = parse_duel(path.read_bytes(), "notarised")
    notary = table.keys.key("referee")
    offsets = [first, first + steps[0], first + steps[0] + steps[1], first + sum(steps)]
    times = [seconds_of(T0) + 60 * minute for minute in offsets]
    stamps = tuple(Stamp(s.n, s.message, text_of(t)).signed(notary)
                   for s, t in zip(file.stamps, times, strict=True))
    candidate = DuelFile(file.header, file.messages, stamps)
    written = [seconds_of(m.at) for m in file.messages]
    holds = all(a <= b for a, b in zip(times, times[1:], strict=False)) and \
        all(t >= w - 600 for t, w in zip(times, written, strict=True)) and \
        times[1] < times[0] + HOUR and times[2] < times[0] + HOUR and \
        times[3] < times[2] + HOUR
    try:
        replay(candidate, "candidate")
    except (ChainError, SignatureError) as exc:
        assert not holds, exc.message
    else:
        assert holds


# --- the whole game through Dovecot and aiosmtpd ---------------------------------------


@pytest.fixture
def servers() -> Iterator[Servers]:
    with mail_servers() as running:
        yield running


@pytest.mark.no_cover  # CPU-heavy; every package line it runs, other tests cover too
def test_referee_free_game_through_the_notary_on_imap_and_smtp(
        table: Table, servers: Servers) -> None:
    games = table.tmp / "games"
    games.mkdir()

    def judge() -> list[str]:
        env = {**os.environ, "FROGPBEM_IMAP_PASSWORD": PASSWORD,
               "FROGPBEM_HOME": str(table.tmp / "judge-home"),
               "FROGPBEM_STATE": str(table.tmp / "judge-state")}
        done = subprocess.run(
            [sys.executable, "-m", "frogpbem", "judge", "--games", str(games), "--imap",
             f"imap://judge@127.0.0.1:{servers.imap_port}", "--smtp", servers.smtp,
             "--from", NOTARY, "--imap-insecure-loopback", "--key",
             str(table.keys.path("referee")), "--once"],
            env=env, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    def inbox(seat: Seat) -> list[EmailMessage]:
        return [parse(data) for data in servers.inbox(seat.player)]

    game, messages, posts = play(table, lambda mail: send(servers, mail), judge, inbox, seed=4)
    check_stamped(table, games / f"{game}.yaml", messages)
    assert servers.count("judge", "INBOX") == 0
    assert servers.count("judge", "frogpbem-done") == posts


def test_referee_free_a_broken_copy_is_refused_with_one_sentence(table: Table) -> None:
    relay = Relay(table)
    game = table.create()
    relay.post(letter(table.white, table.white.game.read_bytes()))
    relay.round()
    table.black.game.write_bytes(attached(relay.inbox(BLACK)[-1]))
    table.step(table.black, random.Random(1))
    data = table.black.game.read_bytes()
    file = parse_duel(data, "black")
    broken = replace(file, messages=(replace(file.messages[0], at=at(60)),))  # signature off
    relay.post(letter(table.black, dump_duel(broken)))
    (took,) = relay.round()
    assert "refused: it does not verify: the attached file: message 1 (black): not signed by " \
           "black's key." in took
    answer = relay.inbox(BLACK)[-1]
    assert "What to do: save the game file of the notary's last mail" in answer.get_content()
    assert not any(s for s in parse_duel((relay.games / f"{game}.yaml").read_bytes(),
                                         "own").stamps)
    with pytest.raises(FrogPbemError):
        replay(broken)
