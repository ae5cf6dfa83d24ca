"""A notary's stamps and timeout in a game without a referee, checked by anyone.

The notary (docs/format.md, "A notary") relays the seats' mail, signs a stamp for each
message when it first receives it, and records a timeout when the seat whose message
is due sent none within the header's deadline. It holds no key that opens anything:
what it signs is times. This module checks them against the header's notary key, the
messages and the deadline; the engine (:mod:`frogpbem.duel.engine`) calls it after its
replay, with the seat that was due before each message.
"""

from __future__ import annotations

from collections.abc import Sequence

from frogpbem.errors import ChainError, GameFileError, SignatureError
from frogpbem.frozen import frozen
from frogpbem.gamefile.duelfile import DuelFile, DuelHeader, Stamp
from frogpbem.protocol.times import SKEW, seconds_of, text_of


def check_header(header: DuelHeader) -> None:
    """A notary's key of its own; a deadline only with a notary, and only ``forfeit``."""
    if header.deadline is not None and header.notary is None:
        raise GameFileError("a deadline needs a notary: without one no clock is trusted, and "
                            "a game without a referee has no deadlines", element="header")
    if header.deadline is not None and header.deadline.on_timeout != "forfeit":
        raise GameFileError("a game without a referee forfeits on time (on_timeout: "
                            "forfeit): there is nobody to pass a turn", element="header")
    if header.notary is not None and any(
            party.public_key.blob == header.notary.public_key.blob for party in header.seats):
        raise GameFileError("the notary needs a key of its own, not a seat's",
                            element="header")


@frozen
class Due:
    """A seat's running deadline, by the notary's stamps."""

    seat: str
    since: str
    """The stamp it runs from: that of the last message by the other seat."""
    until: int
    """When it passes (seconds since the epoch): a message stamped then or later is late."""

    @property
    def until_text(self) -> str:
        return text_of(self.until)


def clock(file: DuelFile, stamped: int, due: str | None) -> Due | None:
    """The deadline of ``due`` after the first ``stamped`` messages (all stamped): it runs
    from the stamp of the last of them by the other seat; ``None`` when no clock runs (no
    deadline, the game over, or no message of the other seat stamped yet)."""
    deadline = file.header.deadline
    if deadline is None or due is None:
        return None
    for index in range(stamped - 1, -1, -1):
        if file.messages[index].seat != due:
            since = file.stamps[index].at
            return Due(due, since, seconds_of(since) + deadline.seconds)
    return None


def first_due(file: DuelFile, stamped: int, waiting: Sequence[str]) -> Due | None:
    """The deadline that passes first among the seats ``waiting`` after the first
    ``stamped`` messages (the due seat, or each seat whose reveal is due): each runs
    its own clock (:func:`clock`)."""
    running = [due for seat in waiting if (due := clock(file, stamped, seat)) is not None]
    return min(running, key=lambda due: due.until, default=None)


def check(file: DuelFile, dues: Sequence[Sequence[str]], waiting: Sequence[str]) -> None:
    """The stamps and the timeout of ``file``, replayed already: ``dues[i]`` are the seats
    awaited before message ``i + 1`` (its due seat, or the seats whose reveal is due),
    ``waiting`` those awaited after the last message."""
    header, messages, stamps = file.header, file.messages, file.stamps
    if header.notary is None:
        return
    key = header.notary.public_key
    if len(stamps) > len(messages):
        raise ChainError(f"stamps {len(messages) + 1} to {len(stamps)} name no message",
                         element=f"stamp {len(messages) + 1}")
    before: Stamp | None = None
    for index, stamp in enumerate(stamps):
        message = messages[index]
        where = f"stamp {index + 1}"
        if stamp.n != index + 1:
            raise ChainError(f"numbered {stamp.n}, where the stamp of message {index + 1} "
                             "comes (a stamp is missing or out of order)", element=where)
        if stamp.message != message.hash:
            raise ChainError(f"does not name message {index + 1} (its hash differs)",
                             element=where)
        try:
            stamp.verify(key)
        except SignatureError:
            raise SignatureError("not signed by the notary's key", element=where) from None
        if before is not None and stamp.at < before.at:
            raise ChainError(f"dated {stamp.at}, before stamp {before.n} ({before.at}): the "
                             "notary's times never go back", element=where)
        if seconds_of(stamp.at) < seconds_of(message.at) - SKEW:
            raise ChainError(f"dated {stamp.at}, more than 10 minutes before message "
                             f"{index + 1} says it was written ({message.at})", element=where)
        running = clock(file, index, message.seat) if message.seat in dues[index] else None
        if running is not None and \
                seconds_of(stamp.at) >= running.until:
            raise ChainError(f"message {index + 1} ({message.seat}) was stamped at "
                             f"{stamp.at}, when its deadline had passed "
                             f"({running.until_text}): the notary records a timeout then",
                             element=where)
        before = stamp
    unstamped = {message.seat for message in messages[len(stamps):]}
    if len(unstamped) > 1:
        raise ChainError("not stamped, yet the other seat answered it: every message goes "
                         "through the notary, which stamps it (a stamp was removed)",
                         element=f"message {len(stamps) + 1}")
    _check_timeout(file, waiting)


def _check_timeout(file: DuelFile, waiting: Sequence[str]) -> None:
    timeout, header = file.timeout, file.header
    if timeout is None:
        return
    assert header.notary is not None
    where = "the timeout"
    if header.deadline is None:
        raise GameFileError("a timeout in a game without a deadline", element=where)
    try:
        timeout.verify(header.notary.public_key)
    except SignatureError:
        raise SignatureError("not signed by the notary's key", element=where) from None
    count = len(file.messages)
    if timeout.n < count:
        raise ChainError(f"comes after the notary's timeout of {timeout.seat} (after message "
                         f"{timeout.n}): the game ended there", element=f"message {timeout.n + 1}")
    if timeout.n > count:
        raise ChainError(f"names message {timeout.n}, which the file does not hold",
                         element=where)
    if timeout.head != (file.messages[-1].hash if file.messages else header.hash):
        raise ChainError(f"does not name message {count}'s hash", element=where)
    if len(file.stamps) < count:
        raise ChainError(f"message {len(file.stamps) + 1} is not stamped, yet the notary "
                         "recorded a timeout after it (a stamp was removed)", element=where)
    if timeout.seat not in waiting:
        raise ChainError(f"names {timeout.seat}, but " +
                         (f"it was {' and '.join(waiting)}'s step" if waiting else
                          "the game was over"), element=where)
    due = timeout.seat
    running = clock(file, count, due)
    if running is None:
        raise ChainError(f"no clock ran for {due} (its deadline starts with the other "
                         "seat's first stamped message)", element=where)
    if seconds_of(timeout.at) < running.until:
        raise ChainError(f"dated {timeout.at}, before {due}'s deadline passed "
                         f"({running.until_text}, {header.deadline.per_move} after stamp "
                         f"{running.since})", element=where)


def not_ahead(file: DuelFile, now: int) -> None:
    """No time dated more than the skew (10 minutes) ahead of ``now``, this computer's
    clock: no stamp and no timeout (a timeout signed before its deadline came is refused
    at once), not the header's and no message's (a seat that dates its message in the
    future would leave the other seat's tool unable to write after it). The refusal
    names the element and who signed it."""
    times = [(f"stamp {stamp.n}", stamp.at) for stamp in file.stamps]
    if file.timeout is not None:
        times.append(("the timeout", file.timeout.at))
    for where, at in times:
        if seconds_of(at) > now + SKEW:
            raise ChainError(f"dated {at}, more than 10 minutes ahead of this computer's "
                             f"clock ({text_of(now)})", element=where)
    signed = [("the header", file.header.created, file.header.seat_names[0])]
    signed += [(f"message {m.n}", m.at, m.seat) for m in file.messages]
    for where, at, seat in signed:  # times never go back: the first ahead is named
        if seconds_of(at) > now + SKEW:
            raise ChainError(f"dated {at} by {seat}, more than 10 minutes ahead of this "
                             f"computer's clock ({text_of(now)}): {seat} signed a time that "
                             "has not come yet; refusing the copy (if your own clock is "
                             "behind, set it right)", element=where)


def lines(file: DuelFile) -> list[str]:
    """``verify``'s lines for the notary: each message's stamped time, and the timeout."""
    notary = file.header.notary
    if notary is None:
        return []
    deadline = file.header.deadline
    said = [f"OK notary {notary.name}: " + (f"{deadline.per_move} a message, forfeit on time"
                                           if deadline else "no deadline")]
    for stamp in file.stamps:
        message = file.messages[stamp.n - 1]
        said.append(f"OK message {stamp.n} ({message.seat}) stamped by the notary at "
                    f"{stamp.at}")
    for message in file.messages[len(file.stamps):]:
        said.append(f"-- message {message.n} ({message.seat}) not stamped yet (not "
                    "through the notary)")
    if file.timeout is not None:
        said.append(f"OK timeout: {file.timeout.seat} sent nothing before its deadline; "
                    f"recorded by the notary at {file.timeout.at}")
    return said
