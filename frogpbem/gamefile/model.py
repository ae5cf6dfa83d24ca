"""The game file as typed, frozen values: parsed once, checked on the way in, written back.

:func:`GameFile.from_json` turns a schema-checked document into
:class:`Header`, :class:`Join`, :class:`Deal`, :class:`Record`,
:class:`Request`, :class:`Note` and :class:`Reveal` values; every element's
:meth:`~Element.to_json` gives back exactly the mapping it was read from (an
element that would not is refused on load), so what is signed is what the
file holds. Nothing above this layer indexes the raw document.

This module knows nothing of any game's rules: moves, results and secrets are
the rules' JSON, carried as they are.
"""

from __future__ import annotations

import operator
from collections import OrderedDict, deque
from collections.abc import Mapping, Sequence
from dataclasses import field, replace
from typing import Any, ClassVar, Self, TypeVar, cast

from frogpbem import crypto
from frogpbem.errors import GameFileError
from frogpbem.frozen import cached, frozen
from frogpbem.gamefile import jsontext, strictyaml
from frogpbem.jsonvalue import JSON as JSON  # the file's values, for the layers above

FORMAT_VERSION = 2
"""Format 2 binds joins and notes to the header's hash."""

hash_of = operator.attrgetter("hash")
"""An element's hash, as a function: ``map(hash_of, log)`` runs at C speed (a long game's
records are listed often)."""


def _put(data: dict[str, Any], name: str, value: Any) -> None:
    """Set an optional field: absent when ``None``."""
    if value is not None:
        data[name] = value


class Element:
    """A signed element of the game file. Subclasses are frozen dataclasses."""

    KIND: ClassVar[str]
    """The signing kind (``header``, ``record``...): the domain of its signature."""
    signature: str

    def to_json(self) -> dict[str, Any]:
        """The element as it stands in the file."""
        raise NotImplementedError

    @cached
    def signed_bytes(self) -> bytes:
        """What its signature covers: ``frogpbem/1 KIND\\n`` + canonical JSON, no signature."""
        return crypto.signed_bytes(self.KIND, self.to_json())

    @cached
    def hash(self) -> str:
        """The hash the next element's ``prev`` names."""
        return crypto.sha256_tag(self.signed_bytes)

    def known_hash(self, value: str) -> None:
        """Give the element its :attr:`hash`, made before from these very bytes (a history
        kept by :func:`~frogpbem.gamefile.document.parse_known`), so it is not made again."""
        self.__dict__["hash"] = value

    def yaml_lines(self, lead: str) -> list[str]:
        """The element as written in the file after ``lead`` (``header:``, or ``-`` in a
        list), made once per element and lead: an element never changes."""
        made: dict[str, list[str]] = self.__dict__.setdefault("_yaml_lines", {})
        if lead not in made:
            made[lead] = strictyaml.item(lead, self.to_json())
        return made[lead]

    def signed(self, key: crypto.PrivateKey) -> Self:
        """This element signed with ``key``."""
        signed: Self = replace(cast(Any, self), signature=crypto.sign_message(key,
                                                                            self.signed_bytes))
        return signed

    def verify(self, key: crypto.PublicKey) -> None:
        """Check the signature; raises :class:`~frogpbem.errors.SignatureError`."""
        crypto.verify_message(key, self.signed_bytes, self.signature)


E = TypeVar("E", bound=Element)


def _checked(element: E, data: Mapping[str, Any], where: str) -> E:
    """``element``, after checking that it writes back exactly as ``data`` was read."""
    if element.to_json() != data:
        raise GameFileError(f"{where}: fields not in the shape frogpbem writes")
    return element


# --- the header -------------------------------------------------------------------


@frozen
class Party:
    """The referee or a seat: a name and an OpenSSH public key line."""

    name: str
    """What people call them."""
    key: str
    """The full ``ssh-ed25519 AAAA… comment`` line."""
    seat: str | None = None
    """The seat's name (``red``); ``None`` for the referee."""
    email: str | None = None
    """Where mail for them goes, if given."""

    @cached
    def public_key(self) -> crypto.PublicKey:
        return crypto.PublicKey.parse(self.key)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {} if self.seat is None else {"seat": self.seat}
        data["name"] = self.name
        _put(data, "email", self.email)
        data["key"] = self.key
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Party:
        return cls(data["name"], data["key"], data.get("seat"), data.get("email"))


@frozen
class Fairness:
    """The referee's committed dealing seed, and who adds a seed of their own."""

    scheme: str
    """The derivation's name (``frogpbem-deal-1``)."""
    seed_commitment: str
    """Commitment to the referee's seed."""
    joiners: tuple[str, ...]
    """Seats that add a signed seed before the deal (none: the referee deals alone)."""
    sealed_seed: str
    """The referee's seed, sealed to the referee."""
    seed: str | None = None
    """The seed itself, when nothing is hidden and it is shown with the deal."""

    def to_json(self) -> dict[str, Any]:
        data = {"scheme": self.scheme, "seed_commitment": self.seed_commitment,
                "joiners": list(self.joiners), "sealed_seed": self.sealed_seed}
        _put(data, "seed", self.seed)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Fairness:
        return cls(data["scheme"], data["seed_commitment"], tuple(data["joiners"]),
                   data["sealed_seed"], data.get("seed"))


@frozen
class Dealt:
    """A dealt setup: public data, and per seat a commitment and a sealed copy."""

    public: JSON
    """The public part of the setup (Froglet's board), or ``None``."""
    commitments: Mapping[str, str]
    """Each hidden setup's commitment, by seat."""
    sealed: Mapping[str, str]
    """Each hidden setup, sealed to its readers and the referee, by seat."""

    def to_json(self) -> dict[str, Any]:
        return {"public": self.public, "commitments": dict(self.commitments),
                "sealed": dict(self.sealed)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Dealt:
        return cls(data["public"], dict(data["commitments"]), dict(data["sealed"]))


EMPTY = Dealt(None, {}, {})


@frozen
class Setup:
    """How the header sets the game up."""

    dealt: str
    """``random``, ``chosen`` (a set position) or ``players`` (each seat chooses)."""
    dealing: Dealt
    """What the header deals (empty when the seats join or choose first)."""
    fairness: Fairness | None = None
    """The committed seed of a random deal."""
    choosers: tuple[str, ...] | None = None
    """Seats that choose their own secret (``players``)."""

    @property
    def joiners(self) -> tuple[str, ...]:
        """Seats that add something before the deal: a seed, or their own secret."""
        if self.choosers:
            return self.choosers
        return self.fairness.joiners if self.fairness else ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"dealt": self.dealt, **self.dealing.to_json()}
        _put(data, "fairness", self.fairness.to_json() if self.fairness else None)
        _put(data, "choosers", list(self.choosers) if self.choosers is not None else None)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        fairness = data.get("fairness")
        choosers = data.get("choosers")
        return cls(data["dealt"], Dealt.from_json(data),
                   Fairness.from_json(fairness) if fairness is not None else None,
                   tuple(choosers) if choosers is not None else None)


@frozen
class Entered:
    """A game's place in a tournament: the tournament's id and header hash, the round, and
    the tournament's head when the round was paired (the round's ``prev``), so that a game
    of round ``r`` fixes rounds 1 to ``r - 1``."""

    id: str
    header: str
    """The hash of the tournament's header (its kind ``tournament``)."""
    round: int
    prev: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "header": self.header, "round": self.round,
                "prev": self.prev}

    @classmethod
    def read(cls, data: Mapping[str, Any] | None) -> Entered | None:
        return None if data is None else cls(data["id"], data["header"], data["round"],
                                             data["prev"])


@frozen
class Deadline:
    """How long a seat has for each move, and what happens when the time passes."""

    per_move: str
    """``72h``, ``3d``, ``90m``, or units combined from the largest down: ``1h30m``,
    ``2d12h``."""
    on_timeout: str
    """``forfeit``: the seat that let the time pass resigns; ``pass``: its turn goes by
    (where the rules leave none to pass, it resigns). A signed record says so."""

    UNITS: ClassVar[dict[str, int]] = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    SHORTEST: ClassVar[int] = 3600
    """The shortest deadline ``new`` accepts (seconds): an hour, so that mail has time to
    go both ways, and far more than the clocks' allowed skew (ten minutes)."""
    LONGEST: ClassVar[int] = 366 * 86400
    """The longest: a year."""

    @property
    def seconds(self) -> int:
        return sum(count * self.UNITS[unit] for count, unit in self.parts(self.per_move))

    @classmethod
    def parts(cls, text: str) -> list[tuple[int, str]]:
        """``1h30m`` as ``[(1, "h"), (30, "m")]``; ``[]`` if it is not such a time (each
        unit once, the largest first)."""
        parts: list[tuple[int, str]] = []
        digits = ""
        for char in text:
            if char.isascii() and char.isdigit():
                digits += char
            elif char in cls.UNITS and digits and len(digits) <= 6:
                parts.append((int(digits), char))
                digits = ""
            else:
                return []
        order = [list(cls.UNITS).index(unit) for _, unit in parts]
        if digits or order != sorted(set(order)):
            return []
        return parts

    def to_json(self) -> dict[str, Any]:
        return {"per_move": self.per_move, "on_timeout": self.on_timeout}

    @classmethod
    def parse(cls, per_move: str, on_timeout: str = "forfeit") -> Deadline:
        """From ``new``'s options; raises :class:`GameFileError` for what it cannot be."""
        text = "".join(per_move.lower().split())
        parts = [(count, unit) for count, unit in cls.parts(text) if count]
        seconds = sum(count * cls.UNITS[unit] for count, unit in parts)
        if not parts:
            raise GameFileError(f"deadline {per_move!r}: give a time such as 72h, 3d, 1h30m "
                                "or 2d12h")
        if not cls.SHORTEST <= seconds <= cls.LONGEST:
            raise GameFileError(f"deadline {per_move!r}: give at least 1h and at most 366d "
                                "(mail needs time to go both ways)")
        if on_timeout not in ("forfeit", "pass"):
            raise GameFileError(f"on_timeout {on_timeout!r}: give forfeit or pass")
        return cls("".join(f"{count}{unit}" for count, unit in parts), on_timeout)

    @classmethod
    def read(cls, data: Mapping[str, Any] | None) -> Deadline | None:
        """A signed header's deadline, held to the range :meth:`parse` accepts: a header
        signed with ``per_move: 1s`` leaves no time to answer by mail, and is refused
        wherever it is read. (The schema holds its text to the one form ``parse`` writes.)"""
        if data is None:
            return None
        try:
            cls.parse(data["per_move"], data["on_timeout"])
        except GameFileError as exc:
            raise exc.within(element="header") from None
        return cls(data["per_move"], data["on_timeout"])


@frozen
class Header(Element):
    """The referee's signed description of the game."""

    KIND: ClassVar[str] = "header"
    game: str
    """The game id (``ff-7q3kx2``)."""
    rules: str
    """The ruleset's name."""
    options: Mapping[str, int | str]
    """The ruleset's options, complete."""
    created: str
    """When the game was created (UTC, ``YYYY-MM-DDTHH:MM:SSZ``)."""
    referee: Party
    """The referee."""
    seats: tuple[Party, ...]
    """The seats, in turn order."""
    setup: Setup
    """The setup: dealt here, or by a later deal."""
    signature: str = ""
    deadline: Deadline | None = None
    """The time per move, if the game has one."""
    tournament: Entered | None = None
    """The tournament the game is a game of, if any."""

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(party.seat or "" for party in self.seats)

    @cached
    def seat_keys(self) -> dict[str, crypto.PublicKey]:
        """Each seat's public key, by seat name."""
        return {party.seat or "": party.public_key for party in self.seats}

    @cached
    def made(self) -> Made:
        """What was made for the files of this game that share this header value (every
        file made from another keeps its header): see :class:`Made`."""
        return Made()

    @property
    def names(self) -> dict[str, str]:
        return {party.seat or "": party.name for party in self.seats}

    def to_json(self) -> dict[str, Any]:
        data = {"game": self.game, "rules": self.rules, "options": dict(self.options),
                "created": self.created, "referee": self.referee.to_json(),
                "seats": [party.to_json() for party in self.seats],
                "setup": self.setup.to_json()}
        _put(data, "deadline", self.deadline.to_json() if self.deadline else None)
        _put(data, "tournament", self.tournament.to_json() if self.tournament else None)
        data["signature"] = self.signature
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Header:
        seats = tuple(Party.from_json(entry) for entry in data["seats"])
        names = [party.seat for party in seats]
        for name in names:
            if names.count(name) > 1:
                raise GameFileError(f"seat {name!r} appears twice", element="header")
        return _checked(cls(data["game"], data["rules"], dict(data["options"]), data["created"],
                            Party.from_json(data["referee"]), seats,
                            Setup.from_json(data["setup"]), data["signature"],
                            Deadline.read(data.get("deadline")),
                            Entered.read(data.get("tournament"))), data, "header")


# --- before the first record: joins and the deal ------------------------------------


@frozen
class Sealed:
    """A secret kept sealed in the file: the age armour and its commitment."""

    sealed: str
    """The age-armoured ciphertext."""
    commitment: str
    """The commitment to what it holds."""

    def to_json(self) -> dict[str, str]:
        return {"commitment": self.commitment, "sealed": self.sealed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sealed | None:
        """The pair, if the element has it; one half alone is refused."""
        present = ("sealed" in data, "commitment" in data)
        if present == (False, False):
            return None
        if present != (True, True):
            raise GameFileError("a sealed block needs both 'sealed' and 'commitment'")
        return cls(data["sealed"], data["commitment"])


@frozen
class Join(Element):
    """A seat's contribution before the deal: a fresh seed, or its own sealed secret."""

    KIND: ClassVar[str] = "join"
    game: str
    header: str
    """The header's hash: the join counts under that header (and seed commitment) only."""
    seat: str
    seed: str | None = None
    """The seat's random seed (random deals)."""
    chosen: Sealed | None = None
    """The seat's own secret, sealed and committed (games whose seats choose)."""
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "header": self.header, "seat": self.seat}
        _put(data, "seed", self.seed)
        if self.chosen is not None:
            data.update(self.chosen.to_json())
        data["signature"] = self.signature
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "join") -> Join:
        return _checked(cls(data["game"], data["header"], data["seat"], data.get("seed"),
                            Sealed.from_json(data), data["signature"]), data, where)


@frozen
class Deal(Element):
    """The referee's deal once every seat has joined: the joins and the sealed setup."""

    KIND: ClassVar[str] = "deal"
    prev: str
    """The header's hash."""
    joins: tuple[Join, ...]
    """The seats' joins, in seat order."""
    dealing: Dealt
    """Public setup, commitments and sealed copies."""
    seed: str | None
    """The referee's seed, when nothing is hidden and it can be shown at once."""
    at: str
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"prev": self.prev, "joins": [join.to_json() for join in self.joins],
                **self.dealing.to_json(), "seed": self.seed, "at": self.at,
                "signature": self.signature}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deal:
        joins = tuple(Join.from_json(j, "deal: join") for j in data["joins"])
        return _checked(cls(data["prev"], joins, Dealt.from_json(data), data["seed"], data["at"],
                            data["signature"]), data, "deal")


# --- the log -------------------------------------------------------------------------


@frozen
class Request(Element):
    """A move signed by a seat, bound to the game, the record number and the head it saw."""

    KIND: ClassVar[str] = "request"
    game: str
    n: int
    """The record number it asks to become."""
    head: str
    """The hash of the history the seat saw (the next record's ``prev``)."""
    seat: str
    move: str
    """The move's public notation (``guess`` alone for a sealed guess)."""
    sealed: Sealed | None = None
    """A move kept secret until the end (its full notation, sealed)."""
    signature: str = ""

    @property
    def label(self) -> str:
        return f"{self.seat} {self.move!r}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "n": self.n, "head": self.head,
                                "seat": self.seat, "move": self.move}
        if self.sealed is not None:
            data.update(self.sealed.to_json())
        data["signature"] = self.signature
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "request") -> Request:
        return _checked(cls(data["game"], data["n"], data["head"], data["seat"], data["move"],
                            Sealed.from_json(data), data["signature"]), data, where)


@frozen
class Asked:
    """Where a request was signed, when it was applied at a later point (a resignation)."""

    n: int
    head: str

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "head": self.head}


@frozen
class Record(Element):
    """One move, applied and signed by the referee."""

    KIND: ClassVar[str] = "record"
    n: int
    """Its number, from 1."""
    prev: str
    """The hash of the element before it."""
    seat: str
    move: str
    """The move's public notation."""
    result: JSON
    """The public result, as the rules write it."""
    scores: Mapping[str, int]
    """Every seat's (or team's) points after it."""
    at: str
    sealed: Sealed | None = None
    """A move kept secret until the end."""
    request: str | None = None
    """The seat's signature of its request; ``None``: entered by the referee."""
    asked: Asked | None = None
    """Where the request was signed, when not at this record."""
    signature: str = ""
    timeout: bool = False
    """The referee recorded this move because the seat let its deadline pass."""

    @cached
    def view_entry(self) -> dict[str, Any]:
        """What a view file lists of this record: number, seat, public move and result."""
        return {"n": self.n, "seat": self.seat, "move": self.move, "result": self.result}

    @cached
    def view_entry_written(self) -> tuple[list[str], bytes]:
        """:attr:`view_entry` as an item of a view file's ``moves`` (its lines) and as
        canonical JSON, made once (every view written and signed lists it): at once for
        the entries of nearly every record (:func:`_plain_view_entry`), by the general
        writers else."""
        return _plain_view_entry(self.n, self.seat, self.move, self.result) or \
            (strictyaml.item("-", self.view_entry), crypto.canonical_json(self.view_entry))

    def request_element(self, game: str) -> Request | None:
        """The request this record carries the seat's signature of, rebuilt."""
        if self.request is None:
            return None
        n, head = (self.asked.n, self.asked.head) if self.asked else (self.n, self.prev)
        return Request(game, n, head, self.seat, self.move, self.sealed, self.request)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"n": self.n, "prev": self.prev, "seat": self.seat,
                                "move": self.move, "result": self.result,
                                "scores": dict(self.scores), "at": self.at}
        if self.sealed is not None:
            data.update(self.sealed.to_json())
        _put(data, "request", self.request)
        _put(data, "asked", self.asked.to_json() if self.asked else None)
        _put(data, "timeout", True if self.timeout else None)
        data["signature"] = self.signature
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "record") -> Record:
        asked = data.get("asked")
        return _checked(cls(data["n"], data["prev"], data["seat"], data["move"], data["result"],
                            dict(data["scores"]), data["at"], Sealed.from_json(data),
                            data.get("request"),
                            Asked(asked["n"], asked["head"]) if asked is not None else None,
                            data["signature"], bool(data.get("timeout", False))), data, where)


def _plain_view_entry(n: Any, seat: Any, move: Any,
                      result: Any) -> tuple[list[str], bytes] | None:
    """``strictyaml.item("-", entry)`` and ``crypto.canonical_json(entry)`` of the view
    entry ``{"n", "seat", "move", "result"}``, made directly when its seat and move are
    written plain and its result is a mapping of plain keys to integers, booleans, nulls
    and plain strings (a view lists every record: a long game's referee makes a thousand
    of them at every move); ``None`` for any other entry. A test checks both against
    the general writers."""
    if type(n) is not int or not -crypto.MAX_SAFE_INTEGER <= n <= crypto.MAX_SAFE_INTEGER \
            or type(seat) is not str or type(move) is not str or type(result) is not dict \
            or not strictyaml.written_plain(seat) or not strictyaml.written_plain(move):
        return None
    lines = [f'- "n": {n}', f"  seat: {seat}", f"  move: {move}", "  result: {}"]
    if len(lines[1]) > strictyaml.WIDTH or len(lines[2]) > strictyaml.WIDTH:
        return None  # a string this long is folded over lines
    members: list[tuple[str, str]] = []
    if result:
        lines[-1] = "  result:"
        for name, value in result.items():
            if type(name) is not str or not strictyaml.written_plain(name):
                return None
            kind = type(value)
            if kind is str and strictyaml.written_plain(value):
                text, encoded = value, f'"{value}"'
            elif kind is int and -crypto.MAX_SAFE_INTEGER <= value <= crypto.MAX_SAFE_INTEGER:
                text = encoded = str(value)
            elif kind is bool or value is None:
                text = encoded = "null" if value is None else "true" if value else "false"
            else:
                return None
            line = f"    {name}: {text}"
            if kind is str and len(line) > strictyaml.WIDTH:
                return None
            lines.append(line)
            members.append((name, encoded))
        members.sort()  # by name: no two alike (a mapping), ASCII (plain)
    body = ",".join(f'"{name}":{encoded}' for name, encoded in members)
    return lines, f'{{"move":"{move}","n":{n},"result":{{{body}}},"seat":"{seat}"}}'.encode()


@frozen
class Note(Element):
    """A private note, signed by its author and sealed to the author's team only."""

    KIND: ClassVar[str] = "note"
    game: str
    header: str
    """The header's hash: the note belongs to that game as it was set up."""
    seat: str
    """Its author."""
    to: tuple[str, ...]
    """The seats it is sealed to (the author's team)."""
    n: int
    """How many records the game had when it was written."""
    sealed: str
    at: str
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "header": self.header, "seat": self.seat,
                "to": list(self.to), "n": self.n,
                "sealed": self.sealed, "at": self.at, "signature": self.signature}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "note") -> Note:
        return _checked(cls(data["game"], data["header"], data["seat"], tuple(data["to"]),
                            data["n"],
                            data["sealed"], data["at"], data["signature"]), data, where)


@frozen
class Opened:
    """A secret with its salt, as revealed (it must match its commitment)."""

    salt: str
    secret: JSON

    def to_json(self) -> dict[str, Any]:
        return {"salt": self.salt, "secret": self.secret}


@frozen
class OpenedMove:
    """A sealed move's full notation and salt, as revealed."""

    move: str
    salt: str

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "salt": self.salt}


@frozen
class Reveal(Element):
    """Written by the referee at the end: every secret, the seed, the outcome."""

    KIND: ClassVar[str] = "reveal"
    prev: str
    """The last record's hash."""
    secrets: Mapping[str, Opened]
    """Every seat's hidden setup with its salt."""
    outcome: JSON
    """How the game ended: ``termination`` and ``standing``."""
    seed: str | None
    """The referee's dealing seed (random deals)."""
    at: str
    sealed_moves: Mapping[int, OpenedMove] = field(default_factory=dict)
    """Every sealed move, opened, by record number."""
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"prev": self.prev,
                                "secrets": {s: o.to_json() for s, o in self.secrets.items()},
                                "outcome": self.outcome, "seed": self.seed, "at": self.at}
        if self.sealed_moves:
            data["sealed_moves"] = {str(n): m.to_json() for n, m in self.sealed_moves.items()}
        data["signature"] = self.signature
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reveal:
        moves = {}
        for number, opened in data.get("sealed_moves", {}).items():
            if not number.isdigit():
                raise GameFileError(f"sealed move {number!r} is not a record number",
                                    element="reveal")
            moves[int(number)] = OpenedMove(opened["move"], opened["salt"])
        secrets = {seat: Opened(o["salt"], o["secret"]) for seat, o in data["secrets"].items()}
        return _checked(cls(data["prev"], secrets, data["outcome"], data.get("seed"), data["at"],
                            moves, data["signature"]), data, "reveal")


# --- the whole file ---------------------------------------------------------------------


@frozen
class GameFile:
    """A whole game file. Every change makes a new value (``with_*``)."""

    header: Header
    joins: tuple[Join, ...] = ()
    """Joins waiting for the deal."""
    deal: Deal | None = None
    log: tuple[Record, ...] = ()
    """The records, oldest first."""
    requests: tuple[Request, ...] = ()
    """Signed requests not yet applied."""
    reveal: Reveal | None = None
    notes: tuple[Note, ...] = ()

    @property
    def game(self) -> str:
        return self.header.game

    @property
    def dealing(self) -> Dealt:
        """The dealt setup: the deal's once seats joined, else the header's."""
        return self.deal.dealing if self.deal is not None else self.header.setup.dealing

    @property
    def base_hash(self) -> str:
        """What record 1 follows: the deal when there is one, else the header."""
        return self.deal.hash if self.deal is not None else self.header.hash

    @property
    def head(self) -> str:
        """The hash that the next record's ``prev`` names."""
        return self.log[-1].hash if self.log else self.base_hash

    @property
    def history(self) -> list[Deal | Record | Reveal]:
        """The referee's chained elements after the header, in order: deal, records, reveal."""
        return [*([self.deal] if self.deal else []), *self.log,
                *([self.reveal] if self.reveal else [])]

    @cached
    def view_moves(self) -> tuple[str, bytes]:
        """Every record's view entry as the lines of a view file's ``moves`` (joined by line
        breaks) and as canonical JSON: made once per file value (a view of every seat is
        written at every move, and each lists every record), and only for the records
        after the longest list known for records these very values begin with (see
        :func:`know_view_moves`)."""
        start, text, inner = 0, "", b""
        for records, known_text, known_inner in self.header.made.views:
            if start < len(records) <= len(self.log) and \
                    all(map(operator.is_, records, self.log)):
                start, text, inner = len(records), known_text, known_inner
        written = [record.view_entry_written for record in self.log[start:]]
        lines = [line for entry, _ in written for line in entry]
        canonicals = [canonical for _, canonical in written]
        if start:
            lines.insert(0, text)
            canonicals.insert(0, inner)
        text, inner = "\n".join(lines), b",".join(canonicals)
        know_view_moves(self, text, inner)
        return text, b"[" + inner + b"]"

    @property
    def parts(self) -> FileParts:
        """The file's values but its header: joins, deal, records, requests, reveal, notes."""
        return self.joins, self.deal, self.log, self.requests, self.reveal, self.notes

    def heads(self) -> list[str]:
        """The head before each record, then after the last: ``heads()[n]`` is after ``n``."""
        return [self.base_hash, *self.log_hashes()]

    def log_hashes(self) -> tuple[str, ...]:
        """Each record's hash, in order. A log listed before (for a file with this header),
        or made by :meth:`with_record` from one listed, is not listed again (a game played in
        one process lists its log at every record, several times)."""
        known = _listed(self)
        if known is not None:
            return known
        hashes = tuple(map(hash_of, self.log))
        self.header.made.logs.append((self.log, hashes))
        return hashes

    def history_hashes(self) -> tuple[str, ...]:
        """The hash of each element of :attr:`history`, in order."""
        return (*([self.deal.hash] if self.deal else []), *self.log_hashes(),
                *([self.reveal.hash] if self.reveal else []))

    @property
    def undealt(self) -> bool:
        return bool(self.header.setup.joiners) and self.deal is None

    @property
    def waiting_for(self) -> list[str]:
        """Seats the deal still waits for (empty once dealt, or without joins)."""
        if not self.undealt:
            return []
        joined = {join.seat for join in self.joins}
        return [seat for seat in self.header.setup.joiners if seat not in joined]

    def with_record(self, record: Record) -> GameFile:
        log = (*self.log, record)
        known = _listed(self)
        if known is not None:  # listed already: one more hash
            self.header.made.logs.append((log, (*known, record.hash)))
        return replace(self, log=log)

    def to_json(self) -> dict[str, Any]:
        return {
            "frogpbem": FORMAT_VERSION,
            "header": self.header.to_json(),
            "joins": [join.to_json() for join in self.joins],
            "deal": self.deal.to_json() if self.deal is not None else None,
            "log": [record.to_json() for record in self.log],
            "requests": [request.to_json() for request in self.requests],
            "reveal": self.reveal.to_json() if self.reveal is not None else None,
            "notes": [note.to_json() for note in self.notes],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameFile:
        """A schema-checked document as typed values; raises :class:`GameFileError`."""
        deal = data.get("deal")
        return cls(
            header=Header.from_json(data["header"]),
            joins=tuple(Join.from_json(j, f"pending join {i + 1}")
                        for i, j in enumerate(data.get("joins", []))),
            deal=Deal.from_json(deal) if deal is not None else None,
            log=_records(data["log"]),
            **_pending(data),
        )

    def continued(self, log: Sequence[Any], pending: Mapping[str, Any]) -> GameFile:
        """This file's history (header, joins, deal, records: the same values) followed by
        the records ``log`` and the pending part ``pending`` (requests, reveal, notes), both
        schema-checked documents, typed as :meth:`from_json` types them."""
        more = _records(log, len(self.log))
        return replace(self, log=(*self.log, *more) if more else self.log, **_pending(pending))


def _listed(file: GameFile) -> tuple[str, ...] | None:
    """The hashes listed for ``file``'s log itself (that very tuple), if there are any (then
    kept as the newest)."""
    logs = file.header.made.logs
    for index, (log, hashes) in enumerate(reversed(logs)):
        if log is file.log:
            if index:
                del logs[len(logs) - 1 - index]
                logs.append((log, hashes))
            return hashes
    return None


K = TypeVar("K")
V = TypeVar("V")


def keep_recent(recent: OrderedDict[K, V], key: K, value: V, size: int) -> None:
    """Keep ``value`` under ``key`` as the newest of ``recent``, which keeps the last ``size``."""
    recent[key] = value
    recent.move_to_end(key)
    while len(recent) > size:
        recent.popitem(last=False)


KNOWN_LOGS = 8
"""How many lists of record hashes :class:`Made` keeps."""
KNOWN_VIEW_MOVES = 4
"""How many lists of view entries are known at once (the game's, and a few copies')."""
KNOWN_PREFIXES = 4
"""How many prefix digests are kept (the game's, and those of a few copies of it)."""
KNOWN_SOURCES = 4
"""How many files' bytes are kept (see :func:`~frogpbem.gamefile.document.dump_game`)."""


class Made:
    """What was made for the files of one game, kept with their header (see
    :attr:`Header.made`) so that a file made from another (a record more, other requests,
    a copy read from a kept history) makes only what is new. Each list keeps its last few
    entries, newest last; an entry keeps the values it was made from, compared by
    identity (so they stay the ones it names)."""

    __slots__ = ("logs", "views", "prefixes", "sources")

    def __init__(self) -> None:
        self.logs: deque[tuple[tuple[Record, ...], tuple[str, ...]]] = deque(maxlen=KNOWN_LOGS)
        """Each record's hash, by log."""
        self.views: deque[tuple[tuple[Record, ...], str, bytes]] = \
            deque(maxlen=KNOWN_VIEW_MOVES)
        """The view entries of records (see :func:`know_view_moves`)."""
        self.prefixes: deque[tuple[Deal | None, tuple[Record, ...], crypto.Sha256Stream]] = \
            deque(maxlen=KNOWN_PREFIXES)
        """The digest made of the header, a deal and records, as a stream (see
        :func:`~frogpbem.gamefile.chain.prefix_digest`)."""
        self.sources: deque[tuple[FileParts, bytes, int, bool]] = deque(maxlen=KNOWN_SOURCES)
        """Files read or written (their :attr:`GameFile.parts`: the file itself would hold its
        header, and so this list, in a cycle that only the garbage collector frees), each
        with its bytes, the length of its history part, and whether
        :func:`~frogpbem.gamefile.document.dump_game` wrote them."""


FileParts = tuple[tuple[Join, ...], Deal | None, tuple[Record, ...], tuple[Request, ...],
                  Reveal | None, tuple[Note, ...]]
"""A game file's values but its header (:attr:`GameFile.parts`)."""


def know_view_moves(file: GameFile, text: str, inner: bytes) -> None:
    """Know ``text`` and ``inner`` as the view entries of ``file``'s records (their lines
    joined by line breaks, and their canonical JSON joined by commas, within no brackets):
    a later file whose log begins with these very values makes only its newer entries (a
    history kept by :func:`~frogpbem.gamefile.document.parse_known` brings the list it
    kept; the referee and the judge make each list from the one before)."""
    if file.log:
        views = file.header.made.views
        for index, (records, _, _) in enumerate(views):
            if records is file.log:
                del views[index]
                break
        views.append((file.log, text, inner))


def _records(data: Sequence[Any], before: int = 0) -> tuple[Record, ...]:
    """Records as typed values (``before``: how many records come before them)."""
    return tuple(Record.from_json(r, f"record {before + i + 1}") for i, r in enumerate(data))


def _pending(data: Mapping[str, Any]) -> dict[str, Any]:
    """A game file's pending part (requests, reveal, notes) as typed values."""
    reveal = data["reveal"]
    return {
        "requests": tuple(Request.from_json(r, f"pending request {i + 1}")
                          for i, r in enumerate(data["requests"])),
        "reveal": Reveal.from_json(reveal) if reveal is not None else None,
        "notes": tuple(Note.from_json(n, f"note {i + 1}")
                       for i, n in enumerate(data.get("notes", []))),
    }


# --- what sealed blocks and setup files hold -----------------------------------------------


@frozen
class Plaintext:
    """What every sealed block holds: ``{game, seat, salt, secret}`` (padded with spaces)."""

    game: str
    seat: str
    salt: str
    secret: JSON

    @classmethod
    def parse(cls, data: bytes) -> Plaintext:
        """Decrypted bytes as a plaintext; raises :class:`GameFileError`."""
        try:
            value = jsontext.loads(data)
            if not isinstance(value, dict) or set(value) != {"game", "seat", "salt", "secret"}:
                raise ValueError("wrong fields")
            return cls(str(value["game"]), str(value["seat"]), str(value["salt"]),
                       value["secret"])
        except ValueError:
            raise GameFileError("a sealed block does not hold a frogpbem secret") from None


@frozen
class MoveSecret:
    """What a sealed move commits to: its record number and full notation."""

    n: int
    move: str

    def to_json(self) -> JSON:
        return {"n": self.n, "move": self.move}

    @classmethod
    def from_json(cls, data: JSON) -> MoveSecret:
        if isinstance(data, dict) and set(data) == {"n", "move"} and \
                type(data["n"]) is int and isinstance(data["move"], str):
            return cls(data["n"], data["move"])
        raise GameFileError("a sealed move does not hold a record number and a move")


@frozen
class ChosenSetup:
    """A set position given to ``frogpbem new --setup``: public data and each seat's secret."""

    public: JSON
    secrets: Mapping[str, JSON]

    @classmethod
    def from_json(cls, data: JSON) -> ChosenSetup:
        if not isinstance(data, dict):
            raise GameFileError("a setup file is a mapping of seat to setup (and 'public')")
        return cls(data.get("public"), {k: v for k, v in data.items() if k != "public"})


@frozen
class ViewFile:
    """A view file (``game.red.view.yaml``) as mailed to a seat: signed by the referee."""

    KIND: ClassVar[str] = "view"
    data: Mapping[str, Any]
    """The schema-checked document, as read."""

    @property
    def game(self) -> str:
        return str(self.data["game"])

    @property
    def rules(self) -> str:
        return str(self.data["rules"])

    @property
    def seat(self) -> str | None:
        seat = self.data["seat"]
        return None if seat is None else str(seat)

    @property
    def n(self) -> int:
        return int(self.data["n"])

    @property
    def head(self) -> str:
        return str(self.data["head"])

    @property
    def names(self) -> dict[str, str]:
        return {str(k): str(v) for k, v in self.data["names"].items()}

    @property
    def setup(self) -> str:
        return str(self.data.get("setup", "not stated"))

    @property
    def board(self) -> JSON:
        return cast(JSON, self.data["state"])  # strict YAML, checked by the view schema

    @property
    def moves(self) -> list[tuple[int, str, str, JSON]]:
        """Each record: number, seat, move, result."""
        return [(int(m["n"]), str(m["seat"]), str(m["move"]), m["result"])
                for m in self.data["moves"]]

    def verify(self, key: crypto.PublicKey) -> None:
        """Check the referee's signature; raises :class:`~frogpbem.errors.SignatureError`."""
        crypto.verify_message(key, crypto.signed_bytes("view", dict(self.data)),
                              str(self.data["signature"]))
