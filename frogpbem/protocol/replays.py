"""The replayed state kept between commands, so a move replays only the records after it.

A command replays every record of a game through the rules to know where it
stands (:func:`frogpbem.protocol.game.replay`). In one process the last
replays are kept in memory; this store keeps them between processes too:
when the command is done, :func:`flush` writes, per game and role, the state
after the last record replayed, and the next command with the same key
starts from there if the game's records begin with exactly the ones replayed
then.

The state holds hidden pieces (a seat's own; for the referee, every seat's),
so the file is sealed with age to the user's own key and signed with it
(namespace ``frogpbem-replay``): nobody else can read it, and a file changed
or written by anyone else is not used. A file that does not open, verify or
match is ignored: the game is replayed from the start, as it is without the
store. A game replayed without a key (a public view) is not kept.

The state is written as tagged JSON of the rules' own value types (the
dataclasses of :mod:`frogpbem.games` and :mod:`frogpbem.board`, tuples,
frozensets, dicts and JSON scalars); reading it back makes only those types.
A state holding anything else is not kept. :func:`encode` and :func:`decode`
are exact inverses on every ruleset's states (tested on whole games).

Files: ``$FROGPBEM_STATE/replays/GAME.TAG.replay``, TAG naming the key and role.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import FrogPbemError
from frogpbem.gamefile.document import read_bytes, write_atomic
from frogpbem.gamefile.model import keep_recent
from frogpbem.protocol.memory import default_state_dir

NAMESPACE = "frogpbem-replay"
"""The SSH signature namespace of a kept replay (no game element is signed in it)."""
VERSION = 1


class Unkept(ValueError):
    """A value that the store does not write or read (then nothing is kept, or used)."""


# --- the codec -----------------------------------------------------------------------------

_TYPES: dict[str, type] = {}
"""The value types a state may hold, by ``module:qualname``: the dataclasses defined in
the rules' modules (``frogpbem.board``, ``frogpbem.games...``) imported so far."""
_RULE_MODULES = ("frogpbem.board", "frogpbem.games")


def _type(name: str) -> type | None:
    """The rules' dataclass named ``name``, if there is one (the modules are looked through
    again when a name is not known: a ruleset's module may be imported later)."""
    if name not in _TYPES:
        for module_name, module in list(sys.modules.items()):
            if module is None or not module_name.startswith(_RULE_MODULES):
                continue
            for value in vars(module).values():
                if isinstance(value, type) and dataclasses.is_dataclass(value) and \
                        value.__module__ == module_name:
                    _TYPES[f"{module_name}:{value.__qualname__}"] = value
    return _TYPES.get(name)


def encode(value: Any) -> Any:
    """``value`` as tagged JSON; raises :class:`Unkept` for a type the store does not keep."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is tuple:
        return {"t": [encode(v) for v in value]}
    if kind is list:
        return {"l": [encode(v) for v in value]}
    if kind is frozenset:
        return {"f": [encode(v) for v in value]}
    if kind is dict:
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    name = f"{kind.__module__}:{kind.__qualname__}"
    if _type(name) is not kind:
        raise Unkept(f"a {kind.__qualname__} in the state")
    fields = dataclasses.fields(value)
    if not all(f.init for f in fields):
        raise Unkept(f"a {kind.__qualname__} with a field not set by its constructor")
    return {"c": name, "v": [encode(getattr(value, f.name)) for f in fields]}


def decode(data: Any) -> Any:
    """The value :func:`encode` wrote; raises :class:`Unkept` for anything else."""
    if data is None or type(data) in (bool, int, str):
        return data
    if type(data) is not dict or len(data) not in (1, 2):
        raise Unkept("not a kept value")
    tag, items = next(iter(data.items()))
    if len(data) == 1 and type(items) is list:
        if tag == "t":
            return tuple(decode(v) for v in items)
        if tag == "l":
            return [decode(v) for v in items]
        if tag == "f":
            return frozenset(decode(v) for v in items)
        if tag == "d" and all(type(pair) is list and len(pair) == 2 for pair in items):
            return {decode(k): decode(v) for k, v in items}
    if tag == "c" and type(items) is str and type(data.get("v")) is list:
        kind = _type(items)
        fields = dataclasses.fields(kind) if kind is not None else ()
        if kind is not None and len(fields) == len(data["v"]):
            try:
                return kind(*(decode(v) for v in data["v"]))
            except (TypeError, ValueError, FrogPbemError):
                raise Unkept(f"not a valid {items}") from None
    raise Unkept("not a kept value")


# --- the store -----------------------------------------------------------------------------

_PENDING: OrderedDict[Path, tuple[crypto.PrivateKey, str, Sequence[str], Any]] = OrderedDict()
"""Replays to write when the command is done: by file, the key, memo, the records' hashes
and the state (digested only when written: a process that replays at every move, as the
demo does, writes once)."""
RECENT = 8
KEEP_EVERY = 16
"""A replay continued from a kept one is kept in its place only when at least this many
records followed it: in between, each command replays those few records again (well under
a millisecond) rather than seal, sign and write the state every time (a few ms)."""


def kept_path(game: str, key: crypto.PrivateKey, role: str) -> Path:
    """Where the replay of ``game`` by ``key`` in ``role`` is kept."""
    tag = crypto.sha256(key.public.blob + b"\0" + role.encode()).hex()[:16]
    return default_state_dir() / "replays" / f"{game}.{tag}.replay"


def _digest(hashes: Sequence[str]) -> str:
    return crypto.sha256("\n".join(hashes).encode()).hex()


def memo_digest(memo: tuple[str, ...]) -> str:
    """What a replay depends on besides its records (header, secrets, role, reveal), hashed."""
    return crypto.sha256(json.dumps(memo).encode()).hex()


def read(game: str, key: crypto.PrivateKey, role: str, memo: str,
         hashes: Sequence[str]) -> tuple[int, Any] | None:
    """``(n, state)`` kept for this game, key, role and memo, if the records begin with the
    ``n`` replayed then; else ``None``."""
    try:
        kept = json.loads(read_bytes(kept_path(game, key, role), 1 << 24))
        sealed, signature = kept["sealed"], kept["signature"]
        crypto.verify_blob(key.public, sealed.encode(), crypto.b64decode_strict(signature),
                           NAMESPACE)
        value = json.loads(crypto.unseal(sealed, key))
        n = value["n"]
        if value["version"] != VERSION or value["memo"] != memo or type(n) is not int or \
                not 0 < n <= len(hashes) or value["records"] != _digest(hashes[:n]):
            return None
        return n, decode(value["state"])
    except (FrogPbemError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None  # none, or not ours, changed, another history: replay from the start


def keep(game: str, key: crypto.PrivateKey, role: str, memo: str, hashes: Sequence[str],
         state: Any) -> None:
    """Remember a replay, to be written by :func:`flush` when the command is done."""
    if hashes:
        keep_recent(_PENDING, kept_path(game, key, role), (key, memo, hashes, state), RECENT)


def flush() -> None:
    """Write the replays kept since the last flush (a state that cannot be kept is not)."""
    while _PENDING:
        path, (key, memo, hashes, state) = _PENDING.popitem()
        try:
            value = {"version": VERSION, "memo": memo, "n": len(hashes),
                     "records": _digest(hashes), "state": encode(state)}
            sealed = crypto.seal(json.dumps(value, separators=(",", ":")).encode(),
                                 [key.public])
            signature = crypto.b64encode(crypto.sign_blob(key, sealed.encode(), NAMESPACE))
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            write_atomic(path, json.dumps({"sealed": sealed, "signature": signature}).encode(),
                         durable=False, private=True)
        except (Unkept, OSError, FrogPbemError, ValueError, RecursionError):
            continue  # not kept: that only costs the next command time
