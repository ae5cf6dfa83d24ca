"""The standings as web pages: a crosstable (index.html) linking each game's record page.

Self-contained: no script or style from anywhere else, every name escaped. Only
the games that audit have a page; a game in play is listed without a link.
"""

from __future__ import annotations

import html
from pathlib import Path

from frogpbem.gamefile.document import write_atomic
from frogpbem.gamefile.tournament import read_tournament
from frogpbem.protocol.game import load
from frogpbem.protocol.session import Session
from frogpbem.record import record_html
from frogpbem.tournament.director import TournamentReport
from frogpbem.tournament.standings import score_text

STYLE = """body{font-family:sans-serif;margin:2em;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:center}
td.name{text-align:left}tr:nth-child(even){background:#f4f4f4}.fail{color:#a00}
caption{font-weight:bold;margin-bottom:.5em}"""


def standings_page(report: TournamentReport, names: dict[int, str], title: str,
                   linked: set[str]) -> str:
    """index.html: one row per player, a cell per round with the game's link and points."""
    table = report.standings
    assert table is not None
    rounds = max((max(line.results, default=0) for line in table.lines), default=0)
    head = "".join(f"<th>R{number}</th>" for number in range(1, rounds + 1))
    rows = []
    for line in table.lines:
        cells = []
        for number in range(1, rounds + 1):
            parts = []
            for cell in line.results.get(number, []):
                text = html.escape(cell.text())
                parts.append(f'<a href="{html.escape(cell.game)}.html">{text}</a>'
                             if cell.game in linked else text)
            cells.append(f"<td>{' '.join(parts) or '·'}</td>")
        rows.append(f"<tr><td>{line.rank}</td><td class=name>"
                    f"{html.escape(names[line.player])} ({line.player})</td><td>"
                    f"{score_text(line.points)}</td><td>{score_text(line.buchholz)}</td><td>"
                    f"{score_text(line.berger)}</td>{''.join(cells)}</tr>")
    problems = "".join(f"<li class=fail>{html.escape(problem)}</li>"
                       for problem in report.problems)
    in_play = (f"<p>In play: {html.escape(', '.join(table.in_play))}</p>"
               if table.in_play else "")
    return (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{html.escape(title)}</h1><table><caption>Standings after "
            f"{table.counted} games</caption><tr><th>#</th><th>Player</th><th>Points</th>"
            f"<th>Buchholz</th><th>S-B</th>{head}</tr>{''.join(rows)}</table>{in_play}"
            f"{'<ul>' + problems + '</ul>' if problems else ''}</body></html>\n")


def write_pages(folder: Path, tournament: Path, report: TournamentReport) -> None:
    """index.html and a record page for each game that counts, into ``folder``."""
    file = read_tournament(tournament)
    folder.mkdir(parents=True, exist_ok=True)
    with Session.from_environment() as session:
        for game_id, path in report.files.items():
            page = record_html(load(path, session))
            write_atomic(folder / f"{game_id}.html", page.encode(), durable=False)
    names = {player.player: player.name for player in file.header.players}
    write_atomic(folder / "index.html",
                 standings_page(report, names, file.header.name, set(report.files)).encode(),
                 durable=False)
