"""Frog Finder, the two-player game as played on BrainKing (RULES.md §1)."""

from __future__ import annotations

from frogpbem.games.frogs import Action, FrogGame, Move, Revealed, State

__all__ = ["Action", "FrogFinder", "Move", "Revealed", "State"]


class FrogFinder(FrogGame):
    """Frog Finder for two seats, red and blue; equal points are a draw."""

    name = "frogfinder"
    title = "Frog Finder"
    seat_order = ("red", "blue")
    id_prefix = "ff"
