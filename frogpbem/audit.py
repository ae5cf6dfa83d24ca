"""Audit a finished game, or verify one still running.

Both report a list of checks in plain words, each passed or failed, so that
a tournament director sees every result, not only the first problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import FrogPbemError
from frogpbem.game import REFEREE, Game, known_secrets, open_secret, replay, ruleset_of
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import parse_game, read_bytes


@dataclass
class Check:
    """One line of a report."""

    ok: bool
    what: str

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "what": self.what}


@dataclass
class Report:
    """The verdict on one game file."""

    path: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def passed(self, what: str) -> None:
        self.checks.append(Check(True, what))

    def failed(self, what: str) -> None:
        self.checks.append(Check(False, what))

    def to_json(self) -> dict[str, Any]:
        return {"file": self.path, "ok": self.ok, "checks": [c.to_json() for c in self.checks]}

    def text(self) -> str:
        lines = [f"{self.path}:"]
        lines += [f"  {'ok  ' if c.ok else 'FAIL'} {c.what}" for c in self.checks]
        lines.append(f"  verdict: {'everything holds' if self.ok else 'DOES NOT HOLD'}")
        return "\n".join(lines)


def _read(path: Path, report: Report) -> Game | None:
    """Format, schema, signatures and chain; ``None`` when the file cannot be used further."""
    try:
        doc = parse_game(read_bytes(path), str(path))
        ruleset = ruleset_of(doc, path)
        chain_report = chain.check_chain(doc)
    except FrogPbemError as exc:
        report.failed(str(exc))
        return None
    report.passed(f"format version 1, strict YAML, schema; rules {ruleset.name}")
    for problem in chain_report.problems:
        report.failed(str(problem))
    if chain_report.problems:
        return None
    log = doc["log"]
    report.passed(
        f"signatures and chain: header, {len(log)} records"
        + (", reveal" if doc["reveal"] else "")
        + f"; head {chain_report.head[:19]}…"
    )
    requested = len(log) - chain_report.unrequested
    report.passed(
        f"{requested} of {len(log)} moves came as signed requests of their seat"
        f"; {chain_report.unrequested} entered by the referee without one"
    )
    game = Game(path, doc, ruleset, chain_report.head, chain_report.unrequested)
    _check_notes(game, report)
    return game


def _check_notes(game: Game, report: Report) -> None:
    """Team notes: signed by their author (checked with the chain), sealed to its team only."""
    notes = game.doc.get("notes", [])
    if not notes:
        return
    keys = chain.seat_keys(game.doc)
    for index, note in enumerate(notes):
        team = list(game.ruleset.secret_readers(game.options, note["seat"]))
        try:
            addressed = crypto.sealed_to_exactly(note["sealed"], [keys[s] for s in team])
        except FrogPbemError as exc:
            report.failed(f"note {index + 1} (by {note['seat']}): {exc}")
            continue
        if note["to"] != team or not addressed:
            report.failed(f"note {index + 1} (by {note['seat']}) is not sealed to exactly "
                          f"{'+'.join(team)}")
            return
    report.passed(f"{len(notes)} team notes: signed by their authors, sealed to their teams "
                  "only (not read)")


def _check_deal(game: Game, report: Report, secrets: dict[str, Any] | None) -> None:
    """Re-derive a random deal from the seeds; ``secrets`` are the revealed ones (or ``None``)."""
    fairness = game.header["setup"].get("fairness")
    if fairness is None:
        return
    deal = game.doc.get("deal") or {}
    reveal = game.doc["reveal"] or {}
    seed = fairness.get("seed") or deal.get("seed") or reveal.get("seed")
    if seed is None:
        if secrets is not None:
            report.failed("reveal: the referee's dealing seed is missing")
        return
    if crypto.seed_commitment(game.game_id, seed) != fairness["seed_commitment"]:
        report.failed("deal: the referee's revealed seed does not match its commitment")
        return
    player_seeds = {join["seat"]: join["seed"] for join in deal.get("joins", [])}
    chance = crypto.DerivedChance(crypto.deal_key(game.game_id, seed, player_seeds))
    public, derived = game.ruleset.deal(game.options, game.seats, chance)
    if public != game.setup["public"]:
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
    setup = game.setup
    keys = chain.seat_keys(game.doc)
    readers = game.ruleset.secret_readers(game.options, seat)
    recipients = [keys[r] for r in readers] + [chain.referee_key(game.doc)]
    try:
        addressed = crypto.sealed_to_exactly(setup["sealed"][seat], recipients)
    except FrogPbemError as exc:
        report.failed(f"sealed setup of {seat}: {exc}")
        return
    if not addressed:
        report.failed(f"sealed setup of {seat} is not addressed to exactly {seat} and the referee")
    else:
        report.passed(f"sealed setup of {seat} is addressed to {seat} and the referee")
    if key is not None:
        try:
            opened = open_secret(game, seat, key)
        except FrogPbemError as exc:
            report.failed(f"sealed setup of {seat}: {exc}")
            return
        revealed = (game.doc["reveal"] or {}).get("secrets", {}).get(seat)
        if revealed is not None and opened != revealed:
            report.failed(f"sealed setup of {seat} differs from the revealed one")
        else:
            report.passed(f"sealed setup of {seat} decrypted and matches its commitment")


def audit(path: Path, key: crypto.PrivateKey | None = None) -> Report:
    """Everything about a finished game, re-checked from the revealed setup."""
    report = Report(str(path))
    game = _read(path, report)
    if game is None:
        return report
    setup = game.setup
    dealt = game.header["setup"]["dealt"]
    reveal = game.doc["reveal"]
    if reveal is None:
        report.failed("the game has no reveal: it is not finished (use 'verify' while it runs)")
        return report
    report.passed(
        "the setup was " + {"random": "dealt at random",
                            "players": "chosen by each seat itself, sealed to it and the referee"
                            }.get(dealt, "chosen, not dealt (a set position)")
    )
    opener = None
    if key is not None:
        try:
            role = game.role(key)
        except FrogPbemError as exc:
            report.failed(str(exc))
            return report
        opener = role
    secrets: dict[str, Any] = {}
    for seat in game.seats:
        if seat not in setup["commitments"]:
            secrets[seat] = None
            continue
        revealed = reveal["secrets"].get(seat)
        if revealed is None:
            report.failed(f"reveal: no secret for {seat}")
            return report
        made = crypto.commitment(game.game_id, seat, revealed["salt"], revealed["secret"])
        if made != setup["commitments"][seat]:
            report.failed(f"reveal: {seat}'s revealed setup does not match its commitment")
            return report
        report.passed(f"reveal: {seat}'s setup matches its commitment")
        can_open = opener == REFEREE or (
            opener is not None and opener in game.ruleset.secret_readers(game.options, seat)
        )
        _check_sealed(game, report, seat, key if can_open else None)
        secrets[seat] = revealed["secret"]
    extra = set(reveal["secrets"]) - set(setup["commitments"])
    if extra:
        report.failed(f"reveal: secrets for seats without a commitment: {sorted(extra)}")
    _check_deal(game, report, secrets)
    try:
        game.ruleset.check_setup(game.options, game.seats, setup["public"], secrets)
        replayed = replay(game, secrets)
    except FrogPbemError as exc:
        report.failed(f"replay: {exc}")
        return report
    report.passed(f"replay: every result, score and turn of {len(game.doc['log'])} records")
    outcome = game.ruleset.outcome(replayed.final)
    if outcome is None:
        report.failed("replay: the game is not over after the last record, yet it was revealed")
    elif outcome.to_json() != reveal["outcome"]:
        report.failed(
            f"reveal: outcome {reveal['outcome']} should be {outcome.to_json()}"
        )
    else:
        report.passed(f"end: {outcome.termination}; standing {_standing(outcome.to_json())}")
    if game.doc["requests"]:
        report.failed(f"{len(game.doc['requests'])} requests pending after the end")
    return report


def verify(path: Path, key: crypto.PrivateKey | None = None) -> Report:
    """A running game: signatures, chain, and what the key's holder can check."""
    report = Report(str(path))
    game = _read(path, report)
    if game is None:
        return report
    role = None
    if key is not None:
        try:
            role = game.role(key)
        except FrogPbemError as exc:
            report.failed(str(exc))
            return report
    try:
        secrets = (known_secrets(game, role, key) if role and key else
                   dict.fromkeys(game.seats))
    except FrogPbemError as exc:
        report.failed(str(exc))
        return report
    for seat, secret in secrets.items():
        if secret is not None:
            report.passed(f"{seat}'s sealed setup decrypts and matches its commitment")
    if game.undealt:
        report.passed(f"not dealt yet: waiting for {', '.join(game.waiting_for) or 'the deal'}")
        return report
    if not game.setup["commitments"]:  # nothing hidden: the deal can be checked now
        _check_deal(game, report, None)
    try:
        state = replay(game, secrets).final
    except FrogPbemError as exc:
        report.failed(f"replay: {exc}")
        return report
    knows = "every seat's setup" if role == REFEREE else (
        f"{role}'s setup" if role else "public information only"
    )
    report.passed(
        f"replay with {knows}: every result is possible, every score and turn right"
    )
    outcome = game.ruleset.outcome(state)
    if outcome is not None and game.doc["reveal"] is not None:
        if outcome.to_json() != game.doc["reveal"]["outcome"]:
            report.failed("reveal: the outcome differs from the replay's")
    return report


def _standing(outcome: dict[str, Any]) -> str:
    return ", ".join(f"{p['rank']}. {p['seat']} {p['points']}" for p in outcome["standing"])
