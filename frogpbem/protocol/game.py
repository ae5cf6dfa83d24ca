"""A game file loaded and checked: its rules, typed results, roles, hidden data, replay.

This module joins the rules (``games``) to the file model (``gamefile``) and
the crypto package; it holds no game's rules itself.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import os
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from frogpbem import crypto
from frogpbem.crypto.sshsig import RAW_SIZE, raw_signature
from frogpbem.errors import (
    ChainError,
    CommitmentError,
    FrogPbemError,
    GameFileError,
    GameOverError,
    IllegalMoveError,
    InconsistentResultError,
    KeyError_,
    NotationError,
    NotYourTurnError,
    StaleCopyError,
    UsageError,
)
from frogpbem.frozen import frozen
from frogpbem.gamefile import chain, mailsafe
from frogpbem.gamefile.document import (
    parse_copy,
    parse_known,
    read_bytes,
    read_game,
)
from frogpbem.gamefile.model import (
    JSON,
    GameFile,
    Header,
    MoveSecret,
    Opened,
    OpenedMove,
    Record,
    Sealed,
    keep_recent,
)
from frogpbem.games import Ruleset, find_game
from frogpbem.games.clock import ClockResult, Passed, Paused, Resumed, TimedOut, parse_clock
from frogpbem.protocol import replays
from frogpbem.protocol.secrets import SealedSecret
from frogpbem.protocol.verified import VerifiedHistories

if TYPE_CHECKING:
    from frogpbem.protocol.memory import HeadMemory

REFEREE = "referee"
"""The role of the referee's key (seats have their seat names)."""


SKEW = 600
"""How far (seconds) a referee's time may run ahead of the reader's clock, or of what the
reader saw, before the copy is refused: ten minutes, for computers whose clocks are set by
hand or drift. A copy dated further ahead holds a time that has not come yet."""

NOW_VARIABLE = "FROGPBEM_NOW"
"""The environment variable that fixes the clock (``YYYY-MM-DDTHH:MM:SSZ``): the test hook."""


@frozen
class Clock:
    """The time now, read in one place: every time a command signs or checks comes from here.

    ``fixed``: a time to use instead (a test's). Without it the clock reads
    ``$FROGPBEM_NOW`` when it is set (the documented test hook: every
    command run with it believes that is the time), else the system's clock (UTC).
    """

    fixed: str | None = None

    def text(self) -> str:
        """The time now as ``YYYY-MM-DDTHH:MM:SSZ``."""
        given = self.fixed or os.environ.get(NOW_VARIABLE)
        if not given:
            return text_of(int(time.time()))
        try:
            seconds_of(given)
        except GameFileError:
            raise UsageError(f"${NOW_VARIABLE} is {given[:40]!r}: give a UTC time such as "
                             "2026-12-01T09:30:00Z, or unset it") from None
        return given

    def now(self) -> int:
        """The time now in seconds since the epoch."""
        return seconds_of(self.text())


def now_text() -> str:
    """The time now (:class:`Clock`): ``$FROGPBEM_NOW`` when it is set, else the system's."""
    return Clock().text()


def seconds_of(text: str) -> int:
    """A ``YYYY-MM-DDTHH:MM:SSZ`` time as seconds since the epoch; raises
    :class:`GameFileError` for any other text (the 31st of February too).

    Read by hand, not with ``time.strptime``: that would import ``_strptime``, ``calendar``,
    ``locale`` and ``datetime`` (some 5 ms) at the start of every command that loads a game.
    """
    fields = _fields_of(text)
    if fields is None:
        raise GameFileError(f"{text[:40]!r} is not a UTC time YYYY-MM-DDTHH:MM:SSZ")
    year, month, day, hour, minute, second = fields
    # days since 1970-01-01 of a proleptic Gregorian date (the year counted from March)
    shifted = year - (month <= 2)
    era, of_era = divmod(shifted, 400)
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = of_era * 365 + of_era // 4 - of_era // 100 + day_of_year
    days = era * 146097 + day_of_era - 719468
    return days * 86400 + hour * 3600 + minute * 60 + second


_DIGITS = frozenset("0123456789")
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _fields_of(text: str) -> tuple[int, int, int, int, int, int] | None:
    """Year, month, day, hour, minute and second of ``YYYY-MM-DDTHH:MM:SSZ``, if ``text`` is
    one and names a real day and time (seconds up to 61, as ``strptime`` allows)."""
    if len(text) != 20 or text[4] + text[7] + text[10] + text[13] + text[16] + text[19] \
            != "--T::Z" or not _DIGITS.issuperset(text[:4] + text[5:7] + text[8:10] +
                                                    text[11:13] + text[14:16] + text[17:19]):
        return None
    year, month, day = int(text[:4]), int(text[5:7]), int(text[8:10])
    hour, minute, second = int(text[11:13]), int(text[14:16]), int(text[17:19])
    if not 1 <= month <= 12 or year < 1:
        return None
    leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if not 1 <= day <= _MONTH_DAYS[month - 1] + leap or hour > 23 or minute > 59 \
            or second > 61:
        return None
    return year, month, day, hour, minute, second


def seconds_at(text: str, element: str) -> int:
    """:func:`seconds_of` the time of ``element`` of a file, which the error names."""
    try:
        return seconds_of(text)
    except GameFileError as exc:
        raise exc.within(element=element) from None


def text_of(seconds: int) -> str:
    """Seconds since the epoch as ``YYYY-MM-DDTHH:MM:SSZ``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def timeline(file: GameFile) -> Iterator[tuple[str, str]]:
    """Each time the referee signed, in the order of the history, with what it dates:
    the header's ``created``, the deal, every record, the reveal."""
    yield "the header", file.header.created
    if file.deal is not None:
        yield "the deal", file.deal.at
    for record in file.log:
        yield f"record {record.n}", record.at
    if file.reveal is not None:
        yield "the reveal", file.reveal.at


def check_times(file: GameFile) -> None:
    """The referee's times never go back: the deal, each record and the reveal are dated no
    earlier than the element before them, the first no earlier than ``created``.

    Raises :class:`ChainError` naming the first element that breaks it. (A deadline is
    counted from these times: a record dated back would start a seat's clock early.)
    """
    before_name, before = "", ""
    days: set[str] = set()
    for name, at in timeline(file):
        if at[:10] not in days or not (at[11:13] < "24" and at[14:16] < "60" and
                                        at[17:19] < "60"):
            seconds_at(at, name)  # the schema's pattern lets 2026-13-45 through
            days.add(at[:10])  # a day checked once: a long game has many times on one
        if at < before:  # one format, fixed width: its order is the order of time
            raise ChainError(f"is dated {at}, before {before_name} ({before}): the referee's "
                             "times never go back", element=name)
        before_name, before = name, at


def latest_time(file: GameFile) -> tuple[str, str]:
    """The last time the referee signed into ``file``, and what it dates."""
    return list(timeline(file))[-1]


def check_not_ahead(file: GameFile, clock: Clock | None = None) -> None:
    """Refuse a copy with a time more than :data:`SKEW` ahead of ``clock``: a record
    dated in the future (a timeout signed before its deadline came). Names the first."""
    now = (clock or Clock()).now()
    _, latest = latest_time(file)
    if seconds_of(latest) - now <= SKEW:  # times never go back: the last is the latest
        return
    for name, at in timeline(file):
        ahead = seconds_of(at) - now
        if ahead > SKEW:
            raise ChainError(f"is dated {at}, {duration_words(ahead)} ahead of this "
                             f"computer's clock ({text_of(now)}): a time that has not come "
                             "yet (or this computer's clock is behind)", element=name)


@functools.lru_cache(maxsize=4096)
def signature_mark(signature: str) -> str:
    """What recognises a signature this tool made, whatever text a copy writes it in: the
    Ed25519 signature inside (base64). Ed25519 is deterministic: the same request signed
    twice has one mark. (Only one text of a signature verifies: this is belt and braces.)

    Kept for the signatures met last: a command marks every request of a long game more
    than once (its memory's, the file's)."""
    text = "".join(signature.split())
    try:  # strict base64 decodes as the lenient check below would, without its regex
        blob = binascii.a2b_base64(text, strict_mode=True)
    except (binascii.Error, ValueError):
        try:
            blob = base64.b64decode(text, validate=True)
        except ValueError:
            return signature
    return base64.b64encode(raw_signature(blob)).decode() \
        if len(blob) > RAW_SIZE else signature


def check_observed(file: GameFile, first_seen: Sequence[str], signed: Mapping[str, str],
                   ) -> None:
    """The referee's times against this user's own clock readings (its memory of the game,
    :mod:`frogpbem.protocol.seen`); raises :class:`ChainError` naming the element.

    - No element is dated more than :data:`SKEW` after this tool first saw it
      (``first_seen``, one per element of the history; ``""``: not known). An element
      seen for the first time now is so checked against the clock: a timeout signed
      ahead of its deadline is refused, and stays refused once that time has come.
    - No deal holding a join this tool signed, and no record applying a request it signed
      (``signed``: :func:`signature_mark` to the time it signed), is dated more than
      :data:`SKEW` before it was signed. Times never go back (:func:`check_times`), so no
      later element is either: the clock of a seat's turn cannot start before that seat's
      own join or last move.
    - No timeout (or timed pass) of a seat was first seen here less than the deadline after
      this tool signed what the history last applied for that seat (its request, or its
      join in the deal): both times are this computer's, so no skew is allowed. A seat's
      deadline starts after its own move was recorded, and that after it was signed.
    """
    elements = list(timeline(file))[1:]  # the history's: what ``first_seen`` dates
    for (name, at), seen in zip(elements, first_seen, strict=False):
        # one format, fixed width: compared as text first, and as times only when later
        late = seconds_at(at, name) - seconds_of(seen) if seen and at > seen else 0
        if late > SKEW:
            raise ChainError(f"is dated {at}, {duration_words(late)} after this tool first "
                             f"saw it ({seen}): the referee dated it ahead (or this "
                             "computer's clock was behind)", element=name)
    if not signed:
        return
    last_mine: dict[str, tuple[str, str]] = {}  # per seat: when this tool signed what the
    # history last applied for it ("": not this tool's), and what that was
    deal = file.deal
    if deal is not None:
        for join in deal.joins:
            when = signed.get(signature_mark(join.signature), "")
            last_mine[join.seat] = when, "join"
            _check_not_before(deal.at, when, "the deal", "your join")
    deadline = file.header.deadline
    seen_at = {name: seen for (name, _), seen in zip(elements, first_seen, strict=False)}
    for record in file.log:
        name = f"record {record.n}"
        if record.request:
            when = signed.get(signature_mark(record.request), "")
            last_mine[record.seat] = when, "last move"
            _check_not_before(record.at, when, name, "the request you signed")
            continue
        (mine, what), saw = last_mine.get(record.seat, ("", "")), seen_at.get(name)
        if record.timeout and deadline is not None and mine and saw and \
                seconds_of(saw) - seconds_of(mine) < deadline.seconds:
            raise ChainError(
                f"says {record.seat}'s time ran out, yet this tool first saw it at {saw}, "
                f"{duration_words(seconds_of(saw) - seconds_of(mine))} after it signed "
                f"{record.seat}'s {what} ({mine}), less than the {deadline.per_move} a move: "
                "the referee cut the time short", element=name)


def late_timeouts(file: GameFile, requests: Sequence[tuple[int, str, str]]) -> list[str]:
    """Warnings for each timeout (or timed pass) recorded where this tool signed the seat's
    move for that very record (``requests``: record, seat, when) before the deadline ran
    out. The referee may not have had it in time (mail is slow); if it had, it recorded a
    timeout instead. Only this tool's clock says when it signed: it proves nothing to
    anyone else, so this is a warning, not a refusal."""
    deadline = file.header.deadline
    if deadline is None or not requests:
        return []
    signed = {(n, seat): at for n, seat, at in requests}
    warnings = []
    for record in file.log:
        when = signed.get((record.n, record.seat))
        if not record.timeout or when is None:
            continue
        due = seconds_of(last_at(file, record.n - 1)) + deadline.seconds
        if seconds_of(when) < due:
            warnings.append(
                f"WARNING: record {record.n} says {record.seat}'s time ran out (dated "
                f"{record.at}), yet this tool signed {record.seat}'s move for that record at "
                f"{when}, before the deadline ({text_of(due)}). If the referee had it in "
                "time, it recorded a timeout instead. This rests on this computer's clock "
                "alone: no one else can check it; keep the mail you sent as evidence.")
    return warnings


def _check_not_before(at: str, when: str, name: str, what: str) -> None:
    """Refuse an element dated more than :data:`SKEW` before ``when`` (this tool signed
    ``what``, which it applies, then; ``""``: not this tool's)."""
    early = seconds_of(when) - seconds_at(at, name) if when and at < when else 0
    if early > SKEW:
        raise ChainError(f"applies {what} at {when}, yet is dated {at}, "
                         f"{duration_words(early)} before it: the referee dated it back",
                         element=name)


def duration_words(seconds: int) -> str:
    """A length of time in words a player reads at a glance (``3 days 2 hours``)."""
    seconds = abs(seconds)
    parts = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {unit}{'s' if count > 1 else ''}")
    return " ".join(parts[:2]) or f"{seconds} seconds"


def last_at(file: GameFile, n: int) -> str:
    """When the element before record ``n + 1`` was signed: the clock of a deadline."""
    if n:
        return file.log[n - 1].at
    return file.deal.at if file.deal is not None else file.header.created


def timeout_move(game: Game, state: Any, seat: str) -> str:
    """What a passed deadline records for ``seat``: ``pass`` where the header says so and
    the rules leave a turn to pass (:meth:`Ruleset.pass_turn`), else ``resign``."""
    deadline = game.header.deadline
    if deadline is not None and deadline.on_timeout == "pass":
        try:
            game.ruleset.pass_turn(state, seat)
        except IllegalMoveError:
            return "resign"
        return "pass"
    return "resign"


def timeout_holds(game: Game, record: Record, state_before: Any) -> bool:
    """Whether a ``timeout`` record is one the deadline allowed: the seat to move resigns
    (or passes, see :func:`timeout_move`), at least the deadline after the element before it."""
    deadline = game.header.deadline
    if deadline is None or not record.timeout:
        return False
    if game.ruleset.to_move(state_before) != record.seat:
        return False
    if record.move != timeout_move(game, state_before, record.seat):
        return False
    if record.move == "pass" and not isinstance(game.results[record.n - 1], Passed):
        return False  # a ruleset's own pass (Secret Move's ends the seat's moves) is no timeout
    return seconds_of(record.at) - seconds_of(last_at(game.file, record.n - 1)) >= deadline.seconds


def deadline_of(game: Game, state: Any) -> tuple[str, int] | None:
    """The seat to move and when its time runs out (seconds), if the game has a deadline."""
    deadline = game.header.deadline
    seat = game.ruleset.to_move(state)
    if deadline is None or seat is None or game.paused is not None:
        return None
    return seat, seconds_of(last_at(game.file, len(game.file.log))) + deadline.seconds


def clock_words(game: Game, state: Any) -> str:
    """The clock in a sentence, for the seats' mail and views: a deadline and what it does,
    or a pause; nothing once the game is over."""
    clock = clock_of(game, state)
    if clock is None:
        return ""
    if clock.paused is not None:
        return f"The referee paused the game at {clock.paused}: no move and no deadline " \
               "until it resumes."
    if clock.per_move is None or clock.due is None:
        return "No deadline is set for this game."
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds_of(clock.due)))
    then = "its turn passes" if clock.then == "pass" else "it forfeits"
    return f"{clock.to_move} must move by {when} ({clock.per_move} a move); after that {then}."


def deadline_words(header: Header) -> str:
    """The header's deadline in a sentence, for a game not dealt yet (``join``, ``setup``
    and the view say what a seat agrees to by joining)."""
    deadline = header.deadline
    if deadline is None:
        return "No deadline is set for this game."
    then = "its turn passes (where the rules allow)" if deadline.on_timeout == "pass" \
        else "it forfeits"
    return f"Once dealt, each seat has {deadline.per_move} a move; after that {then}."


@frozen
class ClockState:
    """Who must move by when, and what then (``view --json``'s ``clock``)."""

    to_move: str
    """The seat to move."""
    per_move: str | None
    """The header's deadline (``72h``), ``None`` without one."""
    due: str | None
    """When the seat's time runs out (``None``: no deadline, or paused)."""
    then: str | None
    """``forfeit`` or ``pass``: what the referee records then."""
    paused: str | None
    """When the referee paused the game, while it is paused."""

    def to_json(self) -> dict[str, str | None]:
        return {"to_move": self.to_move, "per_move": self.per_move, "due": self.due,
                "then": self.then, "paused": self.paused}


def clock_of(game: Game, state: Any) -> ClockState | None:
    """The game's clock in ``state``; ``None`` once the game is over."""
    seat = game.ruleset.to_move(state)
    if seat is None:
        return None
    deadline = game.header.deadline
    pause = game.paused
    due = deadline_of(game, state)
    then = None
    if deadline is not None:
        then = "pass" if timeout_move(game, state, seat) == "pass" else "forfeit"
    return ClockState(seat, deadline.per_move if deadline else None,
                      text_of(due[1]) if due is not None else None, then,
                      pause.at if pause is not None else None)


def termination_words(game: Game, termination: str) -> str:
    """An outcome's termination as players should read it: a resignation the referee
    recorded when the seat's deadline passed is a loss on time (the signed outcome, made by
    the rules, says ``red resigned``)."""
    for record, result in zip(game.file.log, game.results, strict=True):
        if isinstance(result, TimedOut) and termination == f"{record.seat} resigned":
            return f"{record.seat} lost on time"
    return termination


def play_clock(rules: Ruleset[Any, Any, Any], state: Any, seat: str, result: ClockResult,
               paused: bool) -> Any:
    """The state after a clock record (:mod:`frogpbem.games.clock`) of ``seat``.

    Each is made for the seat to move: a pause while the game runs, a resume
    right after a pause, a pass where the rules leave a turn to pass.
    """
    to_move = rules.to_move(state)
    if to_move is None:
        raise GameOverError("the game is over")
    if seat != to_move:
        raise NotYourTurnError(f"it is {to_move}'s turn, not {seat}'s")
    if isinstance(result, Resumed):
        if not paused:
            raise IllegalMoveError("the game is not paused")
        return state
    if paused:
        raise IllegalMoveError("the game is paused: only a resume may follow")
    return state if isinstance(result, Paused) else rules.pass_turn(state, seat)


@dataclass
class Game:
    """A game file read, its results typed and its chain checked.

    ``file`` is replaced (never changed) as the referee or a seat adds to it.
    """

    path: Path
    file: GameFile
    ruleset: Ruleset[Any, Any, Any]
    results: list[Any] = field(default_factory=list)
    """Each record's result, typed by the ruleset."""
    unrequested: list[int] = field(default_factory=list)
    """Numbers of the records the referee entered without a seat's request."""

    @property
    def header(self) -> Header:
        return self.file.header

    @property
    def game_id(self) -> str:
        return self.header.game

    @property
    def options(self) -> Mapping[str, Any]:
        return self.header.options

    @property
    def seats(self) -> tuple[str, ...]:
        return self.header.seat_names

    @property
    def names(self) -> dict[str, str]:
        return self.header.names

    @property
    def head(self) -> str:
        return self.file.head

    @property
    def undealt(self) -> bool:
        return self.file.undealt

    @property
    def waiting_for(self) -> list[str]:
        return self.file.waiting_for

    def role(self, key: crypto.PrivateKey) -> str:
        """``referee`` or the seat that ``key`` holds; raises :class:`KeyError_`."""
        if self.header.referee.public_key.same_key(key.public):
            return REFEREE
        for seat, public in self.header.seat_keys.items():
            if public.same_key(key.public):
                return seat
        raise KeyError_(
            f"key {key.public.fingerprint} is neither the referee nor a seat of game "
            f"{self.game_id}", path=self.path,
        )

    # --- who may read what --------------------------------------------------------

    def readers_of(self, seat: str) -> tuple[str, ...]:
        """The seats that may read ``seat``'s secrets: itself and its teammates."""
        return self.ruleset.secret_readers(self.options, seat)

    def may_read(self, role: str | None, seat: str) -> bool:
        """Whether ``role`` (a seat, the referee, ``None``: the public) reads ``seat``'s secret."""
        if self.file.reveal is not None or role == REFEREE:
            return True
        return role is not None and role in self.readers_of(seat)

    def recipients(self, seat: str, referee: bool = True) -> list[crypto.PublicKey]:
        """The keys a secret of ``seat`` is sealed to (and the referee's)."""
        keys = [self.header.seat_keys[s] for s in self.readers_of(seat)]
        return [*keys, self.header.referee.public_key] if referee else keys

    def sealed_setup(self, seat: str) -> SealedSecret:
        """``seat``'s sealed setup, as dealt."""
        dealing = self.file.dealing
        if seat not in dealing.sealed or seat not in dealing.commitments:
            raise CommitmentError(f"no sealed setup for {seat}", path=self.path, element="setup")
        return SealedSecret(self.game_id, seat, dealing.sealed[seat], dealing.commitments[seat],
                            f"sealed setup of {seat}")

    def sealed_move(self, n: int, seat: str, sealed: Sealed) -> SealedSecret:
        """The sealed move of ``seat`` for record ``n`` (in a record, or a request for it)."""
        return SealedSecret.of(self.game_id, seat, sealed, f"sealed move of record {n}")

    def check_secret(self, seat: str, secret: JSON) -> None:
        """A secret opened or revealed must be one the rules can have dealt."""
        try:
            self.ruleset.check_setup(self.options, [seat], self.file.dealing.public,
                                     {seat: secret})
        except NotationError as exc:
            raise CommitmentError(f"{seat}'s setup is not a valid setup: {exc.message}",
                                  path=self.path) from None

    @property
    def paused(self) -> Record | None:
        """The referee's pause record, while the game is paused (its last record)."""
        if self.results and isinstance(self.results[-1], Paused):
            return self.file.log[-1]
        return None

    def check_running(self) -> None:
        """Refuse a move while the game is paused."""
        pause = self.paused
        if pause is not None:
            why = cast(Paused, self.results[-1]).reason
            raise IllegalMoveError(
                f"the game is paused since {pause.at}" + (f" ({why})" if why else "")
                + ": no move until the referee resumes it (frogpbem resume)", path=self.path)

    def append(self, record: Record, result: Any) -> None:
        self.file = self.file.with_record(record)
        self.results.append(result)
        if record.request is None:
            self.unrequested.append(record.n)


def ruleset_of(header: Header) -> Ruleset[Any, Any, Any]:
    """The header's ruleset, with its options and seats checked against it."""
    try:
        ruleset = find_game(header.rules)
        options = ruleset.options(header.options)
        seats = ruleset.seats(options, len(header.seats))
    except UsageError as exc:
        raise GameFileError(exc.message, element="header") from None
    if options != header.options or seats != header.seat_names:
        raise GameFileError(f"options or seats are not those of {ruleset.name} ({options}, "
                            f"seats {', '.join(seats)})", element="header")
    return ruleset


def typed_results(file: GameFile, ruleset: Ruleset[Any, Any, Any],
                  known: Game | None = None) -> list[Any]:
    """Every record's result as the ruleset's type; a malformed one is refused here.

    ``known``: a game under the same header. The records this file shares with it as the
    very same values (a copy read against the game it copies) take their results from
    it: they were typed, and checked, when it was read.
    """
    results = []
    if known is not None:
        for record, own, result in zip(file.log, known.file.log, known.results, strict=False):
            if record is not own:
                break
            results.append(result)
    for record in file.log[len(results):]:
        clock = parse_clock(record.result)
        if clock is not None:
            if (clock.move, isinstance(clock, Passed)) != (record.move, record.timeout):
                raise GameFileError(f"a {record.move!r} record with the result of a "
                                    f"{clock.move!r}", element=f"record {record.n}")
            results.append(clock)
            continue
        try:
            result = ruleset.parse_result(record.result)
        except NotationError as exc:
            raise GameFileError(exc.message, element=f"record {record.n}") from None
        results.append(TimedOut(result) if record.timeout and record.move == "resign"
                       else result)
    if not file.undealt:
        try:
            ruleset.check_setup(file.header.options, (), file.dealing.public, {})
        except NotationError as exc:
            raise GameFileError(f"the public setup is malformed: {exc.message}",
                                element="setup") from None
    return results


def load(path: Path, memory: HeadMemory | None = None,
         verified: Game | None = None, parsed: GameFile | None = None,
         histories: VerifiedHistories | None = None) -> Game:
    """Read a game file and check its format, schema, model, signatures, chain and times
    (:func:`check_times`).

    Signatures already checked are not checked again: those of the history
    this user's tool verified before (``histories``, by default the store in
    ``$FROGPBEM_HOME``), those the referee's ``memory`` remembers signing, and
    those of a prefix this file shares exactly with a ``verified`` game. Each
    counts only for a prefix identical byte for byte, signatures included.
    ``parsed`` is the file as just read by the caller.
    """
    histories = histories if histories is not None else VerifiedHistories()
    file = parsed if parsed is not None else read_game(path, histories)
    if verified is not None and verified.header.hash != file.header.hash:
        verified = None
    try:
        ruleset = ruleset_of(file.header)
        results = typed_results(file, ruleset, verified)
        candidates = [memory.remembered(file.game) if memory else None,
                      histories.trusted(file)]
        if verified is not None:
            shared = min(len(file.log), len(verified.file.log))
            candidates.append((shared, chain.prefix_digest(verified.file, shared)))
        report = chain.check_chain(file, _longest_trusted(file, candidates))
        report.raise_first()
        check_times(file)
        game = Game(path, file, ruleset, results, report.unrequested)
        check_notes(game)
    except FrogPbemError as exc:
        raise exc.within(path=path) from None
    histories.remember(file)
    return game


def _longest_trusted(file: GameFile, candidates: list[tuple[int, str] | None]
                     ) -> tuple[int, str] | None:
    """The longest of the verified prefixes that this file has exactly."""
    fitting = [c for c in candidates if c is not None and c[0] <= len(file.log)
               and chain.prefix_digest(file, c[0]) == c[1]]
    return max(fitting, default=None)


def check_notes(game: Game) -> None:
    """Every note is addressed, and sealed, to exactly its author's team."""
    for index, note in enumerate(game.file.notes):
        team = game.readers_of(note.seat)
        sealed = SealedSecret(game.game_id, note.seat, note.sealed)
        if note.to != team or not sealed.addressed_to_exactly(
                game.recipients(note.seat, referee=False)):
            raise ChainError(f"not sealed to exactly its author's team ({', '.join(team)})",
                             element=f"note {index + 1} (by {note.seat})")


def load_copy(game: Game, other_path: Path, data: bytes | None = None) -> Game:
    """A seat's returned copy of ``game``, checked to be a copy of the same game; ``data``:
    the copy's bytes, read and unmailed already."""
    # what the copy shares with the game was read and checked already: only the rest is
    if data is None:
        data = mailsafe.unmail(read_bytes(other_path))
    histories = VerifiedHistories()
    parsed = parse_known(data, str(other_path), histories) or \
        parse_copy(data, str(other_path), game.file)
    other = load(other_path, verified=game, parsed=parsed, histories=histories)
    if other.header.hash != game.header.hash:
        raise StaleCopyError(f"is not a copy of game {game.game_id}", path=other_path)
    try:
        check_not_ahead(other.file)
    except FrogPbemError as exc:
        raise exc.within(path=other_path) from None
    return other


def revealed_secrets(game: Game) -> dict[str, JSON | None]:
    """After the end: every secret from the reveal, each checked against its commitment."""
    reveal = game.file.reveal
    if reveal is None:
        raise UsageError("the game has no reveal yet", path=game.path)
    secrets: dict[str, JSON | None] = dict.fromkeys(game.seats)
    for seat in game.file.dealing.commitments:
        opened = reveal.secrets.get(seat)
        if opened is None or not game.sealed_setup(seat).matches(opened):
            raise CommitmentError(f"{seat}'s setup does not match its commitment",
                                  path=game.path, element="reveal")
        game.check_secret(seat, opened.secret)
        secrets[seat] = opened.secret
    return secrets


def open_setup(game: Game, seat: str, key: crypto.PrivateKey) -> Opened:
    """Decrypt ``seat``'s sealed setup, check it against its commitment and the rules."""
    try:
        opened = game.sealed_setup(seat).open(key)
    except FrogPbemError as exc:
        raise exc.within(path=game.path) from None
    game.check_secret(seat, opened.secret)
    return opened


def known_secrets(game: Game, role: str | None, key: crypto.PrivateKey | None
                  ) -> dict[str, JSON | None]:
    """Every secret ``role`` may read (all for the referee), ``None`` for the others."""
    if game.file.reveal is not None:
        return revealed_secrets(game)
    if key is None or role is None or game.undealt or not game.file.dealing.sealed:
        return dict.fromkeys(game.seats)
    return {seat: open_setup(game, seat, key).secret if game.may_read(role, seat) else None
            for seat in game.seats}


def open_move(game: Game, n: int, seat: str, sealed: Sealed,
              key: crypto.PrivateKey) -> OpenedMove:
    """The text and salt of ``seat``'s sealed move for record ``n``, checked."""
    opened = game.sealed_move(n, seat, sealed).open(key)
    try:
        secret = MoveSecret.from_json(opened.secret)
    except GameFileError:
        secret = None
    if secret is None or secret.n != n:
        raise CommitmentError("the sealed move is not readable", path=game.path,
                              element=f"record {n}")
    return OpenedMove(secret.move, opened.salt)


def check_opened_move(game: Game, record: Record, sealed: Sealed, opened: OpenedMove) -> None:
    """A revealed sealed move against its commitment."""
    secret = Opened(opened.salt, sealed_move_secret(record.n, opened.move))
    if not game.sealed_move(record.n, record.seat, sealed).matches(secret):
        raise CommitmentError("the sealed move does not match its commitment",
                              path=game.path, element=f"record {record.n}")


def sealed_move_secret(n: int, text: str) -> JSON:
    """What a sealed move's commitment covers."""
    return MoveSecret(n, text).to_json()


def referee_seed(game: Game, key: crypto.PrivateKey) -> str | None:
    """The referee's dealing seed, opened with its key and checked against the commitment."""
    fairness = game.header.setup.fairness
    if fairness is None:
        return None
    opened = SealedSecret(game.game_id, REFEREE, fairness.sealed_seed,
                          what="referee's sealed seed").open(key)
    seed = opened.secret
    if not isinstance(seed, str) or crypto.seed_commitment(game.game_id, seed) != \
            fairness.seed_commitment:
        raise CommitmentError("the referee's seed does not match its commitment",
                              path=game.path)
    return seed


def unasked(game: Game, replayed: Replay) -> list[Record]:
    """Records without their seat's signed request that the rules did not make by themselves."""
    if replayed.since:
        raise ValueError("unasked() needs a game replayed from its first record")
    rules = game.ruleset
    found = []
    for n in game.unrequested:
        record = game.file.log[n - 1]
        before = replayed.before[n]
        if timeout_holds(game, record, before):
            continue  # the seat let its deadline pass
        if isinstance(game.results[n - 1], Paused | Resumed):
            continue  # the referee's pause: it moves nothing, and every copy shows it
        auto = rules.automatic(before)
        if auto is None or rules.public_move(auto) != record.move:
            found.append(record)
    return found


@dataclass
class Replay:
    """A game replayed from its log: the state it ends in, and what :func:`unasked` needs.

    Only these states are kept: a state holds the board, so keeping one per
    record would cost memory in the square of the game's length.
    """

    final: Any
    """The state after the last record."""
    before: dict[int, Any] = field(default_factory=dict)
    """The state before each record that carries no seat's request (after ``since``)."""
    since: int = 0
    """How many records were replayed by an earlier command (the kept replays of
    :mod:`frogpbem.protocol.replays`): ``before`` knows nothing of them."""


def _play_record(game: Game, record: Record, claimed: Any, state: Any,
                 key: crypto.PrivateKey | None, role: str | None) -> Any:
    """The state after a seat's record, its sealed move opened where it can be."""
    text = record.move
    reveal = game.file.reveal
    if record.sealed is not None:
        opened = reveal.sealed_moves.get(record.n) if reveal else None
        if opened is not None:
            check_opened_move(game, record, record.sealed, opened)
            text = opened.move
        elif key is not None and role in (REFEREE, record.seat):
            text = open_move(game, record.n, record.seat, record.sealed, key).move
    rules = game.ruleset
    move = rules.parse_move(text)
    if rules.public_move(move) != record.move:
        raise NotationError(f"move {record.move!r} is not in canonical notation")
    return rules.play(state, record.seat, move, claimed)[0]


def start_state(game: Game, secrets: Mapping[str, JSON | None]) -> Any:
    """The state before the first record."""
    if game.undealt:
        raise IllegalMoveError(
            f"game {game.game_id} is not dealt yet: waiting for "
            f"{', '.join(game.waiting_for) or 'the referee'} "
            "(seats: frogpbem join; then the referee: frogpbem deal)", path=game.path,
        )
    return game.ruleset.start(game.options, game.seats, game.file.dealing.public, secrets)


_REPLAYS: OrderedDict[tuple[str, ...], tuple[tuple[str, ...], Replay]] = OrderedDict()
"""The last replays made in this process: the hashes of the records replayed, and the replay."""
RECENT_REPLAYS = 8
"""Enough for every role of a six-seat game, the referee and the public."""


def replay(game: Game, secrets: Mapping[str, JSON | None],
           key: crypto.PrivateKey | None = None, *,
           keeper: crypto.PrivateKey | None = None) -> Replay:
    """Replay every record through the rules, checking each result, score and turn.

    Raises :class:`InconsistentResultError` (or another
    :class:`FrogPbemError`) naming the record that does not hold.

    A history replayed before in this process, with the same secrets and
    role, is continued from where it stopped: only the records after it are
    played (the referee applying a move, then mailing it; the demo's every
    record). It counts only if every record of it is the same, byte for byte.

    With ``keeper`` (the user's key), a replay kept by an earlier command is
    continued the same way, and this one is kept for the next
    (:mod:`frogpbem.protocol.replays`, written when the command is done) unless
    fewer than :data:`~frogpbem.protocol.replays.KEEP_EVERY` records followed the
    one read. Its ``before`` then holds only the records replayed here.
    """
    role = game.role(key) if key is not None else None
    reveal = game.file.reveal
    memo = (game.header.hash, game.file.base_hash, json.dumps(secrets, sort_keys=True),
            str(role), reveal.hash if reveal is not None else "")
    hashes = game.file.log_hashes()
    done, kept = _replayed(memo, hashes)
    stored = None
    from_store = None  # how many records the replay read from the store had, if one was
    if keeper is not None:
        stored = replays.memo_digest(memo)
        if kept is None:
            found = replays.read(game.game_id, keeper, str(role), stored, hashes)
            if found is not None:
                done, kept = found[0], Replay(found[1], since=found[0])
                from_store = done
    state = kept.final if kept is not None else start_state(game, secrets)
    before = dict(kept.before) if kept is not None else {}
    for record, after in _played(game, state, done, key, role):
        if record.request is None:  # what unasked() looks at, whoever replays
            before[record.n] = state
        state = after
    replayed = Replay(state, before, kept.since if kept is not None else 0)
    keep_recent(_REPLAYS, memo, (hashes, replayed), RECENT_REPLAYS)
    if keeper is not None and stored is not None and \
            (from_store is None or len(hashes) - from_store >= replays.KEEP_EVERY):
        replays.keep(game.game_id, keeper, str(role), stored, hashes, state)
    return replayed


def states(game: Game, secrets: Mapping[str, JSON | None]) -> Iterator[tuple[Record, Any]]:
    """Each record with the state after it, replayed (and checked) from the start."""
    return _played(game, start_state(game, secrets), 0, None, None)


def _played(game: Game, state: Any, done: int, key: crypto.PrivateKey | None,
            role: str | None) -> Iterator[tuple[Record, Any]]:
    """The records after the first ``done`` (``state``: the state then), each with the
    state after it, every result and score checked."""
    rules = game.ruleset
    paused = done > 0 and isinstance(game.results[done - 1], Paused)
    for record, claimed in zip(game.file.log[done:], game.results[done:], strict=True):
        where = f"record {record.n} ({record.seat} {record.move})"
        try:
            if isinstance(claimed, ClockResult):
                state = play_clock(rules, state, record.seat, claimed, paused)
            elif paused:
                raise IllegalMoveError("a move while the game is paused")
            else:
                state = _play_record(game, record, claimed.resigned if isinstance(
                    claimed, TimedOut) else claimed, state, key, role)
        except FrogPbemError as exc:
            raise InconsistentResultError(exc.message, path=game.path, element=where) from None
        paused = isinstance(claimed, Paused)
        if rules.scores(state) != record.scores:
            raise InconsistentResultError(
                f"scores {dict(record.scores)} should be {rules.scores(state)}",
                path=game.path, element=f"record {record.n}",
            )
        yield record, state


def _replayed(memo: tuple[str, ...], hashes: tuple[str, ...]) -> tuple[int, Replay | None]:
    """The replay kept whose records begin this history, and how many they are."""
    kept = _REPLAYS.get(memo)
    if kept is None or len(kept[0]) > len(hashes) or hashes[:len(kept[0])] != kept[0]:
        return 0, None
    return len(kept[0]), kept[1]
