"""Interoperability with the real OpenSSH and age tools (they must be installed)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem import crypto
from frogpbem.errors import SignatureError
from frogpbem.gamefile import strictyaml
from tests.conftest import Cli, Keys, write_setup

pytestmark = pytest.mark.skipif(
    shutil.which("ssh-keygen") is None or shutil.which("age") is None,
    reason="needs ssh-keygen and age (./run test installs them)",
)


def ssh_keygen(path: Path, passphrase: str = "") -> Path:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", path.name, "-f", str(path)],
        check=True,
    )
    return path


def test_ssh_keygen_verifies_exported_record_signature(finished_game: Path, cli: Cli,
                                                       tmp_path: Path) -> None:
    out = tmp_path / "sigs"
    result = cli("verify", finished_game, "--export", out, "--json")
    assert result.exit_code == 0, result.output
    exported = json.loads(result.stdout)["exported"]
    names = {e["element"] for e in exported}
    assert {"header", "record-1", "record-1-request", "reveal"} <= names
    for entry in exported:
        if entry["element"].startswith("sealed-"):
            continue
        with open(entry["message"], "rb") as message:
            check = subprocess.run(
                ["ssh-keygen", "-Y", "verify", "-f", str(out / "allowed_signers"),
                 "-I", entry["signer"], "-n", "frogpbem", "-s", entry["signature"]],
                stdin=message, capture_output=True, text=True,
            )
        assert check.returncode == 0, (entry["element"], check.stderr)
        assert "Good \"frogpbem\" signature" in check.stdout
    # The same signature does not verify for another message or namespace.
    record = next(e for e in exported if e["element"] == "record-2")
    with open(next(e for e in exported if e["element"] == "record-1")["message"], "rb") as other:
        wrong = subprocess.run(
            ["ssh-keygen", "-Y", "verify", "-f", str(out / "allowed_signers"), "-I", "referee",
             "-n", "frogpbem", "-s", record["signature"]],
            stdin=other, capture_output=True,
        )
    assert wrong.returncode != 0


def test_our_verifier_accepts_ssh_keygen_signatures(tmp_path: Path) -> None:
    key_path = ssh_keygen(tmp_path / "id")
    message = tmp_path / "msg"
    element = {"game": "ff-test", "n": 1, "move": "shoot G9"}
    message.write_bytes(crypto.signed_bytes("request", element))
    subprocess.run(["ssh-keygen", "-Y", "sign", "-q", "-f", str(key_path), "-n", "frogpbem",
                    str(message)], check=True)
    armored = (tmp_path / "msg.sig").read_text().splitlines()
    element["signature"] = "".join(armored[1:-1])
    public = crypto.load_public_key(str(key_path) + ".pub")
    crypto.verify_message(public, crypto.signed_bytes("request", element),
                              element["signature"])
    with pytest.raises(SignatureError, match="invalid signature"):
        crypto.verify_message(public, crypto.signed_bytes("record", element),
                              element["signature"])


def test_age_decrypts_sealed_setup_with_seat_key(new_game: Callable[..., Path], keys: Keys,
                                                 tmp_path: Path) -> None:
    game = new_game()
    doc = strictyaml.loads(game.read_bytes())
    sealed = tmp_path / "red.age"
    sealed.write_text(doc["header"]["setup"]["sealed"]["red"])
    result = subprocess.run(["age", "-d", "-i", str(keys.path("alice")), str(sealed)],
                            capture_output=True, check=True)
    data = json.loads(result.stdout)
    assert data["seat"] == "red"
    assert data["secret"] == {"frogs": ["A1", "B2"]}
    assert crypto.commitment(data["game"], "red", data["salt"], data["secret"]) == \
        doc["header"]["setup"]["commitments"]["red"]
    # bob's key cannot open red's setup
    refused = subprocess.run(["age", "-d", "-i", str(keys.path("bob")), str(sealed)],
                             capture_output=True)
    assert refused.returncode != 0


def test_ssh_keygen_keys_with_and_without_passphrase_play(
    tmp_path: Path, cli: Cli, keys: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = ssh_keygen(tmp_path / "alice_ed25519", passphrase="correct horse")
    bob = ssh_keygen(tmp_path / "bob_ed25519")
    game = tmp_path / "g.yaml"
    created = cli("new", game, "--referee", keys.path("referee"),
                  "--seat", f"red={alice}.pub", "--seat", f"blue={bob}.pub",
                  "--option", "size=6", "--option", "frogs=2", "--setup", write_setup(tmp_path))
    assert created.exit_code == 0, created.output
    before = game.read_bytes()
    no_pass = cli("move", game, "shoot C3", "--key", alice)
    assert no_pass.exit_code == 5
    assert "passphrase" in no_pass.stderr
    monkeypatch.setenv("FROGPBEM_PASSPHRASE", "wrong")
    wrong = cli("move", game, "shoot C3", "--key", alice)
    assert wrong.exit_code == 5
    assert "wrong passphrase" in wrong.stderr
    assert game.read_bytes() == before
    monkeypatch.setenv("FROGPBEM_PASSPHRASE", "correct horse")
    view = cli("view", game, "--key", alice)
    assert view.exit_code == 0, view.output
    assert "View of: red" in view.stdout
    asked = cli("move", game, "shoot C3", "--key", alice)
    assert asked.exit_code == 0, asked.output
    monkeypatch.delenv("FROGPBEM_PASSPHRASE")
    applied = cli("move", game, "--key", keys.path("referee"))
    assert applied.exit_code == 0, applied.output
    assert applied.stdout.strip() == "red shoots C3: 1"
    as_bob = cli("move", game, "guess A1", "--key", bob)
    assert as_bob.exit_code == 0, as_bob.output
    assert cli("move", game, "--key", keys.path("referee")).stdout.strip() == \
        "blue guesses A1: red frog found (+5)"


def test_default_key_is_ssh_id_ed25519(tmp_path: Path, cli: Cli, keys: Keys,
                                       new_game: Callable[..., Path]) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    shutil.copy(keys.path("alice"), home / ".ssh" / "id_ed25519")
    (home / ".ssh" / "id_ed25519").chmod(0o600)
    game = new_game()
    view = cli("view", game)
    assert view.exit_code == 0, view.output
    assert "View of: red (Alice)" in view.stdout


def test_unencrypted_ssh_keygen_key_is_read_directly_as_cryptography_reads_it(
        tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization

    from frogpbem.crypto import keys as keyfiles

    path = ssh_keygen(tmp_path / "plain_ed25519")
    data = path.read_bytes()
    direct = keyfiles._plain_openssh_ed25519(data)
    assert direct is not None  # the fast path reads ssh-keygen's file
    reference = serialization.load_ssh_private_key(data, None)
    message = b"the same key signs the same bytes"
    assert direct[0].sign(message) == reference.sign(message)  # type: ignore[union-attr,call-arg]
    loaded = crypto.load_private_key(path)
    assert loaded.public.line == path.with_name(path.name + ".pub").read_text().strip()
    assert loaded.unencrypted_pem() == data  # age gets the file as ssh-keygen wrote it
    crlf = tmp_path / "crlf_ed25519"  # the same key, its lines ended the Windows way
    crlf.write_bytes(data.replace(b"\n", b"\r\n"))
    crlf.chmod(0o600)
    assert crypto.load_private_key(crlf).unencrypted_pem() == data


def test_reading_an_unencrypted_key_does_not_import_key_serialization(tmp_path: Path) -> None:
    path = ssh_keygen(tmp_path / "plain_ed25519")
    probe = ("import sys; from pathlib import Path; from frogpbem import crypto; "
             f"crypto.load_private_key(Path({str(path)!r})); "
             "print('cryptography.hazmat.primitives.serialization.ssh' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_a_damaged_unencrypted_key_is_never_read_as_another_key(
        plain_key: bytes, data: st.DataObject) -> None:
    """Damage anywhere in the key's body: the direct reader reads what cryptography reads, or
    gives up (and cryptography's loader then speaks); it never makes up a key."""
    import base64

    from cryptography.hazmat.primitives import serialization

    from frogpbem.crypto import keys as keyfiles

    lines = plain_key.strip().splitlines()
    body = bytearray(base64.b64decode(b"".join(lines[1:-1])))
    for _ in range(data.draw(st.integers(1, 3))):
        body[data.draw(st.integers(0, len(body) - 1))] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        del body[data.draw(st.integers(0, len(body) - 1)):]
    encoded = base64.b64encode(bytes(body))
    damaged = b"\n".join([lines[0], *(encoded[i:i + 70] for i in range(0, len(encoded), 70)),
                          lines[-1]]) + b"\n"
    direct = keyfiles._plain_openssh_ed25519(damaged)
    if direct is None:
        return
    reference = serialization.load_ssh_private_key(damaged, None)
    assert direct[0].sign(b"x") == reference.sign(b"x")  # type: ignore[union-attr,call-arg]


@pytest.fixture(scope="module")
def plain_key(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return ssh_keygen(tmp_path_factory.mktemp("plain") / "key_ed25519").read_bytes()
