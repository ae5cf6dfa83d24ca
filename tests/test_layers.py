"""The layout holds: nothing above the model reads raw game-file dicts; imports go down."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "frogpbem"
BELOW = ("gamefile", "games", "crypto")
ALLOWED = {"protocol/memory.py", "protocol/seen.py", "protocol/verified.py",
           "protocol/replays.py", "pictures/__init__.py", "pictures/frogs.py",
           "pictures/froglet.py", "pictures/secretmove.py", "pictures/terminal.py", "frozen.py"}
"""The referee's and the players' own memory files, the stores of verified histories and
of kept replays (JSON of their own), not the game document; and the pictures of a board,
drawn from the ruleset's own view data (what ``Ruleset.view`` returns and its text board
reads); and ``@frozen``, below the model, whose one dict is the namespace of the
``__init__`` it compiles."""


def _above() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py")
            if p.relative_to(PACKAGE).parts[0] not in BELOW
            and str(p.relative_to(PACKAGE)) not in ALLOWED]


def _string_key_reads(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            target = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "get" and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            target = node.func.value
        else:
            continue
        if ast.unparse(target) != "os.environ":
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_nothing_above_the_model_subscripts_raw_dicts_with_string_keys() -> None:
    offenders = {str(p.relative_to(PACKAGE)): reads for p in _above()
                 if (reads := _string_key_reads(ast.parse(p.read_text())))}
    assert offenders == {}


def test_the_lint_catches_a_raw_read() -> None:
    assert _string_key_reads(ast.parse('x = doc["log"]\ny = doc.get("reveal")')) == \
        ["line 1: doc['log']", "line 2: doc.get('reveal')"]
    assert _string_key_reads(ast.parse('os.environ["HOME"]\ndata["x"] = 1')) == []


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_imports_only_go_down() -> None:
    forbidden = {
        "games": ("frogpbem.gamefile", "frogpbem.protocol", "frogpbem.crypto", "cryptography",
                  "pyrage", "yaml"),
        "gamefile": ("frogpbem.games", "frogpbem.protocol", "frogpbem.cli"),
        "crypto": ("frogpbem.games", "frogpbem.gamefile", "frogpbem.protocol"),
        "protocol": ("frogpbem.cli", "frogpbem.referee", "frogpbem.views", "frogpbem.audit"),
        "pictures": ("frogpbem.gamefile", "frogpbem.protocol", "frogpbem.crypto", "frogpbem.cli",
                     "frogpbem.views", "frogpbem.referee", "yaml"),
    }
    problems = []
    for room, bad in forbidden.items():
        for path in (PACKAGE / room).rglob("*.py"):
            problems += [f"{path.name} imports {name}" for name in _imports(path)
                         if name.startswith(bad)]
    outside = [p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] != "crypto"]
    problems += [f"{p.name} imports {n}" for p in outside for n in _imports(p)
                 if n.startswith(("cryptography", "pyrage"))]
    assert problems == []
