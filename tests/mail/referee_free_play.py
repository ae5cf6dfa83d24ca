"""Whole games without a referee by mail, for every ruleset: the driver the mail tests share.

Each seat fetches its one new mail from its own IMAP mailbox (Dovecot, imapclient), saves
it, and answers it with ``frogpbem reply`` alone: without a move first (its tool joins,
takes a step that stands alone, or shows the board), then with a move chosen from the
seat's own ``frogpbem view --json`` of its kept copy by the ruleset's bot
(:func:`frogpbem.games.bot_move`), or ``reveal`` once the game is over. The mail goes
through aiosmtpd, straight to the other seat or through the judge as notary
(``frogpbem judge --once``, run in this process).

Secret Move's setup is the exception, by hand as each mail says ("Or by hand: save the
attached file, run frogpbem move"): ``frogpbem reply`` cannot give a seat's headers in a
game without a referee (it refuses ``--random``, and without it the tool asks for them);
see ``test_referee_free_secretmove_join_by_reply_alone`` in test_referee_free_mail.py.

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
OPTIONS = {"froglet": ("size=4",), "frogfinder": ("size=6", "frogs=2"), "secretmove": ()}
"""Small boards: each game stays short."""
SEATS = {"froglet": ("white", "black"), "frogfinder": ("red", "blue"),
         "secretmove": ("red", "blue")}


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
        self.by_hand = 0
        """How many turns went by hand (Secret Move's setup)."""

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
            (mail,) = fetch(self.servers, seat.player)
            message = parsed(mail)
            sender = message["From"].addresses[0].addr_spec
            assert sender == (NOTARY if self.notary else self.other(seat).address)
            if answered is not None:  # the answer to the mail the other seat got last
                assert message["In-Reply-To"] == answered or self.notary, message
            self.forwarded.append(message["Message-ID"])
            saved = t.tmp / f"{seat.player}-{mails}.eml"
            saved.write_bytes(mail)
            game = parsed(mail)["X-Frogpbem-Game"]
            done = self.turn(seat, saved, game)
            mails += 1
            assert mails < limit
            if done == "over":
                mails -= 1
                writer = self.last_writer
                if writer is not seat and not self.revealed(writer, game):
                    self.by_hand_send(writer, game)  # its own move ended the game
                    answered, mails = None, mails + 1
                    continue
                break
            if done == "alone":  # the other seat moved alone: nothing here to answer
                answered = None
                continue
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

    def revealed(self, seat: Seat, game: str) -> bool:
        file = parse_duel(seat.copy(game).read_bytes(), "copy")
        return any(m.reveal for m in file.messages if m.seat == self.name(seat))

    def by_hand_send(self, seat: Seat, game: str, *move: str) -> None:
        """By hand on the seat's kept copy: ``frogpbem move`` (its reveal when the game is
        over), then ``frogpbem mail``."""
        self.by_hand += 1
        self.last_writer = seat
        done = self.run(seat, "move", seat.copy(game), *move)
        assert done.exit_code == 0, done.stderr
        sent = self.run(seat, "mail", seat.copy(game), "--smtp", self.servers.smtp)
        assert sent.exit_code == 0, sent.stderr

    def turn(self, seat: Seat, saved: Path, game: str) -> str:
        """``seat``'s answer to the mail ``saved``: ``sent``; ``over`` (the game is over and
        the seat has nothing more to send); ``alone`` (the other seat is to move again:
        Secret Move, once this seat is done, and it moved by hand)."""
        shown = self.reply(seat, saved)
        if shown.exit_code == 2 and "chooses its headers first" in shown.stderr:
            self.set_up_by_hand(seat, saved, game)
            return "sent"
        assert shown.exit_code == 0, shown.stderr
        if "sent to " in shown.stdout:  # its join, or a step of its own
            return "sent"
        if "The game is over" in shown.stdout:
            if "You may show your secret" not in shown.stdout:
                return "over"
            revealed = self.reply(seat, saved, "reveal")
            assert revealed.exit_code == 0, revealed.stderr
            assert f"{self.name(seat)} revealed its secret" in revealed.stdout
            return "sent"
        other = self.other(seat)
        if f"{self.name(other)} is to move" in shown.stdout:
            # reply cannot answer twice in a row (a second answer to one mail is refused
            # as a fork): the seat still moving does so by hand
            self.by_hand_send(other, game, self.choose(other, game))
            return "alone"
        assert "It is your move" in shown.stdout, shown.stdout
        for _ in range(40):
            move = self.choose(seat, game)
            done = self.reply(seat, saved, move)
            if done.exit_code == 0:
                assert "sent to " in done.stdout, done.stdout
                return "sent"
            # Frog Finder before the deal: the seat cannot see its frogs yet
            assert done.exit_code == 4 and "your own frog" in done.stderr, done.stderr
        raise AssertionError("no move taken")

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
            letters = "ABCDEF"
            square = f"{self.rng.choice(letters)}{self.rng.randint(1, 6)}"
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
        open_ = [f"{c}{r}" for c in "ABCDEF" for r in range(1, 7) if f"{c}{r}" not in taken]
        return f"shoot {self.rng.choice(open_)}"

    def set_up_by_hand(self, seat: Seat, saved: Path, game: str) -> None:
        """Secret Move's headers, as the mail says to do by hand: the attached file saved,
        ``frogpbem move --random`` (the first seat then its first move), and
        ``frogpbem mail``."""
        self.by_hand += 1
        copy = seat.copy(game)
        seat.games.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(attached(parsed(saved.read_bytes())))
        done = self.run(seat, "move", copy, "--random")
        assert done.exit_code == 0, done.stderr
        if "It is your move" in done.stdout or "to move: " + self.name(seat) in done.stdout \
                or seat is self.table.white:
            move = self.choose(seat, game)
            moved = self.run(seat, "move", copy, move)
            assert moved.exit_code == 0, moved.stderr
        sent = self.run(seat, "mail", copy, "--smtp", self.servers.smtp)
        assert sent.exit_code == 0, sent.stderr


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


def check_finished(player: Player, finished: Finished) -> None:
    """Both seats' final copies (and the notary's) are byte for byte the same file, which
    ``frogpbem audit`` accepts (exit 0) and ``verify`` finds over with the outcome of the
    rules replayed here."""
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
        assert mine.stamps == notarised.stamps[:-1] and mine.header == notarised.header
    file = parse_duel(data, "final")
    assert {m.seat for m in file.messages if m.reveal} == set(SEATS[player.rules])
    if finished.notarised is not None:
        assert len(file.stamps) == len(file.messages)  # every message through the notary
    outcome = independent_outcome(file)
    for seat, copy in zip((t.white, t.black, t.white), copies, strict=False):
        audited = player.run(seat, "audit", copy, key=False)
        assert audited.exit_code == 0, audited.stdout + audited.stderr
        checked = player.run(seat, "verify", copy, key=False)
        assert checked.exit_code == 0, checked.stderr
        assert f"game over: {outcome.termination}" in checked.stdout, checked.stdout
