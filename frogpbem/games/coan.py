"""Coan's original Frog Finder: 2 to 6 seats, optionally in teams (docs/rules.md §2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from frogpbem.errors import UsageError
from frogpbem.games import Options, OptionSpec
from frogpbem.games.frogs import FrogGame
from frogpbem.safetext import quoted


class Coan(FrogGame):
    """Frog Finder as Michael Coan first wrote it.

    Ties go to the seat (team) that stayed in longer. A resignation reveals
    the resigning seat's frogs to all; in a team game the whole team resigns
    (points and ranking belong to the team). When a resignation leaves one
    team standing, it still gets its bonus.
    """

    name = "coan"
    title = "Frog Finder (Coan's original)"
    seat_order = ("red", "blue", "black", "purple", "yellow", "green")
    id_prefix = "co"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        *FrogGame.option_specs,
        OptionSpec("teams", "", "red+black,blue+purple", "the teams, if any"),
    )
    ties_are_draws = False
    resign_reveals = True
    resign_bonus = True

    def options(self, given: Mapping[str, str | int]) -> dict[str, int | str]:
        rest = {k: v for k, v in given.items() if k != "teams"}
        base = FrogGame.options(self, rest)
        teams = _parse_teams(str(given.get("teams", "")), self.seat_order)
        if teams:
            base["teams"] = ",".join("+".join(team) for team in teams)
        return base

    def seats(self, options: Options, count: int) -> tuple[str, ...]:
        if not 2 <= count <= len(self.seat_order):
            raise UsageError(f"coan is played by 2 to 6 seats, got {count}")
        seats = self.seat_order[:count]
        self.check_room(options, count)
        teams = _parse_teams(str(options.get("teams", "")), self.seat_order)
        if teams:
            named = [seat for team in teams for seat in team]
            missing = [s for s in seats if s not in named]
            extra = [s for s in named if s not in seats]
            if missing or extra:
                raise UsageError(
                    f"option teams must put each of {', '.join(seats)} in exactly one team"
                    + (f" ({', '.join(missing)} in none)" if missing else "")
                    + (f" ({', '.join(extra)} not playing)" if extra else "")
                )
        return seats

    def team_names(self, options: Options) -> str:
        return ", ".join("+".join(t) for t in _parse_teams(str(options.get("teams", "")),
                                                         self.seat_order))

    def team_map(self, options: Options, seats: Sequence[str]) -> dict[str, str]:
        names = {s: s for s in seats}
        for team in _parse_teams(str(options.get("teams", "")), self.seat_order):
            for seat in team:
                names[seat] = "+".join(team)
        return {s: names[s] for s in seats}


def _parse_teams(text: str, order: Sequence[str]) -> list[tuple[str, ...]]:
    """``red+black,blue+purple`` as teams in seat order; raises :class:`UsageError`."""
    if not text.strip():
        return []
    teams: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for part in text.split(","):
        members = [m.strip().lower() for m in part.split("+") if m.strip()]
        for member in members:
            if member not in order:
                known = ", ".join(order)
                raise UsageError(f"option teams: unknown seat {quoted(member)} (seats: {known})")
            if member in seen:
                raise UsageError(f"option teams: {member} is in two teams")
            seen.add(member)
        teams.append(tuple(sorted(members, key=order.index)))
    if len(teams) < 2:
        raise UsageError("option teams needs at least two teams, e.g. red+black,blue+purple")
    if len({len(t) for t in teams}) != 1 or len(teams[0]) < 2:
        raise UsageError("option teams: teams are 2 against 2 or 3 against 3, "
                         f"got {quoted(text)}")
    return sorted(teams, key=lambda team: order.index(team[0]))
