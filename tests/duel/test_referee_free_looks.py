"""``view``, ``hint``, pictures, ``record``, ``verify --export/--against`` and ``audit`` on
games without a referee, played through the command line by two keys and two homes.

Every expected value comes from the refereed ruleset (:mod:`frogpbem.games`) playing the
same position from a setup derived here (hashlib, as the CLI tests derive it), from
``ssh-keygen``, or from the signed messages of the file itself. Each test takes a ruleset name:
a ruleset joins by adding a :class:`Kind` to :data:`KINDS` (how to start and play it
through the CLI, and its refereed state computed independently).
"""

from __future__ import annotations

import base64
import json
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from frogpbem.gamefile.duelfile import DuelFile, dump_duel, parse_duel
from frogpbem.games import find_game
from frogpbem.protocol.times import Clock
from frogpbem.ratings import rate_files
from tests.conftest import Cli, Keys
from tests.duel.conftest import Run, Seat, mail
from tests.duel.test_referee_free_cli import (
    Result,
    choose,
    independent_replay,
    play_to_end,
    start_game,
)


@dataclass(frozen=True)
class Kind:
    """How to play one ruleset without a referee through the CLI, and its position as the
    refereed rules reach it, computed independently of the code under test."""

    rules: str
    seats: tuple[str, str]
    start: Callable[[Run, Keys, Seat, Seat], None]
    """Create the game as the first seat and join as the second (the copy is mailed back
    to the first seat)."""
    play: Callable[[Run, Seat, Seat, int, int | None], Seat]
    """Play (seed, moves to stop after: ``None`` to the end); the seat holding the latest
    copy."""
    state: Callable[[DuelFile, Keys], Any]
    """The refereed rules' state of the file's position, every hidden piece in it (each
    seat's, derived from its secret opened with its key, or chosen by the driver)."""


def _froglet_start(run: Run, keys: Keys, first: Seat, second: Seat) -> None:
    start_game(run, keys, first, second)


def _froglet_play(run: Run, first: Seat, second: Seat, seed: int,
                  stop_after: int | None) -> Seat:
    """Play on from where the game stands (both seats hold the latest copy, and do
    after each move)."""
    file = parse_duel(first.game.read_bytes(), "copy")
    if not any(m.reveal for m in file.messages):
        return play_to_end(run, first, second, seed, stop_after)
    state = independent_replay(file)
    by_name = {first.name: first, second.name: second}
    rng = random.Random(seed)
    mover = first
    played = 0
    while state.outcome is None and (stop_after is None or played < stop_after):
        mover = by_name[state.seats[state.ply % 2]]
        other = second if mover is first else first
        done = run(mover, "move", mover.game, choose(state, rng))
        assert done.exit_code == 0, done.output
        played += 1
        state = independent_replay(parse_duel(mover.game.read_bytes(), "copy"))
        mail(mover, other)
    return mover


# --- Frog Finder: random moves (a square the tool refuses, the seat's own frog, is chosen
# again); the refereed state from both placements, derived here (hashlib) from the secrets
# opened with the seats' keys, playing every answered move (one awaiting its answer is not
# on the board yet).


def _ff_start(run: Run, keys: Keys, first: Seat, second: Seat) -> None:
    from tests.duel.test_referee_free_frogfinder_cli import set_up

    set_up(run, keys, first, second, 5, 2)  # small: each shot is answered with a proof


def _ff_progress(seat: Seat) -> Any:
    from frogpbem.duel.engine import replay

    file = parse_duel(seat.game.read_bytes(), "copy")
    return replay(file, trusted=len(file.messages))  # for the driver: its tool checked it


def _ff_play(run: Run, first: Seat, second: Seat, seed: int, stop_after: int | None) -> Seat:
    from frogpbem.duel.engine import due_seat
    from frogpbem.duel.registry import duel_rules
    from tests.duel.test_referee_free_frogfinder_cli import open_squares

    rng = random.Random(seed)
    by_name = {first.name: first, second.name: second}
    holder, played = first, 0
    while stop_after is None or played < stop_after:
        progress = _ff_progress(holder)
        due = due_seat(progress, duel_rules("frogfinder"))
        if due is None:
            break
        mover = by_name[due]
        other = second if mover is first else first
        pending = {p.move.split()[-1] for p in progress.played if p.result is None}
        squares = [q for q in open_squares(progress.state) if q not in pending]
        rng.shuffle(squares)
        for square in squares:
            done = run(mover, "move", mover.game,
                       f"{'shoot' if rng.random() < 0.6 else 'guess'} {square}")
            if done.exit_code == 0 or "game is over" in done.output:
                break
            assert done.exit_code == 4 and "your own frog" in done.output, done.output
        if done.exit_code != 0:  # its answer ended the game: the answer alone
            done = run(mover, "move", mover.game)
        assert done.exit_code == 0, done.output
        mail(mover, other)
        holder, played = mover, played + 1
    if stop_after is None:  # the last answer, then each seat's reveal
        for _ in range(6):
            file = parse_duel(holder.game.read_bytes(), "copy")
            if {m.seat for m in file.messages if m.reveal} == set(by_name):
                break
            mover = second if holder is first else first
            done = run(mover, "move", mover.game)
            assert done.exit_code == 0 or "nothing to add" in done.output, done.output
            mail(mover, holder)
            holder = mover
    return holder


def _ff_state(file: DuelFile, keys: Keys) -> Any:
    from tests.duel.test_referee_free_frogfinder import names
    from tests.duel.test_referee_free_frogfinder_cli import file_placements

    ruleset = find_game("frogfinder")
    header = file.header
    placed = {seat: {"frogs": names(frogs)}
              for seat, frogs in file_placements(file, keys, checked=False).items()}
    state = ruleset.start(ruleset.options(dict(header.options)), ("red", "blue"), None,
                          placed)
    for index, message in enumerate(file.messages):
        answered = any(later.seat != message.seat for later in file.messages[index + 1:])
        if message.move is not None and answered:
            state, _ = ruleset.play(state, message.seat, ruleset.parse_move(message.move))
        elif message.resign:
            state, _ = ruleset.play(state, message.seat, ruleset.parse_move("resign"))
    return state


# --- Secret Move: both seats choose their headers (the driver knows them); random legal
# moves (a stuck seat's tool passes for it); at the end each seat guesses the other's true
# values, then reveals. The refereed state is the rules with both headers from the start.


def _sm_game(run: Run, first: Seat, second: Seat, seed: int) -> Any:
    from tests.duel import test_referee_free_secretmove_cli as sm

    return sm.Game(run, first, second, random.Random(seed),  # type: ignore[arg-type]
                   dict(SM_HEADERS), {}, first)


SM_HEADERS = {"red": (0, 3, 5, 1, 2, 4), "blue": (5, 1, 0, 2, 4, 3)}


def _sm_guesses() -> dict[str, tuple[int, ...]]:
    from tests.duel import test_referee_free_secretmove_cli as sm

    return {name: tuple(sm.values(SM_HEADERS[other])[sq] for sq in sm.SQUARES)
            for name, other in (("red", "blue"), ("blue", "red"))}


def _sm_start(run: Run, keys: Keys, first: Seat, second: Seat) -> None:
    from tests.duel import test_referee_free_secretmove_cli as sm

    game = sm.start(run, keys, first, second, 0, dict(SM_HEADERS))  # type: ignore[arg-type]
    for seat in (first, second):
        if seat is not game.holder:
            mail(game.holder, seat)


def _sm_play(run: Run, first: Seat, second: Seat, seed: int, stop_after: int | None) -> Seat:
    from tests.duel import test_referee_free_secretmove_cli as sm

    game = _sm_game(run, first, second, seed)
    game.guesses = _sm_guesses()
    state, played = game.state(), 0
    while sm.RULES.phase(state) == "moves" and (stop_after is None or played < stop_after):
        name = sm.RULES.to_move(state)
        legal = sm.legal_moves(state.stones[name], sm.values(SM_HEADERS[name]))
        move = () if not legal else (sm.random_move(state, name, SM_HEADERS[name],
                                                    game.rng),)
        sm.ok(game.act(name, "move", "GAME", *move))
        state, played = game.state(), played + 1
    if stop_after is None and sm.RULES.phase(state) != "over":
        for name in ("red", "blue"):
            sm.ok(game.act(name, "move", "GAME", sm.guess_words(game.guesses[name])))
        for name in ("red", "blue"):
            sm.ok(game.act(name, "move", "GAME"))
    holder: Seat = game.holder
    for seat in (first, second):
        if seat is not holder:
            mail(holder, seat)
    return holder


def _sm_state(file: DuelFile, keys: Keys) -> Any:
    from tests.duel import test_referee_free_secretmove_cli as sm

    return sm.referee_replay(file, dict(SM_HEADERS), _sm_guesses())


KINDS: dict[str, Kind] = {
    "froglet": Kind("froglet", ("white", "black"), _froglet_start, _froglet_play,
                    lambda file, keys: independent_replay(file)),
    "frogfinder": Kind("frogfinder", ("red", "blue"), _ff_start, _ff_play, _ff_state),
    "secretmove": Kind("secretmove", ("red", "blue"), _sm_start, _sm_play, _sm_state),
}
RULES = sorted(KINDS)
PLAYERS = ("alice", "bob")


@dataclass
class Game:
    """A game played so far: both seats hold the latest copy (mailed), seen by both."""

    kind: Kind
    first: Seat
    second: Seat
    run: Run
    keys: Keys

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return self.first, self.second

    @property
    def file(self) -> DuelFile:
        return parse_duel(self.first.game.read_bytes(), "copy")

    def expected_view(self, seat: str | None) -> dict[str, Any]:
        """The refereed ruleset's view of the position for ``seat`` (``None``: the
        public); everybody's once the game is over."""
        rules = find_game(self.kind.rules)
        state = self.kind.state(self.file, self.keys)
        over = rules.outcome(state) is not None
        viewers = frozenset(self.kind.seats) if over else \
            frozenset({seat}) if seat else frozenset()
        board: dict[str, Any] = rules.view(state, viewers).to_json()
        return board


def played(kind: Kind, run: Run, keys: Keys, tmp_path: Path, seed: int,
           stop_after: int | None) -> Game:
    first, second = (Seat(name, player, tmp_path / player)
                     for name, player in zip(kind.seats, PLAYERS, strict=True))
    for seat in (first, second):
        seat.folder.mkdir()
    kind.start(run, keys, first, second)
    last = kind.play(run, first, second, seed, stop_after)
    for seat in (first, second):
        if seat is not last:
            mail(last, seat)
    for seat in (first, second):  # each seat's tool sees the latest copy
        assert run(seat, "verify", seat.game, key=False).exit_code == 0
    return Game(kind, first, second, run, keys)


@pytest.fixture
def run(as_seat: Run) -> Run:
    """Run a command as a seat: its own home and state, its key (tests/duel/conftest.py)."""
    return as_seat


def ok(result: Result) -> str:
    assert result.exit_code == 0, result.output
    text: str = result.stdout
    return text


# --- views, pictures, hints ------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_view_json_is_the_refereed_view(rules: str, run: Run, keys: Keys,
                                                     tmp_path: Path) -> None:
    game = played(KINDS[rules], run, keys, tmp_path, seed=3, stop_after=3)
    for seat in game.seats:
        shown = json.loads(ok(run(seat, "view", seat.game, "--json")))
        assert shown["seat"] == seat.name and shown["referee"] is None
        assert shown["state"] == game.expected_view(seat.name)
        assert shown["n"] == len(game.file.messages)
        assert [m["move"] for m in shown["moves"]] == \
            [m.move for m in game.file.messages if m.move is not None]
        public = json.loads(ok(run(seat, "view", seat.game, "--public", "--format", "json")))
        assert public["seat"] is None and public["state"] == game.expected_view(None)
        yaml = ok(run(seat, "view", seat.game, "--format", "yaml"))
        assert f"seat: {seat.name}" in yaml
    # at the end, everybody's view: the final position
    more = game.kind.play(run, game.first, game.second, 4, None)
    other = game.second if more is game.first else game.first
    mail(more, other)
    end = json.loads(ok(run(other, "view", other.game, "--json")))
    assert end["state"] == game.expected_view(other.name)
    assert end["state"]["outcome"] is not None


def test_referee_free_view_names_the_seat_whose_answer_is_awaited(run: Run, keys: Keys,
                                                                  tmp_path: Path) -> None:
    """After a Frog Finder move, until its answer comes, each seat's view says the other
    seat answers next (not that the mover is to move again)."""
    game = played(KINDS["frogfinder"], run, keys, tmp_path, seed=5, stop_after=1)
    mover = next(m.seat for m in reversed(game.file.messages) if m.move is not None)
    answering = next(s for s in game.kind.seats if s != mover)
    for seat in game.seats:
        shown = ok(run(seat, "view", seat.game))
        assert f"to answer: {answering} ({mover}'s last move awaits the answer)" in shown
        assert "to move:" not in shown


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_view_before_the_deal_says_so(rules: str, run: Run, keys: Keys,
                                                   tmp_path: Path) -> None:
    kind = KINDS[rules]
    first, second = (Seat(name, player, tmp_path / player)
                     for name, player in zip(kind.seats, PLAYERS, strict=True))
    for seat in (first, second):
        seat.folder.mkdir()
    made = run(first, "new", first.game, "--rules", rules, "--no-referee",
               "--seat", f"{first.name}={keys.pub('alice')}",
               "--seat", f"{second.name}={keys.pub('bob')}")
    assert made.exit_code == 0, made.output
    shown = json.loads(ok(run(first, "view", first.game, "--json")))
    assert shown == {"game": parse_duel(first.game.read_bytes(), "x").game, "dealt": False,
                     "referee": None, "waiting_for": [second.name]}
    drawn = run(first, "view", first.game, "--format", "svg")
    assert drawn.exit_code == 4 and "not dealt yet" in drawn.stderr
    assert drawn.stdout == ""


class _Balanced(HTMLParser):
    """Every element opened is closed, in order (void elements aside)."""

    VOID = frozenset({"meta", "br", "img", "input", "link", "hr", "col", "area", "base",
                      "wbr", "source", "track", "embed", "param"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (self.open[-3:], tag)
        self.open.pop()


def well_formed_page(page: str) -> None:
    """An HTML page: balanced elements, and its inline SVG well-formed XML."""
    assert page.startswith("<!DOCTYPE html>")
    parser = _Balanced()
    parser.feed(page)
    parser.close()
    assert parser.open == []
    svg = re.search(r"<svg .*?</svg>", page, re.DOTALL)
    assert svg is not None
    ET.fromstring(svg[0])
    for fetch in ("http:", "https:", "href", "src=", "url(", "@import", "@font-face"):
        assert fetch not in page.replace('xmlns="http://www.w3.org/2000/svg"', ""), fetch


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_pictures_are_the_refereed_pictures(rules: str, run: Run, keys: Keys,
                                                         tmp_path: Path) -> None:
    from frogpbem.pictures.draw import picture
    from frogpbem.pictures.scene import Scene

    game = played(KINDS[rules], run, keys, tmp_path, seed=6, stop_after=4)
    file = game.file
    ruleset = find_game(rules)
    last = [m for m in file.messages if m.move is not None][-1]
    for seat in game.seats:
        svg = ok(run(seat, "view", seat.game, "--format", "svg"))
        ET.fromstring(svg.split("\n", 1)[1])
        # the same drawing a refereed game of this position gives this seat
        board = ruleset.read_view(game.expected_view(seat.name))
        scene = Scene(seat.name, file.header.names, (last.seat, last.move or ""))
        assert svg == picture(board, scene).svg(standalone=True)
        page = ok(run(seat, "view", seat.game, "--format", "html"))
        well_formed_page(page)
        assert picture(board, scene).svg() in page
        assert f"view of {seat.name}" in page
    public = ok(run(game.first, "view", game.first.game, "--public", "--format", "svg"))
    ET.fromstring(public.split("\n", 1)[1])


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_hint_is_the_refereed_hint(rules: str, run: Run, keys: Keys,
                                                tmp_path: Path) -> None:
    game = played(KINDS[rules], run, keys, tmp_path, seed=8, stop_after=3)
    ruleset = find_game(rules)
    assert ruleset.hints is not None
    for seat in game.seats:
        board = ruleset.read_view(game.expected_view(seat.name))
        expected = ruleset.hints.hint(board, seat.name)
        assert json.loads(ok(run(seat, "hint", seat.game, "--json"))) == expected
        assert ok(run(seat, "hint", seat.game)).rstrip("\n") == \
            ruleset.hints.text(board, expected)
    public = run(game.first, "hint", game.first.game, key=False)
    assert public.exit_code != 0 and "Traceback" not in public.output


# --- record ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_record_steps_through_every_move(rules: str, run: Run, keys: Keys,
                                                      tmp_path: Path) -> None:
    game = played(KINDS[rules], run, keys, tmp_path, seed=9, stop_after=None)
    seat = game.first
    file = game.file
    moves = [m for m in file.messages if m.move is not None or m.resign]
    state = game.kind.state(file, keys)
    ruleset = find_game(rules)
    outcome = ruleset.outcome(state)
    assert outcome is not None
    data = json.loads(ok(run(seat, "record", seat.game, "--json", key=False)))
    assert [(m["n"], m["seat"], m["move"]) for m in data["moves"]] == \
        [(m.n, m.seat, m.move or "resign") for m in moves]
    assert data["referee"] is None and data["termination"] == outcome.termination
    text = ok(run(seat, "record", seat.game, key=False))
    ranks = {p.seat: p.rank for p in outcome.standing}
    token = "1/2-1/2" if outcome.is_draw else \
        "1-0" if ranks[game.kind.seats[0]] == 1 else "0-1"
    assert f'[Result "{token}"]' in text and text.rstrip().endswith(token)
    assert f'[Game "{file.game}"]' in text
    page = ok(run(seat, "record", seat.game, "--format", "html", key=False))
    well_formed_page(page)
    steps = re.findall(r'<li value="(\d+)" data-k="\d+">', page)
    hidden = ruleset.view(state, frozenset()).to_json() != \
        ruleset.view(state, frozenset(game.kind.seats)).to_json()
    assert [int(s) for s in steps] == list(range(len(moves) + 1 + hidden))


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_record_page_draws_in_a_real_browser(rules: str, run: Run, keys: Keys,
                                                          tmp_path: Path) -> None:
    """The one chromium run: the record page, drawn, is a board and not a blank page."""
    from tests.test_pictures import not_blank, screenshot

    game = played(KINDS[rules], run, keys, tmp_path, seed=10, stop_after=5)
    page = ok(run(game.first, "record", game.first.game, "--format", "html", key=False))
    out = tmp_path / "record.html"
    out.write_text(page)
    not_blank(screenshot(out, tmp_path / "record.png"), page)


# --- audit -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_audit_says_what_was_proven_and_when(rules: str, run: Run, keys: Keys,
                                                          tmp_path: Path) -> None:
    game = played(KINDS[rules], run, keys, tmp_path, seed=11, stop_after=2)
    seat = game.first
    file = game.file
    running = run(seat, "audit", seat.game, key=False)
    assert running.exit_code == 10, running.output  # as the refereed audit of a running game
    assert "not finished: everything so far holds" in running.stdout
    for message in file.messages:
        assert re.search(rf"^  ok   {message.n}\. .*\(signed by {message.seat}, chained\)$",
                         running.stdout, re.MULTILINE), (message.n, running.stdout)
    if rules == "froglet":
        assert "the deal re-derived from white's revealed secret" in running.stdout
        assert "black's public seed" in running.stdout
    if rules == "frogfinder":  # each proof said once, where it was given
        assert running.stdout.count("committed to its 2 frogs of attempt") == \
            2 * running.stdout.count("red's overlap: the placements of attempt") >= 2
        assert "each answer proven when given against both seats' commitments" in \
            running.stdout
    if rules == "secretmove":
        assert "OK red's header commitments: 36 bits" in running.stdout
    last = game.kind.play(run, game.first, game.second, 12, None)
    final = last.folder / "final.yaml"
    shutil.copyfile(last.game, final)
    done = run(last, "audit", final, "--json", key=False)
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)[0]
    assert report["ok"] and report["finished"] and report["verdict"] == "everything holds"
    outcome = find_game(rules).outcome(game.kind.state(parse_duel(final.read_bytes(), "f"),
                                                      keys))
    assert outcome is not None
    assert any(c["what"].startswith(f"end: {outcome.termination}") for c in report["checks"])
    # ratings count it, with the places of the rules' outcome and the seats' keys
    rated = rate_files([final], clock=Clock.from_environment(), jobs=1)
    assert len(rated.counted) == 1 and not rated.not_counted
    result = rated.counted[0].result
    assert result.places == tuple((p.rank, (p.seat,)) for p in outcome.standing)
    assert {s.seat: s.key for s in result.seats} == {
        party.seat: party.key for party in parse_duel(final.read_bytes(), "f").header.seats}
    assert result.referee == "" and result.termination == outcome.termination


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_audit_of_a_mix_with_refereed_games(rules: str, run: Run, keys: Keys,
                                                         cli: Cli, tmp_path: Path) -> None:
    from tests.test_pictures import cli_game

    refereed = cli_game(cli, keys, tmp_path, "frogfinder")  # a refereed game, not over
    game = played(KINDS[rules], run, keys, tmp_path, seed=13, stop_after=None)
    last = game.first
    mixed = run(last, "audit", refereed, last.game, key=False)
    assert mixed.exit_code == 10, mixed.output
    assert mixed.stdout.count("verdict:") == 2
    assert "verdict: everything holds" in mixed.stdout
    # a message changed after it was signed: the audit fails it, exit 1 for the lot
    file = game.file
    index = next(i for i, m in enumerate(file.messages) if m.move is not None)
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(dump_duel(DuelFile(file.header, (
        *file.messages[:index], replace(file.messages[index], at="2000-01-01T00:00:00Z"),
        *file.messages[index + 1:]))))
    broken = run(last, "audit", refereed, bad, last.game, "--json", key=False)
    assert broken.exit_code == 1, broken.output
    reports = json.loads(broken.stdout)
    assert [r["ok"] for r in reports] == [True, False, True]
    assert any(f"message {index + 1}" in c["what"] and not c["ok"]
               for c in reports[1]["checks"])


# --- verify --export, --against, --proof --------------------------------------------------


def ssh_verify(allowed: Path, principal: str, signature: Path, message: Path) -> bool:
    done = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(allowed), "-I", principal,
                           "-n", "frogpbem", "-s", str(signature)],
                          input=message.read_bytes(), capture_output=True, check=False)
    return done.returncode == 0


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_export_checks_with_ssh_keygen(rules: str, run: Run, keys: Keys,
                                                    tmp_path: Path) -> None:
    if shutil.which("ssh-keygen") is None:
        pytest.fail("ssh-keygen is missing")
    game = played(KINDS[rules], run, keys, tmp_path, seed=14, stop_after=3)
    seat = game.first
    out = tmp_path / "export"
    shown = json.loads(ok(run(seat, "verify", seat.game, "--export", out, "--json",
                              key=False)))
    file = game.file
    signed = [e for e in shown["exported"] if e["signature"]]
    assert [e["element"] for e in signed] == \
        ["header", *(f"message-{m.n}" for m in file.messages)]
    assert [e["signer"] for e in signed] == \
        [game.kind.seats[0], *(m.seat for m in file.messages)]
    allowed = out / "allowed_signers"
    for entry in signed:
        assert ssh_verify(allowed, entry["signer"], Path(entry["signature"]),
                          Path(entry["message"])), entry
        other = next(s for s in game.kind.seats if s != entry["signer"])
        assert not ssh_verify(allowed, other, Path(entry["signature"]),
                              Path(entry["message"]))
    message = Path(signed[-1]["message"])
    message.write_bytes(message.read_bytes().replace(b'"n":', b'"n": '))
    assert not ssh_verify(allowed, signed[-1]["signer"], Path(signed[-1]["signature"]),
                          message)
    again = run(seat, "verify", seat.game, "--export", out, key=False)
    assert again.exit_code == 9 and "not an empty folder" in again.stderr


@pytest.mark.parametrize("rules", RULES)
def test_referee_free_against_a_forked_copy_gives_a_proof(rules: str, run: Run, keys: Keys,
                                                          tmp_path: Path) -> None:
    game = played(KINDS[rules], run, keys, tmp_path, seed=15, stop_after=4)
    seat = game.first
    file = game.file
    same = tmp_path / "same.yaml"
    shutil.copyfile(seat.game, same)
    assert "no fork" in ok(run(seat, "verify", seat.game, "--against", same, key=False))
    # the last mover signs another message of the same number: a fork
    last = file.messages[-1]
    player = PLAYERS[game.kind.seats.index(last.seat)]
    assert last.move is not None and not last.resign
    forked = replace(last, move=None, resign=True)
    copy = tmp_path / "fork.yaml"
    copy.write_bytes(dump_duel(DuelFile(file.header, (*file.messages[:-1],
                                                      forked.signed(keys.key(player))))))
    result = run(seat, "verify", seat.game, "--against", copy, key=False)
    assert result.exit_code == 11, result.output
    assert f"FORK: {last.seat} signed two different message {last.n}s" in result.stderr
    saved = re.search(r"proof saved to (\S+)", result.stdout)
    assert saved is not None
    proof = Path(saved[1])
    assert proof.exists()
    checked = run(seat, "verify", "--proof", proof, key=False)
    assert checked.exit_code == 0, checked.output
    assert "the proof holds" in checked.stdout
    # the proof's two messages check with ssh-keygen alone, by the seat that signed both
    text = proof.read_text()
    fields = [line.split(" ", 1) for line in text.splitlines() if not line.startswith("#")]
    allowed = tmp_path / "allowed"
    allowed.write_text(next(v for k, v in fields[1:] if k == "allowed_signers") + "\n")
    for name in ("first", "second"):
        msg, sig = tmp_path / f"{name}.msg", tmp_path / f"{name}.sig"
        msg.write_bytes(base64.b64decode("".join(v for k, v in fields[1:]
                                                 if k == f"{name}_message")))
        sig.write_text("\n".join(v for k, v in fields[1:] if k == f"{name}_signature") + "\n")
        assert ssh_verify(allowed, last.seat, sig, msg)
    # a proof with one message changed no longer holds
    tampered = tmp_path / "tampered.proof"
    tampered.write_text(text.replace("second_message ", "second_message A", 1))
    assert run(seat, "verify", "--proof", tampered, key=False).exit_code == 1


def test_referee_free_audit_waits_for_an_awaited_reveal(run: Run, keys: Keys, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """A ruleset whose end rests on a seat's reveal (as Frog Finder's placement does): the
    game over without it is reported unfinished, exit 10, as a refereed game without its
    reveal; once the seat reveals, the audit holds."""
    from frogpbem.duel.rules import FrogletDuel, Progress

    def both(self: FrogletDuel, progress: Progress) -> tuple[str, ...]:
        return tuple(s for s in progress.seats if s not in progress.revealed)

    game = played(KINDS["froglet"], run, keys, tmp_path, seed=16, stop_after=None)
    # awaited from here on: played with it, black's tool would reveal with its last move
    monkeypatch.setattr(FrogletDuel, "awaited_reveals", both)
    black = game.second
    waiting = run(black, "audit", black.game, key=False)
    assert waiting.exit_code == 10, waiting.output
    assert "the game is over, but black has not revealed" in waiting.stdout
    ok(run(black, "move", black.game))  # the game is over: black's tool reveals its secret
    done = run(black, "audit", black.game, key=False)
    assert done.exit_code == 0, done.output
    assert re.search(r"ok   \d+\. black revealed its secret: it matches its seed "
                     r"commitment and gives the public seed it showed", done.stdout)
