"""What several commands share: their common options, the help that names the rulesets,
and reading ``NAME=VALUE`` pairs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand, TyperOption

from frogpbem.errors import FileAccessError, GameFileError, UsageError

if TYPE_CHECKING:  # typer's own copy of click: the types format_help is given
    from typer._click import Context, HelpFormatter

    from frogpbem.gamefile.model import Deadline

KeyOption = Annotated[
    Path | None,
    typer.Option(
        "--key", "-k",
        help="Your OpenSSH Ed25519 private key (default: $FROGPBEM_KEY, then ~/.ssh/id_ed25519).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the report as JSON.")]
ForceOption = Annotated[bool, typer.Option(
    "--force", help="Let --html replace a file that exists.")]


def page_option(what: str) -> Any:
    """A report's ``--html FILE`` option: ``what`` the page holds besides the report."""
    return typer.Option("--html", metavar="FILE", help=f"Also write a page of its own: {what}.")


def check_page(html: Path | None, force: bool) -> None:
    """Refuse, before any work, to replace a page that exists unless ``force``."""
    if html is not None and html.exists() and not force:
        raise FileAccessError("exists already: give --force to replace it", path=html)


def pairs(values: list[str], what: str) -> dict[str, str]:
    """``NAME=VALUE`` options (``--seat``, ``--option``…) by name; each name once."""
    found: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"{what} must be written NAME=VALUE, got {value!r}")
        if name.strip() in found:  # the last would silently win
            raise UsageError(f"{what} {name.strip()}=… is given twice")
        found[name.strip()] = rest.strip()
    return found


def deadline_of(options: dict[str, str]) -> Deadline | None:
    """The ``deadline`` and ``on_timeout`` of ``--option``, taken out of ``options``."""
    from frogpbem.gamefile.model import Deadline

    if "deadline" not in options and "on_timeout" not in options:
        return None
    if "deadline" not in options:
        raise UsageError("--option on_timeout needs --option deadline=72h (or 3d, 90m)")
    try:
        return Deadline.parse(options.pop("deadline"), options.pop("on_timeout", "forfeit"))
    except GameFileError as exc:
        raise UsageError(exc.message) from None


RULES_HELP = "The ruleset: {rules}."
"""The help of ``--rules``; :class:`RegistryHelp` names the rulesets when it is shown."""
OPTION_HELP = ("NAME=VALUE: a rules option. {options}. Any game: deadline=72h (or 3d, 90m) "
               "and on_timeout=forfeit or pass.")
"""The help of ``new --option``; :class:`RegistryHelp` fills in each ruleset's options."""


def rules_help(with_options: bool = True) -> dict[str, str]:
    """Each ruleset the games registry knows, and its options in words (``none``); without
    ``with_options``, the names alone (no rules module is imported for them)."""
    # the games registry only when help is shown, not for every command's start
    from frogpbem.games import find_game, listed_games

    if not with_options:
        return dict.fromkeys(listed_games(), "")
    return {name: find_game(name).option_help for name in listed_games()}


class RegistryHelp(TyperCommand):
    """A command whose help names the rulesets (``{rules}``) and their options
    (``{options}``) as the games registry has them when the help is shown: a ruleset
    registered at run time is listed too (typer reads ``help=`` once, when the command
    is defined)."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        naming = [(param, param.help) for param in self.params
                  if isinstance(param, TyperOption) and param.help
                  and ("{rules}" in param.help or "{options}" in param.help)]
        if naming:
            known = rules_help(any("{options}" in text for _, text in naming))
            options = "; ".join(f"{name}: {words}" for name, words in known.items())
            for param, text in naming:
                param.help = text.replace("{rules}", ", ".join(known)) \
                    .replace("{options}", options)
        super().format_help(ctx, formatter)
