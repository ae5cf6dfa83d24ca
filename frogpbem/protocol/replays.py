"""The replayed state kept between commands, so a move replays only the records after it.

A command replays every record of a game through the rules to know where it
stands (:func:`frogpbem.protocol.game.replay`). In one process the last
replays are kept in memory; this store keeps them between processes too:
when the command is done, :meth:`KeptReplays.flush` writes, per game and role, the state
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

Files: ``$FROGPBEM_STATE/replays/GAME.TAG.replay``, TAG naming the key and role. The store,
:class:`KeptReplays`, belongs to a :class:`~frogpbem.protocol.session.Session`, which also
keeps the replays made in its process.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import FrogPbemError
from frogpbem.gamefile.document import read_bytes, write_atomic
from frogpbem.gamefile.model import keep_recent

NAMESPACE = "frogpbem-replay"
"""The SSH signature namespace of a kept replay (no game element is signed in it)."""
VERSION = 1


class Unkept(ValueError):
    """A value that the store does not write or read (then nothing is kept, or used)."""


# --- the codec -----------------------------------------------------------------------------

_RULE_MODULES = ("frogpbem.board", "frogpbem.games")
"""The modules whose dataclasses a state may hold (those imported)."""


def _type(name: str) -> type | None:
    """The rules' dataclass named ``name`` (``module:qualname``), if there is one: defined
    at the top of a rules' module imported already (``frogpbem.board``,
    ``frogpbem.games...``)."""
    module_name, _, qualname = name.partition(":")
    module = sys.modules.get(module_name) if module_name.startswith(_RULE_MODULES) else None
    value = getattr(module, qualname, None) if module is not None else None
    if isinstance(value, type) and dataclasses.is_dataclass(value) and \
            value.__module__ == module_name and value.__qualname__ == qualname:
        return value
    return None


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

@dataclass
class Replay:
    """A game replayed from its log: the state it ends in, and what :func:`unasked` needs.

    Only these states are kept: a state holds the board, so keeping one per
    record would cost memory in the square of the game's length.
    """

    final: Any
    """The state after the last record."""
    before: dict[int, Any] = field(default_factory=dict)
    """The state before each record that carries no seat's request (after ``since``)."""
    since: int = 0
    """How many records were replayed by an earlier command (the kept replays of
    :mod:`frogpbem.protocol.replays`): ``before`` knows nothing of them."""


RECENT = 8
"""How many replays to write a store holds at once (by file)."""
RECENT_REPLAYS = 8
"""How many replays made in the process it keeps: every role of a six-seat game, the
referee and the public."""
KEEP_EVERY = 16
"""A replay continued from a kept one is kept in its place only when at least this many
records followed it: in between, each command replays those few records again, which
costs less than to seal, sign and write the state every time."""


class KeptReplays:
    """The replays kept in ``folder`` (``$FROGPBEM_STATE/replays``), with those made in this
    process: the last ones made, by what they depend on (:func:`memo_digest`'s memo), each
    with the hashes of the records replayed; and those to write when the command is done,
    by file, each with its key, memo, the records' hashes and the state (digested only
    when written: a process that replays at every move, as the demo does, writes once)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made: OrderedDict[tuple[str, ...], tuple[tuple[str, ...], Replay]] = OrderedDict()
        self.pending: OrderedDict[Path, tuple[crypto.PrivateKey, str, Sequence[str], Any]] = \
            OrderedDict()

    def path(self, game: str, key: crypto.PrivateKey, role: str) -> Path:
        """Where the replay of ``game`` by ``key`` in ``role`` is kept."""
        tag = crypto.sha256(key.public.blob + b"\0" + role.encode()).hex()[:16]
        return self.folder / f"{game}.{tag}.replay"

    def made_before(self, memo: tuple[str, ...], hashes: tuple[str, ...]
                    ) -> tuple[int, Replay | None]:
        """The replay made in this process whose records begin this history (``hashes``),
        and how many they are."""
        kept = self.made.get(memo)
        if kept is None or len(kept[0]) > len(hashes) or hashes[:len(kept[0])] != kept[0]:
            return 0, None
        return len(kept[0]), kept[1]

    def made_now(self, memo: tuple[str, ...], hashes: tuple[str, ...], replay: Replay) -> None:
        """Keep ``replay`` of the records ``hashes`` as made in this process."""
        keep_recent(self.made, memo, (hashes, replay), RECENT_REPLAYS)

    def read(self, game: str, key: crypto.PrivateKey, role: str, memo: str,
             hashes: Sequence[str]) -> tuple[int, Any] | None:
        """``(n, state)`` kept for this game, key, role and memo, if the records begin with
        the ``n`` replayed then; else ``None``."""
        try:
            kept = json.loads(read_bytes(self.path(game, key, role), 1 << 24))
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

    def keep(self, game: str, key: crypto.PrivateKey, role: str, memo: str,
             hashes: Sequence[str], state: Any) -> None:
        """Remember a replay, to be written by :meth:`flush` when the command is done."""
        if hashes:
            keep_recent(self.pending, self.path(game, key, role), (key, memo, hashes, state),
                        RECENT)

    def flush(self) -> None:
        """Write the replays kept since the last flush (a state that cannot be kept is not)."""
        while self.pending:
            path, (key, memo, hashes, state) = self.pending.popitem()
            try:
                value = {"version": VERSION, "memo": memo, "n": len(hashes),
                         "records": _digest(hashes), "state": encode(state)}
                sealed = crypto.seal(json.dumps(value, separators=(",", ":")).encode(),
                                     [key.public])
                signature = crypto.b64encode(crypto.sign_blob(key, sealed.encode(), NAMESPACE))
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                write_atomic(path, json.dumps({"sealed": sealed, "signature": signature})
                             .encode(), durable=False, private=True)
            except (Unkept, OSError, FrogPbemError, ValueError, RecursionError):
                continue  # not kept: that only costs the next command time


def _digest(hashes: Sequence[str]) -> str:
    return crypto.sha256("\n".join(hashes).encode()).hex()


def memo_digest(memo: tuple[str, ...]) -> str:
    """What a replay depends on besides its records (header, secrets, role, reveal), hashed."""
    return crypto.sha256(json.dumps(memo).encode()).hex()
