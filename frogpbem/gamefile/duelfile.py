"""The file of a game without a referee: a header and messages, each signed by its seat.

(It lives with the referee's file model, below the engine: this module alone reads the
document's raw values.)

The first seat signs the header (kind ``duel``); every message after it is signed by the
seat that made it (kind ``message``), numbered from 1 and chained by ``prev`` to the one
before (the header's hash for message 1). What a message's parts mean is the engine's
(:mod:`frogpbem.duel.engine`) and the rules' (:mod:`frogpbem.duel.rules`) business: this
module reads, checks the shape of, and writes the file, as
:mod:`frogpbem.gamefile.model` does the referee's (see docs/format.md, "The file without a
referee").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from frogpbem.errors import GameFileError, NotAGameFileError
from frogpbem.frozen import frozen
from frogpbem.gamefile import mailsafe, schema, strictyaml
from frogpbem.gamefile.model import FORMAT_VERSION, JSON, Deadline, Element, Party

MODE = "no-referee"
"""The header's ``mode``: the seats write the file themselves."""
STEPS = ("setup", "overlap", "answer")
"""The ruleset steps a message may carry, opaque to the file (the rules read them)."""

PLACED = "players"
"""The header's ``placed`` when each seat places its own frogs (Frog Finder alone); a header
without ``placed`` has its pieces dealt from both seeds, the default."""
PLACED_RULES = "frogfinder"
"""The one ruleset whose seats may place their own pieces."""


def is_duel(data: bytes) -> bool:
    """Whether ``data`` (as read, perhaps mailed) is a game file without a referee: the
    only game file with a top-level ``messages:`` (a referee's file may not have one)."""
    if not data.startswith(b"frogpbem: "):  # mailed (quoted, in a message): undone first
        data = mailsafe.unmail(data)
    return data.startswith(b"messages:") or b"\nmessages:" in data  # a line that begins so


def _put(data: dict[str, Any], name: str, value: Any) -> None:
    if value is not None:
        data[name] = value


@frozen
class OwnSecret:
    """The first seat's secret in the header: its seed commitment, and the secret sealed
    to that seat alone."""

    commitment: str
    sealed: str

    def to_json(self) -> dict[str, str]:
        return {"commitment": self.commitment, "sealed": self.sealed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OwnSecret:
        return cls(data["commitment"], data["sealed"])


@frozen
class JoinPart:
    """The second seat's join: its seed commitment, its public seed, its secret sealed to
    itself alone."""

    commitment: str
    public: str
    sealed: str

    def to_json(self) -> dict[str, str]:
        return {"commitment": self.commitment, "public": self.public, "sealed": self.sealed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JoinPart:
        return cls(data["commitment"], data["public"], data["sealed"])


@frozen
class DuelHeader(Element):
    """The game as the first seat created it, signed by that seat."""

    KIND: ClassVar[str] = "duel"
    game: str
    rules: str
    options: Mapping[str, int | str]
    created: str
    seats: tuple[Party, ...]
    """Both seats, in turn order; the first signs this header."""
    secret: OwnSecret
    mode: str = MODE
    notary: Party | None = None
    """The notary that relays the mail and stamps each message's time (``None``: none, and
    then no deadline; see docs/format.md, "A notary")."""
    deadline: Deadline | None = None
    """How long a seat has for each message, by the notary's stamps (only with a notary;
    ``on_timeout`` is ``forfeit``)."""
    placed: str | None = None
    """``players`` (:data:`PLACED`) when each seat places its own frogs; ``None``: dealt from
    both seeds (written only when set, so a dealt game's header is as it always was)."""
    signature: str = ""

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(party.seat or "" for party in self.seats)

    @property
    def names(self) -> dict[str, str]:
        return {party.seat or "": party.name for party in self.seats}

    def party(self, seat: str) -> Party:
        return next(p for p in self.seats if p.seat == seat)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "rules": self.rules,
                                "options": dict(self.options)}
        _put(data, "placed", self.placed)
        data |= {"created": self.created, "mode": self.mode,
                 "seats": [party.to_json() for party in self.seats],
                 "notary": self.notary.to_json() if self.notary is not None else None}
        _put(data, "deadline", self.deadline.to_json() if self.deadline is not None else None)
        data["secret"] = self.secret.to_json()
        data["signature"] = self.signature
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DuelHeader:
        seats = tuple(Party.from_json(entry) for entry in data["seats"])
        notary, placed = data["notary"], data.get("placed")
        if placed is not None and (placed != PLACED or data["rules"] != PLACED_RULES):
            raise GameFileError(f"placed: {PLACED} is for {PLACED_RULES} alone",
                                element="header")
        return _checked(cls(data["game"], data["rules"], dict(data["options"]), data["created"],
                            seats, OwnSecret.from_json(data["secret"]), data["mode"],
                            Party.from_json(notary) if notary is not None else None,
                            Deadline.read(data.get("deadline")), placed, data["signature"]),
                        data, "header")


@frozen
class Message(Element):
    """One seat's mail: its parts, in the order written, signed by that seat."""

    KIND: ClassVar[str] = "message"
    n: int
    prev: str
    seat: str
    at: str
    join: JoinPart | None = None
    public: str | None = None
    """The first seat's public seed (shown once the second seat joined)."""
    steps: Mapping[str, JSON] | None = None
    """The ruleset's steps (``setup``, ``overlap``, ``answer``), as the rules made them."""
    move: str | None = None
    resign: bool | None = None
    reveal: str | None = None
    """The seat's secret (hex), shown when it need no longer be hidden."""
    signature: str = ""

    @property
    def label(self) -> str:
        return f"message {self.n} ({self.seat})"

    def step(self, name: str) -> JSON | None:
        return (self.steps or {}).get(name)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"n": self.n, "prev": self.prev, "seat": self.seat, "at": self.at}
        _put(data, "join", self.join.to_json() if self.join else None)
        _put(data, "public", self.public)
        for name in STEPS:
            _put(data, name, self.step(name))
        _put(data, "move", self.move)
        _put(data, "resign", self.resign)
        _put(data, "reveal", {"secret": self.reveal} if self.reveal is not None else None)
        data["signature"] = self.signature
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        join = data.get("join")
        steps = {name: data[name] for name in STEPS if name in data}
        reveal = data.get("reveal")
        where = f"message {data['n']}"
        return _checked(cls(data["n"], data["prev"], data["seat"], data["at"],
                            JoinPart.from_json(join) if join is not None else None,
                            data.get("public"), steps or None, data.get("move"),
                            data.get("resign"), reveal["secret"] if reveal else None,
                            data["signature"]), data, where)


@frozen
class Stamp(Element):
    """The notary's word that it received message ``n`` (of hash ``message``) at ``at``."""

    KIND: ClassVar[str] = "stamp"
    n: int
    message: str
    at: str
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "message": self.message, "at": self.at,
                "signature": self.signature}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Stamp:
        return _checked(cls(data["n"], data["message"], data["at"], data["signature"]), data,
                        f"stamp {data['n']}")


@frozen
class Timeout(Element):
    """The notary's record that ``seat``, due after message ``n`` (of hash ``head``), sent
    nothing before its deadline: the game ended at ``at``, and ``seat`` forfeits."""

    KIND: ClassVar[str] = "timeout"
    n: int
    head: str
    seat: str
    at: str
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "head": self.head, "seat": self.seat, "at": self.at,
                "signature": self.signature}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Timeout:
        return _checked(cls(data["n"], data["head"], data["seat"], data["at"],
                            data["signature"]), data, "the timeout")


@frozen
class SecretPlaintext:
    """What a seat's sealed secret holds: ``{game, seat, secret}`` (padded with spaces)."""

    game: str
    seat: str
    secret: str

    @classmethod
    def parse(cls, data: bytes) -> SecretPlaintext | None:
        """Decrypted bytes as the plaintext; ``None`` if they are not one."""
        try:
            value = json.loads(data)
        except ValueError:
            return None
        if not isinstance(value, dict) or set(value) != {"game", "seat", "secret"} or \
                not all(isinstance(v, str) for v in value.values()):
            return None
        return cls(value["game"], value["seat"], value["secret"])


@frozen
class DuelFile:
    """A game file without a referee: the header and the messages, oldest first."""

    header: DuelHeader
    messages: tuple[Message, ...] = ()
    stamps: tuple[Stamp, ...] = ()
    """The notary's stamps, one per message from the first, in order (a notarised game's;
    the messages after the last stamp have not reached the notary yet)."""
    timeout: Timeout | None = None
    """The notary's record of a seat's deadline passed: the game ended there."""

    @property
    def game(self) -> str:
        return self.header.game

    @property
    def head(self) -> str:
        """The hash the next message's ``prev`` names."""
        return self.messages[-1].hash if self.messages else self.header.hash

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"frogpbem": FORMAT_VERSION, "header": self.header.to_json(),
                                "messages": [message.to_json() for message in self.messages]}
        if self.header.notary is not None:
            data["stamps"] = [stamp.to_json() for stamp in self.stamps]
        _put(data, "timeout", self.timeout.to_json() if self.timeout is not None else None)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DuelFile:
        header = DuelHeader.from_json(data["header"])
        stamps, timeout = data.get("stamps"), data.get("timeout")
        if header.notary is None and (stamps is not None or timeout is not None):
            raise GameFileError("stamps or a timeout in a game without a notary",
                                element="header")
        if header.notary is not None and stamps is None:
            raise GameFileError("a game with a notary holds its stamps (stamps: [] before "
                                "the first)", element="header")
        return cls(header, tuple(Message.from_json(entry) for entry in data["messages"]),
                   tuple(Stamp.from_json(entry) for entry in stamps or ()),
                   Timeout.from_json(timeout) if timeout is not None else None)

    def added(self, message: Message) -> DuelFile:
        return DuelFile(self.header, (*self.messages, message), self.stamps, self.timeout)


E = TypeVar("E", bound=Element)


def _checked(element: E, data: Mapping[str, Any], where: str) -> E:
    """``element``, after checking that it writes back exactly as ``data`` was read."""
    if element.to_json() != data:
        raise GameFileError(f"{where}: fields not in the shape frogpbem writes")
    return element


def parse_duel(data: bytes, name: str) -> DuelFile:
    """A file's bytes (perhaps mailed), checked and typed: strict YAML, version, schema,
    model; raises :class:`GameFileError`."""
    data = mailsafe.unmail(data)
    harm = mailsafe.damage(data.decode("utf-8", "replace"))
    if harm is not None:
        raise GameFileError(f"changed in transit: {harm}; {mailsafe.ADVICE}", path=name)
    doc = strictyaml.loads(data, name)
    if not isinstance(doc, dict) or "messages" not in doc:
        raise NotAGameFileError("not a game file without a referee", path=name)
    if doc.get("frogpbem") != FORMAT_VERSION:
        raise GameFileError(f"unsupported format version {doc.get('frogpbem')!r} "
                            f"(this frogpbem reads {FORMAT_VERSION})", path=name)
    schema.validate(doc, "duel", name)
    try:
        return DuelFile.from_json(doc)
    except GameFileError as exc:
        raise exc.within(path=name) from None


def dump_duel(file: DuelFile) -> bytes:
    """The file's bytes, as strict YAML (lines of at most 76 columns)."""
    lines = strictyaml.item("frogpbem:", FORMAT_VERSION)
    lines += file.header.yaml_lines("header:")
    if not file.messages:
        lines.append("messages: []")
    else:
        lines.append("messages:")
        for message in file.messages:
            lines += message.yaml_lines("-")
    if file.header.notary is not None:
        if not file.stamps:
            lines.append("stamps: []")
        else:
            lines.append("stamps:")
            for stamp in file.stamps:
                lines += stamp.yaml_lines("-")
    if file.timeout is not None:
        lines += file.timeout.yaml_lines("timeout:")
    return ("\n".join(lines) + "\n").encode("utf-8")
