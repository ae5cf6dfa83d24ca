"""What a seat's tool remembers it verified of a Frog Finder game without a referee
(``$FROGPBEM_HOME/verified/GAME.duel.json``): a later command does not check the proofs of
that prefix again, ``verify`` checks them all, and a prefix that differs in one byte is
checked in full (and refused when false).

The proofs checked are counted at :func:`frogpbem.duel.frogfinder.verified_first_messages`,
through which every proof of the protocol is verified; the digest is computed here with
hashlib from the file's own ``prev`` chain.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from frogpbem.duel import frogfinder
from frogpbem.duel.engine import replay
from frogpbem.duel.frogfinder_rules import protocol
from frogpbem.gamefile.duelfile import DuelFile, Message, dump_duel
from tests.conftest import Keys
from tests.duel import test_referee_free_frogfinder_cli as played
from tests.duel.conftest import Run, Seat, mail
from tests.duel.test_referee_free_frogfinder_cli import read, set_up

seats = played.seats  # red and blue, as in the game through the CLI

PLAYER = {"red": "alice", "blue": "bob"}


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many proofs were verified (one entry per proof), since the last clear."""
    seen: list[int] = []
    real = frogfinder.verified_first_messages

    def counting(*args: object, **kwargs: object) -> object:
        seen.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(frogfinder, "verified_first_messages", counting)
    return seen


def store(tmp_path: Path, player: str, game: str) -> dict[str, object]:
    path = tmp_path / f"home-{player}" / "verified" / f"{game}.duel.json"
    value = json.loads(path.read_text())
    assert isinstance(value, dict)
    return value


def digest(file: DuelFile, n: int) -> str:
    """The spec's prefix digest: SHA-256 over the lines header hash, header signature,
    then each message's hash (the next one's ``prev``) and signature."""
    hashes = [m.prev for m in file.messages[1:]] + [file.messages[-1].hash]
    lines = [file.messages[0].prev, file.header.signature]
    for message, made in list(zip(file.messages, hashes, strict=True))[:n]:
        lines += [made, message.signature]
    return "sha256:" + hashlib.sha256("\n".join(lines).encode()).hexdigest()


def test_referee_free_frogfinder_later_commands_skip_the_proofs_verified_before(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], tmp_path: Path,
        counted: list[int]) -> None:
    red, blue = seats
    set_up(as_seat, keys, red, blue, 5, 2)
    file = read(red)
    kept = store(tmp_path, "alice", file.game)
    assert kept == {"header": file.messages[0].prev, "n": len(file.messages),
                    "digest": digest(file, len(file.messages))}
    attempts = len(protocol(replay(file)).overlaps)
    counted.clear()
    assert as_seat(red, "view", red.game).exit_code == 0
    assert counted == []  # everything red's tool verified (or made) already
    # blue's tool verified up to its own setup: red's overlap message alone is new
    assert as_seat(blue, "view", blue.game).exit_code == 0
    assert len(counted) == 1
    assert store(tmp_path, "bob", file.game)["n"] == len(file.messages)
    counted.clear()
    assert as_seat(blue, "view", blue.game).exit_code == 0
    assert counted == []
    # verify checks every proof: per attempt 25 bit + 25 mask (red), 25 bit + 25 select
    # (blue) and the overlap
    done = as_seat(blue, "verify", blue.game, key=False)
    assert done.exit_code == 0, done.output
    assert len(counted) == attempts * (4 * 25 + 1)
    # a move, answered: the answer's proof is checked once by the mover's tool
    counted.clear()
    shot = as_seat(red, "move", red.game, "guess A1")
    if shot.exit_code != 0:  # red's own frog
        shot = as_seat(red, "move", red.game, "guess E5")
    assert shot.exit_code == 0, shot.output
    assert counted == []
    mail(red, blue)
    assert as_seat(blue, "view", blue.game).exit_code == 0
    assert counted == []  # a guess's opening is no proof of the protocol's
    assert store(tmp_path, "bob", file.game)["n"] == len(read(blue).messages)


def rechained(file: DuelFile, keys: Keys, at: int, changed: Message) -> DuelFile:
    """``file`` with message ``at`` (1-based) replaced by ``changed`` and it and every
    later message chained again and signed again by its own seat."""
    messages = list(file.messages[:at - 1])
    prev = messages[-1].hash if messages else file.header.hash
    for message in (changed, *file.messages[at:]):
        signed = replace(message, prev=prev, signature="").signed(keys.key(PLAYER[message.seat]))
        messages.append(signed)
        prev = signed.hash
    return DuelFile(file.header, tuple(messages))


def test_referee_free_frogfinder_a_changed_verified_prefix_is_checked_again(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat], tmp_path: Path,
        counted: list[int]) -> None:
    red, blue = seats
    set_up(as_seat, keys, red, blue, 5, 2)
    file = read(red)
    at = next(m.n for m in file.messages if m.seat == "blue" and m.step("setup"))
    setup = file.messages[at - 1].step("setup")
    assert isinstance(setup, dict)
    selection = setup["selection"]
    assert isinstance(selection, dict)
    proofs = selection["proofs"]
    assert isinstance(proofs, list) and isinstance(proofs[0], list)
    scalar = str(proofs[0][0])
    bent = ("1" if scalar[0] != "1" else "2") + scalar[1:]  # another canonical scalar
    forged = {**setup, "selection": {**selection,
                                     "proofs": [[bent, *proofs[0][1:]], *proofs[1:]]}}
    changed = replace(file.messages[at - 1], steps={**(file.messages[at - 1].steps or {}),
                                                    "setup": forged})
    bad = dump_duel(rechained(file, keys, at, changed))
    red.game.write_bytes(bad)
    refused = as_seat(red, "view", red.game)
    assert refused.exit_code != 0, refused.output
    assert f"message {at} (blue)" in refused.stderr and "proof" in refused.stderr, \
        refused.stderr
    assert "FORK" not in refused.stderr and "Traceback" not in refused.output
    assert len(counted) >= 1
    # the honest copy is still the one remembered
    assert store(tmp_path, "alice", file.game)["digest"] == digest(file, len(file.messages))


def test_referee_free_frogfinder_replay_of_a_trusted_prefix_is_the_same(
        as_seat: Run, keys: Keys, seats: tuple[Seat, Seat]) -> None:
    """Replaying with the first k messages trusted gives the very progress of a full
    check, for every k (the proofs skipped, the parts and moves taken in alike)."""
    red, blue = seats
    set_up(as_seat, keys, red, blue, 5, 2)
    squares = iter(["A1", "B2", "C3", "D4", "E5", "A5", "E1", "B4"])
    seat, other = red, blue
    for _ in range(3):  # three guesses, each answered in the next message
        while as_seat(seat, "move", seat.game, f"guess {next(squares)}").exit_code != 0:
            pass  # the seat's own frog: another square
        mail(seat, other)
        seat, other = other, seat
    file = read(red)
    full = replay(file)
    for k in range(len(file.messages) + 1):
        trusted = replay(file, trusted=k)
        assert (trusted.state, trusted.played, trusted.head, trusted.n) == \
            (full.state, full.played, full.head, full.n)
        ours, theirs = protocol(trusted), protocol(full)
        assert (ours.attempt, ours.overlaps, ours.commitments, ours.pending) == \
            (theirs.attempt, theirs.overlaps, theirs.commitments, theirs.pending)
