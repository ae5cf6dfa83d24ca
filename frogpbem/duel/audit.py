"""Audit a game without a referee, export its signatures, and compare two copies of it.

The audit checks everything ``verify`` checks (the header, each message's number,
``prev``, signature, turn and parts, every move through the rules) and says, message by
message, what each proved: a join, a revealed secret matching its commitment, the
ruleset's proofs (:meth:`~frogpbem.duel.rules.DuelRules.proof_words`), the move and its
result; then what the ruleset re-derived at the end and what rests on a reveal not made
(:meth:`~frogpbem.duel.rules.DuelRules.audit_lines`). Its report is the refereed audit's
:class:`~frogpbem.audit.Report`: the same words, verdict and exit status.

Two copies of one game in which one seat signed two different messages of one number (or
the first seat two headers) are a fork; :class:`DuelForkProof` is what shows it to anyone
(``ssh-keygen -Y verify`` alone checks both signatures).
"""

from __future__ import annotations

import base64
import shlex
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.audit import Report
from frogpbem.duel.engine import advance, read_duel, replay, start
from frogpbem.duel.rules import Progress, duel_rules
from frogpbem.errors import (
    ChainError,
    FileAccessError,
    ForkError,
    FrogPbemError,
    GameFileError,
    NotAGameFileError,
    SignatureError,
)
from frogpbem.export import Exported
from frogpbem.frozen import frozen
from frogpbem.gamefile import jsontext
from frogpbem.gamefile.document import write_atomic
from frogpbem.gamefile.duelfile import DuelFile, Message
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
    for played in after.played[len(before.played):]:
        words.append(rules.describe(played.seat, played.move, rules.parse_result(played.result)))
    return words


def audit_duel(path: Path, *, clock: Clock) -> Report:
    """Everything about a game without a referee, message by message; a game not over,
    or whose reveal the ruleset still awaits, is reported unfinished (exit status 10).

    A file that cannot be read at all, or is no game file, raises: that is no verdict."""
    report = Report(str(path))
    try:
        file = read_duel(path)
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
    for message in file.messages:
        try:
            if message.at < last_at:
                raise ChainError("dated before the message before it")
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
    for line in rules.audit_lines(progress):
        report.passed(line)
    _end(report, progress)
    return report


def _check_times(report: Report, created: str, latest: str, clock: Clock) -> None:
    ahead = seconds_of(latest) - clock.now()
    if ahead > SKEW:
        report.failed(f"times: the last is {latest}, {duration_words(ahead)} ahead of this "
                      "computer's clock: a time that has not come yet")
    else:
        report.passed(f"times: from {created} to {latest}, never going back, none ahead of "
                      "this computer's clock")


def _end(report: Report, progress: Progress) -> None:
    rules = duel_rules(progress.header.rules)
    state = progress.state
    outcome = progress.ruleset.outcome(state) if state is not None else None
    if outcome is None:
        from frogpbem.duel.engine import due_seat

        report.unfinished = True
        report.passed(f"the game has not ended: waiting for {due_seat(progress, rules)}; "
                      "'frogpbem verify' checks a running game")
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

MAGIC = "frogpbem-duel-fork-proof 1"


@frozen
class DuelForkProof:
    """Two different elements of one place of one game, both signed by one seat's key."""

    game: str
    position: str
    """``header`` or ``message N``."""
    seat: str
    key: crypto.PublicKey
    messages: tuple[bytes, bytes]
    """What each signature covers: ``frogpbem/1 KIND\\n`` + canonical JSON."""
    signatures: tuple[str, str]

    @classmethod
    def of(cls, game: str, seat: str, key: crypto.PublicKey, first: Element,
           second: Element) -> DuelForkProof:
        position = f"message {first.n}" if isinstance(first, Message) else "header"
        return cls(game, position, seat, key, (first.signed_bytes, second.signed_bytes),
                   (first.signature, second.signature))

    def text(self) -> str:
        """The proof file: ``FIELD VALUE`` lines, as the refereed fork proof's."""
        kind, blob = self.key.line.split()[:2]
        lines = [
            MAGIC,
            f"# A seat of this game without a referee signed two different {self.position}s.",
            "# Check it: frogpbem verify --proof THIS_FILE, or with ssh-keygen alone",
            "# (F is this file, N is first or second):",
            "#   sed -n 's/^allowed_signers //p' F > allowed_signers",
            "#   sed -n 's/^N_message //p' F | base64 -d > N.msg",
            "#   sed -n 's/^N_signature //p' F > N.sig",
            f"#   ssh-keygen -Y verify -f allowed_signers -I {self.seat} -n frogpbem \\",
            "#       -s N.sig < N.msg",
            "# then read first.msg and second.msg: one game, one n, one prev, two contents.",
            f"game {self.game}", f"position {self.position}", f"seat {self.seat}",
            f"key {kind}", *(f"key {blob[i:i + 60]}" for i in range(0, len(blob), 60)),
            f'allowed_signers {self.seat} namespaces="frogpbem" {kind} {blob}',
        ]
        for name, message, signature in zip(("first", "second"), self.messages,
                                            self.signatures, strict=True):
            encoded = base64.b64encode(message).decode()
            lines += [f"{name}_message {encoded[i:i + 60]}" for i in range(0, len(encoded), 60)]
            armored = crypto.armor(crypto.b64decode_strict(signature)).splitlines()
            lines += [f"{name}_signature {line}" for line in armored]
        return "\n".join(lines) + "\n"

    @classmethod
    def parse(cls, text: str) -> DuelForkProof:
        """Read a proof and check it (:meth:`check`); raises a :class:`FrogPbemError`."""
        fields: dict[str, list[str]] = {}
        lines = text.replace("\r\n", "\n").split("\n")
        if lines[0].strip() != MAGIC:
            raise GameFileError(f"not a fork proof of a game without a referee (its first "
                                f"line is not {MAGIC!r})")
        for line in lines[1:]:
            if line.strip() and not line.startswith("#"):
                name, _, value = line.partition(" ")
                fields.setdefault(name, []).append(value.strip())
        try:
            kind, *parts = fields["key"]
            key = crypto.PublicKey.parse(f"{kind} {''.join(parts)}")
            messages = [base64.b64decode("".join(fields[f"{n}_message"]), validate=True)
                        for n in ("first", "second")]
            signatures = [_dearmor(fields[f"{n}_signature"]) for n in ("first", "second")]
            proof = cls(fields["game"][0], fields["position"][0], fields["seat"][0], key,
                        (messages[0], messages[1]), (signatures[0], signatures[1]))
        except (KeyError, IndexError, ValueError):
            raise GameFileError("a fork proof needs game, position, seat, key, and two "
                                "messages with their signatures") from None
        proof.check()
        return proof

    def check(self) -> None:
        """Both signatures by the key; two different elements of one place of the game."""
        bodies = []
        for name, message, signature in zip(("first", "second"), self.messages,
                                            self.signatures, strict=True):
            try:
                crypto.verify_message(self.key, message, signature)
            except SignatureError as exc:
                raise SignatureError(f"the {name} signature does not verify under the "
                                     f"seat's key: {exc.message}") from None
            bodies.append(_body(message))
        (kind_a, a), (kind_b, b) = bodies
        if a == b and kind_a == kind_b:
            raise ForkError("the two messages are the same element: no fork")
        if kind_a == kind_b == "duel":
            place = "header"
        elif kind_a == kind_b == "message" and a.get("n") == b.get("n") and \
                a.get("prev") == b.get("prev") and a.get("seat") == b.get("seat") == self.seat:
            place = f"message {a.get('n')}"
        else:
            raise ForkError("the two elements are not of one place of one seat: no fork")
        if a.get("game", self.game) != self.game or b.get("game", self.game) != self.game:
            raise ForkError("the two headers are for another game: no fork")
        if place != self.position:
            raise ForkError(f"the proof says {self.position!r}, but its messages are the "
                            f"{place}")


def _dearmor(lines: list[str]) -> str:
    if not lines or lines[0] != "-----BEGIN SSH SIGNATURE-----" or \
            lines[-1] != "-----END SSH SIGNATURE-----":
        raise ValueError("not an armoured SSH signature")
    return "".join(lines[1:-1])


def _body(message: bytes) -> tuple[str, dict[str, Any]]:
    head, _, body = message.partition(b"\n")
    prefix = crypto.PREFIX.encode()
    kind = head[len(prefix):].decode("ascii", "replace") if head.startswith(prefix) else ""
    if kind not in ("duel", "message"):
        raise GameFileError("a signed message of the proof is no header or message of a "
                            "game without a referee")
    try:
        value = jsontext.loads(body)
    except ValueError:
        raise GameFileError("a signed message of the proof is not JSON") from None
    if not isinstance(value, dict) or crypto.canonical_json(value) != body:
        raise GameFileError("a signed message of the proof is not canonical JSON")
    return kind, value


def is_duel_proof(text: str) -> bool:
    return text.startswith(MAGIC)


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


__all__ = ["DuelForkProof", "audit_duel", "compare_copies", "export_duel", "is_duel_proof",
           "message_words", "save_proof"]
