"""Red learns nothing of blue's frogs but what the results say: two Frog Finder games
without a referee that differ only in blue's frogs show red the same thing, byte for byte,
through the command line.

The two games share the header (one file, copied: red's secret and commitment) and all
the public results; blue joins each with a secret of its own, chosen here (the tool's
``SeatSecret.new`` patched for blue's join) so that blue's frogs differ while red's frogs
(drawn with blue's public seed) are the same, and the overlap test passes at the first
attempt in both. Red's moves go to squares where both blues give the same answer; blue's
are the same in both. After every command red's ``view --json`` (without ``head``: the
hash of the last message, which covers blue's commitments and so must differ), ``hint
--json``, ``view --format svg`` and ``--format html`` are the same in both games, until
blue reveals its secret at the end: then they differ (the comparison would see a leak).

Each game has its own homes (a tool's memory takes one game per id): red-A, red-B,
blue-A, blue-B; every command runs at the same fixed time.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from frogpbem.board import Board, Square
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.duel.engine import open_secret
from frogpbem.gamefile.duelfile import parse_duel
from frogpbem.games.frogfinder import FrogFinder
from tests.conftest import Cli, Keys, Result
from tests.duel.test_referee_free_frogfinder import independent_placement, names

RULES = FrogFinder()
SIZE, FROGS = 4, 2
NOW = "2026-12-01T09:30:00Z"
PLAYER = {"red": "alice", "blue": "bob"}


@dataclass
class Copy:
    """One of the two games: its folder, and each seat's home."""

    label: str
    folder: Path

    @property
    def game(self) -> Path:
        return self.folder / "game.yaml"


Run = Callable[..., Result]


@pytest.fixture
def run(cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    def go(copy: Copy, seat: str, *args: str | Path, key: bool = True) -> Result:
        player = PLAYER[seat]
        monkeypatch.setenv("FROGPBEM_HOME", str(tmp_path / f"home-{player}-{copy.label}"))
        monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / f"state-{player}-{copy.label}"))
        monkeypatch.setenv("FROGPBEM_NOW", NOW)
        extra: tuple[str | Path, ...] = ("--key", keys.path(player)) if key else ()
        return cli(*args, *extra)

    return go


def ok(result: Result) -> str:
    assert result.exit_code == 0, result.output
    text: str = result.stdout
    return text


def seen_by_red(run: Run, copy: Copy) -> dict[str, str]:
    """What red's tool shows of ``copy``: view (json, without ``head``), hint, pictures."""
    view = json.loads(ok(run(copy, "red", "view", copy.game, "--json")))
    head = view.pop("head")
    assert head == parse_duel(copy.game.read_bytes(), "copy").head  # the one field left out
    shown = {"view": json.dumps(view, sort_keys=True),
             "svg": ok(run(copy, "red", "view", copy.game, "--format", "svg")),
             "html": ok(run(copy, "red", "view", copy.game, "--format", "html")),
             "text": ok(run(copy, "red", "view", copy.game))}
    hint = run(copy, "red", "hint", copy.game, "--json")
    shown["hint"] = hint.stdout if hint.exit_code == 0 else f"refused: {hint.stderr}"
    return shown


def twin_secrets(game: str, red: SeatSecret) -> tuple[SeatSecret, SeatSecret, frozenset[Square]]:
    """Two blue secrets under which red's frogs (attempt 0) are the same, blue's differ,
    and neither blue shares a square with red (the overlap test passes at once); red's
    frogs. The placements are the spec's dealer computed here (hashlib)."""
    red_public = red.public_seed()

    def frogs(seat: str, secret: str, other_public: str) -> frozenset[Square]:
        return frozenset(independent_placement(game, seat, secret, other_public, 0, SIZE,
                                               FROGS))

    by_red: dict[frozenset[Square], SeatSecret] = {}
    for _ in range(5000):
        blue = SeatSecret.new(game, "blue")
        red_frogs = frogs("red", red.secret, blue.public_seed())
        blue_frogs = frogs("blue", blue.secret, red_public)
        if red_frogs & blue_frogs:
            continue
        twin = by_red.get(red_frogs)
        if twin is not None and frogs("blue", twin.secret, red_public) != blue_frogs:
            return twin, blue, red_frogs
        by_red.setdefault(red_frogs, blue)
    raise AssertionError("no two blue secrets found")


def test_referee_free_frogfinder_red_sees_the_same_whatever_blues_frogs(
        run: Run, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = Copy("A", tmp_path / "A"), Copy("B", tmp_path / "B")
    for copy in (a, b):
        copy.folder.mkdir()
    ok(run(a, "red", "new", a.game, "--rules", "frogfinder", "--no-referee",
           "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
           "--option", f"size={SIZE}", "--option", f"frogs={FROGS}"))
    shutil.copyfile(a.game, b.game)  # one header: red's secret and commitment
    header = parse_duel(a.game.read_bytes(), "copy").header
    red = open_secret(header.secret.sealed, header.game, "red", header.secret.commitment,
                      keys.key("alice"))
    blues = twin_secrets(header.game, red)
    red_frogs = blues[2]
    board = Board(SIZE)
    placed = {}
    for copy, blue in zip((a, b), blues[:2], strict=False):
        with monkeypatch.context() as patch:
            patch.setattr(SeatSecret, "new", classmethod(lambda cls, game, seat, b=blue: b))
            ok(run(copy, "blue", "move", copy.game))  # the join, with blue's chosen secret
        placed[copy.label] = frozenset(independent_placement(
            header.game, "blue", blue.secret, red.public_seed(), 0, SIZE, FROGS))
    assert placed["A"] != placed["B"]
    fulls = {label: RULES.start(RULES.options({"size": SIZE, "frogs": FROGS}),
                                ("red", "blue"), None,
                                {"red": {"frogs": names(red_frogs)},
                                 "blue": {"frogs": names(placed[label])}})
             for label in ("A", "B")}

    def both(seat: str, *words: str) -> None:
        for copy in (a, b):
            ok(run(copy, seat, "move", copy.game, *words))

    # the setup: red's public seed and setup, blue's setup, red's overlap (m = 0)
    for seat in ("red", "blue", "red"):
        both(seat)
    for copy in (a, b):
        overlaps = [m.step("overlap") for m in parse_duel(copy.game.read_bytes(),
                                                          "c").messages if m.step("overlap")]
        assert overlaps and all(isinstance(o, dict) and o["count"] == 0 for o in overlaps)
    seen = [seen_by_red(run, a)]
    assert seen[-1] == seen_by_red(run, b)

    def same_answer(square: Square, move: str) -> bool:
        """Whether both blues answer red's ``move`` at ``square`` alike (the refereed rules
        with each placement)."""
        results = [RULES.play(fulls[label], "red", RULES.parse_move(f"{move} {square.name}"))[1]
                   for label in ("A", "B")]
        return results[0] == results[1]

    def open_square(square: Square) -> bool:
        state = fulls["A"]
        return square not in state.shots and square not in state.revealed and \
            square not in state.misses

    red_targets = iter(["shoot", "guess", "shoot", "guess", "shoot", "guess"])
    blue_targets = iter(sorted(red_frogs, key=lambda q: (q.row, q.col)))
    steps = 0
    while (mover := RULES.to_move(fulls["A"])) is not None:
        assert RULES.to_move(fulls["B"]) == mover
        if mover == "red":
            kind = next(red_targets)
            square = next(q for q in board.squares() if open_square(q) and q not in red_frogs
                          and same_answer(q, kind))
            move = f"{kind} {square.name}"
        else:  # blue guesses red's frogs, the same in both games
            move = f"guess {next(blue_targets).name}"
        both(mover, move)
        results = []
        for label in ("A", "B"):
            fulls[label], result = RULES.play(fulls[label], mover, RULES.parse_move(move))
            results.append(result)
        assert results[0] == results[1]
        # the answer to the move before is in: red sees the same in both games
        shown = seen_by_red(run, a)
        assert shown == seen_by_red(run, b), move
        seen.append(shown)
        steps += 1
    assert steps >= 3 and RULES.outcome(fulls["A"]) == RULES.outcome(fulls["B"]) is not None
    # the last answer (red's): the game is over, blue's frogs still hidden
    both("red")
    over = seen_by_red(run, a)
    assert over == seen_by_red(run, b)
    assert json.loads(over["view"])["state"]["outcome"] is not None
    # each seat reveals (blue, then red with its next command): now everybody's frogs are
    # shown, and blue's differ
    both("blue")
    both("red")
    assert seen_by_red(run, a)["view"] != seen_by_red(run, b)["view"]
    assert len({json.dumps(s, sort_keys=True) for s in seen}) == len(seen)  # each step new
