"""The director's work: make a tournament, pair its rounds, and verify it from the files.

Every game of a tournament is a game like any other, refereed by the director's
key, whose header names the tournament; the tournament file lists it by id and
header hash. ``verify`` trusts neither: it audits every game, recomputes every
pairing and the standings, and checks that the two lists agree (docs/format.md,
"Verifying a tournament").
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from frogpbem import crypto
from frogpbem.audit import GameResult, Report, audit_many
from frogpbem.dealing import SeatSpec, create_game, start_game
from frogpbem.errors import (
    FileAccessError,
    FrogPbemError,
    KeyError_,
    UnfinishedGameError,
    UsageError,
    VerificationError,
)
from frogpbem.gamefile.document import is_view, parse_game, read_bytes, write_atomic
from frogpbem.gamefile.model import Deadline, Entered, GameFile, Header, Party
from frogpbem.gamefile.tournament import (
    MAX_PLAYERS,
    SYSTEMS,
    Format,
    Listed,
    Player,
    Round,
    TournamentFile,
    TournamentHeader,
    check_signatures,
    read_tournament,
)
from frogpbem.games import find_game
from frogpbem.protocol.session import Session
from frogpbem.tournament import pairing
from frogpbem.tournament.standings import Standings, past_rounds, standings

TOURNAMENT_PREFIX = b"frogpbem-tournament:"


@dataclass(frozen=True)
class Entrant:
    """A player as given to :func:`new_tournament`."""

    name: str
    key: crypto.PublicKey
    email: str | None = None


def swiss_rounds(count: int) -> int:
    """The most rounds a Swiss of ``count`` players may have: ⌈count / 2⌉ (with more, a
    round late in the event often has no pairing without a repeat)."""
    return (count + 1) // 2


def format_problems(header: TournamentHeader) -> list[str]:
    """What does not fit between the format, the rules and the number of players."""
    form = header.format
    count = len(header.players)
    system = form.system
    try:
        ruleset = find_game(header.rules)
        options = ruleset.options(header.options)
        if options != dict(header.options):
            return ["the options are not complete, as the rules check them"]
        if ruleset.team_names(options):
            return ["a tournament's games have no teams"]
        ruleset.seats(options, form.seats if system == "tables" and form.seats else 2)
    except FrogPbemError as exc:
        return [f"the rules do not fit the format: {exc.message}"]
    if system == "roundrobin":
        if form.cycles not in (1, 2) or form.seats is not None:
            return ["a round robin has cycles 1 or 2, and no seats"]
        if form.rounds != pairing.round_robin_rounds(count, form.cycles):
            return [f"a round robin of {count} players in {form.cycles} cycles has "
                    f"{pairing.round_robin_rounds(count, form.cycles)} rounds, not {form.rounds}"]
    elif system == "swiss":
        if form.cycles is not None or form.seats is not None:
            return ["a Swiss has neither cycles nor seats"]
        if form.rounds > swiss_rounds(count):
            return [f"a Swiss of {count} players has at most {swiss_rounds(count)} rounds"]
    elif form.cycles is not None or form.seats is None or not 2 <= form.seats <= 6:
        return ["tables have 2 to 6 seats, and no cycles"]
    return []


def new_tournament_id() -> str:
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "t-" + "".join(alphabet[b % 32] for b in os.urandom(8))


def new_tournament(key: crypto.PrivateKey, director: str, name: str, rules: str,
                   options: dict[str, str | int], system: str, entrants: Sequence[Entrant],
                   *, created: str, rounds: int | None = None, cycles: int = 1,
                   seats: int | None = None, deadline: Deadline | None = None,
                   email: str | None = None) -> TournamentFile:
    """A new tournament, signed by the director's ``key``: options and format checked."""
    ruleset = find_game(rules)
    opts = ruleset.options(options)
    count = len(entrants)
    if not 2 <= count <= MAX_PLAYERS:
        raise UsageError(f"a tournament has 2 to {MAX_PLAYERS} players, not {count}")
    if system not in SYSTEMS:
        raise UsageError(f"--format {system!r}: give one of {', '.join(SYSTEMS)}")
    if ruleset.team_names(opts):
        raise UsageError("a tournament's games have no teams: each player plays for "
                         "themselves")
    keys = [entrant.key.blob for entrant in entrants] + [key.public.blob]
    if len(set(keys)) != len(keys):
        raise UsageError("every player and the director need keys of their own")
    if system == "tables":
        if seats is None or not 2 <= seats <= 6:
            raise UsageError("tables: give --seats 2 to 6, the seats at each table")
        ruleset.seats(opts, seats)  # raises for a ruleset that cannot seat so many
        if rounds is None:
            raise UsageError("tables: give --rounds")
        form = Format(system, rounds, seats=seats)
    else:
        ruleset.seats(opts, 2)
        if system == "roundrobin":
            if cycles not in (1, 2):
                raise UsageError("--cycles: 1 or 2")
            form = Format(system, pairing.round_robin_rounds(count, cycles), cycles=cycles)
        else:
            most = swiss_rounds(count)
            if rounds is None or not 1 <= rounds <= most:
                raise UsageError(f"swiss: give --rounds from 1 to {most} for {count} players "
                                 "(with more, a late round may find no pairing without a "
                                 "repeat)")
            form = Format(system, rounds)
    players = tuple(Player(number, entrant.name, entrant.key.line, entrant.email)
                    for number, entrant in enumerate(entrants, 1))
    header = TournamentHeader(new_tournament_id(), name, created,
                              Party(director, key.public.line, email=email), rules, opts,
                              deadline, form, players)
    return TournamentFile(header.signed(key))


def write_tournament(path: Path, file: TournamentFile, new: bool = False) -> None:
    """Write the tournament file whole (never over another file when ``new``)."""
    if new and path.exists():
        raise FileAccessError("exists already; not overwriting a tournament", path=path)
    write_atomic(path, file.dumps())


# --- the games of a tournament -------------------------------------------------------


@dataclass
class Found:
    """The game files of a folder that name a tournament, and the problems on the way."""

    files: dict[str, list[tuple[Path, Header]]] = field(default_factory=dict)
    """By game id: every file of that id naming the tournament (one, if all is well)."""
    unreadable: list[str] = field(default_factory=list)
    broken: dict[str, str] = field(default_factory=dict)
    """Files that are no game file, by name: why (a listed game's file may be one)."""


def games_of(folder: Path, file: TournamentFile) -> Found:
    """Every game file in ``folder`` whose header names this tournament (by id or header)."""
    found = Found()
    header = file.header
    if not folder.is_dir():
        raise FileAccessError("no such folder of games", path=folder)
    for path in sorted(folder.glob("*.yaml")):
        if path.name.endswith(".view.yaml") or not path.is_file():
            continue
        try:
            data = read_bytes(path)
        except FrogPbemError as exc:
            found.unreadable.append(f"{path.name}: {exc.message}")
            continue
        if data.startswith(TOURNAMENT_PREFIX) or is_view(data):
            continue
        try:
            game = parse_game(data, str(path)).header
        except FrogPbemError as exc:
            found.broken[path.name] = exc.message  # not the tournament's, unless listed
            continue
        entered = game.tournament
        if entered is None or (entered.id != header.tournament
                               and entered.header != header.hash):
            continue
        found.files.setdefault(game.game, []).append((path, game))
    return found


def expected_rounds(file: TournamentFile) -> Callable[[list[pairing.PastRound]],
                                                     pairing.Round]:
    """The pairing of the round after those given (docs/format.md, "Pairings"); a round
    robin's schedule is made once."""
    count = len(file.header.players)
    form = file.header.format
    if form.system == "roundrobin":
        schedule = pairing.round_robin(count, form.cycles or 1)
        return lambda past: schedule[len(past)]
    if form.system == "swiss":
        return lambda past: pairing.swiss(count, past)
    return lambda past: pairing.tables(count, form.seats or 2, past)


# --- verify ---------------------------------------------------------------------------


@dataclass
class TournamentReport:
    """The verdict on a tournament: every problem found, the games, the standings."""

    path: str
    problems: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    standings: Standings | None = None
    results: dict[str, GameResult] = field(default_factory=dict)
    """The games that count: each audited, listed once, its file and header as listed."""
    files: dict[str, Path] = field(default_factory=dict)
    """The file of each game that counts."""
    refused: set[str] = field(default_factory=set)
    """Listed games that count for nobody (each has its problem)."""
    unlisted: list[tuple[Path, Header]] = field(default_factory=list)
    """Files that name the tournament but are not in it (each a problem too)."""
    paired: int = 0
    rounds: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def over(self) -> bool:
        """Every round of the format paired, and no game in play."""
        return (self.standings is not None and self.standings.over
                and self.paired == self.rounds)

    def exit_status(self) -> int:
        if not self.ok:
            return 1
        return 0 if self.over else UnfinishedGameError.exit_code


def verify_tournament(path: Path, games: Path, session: Session,
                      jobs: int = 0) -> TournamentReport:
    """Everything about a tournament, from its file and the game files in ``games``."""
    return _verified(read_tournament(path), path, games, session, jobs)


def _verified(file: TournamentFile, path: Path, games: Path, session: Session,
              jobs: int) -> TournamentReport:
    """:func:`verify_tournament` of ``file``, read from ``path`` already."""
    header = file.header
    report = TournamentReport(str(path), paired=len(file.rounds),
                              rounds=header.format.rounds)
    report.problems += check_signatures(file) + format_problems(header)
    if report.problems:  # nothing below may rely on such a file: nothing counts
        report.standings = standings(header, (), {})
        return report
    seen: dict[str, int] = {}
    for entry in file.rounds:
        for listed in entry.games:
            if listed.game in seen:
                report.problems.append(f"game {listed.game} is listed twice (rounds "
                                       f"{seen[listed.game]} and {entry.round})")
                report.refused.add(listed.game)
            seen.setdefault(listed.game, entry.round)
    found = games_of(games, file)
    report.problems += found.unreadable
    paths: dict[str, Path] = {}
    for game_id, copies in found.files.items():
        if game_id not in seen:
            report.problems.append(_unlisted(game_id, copies[0][0]))
            report.unlisted += copies
        elif len(copies) > 1:
            names = ", ".join(path.name for path, _ in copies)
            report.problems.append(f"game {game_id} is there twice ({names}): a game is "
                                   "played once")
            report.refused.add(game_id)
        else:
            paths[game_id] = copies[0][0]
    for entry in file.rounds:
        for listed in entry.games:
            copies = found.files.get(listed.game, [])
            if not copies:
                broken = found.broken.get(f"{listed.game}.yaml")
                report.problems.append(
                    f"game {listed.game} of round {entry.round}: {listed.game}.yaml does not "
                    f"read: {broken}" if broken else
                    f"game {listed.game} of round {entry.round} is missing from {games}")
                report.refused.add(listed.game)
            elif len(copies) == 1:
                wrong = _game_problems(file, entry.round, entry.prev, listed, copies[0][1])
                report.problems += wrong
                if wrong:
                    report.refused.add(listed.game)
    order = [game_id for game_id in paths if game_id not in report.refused]
    audited = audit_many([paths[game_id] for game_id in order], jobs=jobs,
                         clock=session.clock) if order else []
    for game_id, audit_report in zip(order, audited, strict=True):
        wrong = _audit_problems(game_id, audit_report)
        report.problems += wrong
        if wrong:
            report.refused.add(game_id)
        elif audit_report.result is not None:
            report.results[game_id] = audit_report.result
            report.files[game_id] = paths[game_id]
    report.checked.append(f"{len(report.results)} games audited and counted")
    report.problems += _pairing_problems(file, report.results, report.refused)
    report.checked.append(f"{len(file.rounds)} of {header.format.rounds} rounds paired")
    report.standings = standings(header, file.rounds, report.results, report.refused)
    return report


def _game_problems(file: TournamentFile, number: int, prev: str, listed: Listed,
                   game: Header) -> list[str]:
    """What does not hold between a game listed in round ``number`` (paired after the
    head ``prev``) and its file's header."""
    header = file.header
    where = f"game {listed.game} (round {number})"
    problems = []
    if game.hash != listed.header:
        problems.append(f"{where}: its header is not the one the tournament lists")
    if game.tournament != _entered(file, number, prev):
        problems.append(f"{where}: its header names another tournament or round")
    if game.referee.public_key.blob != header.director.public_key.blob:
        problems.append(f"{where}: it is refereed by another key than the director's")
    if (game.rules, dict(game.options), game.deadline) != \
            (header.rules, dict(header.options), header.deadline):
        problems.append(f"{where}: its rules, options or deadline are not the tournament's")
    players = {player.player: player for player in header.players}
    wanted = [players[p].public_key.blob if p in players else b"" for p in listed.players]
    if [party.public_key.blob for party in game.seats] != wanted:
        problems.append(f"{where}: its seats are not the listed players in order")
    return problems


def _audit_problems(game_id: str, report: Report) -> list[str]:
    if not report.ok:
        failed = next((check.what for check in report.checks if not check.ok), "")
        return [f"game {game_id} does not hold: {failed.splitlines()[0] if failed else ''}"]
    return []


def _pairing_problems(file: TournamentFile, results: dict[str, GameResult],
                      refused: set[str]) -> list[str]:
    """Each round against the pairing made again from the results of the rounds before;
    stops at the first that cannot be checked or does not match (those after it were
    paired from it)."""
    schedule = expected_rounds(file)
    for index, entry in enumerate(file.rounds):
        before = [game.game for earlier in file.rounds[:index] for game in earlier.games]
        if any(game in refused for game in before):
            return []  # the refused game is a problem already; nothing more to say
        missing = [game for game in before if game not in results]
        if missing:
            return [f"round {entry.round} was paired before game {missing[0]} of a round "
                    "before it ended"]
        try:
            wanted = schedule(past_rounds(file.rounds[:index], results))
        except UsageError as exc:
            return [f"round {entry.round}: {exc.message}"]
        got = pairing.Round(tuple(pairing.Pairing(game.players) for game in entry.games),
                            entry.byes)
        if got != wanted:
            return [f"round {entry.round} is not the pairing its system gives from the "
                    "results before it"]
    return []


# --- pair -------------------------------------------------------------------------------


@dataclass
class Paired:
    """What :func:`pair_round` made: the round and its games' files."""

    round: Round
    made: list[Path]
    adopted: list[Path]


def pair_round(path: Path, games: Path, key: crypto.PrivateKey, session: Session,
               jobs: int = 0) -> Paired:
    """Pair the next round: check the tournament so far, make and sign the round's games
    into ``games``, then add the signed round to the tournament file.

    The games are written first: a run stopped between the two finds them (they name the
    tournament, the round and the head it was paired after) and lists them instead of
    making others, once each is checked as :func:`verify_tournament` would. Two runs at
    once take turns (a lock on the tournament file).
    """
    with _holding(path):
        file = read_tournament(path)
        if key.public.blob != file.header.director.public_key.blob:
            raise KeyError_("only the director's key pairs a round: this is another key")
        games.mkdir(parents=True, exist_ok=True)
        report = _verified(file, path, games, session, jobs)
        number = len(file.rounds) + 1
        left = [(game_path, header) for game_path, header in report.unlisted
                if header.tournament == _entered(file, number, file.head)]
        others = [problem for problem in report.problems
                  if problem not in {_unlisted(header.game, game_path)
                                     for game_path, header in left}]
        if others:
            raise VerificationError(f"the tournament does not hold: {others[0]}", path=path)
        if number > file.header.format.rounds:
            raise UsageError(f"all {file.header.format.rounds} rounds are paired already",
                             path=path)
        in_play = report.standings.in_play if report.standings else []
        if in_play:
            raise UsageError(f"round {number - 1} is not over: {', '.join(in_play)} still "
                             "in play", path=path)
        wanted = expected_rounds(file)(past_rounds(file.rounds, report.results))
        orphans = _orphans(file, number, left, session)
        listed, made, adopted = [], [], []
        for game in wanted.games:
            found = orphans.pop(game.players, None)
            if found is not None:
                listed.append(Listed(found[1].game, found[1].hash, game.players))
                adopted.append(found[0])
                continue
            made_file = _make_game(file, number, game.players, key, session)
            target = games / f"{made_file.game}.yaml"
            start_game(target, made_file, key, session)
            listed.append(Listed(made_file.game, made_file.header.hash, game.players))
            made.append(target)
        if orphans:
            stray = ", ".join(header.game for _, header in orphans.values())
            raise VerificationError(f"games {stray} name round {number} but are not its "
                                    "pairing; remove them and pair again", path=path)
        entry = Round(number, file.head, tuple(listed), wanted.byes,
                      session.clock.text()).signed(key)
        write_tournament(path, file.with_round(entry))
        return Paired(entry, made, adopted)


@contextlib.contextmanager
def _holding(path: Path) -> Iterator[None]:
    """An exclusive lock on the tournament file as it is now (a writer replaces it by a
    rename: whoever waited reads the new file once it holds the lock)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise FileAccessError(f"cannot open: {exc.strerror}", path=path) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _orphans(file: TournamentFile, number: int, left: list[tuple[Path, Header]],
             session: Session) -> dict[tuple[int, ...], tuple[Path, Header]]:
    """The games of round ``number`` that a pairing made before it stopped, by their
    players in seat order: each checked as a listed game is, untouched since it was made
    (no record, no request), and signed as it should be; raises for any other."""
    blobs = {player.public_key.blob: player.player for player in file.header.players}
    orphans: dict[tuple[int, ...], tuple[Path, Header]] = {}
    for game_path, header in left:
        players = tuple(blobs.get(party.public_key.blob, 0) for party in header.seats)
        listed = Listed(header.game, header.hash, players)
        wrong = _game_problems(file, number, file.head, listed, header)
        game = parse_game(read_bytes(game_path), str(game_path))
        checked = audit_many([game_path], clock=session.clock)[0]
        if wrong or game.log or game.requests or not checked.ok or players in orphans:
            raise VerificationError(
                f"game {header.game} ({game_path.name}) names round {number} of this "
                "tournament but is no untouched game its director made for it; remove it "
                "and pair again", path=game_path)
        orphans[players] = (game_path, header)
    return orphans


def _entered(file: TournamentFile, number: int, prev: str) -> Entered:
    header = file.header
    return Entered(header.tournament, header.hash, number, prev)


def _unlisted(game_id: str, path: Path) -> str:
    return f"game {game_id} ({path.name}) names this tournament but is not in it"


def _make_game(file: TournamentFile, number: int, players: tuple[int, ...],
               key: crypto.PrivateKey, session: Session) -> GameFile:
    header = file.header
    ruleset = find_game(header.rules)
    seat_names = ruleset.seats(header.options, len(players))
    by_number = {player.player: player for player in header.players}
    specs = [SeatSpec(seat, by_number[p].public_key, by_number[p].name, by_number[p].email)
             for seat, p in zip(seat_names, players, strict=True)]
    return create_game(header.rules, key, header.director.name, specs, dict(header.options),
                       created=session.clock.text(), deadline=header.deadline,
                       referee_email=header.director.email,
                       tournament=_entered(file, number, file.head))
