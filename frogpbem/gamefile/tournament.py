"""The tournament file as typed, frozen values, read strictly and written back exactly.

The director signs the header (kind ``tournament``) and each round (kind
``round``), each round chained to the one before by ``prev``, as a game's
records are (docs/format.md, "Tournaments"). Like the game file, every element
writes back exactly as it was read, or it is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from frogpbem import crypto
from frogpbem.errors import GameFileError, SignatureError
from frogpbem.frozen import cached, frozen
from frogpbem.gamefile import schema, strictyaml
from frogpbem.gamefile.document import read_bytes
from frogpbem.gamefile.model import Deadline, Element, Party, _checked, _put

VERSION = 1
SYSTEMS = ("roundrobin", "swiss", "tables")
MAX_PLAYERS = 128
"""Enough for any club; and a verify of a file of any size stays a matter of seconds."""


@frozen
class Player:
    """A player: seed number, name, key, and where mail goes."""

    player: int
    """The seed number: 1 for the first in the list."""
    name: str
    key: str
    """The ``ssh-ed25519 AAAA… comment`` line."""
    email: str | None = None

    @cached
    def public_key(self) -> crypto.PublicKey:
        return crypto.PublicKey.parse(self.key)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player": self.player, "name": self.name}
        _put(data, "email", self.email)
        data["key"] = self.key
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Player:
        return cls(data["player"], data["name"], data["key"], data.get("email"))


@frozen
class Format:
    """How players meet: ``roundrobin`` (``cycles``), ``swiss``, or ``tables`` (``seats``)."""

    system: str
    rounds: int
    cycles: int | None = None
    seats: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"system": self.system, "rounds": self.rounds}
        _put(data, "cycles", self.cycles)
        _put(data, "seats", self.seats)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Format:
        return cls(data["system"], data["rounds"], data.get("cycles"), data.get("seats"))


@frozen
class TournamentHeader(Element):
    """The director's signed description of the tournament."""

    KIND: ClassVar[str] = "tournament"
    tournament: str
    """The tournament's id (``t-7q3kx2ab``)."""
    name: str
    created: str
    director: Party
    rules: str
    options: Mapping[str, int | str]
    """Every game's options, complete."""
    deadline: Deadline | None
    format: Format
    players: tuple[Player, ...]
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "tournament": self.tournament, "name": self.name, "created": self.created,
            "director": self.director.to_json(), "rules": self.rules,
            "options": dict(self.options)}
        _put(data, "deadline", self.deadline.to_json() if self.deadline else None)
        data["format"] = self.format.to_json()
        data["players"] = [player.to_json() for player in self.players]
        data["signature"] = self.signature
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentHeader:
        players = tuple(Player.from_json(entry) for entry in data["players"])
        return _checked(cls(data["tournament"], data["name"], data["created"],
                            Party.from_json(data["director"]), data["rules"],
                            dict(data["options"]), Deadline.read(data.get("deadline")),
                            Format.from_json(data["format"]), players, data["signature"]),
                        data, "header")


@frozen
class Listed:
    """A game of a round: its id, its header's hash, and its players in seat order."""

    game: str
    header: str
    players: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "header": self.header, "players": list(self.players)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Listed:
        return cls(data["game"], data["header"], tuple(data["players"]))


@frozen
class Round(Element):
    """One round, signed by the director: its games and byes, chained by ``prev``."""

    KIND: ClassVar[str] = "round"
    round: int
    prev: str
    games: tuple[Listed, ...]
    byes: tuple[int, ...]
    at: str
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "prev": self.prev,
                "games": [game.to_json() for game in self.games], "byes": list(self.byes),
                "at": self.at, "signature": self.signature}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        return _checked(cls(data["round"], data["prev"],
                            tuple(Listed.from_json(entry) for entry in data["games"]),
                            tuple(data["byes"]), data["at"], data["signature"]),
                        data, f"round {data['round']}")


@frozen
class TournamentFile:
    """A whole tournament file: the header and the rounds so far."""

    header: TournamentHeader
    rounds: tuple[Round, ...] = ()

    @property
    def head(self) -> str:
        """The hash the next round's ``prev`` names."""
        return self.rounds[-1].hash if self.rounds else self.header.hash

    def to_json(self) -> dict[str, Any]:
        return {"frogpbem-tournament": VERSION, "header": self.header.to_json(),
                "rounds": [entry.to_json() for entry in self.rounds]}

    def dumps(self) -> bytes:
        """The file's text (strict YAML, 76 columns)."""
        lines = [f"frogpbem-tournament: {VERSION}"]
        lines += self.header.yaml_lines("header:")
        if self.rounds:
            lines.append("rounds:")
            for entry in self.rounds:
                lines += entry.yaml_lines("-")
        else:
            lines.append("rounds: []")
        return ("\n".join(lines) + "\n").encode()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentFile:
        return cls(TournamentHeader.from_json(data["header"]),
                   tuple(Round.from_json(entry) for entry in data["rounds"]))

    def with_round(self, entry: Round) -> TournamentFile:
        return TournamentFile(self.header, (*self.rounds, entry))


def parse_tournament(data: bytes, name: str) -> TournamentFile:
    """A tournament file from its bytes: strict YAML, the schema, the typed values.

    Signatures are not checked here (:func:`check_signatures` does).
    """
    document = strictyaml.loads(data, name)
    if not isinstance(document, dict) or "frogpbem-tournament" not in document:
        raise GameFileError("not a tournament file (no 'frogpbem-tournament' line)",
                            path=name)
    if document["frogpbem-tournament"] != VERSION:
        raise GameFileError(f"tournament file version {document['frogpbem-tournament']!r}: "
                            f"this frogpbem reads version {VERSION}", path=name)
    schema.validate(document, "tournament", name)
    try:
        return TournamentFile.from_json(document)
    except GameFileError as exc:
        raise exc.within(path=name) from None


def read_tournament(path: Path) -> TournamentFile:
    """:func:`parse_tournament` of the file at ``path``."""
    return parse_tournament(read_bytes(path), str(path))


def check_signatures(file: TournamentFile) -> list[str]:
    """What does not hold in the file's signatures, chain, players and rounds, one
    sentence each (nothing after it may rely on a file with any; the format against the
    rules is :func:`frogpbem.tournament.director.format_problems`'s)."""
    problems: list[str] = []
    header = file.header
    director = header.director.public_key
    try:
        header.verify(director)
    except SignatureError:
        problems.append("the header is not signed by the director's key")
    prev = header.hash
    for number, entry in enumerate(file.rounds, 1):
        if entry.round != number:
            problems.append(f"round {entry.round} stands where round {number} should")
        if entry.prev != prev:
            problems.append(f"round {entry.round} does not follow the round before it "
                            "(its prev is another hash)")
        try:
            entry.verify(director)
        except SignatureError:
            problems.append(f"round {entry.round} is not signed by the director's key")
        prev = entry.hash
    keys = [player.public_key.blob for player in header.players] + [director.blob]
    if len(set(keys)) != len(keys):
        problems.append("two players, or a player and the director, share a key")
    count = len(header.players)
    if [player.player for player in header.players] != list(range(1, count + 1)):
        problems.append("the players are not numbered 1, 2, … in order")
    if count > MAX_PLAYERS:
        problems.append(f"{count} players: a tournament has at most {MAX_PLAYERS}")
    for entry in file.rounds:
        named = [p for game in entry.games for p in game.players] + list(entry.byes)
        if any(not 1 <= p <= count for p in named):
            problems.append(f"round {entry.round} names a player the tournament does not "
                            "have")
        elif len(set(named)) != len(named):
            problems.append(f"round {entry.round} names a player twice")
    if len(file.rounds) > header.format.rounds:
        problems.append(f"{len(file.rounds)} rounds, where the format has "
                        f"{header.format.rounds}")
    return problems


@frozen
class Entry:
    """A player of a list the director gives ``tournament new`` (``--players``)."""

    name: str
    key: str
    """A key line, or the name of a ``.pub`` file beside the list."""
    email: str | None = None


def read_entries(data: bytes, name: str) -> list[Entry]:
    """The players of a list (strict YAML: ``- {name, key, email?}`` each, in seed order)."""
    document = strictyaml.loads(data, name)
    if not isinstance(document, list):
        raise GameFileError("give a YAML list of {name, key, email?}", path=name)
    entries = []
    for number, entry in enumerate(document, 1):
        if not isinstance(entry, dict) or not {"name", "key"} <= set(entry) \
                or set(entry) - {"name", "key", "email"} \
                or not all(isinstance(value, str) for value in entry.values()):
            raise GameFileError(f"player {number}: give {{name, key, email?}}, each a text",
                                path=name)
        entries.append(Entry(entry["name"], entry["key"], entry.get("email")))
    return entries
