"""Coan's original: multi-seat endings, teams, ties; also through the CLI and the audit."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from frogpbem.audit import audit
from frogpbem.errors import IllegalMoveError, UsageError
from frogpbem.gamefile import strictyaml
from frogpbem.games import find_game, rank_by_points
from frogpbem.games.frogs import Count, FrogGame, Miss, State
from tests.conftest import Cli, Keys, here, write_setup

COAN: FrogGame = find_game("coan")  # type: ignore[assignment]
FROGFINDER: FrogGame = find_game("frogfinder")  # type: ignore[assignment]
VECTORS = strictyaml.loads((Path(__file__).parent / "coan_vectors.yaml").read_bytes())
IDS = [c["name"] for c in VECTORS]


def start(case: dict[str, Any], known: set[str] | None = None) -> State:
    options = COAN.options(case["options"])
    seats = COAN.seats(options, len(case["seats"]))
    assert list(seats) == case["seats"]
    known = set(seats) if known is None else known
    secrets = {s: case["setup"][s] if s in known else None for s in seats}
    return COAN.start(options, seats, None, secrets)


@pytest.mark.parametrize("case", VECTORS, ids=IDS)
def test_vectors(case: dict[str, Any]) -> None:
    state = start(case)
    for seat, text, expected, *after in case["moves"]:
        move = COAN.parse_move(text)
        if "error" in expected:
            with pytest.raises(IllegalMoveError, match=expected["error"]):
                COAN.play(state, seat, move)
            continue
        state, result = COAN.play(state, seat, move)
        assert result.to_json() == expected, text
        if after:
            assert COAN.to_move(state) == after[0], text
    assert COAN.scores(state) == case["scores"]
    outcome = COAN.outcome(state)
    assert outcome is not None and outcome.to_json() == case["outcome"]


@pytest.mark.parametrize("case", VECTORS, ids=IDS)
def test_vectors_replay_for_each_seat_and_the_public(case: dict[str, Any]) -> None:
    options = COAN.options(case["options"])
    for viewer in [*case["seats"], None]:
        known = set(COAN.secret_readers(options, viewer)) if viewer else set()
        state = start(case, known)
        for seat, text, expected, *_ in case["moves"]:
            if "error" not in expected:
                state, _ = COAN.play(state, seat, COAN.parse_move(text),
                                     COAN.parse_result(expected))
        assert COAN.scores(state) == case["scores"]
        assert COAN.outcome(state).to_json() == case["outcome"]  # type: ignore[union-attr]


@pytest.mark.parametrize("case", VECTORS, ids=IDS)
def test_vectors_through_the_cli_and_the_audit(case: dict[str, Any], tmp_path: Path,
                                               cli: Cli, keys: Keys) -> None:
    from frogpbem import crypto

    seat_keys = {}
    for seat in case["seats"]:
        path = tmp_path / f"{seat}.key"
        if not path.exists():
            crypto.generate_key(path, seat)
        seat_keys[seat] = path
    game = tmp_path / "game.yaml"
    args: list[Any] = ["new", game, "--rules", "coan", "--referee", keys.path("referee"),
                       "--setup", write_setup(tmp_path, case["setup"])]
    for seat in case["seats"]:
        args += ["--seat", f"{seat}={seat_keys[seat]}.pub"]
    for name, value in case["options"].items():
        args += ["--option", f"{name}={value}"]
    created = cli(*args)
    assert created.exit_code == 0, created.output
    for seat, text, expected, *_ in case["moves"]:
        asked = cli("move", game, text, "--key", seat_keys[seat])
        if "error" in expected:
            assert asked.exit_code == 4, asked.output
            assert expected["error"] in asked.stderr
            continue
        assert asked.exit_code == 0, asked.output
        applied = cli("move", game, "--key", keys.path("referee"))
        assert applied.exit_code == 0, applied.output
    doc = strictyaml.loads(game.read_bytes())
    assert doc["log"][-1]["scores"] == case["scores"]
    assert doc["reveal"]["outcome"] == case["outcome"]
    report = audit(game, clock=here().clock)
    assert report.ok, report.text()
    record = cli("record", game)
    standing = ", ".join(f"{p['rank']}. {p['seat']} {p['points']}"
                         for p in case["outcome"]["standing"])
    assert f'[Standing "{standing}"]' in record.stdout


def test_two_seats_eliminated_by_one_move_stay_tied() -> None:
    """No move reveals two seats' frogs at once, so this is the rule itself: equal points
    and the same elimination ply share a rank."""
    places = rank_by_points({"red": 4, "blue": 4, "black": 9}, {"red": 3, "blue": 3, "black": 9})
    assert [(p.rank, p.seat) for p in places] == [(1, "black"), (2, "red"), (2, "blue")]


def _tied_final_position(rules: FrogGame) -> State:
    """Red to find blue's last frog, with points arranged so that the end is a tie.

    No two-seat game reaches a tie from the start (see the test below), so the
    position is built directly: red 1, blue 9; red's guess +5 and bonus 2 + 1 = 9.
    """
    options = rules.options({"size": 4, "frogs": 1})
    state = rules.start(options, ("red", "blue"), None,
                        {"red": {"frogs": ["A1"]}, "blue": {"frogs": ["D4"]}})
    return State(**{**state.__dict__, "points": {"red": 1, "blue": 9}})


def test_points_tie_in_two_seats_draw_in_frogfinder_last_standing_in_coan() -> None:
    move = FROGFINDER.parse_move("guess D4")
    ff, _ = FROGFINDER.play(_tied_final_position(FROGFINDER), "red", move)
    co, _ = COAN.play(_tied_final_position(COAN), "red", move)
    assert FROGFINDER.scores(ff) == COAN.scores(co) == {"red": 9, "blue": 9}
    assert [(p.rank, p.seat) for p in FROGFINDER.outcome(ff).standing] == \
        [(1, "red"), (1, "blue")]  # type: ignore[union-attr]
    assert FROGFINDER.outcome(ff).is_draw  # type: ignore[union-attr]
    assert [(p.rank, p.seat) for p in COAN.outcome(co).standing] == \
        [(1, "red"), (2, "blue")]  # type: ignore[union-attr]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3), st.booleans())
def test_no_two_seat_game_ends_in_a_points_tie(seed: int, frogs: int, coan: bool) -> None:
    """Every frog revealed moves the difference by 5 or 10, a miss by 3 and the bonus is
    2 + hidden frogs: at the end the difference is never a multiple of 3, so never 0."""
    rules = COAN if coan else FROGFINDER
    rng = random.Random(seed)
    options = rules.options({"size": 5, "frogs": frogs})
    _, secrets = rules.deal(options, ("red", "blue"), rng)
    state = rules.start(options, ("red", "blue"), None, secrets)
    while (seat := rules.to_move(state)) is not None:
        view = rules.view(state, frozenset([seat]))
        taken = set(view.shots) | set(view.revealed) | set(view.own_frogs[seat])
        target = rng.choice([f"{c}{r}" for c in "ABCDE" for r in range(1, 6)
                             if f"{c}{r}" not in taken])
        state, _ = rules.play(state, seat, rules.parse_move(f"{rng.choice(['shoot', 'guess'])} "
                                                            f"{target}"))
    points = rules.scores(state)
    assert (points["red"] - points["blue"]) % 3 != 0


def test_coan_with_two_seats_plays_as_frogfinder() -> None:
    rng = random.Random(5)
    options = {"size": 6, "frogs": 2}
    _, secrets = FROGFINDER.deal(FROGFINDER.options(options), ("red", "blue"), rng)
    ff = FROGFINDER.start(FROGFINDER.options(options), ("red", "blue"), None, secrets)
    co = COAN.start(COAN.options(options), ("red", "blue"), None, secrets)
    while (seat := FROGFINDER.to_move(ff)) is not None:
        text = FROGFINDER.bot.move(FROGFINDER.view(ff, frozenset([seat])), seat, rng)
        ff, ff_result = FROGFINDER.play(ff, seat, FROGFINDER.parse_move(text))
        co, co_result = COAN.play(co, seat, COAN.parse_move(text))
        assert ff_result == co_result and FROGFINDER.scores(ff) == COAN.scores(co)
    assert COAN.to_move(co) is None
    assert FROGFINDER.outcome(ff).standing == COAN.outcome(co).standing  # type: ignore[union-attr]


@pytest.mark.parametrize(("teams", "count", "message"), [
    ("red+black", 4, "at least two teams"),
    ("red+black,blue", 3, "2 against 2 or 3 against 3"),
    ("red+black,blue+red", 4, "red is in two teams"),
    ("red+black,blue+pink", 4, "unknown seat 'pink'"),
    ("red+black,blue+purple", 6, "in exactly one team"),
])
def test_teams_option_is_validated(teams: str, count: int, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        COAN.seats(COAN.options({"teams": teams}), count)


def test_seat_counts() -> None:
    assert COAN.seats(COAN.options({}), 6) == ("red", "blue", "black", "purple", "yellow",
                                                "green")
    with pytest.raises(UsageError, match="2 to 6 seats"):
        COAN.seats(COAN.options({}), 7)


def test_four_player_team_demo(tmp_path: Path, cli: Cli) -> None:
    result = cli("demo", tmp_path / "demo", "--rules", "coan", "--seats", "4",
                 "--option", "teams=red+black,blue+purple", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "verdict: everything holds" in result.stdout
    doc = strictyaml.loads((tmp_path / "demo" / "game.yaml").read_bytes())
    assert [p["seat"] for p in doc["reveal"]["outcome"]["standing"]] in (
        ["red+black", "blue+purple"], ["blue+purple", "red+black"])


def test_new_game_of_three(new_game: Callable[..., Path]) -> None:
    # frogfinder refuses three seats
    with pytest.raises(UsageError, match="played by 2 seats"):
        FROGFINDER.seats(FROGFINDER.options({}), 3)


_TEAMS = {4: ["", "red+black,blue+purple"], 6: ["", "red+black+yellow,blue+purple+green"]}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.integers(1, 3), st.booleans())
def test_a_number_or_a_wrong_guess_moves_on_as_every_other_move_does(
        seed: int, count: int, frogs: int, teams: bool) -> None:
    """A number or a wrong guess reveals no frog, so the engine passes the turn at once.
    At every such move of random games (2 to 6 seats, teams, seats going out), the state
    is the one the general path makes: the move's change, then who is out, the end or
    the turn."""
    rng = random.Random(seed)
    options = COAN.options({"size": 6, "frogs": frogs,
                            "teams": rng.choice(_TEAMS.get(count, [""])) if teams else ""})
    seats = COAN.seats(options, count)
    _, secrets = COAN.deal(options, seats, rng)
    state = COAN.start(options, seats, None, secrets)
    checked = 0
    while (seat := COAN.to_move(state)) is not None:
        view = COAN.view(state, frozenset(state.members(state.teams[seat])))
        taken = set(view.shots) | set(view.revealed) | {
            n for own in view.own_frogs.values() for n in own}
        target = rng.choice([f"{c}{r}" for c in "ABCDEF" for r in range(1, 7)
                             if f"{c}{r}" not in taken])
        move = COAN.parse_move(f"{rng.choice(['shoot', 'guess'])} {target}")
        after, result = COAN.play(state, seat, move)
        if isinstance(result, Count | Miss):
            team = state.teams[seat]
            changed = replace(state, shots={**state.shots, move.square: result.count},
                              ply=state.ply + 1) if isinstance(result, Count) else \
                replace(state, misses=state.misses | {move.square}, ply=state.ply + 1,
                        points={**state.points, team: state.points[team] - 3})
            assert after == COAN._after_move(changed, None)
            checked += 1
        state = after
    event(f"numbers and wrong guesses checked: {min(checked, 20) // 5 * 5}+")
