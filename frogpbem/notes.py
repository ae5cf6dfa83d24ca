"""Private team notes: signed by their author, sealed to the author's team only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import (
    CommitmentError,
    UsageError,
)
from frogpbem.game import REFEREE, Game, load, now_text, pad_block
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import (
    dump_game,
    locked,
    write_atomic,
)

MAX_NOTE = 2000
"""Longest note, in characters."""


def add_note(path: Path, key: crypto.PrivateKey, text: str, at: str | None = None) -> str:
    """Seal a note to the author's team (the author alone without teams), sign it, keep it."""
    if not text.strip() or len(text) > MAX_NOTE:
        raise UsageError(f"a note has 1 to {MAX_NOTE} characters, got {len(text)}")
    with locked(path):
        game = load(path)
        seat = game.role(key)
        if seat == REFEREE:
            raise UsageError("notes are between teammates; the referee writes none")
        team = game.ruleset.secret_readers(game.options, seat)
        keys = chain.seat_keys(game.doc)
        body = crypto.canonical_json({"game": game.game_id, "seat": seat, "text": text})
        note: dict[str, Any] = {
            "game": game.game_id,
            "seat": seat,
            "to": list(team),
            "n": len(game.doc["log"]),
            "sealed": crypto.seal(pad_block(body), [keys[s] for s in team]),
            "at": at or now_text(),
        }
        note["signature"] = crypto.sign_element(key, "note", note)
        game.doc.setdefault("notes", []).append(note)
        write_atomic(path, dump_game(game.doc))
        readers = ", ".join(team)
        return f"note by {seat} sealed to {readers}; send {path.name} on as usual"


def read_notes(game: Game, seat: str, key: crypto.PrivateKey) -> list[dict[str, Any]]:
    """The notes ``seat`` can read, oldest first."""
    notes = []
    for note in game.doc.get("notes", []):
        if seat not in note["to"]:
            continue
        try:
            data = json.loads(crypto.unseal(note["sealed"], key))
            text = str(data["text"])
            if data.get("game") != game.game_id or data.get("seat") != note["seat"]:
                raise ValueError("note moved from elsewhere")
        except (ValueError, KeyError, TypeError):
            raise CommitmentError(
                f"{game.path}: a note by {note['seat']} does not open as a note of this game"
            ) from None
        notes.append({"n": note["n"], "seat": note["seat"], "at": note["at"], "text": text})
    return notes
