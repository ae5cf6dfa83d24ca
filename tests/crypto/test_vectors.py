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
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frogpbem import crypto
from frogpbem.crypto import sshsig
from frogpbem.crypto.keys import ssh_string
from frogpbem.errors import KeyError_, SignatureError
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


def _outcome(check: Callable[[], None]) -> str:
    try:
        check()
    except SignatureError as exc:
        return f"refused: {exc.message}"
    except ValueError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "verified"


def _read_field_by_field(key: crypto.PublicKey, message: bytes, blob: bytes,
                         namespace: str) -> None:
    """Verifying as before blobs not in our one form were refused: every field read, the
    ``reserved`` one skipped, a SHA-256 inside allowed."""
    raw, hash_name = sshsig._read(key, blob, namespace)
    try:
        key.verifier().verify(raw, sshsig._to_be_signed(message, namespace, hash_name))
    except InvalidSignature:
        raise SignatureError("invalid signature") from None


@given(data=st.data())
@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_signature_verifies_only_in_our_one_form(
        fixed: crypto.PrivateKey, data: st.DataObject) -> None:
    """A blob changed anywhere (or another key's, or another namespace's) gives the same
    outcome as reading every field, except that one read field by field as valid yet not
    byte for byte our form is refused: a signature has one text."""
    message = (VECTORS / "record.msg").read_bytes()
    blob = bytearray(crypto.sign_blob(fixed, message))
    for _ in range(data.draw(st.integers(0, 3))):
        at = data.draw(st.integers(0, len(blob)))
        how = data.draw(st.sampled_from(["set", "insert", "delete", "cut"]))
        if how == "set" and at < len(blob):
            blob[at] = data.draw(st.integers(0, 255))
        elif how == "insert":
            blob[at:at] = data.draw(st.binary(min_size=1, max_size=4))
        elif how == "delete":
            del blob[at:at + data.draw(st.integers(1, 4))]
        else:
            del blob[at:]
    namespace = data.draw(st.sampled_from(["frogpbem", "frogpbem", "git"]))
    signed = data.draw(st.sampled_from([message, message + b" "]))
    key = fixed.public if data.draw(st.booleans()) else crypto.PublicKey(
        bytes(fixed.public.blob[:-1]) + b"\x01")
    ours = _outcome(lambda: crypto.verify_blob(key, signed, bytes(blob), namespace))
    theirs = _outcome(lambda: _read_field_by_field(key, signed, bytes(blob), namespace))
    if theirs == "verified" and bytes(blob) != sshsig.sign(fixed, signed, namespace):
        assert ours.startswith("refused: signature not in the one form")
    else:
        assert ours == theirs


@pytest.mark.parametrize(("name", "why"), [
    ("reserved", "the reserved field, which the Ed25519 signature does not cover, re-written"),
    ("sha256", "SHA-256 inside: valid under OpenSSH, yet a second text for one signature"),
])
def test_a_signature_re_written_around_a_valid_ed25519_one_is_refused(
        fixed: crypto.PrivateKey, name: str, why: str) -> None:
    """Must-fail vectors: the blob still holds a valid Ed25519 signature of the message by
    the fixed key, yet is not the one text of it, so it is refused ({why})."""
    message = (VECTORS / "record.msg").read_bytes()
    armored = (VECTORS / f"record.msg.{name}.sig").read_text()
    blob = base64.b64decode("".join(armored.splitlines()[1:-1]))
    _read_field_by_field(fixed.public, message, blob, "frogpbem")  # valid to a lax reader
    with pytest.raises(SignatureError, match="not in the one form"):
        crypto.verify_blob(fixed.public, message, blob)
    with pytest.raises(SignatureError, match="not in the one form"):
        crypto.verify_message(fixed.public, message, base64.b64encode(blob).decode())


def test_a_signature_in_base64_other_than_its_one_encoding_is_refused(
        fixed: crypto.PrivateKey) -> None:
    """Base64 with the pad bits set, or a line break, is another text of the same blob."""
    message = (VECTORS / "record.msg").read_bytes()
    text = crypto.sign_message(fixed, message)
    crypto.verify_message(fixed.public, message, text)
    padded = text[:-3] + chr(ord(text[-3]) + 1) + text[-2:]  # ends "A==": "B==" decodes alike
    assert base64.b64decode(padded) == base64.b64decode(text)
    for other in (padded, text[:40] + "\n" + text[40:], " " + text):
        with pytest.raises(SignatureError, match="malformed"):
            crypto.verify_message(fixed.public, message, other)


ED25519_ORDER = 2**252 + 27742317777372353535851937790883648493
"""L, the order of Ed25519's prime subgroup (RFC 8032)."""


@pytest.mark.parametrize("message", [b"", b"shoot G9", (VECTORS / "record.msg").read_bytes()])
def test_a_key_of_small_order_signs_nothing(message: bytes) -> None:
    """Must-fail vector: for the neutral point as a key, R = the neutral point and S = 0
    satisfy the verification equation of any message, so anyone could sign as that key.
    OpenSSL's check accepts this forgery; ours refuses it (libsodium's small-order check)."""
    neutral = b"\x01" + bytes(31)
    key = crypto.PublicKey(ssh_string(b"ssh-ed25519") + ssh_string(neutral))  # not parsed
    forged = neutral + bytes(32)
    key.verifier().verify(forged, sshsig._to_be_signed(message, "frogpbem", "sha512"))
    with pytest.raises(SignatureError, match="invalid signature"):
        crypto.verify_blob(key, message, sshsig._lead(key.blob, "frogpbem") + forged)


def test_a_signature_whose_s_is_not_reduced_is_refused(fixed: crypto.PrivateKey) -> None:
    """Must-fail vector: S + L in place of S satisfies the equation too (the malleable
    twin of a valid signature), so S must be below L, as RFC 8032 says."""
    message = (VECTORS / "record.msg").read_bytes()
    blob = crypto.sign_blob(fixed, message)
    crypto.verify_blob(fixed.public, message, blob)
    s = int.from_bytes(blob[-32:], "little") + ED25519_ORDER
    assert s < 2**256
    with pytest.raises(SignatureError, match="invalid signature"):
        crypto.verify_blob(fixed.public, message, blob[:-32] + s.to_bytes(32, "little"))


def _key_line(raw: bytes) -> str:
    return "ssh-ed25519 " + base64.b64encode(
        ssh_string(b"ssh-ed25519") + ssh_string(raw)).decode()


def test_a_key_nobody_holds_is_refused_when_read(fixed: crypto.PrivateKey) -> None:
    """Must-fail vectors for a key line: the neutral point, a point of order 2, the
    field's order p written for 0 (a second encoding), a key plus a point of order 2
    (not in the prime-order group). ssh-keygen never makes such a key; libsodium
    would refuse every signature by it, so it is refused at once, in a sentence."""
    from nacl.bindings import crypto_core_ed25519_add

    order_two = b"\xec" + b"\xff" * 30 + b"\x7f"  # y = -1
    honest = fixed.public.raw
    crypto.PublicKey.parse(_key_line(honest))
    for raw in (b"\x01" + bytes(31), order_two, b"\xed" + b"\xff" * 30 + b"\x7f",
                crypto_core_ed25519_add(honest, order_two)):
        with pytest.raises(KeyError_, match="no key anybody holds"):
            crypto.PublicKey.parse(_key_line(raw))
