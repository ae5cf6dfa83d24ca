"""Points, tie-breaks and the crosstable, from the rounds and the results of audited games.

Pure: the results come in already audited (:class:`~frogpbem.audit.GameResult`);
a game without one is in play and counts for nobody. See docs/format.md,
"Points and standings".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from fractions import Fraction

from frogpbem.audit import GameResult
from frogpbem.gamefile.tournament import Round, TournamentHeader
from frogpbem.safetext import safe
from frogpbem.tournament.pairing import BYE_POINTS, PastRound, Played

HALF = Fraction(1, 2)


def game_points(result: GameResult) -> tuple[Fraction, ...]:
    """Each listed player's points from a game: against each other player at it, 1 for a
    better rank, ½ for an equal one, 0 for a worse one."""
    count = len(result.seats)
    return tuple(sum((_pairwise(result, index, other) for other in range(count)
                      if other != index), Fraction(0))
                 for index in range(count))


def past_rounds(rounds: Sequence[Round], results: Mapping[str, GameResult]) -> list[PastRound]:
    """The rounds as the pairing sees them; raises ``KeyError`` for a game not yet over."""
    return [PastRound(tuple(Played(game.players, game_points(results[game.game]))
                            for game in entry.games), entry.byes)
            for entry in rounds]


@dataclass(frozen=True)
class Cell:
    """One game (or bye) of a player's round: its id, the opponents, the points scored
    (``None`` while the game is in play)."""

    game: str | None
    opponents: tuple[int, ...]
    points: Fraction | None
    refused: bool = False
    """The game counts for nobody (it does not hold, or is not the one listed)."""

    def text(self) -> str:
        """As crosstables write it: ``+4`` (beat player 4), ``=3``, ``-2``, ``*5`` (in
        play), ``x5`` (counts for nobody); at a table, the points then the table mates
        (``1½:2,5``); ``bye``."""
        if self.game is None:
            return "bye"
        mates = ",".join(map(str, self.opponents))
        if self.points is None:
            return f"{'x' if self.refused else '*'}{mates}"
        if len(self.opponents) == 1:
            return {Fraction(1): "+", HALF: "="}.get(self.points, "-") + mates
        return f"{score_text(self.points)}:{mates}"

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "opponents": list(self.opponents),
                "points": None if self.points is None else str(self.points),
                **({"refused": True} if self.refused else {})}


def score_text(value: Fraction) -> str:
    """A score as players write it: ``2½``, ``½``, ``3``."""
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(whole)
    if rest == HALF:
        return ("" if whole == 0 else str(whole)) + "½"
    return f"{float(value):.2f}"


@dataclass
class Line:
    """One player's line of the standings."""

    player: int
    name: str
    points: Fraction = Fraction(0)
    buchholz: Fraction = Fraction(0)
    berger: Fraction = Fraction(0)
    played: int = 0
    in_play: int = 0
    byes: int = 0
    rank: int = 0
    results: dict[int, list[Cell]] = field(default_factory=dict)
    """By round: the player's games (and bye) in it."""


@dataclass
class Standings:
    """Every player's line, best first, and the games counted and in play."""

    lines: list[Line]
    counted: int
    in_play: list[str]
    system: str

    @property
    def over(self) -> bool:
        return not self.in_play

    def to_json(self) -> dict[str, object]:
        return {"system": self.system, "counted": self.counted, "in_play": self.in_play,
                "standings": [{
                    "rank": line.rank, "player": line.player, "name": line.name,
                    "points": str(line.points), "buchholz": str(line.buchholz),
                    "sonneborn_berger": str(line.berger), "games": line.played,
                    "byes": line.byes,
                    "rounds": {str(number): [cell.to_json() for cell in cells]
                               for number, cells in sorted(line.results.items())}}
                    for line in self.lines]}


def standings(header: TournamentHeader, rounds: Sequence[Round],
              results: Mapping[str, GameResult],
              refused: Set[str] = frozenset()) -> Standings:
    """The standings after ``rounds``, counting the games that have a result; the
    ``refused`` count for nobody, and the others are in play."""
    lines = {player.player: Line(player.player, player.name) for player in header.players}
    met: dict[int, list[tuple[int, Fraction]]] = {number: [] for number in lines}
    counted, in_play = 0, []
    for entry in rounds:
        for bye in entry.byes:
            lines[bye].points += BYE_POINTS
            lines[bye].byes += 1
            lines[bye].results.setdefault(entry.round, []).append(Cell(None, (), BYE_POINTS))
        for game in entry.games:
            result = results.get(game.game)
            if result is None:
                if game.game not in refused:
                    in_play.append(game.game)
                for number in game.players:
                    lines[number].in_play += game.game not in refused
                    lines[number].results.setdefault(entry.round, []).append(
                        Cell(game.game, _others(game.players, number), None,
                             game.game in refused))
                continue
            counted += 1
            scored = game_points(result)
            for index, number in enumerate(game.players):
                line = lines[number]
                line.points += scored[index]
                line.played += 1
                line.results.setdefault(entry.round, []).append(
                    Cell(game.game, _others(game.players, number), scored[index]))
                for other, opponent in enumerate(game.players):
                    if other != index:
                        mine = _pairwise(result, index, other)
                        met[number].append((opponent, mine))
    for number, line in lines.items():
        line.buchholz = sum((lines[opponent].points for opponent, _ in met[number]),
                            Fraction(0))
        line.berger = sum((mine * lines[opponent].points for opponent, mine in met[number]),
                          Fraction(0))
    system = header.format.system
    ordered = sorted(lines.values(), key=lambda line: _order(system, line))
    for index, line in enumerate(ordered, 1):
        line.rank = index
    return Standings(ordered, counted, in_play, system)


def _others(players: tuple[int, ...], player: int) -> tuple[int, ...]:
    return tuple(other for other in players if other != player)


def _pairwise(result: GameResult, index: int, other: int) -> Fraction:
    """What the player at seat ``index`` scored against the one at seat ``other``."""
    mine = result.rank_of(result.seats[index].seat)
    theirs = result.rank_of(result.seats[other].seat)
    return Fraction(1) if mine < theirs else HALF if mine == theirs else Fraction(0)


def _order(system: str, line: Line) -> tuple[Fraction | int, ...]:
    """The sort key: points, the system's tie-breaks in order, then seed."""
    if system == "roundrobin":
        return (-line.points, -line.berger, line.player)
    return (-line.points, -line.buchholz, -line.berger, line.player)


def standings_text(table: Standings, names: dict[int, str]) -> str:
    """The crosstable as text: one line per player, a column per round."""
    rounds = max((max(line.results, default=0) for line in table.lines), default=0)
    width = max([len(safe(names[line.player])) for line in table.lines] + [4])
    head = f"{'#':>3} {'seed':>4} {'name':<{width}} {'pts':>5} {'buch':>6} {'s-b':>6}"
    head += "".join(f" {'r' + str(number):>7}" for number in range(1, rounds + 1))
    lines = [head]
    for line in table.lines:
        row = (f"{line.rank:>3} {line.player:>4} {safe(names[line.player]):<{width}} "
               f"{score_text(line.points):>5} {score_text(line.buchholz):>6} "
               f"{score_text(line.berger):>6}")
        for number in range(1, rounds + 1):
            cells = line.results.get(number)
            row += f" {' '.join(cell.text() for cell in cells) if cells else '.':>7}"
        lines.append(row)
    footer = f"{table.counted} games counted"
    if table.in_play:
        footer += f", {len(table.in_play)} in play"
    return "\n".join([*lines, footer])
