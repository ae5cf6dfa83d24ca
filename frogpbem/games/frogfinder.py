"""Frog Finder, the two-player game as played on BrainKing (docs/rules.md §1)."""

from __future__ import annotations

from frogpbem.games.frogs import FrogGame

__all__ = ["FrogFinder"]


class FrogFinder(FrogGame):
    """Frog Finder for two seats, red and blue; equal points are a draw."""

    name = "frogfinder"
    title = "Frog Finder"
    seat_order = ("red", "blue")
    id_prefix = "ff"
