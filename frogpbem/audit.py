"""Audit a finished game, or verify one still running.

Both report a list of checks in plain words, each passed or failed, so that
a tournament director sees every result, not only the first problem.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import (
    ChainError,
    FileAccessError,
    ForkError,
    FrogPbemError,
    GameFileError,
    NotAGameFileError,
    StaleCopyError,
    UnfinishedGameError,
)
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import parse_game, read_bytes, read_game
from frogpbem.gamefile.forkproof import ForkProof, conflict
from frogpbem.gamefile.model import FORMAT_VERSION, JSON, Element, Entered, Record
from frogpbem.games import Outcome
from frogpbem.games.clock import Paused, Resumed
from frogpbem.protocol.game import (
    REFEREE,
    Game,
    check_notes,
    known_secrets,
    open_setup,
    replay,
    ruleset_of,
    termination_words,
    typed_results,
    unasked,
)
from frogpbem.protocol.replays import Replay
from frogpbem.protocol.secrets import setup_length
from frogpbem.protocol.seen import SeenGames
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import Clock, check_not_ahead, check_times, latest_time
from frogpbem.safetext import counted, safe
from frogpbem.views import setup_words


@dataclass
class Check:
    """One line of a report."""

    ok: bool
    what: str
    warning: bool = False
    """A warning: nothing this report can prove either way (it does not fail the file)."""

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "what": self.what, **({"warning": True} if self.warning else {})}


@dataclass(frozen=True)
class Seated:
    """A seat of an audited game and who sat there."""

    seat: str
    name: str
    key: str
    """The player's ``ssh-ed25519 AAAA…`` key line: who the player is, whatever the name."""


@dataclass(frozen=True)
class GameResult:
    """What an audited game decided: all that standings and ratings count of it.

    Made only by :func:`audit`, and only when every check held.
    """

    game: str
    header: str
    """The hash of the game's header: this game, not another of the same id."""
    rules: str
    created: str
    ended: str
    """When the referee revealed the end (UTC)."""
    referee: str
    """The referee's key line."""
    seats: tuple[Seated, ...]
    """In turn order."""
    places: tuple[tuple[int, tuple[str, ...]], ...]
    """Best first: each place's rank (equal ranks tie) and the seats holding it (a
    team's seats together)."""
    termination: str
    tournament: Entered | None = None
    """The tournament the game names in its header, if any."""

    def rank_of(self, seat: str) -> int:
        """The rank of ``seat`` (its team's)."""
        return next(rank for rank, seats in self.places if seat in seats)


@dataclass
class Report:
    """The verdict on one game file."""

    path: str
    checks: list[Check] = field(default_factory=list)
    unfinished: bool = False
    """The game has not ended: an audit cannot judge it (nothing is wrong so far)."""
    finished: bool | None = None
    """Whether the file holds the end of the game (its reveal); ``None`` while the report
    cannot say (a file that could not be read, a fork proof)."""
    unasked: list[int] = field(default_factory=list)
    """Records entered by the referee without their seat's request (nor made by the rules)."""
    holds: str = "everything holds"
    """The verdict when every check passed."""
    result: GameResult | None = None
    """What the game decided, when it is finished and every check held."""
    digest: str | None = None
    """The SHA-256 (hex) of the bytes audited, once they were read: what a verdict kept is
    kept by (:mod:`frogpbem.verdicts`)."""

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    @property
    def verdict(self) -> str:
        if not self.ok:
            if self.unasked:
                many = len(self.unasked) > 1
                return (f"DOES NOT HOLD: record{'s' if many else ''} "
                        f"{', '.join(map(str, self.unasked))} rest{'' if many else 's'} on "
                        "the referee's word alone (no signed request of the seat)")
            return "DOES NOT HOLD"
        return "not finished: everything so far holds" if self.unfinished else self.holds

    def passed(self, what: str) -> None:
        self.checks.append(Check(True, what))

    def failed(self, what: str) -> None:
        self.checks.append(Check(False, what))

    def to_json(self) -> dict[str, Any]:
        return {"file": self.path, "ok": self.ok, "finished": self.finished,
                "verdict": self.verdict, "checks": [c.to_json() for c in self.checks]}

    def text(self) -> str:
        lines = [f"{self.path}:"]
        lines += [f"  {'WARN' if c.warning else 'ok  ' if c.ok else 'FAIL'} "
                  + "\n  ".join(map(safe, c.what.split("\n"))) for c in self.checks]
        lines.append(f"  verdict: {self.verdict}")
        return "\n".join(lines)

    def exit_status(self) -> int:
        """0 when everything holds, 1 when something does not, 10 for an unfinished game."""
        if not self.ok:
            return 1
        return UnfinishedGameError.exit_code if self.unfinished else 0


def _read(path: Path, report: Report, clock: Clock, bulk: bool = False) -> Game | None:
    """Format, schema, signatures and chain; ``None`` when the file cannot be used further
    (``bulk``: one of many files read, see :func:`~frogpbem.gamefile.strictyaml.loads`).

    A file that cannot be read at all (missing, unreadable) or is no game file (a view
    file, a key) raises instead: that is not a verdict on the game.
    """
    try:
        data = read_bytes(path)
        report.digest = hashlib.sha256(data).hexdigest()
        file = parse_game(data, str(path), bulk=bulk)
    except (FileAccessError, NotAGameFileError):
        raise  # a missing or unreadable file, or one that is no game file, is no verdict
    except FrogPbemError as exc:
        report.failed(str(exc))
        return None
    report.finished = file.reveal is not None
    try:
        ruleset = ruleset_of(file.header)
        results = typed_results(file, ruleset)
        chain_report = chain.check_chain(file)
    except FrogPbemError as exc:
        report.failed(str(exc))
        return None
    report.passed(f"format version {FORMAT_VERSION}, strict YAML, schema; rules {ruleset.name}")
    for problem in chain_report.problems:
        report.failed(str(problem))
    if chain_report.problems:
        return None
    log = file.log
    report.passed(
        f"signatures and chain: header, {counted(len(log), 'record')}"
        + (", reveal" if file.reveal else "")
        + f"; head {chain_report.head[:19]}…"
    )
    requested = len(log) - len(chain_report.unrequested)
    carry = "carries its" if len(log) == 1 else "carry their"
    report.passed(f"{requested} of {counted(len(log), 'record')} {carry} seat's signed "
                  "request (signature checked)")
    game = Game(path, file, ruleset, None, results, chain_report.unrequested)
    _check_notes(game, report)
    _check_clock(game, report, clock)
    return game


def _check_clock(game: Game, report: Report, clock: Clock) -> None:
    """What anyone can check of the referee's times: they never go back, and none is
    ahead of this computer's clock (more than the skew). What a seat alone can check, from
    its own readings, is :func:`~frogpbem.protocol.game.check_observed`'s."""
    try:
        check_times(game.file)
        check_not_ahead(game.file, clock)
    except FrogPbemError as exc:
        report.failed(f"times: {exc.element or 'the file'} {exc.message}")
        return
    name, at = latest_time(game.file)
    report.passed(f"times: from {game.header.created} to {at} ({name}), never going back, "
                  "none ahead of this computer's clock")


def _check_notes(game: Game, report: Report) -> None:
    """Team notes: signed by their author (checked with the chain), sealed to its team only."""
    if not game.file.notes:
        return
    try:
        check_notes(game)
    except FrogPbemError as exc:
        report.failed(str(exc))
        return
    report.passed(f"{counted(len(game.file.notes), 'team note')}: signed by their authors, "
                  "addressed to exactly their teams by age recipient tags (not read)")


def _check_salts(game: Game, report: Report) -> None:
    """The revealed salts: 32 bytes each, none all zero, no two alike."""
    reveal = game.file.reveal
    assert reveal is not None
    salts = [(f"{seat}'s setup", opened.salt) for seat, opened in reveal.secrets.items()]
    salts += [(f"record {n}'s sealed move", opened.salt)
              for n, opened in reveal.sealed_moves.items()]
    if not salts:
        return
    seen: dict[str, str] = {}
    problems = []
    for what, salt in salts:
        if len(salt) != 64 or salt.strip("0123456789abcdef"):
            problems.append(f"reveal: the salt of {what} is not 32 bytes in hex")
        elif salt == "0" * 64:
            problems.append(f"reveal: the salt of {what} is all zero: its commitment hides "
                            "nothing")
        elif salt in seen:
            problems.append(f"reveal: {what} and {seen[salt]} have the same salt")
        seen.setdefault(salt, what)
    for problem in problems:
        report.failed(problem)
    if not problems:
        report.passed(f"reveal: {counted(len(salts), 'salt')}, each 32 bytes, none zero, "
                      "no two alike")


def _check_unasked(game: Game, report: Report, replayed: Replay, role: str | None) -> None:
    """Records entered for a seat without its signed request (beyond the rules' own moves).

    In the audit (``role`` ``None``) and for the seat holding the key they
    fail; for other seats they are listed: only those seats can say whether
    they asked.
    """
    records = unasked(game, replayed)
    asked = {r.n for r in records}
    log = game.file.log
    timeouts = [n for n in game.unrequested if n not in asked and log[n - 1].timeout]
    pauses = [n for n in game.unrequested if n not in asked and n not in timeouts
              and isinstance(game.results[n - 1], Paused | Resumed)]
    automatic = len(game.unrequested) - len(records) - len(timeouts) - len(pauses)
    if timeouts:
        listed = ", ".join(f"record {n} ({log[n - 1].seat})" for n in timeouts)
        report.passed(f"{len(timeouts)} timeout{'s' if len(timeouts) > 1 else ''}, {listed}: "
                      "the seat's deadline ran out by the referee's clock (times that only "
                      "that seat's own tool can check against when it signed and saw)")
    if pauses:
        report.passed(f"{len(pauses)} pause{'s' if len(pauses) > 1 else ''} or resume"
                      f"{'s' if len(pauses) > 1 else ''} by the referee (records "
                      f"{', '.join(map(str, pauses))})")
    if automatic:
        report.passed(f"{counted(automatic, 'record')} without a request: "
                      f"{'moves' if automatic > 1 else 'a move'} the rules make by themselves "
                      "(checked by the replay)")
    if not records:
        return
    mine = [r.n for r in records if role is None or r.seat == role]
    others = [r for r in records if r.n not in mine]
    if mine:
        report.unasked = mine
        whose = "their seat's" if role is None else f"{role}'s"
        report.failed(f"record{'s' if len(mine) > 1 else ''} {', '.join(map(str, mine))} "
                      f"entered by the referee without {whose} signed request")
    if others:
        report.passed("entered by the referee without a signed request: " + ", ".join(
            f"record {r.n} ({r.seat})" for r in others) + " (only that seat can tell whether "
            "it asked)")


def _check_deal(game: Game, report: Report, secrets: dict[str, JSON] | None) -> None:
    """Re-derive a random deal from the seeds; ``secrets`` are the revealed ones (or ``None``)."""
    fairness = game.header.setup.fairness
    if fairness is None:
        if game.header.setup.dealt == "random":
            report.failed("deal: called random, but the header commits to no seed: nothing "
                          "shows that the deal was random")
        return
    deal = game.file.deal
    reveal = game.file.reveal
    seed = fairness.seed or (deal.seed if deal else None) or (reveal.seed if reveal else None)
    if seed is None:
        if secrets is not None:
            report.failed("reveal: the referee's dealing seed is missing")
        return
    if crypto.seed_commitment(game.game_id, seed) != fairness.seed_commitment:
        report.failed("deal: the referee's revealed seed does not match its commitment")
        return
    player_seeds = {join.seat: join.seed or "" for join in (deal.joins if deal else ())}
    chance = crypto.DerivedChance(crypto.deal_key(game.game_id, seed, player_seeds))
    public, derived = game.ruleset.deal(game.options, game.seats, chance)
    if public != game.file.dealing.public:
        report.failed("deal: the public setup differs from the one the seeds derive")
        return
    if secrets is not None and any(derived.get(s) != secrets.get(s) for s in derived):
        differing = ", ".join(s for s in derived if derived.get(s) != secrets.get(s))
        report.failed(f"deal: the hidden setup of {differing} differs from the one the seeds "
                      "derive")
        return
    who = (f"and the seeds that {', '.join(player_seeds)} added"
           if player_seeds else "alone (the seats did not add seeds)")
    report.passed(f"deal: re-derived ({crypto.SCHEME}) from the referee's committed seed "
                  f"{who}: it matches")


def _check_sealed(game: Game, report: Report, seat: str, key: crypto.PrivateKey | None) -> None:
    try:
        sealed = game.sealed_setup(seat)
    except FrogPbemError as exc:
        report.failed(exc.message)
        return
    readers = "+".join(game.readers_of(seat))
    if not sealed.addressed_to_exactly(game.recipients(seat)):
        report.failed(f"sealed setup of {seat} is not addressed to exactly {readers} and the "
                      "referee (by the age recipient stanzas)")
    else:
        report.passed(f"sealed setup of {seat}: its age stanzas name exactly {readers} and the "
                      "referee, and no other recipient")
    expected = setup_length(game.ruleset.secret_bound(game.options))
    try:
        length = crypto.plaintext_length(sealed.armored)
    except FrogPbemError as exc:
        report.failed(f"sealed setup of {seat}: {exc.message}")
        return
    if length != expected:
        report.failed(f"sealed setup of {seat} holds {length} bytes, not the {expected} every "
                      "setup is padded to: its length could tell something")
    else:
        report.passed(f"sealed setup of {seat} is padded to {expected} bytes, like every setup")
    if key is not None:
        try:
            opened = open_setup(game, seat, key)
        except FrogPbemError as exc:
            report.failed(f"sealed setup of {seat}: {exc.message}")
            return
        reveal = game.file.reveal
        revealed = reveal.secrets.get(seat) if reveal else None
        if revealed is not None and opened != revealed:
            report.failed(f"sealed setup of {seat} differs from the revealed one")
        else:
            report.passed(f"sealed setup of {seat} decrypted and matches its commitment")


def _sealed_to(game: Game, role: str | None, seat: str) -> bool:
    """Whether ``role``'s key can open ``seat``'s sealed setup: the referee's opens every
    one, a seat's only its own and its teammates'. (After the reveal anyone may *read*
    every setup, but a sealed copy still opens only with the keys it was sealed to:
    what a key cannot open is no fault of the game.)"""
    return role == REFEREE or (role is not None and role in game.readers_of(seat))


def audit(path: Path, key: crypto.PrivateKey | None = None, *, clock: Clock,
          bulk: bool = False) -> Report:
    """Everything about a finished game, re-checked from the revealed setup (``clock``: the
    time now, which no time in it may be ahead of; ``bulk``: one of many files audited)."""
    report = Report(str(path))
    game = _read(path, report, clock, bulk)
    if game is None:
        return report
    reveal = game.file.reveal
    if reveal is None:
        report.unfinished = True
        report.passed("the game has not ended (no reveal yet): its hidden setups cannot be "
                      "checked until then; 'frogpbem verify' checks a running game")
        return report
    report.passed(f"the setup was {setup_words(game)}")
    # a key of neither the referee nor a seat raises: it is no verdict on the game
    role = game.role(key) if key is not None else None
    secrets: dict[str, JSON] = {}
    commitments = game.file.dealing.commitments
    for seat in game.seats:
        if seat not in commitments:
            secrets[seat] = None
            continue
        revealed = reveal.secrets.get(seat)
        if revealed is None:
            report.failed(f"reveal: no secret for {seat}")
            return report
        if crypto.commitment(game.game_id, seat, revealed.salt, revealed.secret) != \
                commitments[seat]:
            report.failed(f"reveal: {seat}'s revealed setup does not match its commitment")
            return report
        report.passed(f"reveal: {seat}'s setup matches its commitment")
        _check_sealed(game, report, seat, key if _sealed_to(game, role, seat) else None)
        secrets[seat] = revealed.secret
    extra = set(reveal.secrets) - set(commitments)
    if extra:
        report.failed(f"reveal: secrets for seats without a commitment: {sorted(extra)}")
    _check_salts(game, report)
    _check_deal(game, report, secrets)
    try:
        game.ruleset.check_setup(game.options, game.seats, game.file.dealing.public, secrets)
        replayed = replay(game, secrets)
    except FrogPbemError as exc:
        report.failed(f"replay: {exc}")
        return report
    report.passed("replay: every result, score and turn of "
                  + counted(len(game.file.log), "record"))
    _check_unasked(game, report, replayed, None)
    outcome = game.ruleset.outcome(replayed.final)
    if outcome is None:
        report.failed("replay: the game is not over after the last record, yet it was revealed")
    elif outcome.to_json() != reveal.outcome:
        report.failed(f"reveal: outcome {reveal.outcome} should be {outcome.to_json()}")
    else:
        report.passed(f"end: {termination_words(game, outcome.termination)}; standing "
                      f"{outcome.standing_text()}")
    if game.file.requests:
        report.failed(f"{counted(len(game.file.requests), 'request')} pending after the end")
    if report.ok and outcome is not None:
        report.result = _result_of(game, outcome, reveal.at)
    return report


def _result_of(game: Game, outcome: Outcome, ended: str) -> GameResult:
    """The result of an audited game, each place with the seats that hold it."""
    header = game.header
    teams = {seat: game.ruleset.secret_readers(game.options, seat) for seat in game.seats}
    named = {(seat if len(mates) == 1 else "+".join(mates)): mates
             for seat, mates in teams.items()}
    return GameResult(
        header.game, header.hash, header.rules, header.created, ended, header.referee.key,
        tuple(Seated(party.seat or "", party.name, party.key) for party in header.seats),
        tuple((place.rank, tuple(named.get(place.seat, (place.seat,))))
              for place in outcome.standing),
        outcome.termination, header.tournament)


def audit_many(paths: Sequence[Path], key: crypto.PrivateKey | None = None,
               jobs: int = 1, *, clock: Clock) -> list[Report]:
    """:func:`audit` of each of ``paths``, in order; with ``jobs`` above 1, that many
    processes audit the files at once (0: one for each processor).

    Each process reads and checks its files whole, exactly as :func:`audit` does; only
    the order of the work changes. A file that cannot be read raises as :func:`audit`
    does. With a ``key`` (which cannot be handed to another process) the files are
    audited here, one after the other.
    """
    bulk = len(paths) > 1
    workers = min(jobs if jobs > 0 else os.cpu_count() or 1, len(paths))
    if workers <= 1 or key is not None:
        return [audit(path, key, clock=clock, bulk=bulk) for path in paths]
    import multiprocessing  # only here: a single audit starts without them
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return [audit(path, key, clock=clock, bulk=bulk) for path in paths]
    # the workers read in bulk: PyYAML's reader is loaded once, here, not by each of them
    from frogpbem.gamefile import yamlevents  # noqa: F401

    chunk = max(1, len(paths) // (4 * workers))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        done = list(pool.map(functools.partial(_audit_or_none, clock), paths,
                             chunksize=chunk))
    # a file that could not be read is read again here, so that it raises here
    return [report if report is not None else audit(path, clock=clock, bulk=bulk)
            for path, report in zip(paths, done, strict=True)]


def _audit_or_none(clock: Clock, path: Path) -> Report | None:
    """:func:`audit` in a worker process; ``None`` where it raised (it is redone in the
    parent process, which then raises the same error)."""
    try:
        return audit(path, clock=clock, bulk=True)
    except FrogPbemError:
        return None


def verify(path: Path, session: Session, key: crypto.PrivateKey | None = None,
           against: Path | None = None, seen: SeenGames | None = None) -> Report:
    """A running game: signatures, chain, and what the key's holder can check.

    With ``seen`` (this user's memory of the game), also that the copy neither
    forks from nor rolls back the copies seen before; with ``against`` (another
    copy of the game), that the two copies hold one history (a fork's proof is saved
    in the ``session``'s home).
    """
    report = Report(str(path))
    game = _read(path, report, session.clock)
    if game is not None:
        if seen is not None:
            try:
                late = seen.see(game)
                report.passed("no fork, no rollback: it extends every copy of this game "
                              "seen here before")
                report.checks += [Check(True, words.removeprefix("WARNING: "), warning=True)
                                  for words in late]
            except (ForkError, StaleCopyError, ChainError, GameFileError) as exc:
                report.failed(f"{exc.element} {exc.message}" if exc.element else exc.message)
        _verify_game(game, report, key)
    if against is not None:
        compare_copies(path, against, report, seen or session.seen)
    return report


def compare_copies(path_a: Path, path_b: Path, report: Report, seen: SeenGames) -> None:
    """Whether two copies hold one history; a fork's proof is saved with ``seen``."""
    file_a, file_b = read_game(path_a), read_game(path_b)
    for file, path in ((file_a, path_a), (file_b, path_b)):
        problems = chain.check_chain(file).problems
        if problems:
            report.failed(f"{path}: {problems[0]}")
            return
    if file_a.game != file_b.game or not file_a.header.referee.public_key.same_key(
            file_b.header.referee.public_key):
        report.failed(f"{path_b} is not a copy of game {file_a.game} by the same referee")
        return
    found = conflict(file_a, file_b)
    if found is not None:
        proof = ForkProof.of(file_a.game, file_a.header.referee.public_key, *found)
        first, second = found
        report.failed(
            f"FORK: {proof.position} of game {file_a.game} is signed by the referee twice "
            f"with different content:\n  {path_a}: {_short(first)}\n  {path_b}: "
            f"{_short(second)}\nboth signatures verify: the referee showed different "
            f"histories; proof saved to {seen.save_proof(proof)}")
        return
    report.passed(f"no fork: {path_b} holds the same history as far as both copies go "
                  f"(records: {len(file_b.log)} and {len(file_a.log)})")


def _short(element: Element) -> str:
    """An element in a few words, for a fork's report."""
    if isinstance(element, Record):
        return f"{safe(element.seat)} {safe(element.move)} {element.result}"
    return f"{element.KIND} {element.hash[:19]}…"


def check_proof(path: Path) -> Report:
    """A saved fork proof, checked: both signatures, one place, two contents."""
    report = Report(str(path), holds="the proof holds: the referee signed two histories")
    try:
        proof = ForkProof.parse(read_bytes(path, 1 << 20).decode("utf-8", "replace"))
    except FileAccessError:
        raise
    except FrogPbemError as exc:
        report.failed(f"not a valid fork proof: {exc.message}")
        return report
    report.passed(f"fork proof: the referee key {proof.referee.fingerprint} signed two "
                  f"different {proof.position}s of game {proof.game}; both signatures "
                  "verify")
    return report


def _verify_game(game: Game, report: Report, key: crypto.PrivateKey | None) -> None:
    # a key of neither the referee nor a seat raises: it is no verdict on the game
    role = game.role(key) if key is not None else None
    try:
        secrets = known_secrets(game, role, key)
    except FrogPbemError as exc:
        report.failed(exc.message)
        return
    report.passed(f"the setup was {setup_words(game)}")
    for seat, secret in secrets.items():
        if secret is not None and game.file.reveal is None:
            report.passed(f"{seat}'s sealed setup decrypts and matches its commitment")
    if game.undealt:
        report.passed(f"not dealt yet: waiting for {', '.join(game.waiting_for) or 'the deal'}")
        return
    if not game.file.dealing.commitments:  # nothing hidden: the deal can be checked now
        _check_deal(game, report, None)
    try:
        replayed = replay(game, secrets)
    except FrogPbemError as exc:
        report.failed(f"replay: {exc}")
        return
    state = replayed.final
    knows = "every seat's setup" if role == REFEREE or game.file.reveal else (
        f"{role}'s setup" if role else "public information only"
    )
    report.passed(
        f"replay with {knows}: every result is possible, every score and turn right"
    )
    _check_unasked(game, report, replayed, role if role not in (None, REFEREE) else "")
    outcome = game.ruleset.outcome(state)
    reveal = game.file.reveal
    if outcome is not None and reveal is not None and outcome.to_json() != reveal.outcome:
        report.failed("reveal: the outcome differs from the replay's")


__all__ = ["Check", "Report", "audit", "check_proof", "compare_copies", "verify"]
