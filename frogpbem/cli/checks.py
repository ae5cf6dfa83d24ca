"""The commands that check a game and write it down: verify, audit, record.

Each command imports the library it calls in its body: the typer app is built
from every command's signature at each run, and importing the whole library
with them would add a fifth of a second to every command and to ``--help``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from frogpbem.cli.keys import load_key
from frogpbem.cli.output import emit, reported
from frogpbem.cli.params import JsonOption, KeyOption
from frogpbem.errors import FrogPbemError, UsageError

if TYPE_CHECKING:
    from frogpbem.audit import Report


def verify(
    game: Annotated[Path | None, typer.Argument(metavar="GAME", help="The game file.")] = None,
    key: KeyOption = None,
    export: Annotated[
        Path | None,
        typer.Option(help="Write each signed element, its .sig and allowed_signers into this "
                          "new (or empty) folder."),
    ] = None,
    against: Annotated[
        Path | None, typer.Option(help="Another copy: print proof if the referee forked history.")
    ] = None,
    proof: Annotated[
        Path | None, typer.Option(help="Check a saved fork proof instead of a game.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Check signatures and chain; with a seat's key, its setup and every result it can check.

    Every copy checked is compared with the copies of the same game seen on
    this machine before: a fork (the referee signed two histories) fails with
    a proof saved for anyone to check (--proof), a rollback (an older copy)
    fails too.
    """
    from frogpbem.cli import duel

    if game is not None and duel.is_duel_file(game):
        with reported(as_json):
            if proof is not None:
                raise UsageError("give a game file to verify, or --proof FILE (not both)")
            duel.verify(game, as_json, export, against)
        return
    if game is None and proof is not None and key is None and export is None and \
            against is None:
        with reported(as_json):
            if duel.check_proof(proof, as_json):
                return
    from frogpbem.audit import check_proof
    from frogpbem.audit import verify as do_verify
    from frogpbem.export import export_signatures
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        if (game is None) == (proof is None):
            raise UsageError("give a game file to verify, or --proof FILE (not both)")
        if proof is not None:
            if key is not None or export is not None or against is not None:
                raise UsageError("--proof checks a proof alone: no --key, --export or --against")
            report = check_proof(proof)
            emit(report.to_json(), as_json, report.text())
            if not report.ok:
                raise typer.Exit(1)
            return
        assert game is not None
        private = load_key(key) if key is not None or os.environ.get("FROGPBEM_KEY") else None
        report = do_verify(game, session, private, against, session.seen)
        data = report.to_json()
        text = report.text()
        if export is not None and report.ok:
            written = export_signatures(game, export)
            data.update(exported=[w.to_json() for w in written])
            text += f"\nexported {len(written)} signed elements to {export}; check one with:\n"
            text += f"  {written[0].command}" if written else ""
        emit(data, as_json, text)
        if not report.ok:
            raise typer.Exit(1)


def audit(
    games: Annotated[list[Path], typer.Argument(metavar="GAME...", help="Finished game files.")],
    key: Annotated[
        Path | None,
        typer.Option("--key", "-k", help="Optional: also decrypt the sealed setups this key can."),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0,
                          help="Audit this many files at once, in as many processes "
                               "(0: one for each processor; not with --key).")
    ] = 1,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Keep no verdict for 'frogpbem ratings'.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Re-check a finished game: signatures, chain, commitments, every result and point.

    Exit status 0 when everything holds, 1 when something does not, 10 when a
    game has not ended yet (nothing wrong found so far). A game without a referee is
    audited message by message: the proofs each carried, and what rests on a reveal.
    The result of each finished game that holds is kept on this machine, by the hash
    of the file's bytes, so that 'frogpbem ratings' need not audit it again.
    """
    from frogpbem.audit import audit_many
    from frogpbem.cli import duel
    from frogpbem.protocol.times import Clock

    with reported(as_json):
        private = load_key(key) if key is not None else None
        clock = Clock.from_environment()
        duels = [duel.is_duel_file(game) for game in games]
        refereed = iter(audit_many([g for g, d in zip(games, duels, strict=True) if not d],
                                   private, jobs, clock=clock))
        if any(duels):
            from frogpbem.duel.audit import audit_duel

            reports = [audit_duel(game, clock=clock) if is_duel else next(refereed)
                       for game, is_duel in zip(games, duels, strict=True)]
        else:
            reports = list(refereed)
        if not no_cache:
            _keep_verdicts(reports)
        if as_json:
            typer.echo(json.dumps([r.to_json() for r in reports], indent=2))
        else:
            typer.echo("\n".join(r.text() for r in reports))
        status = max(r.exit_status() for r in reports)
        worst = 1 if any(r.exit_status() == 1 for r in reports) else status
        if worst:
            raise typer.Exit(worst)


def _keep_verdicts(reports: list[Report]) -> None:
    """Keep the result of each report that gives one, by the digest of the bytes audited
    (:mod:`frogpbem.verdicts`); a verdict that cannot be kept costs a later audit only."""
    from frogpbem.protocol.session import state_from_environment
    from frogpbem.verdicts import AuditCache

    held = [(r.digest, r.result) for r in reports
            if r.result is not None and r.digest is not None]
    if not held:
        return
    try:
        cache = AuditCache(state_from_environment())
        for digest, result in held:
            cache.put(digest, result)
        cache.save()
    except (OSError, FrogPbemError):
        pass


def record(
    game: Annotated[Path, typer.Argument(metavar="GAME", help="The game file.")],
    as_json: JsonOption = False,
    fmt: Annotated[str, typer.Option(
        "--format", help="text (PGN-like), json, or html: a page that steps through the moves "
                         "on the public board, with the reveal at the end.")] = "text",
) -> None:
    """Print the game as a PGN-like record (or as data, or as a page to step through)."""
    from frogpbem.protocol.game import load
    from frogpbem.protocol.session import Session
    from frogpbem.record import game_record, record_html, record_json

    with reported(as_json):
        if fmt not in ("text", "json", "html"):
            raise UsageError(f"--format must be text, json or html, got {fmt!r}")
        if as_json and fmt == "html":
            raise UsageError("--json and --format html ask for two formats: give one")
        from frogpbem.cli import duel

        if duel.is_duel_file(game):
            duel.record(game, as_json, fmt)
            return
    with reported(as_json), Session.from_environment() as session:
        loaded = load(game, session)
        if as_json or fmt == "json":
            typer.echo(json.dumps(record_json(loaded), indent=2))
        else:
            typer.echo((record_html if fmt == "html" else game_record)(loaded), nl=False)
