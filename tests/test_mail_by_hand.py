"""A game by email without attaching files: pasted request blocks, mailed view files."""

from __future__ import annotations

import quopri
from collections.abc import Callable
from pathlib import Path

import pytest

from frogpbem.gamefile import strictyaml
from tests.conftest import Cli, Keys


def block_of(output: str) -> list[str]:
    lines = output.splitlines()
    start = lines.index("-----BEGIN FROGPBEM REQUEST-----")
    end = lines.index("-----END FROGPBEM REQUEST-----")
    return lines[start:end + 1]


def test_a_request_block_pasted_into_a_quoted_reply_is_applied(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    game = new_game()
    alice = tmp_path / "alice.yaml"
    alice.write_bytes(game.read_bytes())
    asked = cli("move", alice, "shoot C3", "--key", keys.path("alice"))
    assert asked.exit_code == 0, asked.output
    block = block_of(asked.stdout)
    assert 3 <= len(block) <= 14 and max(len(line) for line in block) <= 76
    reply = tmp_path / "reply.eml"
    reply.write_text("Subject: Re: your move\r\n\r\nHere it is.\r\n\r\n"
                     + "".join(f"> {line}\r\n" for line in block) + "\r\n-- \r\nAlice\r\n")
    applied = cli("move", game, "--from", reply, "--key", keys.path("referee"))
    assert applied.exit_code == 0, applied.output
    assert "red shoots C3: 1" in applied.stdout
    assert strictyaml.loads(game.read_bytes())["log"][0]["request"]  # the seat's signature


def test_a_changed_or_foreign_block_is_refused(
    new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    game = new_game()
    other = new_game(name="other.yaml")
    asked = cli("move", other, "shoot C3", "--key", keys.path("alice"))
    foreign = tmp_path / "foreign.txt"
    foreign.write_text("\n".join(block_of(asked.stdout)) + "\n")
    refused = cli("move", game, "--from", foreign, "--key", keys.path("referee"))
    assert refused.exit_code == 8 and "made for game" in refused.stderr
    mine = cli("move", game, "shoot C3", "--key", keys.path("alice"))
    lines = block_of(mine.stdout)
    lines[2] = lines[2][:10] + ("A" if lines[2][10] != "A" else "B") + lines[2][11:]
    changed = tmp_path / "changed.txt"
    changed.write_text("\n".join(lines) + "\n")
    result = cli("move", game, "--from", changed, "--key", keys.path("referee"))
    assert result.exit_code in (6, 7), result.output
    assert "Traceback" not in result.output


def test_a_mailed_view_file_is_shown_and_checked(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    game = new_game()  # the referee enters a move: no seat's tool has seen the game yet
    assert cli("move", game, "shoot C3", "--key", keys.path("referee")).exit_code == 0
    view = game.with_name("game.red.view.yaml")
    unseen = cli("view", view)
    assert unseen.exit_code == 0, unseen.output
    assert "NOT VERIFIED" in unseen.stdout and "red shoots C3: 1" in unseen.stdout
    assert cli("view", game, "--key", keys.path("alice")).exit_code == 0
    seen = cli("view", view)
    words = " ".join(seen.stdout.split())  # the view wraps its lines at 76 columns
    assert seen.exit_code == 0 and "signed by the referee (SHA256:" in words
    view.write_text(view.read_text().replace("shoot C3", "shoot C4"))
    forged = cli("view", view)
    assert forged.exit_code == 6 and "invalid signature by the referee" in forged.stderr


MANGLED = {
    "joined, text after END": lambda b: "My move: " + " ".join(b) + " Thanks! Alice\n",
    "quoted twice, then re-flowed": lambda b: "> > " + " ".join(b) + "\n",
    "non-breaking spaces": lambda b: "".join(f"\u00a0\u00a0{line}\u00a0\n" for line in b),
    "old Mac line ends, a word before BEGIN": lambda b: "move: " + "\r".join(b) + "\r",
    "a raw message, quoted-printable": lambda b: "Content-Transfer-Encoding: quoted-"
    "printable\n\n" + quopri.encodestring(" ".join(b).encode()).decode() + "\n",
}


@pytest.mark.parametrize("how", sorted(MANGLED))
def test_a_block_however_a_mail_program_mangled_it_is_applied(
    how: str, new_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path
) -> None:
    """The block's content is signed, so reading past what mail did to it costs nothing;
    a block re-flowed into one line, or with a word before BEGIN, was once lost silently."""
    game = new_game()
    alice = tmp_path / "alice.yaml"
    alice.write_bytes(game.read_bytes())
    asked = cli("move", alice, "shoot C3", "--key", keys.path("alice"))
    reply = tmp_path / "reply.txt"
    reply.write_bytes(MANGLED[how](block_of(asked.stdout)).encode())
    applied = cli("move", game, "--from", reply, "--key", keys.path("referee"))
    assert applied.exit_code == 0, applied.output
    assert "red shoots C3: 1" in applied.stdout
