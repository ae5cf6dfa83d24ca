"""Audit a game without a referee, export its signatures, and compare two copies of it.

The audit checks everything ``verify`` checks (the header, each message's number,
``prev``, signature, turn and parts, every move through the rules) and says, message by
message, what each proved: a join, a revealed secret matching its commitment, the
ruleset's proofs (:meth:`~frogpbem.duel.rules.DuelRules.proof_words`), the move and its
result; then what the ruleset re-derived at the end and what rests on a reveal not made
(:meth:`~frogpbem.duel.rules.DuelRules.audit_lines`). Its report is the refereed audit's
:class:`~frogpbem.audit.Report`: the same words, verdict and exit status.

Two copies of one game in which one seat signed two different messages of one number (or
the first seat two headers) are a fork; :class:`~frogpbem.gamefile.duelfork.DuelForkProof`
is what shows it to anyone (``ssh-keygen -Y verify`` alone checks both signatures).
"""

from __future__ import annotations

import base64
import hashlib
import shlex
from pathlib import Path

from frogpbem import crypto
from frogpbem.audit import GameResult, Report, Seated
from frogpbem.duel import stamps
from frogpbem.duel.engine import (
    advance,
    due_seat,
    ending_words,
    read_duel,
    replay,
    reveals_due,
    start,
    waiting,
    withheld_words,
)
from frogpbem.duel.registry import duel_rules
from frogpbem.duel.rules import Progress
from frogpbem.errors import (
    ChainError,
    FileAccessError,
    FrogPbemError,
    GameFileError,
    NotAGameFileError,
    SignatureError,
)
from frogpbem.export import Exported
from frogpbem.gamefile.document import read_bytes, write_atomic
from frogpbem.gamefile.duelfile import DuelFile, Message
from frogpbem.gamefile.duelfile import parse_duel as parse_duel_bytes
from frogpbem.gamefile.duelfork import DuelForkProof
from frogpbem.gamefile.model import FORMAT_VERSION, Element
from frogpbem.protocol.times import SKEW, Clock, duration_words, seconds_of
from frogpbem.safetext import counted, safe

# --- the audit --------------------------------------------------------------------------


def message_words(before: Progress, message: Message, after: Progress) -> list[str]:
    """What ``message`` did and proved, each part checked already, in words."""
    seat = message.seat
    words = []
    if message.join is not None:
        words.append(f"{seat} joined with its seed commitment and public seed")
    if message.public is not None:
        words.append(f"{seat} showed its public seed")
    if message.reveal is not None:
        shown = " and gives the public seed it showed" if seat in before.publics else ""
        words.append(f"{seat} revealed its secret: it matches its seed commitment{shown}")
    if before.state is None and after.state is not None:
        words.append("the board is dealt")
    words += duel_rules(before.header.rules).proof_words(before, message, after)
    rules = after.ruleset
    for index, played in enumerate(after.played):
        if index < len(before.played) and before.played[index] == played:
            continue  # told before (a move answered now was awaiting its answer then)
        if played.result is None:  # Frog Finder: its result comes with the answer
            words.append(f"{played.seat} played {played.move}: awaiting the answer")
        else:
            words.append(rules.describe(played.seat, played.move,
                                        rules.parse_result(played.result)))
    return words


def audit_duel(path: Path, *, clock: Clock) -> Report:
    """Everything about a game without a referee, message by message; a game not over,
    or whose reveal the ruleset still awaits, is reported unfinished (exit status 10).

    A file that cannot be read at all, or is no game file, raises: that is no verdict."""
    report = Report(str(path))
    try:
        data = read_bytes(path)
        report.digest = hashlib.sha256(data).hexdigest()
        file = parse_duel_bytes(data, str(path))
    except (FileAccessError, NotAGameFileError):
        raise
    except FrogPbemError as exc:
        report.failed(str(exc))
        return report
    report.finished = False
    try:
        progress = start(file.header)
        rules = duel_rules(file.header.rules)
    except FrogPbemError as exc:
        report.failed(f"header: {exc.message}")
        return report
    header = file.header
    report.passed(f"format version {FORMAT_VERSION}, strict YAML, schema; rules {header.rules}, "
                  "no referee")
    report.passed(f"header: two seats ({', '.join(header.seat_names)}), the ruleset's seat "
                  f"names and complete options, signed by {progress.first}")
    last_at = header.created
    dues: list[tuple[str, ...]] = []
    for message in file.messages:
        try:
            if message.at < last_at:
                raise ChainError("dated before the message before it")
            dues.append(waiting(progress, rules))
            after = advance(progress, message, rules)
        except FrogPbemError as exc:
            report.failed(f"{message.label}: {exc.message}")
            return report
        report.passed(f"{message.n}. " + "; ".join(message_words(progress, message, after))
                      + f" (signed by {message.seat}, chained)")
        progress, last_at = after, message.at
    if file.messages:
        report.passed(f"{counted(len(file.messages), 'message')}: numbered without a gap, "
                      "each signed by its seat, chained, each its seat's step")
    _check_times(report, header.created, last_at, clock)
    try:
        stamps.check(file, dues, waiting(progress, rules))
    except FrogPbemError as exc:
        report.failed(str(exc))
        return report
    for line in stamps.lines(file)[1:]:
        report.passed(line.removeprefix("OK "))
    for line in rules.audit_lines(progress):
        report.passed(line)
    _end(report, file, progress)
    if report.ok and report.finished:
        report.result = _result_of(file, progress)
    return report


def _result_of(file: DuelFile, progress: Progress) -> GameResult | None:
    """What a finished game without a referee decided: the seat that forfeits on time loses;
    otherwise the rules' outcome (a forfeit the protocol proved is the other seat's win in
    the rules' state). ``referee`` is empty: there is none."""
    header = file.header
    if file.timeout is not None:
        loser, ended = file.timeout.seat, file.timeout.at
        winner = next(seat for seat in header.seat_names if seat != loser)
        places: tuple[tuple[int, tuple[str, ...]], ...] = ((1, (winner,)), (2, (loser,)))
        termination = f"{loser} forfeits on time"
    else:
        outcome = progress.ruleset.outcome(progress.state) if progress.state is not None \
            else None
        if outcome is None:
            return None
        ended = file.messages[-1].at if file.messages else header.created
        places = tuple((place.rank, (place.seat,)) for place in outcome.standing)
        termination = outcome.termination
    return GameResult(
        header.game, header.hash, header.rules, header.created, ended, "",
        tuple(Seated(party.seat or "", party.name, party.key) for party in header.seats),
        places, termination)


def _check_times(report: Report, created: str, latest: str, clock: Clock) -> None:
    ahead = seconds_of(latest) - clock.now()
    if ahead > SKEW:
        report.failed(f"times: the last is {latest}, {duration_words(ahead)} ahead of this "
                      "computer's clock: a time that has not come yet")
    else:
        report.passed(f"times: from {created} to {latest}, never going back, none ahead of "
                      "this computer's clock")


def _end(report: Report, file: DuelFile, progress: Progress) -> None:
    rules = duel_rules(progress.header.rules)
    state = progress.state
    outcome = progress.ruleset.outcome(state) if state is not None else None
    ending = ending_words(file, progress, rules)
    if ending is not None and (file.timeout is not None or rules.forfeit(progress)):
        report.passed(f"end: {ending}")  # a forfeit: no reveal awaited any more
        report.finished = True
        return
    if outcome is None:
        due = due_seat(progress, rules)
        report.unfinished = True
        report.passed((f"the game has not ended: waiting for {due}" if due else
                       f"the outcome is pending: {withheld_words(reveals_due(progress, rules))}")
                      + "; 'frogpbem verify' checks a running game")
        return
    report.passed(f"end: {outcome.termination}; standing {outcome.standing_text()}")
    awaited = rules.awaited_reveals(progress)
    if awaited:
        report.unfinished = True
        report.passed(f"the game is over, but {' and '.join(awaited)} "
                      f"{'has' if len(awaited) == 1 else 'have'} not revealed: what rests "
                      "on a reveal is not checked yet")
        return
    report.finished = True
    for seat in progress.seats:
        if seat not in progress.revealed:
            report.passed(f"{seat} has not revealed its secret: nothing rests on it")


# --- the export -------------------------------------------------------------------------


def export_duel(path: Path, folder: Path) -> list[Exported]:
    """Write NAME.msg (signed bytes) and NAME.sig (armoured) for the header and every
    message, ``allowed_signers`` naming each seat, and each seat's sealed secret as
    ``sealed-SEAT.age``; ``folder`` must not exist yet, or be empty."""
    file = read_duel(path)
    try:
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise FileAccessError("exists and is not an empty folder; not overwriting it",
                                  path=folder)
        return _write(file, folder)
    except OSError as exc:
        raise FileAccessError(f"cannot write: {exc.strerror}", path=folder) from None


def _write(file: DuelFile, folder: Path) -> list[Exported]:
    folder.mkdir(parents=True, exist_ok=True)
    header = file.header
    allowed = folder / "allowed_signers"
    allowed.write_text("".join(f'{p.seat} namespaces="frogpbem" {p.key}\n'
                               for p in header.seats), encoding="utf-8")
    items: list[tuple[str, str, Element]] = [("header", header.seat_names[0], header)]
    items += [(f"message-{m.n}", m.seat, m) for m in file.messages]
    written = []
    for stem, principal, element in items:
        message, signature = folder / f"{stem}.msg", folder / f"{stem}.sig"
        message.write_bytes(element.signed_bytes)
        signature.write_text(crypto.armor(base64.b64decode(element.signature)))
        command = (f"ssh-keygen -Y verify -f {shlex.quote(str(allowed))} -I {principal} "
                   f"-n frogpbem -s {shlex.quote(str(signature))} < "
                   f"{shlex.quote(str(message))}")
        written.append(Exported(stem, str(message), str(signature), principal, command))
    sealed = [(header.seat_names[0], header.secret.sealed)]
    join = file.messages[0].join if file.messages else None
    if join is not None:
        sealed.append((header.seat_names[1], join.sealed))
    for seat, armored in sealed:
        out = folder / f"sealed-{seat}.age"
        out.write_text(armored)
        written.append(Exported(f"sealed-{seat}", str(out), "", seat,
                                f"age -d -i YOUR_KEY {shlex.quote(str(out))}"))
    return written


# --- two copies, and the proof of a fork ------------------------------------------------

def compare_copies(file: DuelFile, other_path: Path) -> DuelForkProof | None:
    """Whether ``other_path`` holds the same history as ``file`` (checked) as far as both
    go; the proof of a fork if one seat signed two messages of one number. Raises when
    the two are not copies of one game, or part where no one seat signed two."""
    other = read_duel(other_path)
    header = file.header
    first = header.seats[0]
    if other.game != file.game:
        raise GameFileError(f"is not a copy of game {file.game}", path=other_path)
    if other.header.hash != header.hash:
        try:
            other.header.verify(first.public_key)
        except SignatureError:
            raise GameFileError(f"is not a copy of game {file.game}: its header is not "
                                f"signed by {first.seat}", path=other_path) from None
        return DuelForkProof.of(file.game, first.seat or "", first.public_key, header,
                                other.header)
    replay(DuelFile(other.header, ()), other_path)
    for mine, theirs in zip(file.messages, other.messages, strict=False):
        if mine.hash == theirs.hash:
            continue
        if mine.seat != theirs.seat or mine.prev != theirs.prev or mine.n != theirs.n:
            raise ChainError(f"message {mine.n} differs, signed by {mine.seat} in one copy "
                             f"and {safe(theirs.seat)} in the other: no one seat signed two",
                             path=other_path)
        key = header.party(mine.seat).public_key
        try:
            theirs.verify(key)
        except SignatureError:
            raise SignatureError(f"message {theirs.n} is not signed by {mine.seat}'s key",
                                 path=other_path) from None
        return DuelForkProof.of(file.game, mine.seat, key, mine, theirs)
    return None


def save_proof(home: Path, proof: DuelForkProof) -> Path:
    """Write ``proof`` under ``home/seen/proofs/`` and return where."""
    folder = home / "seen" / "proofs"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / f"{proof.game}-{proof.position.replace(' ', '-')}.proof"
    write_atomic(path, proof.text().encode())
    return path


__all__ = ["audit_duel", "compare_copies", "export_duel", "message_words", "save_proof"]
