"""This machine's verdicts on finished games that held, by the SHA-256 of their bytes.

An audit is slow (an Ed25519 check for every signature, strict YAML, the replay):
``frogpbem audit`` keeps the result of each finished game that holds, and
``frogpbem ratings`` keeps and reads them, so that a game audited once is not
audited again for as long as neither its bytes nor frogpbem's code change. A
verdict kept is this machine's own memory, never a file's word: it is only ever
looked up by the digest of the bytes about to be counted.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from frogpbem.audit import GameResult, Seated
from frogpbem.gamefile.document import write_atomic


@functools.cache
def code_version() -> str:
    """frogpbem's version and a digest of its code: a verdict kept is one this very code
    gave (a changed audit, even unreleased, audits every file again)."""
    from frogpbem import __version__

    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for source in sorted(package.rglob("*.py")):
        digest.update(str(source.relative_to(package)).encode() + b"\0")
        digest.update(hashlib.sha256(source.read_bytes()).digest())
    return f"{__version__}+{digest.hexdigest()[:16]}"


def result_to_json(result: GameResult) -> dict[str, Any]:
    """A :class:`GameResult` as JSON (what the cache keeps, and ``--json`` shows)."""
    return {"game": result.game, "header": result.header, "rules": result.rules,
            "created": result.created, "ended": result.ended, "referee": result.referee,
            "seats": [{"seat": s.seat, "name": s.name, "key": s.key} for s in result.seats],
            "places": [{"rank": rank, "seats": list(seats)} for rank, seats in result.places],
            "termination": result.termination}


def result_from_json(data: Any) -> GameResult:
    """The inverse of :func:`result_to_json`; raises ``KeyError``, ``TypeError`` or
    ``ValueError`` for anything else."""
    seats = tuple(Seated(str(s["seat"]), str(s["name"]), str(s["key"])) for s in data["seats"])
    places = tuple((int(p["rank"]), tuple(str(seat) for seat in p["seats"]))
                   for p in data["places"])
    return GameResult(str(data["game"]), str(data["header"]), str(data["rules"]),
                      str(data["created"]), str(data["ended"]), str(data["referee"]),
                      seats, places, str(data["termination"]))


class AuditCache:
    """This machine's verdicts on game files that held, by the SHA-256 of their bytes.

    Kept in ``STATE/audits/verdicts.json`` (mode 0600, written atomically) with the
    code they were given by (:func:`code_version`); kept by other code, they are not
    used. Only a verdict that held for a finished game is kept: any other file is
    audited again each time. A lost or unreadable cache costs time only.
    """

    def __init__(self, state: Path) -> None:
        self.path = state / "audits" / "verdicts.json"
        self.version = code_version()
        self.verdicts: dict[str, Any] = {}
        self.changed = False
        try:
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("version") == self.version and \
                isinstance(data.get("verdicts"), dict):
            self.verdicts = data["verdicts"]

    def get(self, digest: str) -> GameResult | None:
        """The result kept for these bytes, if any."""
        data = self.verdicts.get(digest)
        if data is None:
            return None
        try:
            return result_from_json(data)
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, digest: str, result: GameResult) -> None:
        self.verdicts[digest] = result_to_json(result)
        self.changed = True

    def save(self) -> None:
        """Write the verdicts, if any is new."""
        if not self.changed:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        data = {"version": self.version, "verdicts": self.verdicts}
        write_atomic(self.path, json.dumps(data, separators=(",", ":")).encode(),
                     private=True)
        self.changed = False
