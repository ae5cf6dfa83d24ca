"""Signatures and the hash chain of a game file.

Every signed element (header, join, deal, record, request, note, reveal) is
checked here; ``prev`` links each record to the element before it, so the head
(the last record's hash) fixes the whole history.
"""

from __future__ import annotations

import itertools
import operator
from dataclasses import dataclass, field

from frogpbem import crypto
from frogpbem.errors import ChainError, FrogPbemError, SignatureError, VerificationError
from frogpbem.gamefile.model import Element, GameFile, Join, Record

_HASH_AND_SIGNATURE = operator.attrgetter("hash", "signature")


@dataclass
class ChainReport:
    """What :func:`check_chain` found."""

    head: str = ""
    """Hash of the last signed element of the history (header, deal or last record)."""
    problems: list[VerificationError] = field(default_factory=list)
    """Everything that does not hold, each naming its element."""
    unrequested: list[int] = field(default_factory=list)
    """Numbers of the records the referee entered without a player's signed request."""

    def raise_first(self) -> None:
        if self.problems:
            raise self.problems[0]


def prefix_digest(file: GameFile, n: int) -> str:
    """A hash of the header, the deal and the first ``n`` records, signatures included.

    It hashes each element's hash (the SHA-256 of its signed bytes) with its
    signature: as binding as hashing the signed bytes themselves, and an
    element's hash is made once.

    The digest is made as it goes, one element after the other; one made in this
    process for a beginning of these very records (by identity) is gone on from
    (the referee's memory, at every record of the demonstration): the header keeps
    the last few (see :class:`~frogpbem.gamefile.model.Made`).
    """
    records = file.log[:n]
    stream, done = None, 0
    prefixes = file.header.made.prefixes
    for deal, known, made in sorted(prefixes, key=lambda p: -len(p[1])):
        if deal is file.deal and len(known) <= n and all(map(operator.is_, known, records)):
            stream, done = made, len(known)  # the longest such beginning
            break
    if stream is None:
        stream = crypto.Sha256Stream()
        parts = [file.header.hash, file.header.signature]
        if file.deal is not None:
            parts += [file.deal.hash, file.deal.signature]
        stream.update("\n".join(parts).encode())
    else:
        stream = stream.copy()
    if done < len(records):
        stream.update(("\n" + "\n".join(itertools.chain.from_iterable(
            map(_HASH_AND_SIGNATURE, records[done:])))).encode())
    if records:
        for index, (deal, known, _) in enumerate(prefixes):
            if known is records and deal is file.deal:
                del prefixes[index]
                break
        prefixes.append((file.deal, records, stream))
    return stream.tag()


def _check(problems: list[VerificationError], where: str, key: crypto.PublicKey,
           element: Element, who: str) -> bool:
    try:
        element.verify(key)
    except SignatureError as exc:
        reason = "" if exc.message == "invalid signature" else f" ({exc.message})"
        problems.append(SignatureError(f"invalid signature by {who}{reason}", element=where))
        return False
    return True


def check_chain(file: GameFile, trusted: tuple[int, str] | None = None) -> ChainReport:
    """Check every signature and link; report every problem found.

    ``trusted`` is the referee's own memory ``(n, digest)`` of what it wrote:
    when the header and records up to ``n`` of this file, signatures
    included, have that :func:`prefix_digest`, they are exactly what the
    referee signed and checked itself, and their signatures are not checked
    again (links and hashes still are).
    """
    report = ChainReport()
    header = file.header
    game = header.game
    try:
        referee = header.referee.public_key
        seats = header.seat_keys
    except FrogPbemError as exc:  # a key no one holds, say
        raise exc.within(element="header") from None
    problems = report.problems
    heads = file.heads()
    known = -1
    if trusted is not None and trusted[0] < len(heads) and \
            prefix_digest(file, trusted[0]) == trusted[1]:
        known = trusted[0]
    if known < 0:
        _check(problems, "header", referee, header, "the referee")
        _check_deal(file, report)
    for index, join in enumerate(file.joins):
        _check_join(report, f"pending join {index + 1}", join, file)
    for index, record in enumerate(file.log):
        where = f"record {index + 1}"
        if record.n != index + 1:
            problems.append(ChainError(f"numbered {record.n}", element=where))
        if record.prev != heads[index]:
            problems.append(ChainError(f"does not follow record {index}", element=where))
        if record.seat not in seats:
            problems.append(ChainError(f"{record.seat!r} is not a seat of this game",
                                       element=where))
        elif index < known:
            if record.request is None:
                report.unrequested.append(record.n)
        else:
            _check(problems, where, referee, record, "the referee")
            _check_request(report, where, record, game, heads, seats)
    report.head = heads[-1]
    if file.deal is not None and file.joins:
        problems.append(ChainError("pending after the deal", element="joins"))
    for index, request in enumerate(file.requests):
        where = f"pending request {index + 1} ({request.label})"
        if request.game != game:
            problems.append(ChainError(f"made for game {request.game!r}", element=where))
        elif request.seat not in seats:
            problems.append(ChainError("not a seat of this game", element=where))
        else:
            _check(problems, where, seats[request.seat], request, request.seat)
    for index, note in enumerate(file.notes):
        where = f"note {index + 1} (by {note.seat})"
        if note.game != game:
            problems.append(ChainError(f"written for game {note.game!r}", element=where))
        elif note.header != header.hash:
            problems.append(ChainError("written under another header of this game id",
                                       element=where))
        elif note.seat not in seats or any(s not in seats for s in note.to):
            problems.append(ChainError("names a seat not in this game", element=where))
        else:
            _check(problems, where, seats[note.seat], note, note.seat)
    if file.reveal is not None:
        if file.reveal.prev != report.head:
            problems.append(ChainError("does not follow the last record", element="reveal"))
        _check(problems, "reveal", referee, file.reveal, "the referee")
    return report


def _check_request(report: ChainReport, where: str, record: Record, game: str,
                   heads: list[str], seats: dict[str, crypto.PublicKey]) -> None:
    """The seat's signature of the request a record carries, and where it was signed."""
    request = record.request_element(game)
    if request is None:
        report.unrequested.append(record.n)
        return
    if record.asked is not None and not (
        1 <= record.asked.n < record.n and heads[record.asked.n - 1] == record.asked.head
    ):
        report.problems.append(ChainError(
            f"the request was signed at record {record.asked.n} of another history",
            element=where))
        return
    _check(report.problems, f"{where}: request", seats[record.seat], request, record.seat)


def _check_join(report: ChainReport, where: str, join: Join, file: GameFile) -> None:
    seats = file.header.seat_keys
    if join.game != file.game:
        report.problems.append(ChainError(f"made for game {join.game!r}", element=where))
    elif join.header != file.header.hash:
        report.problems.append(ChainError(
            "made under another header of this game id (another seed commitment)",
            element=where))
    elif join.seat not in seats:
        report.problems.append(ChainError(f"{join.seat!r} is not a seat", element=where))
    else:
        _check(report.problems, f"{where} ({join.seat})", seats[join.seat], join, join.seat)


def _check_deal(file: GameFile, report: ChainReport) -> None:
    deal = file.deal
    joiners = file.header.setup.joiners
    if deal is None:
        if file.log and joiners:
            report.problems.append(ChainError("there are moves but no deal", element="record 1"))
        return
    if not joiners:
        report.problems.append(ChainError("this game was dealt in its header", element="deal"))
    if deal.prev != file.header.hash:
        report.problems.append(ChainError("does not follow the header", element="deal"))
    _check(report.problems, "deal", file.header.referee.public_key, deal, "the referee")
    for join in deal.joins:
        _check_join(report, "deal: join", join, file)
    if sorted(j.seat for j in deal.joins) != sorted(joiners):
        report.problems.append(ChainError(
            "the joins are not exactly the seats that had to join", element="deal"))
