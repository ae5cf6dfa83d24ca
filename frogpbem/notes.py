"""Private team notes: signed by their author, sealed to the author's team only."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import FrogPbemError, UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.document import dump_game, locked, write_atomic
from frogpbem.gamefile.model import Note
from frogpbem.protocol.game import REFEREE, Game, load
from frogpbem.protocol.secrets import SealedSecret
from frogpbem.protocol.session import Session

MAX_NOTE = 2000
"""Longest note, in characters."""


@frozen
class NoteText:
    """A note as its readers see it."""

    n: int
    """Records the game had when it was written."""
    seat: str
    """Its author."""
    at: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "seat": self.seat, "at": self.at, "text": self.text}


def add_note(path: Path, key: crypto.PrivateKey, text: str, session: Session,
             at: str | None = None) -> str:
    """Seal a note to the author's team (the author alone without teams), sign it, keep it."""
    if not text.strip() or len(text) > MAX_NOTE:
        raise UsageError(f"a note has 1 to {MAX_NOTE} characters, got {len(text)}")
    with locked(path):
        game = load(path, session)
        seat = game.role(key)
        if seat == REFEREE:
            raise UsageError("notes are between teammates; the referee writes none")
        session.seen.see(game)
        team = game.readers_of(seat)
        sealed = SealedSecret.seal(game.game_id, seat, text, game.recipients(seat, referee=False))
        note = Note(game.game_id, game.header.hash, seat, team, len(game.file.log), sealed.armored,
                    at or session.clock.text()).signed(key)
        game.file = replace(game.file, notes=(*game.file.notes, note))
        write_atomic(path, dump_game(game.file))
        return f"note by {seat} sealed to {', '.join(team)}; send {path.name} on as usual"


def read_notes(game: Game, seat: str, key: crypto.PrivateKey) -> list[NoteText]:
    """The notes ``seat`` can read, oldest first."""
    notes = []
    for index, note in enumerate(game.file.notes):
        if seat not in note.to:
            continue
        sealed = SealedSecret(game.game_id, note.seat, note.sealed, what="note")
        try:
            text = sealed.open(key).secret
        except FrogPbemError:
            text = None
        if not isinstance(text, str):
            text = f"[note {index + 1} does not open as a note of this game: not shown]"
        notes.append(NoteText(note.n, note.seat, note.at, text))
    return notes
