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
        help="The bots, one for every seat or one for all: random, greedy, strong, "
             "expert (e.g. expert,strong).")] = "strong",
    swap: Annotated[bool, typer.Option(
        "--swap", help="Two bots change seats every other game.")] = False,
    seed: Annotated[int, typer.Option(help="Game i is dealt and played from seed+i.")] = 0,
    seats: Annotated[int | None, typer.Option(help="Number of seats (coan: 2 to 6).")] = None,
    option: Annotated[
        list[str], typer.Option(help="NAME=VALUE: a rules option (size=8, teams=...).")
    ] = [],  # noqa: B006
    records: Annotated[Path | None, typer.Option(
        help="Write the moves of each game played into this folder.")
    ] = None,
    jobs: Annotated[int, typer.Option(
        min=0, help="How many processes play (0: every core; 1: this one).")] = 0,
    out: Annotated[Path | None, typer.Option(
        help="Add each game's result to this JSON lines file as it ends; run again with "
             "the same file to go on where it stopped (docs/simulate.md).")] = None,
    cluster: Annotated[str | None, typer.Option(
        help="Play on the Dask scheduler at this address, or 'local': a Dask local cluster "
             "of --jobs workers (pip install 'frogpbem[cluster]').")] = None,
    as_json: JsonOption = False,
) -> None:
    """Play games between bots on this machine's cores or a Dask cluster (no keys) and tally
    them: each seat's wins with a 95 % interval, draws, average points."""
    import signal
    import threading

    from frogpbem.simulate import Stopped
    from frogpbem.simulate import simulate as run

    def note(line: str) -> None:
        typer.echo(f"frogpbem: {line}", err=True)

    def stop(*_: object) -> None:
        raise KeyboardInterrupt  # a kill stops the workers and leaves whole lines, as Ctrl-C

    with reported(as_json):
        progress = None
        if not as_json and sys.stderr.isatty():
            from rich.console import Console  # rich only for the progress bar
            from rich.progress import Progress

            bar = Progress(transient=True, console=Console(stderr=True))
            task = bar.add_task(f"{rules}: playing", total=games)

            def progress(done: int) -> None:
                if not bar.live.is_started:  # its thread started after the workers' fork
                    bar.start()
                bar.update(task, completed=done)
        main = threading.current_thread() is threading.main_thread()  # signals: there only
        previous = signal.signal(signal.SIGTERM, stop) if main else None
        try:
            tally = run(rules, games, [b.strip() for b in bots.split(",")], seed,
                        pairs(option, "--option"), seats, swap, progress, records, jobs=jobs,
                        out=out, cluster=cluster, note=note)
        except Stopped as stopped:
            note(f"stopped: {stopped.path} holds {stopped.games} of the {games} games; "
                 "the same command goes on")
            raise SystemExit(130) from None
        finally:
            if main:
                signal.signal(signal.SIGTERM, previous)
            if progress is not None:
                bar.stop()
        emit(tally.to_json(), as_json, tally.table())


def play(
    rules: Annotated[str, typer.Option(help=RULES_HELP)] = "frogfinder",
    vs: Annotated[str, typer.Option(
        help="Your opponents: bot (the expert one), or random, greedy, strong, expert.")] = "bot",
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
        play_terminal(rules, seat, "expert" if vs == "bot" else vs, seed, ask,
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
    bot: Annotated[str, typer.Option(
        help="The bots: random, greedy, strong or expert.")] = "strong",
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
