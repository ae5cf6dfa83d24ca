"""The store of verified histories: only a new suffix is checked, a changed prefix never trusted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from frogpbem import crypto
from frogpbem.errors import SignatureError
from frogpbem.gamefile import strictyaml
from frogpbem.protocol.game import load
from tests.conftest import Result, here


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every signature checked, as the bytes it covers."""
    seen: list[bytes] = []
    real = crypto.verify_message

    def counting(key: crypto.PublicKey, message: bytes, signature: str) -> None:
        seen.append(message)
        real(key, message, signature)

    monkeypatch.setattr(crypto, "verify_message", counting)
    return seen


@pytest.fixture
def two_records(new_game: Callable[..., Path], play: Callable[..., Result]) -> Path:
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    return game


def test_only_the_new_records_are_checked_again(
        two_records: Path, play: Callable[..., Result], tmp_path: Path,
        checks: list[bytes]) -> None:
    game = two_records
    mine = here(home=tmp_path / "mine")
    store = mine.verified
    checks.clear()
    load(game, mine)
    assert len(checks) == 1 + 2 * 2  # the header, each record and its seat's request
    checks.clear()
    load(game, mine)
    assert checks == []  # nothing new: nothing checked again
    play(game, "alice", "shoot D4")
    checks.clear()
    load(game, mine)
    assert len(checks) == 2  # record 3 and its request
    assert store.trusted(load(game, mine).file) is not None


def test_a_prefix_changed_on_disk_is_checked_in_full_and_refused(
        two_records: Path, tmp_path: Path, checks: list[bytes]) -> None:
    game = two_records
    mine = here(home=tmp_path / "mine")
    load(game, mine)
    doc = strictyaml.loads(game.read_bytes())
    doc["log"][0]["at"] = "2020-01-01T00:00:00Z"  # record 1 changed, its signature kept
    game.write_text(strictyaml.dumps(doc))
    checks.clear()
    with pytest.raises(SignatureError) as refused:
        load(game, mine)
    assert refused.value.element == "record 1"
    assert len(checks) >= 1 + 2 * 2  # the whole history was checked again


def test_another_header_or_a_foreign_store_entry_is_not_trusted(
        new_game: Callable[..., Path], tmp_path: Path, checks: list[bytes]) -> None:
    first = new_game(name="first.yaml")
    mine = here(home=tmp_path / "mine")
    store = mine.verified
    load(first, mine)
    game_id = load(first, mine).game_id
    entry = store.folder / f"{game_id}.json"
    assert entry.exists()
    entry.write_text('{"header": "sha256:00", "n": 0, "digest": "x"}')  # not this header
    checks.clear()
    load(first, mine)
    assert len(checks) == 1  # the header checked again
    entry.write_text("not json")
    checks.clear()
    load(first, mine)
    assert len(checks) == 1


def test_the_store_is_its_users_alone(two_records: Path, tmp_path: Path) -> None:
    """A digest in the store spares elements their checks: its folder and files are
    written for the user alone, as the memory of copies seen is."""
    mine = here(home=tmp_path / "mine")
    load(two_records, mine)
    folder = tmp_path / "mine" / "verified"
    kept = list(folder.iterdir())
    assert kept and folder.stat().st_mode & 0o777 == 0o700
    assert all(path.stat().st_mode & 0o777 == 0o600 for path in kept)


def test_a_thread_that_cannot_be_kept_costs_nothing(tmp_path: Path) -> None:
    """The mail thread of a game without a referee is a courtesy: with a file where its
    folder goes, remembering it is skipped, not a traceback."""
    from frogpbem.mail.duel import remember_thread, thread_of

    mine = here(home=tmp_path / "mine")
    (tmp_path / "mine").mkdir(exist_ok=True)
    (tmp_path / "mine" / "threads").write_text("in the way")
    remember_thread(mine, "ff-abc", "<one@example.org>")
    assert thread_of(mine, "ff-abc") == []
    (tmp_path / "mine" / "threads").unlink()
    remember_thread(mine, "ff-abc", "<one@example.org>", "not an id")
    assert thread_of(mine, "ff-abc") == ["<one@example.org>"]
