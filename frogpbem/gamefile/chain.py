"""Signatures and the hash chain of a game file.

Every signed element (header, record, request, reveal) is checked here;
``prev`` links each record to the one before, so the head (the last
record's hash) fixes the whole history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from frogpbem import crypto
from frogpbem.errors import ChainError, GameFileError, SignatureError, VerificationError
from frogpbem.gamefile.document import Document


@dataclass
class ChainReport:
    """What :func:`check_chain` found."""

    head: str = ""
    """Hash of the last signed element of the history (header or last record)."""
    problems: list[VerificationError] = field(default_factory=list)
    """Everything that does not hold, each naming its element."""
    unrequested: int = 0
    """Records the referee entered without a player's signed request."""

    def raise_first(self) -> None:
        if self.problems:
            raise self.problems[0]


def header_hash(doc: Document) -> str:
    return crypto.element_hash("header", doc["header"])


def record_hash(record: dict[str, Any]) -> str:
    return crypto.element_hash("record", record)


def prefix_digest(doc: Document, n: int) -> str:
    """A hash of the header, the deal and the first ``n`` records, signatures included."""
    prefix = {"header": doc["header"], "deal": doc.get("deal"), "log": doc["log"][:n]}
    return crypto.sha256_tag(crypto.canonical_json(prefix))


def setup_of(doc: Document) -> dict[str, Any]:
    """The element holding the dealt setup: the deal once seats joined, else the header's."""
    deal = doc.get("deal")
    return deal if deal is not None else doc["header"]["setup"]  # type: ignore[no-any-return]


def base_hash(doc: Document) -> str:
    """What record 1 follows: the deal when there is one, else the header."""
    deal = doc.get("deal")
    return crypto.element_hash("deal", deal) if deal is not None else header_hash(doc)


def head_of(doc: Document) -> str:
    """The hash that the next record's ``prev`` must name."""
    return record_hash(doc["log"][-1]) if doc["log"] else base_hash(doc)


def referee_key(doc: Document) -> crypto.PublicKey:
    return crypto.PublicKey.parse(doc["header"]["referee"]["key"])


def seat_keys(doc: Document) -> dict[str, crypto.PublicKey]:
    """Each seat's public key, by seat name."""
    keys = {}
    for entry in doc["header"]["seats"]:
        if entry["seat"] in keys:
            raise GameFileError(f"header: seat {entry['seat']!r} appears twice")
        keys[entry["seat"]] = crypto.PublicKey.parse(entry["key"])
    return keys


def request_element(game: str, n: int, head: str, seat: str, move: str,
                    sealed: dict[str, str] | None = None) -> dict[str, Any]:
    """The element a player signs to ask for a move (the same, rebuilt, for a record).

    ``sealed`` holds the ``sealed`` text and ``commitment`` of a move kept secret.
    """
    element = {"game": game, "n": n, "head": head, "seat": seat, "move": move}
    if sealed:
        element.update(sealed)
    return element


def sealed_parts(element: dict[str, Any]) -> dict[str, str] | None:
    """The ``sealed`` and ``commitment`` fields of a record or request, if it has them."""
    if "commitment" not in element:
        return None
    return {"sealed": element["sealed"], "commitment": element["commitment"]}


def _check(problems: list[VerificationError], where: str, key: crypto.PublicKey, kind: str,
           element: dict[str, Any], who: str, message: bytes | None = None) -> bool:
    try:
        crypto.verify_element(key, kind, element, message)
    except SignatureError as exc:
        reason = "" if str(exc) == "invalid signature" else f" ({exc})"
        problems.append(SignatureError(f"{where}: invalid signature by {who}{reason}"))
        return False
    return True


def check_chain(doc: Document, trusted: tuple[int, str] | None = None) -> ChainReport:
    """Check every signature and link; report every problem found.

    ``trusted`` is the referee's own memory ``(n, digest)`` of what it wrote:
    when the header and records up to ``n`` of this file, signatures
    included, have that :func:`prefix_digest`, they are exactly what the
    referee signed and checked itself, and their signatures are not checked
    again (links and hashes still are).
    """
    report = ChainReport()
    header = doc["header"]
    game = header["game"]
    referee = referee_key(doc)
    seats = seat_keys(doc)
    signed = [crypto.signed_bytes("record", record) for record in doc["log"]]
    hashes = [base_hash(doc)] + [crypto.sha256_tag(message) for message in signed]
    known = -1
    if trusted is not None and trusted[0] < len(hashes) and \
            prefix_digest(doc, trusted[0]) == trusted[1]:
        known = trusted[0]
    if known < 0:
        _check(report.problems, "header", referee, "header", header, "the referee")
        _check_deal(doc, report, referee, seats)
    for index, join in enumerate(doc.get("joins", [])):
        _check_join(report, f"pending join {index + 1}", join, game, seats)
    prev = hashes[0]
    for index, record in enumerate(doc["log"]):
        where = f"record {index + 1}"
        if record["n"] != index + 1:
            report.problems.append(ChainError(f"{where}: numbered {record['n']}"))
        if record["prev"] != prev:
            report.problems.append(ChainError(f"{where}: does not follow record {index}"))
        seat = record["seat"]
        if seat not in seats:
            report.problems.append(ChainError(f"{where}: {seat!r} is not a seat of this game"))
        elif index < known:
            report.unrequested += "request" not in record
        else:
            _check(report.problems, where, referee, "record", record, "the referee",
                   signed[index])
            if "request" in record:
                element = request_element(game, record["n"], record["prev"], seat,
                                          record["move"], sealed_parts(record))
                element["signature"] = record["request"]
                _check(report.problems, f"{where}: request", seats[seat], "request", element, seat)
            else:
                report.unrequested += 1
        prev = hashes[index + 1]
    report.head = prev
    if doc.get("deal") is not None and doc.get("joins"):
        report.problems.append(ChainError("joins: pending after the deal"))
    for index, request in enumerate(doc["requests"]):
        where = f"pending request {index + 1} ({request['seat']} {request['move']!r})"
        if request["game"] != game:
            report.problems.append(ChainError(f"{where}: made for game {request['game']!r}"))
        elif request["seat"] not in seats:
            report.problems.append(ChainError(f"{where}: not a seat of this game"))
        else:
            _check(report.problems, where, seats[request["seat"]], "request", request,
                   request["seat"])
    for index, note in enumerate(doc.get("notes", [])):
        where = f"note {index + 1} (by {note['seat']})"
        if note["game"] != game:
            report.problems.append(ChainError(f"{where}: written for game {note['game']!r}"))
        elif note["seat"] not in seats or any(s not in seats for s in note["to"]):
            report.problems.append(ChainError(f"{where}: names a seat not in this game"))
        else:
            _check(report.problems, where, seats[note["seat"]], "note", note, note["seat"])
    reveal = doc["reveal"]
    if reveal is not None:
        if reveal["prev"] != prev:
            report.problems.append(ChainError("reveal: does not follow the last record"))
        _check(report.problems, "reveal", referee, "reveal", reveal, "the referee")
    return report


def _check_join(report: ChainReport, where: str, join: dict[str, Any], game: str,
                seats: dict[str, crypto.PublicKey]) -> None:
    if join["game"] != game:
        report.problems.append(ChainError(f"{where}: made for game {join['game']!r}"))
    elif join["seat"] not in seats:
        report.problems.append(ChainError(f"{where}: {join['seat']!r} is not a seat"))
    else:
        _check(report.problems, f"{where} ({join['seat']})", seats[join["seat"]], "join", join,
               join["seat"])


def _check_deal(doc: Document, report: ChainReport, referee: crypto.PublicKey,
                seats: dict[str, crypto.PublicKey]) -> None:
    deal = doc.get("deal")
    setup = doc["header"]["setup"]
    joiners = setup.get("choosers") or (setup.get("fairness") or {}).get("joiners") or []
    if deal is None:
        if doc["log"] and joiners:
            report.problems.append(ChainError("record 1: there are moves but no deal"))
        return
    if not joiners:
        report.problems.append(ChainError("deal: this game was dealt in its header"))
    if deal["prev"] != header_hash(doc):
        report.problems.append(ChainError("deal: does not follow the header"))
    _check(report.problems, "deal", referee, "deal", deal, "the referee")
    game = doc["header"]["game"]
    for join in deal["joins"]:
        _check_join(report, "deal: join", join, game, seats)
    if sorted(j["seat"] for j in deal["joins"]) != sorted(joiners):
        report.problems.append(ChainError("deal: the joins are not exactly the seats that had "
                                          "to join"))


def fork_proof(doc_a: Document, doc_b: Document) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Two different, validly signed records with one game and number, if the copies hold them."""
    if doc_a["header"]["game"] != doc_b["header"]["game"]:
        return None
    check_chain(doc_a).raise_first()
    check_chain(doc_b).raise_first()
    if header_hash(doc_a) != header_hash(doc_b):
        return None
    for rec_a, rec_b in zip(doc_a["log"], doc_b["log"], strict=False):
        if record_hash(rec_a) != record_hash(rec_b):
            return rec_a, rec_b
    return None
