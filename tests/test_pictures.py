"""Pictures of views: SVG and HTML drawn in a real browser, self-contained, small, and
showing a seat nothing more than its text view does; colour only on a terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from frogpbem.dealing import SeatSpec, create_game, start_game
from frogpbem.demo import play_demo
from frogpbem.gamefile.model import ChosenSetup
from frogpbem.games.froglet_view import FrogletView
from frogpbem.games.frogs_notation import FrogsView
from frogpbem.mail.compose import letters
from frogpbem.pictures import froglet as froglet_picture
from frogpbem.pictures import frogs as frogs_picture
from frogpbem.pictures import secretmove as secretmove_picture
from frogpbem.pictures.draw import picture
from frogpbem.pictures.scene import Scene
from frogpbem.pictures.svg import Grid
from frogpbem.protocol.game import load
from tests.conftest import SETUP, Cli, Keys, here, now, play_moves, write_setup

# Frog Finder on the known 6x6 setup (red A1 B2, blue E5 F6): a count, a wrong guess,
# a blue frog shot by red, a red frog found by blue; red to move.
FROGFINDER_MOVES = [("alice", "shoot C3"), ("bob", "guess D4"), ("alice", "shoot E5"),
                    ("bob", "guess A1")]
# Coan with three seats (black: A6 F1): red shoots blue's frog, blue finds black's.
COAN_SETUP = {**SETUP, "black": {"frogs": ["A6", "F1"]}}
COAN_MOVES = [("alice", "shoot E5"), ("bob", "guess A6"), ("mallory", "shoot C3")]
EMPTY_SQUARE = "C5"
"""Open on both of those boards: nobody has shot, guessed or hidden a frog there."""


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is missing: ./run test installs it (apt-get install chromium)")
    return found


def screenshot(page: Path, out: Path, size: tuple[int, int] = (900, 800),
               query: str = "") -> Image.Image:
    """``page`` as a real headless browser draws it, at one pixel per CSS pixel."""
    done = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--hide-scrollbars", "--force-device-scale-factor=1",
         f"--user-data-dir={out.parent / 'chromium'}",
         f"--window-size={size[0]},{size[1]}", "--virtual-time-budget=3000",
         f"--screenshot={out}", page.resolve().as_uri() + query],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and out.exists(), done.stderr[-2000:]
    return Image.open(out).convert("RGB")


def not_blank(image: Image.Image, picture: str) -> None:
    """The box of the board's picture (the page's first SVG, at its top-left corner) is
    drawn: many colours, and far from all white."""
    size = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', picture)
    assert size is not None
    image = image.crop((0, 0, int(size[1]), int(size[2])))
    colours = image.getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 20, "the picture has almost no colours"
    white = sum(n for n, rgb in colours if rgb == (255, 255, 255))
    assert white < 0.9 * image.width * image.height, "the picture is nearly all white"


def cli_game(cli: Cli, keys: Keys, tmp_path: Path, rules: str) -> Path:
    """A game played by the CLI to a known mid-game position."""
    game = tmp_path / f"{rules}.yaml"
    seats = [("red", "alice"), ("blue", "bob")] + ([("black", "mallory")] if rules == "coan"
                                                   else [])
    setup = COAN_SETUP if rules == "coan" else SETUP
    args: list[Any] = ["new", game, "--rules", rules, "--referee", keys.path("referee"),
                       "--option", "size=6", "--option", "frogs=2",
                       "--setup", write_setup(tmp_path, setup)]
    for seat, player in seats:
        args += ["--seat", f"{seat}={keys.pub(player)}", "--name", f"{seat}={player.title()}"]
    made = cli(*args)
    assert made.exit_code == 0, made.output
    play_moves(cli, keys, game, FROGFINDER_MOVES if rules == "frogfinder" else COAN_MOVES)
    return game


def demo_game(tmp_path: Path, rules: str) -> tuple[Path, Path]:
    """A game of ``rules`` the demonstration bots left after four moves; and alice's key."""
    folder = tmp_path / rules
    result = play_demo(folder, rules, seed=7, moves=4, session=here())
    assert result.audit.ok and result.outcome is None
    return result.game, folder / "alice"


def points_to_compare(rules: str, view: dict[str, Any]) -> tuple[tuple[int, int],
                                                                  tuple[int, int]]:
    """A point that must look different from a plain square, and one of a plain square."""
    board = view["state"]
    if rules in ("frogfinder", "coan"):
        grid = Grid(board["size"], frogs_picture.MARGIN, frogs_picture.MARGIN,
                    frogs_picture.CELL)
        shot = [n for n, frog in board["revealed"].items() if frog["how"] == "shot"]
        assert shot == ["E5"]
        (x, y), (ex, ey) = grid.corner("E5"), grid.corner(EMPTY_SQUARE)
        return (x + 5, y + 5), (ex + 5, ey + 5)  # the square's ground, beside the frog
    if rules == "froglet":
        grid = Grid(board["size"], froglet_picture.MARGIN, froglet_picture.MARGIN,
                    froglet_picture.CELL)
        at = froglet_picture.squares(FrogletView.from_json(board))
        frog = next(n for n, c in sorted(at.items()) if c != ".")
        empty = next(n for n, c in sorted(at.items()) if c == ".")
        (x, y), (ex, ey) = grid.centre(frog), grid.centre(empty)
        return (int(x), int(y)), (int(ex), int(ey))  # a frog's middle, an empty square's
    # Secret Move: the last move's target square is framed; a square it did not touch is not
    seat, move = view["moves"][-1]["seat"], view["moves"][-1]["move"]
    squares = re.match(r"([A-C][1-3])-([A-C][1-3]) ", move)
    assert squares is not None, move
    source, target = squares.groups()
    index = view["state"]["seats"].index(seat)
    cell, gap = secretmove_picture.CELL, secretmove_picture.GAP
    grid = Grid(3, secretmove_picture.MARGIN + index * (3 * cell + gap),
                secretmove_picture.MARGIN + secretmove_picture.LINE * 2, cell)
    other = next(n for n in grid.names() if n not in (source, target))
    (x, y), (ox, oy) = grid.corner(target), grid.corner(other)
    return (x + 2, y + cell // 2), (ox + 2, oy + cell // 2)


@pytest.mark.parametrize("rules", ["frogfinder", "coan", "froglet", "secretmove"])
def test_a_mid_game_view_draws_in_a_real_browser(rules: str, cli: Cli, keys: Keys,
                                                 tmp_path: Path) -> None:
    if rules in ("frogfinder", "coan"):
        game, key = cli_game(cli, keys, tmp_path, rules), keys.path("alice")
    else:
        game, key = demo_game(tmp_path, rules)
    view = json.loads(cli("view", game, "--key", key, "--json").stdout)
    assert view["state"]["outcome"] is None  # the middle of a game
    marked, plain = points_to_compare(rules, view)
    for fmt in ("svg", "html"):
        shown = cli("view", game, "--key", key, "--format", fmt)
        assert shown.exit_code == 0, shown.output
        page = tmp_path / f"view.{fmt}"
        page.write_text(shown.stdout)
        image = screenshot(page, tmp_path / f"{rules}-{fmt}.png")
        not_blank(image, shown.stdout)
        assert image.getpixel(marked) != image.getpixel(plain), (fmt, marked, plain)


def test_a_record_page_steps_from_the_start_to_the_reveal(
    finished_game: Path, cli: Cli, tmp_path: Path
) -> None:
    shown = cli("record", finished_game, "--format", "html")
    assert shown.exit_code == 0, shown.output
    page = tmp_path / "record.html"
    page.write_text(shown.stdout)
    records = len(json.loads(cli("record", finished_game, "--json").stdout)["moves"])
    steps = re.findall(r'<li value="(\d+)" data-k="\d+">', shown.stdout)
    assert [int(s) for s in steps] == list(range(records + 2))  # start, each record, reveal
    assert "the reveal" in shown.stdout.rsplit("<li", 1)[1]
    grid = Grid(6, frogs_picture.MARGIN, frogs_picture.MARGIN, frogs_picture.CELL)
    frog = tuple(int(v) for v in grid.centre("A1"))  # red's frog, never found nor shot
    end = screenshot(page, tmp_path / "end.png")
    start = screenshot(page, tmp_path / "start.png", query="?0")
    not_blank(end, shown.stdout)
    assert start.getpixel(frog) != end.getpixel(frog)  # hidden at the start, shown at the end
    corner = tuple(v + 5 for v in grid.corner("C3"))  # red shot C3 first
    after_one = screenshot(page, tmp_path / "one.png", query="?1")
    assert start.getpixel(corner) != after_one.getpixel(corner)


def test_pictures_are_self_contained_well_formed_and_small(
    cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = cli_game(cli, keys, tmp_path, "coan")
    for fmt in ("svg", "html"):
        text = cli("view", game, "--key", keys.path("bob"), "--format", fmt).stdout
        without_namespace = text.replace('xmlns="http://www.w3.org/2000/svg"', "")
        for fetch in ("http:", "https:", "href", "src=", "url(", "@import", "@font-face"):
            assert fetch not in without_namespace, (fmt, fetch)
    ET.fromstring(cli("view", game, "--key", keys.path("bob"), "--format", "svg").stdout
                  .split("\n", 1)[1])
    # a crowded 12x12 board: every square shot, guessed or holding a frog, six seats
    seats = ["red", "blue", "black", "purple", "yellow", "green"]
    names = [f"{c}{r}" for c in "ABCDEFGHIJKL" for r in range(1, 13)]
    board = {"rules": "coan", "size": 12, "frogs": 5, "seats": seats,
             "teams": {s: s for s in seats}, "to_move": "red",
             "points": dict.fromkeys(seats, 10), "out": [],
             "hidden_left": dict.fromkeys(seats, 5),
             "shots": dict.fromkeys(names[:60], 8), "misses": names[60:84],
             "revealed": {n: {"owner": seats[i % 6], "how": ("shot", "found")[i % 2]}
                          for i, n in enumerate(names[84:139])},
             "own_frogs": {"red": names[139:]}, "outcome": None}
    scene = Scene("red", dict.fromkeys(seats, "A Name"), ("red", "shoot A1"))
    svg = picture(FrogsView.from_json(board), scene).svg(standalone=True)
    ET.fromstring(svg.split("\n", 1)[1])
    assert len(svg.encode()) < 40_000, len(svg.encode())


def test_names_from_a_file_are_escaped_in_every_picture(cli: Cli, keys: Keys,
                                                       tmp_path: Path) -> None:
    """Names as a hostile referee may sign them (``new`` refuses the escape sequence)."""
    from frogpbem.dealing import SeatSpec, create_game, start_game
    from frogpbem.gamefile.model import ChosenSetup

    game = tmp_path / "game.yaml"
    seats = [SeatSpec("red", keys.key("alice").public, '<script>alert("x")</script>&amp;'),
             SeatSpec("blue", keys.key("bob").public, "B\x1b[2Jb")]
    start_game(game, create_game("frogfinder", keys.key("referee"), "<b>Carol", seats,
                                 {"size": 6, "frogs": 2}, ChosenSetup.from_json(SETUP),
                                 created=now()),
               keys.key("referee"), here())
    assert cli("move", game, "shoot C3", "--key", keys.path("alice")).exit_code == 0
    assert cli("move", game, "--key", keys.path("referee")).exit_code == 0
    shown = [cli("view", game, "--key", keys.path("alice"), "--format", fmt).stdout
             for fmt in ("svg", "html")]
    shown.append(cli("record", game, "--format", "html").stdout)
    ET.fromstring(shown[0].split("\n", 1)[1])  # still well-formed XML
    for text in shown:
        assert "<script>alert" not in text and "<b>" not in text and "\x1b" not in text
        assert "&lt;script&gt;" in text


def test_a_heat_map_layer_shows_each_probability(tmp_path: Path) -> None:
    board = {"rules": "frogfinder", "size": 6, "frogs": 2, "seats": ["red", "blue"],
             "teams": {"red": "red", "blue": "blue"}, "to_move": "red",
             "points": {"red": 0, "blue": 0}, "out": [], "hidden_left": {"red": 2, "blue": 2},
             "shots": {"A1": 1}, "revealed": {}, "misses": [], "own_frogs": {}, "outcome": None}
    view = FrogsView.from_json(board)
    plain = picture(view, Scene("red", {})).svg()
    heat = picture(view, Scene("red", {}, heat={"B2": 0.25, "A1": 0.9})).svg()
    assert heat.count("#e53935") == plain.count("#e53935") + 1  # a shot square gets none
    assert ">25</text>" in heat and ">25</text>" not in plain


def two_setups_game(cli: Cli, keys: Keys, folder: Path, setup: dict[str, object],
                    monkeypatch: pytest.MonkeyPatch) -> Path:
    """The moves of test_views on ``setup``, in a game with a fixed id and date, played
    with this folder's own memories (the two games share an id)."""
    from tests.test_views import MOVES

    folder.mkdir()
    monkeypatch.setenv("FROGPBEM_HOME", str(folder / "home"))
    monkeypatch.setenv("FROGPBEM_STATE", str(folder / "state"))
    referee = keys.key("referee")
    specs = [SeatSpec("red", keys.key("alice").public, "Alice"),
             SeatSpec("blue", keys.key("bob").public, "Bob")]
    file = create_game("frogfinder", referee, "Carol", specs, {"size": 6, "frogs": 2},
                       ChosenSetup.from_json(setup), game_id="ff-same",
                       created="2026-11-30T12:00:00Z")
    game = folder / "game.yaml"
    start_game(game, file, referee, here())
    play_moves(cli, keys, game, MOVES)
    return game


def test_two_setups_give_the_same_pictures_to_everyone_but_the_owner(
    cli: Cli, keys: Keys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_views import SETUP_A, SETUP_B

    shown: dict[str, dict[str, str]] = {}
    for label, setup in (("a", SETUP_A), ("b", SETUP_B)):
        game = two_setups_game(cli, keys, tmp_path / label, setup, monkeypatch)
        outputs = {}
        for who, args in (("blue", ["--key", keys.path("bob")]), ("public", ["--public"]),
                          ("red", ["--key", keys.path("alice")])):
            for fmt in ("svg", "html"):
                result = cli("view", game, "--format", fmt, *args)
                assert result.exit_code == 0, result.output
                outputs[f"{who}.{fmt}"] = result.stdout
        outputs["record.html"] = cli("record", game, "--format", "html").stdout
        mail = letters(load(game, here()), keys.key("referee"), to="blue")[0].message
        outputs["blue.mail.html"] = mail.get_body(("html",)).get_content()
        shown[label] = outputs
    for name in shown["a"]:
        if name.startswith("red."):
            assert shown["a"][name] != shown["b"][name], name  # red sees its own frogs
        else:
            assert shown["a"][name] == shown["b"][name], name  # byte for byte


def test_a_seat_mail_carries_its_board_as_a_page_beside_the_text(
    new_game: Callable[..., Path], keys: Keys, cli: Cli
) -> None:
    game = new_game()
    found = {letter.role: letter.message
             for letter in letters(load(game, here()), keys.key("referee"))}
    message = found["blue"]
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert "View of: blue (Bob)" in text
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "view of blue" in html
    # a mail program that shows the HTML part shows nothing else: every line is there too
    from html import escape

    for line in text.splitlines():
        assert escape(line) in html, line
    assert [part.get_filename() for part in message.iter_attachments()] == [
        "game.yaml", "game.blue.view.yaml"]


def test_a_mailed_view_file_as_a_page_says_what_checked_it(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    game = new_game()
    view_file = game.with_name("game.blue.view.yaml")
    unseen = cli("view", view_file, "--format", "svg")
    assert unseen.exit_code == 0 and unseen.stdout.startswith("<?xml")
    assert "NOT VERIFIED" in unseen.stderr
    assert cli("view", game, "--key", keys.path("bob")).exit_code == 0  # the tool sees the game
    page = cli("view", view_file, "--format", "html")
    assert page.exit_code == 0 and "Check: signed by the referee" in page.stdout
    assert cli("view", view_file, "--format", "yaml").exit_code == 2


def terminal_output(args: list[str], env: dict[str, str]) -> bytes:
    """What ``frogpbem ARGS`` writes to a real (pseudo-)terminal."""
    main, other = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "frogpbem", *args], stdout=other,
                               stderr=other, env=env)
    os.close(other)
    out = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal closed: the command is done
            break
        if not chunk:
            break
        out += chunk
    os.close(main)
    assert process.wait(timeout=60) == 0, out.decode(errors="replace")
    return out


def test_text_is_in_colour_on_a_terminal_only(
    new_game: Callable[..., Path], play: Callable[..., Any], keys: Keys
) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    args = ["view", str(game), "--key", str(keys.path("alice"))]
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env["TERM"] = "xterm-256color"
    coloured = terminal_output(args, env)
    assert b"\x1b[" in coloured
    plain = terminal_output(args, {**env, "NO_COLOR": "1"})
    assert b"\x1b[" not in plain
    piped = subprocess.run([sys.executable, "-m", "frogpbem", *args], env=env,
                           capture_output=True, check=True).stdout
    assert b"\x1b[" not in piped
    # the same words, with or without colour
    strip = re.compile(rb"\x1b\[[0-9;]*m")
    assert strip.sub(b"", coloured).replace(b"\r\n", b"\n") == piped


@pytest.mark.parametrize("last", ["pass x", "shoot", "shoot Z99", "guess  c3 ", "resign"])
def test_a_last_move_in_other_words_outlines_no_square_and_draws(last: str) -> None:
    """The picture outlines the last move's square only when the move names a square of the
    board; other words (a view file changed on the way) draw the board without it, never a
    traceback (found by test_views' deep-change property)."""
    from frogpbem.games.frogfinder import FrogFinder
    from frogpbem.pictures.frogs import draw
    from frogpbem.pictures.scene import Scene

    rules = FrogFinder()
    options = rules.options({"size": 5, "frogs": 1})
    state = rules.start(options, ("red", "blue"), None,
                        {"red": {"frogs": ["A1"]}, "blue": {"frogs": ["E5"]}})
    picture = draw(rules.view(state, frozenset({"red"})),
                   Scene("red", {"red": "Red", "blue": "Blue"}, ("red", last)))
    plain = draw(rules.view(state, frozenset({"red"})),
                 Scene("red", {"red": "Red", "blue": "Blue"}, None)).svg(standalone=True)
    drawn = picture.svg(standalone=True)
    names_a_square = last.strip().startswith("guess")  # C3, the one square named
    assert (drawn != plain) == names_a_square
