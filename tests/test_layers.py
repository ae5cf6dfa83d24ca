"""The layout holds: nothing above the model reads raw game-file dicts; imports go down and
never in a circle; the rules reach nothing above them; no module keeps state of its own."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "frogpbem"
BELOW = ("gamefile", "games", "crypto")
ALLOWED = {"protocol/memory.py", "protocol/seen.py", "protocol/verified.py",
           "protocol/replays.py", "verdicts.py", "frozen.py"}
"""The referee's and the players' own memory files, the stores of verified histories, of
kept replays and of the audit verdicts kept (JSON of their own), not the game document;
and ``@frozen``, below the
model, whose one dict is the namespace of the ``__init__`` it compiles."""
ENVIRONMENT = {"os.environ", "environ"}
"""The process environment, read by name (``environ`` is the one a caller hands down in
its place, as ``colour_wanted`` takes): not a game-file dict."""


@functools.cache
def _package() -> dict[str, str]:
    """The source of every module of the package, by its path within it (``games/frogs.py``)."""
    return {p.relative_to(PACKAGE).as_posix(): p.read_text() for p in PACKAGE.rglob("*.py")}


def _above() -> list[str]:
    return [path for path in _package()
            if path.split("/")[0] not in BELOW and path not in ALLOWED]


def _string_key_reads(tree: ast.AST) -> list[str]:
    """Each read of a dict by a string key (``doc["log"]``, ``doc.get("reveal")``): how a raw
    game-file dict is read; the environment is not one."""
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
        if ast.unparse(target) not in ENVIRONMENT:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_nothing_above_the_model_subscripts_raw_dicts_with_string_keys() -> None:
    offenders = {path: reads for path in _above()
                 if (reads := _string_key_reads(ast.parse(_package()[path])))}
    assert offenders == {}


def test_the_lint_catches_a_raw_read() -> None:
    assert _string_key_reads(ast.parse('x = doc["log"]\ny = doc.get("reveal")')) == \
        ["line 1: doc['log']", "line 2: doc.get('reveal')"]
    assert _string_key_reads(ast.parse('os.environ["HOME"]\ndata["x"] = 1')) == []
    assert _string_key_reads(ast.parse('environ.get("TERM")\nenv.get("TERM")')) == \
        ["line 2: env.get('TERM')"]


# --- imports --------------------------------------------------------------------------------


def _module(path: str) -> str:
    """The dotted name of the module at ``path`` (``games/__init__.py``: ``frogpbem.games``)."""
    parts = ["frogpbem", *path.removesuffix(".py").split("/")]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: str, source: str, modules: frozenset[str]) -> Iterator[tuple[int, str]]:
    """Every module the module at ``path`` imports, at any depth (in a function, under
    ``TYPE_CHECKING``), with its line: ``from p import x`` imports the module ``p.x`` when
    ``modules`` holds one, else ``p`` itself; relative imports are resolved."""
    package = _module(path) if path.endswith("__init__.py") else _module(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from . import x: within the package, one level up for each dot
                parts = package.split(".")
                base = ".".join([*parts[:len(parts) - node.level + 1], *filter(None, [base])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield node.lineno, sub if sub in modules else base


def _edges(files: dict[str, str]) -> dict[str, list[tuple[int, str]]]:
    """For each module (by path), the modules of the package it imports (by path), with
    the line of each import."""
    by_name = {_module(path): path for path in files}
    names = frozenset(by_name)
    return {path: [(line, by_name[name]) for line, name in _imports(path, source, names)
                   if name in by_name]
            for path, source in files.items()}


def _circles(edges: dict[str, list[tuple[int, str]]]) -> list[list[str]]:
    """Every import circle: the strongly connected components of more than one module (or
    of one that imports itself), each as the imports within it, by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for _, target in edges.get(node, []):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            components.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    circles = []
    for component in sorted(components):
        inside = [f"{path}:{line} imports {target}" for path in component
                  for line, target in sorted(set(edges[path])) if target in component]
        if len(component) > 1 or inside:
            circles.append(inside)
    return circles


def test_no_two_modules_import_each_other() -> None:
    """No import circle between the package's modules, whether the imports are at the top,
    in a function or only for the type checker: each module stands above the ones it uses."""
    circles = _circles(_edges(_package()))
    assert circles == [], "import circles:\n" + "\n\n".join("\n".join(c) for c in circles)


def test_the_lint_sees_every_form_of_import() -> None:
    files = {
        "__init__.py": "",
        "a.py": "from frogpbem import b\n",
        "b.py": "def f():\n    from frogpbem.pkg import c\n",
        "pkg/__init__.py": "from frogpbem.pkg.d import D\nX = 1\n",
        "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .. import a\n",
        "pkg/d.py": "from frogpbem.pkg import X\nimport frogpbem.e.f as g\n",
        "e/__init__.py": "",
        "e/f.py": "from . import g\nfrom .g import h\nimport yaml\nfrom frogpbem import errors\n",
        "e/g.py": "",
    }
    assert _edges(files) == {
        "__init__.py": [], "a.py": [(1, "b.py")], "b.py": [(2, "pkg/c.py")],
        "pkg/__init__.py": [(1, "pkg/d.py")], "pkg/c.py": [(3, "a.py")],
        "pkg/d.py": [(1, "pkg/__init__.py"), (2, "e/f.py")], "e/__init__.py": [],
        "e/f.py": [(1, "e/g.py"), (2, "e/g.py"), (4, "__init__.py")], "e/g.py": []}
    assert _circles(_edges(files)) == [
        ["a.py:1 imports b.py", "b.py:2 imports pkg/c.py", "pkg/c.py:3 imports a.py"],
        ["pkg/__init__.py:1 imports pkg/d.py", "pkg/d.py:1 imports pkg/__init__.py"]]
    assert _circles(_edges({"a.py": "import frogpbem.a\n"})) == [["a.py:1 imports a.py"]]
    assert _circles(_edges({"a.py": "from frogpbem import b\n", "b.py": ""})) == []


def _within(name: str, rooms: tuple[str, ...]) -> bool:
    return any(name == room or name.startswith(room + ".") for room in rooms)


UPWARD = {
    "games": ("frogpbem.gamefile", "frogpbem.protocol", "frogpbem.crypto", "cryptography",
              "pyrage", "yaml", "frogpbem.views", "frogpbem.pictures", "frogpbem.cli",
              "frogpbem.console", "frogpbem.mail", "frogpbem.referee", "frogpbem.audit",
              "frogpbem.record", "frogpbem.simulate", "frogpbem.demo"),
    "gamefile": ("frogpbem.games", "frogpbem.protocol", "frogpbem.cli"),
    "crypto": ("frogpbem.games", "frogpbem.gamefile", "frogpbem.protocol"),
    "protocol": ("frogpbem.cli", "frogpbem.referee", "frogpbem.views", "frogpbem.audit"),
    "pictures": ("frogpbem.gamefile", "frogpbem.protocol", "frogpbem.crypto", "frogpbem.cli",
                 "frogpbem.views", "frogpbem.referee", "yaml"),
}
"""What each room must not import: the rooms above it, and the libraries it has no use for."""

BELOW_ROOM = {
    "games": ("frogpbem.board", "frogpbem.errors", "frogpbem.frozen", "frogpbem.safetext",
              "frogpbem.jsonvalue", "frogpbem.games"),
    "crypto": ("frogpbem.errors", "frogpbem.frozen", "frogpbem.crypto"),
    "gamefile": ("frogpbem.errors", "frogpbem.frozen", "frogpbem.safetext", "frogpbem.jsonvalue",
                 "frogpbem.crypto", "frogpbem.gamefile"),
}
"""The only modules of the package the bottom rooms may import: a module added to the package
stays out of them until it is named here, so a new room above cannot leak down unseen."""


def _downward_problems(files: dict[str, str]) -> list[str]:
    """Each import of ``files`` that goes up: into a room :data:`UPWARD` forbids, outside the
    allowlist :data:`BELOW_ROOM` of a bottom room, or into the crypto libraries from outside
    ``crypto/``."""
    names = frozenset(map(_module, files))
    problems = []
    for path, source in files.items():
        room = path.split("/")[0]
        bad = UPWARD.get(room, ()) + (() if room == "crypto" else ("cryptography", "pyrage"))
        allowed = BELOW_ROOM.get(room)
        problems += [f"{path}:{line} imports {name}"
                     for line, name in _imports(path, source, names)
                     if _within(name, bad) or allowed is not None
                     and _within(name, ("frogpbem",)) and not _within(name, allowed)]
    return problems


def test_imports_only_go_down() -> None:
    """Each room imports only the rooms below it; the rules (``games/``) reach nothing
    above them: no views, pictures, command line, mail, referee, audit or record."""
    problems = _downward_problems(_package())
    assert problems == [], "imports going up:\n" + "\n".join(problems)


def test_the_lint_sees_imports_going_up() -> None:
    files = {"games/a.py": "from frogpbem import crypto\nfrom frogpbem.pictures import svg\n",
             "games/b.py": "def f():\n    from frogpbem import views\n",
             "games/c.py": "from .. import referee\nimport frogpbem.mail.judge\n",
             "games/d.py": "from frogpbem.games import a\nfrom frogpbem import board\n",
             "games/e.py": "from frogpbem import judge\nimport frogpbem\n",
             "gamefile/a.py": "from frogpbem import games\n",
             "gamefile/b.py": "from frogpbem import crypto, errors, views\n",
             "crypto/b.py": "from frogpbem.crypto import c\nfrom frogpbem import safetext\n",
             "cli.py": "import cryptography.hazmat\n",
             "crypto/a.py": "from cryptography import x509\n",
             "crypto/__init__.py": "", "pictures/svg.py": "", "views.py": "", "referee.py": "",
             "mail/judge.py": "", "games/__init__.py": "", "board.py": "", "judge.py": "",
             "errors.py": "", "safetext.py": "", "crypto/c.py": ""}
    assert _downward_problems(files) == [
        "games/a.py:1 imports frogpbem.crypto", "games/a.py:2 imports frogpbem.pictures.svg",
        "games/b.py:2 imports frogpbem.views", "games/c.py:1 imports frogpbem.referee",
        "games/c.py:2 imports frogpbem.mail.judge", "games/e.py:1 imports frogpbem.judge",
        "games/e.py:2 imports frogpbem", "gamefile/a.py:1 imports frogpbem.games",
        "gamefile/b.py:1 imports frogpbem.views", "crypto/b.py:2 imports frogpbem.safetext",
        "cli.py:1 imports cryptography.hazmat"]


# --- state ----------------------------------------------------------------------------------

_CONTAINERS = {"OrderedDict", "defaultdict", "deque", "Counter",
               "WeakKeyDictionary", "WeakValueDictionary", "WeakSet", "ChainMap"}
_MUTATORS = {"append", "extend", "insert", "remove", "pop", "popitem", "clear", "update",
             "setdefault", "add", "discard", "move_to_end", "appendleft", "extendleft",
             "popleft", "sort", "reverse", "difference_update", "intersection_update",
             "symmetric_difference_update", "__setitem__", "__delitem__"}
_READERS = {"len", "iter", "sorted", "reversed", "list", "tuple", "set", "frozenset", "dict",
            "any", "all", "sum", "min", "max", "enumerate", "zip", "map", "filter", "isinstance",
            "repr", "str", "bool"}
"""Functions that only read a container handed to them; any other may change it."""


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements run when the module is imported (in its ``if``/``try`` blocks too,
    not in its functions or classes)."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.If | ast.Try | ast.With):
            for block in ("body", "orelse", "finalbody", "handlers"):
                for inner in getattr(statement, block, []):
                    yield from _top_level(inner.body if isinstance(inner, ast.ExceptHandler)
                                          else [inner])


def _container(value: ast.expr | None) -> str | None:
    """``"empty"`` for an empty container or one made to be changed (an ``OrderedDict``, a
    ``defaultdict``...), ``"filled"`` for another, ``None`` if ``value`` makes none."""
    if isinstance(value, ast.Dict):
        return "filled" if value.keys else "empty"
    if isinstance(value, ast.List | ast.Set):
        return "filled" if value.elts else "empty"
    if isinstance(value, ast.DictComp | ast.ListComp | ast.SetComp):
        return "filled"
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in {"dict", "list", "set"}:
            return "filled" if value.args or value.keywords else "empty"
        return "empty" if name in _CONTAINERS else None
    return None


_HELD = {"ContextVar", "SimpleNamespace", "threading.local"}
"""Calls that make state of their own when run at import: a context variable, a namespace
of attributes, a thread's own attributes."""


def _maker(value: ast.expr | None) -> str | None:
    """The name of the holder of state ``value`` makes (a ``ContextVar``, also
    ``ContextVar[int]``; a ``SimpleNamespace``; a ``threading.local``), if it makes one."""
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    while isinstance(func, ast.Subscript):  # ContextVar[int]("v")
        func = func.value
    name = ast.unparse(func)
    short = name.rpartition(".")[2]
    return next((held for held in _HELD if short == held or name == held), None)


def _root(node: ast.expr, attributes: frozenset[str] = frozenset()) -> str | None:
    """The module name a chain of subscripts and attributes starts from (``cache[a].b``,
    ``(c := cache)[a]``: ``cache``); ``"globals()"`` for the module's own namespace (``globals()``,
    ``sys.modules[...]``); ``"class"`` for a class's container reached through ``self`` or
    ``cls`` (one of ``attributes``)."""
    while True:
        if isinstance(node, ast.Call) and ast.unparse(node.func) in {"globals", "vars"} \
                or ast.unparse(node) == "sys.modules":
            return "globals()"
        if isinstance(node, ast.Attribute) and node.attr in attributes \
                and ast.unparse(node.value) in {"self", "cls", "type(self)"}:
            return "class"
        if not isinstance(node, ast.Subscript | ast.Attribute | ast.NamedExpr):
            return node.id if isinstance(node, ast.Name) else None
        node = node.value  # (c := _CACHE)[k]: what the walrus binds


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _own(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a module or function, but not of the functions within it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))


def _changed(node: ast.AST, made: dict[str, str]) -> ast.expr | None:
    """What ``node`` changes (or may: an empty container handed to a function): the object
    it stores into or deletes from (``x[k] = v``, ``x.a = v``, ``x.a += 1``,
    ``setattr(x, ...)``), or calls a mutator of (``x.append``)."""
    if isinstance(node, ast.Subscript | ast.Attribute) \
            and isinstance(node.ctx, ast.Store | ast.Del):
        return node.value
    if isinstance(node, ast.AugAssign):
        return node.target
    if isinstance(node, ast.Attribute) and node.attr in _MUTATORS:
        return node.value
    if isinstance(node, ast.Call) and ast.unparse(node.func) in {"setattr", "delattr",
                                                                  "object.__setattr__"}:
        return node.args[0] if node.args else None
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) not in _READERS:
        handed = [arg.value if isinstance(arg, ast.Starred) else arg for arg in node.args]
        handed += [keyword.value for keyword in node.keywords]
        return next((arg for arg in handed if isinstance(arg, ast.Name)
                     and made.get(arg.id) == "empty"), None)
    return None


def _made(body: list[ast.stmt]) -> dict[str, str]:
    """The names the module binds when imported, each with the kind of what it holds: an
    ``"empty"`` or ``"filled"`` container (see :func:`_container`), else an ``"object"``
    (a class, an instance) whose attributes must not change either."""
    made = {}
    for statement in _top_level(body):
        if isinstance(statement, ast.ClassDef):
            made[statement.name] = "object"
        elif isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) \
                else [statement.target]
            kind = _container(statement.value) or "object"
            made.update({t.id: kind for t in targets if isinstance(t, ast.Name)})
    return made


def _class_containers(tree: ast.Module) -> dict[ast.AST, frozenset[str]]:
    """For each function within a class of the module, the class's own containers (``_c``
    of ``class A: _c = {}``), shared by every instance: ``self._c[k] = 1`` changes them."""
    found: dict[ast.AST, frozenset[str]] = {}
    for cls in (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)):
        names = frozenset(t.id for statement in cls.body
                          if isinstance(statement, ast.Assign | ast.AnnAssign)
                          and _container(statement.value)
                          for t in (statement.targets if isinstance(statement, ast.Assign)
                                    else [statement.target]) if isinstance(t, ast.Name))
        found |= {node: names for node in ast.walk(cls) if isinstance(node, _SCOPES)}
    return found


def _local(scope: ast.AST, nodes: list[ast.AST]) -> set[str]:
    """The names a function binds itself (its parameters, what it assigns), which hide the
    module's; nothing for the module."""
    if not isinstance(scope, _SCOPES):
        return set()
    arguments = scope.args
    names = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                             arguments.vararg, arguments.kwarg] if a is not None}
    names |= {node.id for node in nodes
              if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    return names - {name for node in nodes if isinstance(node, ast.Global | ast.Nonlocal)
                    for name in node.names}


def _aliases(nodes: list[ast.AST], known: dict[str, str]) -> dict[str, str]:
    """``known`` and the names a scope binds to them (``cache = _CACHE``,
    ``(cache := _CACHE)``), through which it changes them."""
    known = dict(known)
    while True:
        aliases = {t.id: known[node.value.id] for node in nodes
                   if isinstance(node, ast.Assign | ast.NamedExpr)
                   and isinstance(node.value, ast.Name) and node.value.id in known
                   for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                   if isinstance(t, ast.Name) and t.id not in known}
        if not aliases:
            return known
        known |= aliases


def _mutable_defaults(tree: ast.AST) -> list[int]:
    """The lines of each mutable default argument (``def f(x, _c={})``): made once, when
    the function is defined, and shared by every call, so a hidden module cache. A command's
    option (``Annotated[list[str], typer.Option(...)] = []``) is exempt: typer reads that
    default and hands each call a list of its own."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, _SCOPES):
            arguments = node.args
            positional = [*arguments.posonlyargs, *arguments.args]
            pairs = [*zip(positional[len(positional) - len(arguments.defaults):],
                          arguments.defaults, strict=True),
                     *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)]
            found += [default.lineno for argument, default in pairs
                      if default is not None and _container(default)
                      and not _typer_option(argument.annotation)]
    return found


def _typer_option(annotation: ast.expr | None) -> bool:
    """Whether ``annotation`` makes its parameter a command's option or argument."""
    return annotation is not None and any(
        name in ast.unparse(annotation) for name in ("typer.Option(", "typer.Argument("))


def _module_state(source: str) -> list[str]:
    """The module's own state: a container or object made when the module is imported and
    changed afterwards or in place (a cache, a counter, a registry filled at run time, an
    attribute set on a module-level object or class, a class's own container changed through
    ``self``), the module's namespace changed (``globals()[k] = v``), a context variable,
    namespace or thread-local made at import, a mutable default argument, and every
    ``global`` statement. A table never changed is a constant, and allowed.

    An empty container, or one made to be changed (an ``OrderedDict``...), handed to a
    function is taken as changed by it (``keep_recent(_CACHE, key, value)``); a filled
    one handed to a function (a table, settings) is taken as read.
    """
    tree = ast.parse(source)
    lines = source.splitlines()
    made = _made(tree.body)
    in_class = _class_containers(tree)
    found = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Global)]
    found += [statement.lineno for statement in _top_level(tree.body)
              if isinstance(statement, ast.Assign | ast.AnnAssign) and _maker(statement.value)]
    found += _mutable_defaults(tree)
    for scope in [tree, *(node for node in ast.walk(tree) if isinstance(node, _SCOPES))]:
        nodes = list(_own(scope))
        hidden = _local(scope, nodes)
        known = _aliases(nodes, {name: kind for name, kind in made.items() if name not in hidden})
        known |= {"globals()": "object", "class": "object"}
        attributes = in_class.get(scope, frozenset())
        found += [node.lineno for node in nodes if isinstance(node, ast.expr | ast.stmt)
                  and (changed := _changed(node, known)) is not None
                  and _root(changed, attributes) in known]
    return [f"line {n}: {lines[n - 1].strip()}" for n in sorted(set(found))]


STATE_ALLOWED = {
    "games/__init__.py": ("_REGISTERED[",),
    "gamefile/document.py": ("_HELD: ContextVar",),
}
"""The two named exceptions. The games registry, the one extension point a fifth game
(or a test's toy) registers with: no cache, and nothing in it goes stale. ``writes_held``'s
context variable: set and reset by that one ``with`` block (the demonstration's held
writes), in its own thread or task only, never left set."""


def test_no_module_keeps_state_of_its_own() -> None:
    """No module-level cache, store or counter, no class-level one, no attribute set on a
    module-level object, no mutable default, no ``global``, no ``globals()`` written, no
    context variable or thread-local: state that outlives a call belongs to the session
    passed down. ``functools.cache`` on
    a pure function of hashable values is allowed: it always gives what the function
    would. The exceptions are named in :data:`STATE_ALLOWED`."""
    offenders = {path: found for path, source in _package().items()
                 if (found := [line for line in _module_state(source)
                               if not any(allowed in line
                                          for allowed in STATE_ALLOWED.get(path, ()))])}
    assert offenders == {}, "module state:\n" + "\n".join(
        f"{path} {line}" for path, found in offenders.items() for line in found)


def test_the_lint_catches_module_state() -> None:
    source = '''
import collections, weakref
_CACHE = {}
_SEEN: set[str] = set()
_ORDER = collections.OrderedDict()
_BY_OBJECT = weakref.WeakKeyDictionary()
_COUNT = {"left": 10}
_TABLE = {"a": 1}
_NAMES = ["x"]
try:
    _LATE = []
except ImportError:
    pass
def f(key):
    _CACHE[key] = 1
    _SEEN.add(key)
    _ORDER.move_to_end(key)
    put = _BY_OBJECT.__setitem__
    _COUNT["left"] -= 1
    late = _LATE
    late.append(key)
    keep(_LATE, key)
    return _TABLE["a"], _NAMES[0], _TABLE.get(key), Typer(settings=_TABLE), sorted(_NAMES)
def g():
    global _X
def h(late=None):
    late = []  # another function's alias is not this one's list
    late.append(1)
'''
    assert _module_state(source) == [
        "line 15: _CACHE[key] = 1", "line 16: _SEEN.add(key)", "line 17: _ORDER.move_to_end(key)",
        "line 18: put = _BY_OBJECT.__setitem__", "line 19: _COUNT[\"left\"] -= 1",
        "line 21: late.append(key)", "line 22: keep(_LATE, key)", "line 25: global _X"]
    assert _module_state("import contextvars\n_NOW = contextvars.ContextVar('now')\n") == [
        "line 2: _NOW = contextvars.ContextVar('now')"]
    assert _module_state("import functools\n@functools.cache\ndef f(x):\n    return [x]\n"
                         "TABLE = {'a': [1]}\ndef g():\n    return TABLE['a'][0]\n") == []



def test_the_lint_catches_hidden_module_state() -> None:
    """The forms of state that hide from the plain container check: a class's container,
    an object's attributes, a mutable default, the module's namespace, a subscripted context
    variable, a walrus alias."""
    classes = """
class A:
    _c = {}
    _t = ("x",)
    def f(self, k):
        self._c[k] = 1
        self.n = 1
    @classmethod
    def g(cls, k):
        cls._c.setdefault(k, [])
def h(k):
    A._c[k] = 1
"""
    assert _module_state(classes) == ["line 6: self._c[k] = 1",
                                      "line 10: cls._c.setdefault(k, [])", "line 12: A._c[k] = 1"]
    objects = """
import threading, types
_S = B()
_NS = types.SimpleNamespace(n=0)
_LOCAL = threading.local()
def f(s):
    _S.left -= 1
    _S.x = 1
    s.x = 1
"""
    assert _module_state(objects) == [
        "line 4: _NS = types.SimpleNamespace(n=0)", "line 5: _LOCAL = threading.local()",
        "line 7: _S.left -= 1", "line 8: _S.x = 1"]
    defaults = """
def f(x, _c={}, *, _l=[], _s=set(), _t=(), _n=None):
    g = lambda y, _seen=set(): y
class A:
    def m(self, _d=dict()): ...
def command(seat: Annotated[list[str], typer.Option(help="h")] = []): ...
"""
    assert _module_state(defaults) == ["line 2: def f(x, _c={}, *, _l=[], _s=set(), _t=(), "
                                       "_n=None):", "line 3: g = lambda y, _seen=set(): y",
                                       "line 5: def m(self, _d=dict()): ..."]
    namespace = """
import sys
def f(k):
    globals()[k] = 1
    setattr(sys.modules[__name__], k, 1)
    globals().update(x=1)
"""
    assert _module_state(namespace) == ["line 4: globals()[k] = 1",
                                        "line 5: setattr(sys.modules[__name__], k, 1)",
                                        "line 6: globals().update(x=1)"]
    assert _module_state("import contextvars\nV = ContextVar[int]('v')\n"
                         "W = contextvars.ContextVar[str]('w')\n") == [
        "line 2: V = ContextVar[int]('v')", "line 3: W = contextvars.ContextVar[str]('w')"]
    assert _module_state("_CACHE = {}\ndef f(k):\n    (c := _CACHE)[k] = 1\n") == [
        "line 3: (c := _CACHE)[k] = 1"]
    assert _module_state("_TABLE = {'a': 1}\ndef f(_TABLE, x):\n    _TABLE['a'] = x\n"
                         "def g(d):\n    d.x = _TABLE['a']\n") == []

def _ids(source: str) -> list[str]:
    """Each use of the builtin ``id``: by its name, as ``builtins.id``, or imported from
    ``builtins`` under any name."""
    lines = source.splitlines()
    found = {node.lineno for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Name) and node.id == "id" and isinstance(node.ctx, ast.Load)
             or isinstance(node, ast.Attribute) and node.attr == "id"
             and ast.unparse(node.value) in {"builtins", "__builtins__"}
             or isinstance(node, ast.ImportFrom) and node.module == "builtins"
             and any(alias.name in {"id", "*"} for alias in node.names)}
    return [f"line {n}: {lines[n - 1].strip()}" for n in sorted(found)]


def test_nothing_is_keyed_by_id() -> None:
    """No ``id()``: an id is reused once its object dies, so a table keyed by ids answers
    for another object."""
    offenders = {path: found for path, source in _package().items() if (found := _ids(source))}
    assert offenders == {}, "id() used:\n" + "\n".join(
        f"{path} {line}" for path, found in offenders.items() for line in found)


def test_the_lint_catches_id() -> None:
    assert _ids("key = id(doc)\nkeys = map(id, docs)\nx.id = 1\nvalid(x)\n") == \
        ["line 1: key = id(doc)", "line 2: keys = map(id, docs)"]
    assert _ids("import builtins\nkey = builtins.id(doc)\nfrom builtins import id as ident\n"
                "from builtins import print\nuser.id\n") == \
        ["line 2: key = builtins.id(doc)", "line 3: from builtins import id as ident"]


# --- no Any in the rules --------------------------------------------------------------------


def _annotations(tree: ast.AST) -> Iterator[ast.expr]:
    """Every annotation of ``tree``, and the value of each ``X: TypeAlias = ...``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            yield node.annotation
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation
            if node.value is not None and "TypeAlias" in ast.unparse(node.annotation):
                yield node.value


def _uses_of_any(source: str) -> list[int]:
    """The lines that name ``Any``: as a name, an attribute (``typing.Any``), an import, or
    inside a quoted annotation or type alias."""
    tree = ast.parse(source)
    quoted = [ast.parse(node.value, mode="eval") for node in _annotations(tree)
              if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    lines = set()
    for part in (tree, *quoted):
        for node in ast.walk(part):
            if isinstance(node, ast.Name) and node.id == "Any" \
                    or isinstance(node, ast.Attribute) and node.attr == "Any" \
                    or isinstance(node, ast.alias) and node.name.split(".")[-1] == "Any":
                lines.add(getattr(node, "lineno", 0))
    return sorted(lines)


def test_no_any_in_the_rules() -> None:
    """The rules type every value: a file's JSON is :data:`frogpbem.jsonvalue.JSON`, read
    into typed values at the boundary, never ``Any``."""
    offenders = {path: found for path, source in _package().items()
                 if path.startswith("games/") and (found := _uses_of_any(source))}
    assert offenders == {}, "Any used in the rules (path: lines):\n" + "\n".join(
        f"{path}: {found}" for path, found in offenders.items())


def test_the_lint_catches_any() -> None:
    assert _uses_of_any("from typing import Any\nJSON = Any\n") == [1, 2]
    assert _uses_of_any("import typing\ndef f(x: typing.Any) -> None: ...\n") == [2]
    assert _uses_of_any('X: TypeAlias = "dict[str, Any]"\n') != []
    assert _uses_of_any('def f(x: "list[Any]") -> None:\n    """Any value."""\n') != []
    assert _uses_of_any('"""Any record in words."""\nAnyway = 1\nx = "Any"\n') == []
