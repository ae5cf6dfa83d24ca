"""What a player reads fits a mail body: no text view or hint line wider than 76 columns.

Every ruleset is played by bots to its end; the view of every seat's team, of the
public and of the referee are drawn at every move, each seat's hint at every eighth.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from frogpbem.board import TEXT_WIDTH, text_legend
from frogpbem.games import find_game, known_games
from frogpbem.simulate import team_of
from tests.conftest import Cli, Keys

GAMES = [(rules, 0, {}) for rules in known_games()] + [
    ("coan", 6, {}), ("coan", 6, {"teams": "red+black+yellow,blue+purple+green"}),
    ("coan", 5, {"size": "8"}), ("froglet", 0, {"size": "3"}),
]


def too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > TEXT_WIDTH]


@pytest.mark.parametrize(("rules", "seats", "given"), GAMES)
def test_every_text_view_and_hint_fits_76_columns(rules: str, seats: int,
                                                  given: dict[str, str]) -> None:
    ruleset = find_game(rules)
    options = ruleset.options(given)
    names = ruleset.seats(options, seats or len(ruleset.seat_order))
    rng = random.Random(7)
    state = ruleset.start(options, names, *ruleset.deal(options, names, rng))
    teams = {seat: team_of(ruleset, options, names, seat) for seat in names}
    for step in range(2000):
        for who in (frozenset(), frozenset(names), *teams.values()):
            view = ruleset.view(state, who)
            assert too_wide(ruleset.render(view, who)) == [], (rules, sorted(who))
        for seat, team in teams.items() if step % 8 == 0 else ():  # hints cost: some
            view = ruleset.view(state, team)
            if ruleset.hints is not None:
                hint = ruleset.hints.hint(view, seat)
                assert too_wide(ruleset.hints.text(view, hint)) == [], (rules, seat)
        seat = ruleset.to_move(state)
        if seat is None:
            return
        move = ruleset.automatic(state) or ruleset.parse_move(ruleset.bot.move(
            ruleset.view(state, team_of(ruleset, options, names, seat)), seat, rng, "random"))
        state, _ = ruleset.play(state, seat, move)
    pytest.fail("the game did not end")


def test_a_legend_keeps_its_items_whole() -> None:
    items = [f"item {n}" * 3 for n in range(20)] + ["x" * 90]
    lines = text_legend(items)
    assert all(len(line) <= TEXT_WIDTH for line in lines[:-1]) and lines[-1] == "  " + "x" * 90
    assert "    ".join(line.strip() for line in lines) == "    ".join(items)


def test_the_view_of_six_long_names_fits(tmp_path: Path, cli: Cli, keys: Keys,
                                         new_game: Callable[..., Any]) -> None:
    """The lines above the board name every player: they wrap rather than run on."""
    from frogpbem import crypto

    game = tmp_path / "six.yaml"
    args: list[object] = ["new", game, "--rules", "coan", "--referee", keys.path("referee"),
                          "--referee-name", "Carolina " + "R" * 50]
    for n, seat in enumerate(find_game("coan").seat_order):
        path = tmp_path / f"p{n}"
        crypto.generate_key(path, f"p{n}")
        args += ["--seat", f"{seat}={path}.pub", "--name", f"{seat}=Player {n} " + "N" * 40]
    assert cli(*args).exit_code == 0
    for key in (keys.path("referee"), tmp_path / "p0", None):
        shown = cli("view", game, *(["--key", key] if key else ["--public"]))
        assert shown.exit_code == 0, shown.output
        assert too_wide(shown.stdout) == [], shown.stdout
    for file, key in (("six.red.view.yaml", tmp_path / "p0"), ("six.public.view.yaml", None)):
        shown = cli("view", tmp_path / file, *(["--key", key] if key else []))
        assert shown.exit_code == 0, shown.output
        assert too_wide(shown.stdout) == [], shown.stdout  # a view file mailed to a player
