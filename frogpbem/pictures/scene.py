"""What a picture shows besides the board, and how the game stands in words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from frogpbem.frozen import frozen
from frogpbem.games import GameView


@frozen
class Scene:
    """What a picture of one board shows besides the board: whose it is, names, last move."""

    seat: str | None
    """The seat whose view it is (``None``: the public or the referee)."""
    names: Mapping[str, str]
    """Each seat's player name, as the game file gives it."""
    last: tuple[str, str] | None = None
    """The last record's seat and public move, highlighted (``None``: no record yet)."""
    heat: Mapping[str, float] = field(default_factory=dict)
    """A probability per square name, drawn as a heat map (hints), if any."""
    labels: Mapping[str, str] = field(default_factory=dict)
    """Words for a square of the heat map instead of its percent (``7: 62%``)."""
    clock: str = ""
    """A running game's deadline, or its pause, in words (``""``: none told)."""


def status(board: GameView, clock: str = "") -> str:
    """How the game stands, in words: the outcome, else whose turn it is (and ``clock``)."""
    outcome = board.outcome
    if outcome:
        return f"Game over: {outcome.termination}. {outcome.standing_text()}"
    to_move = board.to_move
    return " ".join([*([f"To move: {to_move}."] if to_move else []),
                     *([clock] if clock else [])])
