"""A Secret Move game without a referee, played by two keys through the command line.

Each seat has a home of its own and a folder of its own; a copy goes from one folder to
the other as a mail would. The driver here plays as each seat would: it knows a seat's
headers (chosen, or read from the seat's own view when its tool drew them) and picks
random legal moves with the rules' ``legal_moves``. The final outcome is compared with
an independent referee: the rules, given both seats' headers from the start, applying
every move as the file shows it (an automatic pass is the rules' own, not the file's
claim). Every refusal says one sentence, exits with its documented status and leaves
the file byte for byte as it was.
"""

from __future__ import annotations

import itertools
import random
import re
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from frogpbem import crypto
from frogpbem.duel.engine import open_secret
from frogpbem.duel.secretmove import GuessOpening, Headers
from frogpbem.errors import KeyError_
from frogpbem.gamefile.duelfile import DuelFile, Message, dump_duel, parse_duel
from frogpbem.gamefile.model import JSON
from frogpbem.games.secretmove import SealedGuess, SecretMove, State, legal_moves
from frogpbem.games.secretmove_view import SQUARES, adjacent
from tests.conftest import Keys, Result
from tests.duel.conftest import Run, Seat, mail, two_seats

RULES = SecretMove()


@pytest.fixture
def seats(tmp_path: Path) -> tuple[Seat, Seat]:
    return two_seats(tmp_path, "red", "blue")


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def refused(result: Result, status: int, words: str, game: Path, before: bytes) -> None:
    assert result.exit_code == status, result.output
    assert words in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert game.read_bytes() == before


def read(seat: Seat) -> DuelFile:
    return parse_duel(seat.game.read_bytes(), "copy")


# --- what the driver knows, computed here -------------------------------------------------


def values(headers: Headers) -> dict[str, int]:
    """Each square's value: its column header plus its row header."""
    return {sq: headers["ABC".index(sq[0])] + headers[3 + int(sq[1]) - 1] for sq in SQUARES}


def secret_of(headers: Headers) -> JSON:
    return {"cols": list(headers[:3]), "rows": list(headers[3:])}


def setup_words(headers: Headers) -> str:
    return "cols={},{},{} rows={},{},{}".format(*headers)


_CELL = re.compile(r"\s*(\d+) \((\d+)\)")


def shown_values(text: str, seat: str) -> dict[str, int]:
    """The values a seat's own view shows on its board (``stones (value)`` per square)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{seat}:"))
    found = {}
    for line in lines[start + 1:start + 4]:
        row = line.split()[0]
        cells = _CELL.findall(line[len(line.split()[0]) + 3:])
        assert len(cells) == 3, line
        for col, (_stones, value) in zip("ABC", cells, strict=True):
            found[f"{col}{row}"] = int(value)
    return found


def headers_for(grid: dict[str, int]) -> Headers:
    """Headers that give ``grid`` (the outcome depends on the values alone)."""
    for numbers in itertools.permutations(range(6)):
        headers: Headers = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4],
                            numbers[5])
        if values(headers) == grid:
            return headers
    raise AssertionError(f"no headers give {grid}")


def referee_replay(file: DuelFile, headers: dict[str, Headers],
                   guesses: dict[str, tuple[int, ...]]) -> State:
    """The rules with both headers from the start, every move as the file shows it (a
    pass's result is the rules' own), the guesses as the driver made them."""
    state = RULES.start({}, ("red", "blue"), None,
                        {s: secret_of(h) for s, h in headers.items()})
    for message in file.messages:
        if message.resign:
            state, _ = RULES.play(state, message.seat, RULES.parse_move("resign"))
        elif message.move == "guess":
            state, _ = RULES.play(state, message.seat, SealedGuess(guesses[message.seat]))
        elif message.move is not None:
            state, _ = RULES.play(state, message.seat, RULES.parse_move(message.move))
    return state


# --- a whole game ---------------------------------------------------------------------------


@dataclass
class Game:
    """A game as the driver plays it: who holds the latest copy, both seats' headers."""

    run: Run
    red: Seat
    blue: Seat
    rng: random.Random
    headers: dict[str, Headers]
    guesses: dict[str, tuple[int, ...]]
    holder: Seat

    def seat(self, name: str) -> Seat:
        return self.red if name == "red" else self.blue

    def hold(self, name: str) -> Seat:
        """Seat ``name``, mailed the latest copy if another seat holds it."""
        seat = self.seat(name)
        if seat is not self.holder:
            mail(self.holder, seat)
            self.holder = seat
        return seat

    def act(self, name: str, *args: str) -> Result:
        """Seat ``name`` runs a command on its copy, mailed the latest one first."""
        seat = self.hold(name)
        return self.run(seat, *[seat.game if a == "GAME" else a for a in args])

    def state(self) -> State:
        return referee_replay(read(self.holder), self.headers, self.guesses)


def random_move(state: State, name: str, headers: Headers, rng: random.Random) -> str:
    src, dst, count = rng.choice(legal_moves(state.stones[name], values(headers)))
    return f"{src}-{dst} {count}"


def start(run: Run, keys: Keys, red: Seat, blue: Seat, seed: int,
          chosen: dict[str, Headers | None], first: str | None = None) -> Game:
    """Red creates the game; blue joins with its headers; red sets up (with its first
    move when it chose its headers)."""
    ok(run(red, "new", red.game, "--rules", "secretmove", "--no-referee",
           "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
           "--name", "red=Alice", "--name", "blue=Bob"))
    game = Game(run, red, blue, random.Random(seed), {}, {}, red)
    for name in ("blue", "red"):
        wanted = chosen[name]
        if wanted is not None and name == "red":
            game.headers["red"] = wanted
            first = first or random_move(game.state(), "red", wanted, game.rng)
            done = ok(game.act(name, "move", "GAME", "--setup", setup_words(wanted), first))
            assert ("red passes" if first == "pass" else f"red moves {first[:2]}") \
                in done.stdout
        elif wanted is None and name == "blue":  # the referee's setup command serves too
            done = ok(game.act(name, "setup", "GAME", "--random"))
        else:
            how = ("--setup", setup_words(wanted)) if wanted is not None else ("--random",)
            done = ok(game.act(name, "move", "GAME", *how))
        if name == "blue":
            assert "blue joined" in done.stdout
        shown = ok(game.act(name, "view", "GAME"))
        game.headers[name] = headers_for(shown_values(shown.stdout, name))
        if wanted is not None:
            assert values(game.headers[name]) == values(wanted)
    return game


def play_moves(game: Game, script: dict[str, list[str]] | None = None) -> int:
    """Both seats move until both are done: the moves of ``script`` first, then random
    legal moves, now and then a pass; a seat with no legal move gives no move and its
    tool passes for it. Returns how many automatic passes there were."""
    state = game.state()
    script = {name: list(moves) for name, moves in (script or {}).items()}
    autos = 0
    while RULES.phase(state) == "moves":
        name = RULES.to_move(state)
        assert name is not None
        if script.get(name):
            ok(game.act(name, "move", "GAME", script[name].pop(0)))
        elif not legal_moves(state.stones[name], values(game.headers[name])):
            before = game.hold(name).game.read_bytes()  # a stuck seat's stone move: refused
            src = next(sq for sq in SQUARES if state.stones[name][sq])
            dst = next(sq for sq in SQUARES if adjacent(src, sq))
            refused(game.act(name, "move", "GAME", f"{src}-{dst} 1"), 4,
                    f"{src}-{dst} 1: {dst} (", game.holder.game, before)
            done = ok(game.act(name, "move", "GAME"))
            assert f"{name} passes (no legal move)" in done.stdout
            autos += 1
        elif game.rng.randrange(14) == 0:
            done = ok(game.act(name, "move", "GAME", "pass"))
            assert f"{name} passes" in done.stdout and "no legal move" not in done.stdout
        else:
            ok(game.act(name, "move", "GAME", random_move(state, name, game.headers[name],
                                                          game.rng)))
        state = game.state()
    return autos


def guess_words(guess: tuple[int, ...]) -> str:
    digits = "".join(map(str, guess))
    return f"guess {digits[:3]}/{digits[3:6]}/{digits[6:]}"


def guess_and_reveal(game: Game) -> State:
    """Each seat guesses (the other's true values or a random guess), then each reveals
    (red first); returns the referee's final state."""
    for name, other in (("red", "blue"), ("blue", "red")):
        truth = values(game.headers[other])
        right = tuple(truth[sq] for sq in SQUARES)
        guess = right if game.rng.randrange(2) else tuple(game.rng.randint(1, 9)
                                                           for _ in SQUARES)
        game.guesses[name] = guess
        done = ok(game.act(name, "move", "GAME", guess_words(guess)))
        assert f"{name} hands in a sealed guess" in done.stdout
        assert guess_words(guess)[6:] not in game.holder.game.read_text()
    pending = ok(game.act("red", "verify", "GAME"))
    assert "outcome pending: red and blue have not revealed" in pending.stdout
    for name in ("red", "blue"):
        done = ok(game.act(name, "move", "GAME"))
        assert f"{name} revealed its secret" in done.stdout
    state = game.state()
    assert RULES.outcome(state) is not None
    return state


def check_final(game: Game, expected: State) -> None:
    """Both seats verify the final copy and see the referee's outcome."""
    outcome = RULES.outcome(expected)
    assert outcome is not None
    final = game.holder.game.read_bytes()
    for seat in (game.red, game.blue):
        seat.game.write_bytes(final)
        checked = ok(game.run(seat, "verify", seat.game, key=False))
        assert f"game over: {outcome.termination}" in checked.stdout
        for name in ("red", "blue"):
            assert f"OK {name}'s guess opens its commitment" in checked.stdout
            assert f"OK {name}'s revealed headers open its commitments" in checked.stdout
        shown = ok(game.run(seat, "view", seat.game))
        assert f"game over: {outcome.termination}; {outcome.standing_text()}" in shown.stdout
    points = {place.seat: place.points for place in outcome.standing}
    for name in ("red", "blue"):  # the scores, summed here
        grid = values(game.headers[name])
        assert points[name] == sum(expected.stones[name][sq] * grid[sq] for sq in SQUARES)


def sealed_to_itself_alone(file: DuelFile, keys: Keys) -> None:
    """Every sealed copy in the file is addressed to its own seat's key alone."""
    join = file.messages[0].join
    assert join is not None
    for sealed, own, other in ((file.header.secret.sealed, "alice", "bob"),
                               (join.sealed, "bob", "alice")):
        assert crypto.sealed_to_exactly(sealed, [keys.key(own).public])
        crypto.unseal(sealed, keys.key(own))
        with pytest.raises(KeyError_):
            crypto.unseal(sealed, keys.key(other))
    text = dump_duel(file).decode()
    assert text.count("BEGIN AGE ENCRYPTED FILE") == 2


CHOSEN_BLUE: Headers = (5, 1, 0, 2, 4, 3)
CHOSEN: dict[str, Headers | None] = {"red": (0, 3, 5, 1, 2, 4), "blue": CHOSEN_BLUE}


@pytest.mark.parametrize(("seed", "chosen"), [
    (1, CHOSEN),
    (2, {"red": None, "blue": None}),
])
def test_referee_free_secretmove_game_by_two_keys_through_the_cli(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], seed: int,
        chosen: dict[str, Headers | None]) -> None:
    red, blue = seats
    game = start(as_seat, keys, red, blue, seed, chosen)
    play_moves(game)
    expected = guess_and_reveal(game)
    check_final(game, expected)
    file = read(game.holder)
    sealed_to_itself_alone(file, keys)
    assert [m.seat for m in file.messages][:2] == ["blue", "red"]
    assert file.messages[0].step("setup") is not None  # blue's setup with its join


STUCK: Headers = (5, 0, 4, 3, 1, 2)
"""Values A1 8, B1 3, C1 7 / A2 6, B2 1, C2 5 / A3 7, B3 2, C3 6: stones on A1, C1, A3
and C3 have no higher neighbour, and seven moves empty the other squares."""
TO_STUCK = ["B1-A1 3", "B3-A3 3", "B2-A1 3", "A2-A1 2", "A2-A1 1", "C2-C1 2", "C2-C1 1"]


def test_referee_free_secretmove_automatic_pass_by_its_own_tool(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """Red plays itself into a corner: its tool refuses a stone move it cannot prove and
    passes for it; the pass is claimed ``auto``, unchecked until red's reveal, then
    checked against red's revealed headers."""
    red, blue = seats
    game = start(as_seat, keys, red, blue, 3, {"red": STUCK, "blue": (2, 3, 4, 0, 1, 5)},
                 first=TO_STUCK[0])
    autos = play_moves(game, {"red": TO_STUCK[1:]})
    assert autos >= 1
    file = read(game.holder)
    auto = [m for m in file.messages if m.step("answer") == {"auto": True}]
    assert [m.seat for m in auto] == ["red"] and auto[0].move == "pass"
    checked = ok(game.run(game.holder, "verify", game.holder.game, key=False))
    assert "red's automatic pass: checked at its reveal" in checked.stdout
    expected = guess_and_reveal(game)
    check_final(game, expected)
    checked = ok(game.run(game.holder, "verify", game.holder.game, key=False))
    assert "OK red's automatic pass: no legal move on its revealed headers" in checked.stdout


# --- refusals on arrival -------------------------------------------------------------------


def forged(file: DuelFile, keys: Keys, player: str, message: Message) -> bytes:
    """``file`` with ``message`` (numbered, chained and dated after the last) added, signed
    by ``player``'s key, as a seat could write it by hand."""
    last = file.messages[-1]
    made = replace(message, n=last.n + 1, prev=last.hash, at=last.at, signature="")
    return dump_duel(file.added(made.signed(keys.key(player))))


def resigned(file: DuelFile, keys: Keys, player: str, index: int, **changes: object) -> bytes:
    """``file`` with message ``index`` changed and signed again by ``player``'s key."""
    message = replace(file.messages[index], **changes, signature="")  # type: ignore[arg-type]
    messages = (*file.messages[:index], message.signed(keys.key(player)),
                *file.messages[index + 1:])
    return dump_duel(DuelFile(file.header, messages))


def answer_of(message: Message) -> dict[str, JSON]:
    answer = message.step("answer")
    assert isinstance(answer, dict)
    return dict(answer)


def test_referee_free_secretmove_false_legal_proof_refused(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """A stone move whose proof is another move's (of the same count, or the same move
    made before), or has none, is refused on arrival."""
    red, blue = seats
    game = start(as_seat, keys, red, blue, 4, CHOSEN, first="B1-C1 1")
    ok(game.act("blue", "move", "GAME", "pass"))
    ok(game.act("red", "move", "GAME", "A1-B1 1"))  # red moves alone now
    file = read(red)
    first, second = (m for m in file.messages if m.seat == "red" and m.move != "pass")
    assert (first.move, second.move) == ("B1-C1 1", "A1-B1 1")
    proof = answer_of(first)["legal"]
    refuse_last(as_seat, keys, blue, file, {"answer": {"legal": proof}}, "does not hold")
    refuse_last(as_seat, keys, blue, file, None, "comes without its legal proof")
    ok(game.act("red", "move", "GAME", "A1-B1 1"))  # the same move again: its own proof
    file = read(red)
    assert file.messages[-1].move == "A1-B1 1"
    refuse_last(as_seat, keys, blue, file, {"answer": answer_of(second)}, "does not hold")
    mail(red, blue)
    ok(as_seat(blue, "verify", blue.game, key=False))  # the true copy verifies


def refuse_last(run: Run, keys: Keys, seat: Seat, file: DuelFile,
                steps: dict[str, JSON] | None, words: str) -> None:
    """Red's last message with ``steps`` instead, re-signed by red: refused by ``seat``'s
    tool and by verify, the copy unchanged."""
    seat.game.write_bytes(resigned(file, keys, "alice", len(file.messages) - 1, steps=steps))
    before = seat.game.read_bytes()
    refused(run(seat, "view", seat.game), 6, words, seat.game, before)
    refused(run(seat, "verify", seat.game, key=False), 6, words, seat.game, before)


def short_game(as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], seed: int) -> Game:
    """A game in which both seats pass at once: straight to the guesses."""
    red, blue = seats
    game = start(as_seat, keys, red, blue, seed, CHOSEN, first="pass")
    play_moves(game, {"blue": ["pass"]})
    return game


def test_referee_free_secretmove_guess_opened_before_both_commitments_refused(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    red, blue = seats
    game = short_game(as_seat, keys, seats, 5)
    ok(game.act("red", "move", "GAME", "guess 111/222/333"))
    refused(game.act("red", "move", "GAME"), 2, "nothing to add: it is blue's step", red.game,
            red.game.read_bytes())  # red's tool opens nothing before blue's commitment
    ok(game.act("blue", "move", "GAME", "guess 444/555/666"))
    file = read(blue)
    guess = file.messages[-1]
    secret = open_secret(file.messages[0].join.sealed if file.messages[0].join else "",
                         file.game, "blue", file.messages[0].join.commitment
                         if file.messages[0].join else "", keys.key("bob"))
    opening = GuessOpening.make(secret, (4, 4, 4, 5, 5, 5, 6, 6, 6)).to_json()
    early = {**answer_of(guess), "opening": opening}
    red.game.write_bytes(resigned(file, keys, "bob", len(file.messages) - 1,
                                  steps={"answer": early}))
    before = red.game.read_bytes()
    refused(as_seat(red, "move", red.game), 6,
            "blue opens its guess before both guesses are committed", red.game, before)


def test_referee_free_secretmove_false_openings_and_reveals_refused(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """Red's closing message with another guess opened, other headers, or another secret
    is refused by blue's tool on arrival."""
    red, blue = seats
    game = short_game(as_seat, keys, seats, 6)
    ok(game.act("red", "move", "GAME", "guess 111/222/333"))
    ok(game.act("blue", "move", "GAME", "guess 444/555/666"))
    waiting = ok(game.act("red", "verify", "GAME"))
    assert "outcome pending: red and blue have not revealed" in waiting.stdout
    ok(game.act("red", "move", "GAME"))  # red's true reveal, in red's copy
    file = read(red)
    last = len(file.messages) - 1
    reveal = file.messages[last]
    answer = answer_of(reveal)
    secret = open_secret(file.header.secret.sealed, file.game, "red",
                         file.header.secret.commitment, keys.key("alice"))
    other_guess = GuessOpening.make(secret, (1, 1, 1, 2, 2, 2, 3, 3, 4)).to_json()
    swapped = {"cols": [3, 0, 5], "rows": [1, 2, 4]}  # A and B swapped
    cases: list[tuple[dict[str, object], int, str]] = [
        ({"steps": {"answer": {**answer, "opening": other_guess}}}, 6,
         "red's opened guess is not the one it committed to"),
        ({"steps": {"answer": {**answer, "headers": swapped}}}, 6,
         "red's revealed headers and secret do not open its commitment to cell A="),
        ({"steps": {"answer": {"headers": answer["headers"]}}}, 6,
         "red reveals without opening its guess"),
        ({"reveal": "00" * 32}, 6, "does not match its seed commitment"),
    ]
    for changes, status, words in cases:
        blue.game.write_bytes(resigned(file, keys, "alice", last, **changes))
        before = blue.game.read_bytes()
        refused(as_seat(blue, "move", blue.game), status, words, blue.game, before)
    mail(red, blue)
    ok(as_seat(blue, "move", blue.game))  # the true reveal is taken; blue reveals too
    done = ok(as_seat(blue, "verify", blue.game, key=False))
    assert "game over:" in done.stdout


def test_referee_free_secretmove_false_automatic_pass_caught_at_the_reveal(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """Blue claims an automatic pass with legal moves on its board: nobody can tell on
    arrival; blue's reveal proves it false, and blue forfeits (verify and audit say so,
    naming the message), whoever's tool wrote the reveal."""
    red, blue = seats
    game = start(as_seat, keys, red, blue, 7, CHOSEN, first="pass")
    file = read(game.hold("blue"))
    blue.game.write_bytes(forged(file, keys, "bob", Message(
        0, "", "blue", "", move="pass", steps={"answer": {"auto": True}})))
    false_pass = len(file.messages) + 1
    taken = ok(game.act("red", "view", "GAME"))  # accepted on arrival
    assert "blue passes (no legal move)" in taken.stdout
    ok(game.act("red", "move", "GAME", "guess 111/222/333"))
    ok(game.act("blue", "move", "GAME", "guess 444/555/666"))
    checked = ok(game.act("blue", "verify", "GAME"))
    assert "blue's automatic pass: checked at its reveal" in checked.stdout
    ok(game.act("red", "move", "GAME"))  # red's reveal
    words = f"blue forfeits: its automatic pass (message {false_pass}) was false"
    shutil.copyfile(game.hold("blue").game, blue.folder / "before-reveal.yaml")
    done = ok(game.act("blue", "move", "GAME"))  # blue's own tool reveals: it forfeits
    assert f"game over: {words}" in done.stdout, done.stdout
    file = parse_duel((blue.folder / "before-reveal.yaml").read_bytes(), "copy")
    join = file.messages[0].join
    assert join is not None
    secret = open_secret(join.sealed, file.game, "blue", join.commitment, keys.key("bob"))
    opening = GuessOpening.make(secret, (4, 4, 4, 5, 5, 5, 6, 6, 6)).to_json()
    headers = secret_of(CHOSEN_BLUE)
    red.game.write_bytes(forged(file, keys, "bob", Message(
        0, "", "blue", "", steps={"answer": {"headers": headers, "opening": opening}},
        reveal=secret.secret)))  # the same reveal, made by hand, on red's side
    for command in ("verify", "view"):
        said = ok(as_seat(red, command, red.game, key=command == "view"))
        assert f"game over: {words}" in said.stdout, said.stdout
    audited = as_seat(red, "audit", red.game, key=False)
    assert audited.exit_code == 0 and words in audited.stdout, audited.output
    later = as_seat(red, "move", red.game, "A1-B1 1")
    assert later.exit_code == 4 and "the game is over" in later.stderr, later.output


def test_referee_free_secretmove_resignation_then_reveals(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """Blue resigns on red's turn; the game is over at once, and each seat's reveal is
    still checked against its commitments."""
    red, blue = seats
    game = start(as_seat, keys, red, blue, 8, CHOSEN, first="A1-B1 1")
    before = game.hold("red").game.read_bytes()
    refused(game.act("red", "move", "GAME", "--setup", "cols=0,1,2 rows=3,4,5"), 2,
            "red has chosen its headers already", red.game, before)
    done = ok(game.act("blue", "move", "GAME", "resign"))
    assert "game over: blue resigned" in done.stdout
    for name in ("blue", "red"):
        revealed = ok(game.act(name, "move", "GAME"))
        assert f"{name} revealed its secret" in revealed.stdout
    checked = ok(game.act("red", "verify", "GAME"))
    assert "game over: blue resigned" in checked.stdout
    for name in ("red", "blue"):
        assert f"OK {name}'s revealed headers open its commitments" in checked.stdout
