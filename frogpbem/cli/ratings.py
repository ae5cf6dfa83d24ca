"""The command that rates players over audited games: ratings.

It imports the library in its body, as every command does (see
:mod:`frogpbem.cli.checks`): openskill and the audit load only when it runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from frogpbem.cli.output import echo, reported
from frogpbem.cli.params import ForceOption, JsonOption, check_page, page_option


def ratings(
    paths: Annotated[list[Path], typer.Argument(
        metavar="DIR-OR-GAME...",
        help="Folders (their *.yaml files, not their subfolders) and game files.")],
    html: Annotated[Path | None, page_option(
        "the table and each player's rating chart")] = None,
    force: ForceOption = False,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Audit every file again (the verdicts kept are neither read nor "
                           "written).")] = False,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=0,
        help="Audit this many files at once, in as many processes (0: one for each "
             "processor).")] = 0,
    model: Annotated[str, typer.Option(
        help="The openskill model: PlackettLuce, BradleyTerryFull, BradleyTerryPart, "
             "ThurstoneMostellerFull or ThurstoneMostellerPart.")] = "PlackettLuce",
    as_json: JsonOption = False,
) -> None:
    """Rate the players of the games that an audit finds hold and finished.

    Every file is audited (its verdict kept, by the hash of its bytes, so that the
    next run audits only new or changed files); a file that does not hold, an
    unfinished game, a view file or anything else is listed with its reason and never
    counted. The games are rated in the order they ended, with openskill: many seats,
    teams and ties. A player is their key, shown by their latest name; the rating is
    mu - 3 sigma.
    """
    from frogpbem.gamefile.document import write_atomic
    from frogpbem.protocol.session import state_from_environment
    from frogpbem.protocol.times import Clock
    from frogpbem.ratings import (
        game_files,
        model_of,
        rate_files,
        ratings_html,
        ratings_text,
    )
    from frogpbem.verdicts import AuditCache

    with reported(as_json):
        model_of(model)
        check_page(html, force)
        files = game_files(paths)
        cache = None if no_cache else AuditCache(state_from_environment())
        table = rate_files(files, clock=Clock.from_environment(), cache=cache, jobs=jobs,
                           model=model)
        if html is not None:
            write_atomic(html, ratings_html(table).encode())
        text = ratings_text(table) + (f"\npage: {html}" if html is not None else "")
        echo(json.dumps(table.to_json(), indent=2) if as_json else text)
