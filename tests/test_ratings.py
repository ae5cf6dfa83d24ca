"""Ratings: openskill's own numbers for hand-made results, a player who wins every game ends
first, and only games whose audit holds are counted (the cache included)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from frogpbem.audit import GameResult, Seated
from frogpbem.cli.ratings import ratings as ratings_command
from frogpbem.protocol.session import state_from_environment
from frogpbem.protocol.times import Clock
from frogpbem.ratings import (
    VIEW_FILE,
    Cost,
    Counted,
    Ratings,
    game_files,
    rate,
    rate_files,
    ratings_html,
)
from frogpbem.verdicts import AuditCache
from tests.conftest import Cli

KEYS = [f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{chr(65 + i)}{'x' * 42} p{i}@example.org"
        for i in range(8)]
"""Hand-made players' key lines (never checked: these results are made, not audited)."""


def made(ended: str, places: list[list[int]], game: str = "") -> Counted:
    """A result where place ``i`` (ranked by its index, equal lists tie) holds the players
    numbered in ``places[i]``; a list of one list per rank: ``[[0], [1, 2]]``."""
    seats = [Seated(f"s{p}", f"P{p}", KEYS[p]) for place in places for p in place]
    ranked = tuple((rank, tuple(f"s{p}" for p in place))
                   for rank, place in enumerate(places, 1))
    name = game or f"g-{ended}"
    return Counted(f"{name}.yaml", GameResult(name, f"sha256:{name}", "coan", ended, ended,
                                              "ssh-ed25519 AAAAref", tuple(seats), ranked,
                                              "test"))


def tied(result: Counted, ranks: list[int]) -> Counted:
    """``result`` with its places' ranks replaced by ``ranks`` (equal ranks tie)."""
    places = tuple((rank, seats) for rank, (_, seats) in
                   zip(ranks, result.result.places, strict=True))
    return Counted(result.path, GameResult(**{**result.result.__dict__, "places": places}))


def by_key(players: list) -> dict[str, tuple[float, float]]:  # type: ignore[type-arg]
    return {p.key: (p.mu, p.sigma) for p in players}


def key(index: int) -> str:
    return " ".join(KEYS[index].split()[:2])


def test_one_game_equals_openskill() -> None:
    """A win, a draw, a four-seat game with a tie, a 2v2 team game: each exactly as
    openskill rates it directly."""
    model = PlackettLuce()
    cases = [
        (made("2026-01-01T00:00:00Z", [[0], [1]]), [[0], [1]], [1, 2]),
        (tied(made("2026-01-01T00:00:00Z", [[0], [1]]), [1, 1]), [[0], [1]], [1, 1]),
        (tied(made("2026-01-01T00:00:00Z", [[0], [1], [2], [3]]), [1, 2, 2, 4]),
         [[0], [1], [2], [3]], [1, 2, 2, 4]),
        (made("2026-01-01T00:00:00Z", [[0, 2], [1, 3]]), [[0, 2], [1, 3]], [1, 2]),
    ]
    for result, teams, ranks in cases:
        players, *_ = rate([result])
        expected = model.rate([[model.rating() for _ in team] for team in teams], ranks=ranks)
        for team, rated in zip(teams, expected, strict=True):
            for index, rating in zip(team, rated, strict=True):
                assert by_key(players)[key(index)] == (rating.mu, rating.sigma)


def test_games_are_rated_in_the_order_they_ended() -> None:
    """Given out of order, the games are rated by their end time, as openskill would rate
    them one after the other; copies of a game (same header) count once (the first by
    file name)."""
    first = made("2026-01-01T00:00:00Z", [[0], [1]])
    second = made("2026-01-02T00:00:00Z", [[1], [2], [0]])
    third = made("2026-01-03T00:00:00Z", [[2, 0], [1, 3]])
    copy = Counted("elsewhere.yaml", third.result)
    players, rated, skipped, _ = rate([third, second, copy, first])
    assert [c.path for c in rated] == [first.path, second.path, "elsewhere.yaml"]
    assert [n.path for n in skipped] == [third.path]
    assert skipped[0].reason.startswith(f"another copy of game {third.result.game} (counted "
                                        "once, from elsewhere.yaml)")
    model = PlackettLuce()
    r = {i: model.rating() for i in range(4)}
    steps = []
    [[r[0]], [r[1]]] = model.rate([[r[0]], [r[1]]], ranks=[1, 2])
    steps.append((r[0].mu, r[0].sigma))
    [[r[1]], [r[2]], [r[0]]] = model.rate([[r[1]], [r[2]], [r[0]]], ranks=[1, 2, 3])
    steps.append((r[0].mu, r[0].sigma))
    [[r[2], r[0]], [r[1], r[3]]] = model.rate([[r[2], r[0]], [r[1], r[3]]], ranks=[1, 2])
    steps.append((r[0].mu, r[0].sigma))
    assert by_key(players) == {key(i): (r[i].mu, r[i].sigma) for i in range(4)}
    zero = next(p for p in players if p.key == key(0))
    assert (zero.games, zero.wins, zero.losses, zero.places) == (3, 1, 0, [3, 1])
    assert [(p.mu, p.sigma) for p in zero.history] == steps


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(1, 7), min_size=1, max_size=3, unique=True),
                          st.lists(st.integers(2, 4), min_size=3, max_size=3)),
                min_size=1, max_size=12))
def test_a_player_who_wins_every_game_ends_first(
        games: list[tuple[list[int], list[int]]]) -> None:
    """Player 0 plays every game and wins it alone; the others place anywhere after."""
    results = []
    for number, (others, ranks) in enumerate(games):
        places = [[0]] + [[p] for p in others]
        result = made(f"2026-01-01T00:{number:02d}:00Z", places, game=f"g{number}")
        results.append(tied(result, [1] + ranks[:len(others)]))
    players, *_ = rate(results)
    assert players[0].key == key(0)
    assert all(players[0].rating > p.rating for p in players[1:])


def test_the_page_escapes_every_name() -> None:
    result = made("2026-01-01T00:00:00Z", [[0], [1]])
    seats = (Seated("s0", "<script>alert(1)</script>", KEYS[0]),
             Seated("s1", "Bob & \"Co\"", KEYS[1]))
    result = Counted(result.path, GameResult(**{**result.result.__dict__, "seats": seats}))
    players, rated, skipped, initial = rate([result])
    page = ratings_html(Ratings("PlackettLuce", players, rated, skipped,
                                Cost(),
                                initial))
    assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Bob &amp; &quot;Co&quot;" in page
    assert page.count("<svg") == 2


# --- real game files --------------------------------------------------------------------


def tamper(path: Path) -> None:
    """Change one character of a record's result (a signed value): the first digit that
    ends a result's line, else the last letter of the first result's line."""
    lines = path.read_text().splitlines(keepends=True)
    results = [i + 1 for i, line in enumerate(lines) if line == "  result:\n"]
    at = next((i for i in results if lines[i].rstrip("\n")[-1].isdigit()), results[0])
    line = lines[at].rstrip("\n")
    last = line[-1]
    changed = str((int(last) + 1) % 10) if last.isdigit() else "b" if last == "a" else "a"
    lines[at] = line[:-1] + changed + "\n"
    path.write_text("".join(lines))


@pytest.fixture
def archive(tmp_path: Path, finished_demos: dict[str, Path]) -> Path:
    """A folder of the four finished demos, a tampered copy, an unfinished game, a view
    file, a YAML file that is no game, and a broken game without a referee."""
    from frogpbem.demo import play_demo
    from tests.conftest import here

    folder = tmp_path / "archive"
    folder.mkdir()
    for rules, game in finished_demos.items():
        shutil.copy(game, folder / f"{rules}.yaml")
    shutil.copy(finished_demos["frogfinder"], folder / "tampered.yaml")
    tamper(folder / "tampered.yaml")
    unfinished = play_demo(tmp_path / "unfinished", "frogfinder", seed=1, moves=2,
                           options={"size": "5", "frogs": "2"}, session=here()).game
    shutil.copy(unfinished, folder / "unfinished.yaml")
    shutil.copy(next(finished_demos["coan"].parent.glob("*.view.yaml")),
                folder / "game.red.view.yaml")
    (folder / "other.yaml").write_text("name: not a game\n")
    (folder / "duel.yaml").write_text("frogpbem: 1\nmessages:\n")
    return folder


def counted_files(table: Ratings) -> set[str]:
    return {Path(c.path).name for c in table.counted}


def reasons(table: Ratings) -> dict[str, str]:
    return {Path(n.path).name: n.reason for n in table.not_counted}


def test_only_games_that_hold_are_counted(archive: Path) -> None:
    view = archive / "game.red.view.yaml"
    # a folder's views are left out; a view given by name is listed
    assert view not in game_files([archive]) and view in game_files([archive, view])
    table = rate_files(game_files([archive, view]), clock=Clock.from_environment(), jobs=1)
    assert counted_files(table) == {"frogfinder.yaml", "coan.yaml", "froglet.yaml",
                                    "secretmove.yaml"}
    why = reasons(table)
    assert set(why) == {"tampered.yaml", "unfinished.yaml", "game.red.view.yaml",
                        "other.yaml", "duel.yaml"}
    assert why["tampered.yaml"].startswith("DOES NOT HOLD")
    assert why["unfinished.yaml"].startswith("unfinished")
    assert why["game.red.view.yaml"] == VIEW_FILE
    assert "not a frogpbem game file" in why["other.yaml"]
    assert why["duel.yaml"].startswith("DOES NOT HOLD")  # audited as a game without a referee
    seated = {key for c in table.counted for key in
              (" ".join(s.key.split()[:2]) for s in c.result.seats)}
    assert {p.key for p in table.players} == seated


def test_the_cache_remembers_only_these_bytes(archive: Path) -> None:
    clock = Clock.from_environment()
    state = state_from_environment()
    files = game_files([archive])
    cold = rate_files(files, clock=clock, cache=AuditCache(state), jobs=2)
    cache = AuditCache(state)
    assert os.stat(cache.path).st_mode & 0o777 == 0o600
    assert len(cache.verdicts) == 4  # the games that held, and nothing else
    warm = rate_files(files, clock=clock, cache=cache, jobs=1)
    # audited again: the tampered copy, the unfinished game, the YAML file that is no game,
    # the broken game without a referee
    assert (warm.timing.audited, warm.timing.cached) == (4, 4)
    assert warm.to_json()["players"] == cold.to_json()["players"]
    tamper(archive / "frogfinder.yaml")
    again = rate_files(files, clock=clock, cache=AuditCache(state), jobs=1)
    assert again.timing.cached == 3
    assert reasons(again)["frogfinder.yaml"].startswith("DOES NOT HOLD")
    assert "frogfinder.yaml" not in counted_files(again)


def test_games_audited_by_the_audit_command_are_not_audited_again(
        archive: Path, cli: Cli) -> None:
    """``frogpbem audit`` keeps the verdict of each finished game that holds: ``ratings``
    then audits only the other files (and a game changed since, which it refuses)."""
    files = game_files([archive])
    games = [f for f in files if f.name != "other.yaml"]  # no game: no verdict at all
    quiet = cli("audit", "--no-cache", *games)
    assert quiet.exit_code == 1  # the tampered copy
    assert not AuditCache(state_from_environment()).verdicts
    kept = cli("audit", *games)
    assert kept.exit_code == 1, kept.output
    assert len(AuditCache(state_from_environment()).verdicts) == 4
    tamper(archive / "coan.yaml")
    table = rate_files(files, clock=Clock.from_environment(),
                       cache=AuditCache(state_from_environment()), jobs=1)
    # the tampered copies, the unfinished game, the YAML file that is no game and the
    # broken game without a referee
    assert (table.timing.audited, table.timing.cached) == (5, 3)
    assert counted_files(table) == {"frogfinder.yaml", "froglet.yaml", "secretmove.yaml"}
    assert reasons(table)["coan.yaml"].startswith("DOES NOT HOLD")


def test_the_command(archive: Path, tmp_path: Path) -> None:
    """A one-command app of ``ratings``: the table, --json, and --html (never over a file
    without --force)."""
    app = typer.Typer()
    app.command()(ratings_command)
    runner = CliRunner()
    shown = runner.invoke(app, [str(archive)])
    assert shown.exit_code == 0, shown.output
    assert "4 games counted, 4 files not counted" in shown.stdout
    data = json.loads(runner.invoke(app, [str(archive), "--json"]).stdout)
    assert len(data["games"]) == 4 and len(data["not_counted"]) == 4
    assert {p["name"] for p in data["players"]} <= set(shown.stdout.split())
    page = tmp_path / "ratings.html"
    page.write_text("kept")
    refused = runner.invoke(app, [str(archive), "--html", str(page)])
    assert refused.exit_code == 9 and page.read_text() == "kept"
    written = runner.invoke(app, [str(archive), "--html", str(page), "--force"])
    assert written.exit_code == 0, written.output
    import html

    text = page.read_text()
    assert all(html.escape(p["name"]) in text for p in data["players"])


def test_a_name_is_escaped_on_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real game whose player is named ``Eve <script>``: escaped on the page."""
    from frogpbem import demo
    from tests.conftest import here

    monkeypatch.setattr(demo, "PLAYERS", ("Eve <script>", "Bob & Co"))
    demo.play_demo(tmp_path / "game", "frogfinder", seed=1, options={"size": "5", "frogs": "2"},
                   session=here())
    app = typer.Typer()
    app.command()(ratings_command)
    page = tmp_path / "page.html"
    done = CliRunner().invoke(app, [str(tmp_path / "game"), "--html", str(page)])
    assert done.exit_code == 0, done.output
    text = page.read_text()
    assert "<script>" not in text and "Eve &lt;script&gt;" in text
    assert "Bob &amp; Co" in text
