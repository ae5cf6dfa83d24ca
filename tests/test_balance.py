"""``frogpbem balance``: the reports of simulate's results files, checked against the
files' own lines read here, with the Wilson interval's published values."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.balance import Group, balance, balance_html
from frogpbem.games import Outcome, Place
from frogpbem.simulate import Played, Share, simulate
from tests.conftest import Cli

SMALL = {"size": "5", "frogs": "2"}


def results(path: Path, games: int, bots: list[str], seed: int = 0, swap: bool = False,
            rules: str = "frogfinder", options: dict[str, str] | None = None,
            seats: int | None = None) -> Path:
    simulate(rules, games, bots, seed=seed, options=SMALL if options is None else options,
             swap=swap, out=path, seats=seats)
    return path


def lines(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_wilson_interval_as_published() -> None:
    """5 of 10 and 0 of 20 (Newcombe 1998, and Wilson's own zero-count bound)."""
    half = Share.of(5, 10)
    assert (round(half.low, 4), round(half.high, 4)) == (0.2366, 0.7634)
    none = Share.of(0, 20)
    assert none.low == 0 and round(none.high, 4) == 0.1611


def test_the_report_counts_what_the_lines_say(tmp_path: Path) -> None:
    own = results(tmp_path / "self.jsonl", 30, ["strong"])
    mixed = results(tmp_path / "mixed.jsonl", 30, ["strong", "greedy"], swap=True)
    reports = balance([own, mixed])
    assert [r.bots for r in reports] == [("strong", "strong"), ("strong", "greedy")]
    for report, path in zip(reports, (own, mixed), strict=True):
        games = lines(path)
        assert report.games == len(games) == 30
        sole = Counter(g["winners"][0] for g in games if len(g["winners"]) == 1)
        assert {side: rate.games for side, rate in report.wins.items()} == \
            {seat: sole.get(seat, 0) for seat in ("red", "blue")}
        assert report.draws.games == sum(len(g["winners"]) > 1 for g in games)
        moves = sorted(g["moves"] for g in games)
        assert report.lengths.mean == pytest.approx(statistics.fmean(moves))
        assert report.lengths.median == statistics.median(moves)
        assert (report.lengths.shortest, report.lengths.longest) == (moves[0], moves[-1])
        for side in ("red", "blue"):
            total = sum(p["points"] for g in games for p in g["standing"] if p["seat"] == side)
            assert report.points[side] == pytest.approx(total / 30)
    # the bots' wins where the bots differ, whichever seat they held
    by_bot = Counter(g["bots"][g["winners"][0]] for g in lines(mixed) if len(g["winners"]) == 1)
    assert {bot: rate.games for bot, rate in reports[1].bot_wins.items()} == dict(by_bot)
    assert not reports[0].bot_wins
    # a small board: no BrainKing figures beside it
    assert reports[0].humans is None


def test_a_game_read_twice_counts_once(tmp_path: Path) -> None:
    first = results(tmp_path / "a.jsonl", 10, ["greedy"], seed=0)
    second = results(tmp_path / "b.jsonl", 10, ["greedy"], seed=5)  # seeds 5..14
    (report,) = balance([first, second, first])
    assert report.games == 15
    # two bots changing seats: the same seed with the bots the other way is another game
    one = results(tmp_path / "c.jsonl", 4, ["strong", "greedy"], seed=0, swap=True)
    two = results(tmp_path / "d.jsonl", 4, ["strong", "greedy"], seed=1, swap=True)
    (mixed,) = balance([one, two])
    assert mixed.games == 8


def test_teams_and_the_humans(tmp_path: Path) -> None:
    teams = results(tmp_path / "teams.jsonl", 6, ["greedy"], rules="coan", seats=4,
                    options={"size": "5", "frogs": "1", "teams": "red+black,blue+purple"})
    default = results(tmp_path / "default.jsonl", 2, ["greedy"], options={})
    coan, frogfinder = balance([teams, default])
    assert list(coan.wins) == ["red+black", "blue+purple"] and coan.fair == 0.5
    assert coan.humans is None
    assert frogfinder.humans is not None and frogfinder.humans.first == 0.5031


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: Counter[str] = Counter()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_the_command_and_its_page(tmp_path: Path, cli: Cli) -> None:
    path = results(tmp_path / "r.jsonl", 8, ["greedy"])
    shown = cli("balance", path)
    assert shown.exit_code == 0, shown.output
    assert "8 games; a fair game gives each of 2 50.00 % of the wins" in shown.stdout
    data = json.loads(cli("balance", path, "--json").stdout)
    assert data[0]["games"] == 8 and set(data[0]["wins"]) == {"red", "blue"}
    page = tmp_path / "balance.html"
    page.write_text("kept")
    refused = cli("balance", path, "--html", page)
    assert refused.exit_code == 9 and page.read_text() == "kept"
    assert cli("balance", path, "--html", page, "--force").exit_code == 0
    parsed = _Tags()
    parsed.feed(page.read_text())
    assert parsed.tags["svg"] == 2 and parsed.tags["section"] == 1
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\xff\xfe not json\n")
    bad = cli("balance", garbage)
    assert bad.exit_code == 7 and "not a results file" in bad.stderr
    assert "Traceback" not in bad.output
    assert cli("balance", tmp_path / "missing.jsonl").exit_code == 9


def test_the_page_escapes_what_a_file_names() -> None:
    group = Group("frogfinder", {"size": "<script>"}, ("red", "blue"), ("strong", "strong"),
                  False)
    group.games[(0, ("strong", "strong"))] = Played(
        0, 0, {"red": "strong", "blue": "strong"},
        Outcome("x", (Place(1, "<b>red</b>", 3), Place(2, "blue", 1))), 5)
    page = balance_html([group.report()])
    assert "<script>" not in page and "<b>red" not in page
    assert "&lt;script&gt;" in page and "&lt;b&gt;red&lt;/b&gt;" in page


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([(1, 2), (2, 1), (1, 1)]),
                          st.integers(0, 40)), max_size=40))
def test_wins_and_draws_add_up_to_the_games(games: list[tuple[tuple[int, int], int]]) -> None:
    group = Group("frogfinder", {}, ("red", "blue"), ("greedy", "greedy"), False)
    for seed, ((red, blue), moves) in enumerate(games):
        group.games[(seed, ("greedy", "greedy"))] = Played(
            seed, seed, {"red": "greedy", "blue": "greedy"},
            Outcome("x", (Place(red, "red", 0), Place(blue, "blue", 0))), moves)
    report = group.report()
    assert sum(r.games for r in report.wins.values()) + report.draws.games == len(games)
    assert report.draws.games == sum(ranks == (1, 1) for ranks, _ in games)
    for rate in (*report.wins.values(), report.draws):
        assert rate.low <= rate.share <= rate.high


def test_the_page_draws_in_a_real_browser(tmp_path: Path) -> None:
    """Chromium draws the bars (#9cf) and BrainKing's marks (#c60) of a default game."""
    from tests.test_pictures import screenshot

    path = results(tmp_path / "default.jsonl", 2, ["greedy"], options={})
    page = tmp_path / "balance.html"
    page.write_text(balance_html(balance([path])))
    drawn = screenshot(page, tmp_path / "balance.png").getcolors(1 << 20) or []
    colours = {rgb: n for n, rgb in drawn}
    assert colours.get((153, 204, 255), 0) > 500  # the bars: wins, and the games' lengths
    assert colours.get((204, 102, 0), 0) > 20  # the human figures' marks
