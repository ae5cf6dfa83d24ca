"""The commands where bots play: simulate, play (against you), demo.

Each command imports the library it calls in its body: the typer app is built
from every command's signature at each run, and importing the whole library
with them would add a fifth of a second to every command and to ``--help``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from frogpbem.cli import output
from frogpbem.cli.output import emit, reported
from frogpbem.cli.params import RULES_HELP, JsonOption, pairs


def simulate(
    rules: Annotated[str, typer.Option(help=RULES_HELP)] = "frogfinder",
    games: Annotated[int, typer.Option(min=1, help="How many games.")] = 100,
    bots: Annotated[str, typer.Option(
        help="The bots, one for every seat or one for all: random, greedy, strong "
             "(e.g. strong,greedy).")] = "strong",
    swap: Annotated[bool, typer.Option(
        "--swap", help="Two bots change seats every other game.")] = False,
    seed: Annotated[int, typer.Option(help="Game i is dealt and played from seed+i.")] = 0,
    seats: Annotated[int | None, typer.Option(help="Number of seats (coan: 2 to 6).")] = None,
    option: Annotated[
        list[str], typer.Option(help="NAME=VALUE: a rules option (size=8, teams=...).")
    ] = [],  # noqa: B006
    records: Annotated[Path | None, typer.Option(
        help="Write each game's moves into this folder (otherwise nothing is written).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Play games between bots on this machine (no keys, no files) and tally them: each
    seat's wins with a 95 % interval, draws, average points."""
    from frogpbem.simulate import simulate as run

    with reported(as_json):
        progress = None
        if not as_json and sys.stderr.isatty():
            from rich.console import Console  # rich only for the progress bar
            from rich.progress import Progress

            bar = Progress(transient=True, console=Console(stderr=True))
            task = bar.add_task(f"{rules}: playing", total=games)
            bar.start()

            def progress(done: int) -> None:
                bar.update(task, completed=done)
        try:
            tally = run(rules, games, [b.strip() for b in bots.split(",")], seed,
                        pairs(option, "--option"), seats, swap, progress, records)
        finally:
            if progress is not None:
                bar.stop()
        emit(tally.to_json(), as_json, tally.table())


def play(
    rules: Annotated[str, typer.Option(help=RULES_HELP)] = "frogfinder",
    vs: Annotated[str, typer.Option(
        help="Your opponents: bot (the strong one), or random, greedy, strong.")] = "bot",
    seat: Annotated[str | None, typer.Option(help="Your seat (default: the first).")] = None,
    seats: Annotated[int | None, typer.Option(help="Number of seats (coan: 2 to 6).")] = None,
    option: Annotated[
        list[str], typer.Option(help="NAME=VALUE: a rules option (size=8, teams=...).")
    ] = [],  # noqa: B006
    seed: Annotated[int | None, typer.Option(help="Seed for the deal and the bots.")] = None,
) -> None:
    """Play a game against bots on this terminal, with the referee built in (no keys, no
    files). Type moves as in a game by email; quit leaves."""
    from frogpbem.pictures.terminal import painter
    from frogpbem.simulate import play_terminal

    colour = output.colour()

    def paint(board: Any, last: tuple[str, str] | None) -> Any:
        if colour is None:
            return None
        return painter(board, last, colour)

    def ask(prompt: str) -> str:
        try:
            return str(typer.prompt(prompt))
        except typer.Abort:  # end of input
            return "quit"

    with reported(False):
        play_terminal(rules, seat, "strong" if vs == "bot" else vs, seed, ask,
                      lambda line: typer.echo(line, color=colour is not None or None),
                      pairs(option, "--option"), seats, paint)


def demo(
    folder: Annotated[
        Path, typer.Argument(metavar="FOLDER", help="Where to put keys and game files.")
    ] = Path("frogpbem-demo"),
    rules: Annotated[str, typer.Option(help=RULES_HELP)] = "frogfinder",
    seed: Annotated[int | None, typer.Option(help="Seed for the bots' choices.")] = None,
    seats: Annotated[
        int | None, typer.Option(help="Number of seats (coan: 2 to 6).")
    ] = None,
    option: Annotated[
        list[str], typer.Option(help="NAME=VALUE: a rules option (teams=red+black,blue+purple).")
    ] = [],  # noqa: B006
    moves: Annotated[int | None, typer.Option(
        min=0, help="Stop after this many moves, leaving the game unfinished.")] = None,
    bot: Annotated[str, typer.Option(help="The bots: random, greedy or strong.")] = "strong",
    as_json: JsonOption = False,
) -> None:
    """Play a whole game between bots through the real flow, then audit it."""
    from frogpbem.demo import play_demo
    from frogpbem.protocol.session import Session

    with reported(as_json), Session.from_environment() as session:
        result = play_demo(folder, rules, seed, echo=None if as_json else typer.echo,
                           seats=seats, options=pairs(option, "--option"), moves=moves,
                           bot=bot, session=session)
        if as_json:
            typer.echo(json.dumps(result.to_json(), indent=2))
        if not result.audit.ok:
            raise typer.Exit(1)
