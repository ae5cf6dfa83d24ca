"""``frogpbem audit`` of a Frog Finder game without a referee whose answer ended it (through
the CLI, the copies passed from folder to folder as a mail would). That the audit of a
whole game says each move awaits its answer in the message that plays it is checked on
the games played by mail (tests/mail/referee_free_play.py, :func:`awaiting_answers`)."""

from __future__ import annotations

from frogpbem.board import Square
from tests.conftest import Keys
from tests.duel.conftest import Run, Seat, as_seat, mail  # noqa: F401 - as_seat: a fixture
from tests.duel.test_referee_free_frogfinder_cli import (
    empty_squares,
    placements,
    public_state,
    read,
    seats,  # noqa: F401 - a fixture
    set_up,
)


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
