"""Audit: every single changed value is caught, and a dishonest referee is caught by replay."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from frogpbem import crypto
from frogpbem.audit import audit, audit_many
from frogpbem.errors import FileAccessError
from frogpbem.gamefile import strictyaml
from tests.conftest import FINISHING_MOVES, Cli, Keys, here
from tests.gamefile.test_strictyaml import pyyaml_reads


def scalars(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from scalars(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from scalars(item, (*path, index))
    else:
        yield path, value


def mutate(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if value is None:
        return "x"
    text: str = value
    index = len(text) // 2
    while text[index] == "\n":
        index += 1
    replacement = "B" if text[index] == "A" else "A"
    return text[:index] + replacement + text[index + 1 :]


def set_at(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for part in path[:-1]:
        doc = doc[part]
    doc[path[-1]] = value


def element_name(path: tuple[Any, ...]) -> str:
    if path[0] == "log":
        return f"record {path[1] + 1}"
    if path[0] == "frogpbem":
        return "version"
    return str(path[0])


def test_untouched_finished_game_audits_clean(finished_game: Path) -> None:
    report = audit(finished_game, clock=here().clock)
    assert report.ok, report.text()


def test_every_single_changed_value_fails_audit_naming_its_element(
    finished_game: Path, tmp_path: Path
) -> None:
    doc = strictyaml.loads(finished_game.read_bytes())
    paths = list(scalars(doc))
    assert len(paths) > 60  # the header, 5 records and the reveal
    target = tmp_path / "tampered.yaml"
    for path, value in paths:
        changed = copy.deepcopy(doc)
        set_at(changed, path, mutate(value))
        target.write_text(strictyaml.dumps(changed))
        report = audit(target, clock=here().clock)
        failures = [c.what for c in report.checks if not c.ok]
        assert failures, f"changing {path} went unnoticed"
        assert any(element_name(path) in f for f in failures), (path, failures)


# --- a dishonest referee: everything re-signed, so only the replay can tell ---------


def resign(doc: dict[str, Any], key: crypto.PrivateKey) -> None:
    """Re-sign the whole chain as the referee would after rewriting history."""
    header = doc["header"]
    header["signature"] = crypto.sign_element(key, "header", header)
    prev = crypto.element_hash("header", doc["header"])
    for record in doc["log"]:
        record["prev"] = prev
        record["signature"] = crypto.sign_element(key, "record", record)
        prev = crypto.element_hash("record", record)
    if doc["reveal"]:
        doc["reveal"]["prev"] = prev
        doc["reveal"]["signature"] = crypto.sign_element(key, "reveal", doc["reveal"])


@pytest.fixture
def referee_game(new_game: Callable[..., Path], cli: Cli, keys: Keys) -> Path:
    """The finishing game with every move entered by the referee (no requests)."""
    game = new_game()
    for _, move in FINISHING_MOVES:
        result = cli("move", game, move, "--key", keys.path("referee"))
        assert result.exit_code == 0, result.output
    return game


def rewrite(game: Path, keys: Keys, change: Callable[[dict[str, Any]], None]) -> list[str]:
    doc = strictyaml.loads(game.read_bytes())
    change(doc)
    resign(doc, keys.key("referee"))
    game.write_text(strictyaml.dumps(doc))
    report = audit(game, clock=here().clock)
    return [c.what for c in report.checks if not c.ok]


def test_moves_entered_without_their_seats_request_fail_the_audit(referee_game: Path) -> None:
    """Finding 3: a referee could enter (or resign) moves for a seat; the audit said ok."""
    report = audit(referee_game, clock=here().clock)
    assert not report.ok and report.exit_status() == 1
    assert report.unasked == [1, 2, 3, 4, 5]
    assert "records 1, 2, 3, 4, 5 rest on the referee's word" in report.verdict
    assert any("0 of 5 records carry their seat's signed request" in c.what
               for c in report.checks)


def test_a_seat_verifying_sees_moves_entered_for_it_without_its_request(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, play: Callable[..., Any]
) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    assert cli("move", game, "guess A2", "--key", keys.path("referee")).exit_code == 0
    blue = cli("verify", game, "--key", keys.path("bob"))
    assert blue.exit_code == 1
    assert "record 2 entered by the referee without blue's signed request" in blue.stdout
    red = cli("verify", game, "--key", keys.path("alice"))
    assert red.exit_code == 0, red.output  # red can only note it: blue may have asked by mail
    assert "record 2 (blue)" in red.stdout


def test_tampered_score(referee_game: Path, keys: Keys) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["log"][2]["scores"]["red"] += 1
    failures = rewrite(referee_game, keys, change)
    assert any("record 3: scores" in f for f in failures), failures


def test_tampered_shot_number(referee_game: Path, keys: Keys) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["log"][0]["result"] = {"count": 2}
    failures = rewrite(referee_game, keys, change)
    assert any("record 1" in f and "contradicts" in f for f in failures), failures


def test_hidden_frog_moved_after_commitment(referee_game: Path, keys: Keys) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["reveal"]["secrets"]["blue"]["secret"] = {"frogs": ["E5", "F5"]}
    failures = rewrite(referee_game, keys, change)
    assert any("blue's revealed setup does not match its commitment" in f for f in failures)


def test_wrong_standing_in_reveal(referee_game: Path, keys: Keys) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["reveal"]["outcome"]["standing"][0]["points"] = 99
    failures = rewrite(referee_game, keys, change)
    assert any(f.startswith("reveal: outcome") for f in failures), failures


def test_record_after_the_end(referee_game: Path, keys: Keys) -> None:
    def change(doc: dict[str, Any]) -> None:
        extra = copy.deepcopy(doc["log"][-1])
        extra.update({"n": 6, "seat": "blue", "move": "shoot D1", "result": {"count": 0}})
        doc["log"].append(extra)
    failures = rewrite(referee_game, keys, change)
    assert any("record 6" in f and "the game is over" in f for f in failures), failures


def test_unfinished_game_gets_its_own_verdict(new_game: Callable[..., Path], cli: Cli,
                                              tmp_path: Path) -> None:
    game = new_game()
    result = cli("audit", game)
    assert result.exit_code == 10, result.output
    assert "verdict: not finished" in result.stdout
    assert "DOES NOT HOLD" not in result.stdout
    missing = cli("audit", tmp_path / "nowhere.yaml")
    assert missing.exit_code == 9, missing.output
    assert "no such file" in missing.stderr
    assert "verdict" not in missing.stdout
    verified = cli("verify", game)
    assert verified.exit_code == 0, verified.output


def test_the_json_reports_say_whether_the_game_has_ended(
        new_game: Callable[..., Path], finished_game: Path, cli: Cli, tmp_path: Path) -> None:
    """``finished`` is what the file says: false for a game still running (``verify`` and
    ``audit`` alike), true for one that has ended, null for a file that could not be read."""
    running = new_game(name="running.yaml")
    garbage = tmp_path / "garbage.yaml"
    garbage.write_bytes(b"frogpbem: 2\nheader: [\n")
    for command, game, finished in (("verify", running, False), ("audit", running, False),
                                    ("verify", finished_game, True),
                                    ("audit", finished_game, True), ("audit", garbage, None)):
        result = cli(command, game, "--json")
        data = json.loads(result.stdout)
        report = data[0] if command == "audit" else data
        assert report["finished"] is finished, (command, game, result.stdout)
    both = json.loads(cli("audit", garbage, finished_game, "--json").stdout)
    assert [(r["ok"], r["finished"]) for r in both] == [(False, None), (True, True)]


def test_audit_with_key_decrypts_sealed_copies(finished_game: Path, cli: Cli, keys: Keys) -> None:
    result = cli("audit", finished_game, "--key", keys.path("referee"))
    assert result.exit_code == 0, result.output
    assert "sealed setup of red decrypted and matches its commitment" in result.stdout
    assert "sealed setup of blue decrypted and matches its commitment" in result.stdout


EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "finished-frogfinder"


def _every_key(folder: Path) -> list[Path]:
    """The referee's key and every seat's, as a demo or the example leaves them."""
    return sorted(p for p in folder.iterdir() if (folder / f"{p.name}.pub").exists())


@pytest.mark.parametrize("rules", ["frogfinder", "coan", "froglet", "secretmove", "example",
                                   "coan teams"])
def test_audit_with_any_participant_key_holds(
        rules: str, finished_demos: dict[str, Path], cli: Cli, tmp_path: Path) -> None:
    """A seat's key opens only its own (and its team's) sealed setup; what it cannot open is
    no fault of the game: every participant's audit of an honest game holds."""
    from frogpbem.demo import play_demo

    if rules == "coan teams":
        folder = play_demo(tmp_path / "teams", "coan", seed=4, seats=4, options={
            "size": "6", "frogs": "1", "teams": "red+black,blue+purple"},
            session=here()).game.parent
    else:
        folder = EXAMPLE if rules == "example" else finished_demos[rules].parent
    game = folder / "game.yaml"
    keys = _every_key(folder)
    assert len(keys) >= 3, keys
    opened: dict[str, int] = {}
    for key in keys:
        private = tmp_path / key.name
        private.write_bytes(key.read_bytes())
        private.chmod(0o600)  # git keeps the example's keys without their mode
        result = cli("audit", game, "--key", private)
        assert result.exit_code == 0, (key.name, result.output)
        assert "verdict: everything holds" in result.stdout
        opened[key.name] = result.stdout.count("decrypted and matches its commitment")
    if rules != "froglet":  # froglet hides nothing: no sealed setups
        referee = next(name for name in opened if name.startswith("referee"))
        seats = [count for name, count in opened.items() if name != referee]
        assert all(0 < count < opened[referee] for count in seats), opened
        if rules == "coan teams":  # each seat opens its own setup and its teammate's
            assert seats == [2, 2, 2, 2] and opened[referee] == 4, opened


@pytest.mark.parametrize("command", ["audit", "verify", "verify $FROGPBEM_KEY"])
def test_audit_or_verify_with_a_stranger_key_says_so(
        finished_game: Path, cli: Cli, keys: Keys, command: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A key of neither the referee nor a seat (given, or the usual one in $FROGPBEM_KEY,
    which verify takes) is no verdict on the game."""
    if command.endswith("$FROGPBEM_KEY"):
        monkeypatch.setenv("FROGPBEM_KEY", str(keys.path("mallory")))
        result = cli("verify", finished_game)
    else:
        result = cli(command, finished_game, "--key", keys.path("mallory"))
    assert result.exit_code == 5, result.output
    assert "is neither the referee nor a seat of game" in result.stderr
    assert "DOES NOT HOLD" not in result.output


def test_fork_proof(new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path,
                    monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game()
    fork = tmp_path / "fork.yaml"
    fork.write_bytes(game.read_bytes())
    assert cli("move", game, "shoot D1", "--key", keys.path("referee")).exit_code == 0
    # A referee who forgets its memory (another machine) signs a second record 1.
    monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / "other-machine"))
    assert cli("move", fork, "shoot F1", "--key", keys.path("referee")).exit_code == 0
    result = cli("verify", game, "--against", fork)
    assert result.exit_code == 1
    assert "FORK: record 1" in result.stdout


def test_a_seat_catches_a_dishonest_referee_while_the_game_runs(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, play: Callable[..., Any]
) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    doc = strictyaml.loads(game.read_bytes())
    doc["log"][0]["result"] = {"count": 0}  # C3 touches red's frog on B2
    resign(doc, keys.key("referee"))
    game.write_text(strictyaml.dumps(doc))
    public = cli("verify", game)
    assert public.exit_code == 0, public.output  # publicly, 0 was possible
    red = cli("verify", game, "--key", keys.path("alice"))
    assert red.exit_code == 1
    assert "record 1 (red shoot C3)" in red.stdout and "impossible" in red.stdout
    blue = cli("verify", game, "--key", keys.path("bob"))
    assert blue.exit_code == 0, blue.output  # blue cannot know about B2


def test_signed_but_malformed_data_is_refused_without_a_traceback(
    referee_game: Path, keys: Keys, cli: Cli
) -> None:
    """A buggy or hostile referee signs nonsense: every command still answers in one line."""
    original = referee_game.read_bytes()

    def signed(change: Callable[[dict[str, Any]], None]) -> None:
        doc = strictyaml.loads(original)
        change(doc)
        resign(doc, keys.key("referee"))
        referee_game.write_text(strictyaml.dumps(doc))

    for size in ("x", None, True, [8], {"n": 8}, "9" * 5000, "\u0668"):  # "\u0668": an Arabic 8
        signed(lambda doc, size=size: doc["header"]["options"].update(size=size))
        result = cli("view", referee_game, "--public")
        assert result.exit_code == 7, result.output
        assert "header: option size must be a whole number" in result.stderr
        for args in (["audit", referee_game], ["verify", referee_game]):
            result = cli(*args)
            assert result.exit_code == 1 and "Traceback" not in result.output, result.output
            assert "option size must be a whole number" in result.output
        assert not audit(referee_game, clock=here().clock).ok

    signed(lambda doc: doc["log"][0].update(result={"count": [1]}))
    for args in (["view", referee_game, "--public"], ["audit", referee_game],
                 ["verify", referee_game]):
        result = cli(*args)
        # refused on load as a malformed file (7); audit and verify report it (1)
        assert result.exit_code == (7 if args[0] == "view" else 1), result.output
        assert "Traceback" not in result.output
        assert "record 1: not a frog-finding result" in result.output
    # a malformed result cannot even be printed as a record
    assert cli("record", referee_game).exit_code == 7


def test_many_games_audited_at_once_give_the_reports_of_one_after_the_other(
        finished_game: Path, new_game: Callable[..., Path], cli: Cli, tmp_path: Path) -> None:
    """``--jobs``: the files are audited in other processes, each whole; the reports, their
    order and the exit status are those of auditing them one after the other."""
    forged = tmp_path / "forged.yaml"
    forged.write_bytes(finished_game.read_bytes().replace(b"Alice", b"Alicf", 1))
    running = new_game(name="running.yaml")
    files = [finished_game, forged, running, finished_game]
    alone = audit_many(files, clock=here().clock)
    assert [r.exit_status() for r in alone] == [0, 1, 10, 0]
    for jobs in (2, 0):
        together = audit_many(files, jobs=jobs, clock=here().clock)
        assert [r.to_json() for r in together] == [r.to_json() for r in alone]
    with pytest.raises(FileAccessError, match="no such file"):
        audit_many([finished_game, tmp_path / "nowhere.yaml"], jobs=2, clock=here().clock)
    one_by_one = cli("audit", *files)
    at_once = cli("audit", "--jobs", "2", *files)
    assert at_once.exit_code == one_by_one.exit_code == 1
    assert at_once.stdout == one_by_one.stdout
    assert "verdict: DOES NOT HOLD" in at_once.stdout
    missing = cli("audit", "-j", "2", finished_game, tmp_path / "nowhere.yaml")
    assert missing.exit_code == 9 and "no such file" in missing.stderr


def test_an_audit_of_several_files_has_pyyaml_read_them_and_one_alone_does_not(
        finished_game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """audit_many of more than one file reads them in bulk (PyYAML reads each, see
    strictyaml.loads); an audit of one file reads it line by line. The reports are the
    same."""
    read = pyyaml_reads(monkeypatch)
    alone = audit_many([finished_game], clock=here().clock)
    assert read == []
    many = audit_many([finished_game, finished_game], clock=here().clock)
    assert read == [str(finished_game)] * 2
    assert [r.to_json() for r in many] == [alone[0].to_json()] * 2
