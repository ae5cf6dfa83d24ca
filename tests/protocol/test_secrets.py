"""SealedSecret: seal and commit, open and check; what a wrong key, game or owner gets."""

from __future__ import annotations

import pytest

from frogpbem import crypto
from frogpbem.errors import CommitmentError, GameFileError
from frogpbem.gamefile.model import Opened
from frogpbem.protocol.secrets import BLOCK, SealedSecret, pad, setup_length
from tests.conftest import Keys


def test_seal_then_open_gives_the_secret_back(keys: Keys) -> None:
    alice, referee = keys.key("alice"), keys.key("referee")
    sealed = SealedSecret.seal("ff-x", "red", {"frogs": ["A1"]}, [alice.public, referee.public])
    for key in (alice, referee):
        opened = sealed.open(key)
        assert opened.secret == {"frogs": ["A1"]} and len(opened.salt) == 64
        assert sealed.matches(opened)
    assert sealed.addressed_to_exactly([alice.public, referee.public])
    assert not sealed.addressed_to_exactly([alice.public])


def test_a_key_it_was_not_sealed_to_cannot_open_it(keys: Keys) -> None:
    sealed = SealedSecret.seal("ff-x", "red", "s", [keys.key("alice").public])
    with pytest.raises(CommitmentError, match="not sealed to that key"):
        sealed.open(keys.key("bob"))


def test_a_secret_moved_to_another_game_or_owner_is_refused(keys: Keys) -> None:
    alice = keys.key("alice")
    sealed = SealedSecret.seal("ff-x", "red", "s", [alice.public], what="sealed setup of red")
    for game, owner in (("ff-y", "red"), ("ff-x", "blue")):
        moved = SealedSecret(game, owner, sealed.armored, sealed.commitment, sealed.what)
        with pytest.raises(CommitmentError, match="belongs to another game or seat"):
            moved.open(alice)


def test_a_changed_commitment_is_caught_on_opening_and_on_reveal(keys: Keys) -> None:
    alice = keys.key("alice")
    sealed = SealedSecret.seal("ff-x", "red", [1, 2], [alice.public], what="sealed setup of red")
    other = SealedSecret("ff-x", "red", sealed.armored, "sha256:" + "0" * 64, sealed.what)
    with pytest.raises(CommitmentError, match="sealed setup of red does not match"):
        other.open(alice)
    opened = sealed.open(alice)
    assert not sealed.matches(Opened(opened.salt, [1, 3]))
    assert not sealed.matches(Opened("0" * 64, [1, 2]))


def test_padding_hides_the_length() -> None:
    assert len(pad(b"{}")) == BLOCK and len(pad(b"x" * BLOCK)) == BLOCK
    assert len(pad(b"x" * (BLOCK + 1))) == 2 * BLOCK
    assert pad(b"{}", 10) == b"{}" + b" " * 8
    with pytest.raises(GameFileError, match="too large to seal"):
        pad(b"x" * 11, 10)
    assert setup_length(0) == BLOCK and setup_length(46) == 2 * BLOCK  # a 5-frog setup


def test_plaintexts_of_different_secrets_have_one_length(keys: Keys) -> None:
    referee = keys.key("referee")
    lengths = {crypto.payload_length(SealedSecret.seal(
        "ff-x", "red", {"frogs": frogs}, [referee.public], setup_length(46)).armored)
        for frogs in (["A1"], ["A1", "L12", "K11", "J10", "I9"])}
    assert len(lengths) == 1
