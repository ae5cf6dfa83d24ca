"""Known answers under a fixed key: signatures made by ssh-keygen, a ciphertext made by age.

The key is Ed25519 from the seed 00 01 … 1f (`vectors/fixed_ed25519`). The
`.sig` files were written by `ssh-keygen -Y sign -n frogpbem`, and
`setup.age` by `age -a -r KEY`, not by frogpbem. Ed25519 is deterministic,
so our signature of the same bytes must be the same, byte for byte.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
from pathlib import Path

import pytest

from frogpbem import crypto
from frogpbem.errors import SignatureError
from frogpbem.gamefile.model import Plaintext

VECTORS = Path(__file__).resolve().parent / "vectors"
RECORD = {"n": 1, "prev": "sha256:" + "0" * 64, "seat": "red", "move": "shoot G9",
          "result": {"count": 2}, "scores": {"red": 0, "blue": 0}, "at": "2026-11-30T18:02:11Z"}


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory) -> crypto.PrivateKey:
    folder = tmp_path_factory.mktemp("fixed")
    path = folder / "fixed_ed25519"
    shutil.copy(VECTORS / "fixed_ed25519", path)
    shutil.copy(VECTORS / "fixed_ed25519.pub", folder / "fixed_ed25519.pub")
    path.chmod(0o600)  # git keeps no mode bits but the executable one
    return crypto.load_private_key(path)


def test_the_fixed_key_is_the_one_in_its_pub_file(fixed: crypto.PrivateKey) -> None:
    assert fixed.public.line.split()[:2] == \
        (VECTORS / "fixed_ed25519.pub").read_text().split()[:2]


def test_signed_bytes_of_a_record_are_the_documented_ones() -> None:
    assert crypto.signed_bytes("record", {**RECORD, "signature": "ignored"}) == \
        (VECTORS / "record.msg").read_bytes()


@pytest.mark.parametrize("name", ["record", "header"])
def test_our_signature_is_ssh_keygens(fixed: crypto.PrivateKey, name: str) -> None:
    message = (VECTORS / f"{name}.msg").read_bytes()
    expected = (VECTORS / f"{name}.msg.sig").read_text()
    assert crypto.armor(crypto.sign_blob(fixed, message)) == expected


@pytest.mark.parametrize("name", ["record", "header"])
def test_ssh_keygens_signature_verifies_and_binds_its_message(fixed: crypto.PrivateKey,
                                                              name: str) -> None:
    message = (VECTORS / f"{name}.msg").read_bytes()
    armored = (VECTORS / f"{name}.msg.sig").read_text()
    blob = base64.b64decode("".join(armored.splitlines()[1:-1]))
    crypto.verify_blob(fixed.public, message, blob)
    with pytest.raises(SignatureError):
        crypto.verify_blob(fixed.public, message + b" ", blob)
    with pytest.raises(SignatureError):
        crypto.verify_blob(fixed.public, message, blob, namespace="git")


def test_an_age_file_made_by_age_opens(fixed: crypto.PrivateKey) -> None:
    plain = crypto.unseal((VECTORS / "setup.age").read_text(), fixed)
    assert plain == (VECTORS / "setup.plain").read_bytes()
    parsed = Plaintext.parse(plain)
    assert (parsed.game, parsed.seat, parsed.secret) == ("ff-fixed", "red",
                                                         {"frogs": ["A1", "B2"]})


def test_commitment_is_the_documented_hash() -> None:
    body = b'{"game":"ff-fixed","salt":"00","seat":"red","secret":{"frogs":["A1","B2"]}}'
    expected = "sha256:" + hashlib.sha256(b"frogpbem/1 commit\n" + body).hexdigest()
    assert crypto.commitment("ff-fixed", "red", "00", {"frogs": ["A1", "B2"]}) == expected
