"""The typer app: every command's options, help and usage errors in one definition."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from frogpbem import __version__
from frogpbem.cli import balance, bots, checks, game, mailing, ratings, tournament
from frogpbem.cli.params import RegistryHelp

HELP = "Play hidden-information board games by email with a signed, auditable referee."
SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="frogpbem",
    help=HELP,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help and errors: no rich import for --help
    context_settings=SETTINGS,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"frogpbem {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Play hidden-information board games by email with a signed, auditable referee."""


# every command, in the order --help lists them
for _command in (game.keygen, game.new, game.join, game.setup, game.deal, game.move, game.note,
                 game.view, game.hint, checks.verify, checks.audit, mailing.mail,
                 mailing.receive, mailing.reply, game.timeout, game.pause, game.resume,
                 mailing.judge, checks.record, ratings.ratings, bots.simulate, balance.balance,
                 bots.play,
                 bots.demo):
    app.command(cls=RegistryHelp)(_command)
app.add_typer(tournament.app)


def main() -> None:
    """Typer's reading of the command line (the console script, :func:`frogpbem.cli.main`,
    reads the commonest commands itself and leaves the rest to this).

    Building the whole typer app inspects every command's signature, a good
    part of each run's start-up; when the first argument names a command, an
    app of that command alone is built with typer's public API (its help and
    errors read the same). Anything else (``--help``, ``--version``,
    completion, a wrong name) goes to the whole app.
    """
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    callback = COMMANDS.get(wanted)
    if callback is None:
        app()
        return
    single = typer.Typer(name="frogpbem", help=HELP, add_completion=False,
                         pretty_exceptions_enable=False, rich_markup_mode=None,
                         context_settings=SETTINGS)
    single.callback()(main_options)
    single.command(wanted, cls=RegistryHelp)(callback)
    single()


COMMANDS = {(info.name or info.callback.__name__): info.callback
            for info in app.registered_commands if info.callback is not None}
"""Each command's function by name."""
