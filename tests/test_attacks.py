"""A cheating referee, a hostile seat, a hostile file: each attack that once got through.

One test (or more) per finding of the security review, written to reproduce
the attack; each failed before the fix that it now checks.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from frogpbem import crypto
from frogpbem.audit import audit
from frogpbem.dealing import SeatSpec, create_game
from frogpbem.gamefile.document import dump_game, read_game
from frogpbem.gamefile.model import ChosenSetup, GameFile, Note, Record, Setup
from frogpbem.protocol.secrets import SealedSecret
from tests.conftest import SETUP, Cli, Keys, Result, here, now

OTHER_SETUP = {"red": {"frogs": ["A6", "B5"]}, "blue": {"frogs": ["E5", "F6"]}}


def specs(keys: Keys) -> list[SeatSpec]:
    return [SeatSpec("red", keys.key("alice").public, "Alice"),
            SeatSpec("blue", keys.key("bob").public, "Bob")]


def rewritten(original: GameFile, keys: Keys, setup: dict[str, Any],
              **header_changes: Any) -> GameFile:
    """What a cheating referee makes: a new header for the same game id, the history re-signed.

    The seats' requests cannot be carried over (they sign the old history), so
    the records are re-signed without them.
    """
    referee = keys.key("referee")
    file = create_game("frogfinder", referee, "Carol", specs(keys), {"size": 6, "frogs": 2},
                       ChosenSetup.from_json(setup), game_id=original.game,
                       created=original.header.created)
    if header_changes:
        file = GameFile(replace(file.header, **header_changes).signed(referee))
    for old in original.log:
        record = Record(old.n, file.head, old.seat, old.move, old.result, old.scores, old.at)
        file = file.with_record(record.signed(referee))
    return file


def joined_game(cli: Cli, keys: Keys, game: Path) -> Path:
    """A random-deal game that both seats have joined, waiting for the referee's deal."""
    assert cli("new", game, "--join", "--referee", keys.path("referee"),
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--option", "size=6", "--option", "frogs=2").exit_code == 0
    for player in ("alice", "bob"):
        assert cli("join", game, "--key", keys.path(player)).exit_code == 0
    return game


def test_1_a_rewritten_history_is_caught_as_a_fork_with_a_proof(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, play: Callable[..., Result],
    tmp_path: Path,
) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    seen = cli("view", game, "--key", keys.path("bob"))  # blue's tool sees the true game
    assert seen.exit_code == 0, seen.output
    old = tmp_path / "old.yaml"
    old.write_bytes(game.read_bytes())
    # The referee moves red's frogs away from blue's aim and re-signs everything.
    game.write_bytes(dump_game(rewritten(read_game(game), keys, OTHER_SETUP)))

    view = cli("view", game, "--key", keys.path("bob"))
    assert view.exit_code == 11, view.output
    assert "FORK: the referee signed two different headers" in view.stderr
    proof = Path(view.stderr.split("proof saved to ")[1].split(" (check it")[0])
    checked = cli("verify", "--proof", proof)
    assert checked.exit_code == 0, checked.output
    assert_ssh_keygen_verifies(proof, tmp_path)

    against = cli("verify", old, "--against", game)
    assert against.exit_code == 1 and "FORK: header of game" in against.stdout
    assert cli("move", game, "shoot D1", "--key", keys.path("bob")).exit_code == 11
    blue = cli("verify", game, "--key", keys.path("bob"))  # the moves lost their requests
    assert blue.exit_code == 1
    assert "record 2 entered by the referee without blue's signed request" in blue.stdout


def assert_ssh_keygen_verifies(proof: Path, folder: Path) -> None:
    """Check both signatures of a proof with ssh-keygen, extracting as its comment says."""
    lines = proof.read_text().splitlines()

    def field(name: str) -> list[str]:
        return [line.split(" ", 1)[1] for line in lines if line.startswith(name + " ")]

    (folder / "allowed_signers").write_text(field("allowed_signers")[0] + "\n")
    messages = []
    for name in ("first", "second"):
        import base64

        message = base64.b64decode("".join(field(f"{name}_message")))
        messages.append(message)
        (folder / f"{name}.sig").write_text("\n".join(field(f"{name}_signature")) + "\n")
        done = subprocess.run(
            ["ssh-keygen", "-Y", "verify", "-f", str(folder / "allowed_signers"), "-I",
             "referee", "-n", "frogpbem", "-s", str(folder / f"{name}.sig")],
            input=message, capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
    assert messages[0] != messages[1]


def test_1_a_rolled_back_copy_is_refused(new_game: Callable[..., Path], cli: Cli, keys: Keys,
                                         play: Callable[..., Result], tmp_path: Path) -> None:
    game = new_game()
    old = tmp_path / "old.yaml"
    old.write_bytes(game.read_bytes())
    play(game, "alice", "shoot C3")
    assert cli("view", game, "--key", keys.path("alice")).exit_code == 0
    rolled = cli("view", old, "--key", keys.path("alice"))
    assert rolled.exit_code == 8 and "a rollback" in rolled.stderr
    verified = cli("verify", old, "--key", keys.path("alice"))
    assert verified.exit_code == 1 and "a rollback" in verified.stdout
    assert cli("move", old, "shoot D1", "--key", keys.path("alice")).exit_code == 8


def test_1_the_same_fork_of_a_record_gives_a_proof_that_ssh_keygen_accepts(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = new_game()
    fork = tmp_path / "fork.yaml"
    fork.write_bytes(game.read_bytes())
    assert cli("move", game, "shoot D1", "--key", keys.path("referee")).exit_code == 0
    assert cli("view", game, "--key", keys.path("alice")).exit_code == 0
    monkeypatch.setenv("FROGPBEM_STATE", str(tmp_path / "other-machine"))
    assert cli("move", fork, "shoot F1", "--key", keys.path("referee")).exit_code == 0
    view = cli("view", fork, "--key", keys.path("alice"))
    assert view.exit_code == 11 and "two different record 1s" in view.stderr
    proof = Path(view.stderr.split("proof saved to ")[1].split(" (check it")[0])
    assert cli("verify", "--proof", proof).exit_code == 0
    assert_ssh_keygen_verifies(proof, tmp_path)
    text = proof.read_text()
    second = [line for line in text.splitlines() if line.startswith("second_message ")]
    tampered = tmp_path / "tampered.proof"
    tampered.write_text(text.replace(second[0], second[0][:-4] + "AAAA", 1))
    assert cli("verify", "--proof", tampered).exit_code == 1
    moved = tmp_path / "moved.proof"  # the place a proof names must be its messages' place
    moved.write_text(text.replace("position record 1", "position record 7"))
    lied = cli("verify", "--proof", moved)
    assert lied.exit_code == 1 and "its messages are record 1" in lied.stdout


def test_2_joins_made_under_one_header_do_not_count_under_another(
    cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    """The referee sees the seats' seeds, grinds a new seed, and deals with the old joins."""
    game = joined_game(cli, keys, tmp_path / "g.yaml")
    honest = read_game(game)
    ground = create_game("frogfinder", keys.key("referee"), "Referee", specs(keys),
                         {"size": 6, "frogs": 2}, game_id=honest.game, join=True, created=now())
    game.write_bytes(dump_game(replace(ground, joins=honest.joins)))
    dealt = cli("deal", game, "--key", keys.path("referee"))
    assert dealt.exit_code == 6, dealt.output
    assert "made under another header" in dealt.stderr


def test_3_a_move_entered_for_a_seat_without_its_request_fails_that_seats_verify(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, play: Callable[..., Result],
) -> None:
    game = new_game()
    play(game, "alice", "shoot C3")
    assert cli("move", game, "resign", "--seat", "blue", "--key",
               keys.path("referee")).exit_code == 0  # the referee resigns for blue
    blue = cli("verify", game, "--key", keys.path("bob"))
    assert blue.exit_code == 1
    assert "record 2 entered by the referee without blue's signed request" in blue.stdout
    assert audit(game, clock=here().clock).unasked == [2]


def test_4_a_random_deal_without_a_committed_seed_is_named_and_fails_the_audit(
    cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    chosen = create_game("frogfinder", keys.key("referee"), "Carol", specs(keys),
                         {"size": 6, "frogs": 2}, ChosenSetup.from_json(SETUP), created=now())
    header = chosen.header
    fake = replace(header, setup=Setup("random", header.setup.dealing)).signed(
        keys.key("referee"))
    game = tmp_path / "g.yaml"
    game.write_bytes(dump_game(GameFile(fake)))
    for args in (["view", game, "--key", keys.path("alice")],
                 ["verify", game, "--key", keys.path("alice")]):
        shown = cli(*args)
        words = " ".join(shown.stdout.split())  # the view wraps its lines at 76 columns
        assert "no committed seed: nothing shows that the deal was random" in words
    for player, move in (("alice", "guess E5"), ("bob", "guess A2"), ("alice", "guess F6")):
        assert cli("move", game, move, "--key", keys.path(player)).exit_code == 0
        assert cli("move", game, "--key", keys.path("referee")).exit_code == 0
    report = audit(game, clock=here().clock)
    assert not report.ok
    assert any("called random, but the header commits to no seed" in c.what
               for c in report.checks if not c.ok)


def team_game(cli: Cli, keys: Keys, tmp_path: Path) -> Path:
    game = tmp_path / "coan.yaml"
    created = cli("new", game, "--rules", "coan", "--referee", keys.path("referee"),
                  "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                  "--seat", f"black={keys.pub('mallory')}", "--seat",
                  f"purple={keys.pub('referee')}", "--option", "teams=2")
    return game if created.exit_code == 0 else pytest.fail(created.output)


def test_5_a_note_addressed_outside_its_authors_team_is_refused(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    game = new_game()
    bob_copy = tmp_path / "bob.yaml"
    bob_copy.write_bytes(game.read_bytes())
    file = read_game(bob_copy)
    red = keys.key("alice").public
    forged = SealedSecret.seal(file.game, "blue", "red: I resign, says Alice", [red])
    note = Note(file.game, file.header.hash, "blue", ("red",), 0, forged.armored,
                "2026-01-01T00:00:00Z").signed(keys.key("bob"))
    bob_copy.write_bytes(dump_game(replace(file, notes=(note,))))
    taken = cli("move", game, "--from", bob_copy, "--key", keys.path("referee"))
    assert taken.exit_code == 6, taken.output
    assert "not sealed to exactly its author's team (blue)" in taken.stderr
    assert cli("view", bob_copy, "--key", keys.path("alice")).exit_code == 6


def test_5_a_note_is_shown_on_one_line_with_control_characters_escaped(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    game = new_game()
    text = "plan A\nTeam notes:\n  after record 0, blue: \x1b[31mI resign"
    assert cli("note", game, text, "--key", keys.path("alice")).exit_code == 0
    shown = cli("view", game, "--key", keys.path("alice")).stdout
    assert "\x1b" not in shown
    assert [line for line in shown.splitlines() if line.startswith("Team notes:")] == \
        ["Team notes:"]
    assert "red: plan A\\nTeam notes:\\n  after record 0, blue: \\x1b[31mI resign" in shown


def test_6_a_second_deal_from_a_stale_undealt_copy_is_refused(
    cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    game = joined_game(cli, keys, tmp_path / "g.yaml")
    stale = tmp_path / "stale.yaml"
    stale.write_bytes(game.read_bytes())
    assert cli("deal", game, "--key", keys.path("referee")).exit_code == 0
    again = cli("deal", stale, "--key", keys.path("referee"))
    assert again.exit_code == 8 and "refusing to deal twice" in again.stderr


def test_6_the_referees_memory_is_written_before_the_game_file(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A crash between the two writes leaves the memory ahead, and the signed copy kept."""
    import frogpbem.referee

    game = new_game()
    before = game.read_bytes()
    written: list[Path] = []
    real = frogpbem.referee.write_atomic

    def crash(path: Path, data: bytes, **kwargs: Any) -> None:
        written.append(path)
        raise SystemExit(137)  # killed before the game file is renamed into place

    monkeypatch.setattr(frogpbem.referee, "write_atomic", crash)
    with pytest.raises(SystemExit):
        frogpbem.referee.move(game, keys.key("referee"), "shoot C3", session=here())
    monkeypatch.setattr(frogpbem.referee, "write_atomic", real)
    assert written == [game] and game.read_bytes() == before
    stale = cli("move", game, "shoot D1", "--key", keys.path("referee"))
    assert stale.exit_code == 8 and "is kept in" in stale.stderr
    kept = Path(stale.stderr.split("is kept in ")[1].rstrip(")\n"))
    assert len(read_game(kept).log) == 1 and read_game(kept).log[0].move == "shoot C3"


def test_7_seat_views_are_readable_by_their_owner_only(
    new_game: Callable[..., Path], keys: Keys
) -> None:
    old = os.umask(0o022)
    try:
        game = new_game()
    finally:
        os.umask(old)
    for seat in ("red", "blue"):
        mode = stat.S_IMODE(game.with_name(f"game.{seat}.view.yaml").stat().st_mode)
        assert mode == 0o600, oct(mode)
    assert stat.S_IMODE(game.with_name("game.public.view.yaml").stat().st_mode) == 0o644


def finished(cli: Cli, keys: Keys, game: Path) -> None:
    for player, move in (("alice", "guess E5"), ("bob", "guess A2"), ("alice", "guess F6")):
        assert cli("move", game, move, "--key", keys.path(player)).exit_code == 0
        assert cli("move", game, "--key", keys.path("referee")).exit_code == 0


def resealed(game: Path, keys: Keys, change: Callable[[GameFile], GameFile]) -> None:
    """The referee rebuilds the game with a changed sealing and re-signs it all.

    It does so with a tool that remembers nothing (its own memory would refuse).
    """
    shutil.rmtree(game.parent / "state", ignore_errors=True)
    file = change(read_game(game))
    referee = keys.key("referee")
    out = GameFile(file.header.signed(referee))
    for old in file.log:
        record = replace(old, prev=out.head).signed(referee)
        out = out.with_record(record)
    if file.reveal is not None:
        out = replace(out, reveal=replace(file.reveal, prev=out.head).signed(referee))
    game.write_bytes(dump_game(out))


def test_8_an_extra_age_recipient_fails_the_audit(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    """A sealed setup that a third X25519 key (here: mallory's ssh key) can also open."""
    game = new_game()

    def leak(file: GameFile) -> GameFile:
        header = file.header
        sealed = SealedSecret.seal(file.game, "red", SETUP["red"],
                                   [keys.key("alice").public, keys.key("referee").public,
                                    keys.key("mallory").public], 512)
        dealing = replace(header.setup.dealing,
                          commitments={**header.setup.dealing.commitments,
                                       "red": sealed.commitment or ""},
                          sealed={**header.setup.dealing.sealed, "red": sealed.armored})
        return GameFile(replace(header, setup=replace(header.setup, dealing=dealing)))

    resealed(game, keys, leak)
    finished(cli, keys, game)
    failures = [c.what for c in audit(game, clock=here().clock).checks if not c.ok]
    assert failures == ["sealed setup of red is not addressed to exactly red and the referee "
                        "(by the age recipient stanzas)"]


def test_8_an_unpadded_setup_and_a_zero_salt_fail_the_audit(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    game = new_game()

    def unpadded(file: GameFile) -> GameFile:
        header = file.header
        body = crypto.canonical_json({"game": file.game, "seat": "red", "salt": "0" * 64,
                                      "secret": SETUP["red"]})
        armored = crypto.seal(body, [keys.key("alice").public, keys.key("referee").public])
        commitment = crypto.commitment(file.game, "red", "0" * 64, SETUP["red"])
        dealing = replace(header.setup.dealing,
                          commitments={**header.setup.dealing.commitments, "red": commitment},
                          sealed={**header.setup.dealing.sealed, "red": armored})
        return GameFile(replace(header, setup=replace(header.setup, dealing=dealing)))

    resealed(game, keys, unpadded)
    finished(cli, keys, game)
    failures = [c.what for c in audit(game, clock=here().clock).checks if not c.ok]
    assert any("not the 512 every setup is padded to" in f for f in failures), failures
    assert any("the salt of red's setup is all zero" in f for f in failures), failures


# --- 9. hostile input ------------------------------------------------------------------------


def test_9_a_huge_integer_is_refused_in_a_sentence(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    game = new_game()
    text = game.read_text().replace("frogpbem: 2", "frogpbem: " + "9" * 5000, 1)
    game.write_text(text)
    for args in (["view", game, "--public"], ["verify", game], ["audit", game],
                 ["move", game, "shoot A1", "--key", keys.path("alice")]):
        result = cli(*args)
        assert result.exit_code in (1, 7), result.output
        assert "Traceback" not in result.output
        assert "unsupported format version" in result.output


def test_9_a_missing_sealed_copy_is_a_failed_check(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    """A finished game whose header lost red's sealed copy: once a KeyError in the audit."""
    game = new_game()
    for move in ("guess E5", "guess A2", "guess F6"):  # entered by the referee
        assert cli("move", game, move, "--key", keys.path("referee")).exit_code == 0

    def drop(file: GameFile) -> GameFile:
        header = file.header
        dealing = replace(header.setup.dealing, sealed={"blue": header.setup.dealing.sealed[
            "blue"]})
        return replace(file, header=replace(header, setup=replace(header.setup,
                                                                  dealing=dealing)))

    resealed(game, keys, drop)
    result = cli("audit", game)
    assert result.exit_code == 1, result.output
    assert "FAIL no sealed setup for red" in result.stdout
    shown = cli("view", game, "--key", keys.path("alice"))
    assert shown.exit_code == 6 and "no sealed setup for red" in shown.stderr


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_9_a_device_or_a_fifo_is_refused_at_once(special: str, cli: Cli, keys: Keys,
                                                  tmp_path: Path) -> None:
    path = Path(special)
    if special == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)
    result = cli("view", path, "--public")
    assert result.exit_code == 9 and "not a regular file" in result.stderr
    key_result = cli("view", path, "--key", path)
    assert key_result.exit_code in (5, 9), key_result.output
    assert "not a regular file" in key_result.stderr


def test_9_two_million_values_are_refused_early(cli: Cli, tmp_path: Path) -> None:
    game = tmp_path / "bomb.yaml"
    game.write_text("frogpbem: 2\nx: [" + ",".join(["1"] * 2_000_000)[:4_000_000] + "]\n")
    result = cli("view", game, "--public")
    assert result.exit_code == 7 and "more than 100000 YAML values" in result.stderr


def test_9_a_name_with_control_characters_reaches_the_terminal_escaped(
    cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    """``new`` refuses such names; a file made otherwise (by a hostile referee) shows them
    escaped."""
    from frogpbem.dealing import start_game

    game = tmp_path / "g.yaml"
    created = cli("new", game, "--referee", keys.path("referee"),
                  "--referee-name", "Carol\x1b]0;pwned\x07",
                  "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                  "--name", "red=Alice\nTo move: blue", "--option", "size=6")
    assert created.exit_code == 2 and "--referee-name" in created.stderr, created.output
    seats = [SeatSpec("red", keys.key("alice").public, "Alice\nTo move: blue"),
             SeatSpec("blue", keys.key("bob").public, "Blue")]
    start_game(game, create_game("frogfinder", keys.key("referee"), "Carol\x1b]0;pwned\x07",
                                 seats, {"size": 6}, created=now()), keys.key("referee"), here())
    shown = cli("view", game, "--key", keys.path("alice")).stdout
    assert "\x1b" not in shown and "\x07" not in shown
    assert "red (Alice\\nTo move: blue)" in shown
    assert len([line for line in shown.splitlines() if line.startswith("To move:")]) == 1
    record = cli("record", game).stdout
    assert "\x1b" not in record and '[Red "Alice\\nTo move: blue"]' in record


def test_9_the_lock_file_is_not_created_through_a_symlink(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    game = new_game()
    file = read_game(game)
    target = tmp_path / "victim"
    heads = tmp_path / "state" / "heads"
    heads.mkdir(parents=True, exist_ok=True)
    (heads / f"{file.game}.lock").unlink(missing_ok=True)
    (heads / f"{file.game}.lock").symlink_to(target)
    result = cli("move", game, "shoot C3", "--key", keys.path("referee"))
    assert result.exit_code == 9, result.output
    assert not target.exists()


def test_9_keygen_overwrites_neither_file(cli: Cli, tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    (tmp_path / "k.pub").symlink_to(victim)
    result = cli("keygen", tmp_path / "k")
    assert result.exit_code == 9 and "exists already" in result.stderr
    assert victim.read_text() == "precious\n" and not (tmp_path / "k").exists()
    (tmp_path / "j.pub").write_text("ssh-ed25519 old\n")
    assert cli("keygen", tmp_path / "j").exit_code == 9
    assert (tmp_path / "j.pub").read_text() == "ssh-ed25519 old\n"


def test_memory_files_are_private(new_game: Callable[..., Path], cli: Cli, keys: Keys,
                                  tmp_path: Path) -> None:
    game = new_game()
    assert cli("view", game, "--key", keys.path("alice")).exit_code == 0
    for folder in (tmp_path / "state" / "heads", tmp_path / "home" / "seen"):
        for path in folder.iterdir():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert json.loads((tmp_path / "home" / "seen" / f"{read_game(game).game}.json")
                      .read_text())["header"] == read_game(game).header.hash


# --- the outside review of games without a referee ----------------------------------------


def test_referee_free_verify_refuses_a_duel_file_over_4_mib_in_a_sentence(
        cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """A game without a referee padded past 4 MiB fell into the referee's report (exit 1,
    FAIL); ``verify`` refuses it in one sentence, exit 7 (a file in another shape), as
    ``view`` does."""
    game = tmp_path / "duel.yaml"
    made = cli("new", game, "--rules", "froglet", "--no-referee", "--key", keys.path("alice"),
               "--seat", f"white={keys.pub('alice')}", "--seat", f"black={keys.pub('bob')}")
    assert made.exit_code == 0, made.output
    with game.open("a", encoding="utf-8") as padding:
        padding.write(("# " + "x" * 70 + "\n") * 60000)
    assert game.stat().st_size > 4 * 1024 * 1024
    for command in ("verify", "view"):
        said = cli(command, game)
        assert said.exit_code == 7, said.output
        assert "file is larger than 4 MiB" in said.stderr and "FAIL" not in said.output
        assert said.stderr.count("\n") == 1 and "Traceback" not in said.output
