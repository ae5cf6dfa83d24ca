"""The console script reads the commonest commands without typer, exactly as typer would."""

from __future__ import annotations

import ast
import contextlib
import inspect
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import typer.main
from hypothesis import example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from frogpbem.cli import app, quick, turns
from tests.conftest import Cli, Keys

COMMANDS = typer.main.get_command(app).commands  # type: ignore[attr-defined]
"""Typer's commands (click's), by name."""
VALUED = sorted({opt for name in quick.QUICK for param in COMMANDS[name].params
                 if param.param_type_name == "option" and not param.is_flag
                 for opt in param.opts})
FLAGS = sorted({opt for name in quick.QUICK for param in COMMANDS[name].params
                if param.param_type_name == "option" and param.is_flag
                for opt in (*param.opts, *param.secondary_opts)})
"""Every option typer defines for the commands read quickly: those with a value, and flags."""
TOKENS = [*VALUED, *FLAGS, "--no-withdraw", "--no-json", "--", "-", "-h", "--help", "--key=k",
          "-kk", "--from=c", "--bogus", "--version", "", "game.yaml", "copy.yaml", "shoot", "G9",
          "red", "svg", "text", "-5", "a b", "é"]
ARGUMENTS = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=5)), max_size=9)
WORDS = st.one_of(st.sampled_from(["game.yaml", "copy.yaml", "shoot", "G9", "red", "svg"]),
                  st.text(min_size=1, max_size=5))
CHUNKS = st.lists(st.one_of(
    st.tuples(st.sampled_from(VALUED), WORDS),
    st.tuples(st.sampled_from(FLAGS)),
    st.tuples(WORDS)), max_size=6).map(lambda chunks: [token for c in chunks for token in c])
"""Arguments made mostly of the options' right forms, so that most are read quickly."""


@contextlib.contextmanager
def typer_calls() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """What typer's command line passes to the command functions, recorded instead of run."""
    calls: list[tuple[str, dict[str, Any]]] = []

    def recorder(function: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(function)

        def record(*args: Any, **kwargs: Any) -> None:
            calls.append((function.__name__, dict(signature.bind(*args, **kwargs).arguments)))
        return record

    with mock.patch.object(turns, "move", recorder(turns.move)), \
            mock.patch.object(turns, "view", recorder(turns.view)):
        yield calls


def typer_reading(argv: list[str]) -> tuple[str, dict[str, Any]] | None:
    """The command and its arguments as typer reads ``argv``; ``None`` for a usage error."""
    with typer_calls() as calls:
        result = CliRunner().invoke(app, argv)
    if result.exit_code != 0:
        return None
    assert len(calls) == 1, result.output
    return calls[0]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(quick.QUICK)), st.one_of(ARGUMENTS, CHUNKS))
@example("move", ["game.yaml", "shoot", "G9", "--key", "k"])
@example("move", ["game.yaml", "--from", "a.yaml", "--from", "b.yaml", "-k", "k",
                  "--no-discard-requests", "--json"])
@example("view", ["--public", "game.yaml", "--format", "svg"])
@example("move", ["\x00"])  # typer refuses a path with a NUL character
def test_what_is_read_quickly_is_what_typer_reads(name: str, tokens: list[str]) -> None:
    """For any arguments, the quick reading either steps aside, or gives the same command
    function the same values as typer (and typer takes them without a usage error)."""
    found = quick.quick([name, *tokens])
    if found is None:
        return
    run, arguments = found
    assert typer_reading([name, *tokens]) == (run.__name__, arguments)


def test_the_plain_forms_are_read_quickly() -> None:
    """The forms the README and the mail messages give are read here, not by typer."""
    plain = [["move", "game.yaml", "shoot", "G9", "--key", "alice"],
             ["move", "game.yaml", "--from", "copy.yaml", "--key", "referee", "--json"],
             ["move", "game.yaml", "--withdraw"],
             ["view", "game.yaml", "--key", "bob"],
             ["view", "game.yaml", "--public", "--format", "html"]]
    for argv in plain:
        found = quick.quick(argv)
        assert found is not None, argv
        assert typer_reading(argv) == (found[0].__name__, found[1])


@pytest.mark.parametrize("name", sorted(quick.QUICK))
def test_the_quick_table_is_typers_command_line(name: str) -> None:
    """The table the quick reading follows says what typer's definition of the command
    says: every option (each spelling, a flag's value, whether it repeats, whether it is a
    path), the arguments, and every default; a change to one side alone fails here."""
    reading = quick.QUICK[name]
    valued: dict[str, str] = {}
    flags: dict[str, tuple[str, bool]] = {}
    arguments = []
    for param in COMMANDS[name].params:
        if param.param_type_name == "argument":
            arguments.append((param.name, param.nargs))
        elif param.is_flag:
            flags.update(dict.fromkeys(param.opts, (param.name, True)))
            flags.update(dict.fromkeys(param.secondary_opts, (param.name, False)))
        else:
            valued.update(dict.fromkeys(param.opts, param.name))
    assert reading.valued == valued
    assert reading.flags == flags
    assert arguments == [("game", 1), *([(reading.rest, -1)] if reading.rest else [])]
    assert {p.name for p in COMMANDS[name].params if p.multiple} == {reading.repeated} - {None}
    assert {p.name for p in COMMANDS[name].params if p.type.name == "path"} == reading.paths
    assert typer_reading([name, "game.yaml"]) == \
        (reading.run.__name__, {**reading.defaults, "game": Path("game.yaml")})


def test_everything_else_is_left_to_typer() -> None:
    for argv in (["move"], ["view", "a.yaml", "b.yaml"], ["view", "--help"], ["move", "-h"],
                 ["view", "g.yaml", "--key=k"], ["view", "g.yaml", "--key"],
                 ["view", "g.yaml", "--key", "-x"], ["move", "g.yaml", "--", "-x"],
                 ["move", "g.yaml", "--json", "--json"], ["view", "g.yaml", "--key", ""],
                 ["view", "g.yaml", "-k", "a", "--key", "b"], ["audit", "g.yaml"], ["--version"],
                 []):
        assert quick.quick(argv) is None, argv


PROBE = ("import sys; from frogpbem import cli; sys.argv = ['frogpbem', *sys.argv[1:]]\n"
         "try:\n    cli.main()\nexcept SystemExit as done:\n    code = done.code\n"
         "else:\n    code = 0\n"
         "print('typer' in sys.modules, 'yaml' in sys.modules, code, file=sys.stderr)")


def run_script(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """The console script in a process of its own; its last line on stderr says whether typer
    and PyYAML were imported, and the exit status."""
    return subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], capture_output=True,
                          text=True, timeout=120, env=os.environ)


def test_a_turn_by_mail_imports_neither_typer_nor_pyyaml(
        new_game: Callable[..., Path], keys: Keys, tmp_path: Path, cli: Cli) -> None:
    """A seat's request, the referee's move from the returned copy and each view: the same
    output as typer's command line gives, without importing typer, nor PyYAML (every file
    read is as frogpbem writes it, and small)."""
    game = new_game()
    copy = tmp_path / "alice-copy.yaml"
    copy.write_bytes(game.read_bytes())
    asked = run_script("move", copy, "shoot", "D4", "--key", keys.path("alice"), "--json")
    assert asked.stderr == "False False 0\n", asked.stderr
    assert json.loads(asked.stdout)["request"].startswith("red asks: shoot D4")
    applied = run_script("move", game, "--from", copy, "--key", keys.path("referee"))
    assert applied.stderr == "False False 0\n", applied.stderr
    assert applied.stdout == "red shoots D4: 1\n"  # blue's frog on E5 is next to D4
    shown = run_script("view", game, "--key", keys.path("bob"))
    assert shown.stderr == "False False 0\n", shown.stderr
    assert shown.stdout == cli("view", game, "--key", keys.path("bob")).stdout
    assert "View of: blue (Bob)" in shown.stdout


def test_the_version_is_said_as_typer_says_it_without_typer(cli: Cli) -> None:
    said = run_script("--version")
    assert said.stderr == "False False 0\n", said.stderr
    assert said.stdout == cli("--version").stdout
    assert run_script("--version", "--help").stderr.splitlines()[-1].startswith("True")


def test_errors_read_quickly_say_one_sentence_with_the_status(
        new_game: Callable[..., Path], keys: Keys, tmp_path: Path, cli: Cli) -> None:
    game = new_game()
    missing = run_script("view", tmp_path / "none.yaml", "--key", keys.path("bob"))
    typer_missing = cli("view", tmp_path / "none.yaml", "--key", keys.path("bob"))
    assert missing.stderr.splitlines() == [typer_missing.stderr.rstrip("\n"), "False False 9"]
    before = game.read_bytes()
    garbage = run_script("move", game, "fly", "D4", "--key", keys.path("alice"), "--json")
    typer_garbage = cli("move", game, "fly", "D4", "--key", keys.path("alice"), "--json")
    assert garbage.stderr.splitlines() == [typer_garbage.stderr.rstrip("\n"), "False False 3"]
    assert json.loads(typer_garbage.stderr)["error"] == "NotationError"
    assert game.read_bytes() == before
    unknown = run_script("view", game, "--bogus")
    assert unknown.stderr.splitlines()[-1] == "True False 2"  # typer's own usage error
    assert "No such option: --bogus" in unknown.stderr


def test_a_reader_that_goes_away_ends_the_command_quietly(new_game: Callable[..., Path],
                                                          keys: Keys) -> None:
    """Standard output closed before the view is written (``| head``): status 1, as typer
    gives, and no traceback."""
    game = new_game()
    reading, writing = os.pipe()
    os.close(reading)
    try:
        done = subprocess.run([sys.executable, "-m", "frogpbem", "view", str(game), "--key",
                               str(keys.path("bob"))], stdout=writing, stderr=subprocess.PIPE,
                              text=True, timeout=120, env=os.environ)
    finally:
        os.close(writing)
    assert (done.returncode, done.stderr) == (1, "")


def cli_imports() -> dict[str, set[str]]:
    """Each module of ``frogpbem.cli`` and the modules of the package it imports, at the top
    or in a function (``from frogpbem.cli import quick`` names ``frogpbem.cli.quick``)."""
    folder = Path(quick.__file__).parent
    names = {p.stem: f"frogpbem.cli.{p.stem}" if p.stem != "__init__" else "frogpbem.cli"
             for p in folder.glob("*.py")}
    modules = set(names.values())
    found: dict[str, set[str]] = {}
    for stem, name in names.items():
        edges = found.setdefault(name, set())
        for node in ast.walk(ast.parse((folder / f"{stem}.py").read_text())):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    edges.update([full] if full in modules else
                                 [node.module] if node.module in modules else [])
    return found


def reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += graph.get(name, ())
    return seen


def test_the_cli_package_has_no_import_circle() -> None:
    """No module of the command line imports, even within a function, one that imports it
    back; the quick path reaches neither the typer app nor typer."""
    graph = cli_imports()
    assert "frogpbem.cli.commands" in graph and graph["frogpbem.cli.quick"]
    assert [name for name in graph if name in reach(graph, name)] == []
    quick_reach = reach(graph, "frogpbem.cli.quick") | {"frogpbem.cli.quick"}
    assert "frogpbem.cli.commands" not in quick_reach
    assert "frogpbem.cli.quick" not in reach(graph, "frogpbem.cli.commands")
    folder = Path(quick.__file__).parent
    for name in quick_reach:
        text = (folder / f"{name.rsplit('.', 1)[-1]}.py").read_text()
        assert "import typer" not in text, name
