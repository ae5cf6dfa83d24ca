"""A game without a referee by mail through a notary: every mail goes seat → notary → seat.

The seats answer only with ``frogpbem reply`` on the message they got (the notary's
forward); their answers go to the notary's address, which stamps them and forwards them
(``frogpbem judge`` as notary). A whole game of each ruleset runs on one Dovecot and
aiosmtpd for the module, each seat fetching with imapclient (Froglet here, Frog Finder
and Secret Move by the driver of tests/mail/referee_free_play.py); a seat silent past its
deadline runs through the judge in memory (a Maildir and an outbox that keeps its
letters). The clock is ``$FROGPBEM_NOW``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from frogpbem.gamefile.duelfile import parse_duel
from frogpbem.mail.judge import Judge, MaildirBox
from frogpbem.mail.outbox import MemoryOutbox
from frogpbem.protocol.times import seconds_of, text_of
from tests.conftest import Keys, here
from tests.duel.test_referee_free_cli import choose, independent_replay
from tests.mail.test_referee_free_mail import (
    Result,
    Seat,
    Table,
    attached,
    fetch,
    independent_state,
    parsed,
)
from tests.test_judge import DOMAIN, Servers, mail_servers
from tests.test_judge_citizen import maildir

NOTARY = f"judge@{DOMAIN}"
T0 = "2026-12-01T09:00:00Z"
HOUR = 3600
VIA = "(to the notary, who stamps it and forwards it to {})"


def at(seconds: int) -> str:
    return text_of(seconds_of(T0) + seconds)


@pytest.fixture
def table(tmp_path: Path, keys: Keys, monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setenv("FROGPBEM_NOW", T0)
    return Table(tmp_path, keys, monkeypatch)


def clock(table: Table, when: str) -> None:
    table.monkeypatch.setenv("FROGPBEM_NOW", when)


def create(table: Table) -> Path:
    """White's new game with the judge as notary and a deadline of an hour a message."""
    game = table.white.root / "game.yaml"
    made = table.run(table.white, "new", game, "--rules", "froglet", "--no-referee",
                     "--seat", f"white={table.keys.pub('alice')}",
                     "--seat", f"black={table.keys.pub('bob')}",
                     "--name", "white=Alice", "--name", "black=Bob", "--option", "size=4",
                     "--email", f"white={table.white.address}",
                     "--email", f"black={table.black.address}",
                     "--email", f"notary={NOTARY}", "--notary", table.keys.pub("referee"),
                     "--deadline", "1h")
    assert made.exit_code == 0, made.stderr
    return game


def body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    text = part.get_content()
    assert isinstance(text, str)
    return text


def other(table: Table, seat: Seat) -> Seat:
    return table.black if seat is table.white else table.white


@pytest.fixture(scope="module")
def servers() -> Iterator[Servers]:
    """One Dovecot and one aiosmtpd for the module's games, one game after another."""
    with mail_servers() as running:
        yield running


@pytest.mark.parametrize(("rules", "seed"), [
    ("frogfinder", 4), ("secretmove", 6)])
def test_referee_free_a_whole_game_through_the_notary(
        table: Table, servers: Servers, rules: str, seed: int) -> None:
    """Frog Finder and Secret Move (Froglet: above) seat → notary → seat, each seat
    answering the notary's forward with frogpbem reply alone (Secret Move's headers --random),
    the moves the bots' from the seat's own view --json; ``frogpbem judge --once`` after
    each mail; every message stamped; audit accepts both seats' copies and the notary's."""
    from tests.mail.referee_free_play import Player, check_finished, write_transcript

    player = Player(table, servers, rules, seed, notary=True)
    finished = player.play()
    write_transcript(finished, f"{rules}-notary")
    assert finished.mails >= 4
    check_finished(player, finished)
    taken = [parsed(data) for data in servers.inbox("judge", "frogpbem-done")]
    mine = [m for m in taken if m["X-Frogpbem-Game"] == finished.game]
    assert len(mine) == finished.mails + 1  # the invitation, then each seat's mail
    for mail_to_notary in mine:
        assert mail_to_notary["To"].addresses[0].addr_spec == NOTARY
        assert mail_to_notary["Auto-Submitted"] is None


def test_referee_free_notary_subject_of_a_shot_awaiting_its_answer(table: Table) -> None:
    """The notary's subject for a Frog Finder file whose last shot awaits its answer (the
    notary skipped such a file every round: 'not a frog-finding result: None')."""
    from frogpbem.duel.engine import replay
    from frogpbem.mail.notary import _subject

    game = table.new(rules="frogfinder")

    def hand(seat: Seat, *words: str) -> Path:
        """``seat``'s move on the latest copy, which comes to it as a mail would."""
        seat.games.mkdir(exist_ok=True)
        copy = seat.games / "game.yaml"
        if copy != game:
            copy.write_bytes(game.read_bytes())
        done = table.run(seat, "move", copy, *words)
        assert done.exit_code == 0, done.stderr
        return copy

    for seat in (table.black, table.white, table.black):  # blue joins; each seat's step
        game = hand(seat)
    copy = table.white.games / "game.yaml"
    for _ in range(6):  # red's overlap step goes with its first shot
        copy.write_bytes(game.read_bytes())
        for square in (f"{col}{row}" for row in range(1, 9) for col in "ABCDEFGH"):
            tried = table.run(table.white, "move", copy, f"shoot {square}")
            if tried.exit_code == 0 or "not dealt yet" in tried.stderr:
                break  # else the square holds red's own frog (exit 4): the next one
        if tried.exit_code == 0:
            break
        # the placements overlapped: red's overlap step and new setup, blue's, again
        game = hand(table.white)
        game = hand(table.black)
    assert tried.exit_code == 0, tried.stderr
    file = parse_duel(copy.read_bytes(), "red's copy")
    assert file.messages[-1].move == f"shoot {square}"
    said = _subject(file, replay(file))
    assert said == f"[frogpbem {file.game}] {len(file.messages)}. red played shoot " \
                  f"{square}: awaiting the answer \u2014 blue to move"


def test_referee_free_a_whole_froglet_game_through_the_notary_by_reply_alone(
        table: Table, servers: Servers) -> None:
    """Seat → notary → seat for every mail; the seats run only ``frogpbem reply`` on the
    notary's forward; ``frogpbem audit`` accepts the notary's file at the end."""
    from tests.mail.referee_free_play import Player

    notary = Player(table, servers, "froglet", 0, notary=True)  # its judge rounds only
    games = notary.notary_games
    games.mkdir()
    judge = notary.judge  # ``frogpbem judge --once``, in this process

    game_file = create(table)
    invited = table.run(table.white, "mail", game_file, "--smtp", servers.smtp)
    assert invited.exit_code == 0, invited.stderr
    assert invited.stdout.strip() == f"sent to the notary: {NOTARY} {VIA.format('black')}"
    assert fetch(servers, table.black.player) == []  # nothing straight to black
    log = judge()
    game = parse_duel(game_file.read_bytes(), "new").game
    assert f"game {game}: forwarded to black: {table.black.address}" in log, log
    rng = random.Random(11)
    seat, steps, minutes = table.black, 0, 0
    forwarded: list[str] = []
    while True:
        (mail,) = fetch(servers, seat.player)
        message = parsed(mail)
        assert message["From"].addresses[0].addr_spec == NOTARY  # the notary's forward
        forwarded.append(message["Message-ID"])
        saved = table.tmp / f"{seat.player}-{steps}.eml"
        saved.write_bytes(mail)
        copy = parse_duel(attached(message), "mail")
        assert len(copy.stamps) == len(copy.messages)  # all of it through the notary
        if not copy.messages:
            move: str | None = None  # black joins
        elif not any(m.reveal for m in copy.messages):
            # white's first turn: its deadline runs an hour from the stamp of black's join
            until = text_of(seconds_of(copy.stamps[0].at) + HOUR)
            shown = table.run(seat, "reply", saved, "--games", seat.games)
            assert shown.exit_code == 0, shown.stderr
            assert f"Your deadline (white): {until}, 1h after the notary's stamp at " \
                   f"{copy.stamps[0].at} (the notary's clock decides)." in shown.stdout
            assert f"white's deadline is {until}" in body(message)
            move = choose(independent_state(seat, game, saved, table.keys), rng)
        else:
            state = independent_replay(copy)
            if state.outcome is not None:
                break
            move = choose(state, rng)
        minutes += 5
        clock(table, at(60 * minutes))
        done = table.run(seat, "reply", saved, *([move] if move else []), "--games",
                         seat.games, "--smtp", servers.smtp)
        assert done.exit_code == 0, done.stderr
        nxt = other(table, seat)
        assert f"sent to Notary <{NOTARY}> {VIA.format(nxt.name)}" in done.stdout, done.stdout
        assert "warning" not in done.stdout  # well within the hour
        assert fetch(servers, nxt.player) == []  # not to the other seat
        log = judge()
        assert any(f"game {game}: stamped message" in line for line in log), log
        assert f"game {game}: forwarded to {nxt.name}: {nxt.address}" in log, log
        seat, steps = nxt, steps + 1
        assert steps < 200
    final = independent_replay(copy)
    assert final.outcome is not None
    notarised = games / f"{game}.yaml"
    shown = table.run(seat, "reply", saved, "--games", seat.games)
    assert shown.exit_code == 0 and "The game is over" in shown.stdout, shown.stderr
    assert seat.copy(game).read_bytes() == notarised.read_bytes()
    for copy in (notarised, seat.copy(game), other(table, seat).copy(game)):
        audited = table.run(seat, "audit", copy, key=False)
        assert audited.exit_code == 0, audited.stdout + audited.stderr
    checked = table.run(seat, "verify", notarised, key=False)
    assert checked.exit_code == 0 and f"game over: {final.outcome.termination}" in \
        checked.stdout, checked.stderr
    # every seat's mail reached the notary, said so, and answered the notary's forward
    taken = [m for m in map(parsed, servers.inbox("judge", "frogpbem-done"))
             if m["X-Frogpbem-Game"] == game]  # the module's servers serve other games
    assert len(taken) == steps + 1
    for number, mail_to_notary in enumerate(taken):
        assert mail_to_notary["To"].addresses[0].addr_spec == NOTARY
        sender = mail_to_notary["From"].addresses[0].addr_spec
        assert sender in (table.white.address, table.black.address)
        assert str(mail_to_notary["Subject"]).endswith("(via the notary)")
        assert "to the notary (Notary), who stamps it and forwards it to" in \
            body(mail_to_notary)
        assert mail_to_notary["Auto-Submitted"] is None
        if number:
            assert mail_to_notary["In-Reply-To"] == forwarded[number - 1]


def test_referee_free_a_seat_silent_past_its_deadline_takes_the_notarys_timeout(
        table: Table) -> None:
    """Black lets its hour pass, then answers: its tool warns, the notary records the
    timeout, refuses the late answer once, and black's tool takes the timeout copy (its
    memory held its own late, never-stamped message: not a rollback)."""
    box = maildir(table.tmp / "Maildir")
    outbox = MemoryOutbox()
    games = table.tmp / "notary-games"
    games.mkdir()
    notary = Judge(games, table.keys.key("referee"), MaildirBox(box), outbox,
                   here(state=table.tmp / "judge-state", home=table.tmp / "judge-home"),
                   NOTARY)
    posted = [0]

    def post(path: Path) -> None:
        posted[0] += 1
        (box / "new" / f"{posted[0]}.msg").write_bytes(path.read_bytes())

    def forward(seat: Seat, name: str) -> Path:
        (letter,) = outbox.to(seat.address)[-1:]
        saved = table.tmp / f"{name}.eml"
        saved.write_bytes(bytes(letter))
        return saved

    game_file = create(table)
    folder = table.tmp / "out"
    sent = table.run(table.white, "mail", game_file, "--out", folder)
    assert sent.exit_code == 0, sent.stderr
    assert sent.stdout.strip().endswith(f", to {NOTARY} {VIA.format('black')}"), sent.stdout
    (invitation,) = folder.glob("*.eml")
    assert parsed(invitation.read_bytes())["To"].addresses[0].addr_spec == NOTARY
    post(invitation)
    notary.round()
    joined, joined_answer = table.reply(table.black, forward(table.black, "invited"))
    assert joined.exit_code == 0, joined.stderr
    post(joined_answer)
    clock(table, at(600))
    assert any("stamped message 1 (black)" in line for line in notary.round())
    join_mail = forward(table.white, "joined")
    clock(table, at(1200))
    first = choose(independent_state(table.white, "", join_mail, table.keys),
                   random.Random(5))
    played, answer = table.reply(table.white, join_mail, first)
    assert played.exit_code == 0, played.stderr
    post(answer)
    assert any("stamped message 2 (white)" in line for line in notary.round())
    to_black = forward(table.black, "to-black")
    # each forward answers the seat's mail that brought its message (RFC 5322 threading)
    for brought, relayed in ((answer, to_black), (joined_answer, join_mail)):
        sent, got = parsed(brought.read_bytes()), parsed(relayed.read_bytes())
        assert got["In-Reply-To"] == sent["Message-ID"]
        assert str(got["References"]).split() == \
            [*str(sent["References"] or "").split(), sent["Message-ID"]]
    file = parse_duel(attached(parsed(to_black.read_bytes())), "forwarded")
    game, stamp = file.game, file.stamps[-1].at
    assert stamp == at(1200)
    until = at(1200 + HOUR)  # black's hour runs from the stamp of white's message 2
    clock(table, at(1800))
    shown = table.run(table.black, "reply", to_black, "--games", table.black.games)
    assert shown.exit_code == 0, shown.stderr
    assert f"Your deadline (black): {until}, 1h after the notary's stamp at {stamp}" in \
        shown.stdout and "warning" not in shown.stdout
    # black answers five minutes late, before the notary's next round
    clock(table, at(1200 + HOUR + 300))
    move = choose(independent_replay(file), random.Random(2))
    late, answer = table.reply(table.black, to_black, move)
    assert late.exit_code == 0, late.stderr
    assert f"warning: your deadline passed at {until} by your clock ({at(1200 + HOUR + 300)})" \
        in late.stdout
    assert len(parse_duel(table.black.copy(game).read_bytes(), "kept").messages) == 3
    assert f"black's deadline for it: {until}" in body(parsed(answer.read_bytes()))
    post(answer)
    before = len(outbox.sent)
    log = notary.round()
    assert any("refused: it came after black's deadline" in line for line in log), log
    new = outbox.sent[before:]
    refusals = [m for m, to in new if m["Auto-Submitted"] == "auto-replied"]
    assert [to for m, to in new if m["Auto-Submitted"] == "auto-replied"] == \
        [table.black.address] and len(refusals) == 1  # one answer
    assert "the notary recorded the timeout" in body(refusals[0])
    assert sorted(to for m, to in new if m["Auto-Submitted"] == "auto-generated") == \
        sorted([table.white.address, table.black.address])  # the timeout, to both
    assert notary.round() == [] and len(outbox.sent) == before + 3  # no loop
    notarised = (games / f"{game}.yaml").read_bytes()
    timed_out = forward(table.black, "timed-out")
    assert attached(parsed(timed_out.read_bytes())) == notarised
    # black's tool takes the timeout copy: the game is over, black forfeits
    taken = table.run(table.black, "reply", timed_out, "--games", table.black.games)
    assert taken.exit_code == 0, taken.stderr
    recorded = parse_duel(notarised, "notarised").timeout
    assert recorded is not None and recorded.seat == "black" and recorded.n == 2
    assert f"The game is over: the notary recorded black's timeout at {recorded.at}" in \
        taken.stdout and "black forfeits" in taken.stdout
    assert f"game over: black forfeits on time (the notary's timeout at {recorded.at})" in \
        taken.stdout
    assert table.black.copy(game).read_bytes() == notarised
    memory = table.tmp / "bob" / "home" / "seen"
    assert (memory / f"{game}.duel.yaml").read_bytes() == notarised
    seen = json.loads((memory / f"{game}.duel.json").read_text())
    assert len(seen) == 1 + 2 + 1 and seen[-1].startswith("timeout:sha256:")
    viewed = table.run(table.black, "view", table.black.copy(game))
    assert viewed.exit_code == 0 and "black forfeits on time" in viewed.stdout
    again: Result = table.run(table.black, "reply", timed_out, move, "--games",
                              table.black.games, "--out", table.tmp / "never.eml")
    assert again.exit_code == 4 and "the notary recorded black's timeout" in again.stderr
    assert not (table.tmp / "never.eml").exists()
    # an older mail of the same messages, without the timeout, does not undo it
    older: Result = table.run(table.black, "reply", to_black, move, "--games",
                              table.black.games, "--out", table.tmp / "never.eml")
    assert older.exit_code == 4 and "the notary recorded black's timeout" in older.stderr
    assert not (table.tmp / "never.eml").exists()
    assert table.black.copy(game).read_bytes() == notarised
    white = table.run(table.white, "reply", forward(table.white, "white-timed-out"),
                      "--games", table.white.games)
    assert white.exit_code == 0 and "black forfeits" in white.stdout, white.stderr
    assert notary.round() == []
