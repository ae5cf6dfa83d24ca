"""``frogpbem tournament``: new, pair, standings, verify (the director's commands).

Each imports the library in its body, as the other commands do: building the
typer app must not import the tournament's code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from frogpbem.cli.output import echo, emit, reported
from frogpbem.cli.params import (
    OPTION_HELP,
    RULES_HELP,
    JsonOption,
    KeyOption,
    RegistryHelp,
    pairs,
)
from frogpbem.errors import UsageError

if TYPE_CHECKING:
    from frogpbem.tournament.director import Entrant, TournamentReport

TournamentArgument = Annotated[Path, typer.Argument(metavar="TOURNAMENT",
                                                    help="The tournament file.")]
GamesOption = Annotated[Path | None, typer.Option(
    "--games", help="The folder of the tournament's games, ID.yaml each (default: the "
                    "tournament file's folder).")]


def new(
    tournament: Annotated[Path, typer.Argument(metavar="TOURNAMENT",
                                               help="The tournament file to create.")],
    name: Annotated[str, typer.Option("--name", help="What people call the tournament.")],
    system: Annotated[str, typer.Option(
        "--format", help="roundrobin, swiss (two-seat games) or tables (coan).")],
    rules: Annotated[str, typer.Option(help=RULES_HELP)] = "frogfinder",
    option: Annotated[list[str], typer.Option(help=OPTION_HELP)] = [],  # noqa: B006
    rounds: Annotated[int | None, typer.Option(
        min=1, help="swiss and tables: the number of rounds.")] = None,
    cycles: Annotated[int, typer.Option(
        min=1, max=2, help="roundrobin: 1, or 2 (everybody meets twice, seats swapped).")] = 1,
    seats: Annotated[int | None, typer.Option(
        min=2, max=6, help="tables: the seats at each table.")] = None,
    player: Annotated[list[str], typer.Option(
        help="NAME=PUB: a player and their .pub file or key line, in seed order.")
    ] = [],  # noqa: B006
    email: Annotated[list[str], typer.Option(
        help="NAME=ADDRESS: a player's email; director=ADDRESS: where answers go "
             "(the judge's).")] = [],  # noqa: B006
    players: Annotated[Path | None, typer.Option(
        help="A YAML list of players, in seed order: {name, key, email?} each (key: a "
             "key line, or a .pub file beside the list).")] = None,
    director: KeyOption = None,
    director_name: Annotated[str, typer.Option(help="The director's name.")] = "Director",
    as_json: JsonOption = False,
) -> None:
    """Create a tournament: players, rules and format, signed by the director.

    The director's key referees every game of the tournament (frogpbem tournament pair
    makes them). Exit status 2 for what cannot be a tournament (an unknown format,
    too many rounds for a Swiss, a player twice).
    """
    from frogpbem.cli.keys import load_key
    from frogpbem.cli.params import deadline_of
    from frogpbem.mail.contact import check_address, check_name
    from frogpbem.protocol.session import Session
    from frogpbem.tournament.director import new_tournament, write_tournament

    with reported(as_json), Session.from_environment() as session:
        key = load_key(director)
        check_name(director_name, "--director-name")
        check_name(name, "--name")
        emails = pairs(email, "--email")
        director_email = emails.pop("director", None)
        entrants = _entrants(player, emails, players)
        for entrant in entrants:
            check_name(entrant.name, "a player's name")
        for who, text in [*emails.items(), *([("director", director_email)]
                                             if director_email else [])]:
            check_address(text, f"--email {who}")
        options: dict[str, str] = pairs(option, "--option")
        deadline = deadline_of(options)
        file = new_tournament(key, director_name, name, rules, dict(options), system,
                              entrants, created=session.clock.text(), rounds=rounds,
                              cycles=cycles, seats=seats, deadline=deadline,
                              email=director_email)
        write_tournament(tournament, file, new=True)
        header = file.header
        emit({"tournament": header.tournament, "file": str(tournament),
              "format": header.format.to_json(), "players": len(header.players)}, as_json,
             f"tournament {header.tournament}: {name}, {header.format.system}, "
             f"{header.format.rounds} rounds, {len(header.players)} players\n"
             f"next: frogpbem tournament pair {tournament} --games GAMES")


def _entrants(given: list[str], emails: dict[str, str], listed: Path | None) -> list[Entrant]:
    """The players of ``--player`` and ``--players``, in order, each with their email."""
    from frogpbem import crypto
    from frogpbem.gamefile.document import read_bytes
    from frogpbem.gamefile.tournament import read_entries
    from frogpbem.tournament.director import Entrant

    entrants = []
    for text in given:
        name, sep, pub = text.partition("=")
        if not sep or not name.strip() or not pub.strip():
            raise UsageError(f"--player must be written NAME=PUB, got {text!r}")
        entrants.append(Entrant(name.strip(), crypto.load_public_key(pub.strip()),
                                emails.get(name.strip())))
    if listed is not None:
        for entry in read_entries(read_bytes(listed), str(listed)):
            key = entry.key if entry.key.startswith("ssh-") else str(listed.parent / entry.key)
            entrants.append(Entrant(entry.name, crypto.load_public_key(key), entry.email))
    names = [entrant.name for entrant in entrants]
    for extra in sorted(set(emails) - set(names)):
        raise UsageError(f"--email for {extra!r}, who is no player")
    for twice in sorted({n for n in names if names.count(n) > 1}):
        raise UsageError(f"the player {twice!r} is given twice")
    return entrants


def pair(
    tournament: TournamentArgument,
    games: GamesOption = None,
    key: KeyOption = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0,
                                      help="Audit in this many processes (0: one for each "
                                           "processor).")] = 0,
    as_json: JsonOption = False,
) -> None:
    """Director: pair the next round, make and sign its games, and add it to the file.

    Every game of the rounds before must be over and audit. The games are written
    into the games folder as ID.yaml; mail them (frogpbem mail) or let the judge.
    Exit status 2 while the last round is in play or when every round is paired, 5
    for another key than the director's, 1 when the tournament does not hold.
    """
    from frogpbem.cli.keys import load_key
    from frogpbem.protocol.session import Session
    from frogpbem.tournament.director import pair_round

    with reported(as_json), Session.from_environment() as session:
        private = load_key(key)
        folder = games or tournament.parent
        paired = pair_round(tournament, folder, private, session, jobs)
        from frogpbem.safetext import safe

        names = {number: safe(name) for number, name in _names(tournament).items()}
        lines = [f"round {paired.round.round}:"]
        for game in paired.round.games:
            lines.append(f"  {game.game}: " + " - ".join(names[p] for p in game.players))
        for bye in paired.round.byes:
            lines.append(f"  bye: {names[bye]}")
        if paired.adopted:
            lines.append(f"  ({len(paired.adopted)} games made by a pairing that stopped "
                         "were listed)")
        lines += [f"next: frogpbem mail {safe(str(game_path))} --smtp URL"
                  for game_path in [*paired.adopted, *paired.made]]
        lines.append("(or the judge mails them: frogpbem judge --tournament …)")
        emit({"round": paired.round.round,
              "games": [{"game": g.game, "players": list(g.players)}
                        for g in paired.round.games],
              "byes": list(paired.round.byes), "made": [str(p) for p in paired.made]},
             as_json, "\n".join(lines))


def _names(tournament: Path) -> dict[int, str]:
    from frogpbem.gamefile.tournament import read_tournament

    return {p.player: p.name for p in read_tournament(tournament).header.players}


def standings(
    tournament: TournamentArgument,
    games: GamesOption = None,
    html: Annotated[Path | None, typer.Option(
        help="Also write the standings as a web page into this folder (index.html, "
             "and a page per game).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0,
                                      help="Audit in this many processes (0: one for each "
                                           "processor).")] = 0,
    as_json: JsonOption = False,
) -> None:
    """The crosstable: points and tie-breaks, from the games that audit.

    Exit status 0 when the tournament is over, 10 while games are in play, 1 when
    something does not hold (listed after the table; such a game counts for nobody).
    """
    report = _verified(tournament, games, jobs, as_json)
    table = report.standings
    assert table is not None
    if html is not None:
        with reported(as_json):
            from frogpbem.tournament.page import write_pages

            write_pages(html, tournament, report)
    if as_json:
        echo(json.dumps({**table.to_json(), "problems": report.problems}, indent=2))
    else:
        from frogpbem.safetext import safe
        from frogpbem.tournament.standings import standings_text

        echo(standings_text(table, _names(tournament)))
        for problem in report.problems:
            echo(f"FAIL {safe(problem)}")
    if report.exit_status():
        raise typer.Exit(report.exit_status())


def verify(
    tournament: TournamentArgument,
    games: GamesOption = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0,
                                      help="Audit in this many processes (0: one for each "
                                           "processor).")] = 0,
    as_json: JsonOption = False,
) -> None:
    """Recompute the tournament from its file and the game files alone: signatures, every
    pairing, every game audited and counted once, nothing missing, the standings.

    Exit status 0 when everything holds and the tournament is over, 10 while games are
    in play (nothing wrong so far), 1 when something does not hold.
    """
    report = _verified(tournament, games, jobs, as_json)
    table = report.standings
    assert table is not None
    if as_json:
        echo(json.dumps({"file": str(tournament), "ok": report.ok, "over": report.over,
                         "problems": report.problems, "checked": report.checked,
                         "standings": table.to_json()}, indent=2))
    else:
        from frogpbem.safetext import safe

        lines = [f"{safe(str(tournament))}:"]
        lines += [f"  ok   {what}" for what in report.checked]
        lines += [f"  FAIL {safe(problem)}" for problem in report.problems]
        if table.in_play:
            lines.append(f"  in play: {', '.join(table.in_play)}")
        verdict = ("DOES NOT HOLD" if not report.ok else "everything holds"
                   if report.over else "not over: everything so far holds")
        lines.append(f"  verdict: {verdict}")
        echo("\n".join(lines))
    if report.exit_status():
        raise typer.Exit(report.exit_status())


def _verified(tournament: Path, games: Path | None, jobs: int,
              as_json: bool) -> TournamentReport:
    from frogpbem.protocol.session import Session
    from frogpbem.tournament.director import verify_tournament

    with reported(as_json), Session.from_environment() as session:
        return verify_tournament(tournament, games or tournament.parent, session, jobs)


app = typer.Typer(name="tournament", help="Tournaments: pair rounds, standings, verify.",
                  no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, context_settings={"help_option_names": ["-h", "--help"]})
for _command in (new, pair, standings, verify):
    app.command(cls=RegistryHelp)(_command)
