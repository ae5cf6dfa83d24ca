"""The hostile game files of tests/vectors/: each fails its check with its exact error.

``tests/vectors/index.yaml`` names, for every file, the check and the error
class (or, for the audit, a failed line) it must give; ``make_vectors.py``
made the files and wrote the expectations from the attacks.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from frogpbem import crypto
from frogpbem.audit import audit, check_proof
from frogpbem.errors import FrogPbemError
from frogpbem.gamefile import strictyaml
from frogpbem.protocol.game import load
from frogpbem.protocol.seen import SeenGames
from frogpbem.referee import apply_moves
from frogpbem.views import render_text, view_for
from tests.conftest import here

VECTORS = Path(__file__).resolve().parent / "vectors"
INDEX: dict[str, dict[str, str]] = strictyaml.loads((VECTORS / "index.yaml").read_bytes())
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def test_there_are_at_least_sixty_vectors(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        print(f"\n{len(INDEX)} hostile game files in tests/vectors/")
    assert len(INDEX) >= 60
    files = {p.name for p in VECTORS.glob("*") if p.suffix in (".yaml", ".proof")}
    bases = {p.name for p in VECTORS.glob("base-*.yaml")}  # the honest games they start from
    assert files - bases == {e["file"] for e in INDEX.values()} | {"index.yaml"}
    assert {e["seen"] for e in INDEX.values() if "seen" in e} <= bases


@pytest.fixture(scope="module")
def vector_keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, crypto.PrivateKey]:
    folder = tmp_path_factory.mktemp("vector-keys")
    loaded = {}
    for name in ("referee", "alice", "bob"):
        shutil.copy(VECTORS / "keys" / name, folder / name)
        shutil.copy(VECTORS / "keys" / f"{name}.pub", folder / f"{name}.pub")
        (folder / name).chmod(0o600)  # git keeps no mode bits but the executable one
        loaded[name] = crypto.load_private_key(folder / name)
    return loaded


def run_check(entry: dict[str, str], path: Path, keys: dict[str, crypto.PrivateKey],
              tmp_path: Path) -> Any:
    check = entry["check"]
    if check == "load":
        return load(path, here())
    if check == "open":
        return view_for(load(path, here()), keys["alice"])
    if check == "seen":
        seen = SeenGames(tmp_path / "home", here().clock)
        seen.see(load(VECTORS / entry["seen"], here()))
        return seen.see(load(path, here()))
    if check == "apply":
        copy = tmp_path / "copy.yaml"
        shutil.copy(path, copy)
        from frogpbem.protocol.memory import HeadMemory
        return apply_moves(load(copy, here()), keys["referee"],
                           memory=HeadMemory(tmp_path / "state"))
    if check == "audit":
        return audit(path, clock=here().clock)
    if check == "proof":
        return check_proof(path)
    if check == "render":
        return render_text(view_for(load(path, here()), keys["alice"]))
    raise AssertionError(f"unknown check {check!r}")


@pytest.mark.parametrize("name", sorted(INDEX))
def test_vector(name: str, vector_keys: dict[str, crypto.PrivateKey], tmp_path: Path) -> None:
    entry = INDEX[name]
    path = VECTORS / entry["file"]
    before = path.read_bytes()
    says = entry.get("says", "")
    if entry["check"] in ("audit", "proof"):
        report = run_check(entry, path, vector_keys, tmp_path)
        failed = [c.what for c in report.checks if not c.ok]
        assert failed, report.text()
        if entry["check"] == "audit":
            assert any(says in line for line in failed), report.text()
        else:
            assert entry["error"] in type_of_proof_failure(path), report.text()
            assert says in report.text()
    elif entry["check"] == "render":
        shown = run_check(entry, path, vector_keys, tmp_path)
        assert CONTROL.search(shown) is None, shown
    else:
        with pytest.raises(FrogPbemError) as caught:
            run_check(entry, path, vector_keys, tmp_path)
        assert type(caught.value).__name__ == entry["error"], str(caught.value)
        assert says in str(caught.value)
    assert path.read_bytes() == before  # the input file is never changed


def type_of_proof_failure(path: Path) -> str:
    """The error class a bad proof raises when parsed."""
    from frogpbem.gamefile.forkproof import ForkProof

    try:
        ForkProof.parse(path.read_text())
    except FrogPbemError as exc:
        return type(exc).__name__
    return "no error"
