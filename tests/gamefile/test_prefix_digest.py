"""The digest of a history's beginning, made as it goes: always the digest of the bytes."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from frogpbem import crypto
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import read_game
from frogpbem.gamefile.model import KNOWN_PREFIXES, GameFile


def digest_whole(file: GameFile, n: int) -> str:
    """The digest as defined: every hash and signature of the beginning, one per line."""
    parts = [file.header.hash, file.header.signature]
    if file.deal is not None:
        parts += [file.deal.hash, file.deal.signature]
    for record in file.log[:n]:
        parts += [record.hash, record.signature]
    return "sha256:" + crypto.sha256("\n".join(parts).encode()).hex()


def fresh(path: Path) -> GameFile:
    """The game read, with no digest kept for its header from before."""
    file = read_game(path)
    file.header.made.prefixes.clear()
    return file


def test_a_digest_gone_on_from_a_shorter_one_is_the_digest_of_the_whole(
        finished_game: Path) -> None:
    file = fresh(finished_game)
    count = len(file.log)
    assert count >= 5
    for n in (0, 1, 3, count - 1, count, count):  # each from the one before, then again
        assert chain.prefix_digest(file, n) == digest_whole(file, n)
    assert chain.prefix_digest(file, 2) == digest_whole(file, 2)  # shorter than those kept
    assert len(file.header.made.prefixes) == KNOWN_PREFIXES


def test_a_digest_is_not_gone_on_from_other_records(finished_game: Path) -> None:
    """A file whose third record is another value (equal but for its signature) is digested
    anew, not from the digest of the first records of the file it differs from."""
    file = fresh(finished_game)
    assert chain.prefix_digest(file, 4) == digest_whole(file, 4)
    third = file.log[2]
    other = dataclasses.replace(third, signature=third.signature[::-1])
    forked = dataclasses.replace(file, log=(*file.log[:2], other, *file.log[3:]))
    assert forked.header is file.header
    assert chain.prefix_digest(forked, 5) == digest_whole(forked, 5) != digest_whole(file, 5)
    assert chain.prefix_digest(file, 5) == digest_whole(file, 5)
