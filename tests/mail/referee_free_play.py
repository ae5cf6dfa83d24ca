"""Whole games without a referee by mail, for every ruleset: the driver the mail tests share.

Each seat fetches its one new mail from its own IMAP mailbox (Dovecot, imapclient), saves
it (the newest, when the other seat moved alone), and answers it with ``frogpbem reply``
alone, as the mail says: with ``--random`` where the mail asks for the seat's setup
(Secret Move's headers), else without a move first (its tool joins, takes a step that
stands alone, sends its reveal once the outcome waits for it, or shows the board), then
with a move chosen from the seat's own ``frogpbem view --json`` of its kept copy by the
ruleset's bot (:func:`frogpbem.games.bot_move`); a seat whose tool says it is its move
again (the other seat is done) answers the same mail again with its next move. The mail
goes through aiosmtpd, straight to the other seat or through the judge as notary
(``frogpbem judge --once``, run in this process). Nothing is done by hand.

Every command and its output go into a transcript (``FROGPBEM_TRANSCRIPT=FILE`` writes it).
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path

from typer.testing import CliRunner

from frogpbem.cli import app
from frogpbem.gamefile.duelfile import DuelFile, parse_duel
from frogpbem.games import Outcome, bot_move, find_game
from tests.mail.test_referee_free_mail import (
    Result,
    Seat,
    Table,
    attached,
    fetch,
    parsed,
)
from tests.test_judge import DOMAIN, PASSWORD, Servers

NOTARY = f"judge@{DOMAIN}"
FROGS_SIZE = 5
"""Frog Finder's board here: small, for a short game (each shot is answered with a proof)."""
OPTIONS = {"froglet": ("size=4",), "frogfinder": (f"size={FROGS_SIZE}", "frogs=2"),
           "secretmove": ()}
"""Small boards: each game stays short."""
SEATS = {"froglet": ("white", "black"), "frogfinder": ("red", "blue"),
         "secretmove": ("red", "blue")}
REVEALS = {"froglet": {"white"}, "frogfinder": {"red", "blue"},
           "secretmove": {"red", "blue"}}
"""The seats whose reveal the game needs: every one of them is in the final file."""


@dataclass
class Finished:
    """A game played out: its id, how many mails went from seat to seat, the transcript."""

    game: str
    mails: int
    notarised: Path | None
    transcript: list[str] = field(default_factory=list)


class Player:
    """Runs a table's game of ``rules`` by mail through ``servers`` (and the notary)."""

    def __init__(self, table: Table, servers: Servers, rules: str, seed: int,
                 notary: bool = False) -> None:
        self.table, self.servers, self.rules = table, servers, rules
        self.rng = random.Random(seed)
        self.notary = notary
        self.ruleset = find_game(rules)
        self.transcript: list[str] = []
        self.notary_games = table.tmp / "notary-games"
        self.forwarded: list[str] = []
        """The Message-IDs of the mails the seats got, in order."""
        self.last_writer = table.white
        """The seat that sent the last mail."""
        self.alone = 0
        """How many moves a seat made alone (answering the same mail again)."""
        self.reveals = 0
        """How many reveals went by ``reply`` with no move, as the mail asked."""

    # --- commands -------------------------------------------------------------------------

    def run(self, seat: Seat, *args: object, key: bool = True) -> Result:
        done = self.table.run(seat, *args, key=key)
        shown = " ".join(str(a) for a in args) + (f" --key {seat.player}.key" if key else "")
        self.log(f"{seat.player}$ frogpbem {shown}", done)
        return done

    def log(self, command: str, done: Result) -> None:
        text = (done.stdout + done.stderr).rstrip("\n")
        self.transcript.append(f"{command}\n{text}\n[exit {done.exit_code}]")

    def judge(self) -> list[str]:
        """The notary's round: ``frogpbem judge --once`` on its IMAP mailbox."""
        env = {"FROGPBEM_IMAP_PASSWORD": PASSWORD,
               "FROGPBEM_HOME": str(self.table.tmp / "judge-home"),
               "FROGPBEM_STATE": str(self.table.tmp / "judge-state")}
        args = ["judge", "--games", str(self.notary_games), "--imap",
                f"imap://judge@127.0.0.1:{self.servers.imap_port}", "--smtp",
                self.servers.smtp, "--from", NOTARY, "--imap-insecure-loopback", "--key",
                str(self.table.keys.path("referee")), "--once"]
        done = CliRunner().invoke(app, args, env=env, catch_exceptions=False)
        result = Result(done.exit_code, done.stdout, done.stderr)
        self.log("judge$ frogpbem " + " ".join(args[:-4] + ["--key", "judge.key", "--once"]),
                 result)
        assert done.exit_code == 0, done.stderr
        return done.stdout.splitlines()

    # --- the game -------------------------------------------------------------------------

    def create(self) -> Path:
        first, second = SEATS[self.rules]
        t = self.table
        game = t.white.root / "game.yaml"
        notary = ["--email", f"notary={NOTARY}", "--notary", t.keys.pub("referee"),
                  "--deadline", "72h"] if self.notary else []
        options = [x for o in OPTIONS[self.rules] for x in ("--option", o)]
        made = self.run(t.white, "new", game, "--rules", self.rules, "--no-referee",
                        "--seat", f"{first}={t.keys.pub('alice')}",
                        "--seat", f"{second}={t.keys.pub('bob')}",
                        "--name", f"{first}=Alice", "--name", f"{second}=Bob", *options,
                        "--email", f"{first}={t.white.address}",
                        "--email", f"{second}={t.black.address}", *notary)
        assert made.exit_code == 0, made.stderr
        return game

    def play(self, limit: int = 400) -> Finished:
        """The whole game, from the first seat's invitation to the last mail nobody need
        answer; checks each mail's sender and thread on the way."""
        t = self.table
        for user in ("alice", "bob", "judge"):  # the servers serve one game after another
            assert fetch(self.servers, user) == [], f"{user}'s mail of another game"
        self.servers.inbox("judge", "frogpbem-done")  # what the notary took of another game
        if self.notary:
            self.notary_games.mkdir()
        game_file = self.create()
        invited = self.run(t.white, "mail", game_file, "--smtp", self.servers.smtp)
        assert invited.exit_code == 0, invited.stderr
        seat, answered, mails = t.black, None, 0
        game = ""
        while True:
            if self.notary:
                log = self.judge()
                assert any("forwarded to" in line for line in log), log
            got = fetch(self.servers, seat.player)
            assert got, f"no mail for {seat.player}"
            for mail in got:  # more than one: the other seat moved alone
                message = parsed(mail)
                sender = message["From"].addresses[0].addr_spec
                assert sender == (NOTARY if self.notary else self.other(seat).address)
                if answered is not None:  # the answer to the mail the other seat got last
                    assert message["In-Reply-To"] == answered or self.notary, message
                self.forwarded.append(message["Message-ID"])
            # the newest: the longest copy (mails sent in a row may arrive in any order)
            mail = max(got, key=lambda data: len(parse_duel(attached(parsed(data)),
                                                            "mail").messages))
            message = parsed(mail)
            saved = t.tmp / f"{seat.player}-{mails}.eml"
            saved.write_bytes(mail)
            game = message["X-Frogpbem-Game"]
            done = self.turn(seat, saved, game)
            mails += len(got)
            assert mails < limit
            if done == "over":
                mails -= 1
                break
            self.last_writer = seat
            answered = message["Message-ID"]
            seat = self.other(seat)
        notarised = self.notary_games / f"{game}.yaml" if self.notary else None
        return Finished(str(game), mails, notarised, self.transcript)

    def other(self, seat: Seat) -> Seat:
        return self.table.black if seat is self.table.white else self.table.white

    def reply(self, seat: Seat, saved: Path, *words: str) -> Result:
        return self.run(seat, "reply", saved, *words, "--games", seat.games, "--smtp",
                        self.servers.smtp)

    def turn(self, seat: Seat, saved: Path, game: str) -> str:
        """``seat``'s answer to the mail ``saved``, as the mail says: ``sent``, or ``over``
        (the game is over and nothing more is due from the seat)."""
        text = parsed(saved.read_bytes()).get_body(("plain",)).get_content()  # type: ignore[union-attr]
        if "--random" in text:  # the mail asks for the seat's setup (Secret Move)
            chosen = self.reply(seat, saved, "--random")
            assert chosen.exit_code == 0, chosen.stderr
            if "sent to " in chosen.stdout:  # its join
                return "sent"
            assert "not sent yet: it goes with your move" in chosen.stdout, chosen.stdout
            return self.move(seat, saved, game)
        shown = self.reply(seat, saved)
        assert shown.exit_code == 0, shown.stderr
        if "sent to " in shown.stdout:  # its join, a step of its own, or its reveal
            assert "It is your move again" not in shown.stdout
            if "the outcome waits for your reveal" in text:  # as the mail said
                assert f"{self.name(seat)} revealed its secret" in shown.stdout
                self.reveals += 1
            return "sent"
        if "The game is over" in shown.stdout or "the outcome waits for" in shown.stdout:
            return "over"
        assert "It is your move" in shown.stdout, "\n\n".join(self.transcript[-4:])
        return self.move(seat, saved, game)

    def move(self, seat: Seat, saved: Path, game: str) -> str:
        """The seat's move in answer to ``saved``, and its next ones while its tool says it
        is its move again (the other seat is done: it moves alone)."""
        for _ in range(40):
            for _ in range(40):
                move = self.choose(seat, game)
                done = self.reply(seat, saved, move)
                if done.exit_code == 0:
                    break
                # Frog Finder before the deal: the seat cannot see its frogs yet
                assert done.exit_code == 4 and "your own frog" in done.stderr, done.stderr
            else:
                raise AssertionError("no move taken")
            assert "sent to " in done.stdout, done.stdout
            if "It is your move again" not in done.stdout:
                return "sent"
            self.alone += 1
            if self.notary:  # the notary stamps and forwards each message as it comes
                log = self.judge()
                assert any("forwarded to" in line for line in log), log
        raise AssertionError("moving alone without end")

    def name(self, seat: Seat) -> str:
        return SEATS[self.rules][0 if seat is self.table.white else 1]

    def choose(self, seat: Seat, game: str) -> str:
        """The bot's move from the seat's own ``view --json`` of its kept copy."""
        shown = self.run(seat, "view", seat.copy(game), "--json")
        assert shown.exit_code == 0, shown.stderr
        data = json.loads(shown.stdout)
        if self.rules == "frogfinder":
            return self.frog_move(data, self.name(seat))
        view = self.ruleset.read_view(data["state"])
        return bot_move(self.ruleset, view, self.name(seat), self.rng)

    def frog_move(self, data: dict[str, object], name: str) -> str:
        """Frog Finder: the bot's move, but never on a square whose move awaits its answer
        (the bot's view has it open); before the deal, any square."""
        if not data.get("dealt", True):
            letters = "ABCDEFGHIJKL"[:FROGS_SIZE]
            square = f"{self.rng.choice(letters)}{self.rng.randint(1, FROGS_SIZE)}"
            return f"{self.rng.choice(['shoot', 'guess'])} {square}"
        state, moves = data["state"], data["moves"]
        assert isinstance(moves, list)
        pending = {m["move"].split()[-1] for m in moves if m["result"] is None}
        view = self.ruleset.read_view(state)  # type: ignore[arg-type]
        move = bot_move(self.ruleset, view, name, self.rng)
        assert isinstance(state, dict)
        if move.split()[-1] not in pending:
            return move
        taken = {*state["shots"], *state["revealed"], *state["misses"], *pending,
                 *[sq for frogs in state["own_frogs"].values() for sq in frogs]}
        open_ = [f"{c}{r}" for c in "ABCDEFGHIJKL"[:FROGS_SIZE] for r in range(1, FROGS_SIZE + 1)
                 if f"{c}{r}" not in taken]
        return f"shoot {self.rng.choice(open_)}"

def write_transcript(finished: Finished, name: str) -> None:
    """The transcript into ``$FROGPBEM_TRANSCRIPT``-NAME.txt, when that is set."""
    where = os.environ.get("FROGPBEM_TRANSCRIPT")
    if where:
        Path(f"{where}-{name}.txt").write_text("\n\n".join(finished.transcript) + "\n")



def independent_outcome(file: DuelFile) -> Outcome:
    """The game's outcome by the rules alone, with every hidden part taken from the reveals
    (the tests' own replays, not the engine's)."""
    if file.header.rules == "froglet":
        from tests.duel.test_referee_free_cli import independent_replay as froglet_replay

        outcome = froglet_replay(file).outcome
    elif file.header.rules == "frogfinder":
        from tests.duel.test_referee_free_frogfinder_cli import RULES as FROGS
        from tests.duel.test_referee_free_frogfinder_cli import independent_replay as frogs

        outcome = FROGS.outcome(frogs(file))
    else:
        from tests.duel.test_referee_free_secretmove_cli import RULES as SECRET
        from tests.duel.test_referee_free_secretmove_cli import referee_replay

        headers, guesses = {}, {}
        for message in file.messages:
            answer = message.step("answer")
            if isinstance(answer, dict) and isinstance(answer.get("headers"), dict):
                shown = answer["headers"]
                cols, rows = shown["cols"], shown["rows"]  # type: ignore[index]
                assert isinstance(cols, list) and isinstance(rows, list)
                numbers = [int(x) for x in [*cols, *rows]]  # type: ignore[arg-type]
                headers[message.seat] = (numbers[0], numbers[1], numbers[2], numbers[3],
                                         numbers[4], numbers[5])
                opening = answer.get("opening")
                if isinstance(opening, dict) and isinstance(opening.get("guess"), list):
                    guesses[message.seat] = tuple(int(x) for x in opening["guess"])  # type: ignore[union-attr, arg-type]
        outcome = SECRET.outcome(referee_replay(file, headers, guesses))
    assert outcome is not None, "the game is not over by the rules"
    return outcome


def awaiting_answers(file: DuelFile, audited: str) -> None:
    """Frog Finder's audit of a whole game says each move awaits its answer in the
    message that plays it (rather than failing on the missing result)."""
    moves = [m for m in file.messages if m.move is not None]
    awaiting = [line for line in audited.splitlines()
                if line.strip().startswith("ok") and "awaiting the answer" in line]
    assert len(awaiting) == len(moves), audited  # each move, in the message that played it
    for message in moves:
        assert f"{message.seat} played {message.move}: awaiting the answer" in audited


def check_finished(player: Player, finished: Finished) -> None:
    """Both seats' final copies (and the notary's) are byte for byte the same file, which
    ``frogpbem audit`` accepts (exit 0; Frog Finder's says each move awaits its answer)
    and ``verify`` finds over with the outcome of the rules replayed here."""
    t = player.table
    copies = [t.white.copy(finished.game), t.black.copy(finished.game)]
    if finished.notarised is not None:
        copies.append(finished.notarised)
    last = player.last_writer
    files = {copy: parse_duel(copy.read_bytes(), str(copy)) for copy in copies}
    if finished.notarised is None:
        assert copies[0].read_bytes() == copies[1].read_bytes()
        data = copies[0].read_bytes()
    else:
        # the notary forwards its stamped file to the seat that did not write the last
        # message alone (docs/format.md, "A notary"): that seat's copy is the notary's;
        # the last writer's lacks only the stamp of its own last message
        data = finished.notarised.read_bytes()
        reader = t.black if last is t.white else t.white
        assert reader.copy(finished.game).read_bytes() == data
        mine, notarised = files[last.copy(finished.game)], parse_duel(data, "notary")
        assert mine.messages == notarised.messages
        assert mine.stamps == notarised.stamps[:len(mine.stamps)]
        assert mine.header == notarised.header
        assert all(m.seat == player.name(last) for m in
                   notarised.messages[len(mine.stamps):])  # its own, stamped since
    file = parse_duel(data, "final")
    # the reveals each ruleset needs (docs/format.md): Froglet's white's alone, at the deal
    assert {m.seat for m in file.messages if m.reveal} == REVEALS[player.rules]
    if finished.notarised is not None:
        assert len(file.stamps) == len(file.messages)  # every message through the notary
    outcome = independent_outcome(file)
    for seat, copy in zip((t.white, t.black, t.white), copies, strict=False):
        audited = player.run(seat, "audit", copy, key=False)
        assert audited.exit_code == 0, audited.stdout + audited.stderr
        assert "verdict: everything holds" in audited.stdout, audited.stdout
        if player.rules == "frogfinder":
            awaiting_answers(file, audited.stdout)
        checked = player.run(seat, "verify", copy, key=False)
        assert checked.exit_code == 0, checked.stderr
        assert f"game over: {outcome.termination}" in checked.stdout, checked.stdout
