"""Time, read in one place and checked: the clock, the referee's times against each other
and against this tool's own readings.

Nothing here knows a game's rules: it reads the game file's times only.
"""

from __future__ import annotations

import base64
import binascii
import functools
import os
import time
from collections.abc import Iterator, Mapping, Sequence

from frogpbem.crypto.sshsig import RAW_SIZE, raw_signature
from frogpbem.errors import ChainError, GameFileError, UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.model import GameFile

SKEW = 600
"""How far (seconds) a referee's time may run ahead of the reader's clock, or of what the
reader saw, before the copy is refused: ten minutes, for computers whose clocks are set by
hand or drift. A copy dated further ahead holds a time that has not come yet."""

NOW_VARIABLE = "FROGPBEM_NOW"
"""The environment variable that fixes the clock (``YYYY-MM-DDTHH:MM:SSZ``): the test hook."""


@frozen
class Clock:
    """The time now, read in one place: every time a command signs or checks comes from its
    session's clock (:class:`~frogpbem.protocol.session.Session`).

    ``fixed``: a time to use instead of the system's clock (UTC), a test's; the clock of a
    command reads ``$FROGPBEM_NOW`` (:meth:`from_environment`).
    """

    fixed: str | None = None
    variable: str | None = None
    """An environment variable read at every reading, whose time, when it is set, is used
    instead of the system's clock (:meth:`from_environment`)."""

    @classmethod
    def from_environment(cls) -> Clock:
        """The clock of ``$FROGPBEM_NOW`` (the documented test hook: every command run with
        it believes that is the time), read when the time is, else the system's clock."""
        return cls(variable=NOW_VARIABLE)

    def text(self) -> str:
        """The time now as ``YYYY-MM-DDTHH:MM:SSZ``."""
        given = self.fixed or (os.environ.get(self.variable) if self.variable else None)
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


def seconds_of(text: str) -> int:
    """A ``YYYY-MM-DDTHH:MM:SSZ`` time as seconds since the epoch; raises
    :class:`GameFileError` for any other text (the 31st of February too).

    Read by hand, not with ``time.strptime``: that would import ``_strptime``, ``calendar``,
    ``locale`` and ``datetime`` at the start of every command that loads a game.
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


def check_not_ahead(file: GameFile, clock: Clock) -> None:
    """Refuse a copy with a time more than :data:`SKEW` ahead of ``clock``: a record
    dated in the future (a timeout signed before its deadline came). Names the first."""
    now = clock.now()
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
