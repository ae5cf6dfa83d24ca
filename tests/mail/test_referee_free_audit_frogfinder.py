"""``frogpbem audit`` of whole Frog Finder games without a referee (through the CLI, the
copies passed from folder to folder as a mail would): every move awaits its answer in the
message that plays it, and the audit says so rather than failing on the missing result."""

from __future__ import annotations

import random

import pytest

from frogpbem.board import Square
from tests.conftest import Keys
from tests.duel.conftest import Run, Seat, as_seat, mail  # noqa: F401 - as_seat: a fixture
from tests.duel.test_referee_free_frogfinder_cli import (
    empty_squares,
    placements,
    play_out,
    public_state,
    read,
    seats,  # noqa: F401 - a fixture
    set_up,
)


@pytest.mark.parametrize("seed", [1, 2])
def test_referee_free_audit_of_a_whole_frogfinder_game_holds(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], seed: int) -> None:  # noqa: F811
    red, blue = seats
    set_up(as_seat, keys, red, blue, 6, 2)
    play_out(as_seat, red, blue, random.Random(seed))
    file = read(red)
    audited = as_seat(red, "audit", red.game, key=False)
    assert audited.exit_code == 0, audited.output
    assert "verdict: everything holds" in audited.stdout
    moves = [m for m in file.messages if m.move is not None]
    awaiting = [line for line in audited.stdout.splitlines()
                if line.strip().startswith("ok") and "awaiting the answer" in line]
    assert len(awaiting) == len(moves)  # each move, in the message that played it
    for message in moves:
        assert f"{message.seat} played {message.move}: awaiting the answer" in \
            audited.stdout


def test_referee_free_audit_of_a_game_whose_answer_ended_it(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:  # noqa: F811
    """Red's guess finds blue's only frog: blue's answer ends the game and its own move is
    not played; red's reveal follows. The audit holds, and names no move of blue's."""
    red, blue = seats
    set_up(as_seat, keys, red, blue, 4, 1)
    placed = placements(keys, red)
    (frog,) = placed["blue"]
    assert as_seat(red, "move", red.game, f"guess {frog.name}").exit_code == 0
    mail(red, blue)
    free: Square = empty_squares(public_state(blue), placed)[0]
    assert as_seat(blue, "move", blue.game, f"shoot {free.name}").exit_code == 0
    mail(blue, red)
    assert as_seat(red, "move", red.game).exit_code == 0  # red's reveal
    audited = as_seat(red, "audit", red.game, key=False)
    assert audited.exit_code == 0, audited.output
    assert f"shoot {free.name}" not in audited.stdout
    recorded = as_seat(red, "record", red.game, key=False)
    assert recorded.exit_code == 0 and f"shoot {free.name}" not in recorded.stdout
    assert [m.seat for m in read(red).messages if m.move] == ["red"]
