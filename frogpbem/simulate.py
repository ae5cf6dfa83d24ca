"""Games played between bots, with no game files and no keys: ``frogpbem simulate``.

Each game is dealt from its own seed and played through the rules alone: a
bot sees only its own (and its teammates') view, as in a game by email.
The tallies give each seat's wins with a 95 % Wilson interval, the draws
and the average points. The games are played here, on a pool of local
processes or on a Dask cluster (:mod:`frogpbem.engines`); each one's result
can stream to a JSON lines file that a later run goes on from
(docs/simulate.md).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import stat
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from frogpbem.engines import cores, need_dask, run_here, run_on_dask, run_on_pool
from frogpbem.errors import FileAccessError, FrogPbemError, GameFileError, UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.document import write_atomic
from frogpbem.games import (
    STRENGTHS,
    GameView,
    Outcome,
    Paint,
    SomeRuleset,
    bot_move,
    find_game,
)
from frogpbem.safetext import counted


def play_local(rules: SomeRuleset, options: dict[str, Any], seats: Sequence[str],
               bots: dict[str, str], rng: random.Random,
               moves: list[str] | None = None) -> tuple[Outcome, dict[str, int]]:
    """One whole game between bots (seat to strength); its outcome and points. Each move
    is added to ``moves`` (``red shoot G9 {2}``: seat, move, result), if given."""
    public, secrets = rules.deal(options, seats, rng)
    state = rules.start(options, seats, public, secrets)
    for _ in range(10_000):
        auto = rules.automatic(state)
        seat = rules.to_move(state)
        if seat is None:
            break
        if auto is not None:
            state, _ = rules.play(state, seat, auto)
            continue
        text = bot_move(rules, rules.view(state, team_of(rules, options, seats, seat)), seat,
                        rng, bots[seat])
        state, result = rules.play(state, seat, rules.parse_move(text))
        if moves is not None:
            moves.append(f"{seat} {text} {{{rules.comment_record(result)}}}")
    outcome = rules.outcome(state)
    if outcome is None:
        raise RuntimeError("a local game did not end in 10,000 moves")
    return outcome, {place.seat: place.points for place in outcome.standing}


def team_of(rules: SomeRuleset, options: dict[str, Any], seats: Sequence[str],
            seat: str) -> frozenset[str]:
    """The seats whose hidden pieces ``seat`` sees: itself and its teammates."""
    return frozenset(s for s in seats if s in rules.secret_readers(options, seat)) | {seat}


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``wins / games``."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    # the interval holds p; rounding alone put 1.0 above a high end of 0.9999999999999999
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


@dataclass
class Tally:
    """What ``games`` local games came to."""

    rules: str
    seats: tuple[str, ...]
    bots: dict[str, str]
    """Each seat's bot in the first game (with ``swap``, the two bots change seats
    every other game)."""
    swap: bool
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    """Games won by each seat (a sole first place)."""
    bot_wins: dict[str, int] = field(default_factory=dict)
    """Games won by each bot, whichever seat it held."""
    draws: int = 0
    points: dict[str, int] = field(default_factory=dict)

    def add(self, outcome: Outcome, points: dict[str, int], bots: dict[str, str]) -> None:
        self.games += 1
        first = [p.seat for p in outcome.standing if p.rank == 1]
        if len(first) == 1:
            self.wins[first[0]] = self.wins.get(first[0], 0) + 1
            bot = bots.get(first[0], first[0])
            self.bot_wins[bot] = self.bot_wins.get(bot, 0) + 1
        else:
            self.draws += 1
        for seat, value in points.items():
            self.points[seat] = self.points.get(seat, 0) + value

    def share(self, count: int) -> Share:
        return Share.of(count, self.games)

    def average(self, seat: str) -> float:
        return self.points.get(seat, 0) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "games": self.games, "bots": self.bots,
                "swapped": self.swap,
                "wins": {seat: self.share(self.wins.get(seat, 0)).to_json()
                         for seat in self.seats},
                "draws": self.share(self.draws).to_json(),
                "bot_wins": {bot: self.share(n).to_json()
                             for bot, n in sorted(self.bot_wins.items())},
                "average_points": {seat: self.average(seat) for seat in self.points}}

    def table(self) -> str:
        lines = [f"{counted(self.games, 'game')} of {self.rules}, "
                 + ", ".join(f"{seat}: {bot}" for seat, bot in self.bots.items())
                 + (" (the bots change seats every other game)" if self.swap else ""),
                 "", f"{'':<22}{'games':>7}{'share':>9}   95 % interval"]
        rows = [(f"{seat} wins", self.wins.get(seat, 0)) for seat in self.seats]
        rows.append(("draws", self.draws))
        if len(set(self.bots.values())) > 1:
            rows += [(f"bot {bot} wins", n) for bot, n in sorted(self.bot_wins.items())]
        for label, count in rows:
            item = self.share(count)
            lines.append(f"{label:<22}{item.games:>7}{100 * item.share:>8.2f}%   "
                         f"{100 * item.low:.2f} - {100 * item.high:.2f} %")
        lines.append("")
        lines.append("average points: " + ", ".join(
            f"{seat} {self.average(seat):.2f}" for seat in self.points))
        return "\n".join(lines)


@frozen
class Share:
    """A count of games, its share of all games, and the 95 % interval of that share."""

    games: int
    share: float
    low: float
    high: float

    @classmethod
    def of(cls, count: int, games: int) -> Share:
        """``count`` games of ``games``: their share and its Wilson interval."""
        low, high = wilson(count, games)
        return cls(count, count / games if games else 0.0, low, high)

    def to_json(self) -> dict[str, float]:
        return {"games": self.games, "share": self.share, "low": self.low, "high": self.high}

    def text(self) -> str:
        return f"{100 * self.share:6.2f} % ({100 * self.low:.2f} - {100 * self.high:.2f})"


def simulate(rules_name: str, games: int, bots: Sequence[str], seed: int = 0,
             options: dict[str, str] | None = None, seats: int | None = None,
             swap: bool = False, progress: Callable[[int], None] | None = None,
             records: Path | None = None, *, jobs: int = 1, out: Path | None = None,
             cluster: str | None = None, stop_after: int | None = None,
             note: Callable[[str], None] | None = None) -> Tally:
    """Play ``games`` local games; game ``i`` is dealt and played from seed ``seed + i``.

    ``jobs`` processes play them (0: every core), or the Dask scheduler at ``cluster``
    (``local``: a local cluster of ``jobs`` workers). With ``out``, each game's result is
    added to that JSON lines file as it ends, and the games it already holds are not
    played again (``note`` hears of a torn last line). ``stop_after`` plays at most that
    many games now. With ``records``, each game played has its moves written there
    (``game-0001.txt`` for game 0). The tally is of the games ``0`` to ``games - 1``
    played or read, added in the order of their numbers, whatever the engine.
    """
    rules = find_game(rules_name)
    opts = rules.options(options or {})
    names = rules.seats(opts, seats or len(rules.seat_order))
    for bot in bots:
        if bot not in STRENGTHS:
            raise UsageError(f"--bots: {bot!r} is not a bot; give {', '.join(STRENGTHS)}")
    if len(bots) not in (1, len(names)):
        raise UsageError(f"--bots: give one bot, or one for each of the {len(names)} seats")
    given = tuple(bots) * (len(names) if len(bots) == 1 else 1)
    run = Run(rules.name, opts, names, given, swap, seed)
    processes = cores(jobs)
    if cluster is not None:
        need_dask()  # before the file is touched
    if records is not None:
        _make_folder(records)  # before the games: a wrong path is told at once
    done: dict[int, Played] = {}
    with ExitStack() as stack:
        sink = None
        if out is not None:
            sink = stack.enter_context(ResultsFile.open(out, run, note or (lambda _: None)))
            done = {i: played for i, played in sink.games.items() if i < games}
            if done and note is not None:
                note(f"{out}: {counted(len(done), 'game')} of the {games} already there; "
                     f"{'none' if len(done) == games else 'the others'} to play")
        count = games - len(done)
        if stop_after is not None:
            count = min(count, max(0, stop_after))
        todo = itertools.islice((run.game(i, keep=records is not None)
                                 for i in range(games) if i not in done), count)
        results = stack.enter_context(closing(_played(todo, count, processes, cluster)))
        tally = _InOrder(Tally(rules.name, names, dict(zip(names, given, strict=True)), swap),
                         done)
        try:
            for played in results:
                tally.ended(played)
                if sink is not None:
                    sink.add(run, played)
                if records is not None:
                    _write_record(records, rules.title, played)
                if progress is not None:
                    progress(tally.games)
        except KeyboardInterrupt:
            if sink is None:
                raise
            raise Stopped(sum(index < games for index in sink.games), out) from None
    return tally.whole()


class _InOrder:
    """A tally that adds games in the order of their numbers as they end in any order,
    holding only those that ended before a lower-numbered one (and those a results file
    held): the same tally whatever the engine, without every game kept."""

    def __init__(self, tally: Tally, held: dict[int, Played]) -> None:
        self.tally = tally
        self.waiting = dict(held)
        self.next = 0
        self.games = len(held)
        """How many games have ended, or were held."""

    def ended(self, played: Played) -> None:
        self.games += played.index not in self.waiting
        self.waiting[played.index] = played
        while self.next in self.waiting:
            self._add(self.waiting.pop(self.next))
            self.next += 1

    def whole(self) -> Tally:
        """The tally, the games still waiting (after a gap: a run stopped early) added."""
        for index in sorted(self.waiting):
            self._add(self.waiting.pop(index))
        return self.tally

    def _add(self, played: Played) -> None:
        # a bot's win counts for the bot; with two equal bots, for the seat
        self.tally.add(played.outcome, played.points,
                       played.bots if len(set(played.bots.values())) > 1 else {})


def _played(todo: Iterable[Game], count: int, processes: int,
            cluster: str | None) -> Generator[Played, None, None]:
    """The ``count`` games ``todo`` played on Dask, on a pool of ``processes``, or here
    (one process, or a single game: no pool to start), as they end."""
    if cluster is not None and count:
        return run_on_dask(play_game, todo, cluster, processes)
    if processes == 1 or count < 2:
        return run_here(play_game, todo)
    return run_on_pool(play_game, todo, min(processes, count))


class Stopped(KeyboardInterrupt):
    """A run with a results file was interrupted; the file holds ``games`` whole games."""

    def __init__(self, games: int, path: Path | None) -> None:
        super().__init__(f"{path}: stopped with {counted(games, 'game')} in the file")
        self.games = games
        self.path = path


@frozen
class Run:
    """What a run plays: the parameters a results file's first line holds."""

    rules: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    bots: tuple[str, ...]
    """The bots in seat order in game 0."""
    swap: bool
    """Whether two bots change seats in every odd-numbered game."""
    seed: int

    def game(self, index: int, keep: bool = False) -> Game:
        """Game ``index`` of the run (keeping its moves, if ``keep``)."""
        order = list(self.bots)
        if self.swap and index % 2 and len(order) == 2:
            order.reverse()
        return Game(index, self.seed + index, self.rules, self.options, self.seats,
                    tuple(order), keep)

    def to_json(self) -> dict[str, Any]:
        return {"simulate": FORMAT, "rules": self.rules, "options": self.options,
                "seats": list(self.seats), "bots": list(self.bots), "swap": self.swap,
                "seed": self.seed}

    def differs(self, first: Any) -> str | None:
        """How a results file's first line ``first`` differs from this run (its first
        differing parameter, in words), or ``None``."""
        mine = self.to_json()
        if not isinstance(first, dict) or first.keys() != mine.keys():
            return "its first line does not describe a simulation"
        for name, value in mine.items():
            theirs = first[name]
            if name == "options" and isinstance(theirs, dict):
                # size=8 from the command line is the number 8 of a library call
                value, theirs = _spelt(value), _spelt(theirs)
            if value != theirs:
                return f"it holds games of {name} {json.dumps(first[name])}, not " \
                       f"{json.dumps(mine[name])}"
        return None


FORMAT = 1
"""The version of the results file's format (docs/simulate.md)."""


def _spelt(options: dict[str, Any]) -> dict[str, str]:
    return {name: str(value) for name, value in options.items()}


@frozen
class Game:
    """One game of a run, as a worker gets it: everything it needs to play it."""

    index: int
    seed: int
    rules: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    bots: tuple[str, ...]
    """Each seat's bot, in seat order."""
    keep: bool
    """Whether the moves come back (for ``--records``), or only their number."""


@frozen
class Played:
    """One game's result, from a worker or from a results file."""

    index: int
    seed: int
    bots: dict[str, str]
    outcome: Outcome
    moves: int
    """How many moves the seats chose (automatic steps not counted)."""
    record: tuple[str, ...] = ()
    """The moves (``red shoot G9 {2}``), if they were kept."""

    @property
    def points(self) -> dict[str, int]:
        return {place.seat: place.points for place in self.outcome.standing}

    def to_json(self, run: Run) -> dict[str, Any]:
        """The game's line of a results file."""
        first = [place.seat for place in self.outcome.standing if place.rank == 1]
        return {"game": self.index, "seed": self.seed, "rules": run.rules,
                "options": run.options, "seats": list(run.seats), "bots": self.bots,
                "termination": self.outcome.termination,
                "standing": [place.to_json() for place in self.outcome.standing],
                "winners": first, "moves": self.moves}

    @classmethod
    def from_json(cls, data: Any, run: Run) -> Played:
        """A game's line of a results file of ``run``; raises ``ValueError`` if it is not
        one (another run's game among them too)."""
        match data:
            case {"game": int(index), "seed": int(seed), "bots": dict(bots),
                  "termination": str(), "standing": list(), "moves": int(moves)} \
                    if _counts(index, moves) and type(seed) is int \
                    and seed == run.seed + index:
                try:
                    outcome = Outcome.from_json(data)
                except (TypeError, KeyError, ValueError):
                    raise ValueError("not an outcome") from None
                if not _sound_standing(outcome, run.seats):
                    raise ValueError("not a standing of the run's seats")
                if dict(zip(run.seats, run.game(index).bots, strict=True)) != bots:
                    raise ValueError("not the run's bots")
                return cls(index, seed, bots, outcome, moves)
        raise ValueError("not a game of the run")


def _counts(*values: int) -> bool:
    """Whether each is a whole number from 0 up (``true`` is no count, though Python's
    ``bool`` is an ``int``)."""
    return all(type(value) is int and value >= 0 for value in values)


def _sound_standing(outcome: Outcome, seats: tuple[str, ...]) -> bool:
    """Whether ``outcome`` places each of ``seats`` once (alone, or in a team named
    ``red+black``), ranked as games rank (from 1; a tie shares the rank above it, the next
    place is its position), with whole points: as a game of the run ends."""
    places = outcome.standing
    ranks = [place.rank for place in places]
    return (sorted(seat for place in places for seat in place.seat.split("+"))
            == sorted(seats)
            and all(type(place.points) is int for place in places)
            and _counts(*ranks) and ranks[:1] == [1]
            and all(ranks[i] in (ranks[i - 1], i + 1) for i in range(1, len(ranks))))


def play_game(game: Game) -> Played:
    """Play ``game`` from its seed: what a worker process runs."""
    bots = dict(zip(game.seats, game.bots, strict=True))
    moves: list[str] = []
    outcome, _ = play_local(find_game(game.rules), game.options, game.seats, bots,
                            random.Random(game.seed), moves)
    return Played(game.index, game.seed, bots, outcome, len(moves),
                  tuple(moves) if game.keep else ())


class ResultsFile:
    """A results file open for adding games (docs/simulate.md): locked against a second
    run, its games read, a torn last line cut off."""

    def __init__(self, path: Path, fd: int, games: dict[int, Played]) -> None:
        self.path = path
        self.fd = fd
        self.games = games
        """The games the file holds, by number."""

    @classmethod
    @contextmanager
    def open(cls, path: Path, run: Run, note: Callable[[str], None]) -> Iterator[ResultsFile]:
        """The file at ``path`` for ``run``, made with its first line if missing or empty.

        Raises :class:`UsageError` if it holds another run's games, :class:`GameFileError`
        if a line other than the last is not a result, :class:`FileAccessError` if it
        cannot be read or written or another run has it open.
        """
        try:  # O_NONBLOCK: a FIFO given here is refused below, never waited on
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK
                         | os.O_NOCTTY, 0o644)
        except OSError as exc:
            raise FileAccessError(f"--out: cannot open this file: {exc.strerror}",
                                  path=path) from None
        try:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                raise FileAccessError("--out: is not a regular file (a pipe, device or "
                                      "socket)", path=path)
            if status.st_size > MAX_RESULTS:
                raise FileAccessError(f"--out: larger than {MAX_RESULTS >> 30} GiB: not a "
                                      "results file", path=path)
            _lock(fd, path)
            games = cls._read(fd, path, run, note)
            yield cls(path, fd, games)
        finally:
            os.close(fd)

    @staticmethod
    def _read(fd: int, path: Path, run: Run, note: Callable[[str], None]) -> dict[int, Played]:
        """The games the open file holds; its first line written if it has none, a torn
        last line cut off (once the file is known to be this run's)."""
        data = _read_all(fd, path)
        whole = data[:data.rfind(b"\n") + 1]
        torn = data[len(whole):]
        lines = whole.splitlines()
        games = _games(lines, path, run) if lines else {}
        begun = b'{"game":' if lines else _encoded(run.to_json())  # how its line begins
        if torn and not (begun.startswith(torn) or torn.startswith(begun)):
            # not a line cut short, and not a file to cut
            if not lines:
                raise UsageError("--out: this file is not this run's results: its first line "
                                 "does not describe a simulation", path=path)
            raise GameFileError(f"line {len(lines) + 1} is not a game of this run's results",
                                path=path)
        if torn:
            note(f"{path}: the last line was cut short (a run stopped while writing it): "
                 "it is dropped, and its game played again")
            os.ftruncate(fd, len(whole))
        if not lines:
            _write_line(fd, path, run.to_json())
        return games

    def add(self, run: Run, played: Played) -> None:
        """Add ``played``'s line, whole, and keep it."""
        _write_line(self.fd, self.path, played.to_json(run))
        self.games.setdefault(played.index, played)


def _games(lines: list[bytes], path: Path, run: Run) -> dict[int, Played]:
    """The games of a results file's whole ``lines``, by number; raises :class:`UsageError`
    if its first line is not ``run``'s, :class:`GameFileError` if another is no game."""
    try:
        first = _json_line(lines[0])
    except ValueError:
        first = None
    differs = run.differs(first)
    if differs is None and lines[0] != _encoded(run.to_json()):
        differs = "its first line is not as frogpbem simulate writes it"
    if differs is not None:
        raise UsageError(f"--out: this file is not this run's results: {differs}", path=path)
    games: dict[int, Played] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            played = Played.from_json(_json_line(line), run)
            if _encoded(played.to_json(run)) != line:
                raise ValueError("not as the program writes it")
        except ValueError:
            raise GameFileError(f"line {number} is not a game of this run's results",
                                path=path) from None
        games.setdefault(played.index, played)  # the first, should a game be there twice
    return games


def _json_line(line: bytes) -> Any:
    """A line's JSON value, read as UTF-8 (as written) and never another encoding; raises
    ``ValueError`` for any other line (nested too deep for Python included)."""
    try:
        return json.loads(line.decode("utf-8"))
    except RecursionError:
        raise ValueError("nested too deep") from None


def _read_all(fd: int, path: Path) -> bytes:
    """The whole open file, read from its start on ``fd`` itself (closing a copy of it
    would drop the run's lock), at most :data:`MAX_RESULTS` bytes."""
    parts, size = [], 0
    while part := os.pread(fd, 1 << 20, size):
        parts.append(part)
        size += len(part)
        if size > MAX_RESULTS:
            raise FileAccessError(f"--out: larger than {MAX_RESULTS >> 30} GiB: not a "
                                  "results file", path=path)
    return b"".join(parts)


def read_results(path: Path) -> tuple[Run, dict[int, Played]]:
    """A results file's run and its whole games, by number, read only (a torn last line,
    of a run stopped while writing it, is not a game); raises :class:`GameFileError` for a
    file that is no results file, :class:`FileAccessError` if it cannot be read."""
    from frogpbem.gamefile.document import read_bytes

    data = read_bytes(path, MAX_RESULTS)
    lines = data[:data.rfind(b"\n") + 1].splitlines()
    try:
        first = _json_line(lines[0]) if lines else None
        match first:
            case {"rules": str(rules), "options": dict(options), "seats": list(seats),
                  "bots": list(bots), "swap": bool(swap), "seed": int(seed)} \
                    if type(seed) is int:
                run = Run(rules, options, tuple(seats), tuple(bots), swap, seed)
            case _:
                raise ValueError
        if run.differs(first) is not None or lines[0] != _encoded(run.to_json()) or not all(
                isinstance(x, str) for x in run.seats + run.bots):
            raise ValueError
        find_game(run.rules)
    except (ValueError, TypeError, KeyError, IndexError, FrogPbemError):
        raise GameFileError("not a results file of frogpbem simulate (its first line does "
                            "not describe a simulation)", path=path) from None
    try:
        return run, _games(lines, path, run)
    except UsageError as exc:  # cannot be: the run is the first line's own
        raise GameFileError(exc.message, path=path) from None


MAX_RESULTS = 1 << 30
"""The largest results file read (1 GiB: some two million games)."""


def _encoded(data: dict[str, Any]) -> bytes:
    """``data`` as a line of a results file (without its newline)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _write_line(fd: int, path: Path, data: dict[str, Any]) -> None:
    """``data`` as one line at the end of the file, in one write."""
    line = _encoded(data) + b"\n"
    try:
        while line:
            line = line[os.write(fd, line):]
    except OSError as exc:
        raise FileAccessError(f"--out: cannot write to this file: {exc.strerror}",
                              path=path) from None


def _lock(fd: int, path: Path) -> None:
    """Hold the file for this run alone (where the system has POSIX locks: held by this
    process only, so a worker it forked that outlives it does not keep the file)."""
    try:
        import fcntl
    except ImportError:  # Windows: no lock
        return
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise FileAccessError("--out: another run is writing this file", path=path) from None


def _write_record(folder: Path, title: str, played: Played) -> None:
    """A game's moves, as ``--records`` keeps them."""
    heading = (f"{title}, seed {played.seed}, "
               + ", ".join(f"{s}: {b}" for s, b in played.bots.items()))
    write_atomic(folder / f"game-{played.index + 1:04d}.txt", (
        "\n".join([heading, "", *played.record, "", f"{played.outcome.termination}; "
                   f"{played.outcome.standing_text()}"]) + "\n").encode(), durable=False)


def _make_folder(folder: Path) -> None:
    """``folder`` and its parents, made if missing; raises :class:`FileAccessError`."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise FileAccessError("--records: is not a folder", path=folder) from None
    except OSError as exc:
        raise FileAccessError(f"--records: cannot make this folder: {exc.strerror}",
                              path=folder) from None


def play_terminal(rules_name: str, human: str | None, bot: str, seed: int | None,
                  ask: Callable[[str], str], say: Callable[[str], None],
                  options: dict[str, str] | None = None, seats: int | None = None,
                  paint: Callable[[GameView, tuple[str, str] | None], Paint | None] | None = None,
                  ) -> Outcome | None:
    """A game on a terminal: the player holds ``human`` (the first seat by default), bots
    of strength ``bot`` the others, and the referee is this function. Nothing is written.

    ``ask`` reads the player's move (``quit`` leaves); ``say`` shows a line; ``paint``
    gives a board's colours, if the terminal takes them. Returns the outcome, or
    ``None`` if the player left.
    """
    rules = find_game(rules_name)
    opts = rules.options(options or {})
    names = rules.seats(opts, seats or len(rules.seat_order))
    human = human or names[0]
    if human not in names:
        raise UsageError(f"--seat {human!r}: this game's seats are {', '.join(names)}")
    if bot not in STRENGTHS:
        raise UsageError(f"--vs {bot!r}: give bot, or one of {', '.join(STRENGTHS)}")
    rng = random.Random(seed)
    public, secrets = rules.deal(opts, names, rng)
    state = rules.start(opts, names, public, secrets)

    def team(seat: str) -> frozenset[str]:
        return team_of(rules, opts, names, seat)

    last: tuple[str, str] | None = None
    say(f"{rules.title}: you are {human}; bots ({bot}) play "
        f"{', '.join(s for s in names if s != human)}. Type a move, or quit.")
    while (seat := rules.to_move(state)) is not None:
        auto = rules.automatic(state)
        if auto is not None:
            state, result = rules.play(state, seat, auto)
            say(f"  {rules.describe(seat, rules.public_move(auto), result)}")
            continue
        if seat != human:
            text = bot_move(rules, rules.view(state, team(seat)), seat, rng, bot)
            move = rules.parse_move(text)
            state, result = rules.play(state, seat, move)
            last = (seat, rules.public_move(move))
            say(f"  {rules.describe(seat, last[1], result)}")
            continue
        board = rules.view(state, team(human))
        points = rules.scores(state)
        say("")
        say(rules.render(board, team(human), paint(board, last) if paint else None))
        if points:
            say("Points: " + ", ".join(f"{s} {p}" for s, p in points.items()))
        text = ask(f"your move ({human})").strip()
        if text.lower() in ("quit", "exit", "q"):
            say("You leave the game.")
            return None
        try:
            move = rules.parse_move(text)
            state, result = rules.play(state, seat, move)
        except FrogPbemError as exc:
            say(f"  {exc.message}")
            continue
        last = (seat, rules.public_move(move))
        say(f"  {rules.describe(seat, last[1], result)}")
    outcome = rules.outcome(state)
    if outcome is None:
        return None
    every = frozenset(names)
    say("")
    say(rules.render(rules.view(state, every), every, None))
    say(f"Game over: {outcome.termination}. {outcome.standing_text()}")
    return outcome
