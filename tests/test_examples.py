"""The shipped examples: the finished game audits clean, the script plays as documented."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from frogpbem.audit import audit
from frogpbem.gamefile import strictyaml
from tests.conftest import here

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FINISHED = EXAMPLES / "finished-frogfinder"


def test_finished_example_audits_clean() -> None:
    report = audit(FINISHED / "game.yaml", clock=here().clock)
    assert report.ok, report.text()


def test_example_keys_are_the_games_keys(tmp_path: Path) -> None:
    header = strictyaml.loads((FINISHED / "game.yaml").read_bytes())["header"]
    assert header["referee"]["key"] == (FINISHED / "referee.key.pub").read_text().strip()
    keys = {s["seat"]: s["key"] for s in header["seats"]}
    assert keys == {"red": (FINISHED / "alice.key.pub").read_text().strip(),
                    "blue": (FINISHED / "bob.key.pub").read_text().strip()}
    if shutil.which("age") is None:
        pytest.skip("age is not installed")
    key = tmp_path / "alice.key"
    shutil.copy(FINISHED / "alice.key", key)
    key.chmod(0o600)
    sealed = tmp_path / "red.age"
    sealed.write_text(header["setup"]["sealed"]["red"])
    out = subprocess.run(["age", "-d", "-i", str(key), str(sealed)], capture_output=True,
                         check=True)
    assert b'"frogs":["A1","B2"]' in out.stdout


def test_the_shipped_fork_proof_checks_with_ssh_keygen_alone(tmp_path: Path) -> None:
    from tests.test_attacks import assert_ssh_keygen_verifies

    assert_ssh_keygen_verifies(FINISHED / "fork.proof", tmp_path)
    from frogpbem.audit import check_proof

    report = check_proof(FINISHED / "fork.proof")
    assert report.ok and "two different record 5s" in report.text()


def test_play_by_email_script(tmp_path: Path) -> None:
    env = dict(os.environ, FROGPBEM=f"{sys.executable} -m frogpbem")
    result = subprocess.run(
        ["bash", str(EXAMPLES / "play-by-email.sh"), str(tmp_path / "game")],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    statuses = [int(s) for s in re.findall(r"^\[exit (\d+)\]$", result.stdout, re.M)]
    # three keys, new, view, request, apply, typo (3), own frog (4), request, apply,
    # verify, request, apply, request, apply, stale copy (8), request, apply, audit, record,
    # view, an old mail (8: rollback), the referee's second record 5, the fork refused (11),
    # verify --proof, ssh-keygen on both signatures of the proof
    assert statuses == [0, 0, 0, 0, 0, 0, 0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0,
                        8, 0, 11, 0, 0, 0]
    assert result.stdout.count('Good "frogpbem" signature for referee') == 2
    assert "game over: all blue frogs revealed; 1. red 18, 2. blue -8" in result.stdout
    assert "verdict: everything holds" in result.stdout
