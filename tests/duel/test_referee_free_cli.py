"""A Froglet game without a referee, played by two keys through the command line.

Each seat has a home of its own (its memory of the game) and a folder of its own; a copy
goes from one folder to the other as a mail would. Every refusal says one sentence, exits
with its documented status, and leaves the file byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from frogpbem.board import Square
from frogpbem.crypto.digest import canonical_json
from frogpbem.crypto.fairness import DerivedChance
from frogpbem.gamefile.duelfile import DuelFile, DuelHeader, dump_duel, parse_duel
from frogpbem.gamefile.model import JSON, Party
from frogpbem.games.froglet import Froglet, State, legal_paths
from tests.conftest import Keys, Result
from tests.duel.conftest import Run, Seat, mail, two_seats


@pytest.fixture
def seats(tmp_path: Path) -> tuple[Seat, Seat]:
    return two_seats(tmp_path, "white", "black")


def independent_board(file: DuelFile) -> JSON:
    """Froglet's board from the spec's derivation, computed here with hashlib: white's
    revealed secret and black's public seed (docs/format.md, "A seat's secret")."""
    header = file.header
    white = next(m.reveal for m in file.messages if m.seat == "white" and m.reveal)
    join = file.messages[0].join
    assert join is not None
    fields = {"game": header.game, "seat": "white", "secret": white,
              "other": join.public, "attempt": 0}
    key = hashlib.sha512(b"frogpbem/1 duel-deal\n" + json.dumps(
        fields, sort_keys=True, separators=(",", ":")).encode()).digest()[:32]
    assert canonical_json(fields) == json.dumps(fields, sort_keys=True,
                                                separators=(",", ":")).encode()
    public, _ = Froglet().deal(header.options, ("white", "black"), DerivedChance(key))
    assert isinstance(public, dict)
    return public


def independent_replay(file: DuelFile) -> State:
    rules = Froglet()
    state = rules.start(file.header.options, ("white", "black"), independent_board(file),
                        {"white": None, "black": None})
    for message in file.messages:
        if message.move is not None:
            state, _ = rules.play(state, message.seat, rules.parse_move(message.move))
        elif message.resign:
            state, _ = rules.play(state, message.seat, rules.parse_move("resign"))
    return state


def choose(state: State, rng: random.Random) -> str:
    """A random legal move, from the rules alone."""
    if state.ply == 0:
        greens = sorted((s for s, c in state.frogs.items() if c == "G"), key=str)
        return f"remove {rng.choice(greens).name}"
    path, _ = rng.choice(legal_paths(state))
    return "-".join(square.name for square in path)


def start_game(as_seat: Run, keys: Keys, white: Seat, black: Seat, size: int = 4) -> None:
    run = as_seat
    made = run(white, "new", white.game, "--rules", "froglet", "--no-referee",
               "--seat", f"white={keys.pub('alice')}", "--seat", f"black={keys.pub('bob')}",
               "--name", "white=Alice", "--name", "black=Bob", "--option", f"size={size}")
    assert made.exit_code == 0, made.output
    mail(white, black)
    joined = run(black, "move", black.game)
    assert joined.exit_code == 0, joined.output
    assert "black joined" in joined.stdout
    mail(black, white)


def play_to_end(as_seat: Run, white: Seat, black: Seat, seed: int,
                stop_after: int | None = None) -> Seat:
    """Each seat in turn reads its copy, picks a legal move and mails the copy back."""
    run = as_seat
    rng = random.Random(seed)
    by_name = {"white": white, "black": black}
    mover = white
    played = 0
    while True:
        file = parse_duel(mover.game.read_bytes(), "copy")
        dealt = any(m.reveal for m in file.messages)
        state = independent_replay(file) if dealt else None
        if state is not None and state.outcome is not None:
            return mover
        if state is None:  # white's reveal deals: white's own view shows the board first
            shown = run(mover, "view", mover.game)
            assert shown.exit_code == 0, shown.output
            assert "the board your reveal deals" in shown.stdout
            mine = run(mover, "move", mover.game)
            assert mine.exit_code == 0, mine.output
            state = independent_replay(parse_duel(mover.game.read_bytes(), "copy"))
        move = choose(state, rng)
        done = run(mover, "move", mover.game, move)
        assert done.exit_code == 0, done.output
        played += 1
        if stop_after is not None and played >= stop_after:
            return mover
        after = independent_replay(parse_duel(mover.game.read_bytes(), "copy"))
        if after.outcome is not None:
            return mover
        other = by_name[after.seats[after.ply % 2]]
        mail(mover, other)
        mover = other


@pytest.mark.parametrize("seed", [1, 2])
def test_referee_free_froglet_game_by_two_keys_through_the_cli(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], seed: int) -> None:
    white, black = seats
    run = as_seat
    start_game(as_seat, keys, white, black)
    last = play_to_end(as_seat, white, black, seed)
    final = last.folder / "final.yaml"
    shutil.copyfile(last.game, final)
    file = parse_duel(final.read_bytes(), "final")
    expected = independent_replay(file)
    assert expected.outcome is not None
    for seat in (white, black):
        shutil.copyfile(final, seat.game)
        checked = run(seat, "verify", seat.game, key=False)
        assert checked.exit_code == 0, checked.output
        assert f"game over: {expected.outcome.termination}" in checked.stdout
        shown = run(seat, "view", seat.game)
        assert shown.exit_code == 0, shown.output
        points = ", ".join(f"{s} {p}" for s, p in expected.points.items())
        assert f"points: {points}" in shown.stdout
        board = Froglet().render(Froglet().view(expected, frozenset(expected.seats)),
                                 frozenset({seat.name}))
        assert board in shown.stdout
    revealed = run(black, "move", black.game)  # the game is over: black shows its secret
    assert revealed.exit_code == 0, revealed.output
    assert "black revealed its secret" in revealed.stdout
    before = black.game.read_bytes()
    refused(run(black, "move", black.game), 2, "nothing to add: the game is over",
            black.game, before)
    mail(black, white)
    checked = run(white, "verify", white.game, key=False)
    assert checked.exit_code == 0, checked.output
    assert "OK black's revealed secret matches its seed commitment" in checked.stdout
    assert [m.seat for m in file.messages][:2] == ["black", "white"]
    assert all(m.n == i for i, m in enumerate(file.messages, 1))


def refused(result: Result, status: int, words: str, game: Path, before: bytes) -> None:
    assert result.exit_code == status, result.output
    assert words in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert game.read_bytes() == before


def _tampered(file: DuelFile, index: int, keys: Keys, player: str, **changes: object) -> bytes:
    """``file`` with message ``index`` changed and signed again by ``player``'s key."""
    message = replace(file.messages[index], **changes).signed(keys.key(player))  # type: ignore[arg-type]
    messages = (*file.messages[:index], message, *file.messages[index + 1:])
    return dump_duel(DuelFile(file.header, messages))


def test_referee_free_refusals_leave_the_file_unchanged(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], tmp_path: Path) -> None:
    white, black = seats
    run = as_seat
    start_game(as_seat, keys, white, black)
    play_to_end(as_seat, white, black, seed=5, stop_after=1)  # white: reveal, remove
    mail(white, black)
    good = black.game.read_bytes()
    file = parse_duel(good, "good")
    state = independent_replay(file)
    assert state.ply == 1

    # garbage notation: exit 3
    refused(run(black, "move", black.game, "jump over the moon"), 3,
            "expected", black.game, good)
    # a move out of turn: white moves on black's turn, exit 4
    shutil.copyfile(black.game, white.game)
    move = choose(state, random.Random(0))
    refused(run(white, "move", white.game, move), 4, "black's step, not white's",
            white.game, good)

    # a message signed by the wrong seat: black's move signed with white's key, exit 6
    black_move = replace(file.messages[0], n=len(file.messages) + 1, join=None, move=move,
                         prev=file.messages[-1].hash, at=file.messages[-1].at, signature="")
    wrong = DuelFile(file.header, (*file.messages, black_move.signed(keys.key("alice"))))
    forged = tmp_path / "forged.yaml"
    forged.write_bytes(dump_duel(wrong))
    before = forged.read_bytes()
    refused(run(black, "verify", forged, key=False), 6, "not signed by black's key",
            forged, before)

    # a changed move (the signature no longer covers it): exit 6
    played = run(black, "move", black.game, move)
    assert played.exit_code == 0, played.output
    after = parse_duel(black.game.read_bytes(), "after")
    other = next(choose(state, random.Random(i)) for i in range(50)
                 if choose(state, random.Random(i)) != move)
    changed = DuelFile(after.header, (*after.messages[:-1],
                                      replace(after.messages[-1], move=other)))
    forged.write_bytes(dump_duel(changed))
    before = forged.read_bytes()
    refused(run(white, "move", forged, key=True), 6, "not signed by black's key",
            forged, before)

    # a rolled-back copy: black saw its own move; the copy before it is refused, exit 8
    old = tmp_path / "old.yaml"
    old.write_bytes(good)
    refused(run(black, "view", old), 8, "a rollback", old, good)

    # a forked second message for one n: white saw black's move 3, then another, exit 11
    mail(black, white)
    seen = run(white, "view", white.game)
    assert seen.exit_code == 0, seen.output
    fork = tmp_path / "fork.yaml"
    fork.write_bytes(_tampered(after, 3, keys, "bob", move=other))
    before = fork.read_bytes()
    refused(run(white, "move", fork), 11, "FORK: message 4 differs", fork, before)

    # a revealed secret not matching the commitment: exit 6
    bad_reveal = tmp_path / "reveal.yaml"
    bad_reveal.write_bytes(_tampered(file, 1, keys, "alice", reveal="00" * 32))
    before = bad_reveal.read_bytes()
    refused(run(black, "verify", bad_reveal, key=False), 6,
            "does not match its seed commitment", bad_reveal, before)


def test_referee_free_header_with_a_third_seat_is_refused(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], tmp_path: Path) -> None:
    white, black = seats
    run = as_seat
    start_game(as_seat, keys, white, black)
    file = parse_duel(white.game.read_bytes(), "good")
    third = Party("Mallory", keys.key("mallory").public.line, "green")
    header: DuelHeader = replace(file.header, seats=(*file.header.seats, third))
    three = tmp_path / "three.yaml"
    three.write_bytes(dump_duel(DuelFile(header.signed(keys.key("alice")), file.messages)))
    before = three.read_bytes()
    refused(run(black, "verify", three, key=False), 7, "has two seats; this header names 3",
            three, before)


def test_referee_free_new_refuses_what_it_cannot_play(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    white, _ = seats
    run = as_seat
    wrong_rules = run(white, "new", white.game, "--rules", "coan", "--no-referee",
                      "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}")
    assert wrong_rules.exit_code == 2
    assert "coan cannot be played without a referee" in wrong_rules.stderr
    not_first = run(white, "new", white.game, "--rules", "froglet", "--no-referee",
                    "--seat", f"white={keys.pub('bob')}", "--seat", f"black={keys.pub('alice')}")
    assert not_first.exit_code == 5
    assert "first seat, white" in not_first.stderr
    assert not white.game.exists()


def test_referee_free_black_cannot_move_before_the_deal(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    white, black = seats
    run = as_seat
    start_game(as_seat, keys, white, black)
    mail(white, black)
    before = black.game.read_bytes()
    refused(run(black, "move", black.game, "remove A1"), 4,
            "white's step, not black's", black.game, before)
    again = run(black, "join", black.game)
    refused(again, 2, "joined already", black.game, before)


def test_referee_free_squares_named_like_the_rules(seats: tuple[Seat, Seat]) -> None:
    assert Square.parse("A1").name == "A1"
