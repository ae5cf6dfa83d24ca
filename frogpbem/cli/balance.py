"""The command that reports how fair a ruleset is, from simulate's results files: balance.

It imports the library in its body, as every command does (see
:mod:`frogpbem.cli.checks`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from frogpbem.cli.output import echo, reported
from frogpbem.cli.params import ForceOption, JsonOption, check_page, page_option


def balance(
    paths: Annotated[list[Path], typer.Argument(
        metavar="RESULTS.jsonl...",
        help="Results files of 'frogpbem simulate --out'.")],
    html: Annotated[Path | None, page_option(
        "each group's charts and table")] = None,
    force: ForceOption = False,
    as_json: JsonOption = False,
) -> None:
    """How fair each ruleset is, from games between bots: each seat's (or team's) wins with
    95 % intervals against a fair share, the draws, the average points and the games'
    lengths, beside BrainKing's human players where there are figures.

    The games of the files are grouped by rules, options, seats and bots; a game in two
    files counts once. Exit status 0; 7 for a file that is no results file, 9 for one
    that cannot be read or a page that exists already (without --force).
    """
    from frogpbem.balance import balance as report
    from frogpbem.balance import balance_html, balance_text
    from frogpbem.gamefile.document import write_atomic

    with reported(as_json):
        check_page(html, force)
        reports = report(paths)
        if html is not None:
            write_atomic(html, balance_html(reports).encode())
        text = balance_text(reports) + (f"\npage: {html}" if html is not None else "")
        echo(json.dumps([r.to_json() for r in reports], indent=2) if as_json else text)
