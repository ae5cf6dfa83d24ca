"""Frog Finder without a referee, played by two keys through the command line.

Each seat has a home and a folder of its own; a copy goes from one folder to the other as
a mail would. The moves are chosen at random (a square the tool refuses, the seat's own
frog, is chosen again); the final scores and outcome are those of an independent replay
through the rules with both placements, derived here from the revealed secrets.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from frogpbem import crypto
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.gamefile.duelfile import DuelFile, Message, dump_duel, parse_duel
from frogpbem.gamefile.model import JSON
from frogpbem.games.frogfinder import FrogFinder
from frogpbem.games.frogs import State
from tests.conftest import Cli, Keys, Result
from tests.duel.test_referee_free_frogfinder import independent_placement, names

Run = Callable[..., Result]
RULES = FrogFinder()


@dataclass
class Seat:
    name: str
    player: str
    folder: Path

    @property
    def game(self) -> Path:
        return self.folder / "game.yaml"


@pytest.fixture
def seats(tmp_path: Path) -> tuple[Seat, Seat]:
    red, blue = Seat("red", "alice", tmp_path / "alice"), Seat("blue", "bob", tmp_path / "bob")
    for seat in (red, blue):
        seat.folder.mkdir()
    return red, blue


@pytest.fixture
def as_seat(cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    def run(seat: Seat, *args: str | Path, key: bool = True) -> Result:
        monkeypatch.setenv("FROGPBEM_HOME", str(tmp_path / f"home-{seat.player}"))
        monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / f"state-{seat.player}"))
        extra: tuple[str | Path, ...] = ("--key", keys.path(seat.player)) if key else ()
        return cli(*args, *extra)

    return run


def mail(sender: Seat, receiver: Seat) -> None:
    shutil.copyfile(sender.game, receiver.game)


def read(seat: Seat) -> DuelFile:
    return parse_duel(seat.game.read_bytes(), str(seat.game))


def set_up(run: Run, keys: Keys, red: Seat, blue: Seat, size: int, frogs: int) -> None:
    """Create, join and set up until the board is dealt (red's overlap of m = 0)."""
    made = run(red, "new", red.game, "--rules", "frogfinder", "--no-referee",
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--option", f"size={size}", "--option", f"frogs={frogs}")
    assert made.exit_code == 0, made.output
    pair = {red.name: (red, blue), blue.name: (blue, red)}
    mail(red, blue)
    seat = blue
    for _ in range(40):
        done = run(seat, "move", seat.game)
        assert done.exit_code == 0, done.output
        me, other = pair[seat.name]
        mail(me, other)
        if "the board is dealt" in done.stdout:
            return
        seat = other
    raise AssertionError("the setup never ended")


def open_squares(state: State) -> list[str]:
    return [q.name for q in state.board.squares() if q not in state.shots
            and q not in state.revealed and q not in state.misses]


def public_state(seat: Seat) -> State:
    from frogpbem.duel.engine import replay

    progress = replay(read(seat))
    assert isinstance(progress.state, State)
    return progress.state


def play_out(run: Run, red: Seat, blue: Seat, rng: random.Random) -> None:
    """Random moves until the game is over, then each seat's reveal."""
    pair = {"red": (red, blue), "blue": (blue, red)}
    seat = red
    for _ in range(400):
        state = public_state(seat)
        if RULES.to_move(state) is None:
            break
        moved = {m.move.split()[-1] for m in read(seat).messages if m.move}  # one pending
        squares = [q for q in open_squares(state) if q not in moved]
        rng.shuffle(squares)
        for square in squares:
            kind = "shoot" if rng.random() < 0.6 else "guess"
            done = run(seat, "move", seat.game, f"{kind} {square}")
            if done.exit_code == 0:
                break
            if "game is over" in done.output:  # the answer ended it
                done = run(seat, "move", seat.game)
                assert done.exit_code == 0, done.output
                break
            assert done.exit_code == 4 and "your own frog" in done.output, done.output
        me, other = pair[seat.name]
        mail(me, other)
        seat = other
    # the last answer may be in: each seat reveals with its next command
    for _ in range(3):
        file = read(seat)
        if {m.seat for m in file.messages if m.reveal} == {"red", "blue"}:
            return
        done = run(seat, "move", seat.game)
        assert done.exit_code == 0 or "nothing to add" in done.output, done.output
        me, other = pair[seat.name]
        mail(me, other)
        seat = other
    file = read(seat)
    assert {m.seat for m in file.messages if m.reveal} == {"red", "blue"}


def independent_replay(file: DuelFile) -> State:
    """The game replayed by the rules with both placements, from the revealed secrets and
    the accepted attempt (the number of overlaps shown with m > 0)."""
    header = file.header
    size, frogs = int(header.options["size"]), int(header.options["frogs"])
    secrets = {m.seat: m.reveal for m in file.messages if m.reveal}
    join = file.messages[0].join
    assert join is not None
    publics = {"blue": join.public,
               "red": next(m.public for m in file.messages if m.public)}
    overlaps = [m.step("overlap") for m in file.messages if m.step("overlap")]
    attempt = sum(1 for o in overlaps if isinstance(o, dict) and o["count"] != 0)
    placed: dict[str, JSON | None] = {}
    for seat, other in (("red", "blue"), ("blue", "red")):
        secret = secrets[seat]
        assert secret is not None
        placed[seat] = {"frogs": names(independent_placement(
            header.game, seat, secret, publics[other], attempt, size, frogs))}
    state = RULES.start(RULES.options({"size": size, "frogs": frogs}), ("red", "blue"), None,
                        placed)
    for message in file.messages:
        if message.move is not None:
            state, _ = RULES.play(state, message.seat, RULES.parse_move(message.move))
        elif message.resign:
            state, _ = RULES.play(state, message.seat, RULES.parse_move("resign"))
    return state


@pytest.mark.parametrize(("size", "frogs", "seed"), [(6, 2, 1), (8, 3, 2)])
def test_referee_free_frogfinder_whole_game_through_the_cli(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], size: int, frogs: int,
        seed: int) -> None:
    red, blue = seats
    set_up(as_seat, keys, red, blue, size, frogs)
    play_out(as_seat, red, blue, random.Random(seed))
    file = read(red)
    assert dump_duel(file) == dump_duel(read(blue))
    verified = as_seat(red, "verify", red.game, key=False)
    assert verified.exit_code == 0, verified.output
    assert "red's revealed secret gives its placement and every commitment" in verified.stdout
    public = public_state(red)
    full = independent_replay(file)
    assert RULES.outcome(public) == RULES.outcome(full) is not None
    assert RULES.scores(public) == RULES.scores(full)
    # each sealed secret opens for its own seat alone
    join = file.messages[0].join
    assert join is not None
    assert crypto.sealed_to_exactly(file.header.secret.sealed,
                                    [crypto.load_public_key(keys.pub("alice").read_text())])
    assert crypto.sealed_to_exactly(join.sealed,
                                    [crypto.load_public_key(keys.pub("bob").read_text())])


def forge(seat: Seat, keys: Keys, player: str, change: Callable[[Message], Message]) -> None:
    """The last message changed by ``change`` and signed again by its own seat's key."""
    file = read(seat)
    last = change(file.messages[-1])
    signed = last.signed(keys.key(player))
    seat.game.write_bytes(dump_duel(DuelFile(file.header, (*file.messages[:-1], signed))))


def test_referee_free_frogfinder_false_answers_refused_on_arrival(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    red, blue = seats
    set_up(as_seat, keys, red, blue, 6, 2)
    secret = SeatSecret  # noqa: F841 (the seats' secrets stay in their files)
    state = public_state(red)
    for square in open_squares(state):
        done = as_seat(red, "move", red.game, f"shoot {square}")
        if done.exit_code == 0:
            break
    mail(red, blue)
    good = as_seat(blue, "move", blue.game)  # blue answers (no move of its own yet)
    assert good.exit_code == 0, good.output
    answered = read(blue)
    answer = answered.messages[-1].step("answer")
    assert isinstance(answer, dict)
    to = answer["to"]
    assert isinstance(to, dict)
    lies: list[tuple[str, Callable[[Message], Message]]] = []
    if "count" in to:
        lies.append(("count", lambda m: _with_answer(m, {**to, "count": int(
            str(to["count"])) + 1})))
        lies.append(("frog", lambda m: _with_answer(m, {"bit": 1, "blinding": str(
            to["count_blinding"])})))
    else:
        lies.append(("miss", lambda m: _with_answer(m, {**to, "bit": 0})))
    lies.append(("missing", lambda m: _without_answer(m)))
    for _what, change in lies:
        shutil.copyfile(blue.game, blue.folder / "good.yaml")
        forge(blue, keys, "bob", change)
        forged = blue.game.read_bytes()
        shutil.copyfile(blue.game, red.game)
        before = red.game.read_bytes()
        refused = as_seat(red, "move", red.game, "shoot A1")
        assert refused.exit_code in (4, 6), refused.output
        assert red.game.read_bytes() == before == forged
        shutil.copyfile(blue.folder / "good.yaml", blue.game)


def _with_answer(message: Message, to: JSON) -> Message:
    steps = dict(message.steps or {})
    steps["answer"] = {"to": to}
    from dataclasses import replace

    return replace(message, steps=steps)


def _without_answer(message: Message) -> Message:
    from dataclasses import replace

    return replace(message, steps=None, move="shoot A1")
