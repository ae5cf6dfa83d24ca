"""The corpus of real client replies (``tests/mail/corpus``), filled in for a real game.

Each reply answers the judge's first mail of a game in which red (Alice) is to
move; a usable one carries her signed request ``shoot C3``. Use
:func:`corpus_game` to make the game with the CLI, then :func:`replies` for the
messages::

    game = corpus_game(cli, keys, tmp_path)      # game.path: GAMES/ID.yaml, before the move
    for reply in replies(game.values):
        reply.name, reply.usable, reply.reason, reply.data   # data: the raw message
"""

from __future__ import annotations

import base64
import json
import quopri
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from frogpbem.gamefile import strictyaml
from tests.conftest import SETUP, Cli, Keys, write_setup

CORPUS = Path(__file__).parent / "mail" / "corpus"
RED_MOVE = "shoot C3"
"""The move every usable reply carries (red's, the first of the game)."""


@dataclass(frozen=True)
class Reply:
    """One message of the corpus, filled in."""

    name: str
    """The template's file name (``gmail-html.eml``)."""
    client: str
    """The mail program that writes messages so."""
    usable: bool
    """Whether it carries red's move."""
    reason: str
    """For an unusable one, a piece of what ``frogpbem receive`` says of it."""
    about: str
    """What is particular about it."""
    data: bytes
    """The raw message."""


@dataclass(frozen=True)
class CorpusGame:
    """A game to fill the corpus in for."""

    path: Path
    """The referee's (the judge's) game file, ``GAMES/ID.yaml``, before red's move."""
    values: dict[str, str]
    """What the templates' placeholders stand for."""


def _new(cli: Cli, keys: Keys, folder: Path, referee: str) -> Path:
    """A game by ``new`` with mail addresses and the known setup, as ``folder/ID.yaml``."""
    folder.mkdir(parents=True, exist_ok=True)
    draft = folder / "new.yaml"
    made = cli("new", draft, "--referee", keys.path(referee), "--referee-name", "Judge",
               "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
               "--name", "red=Alice", "--name", "blue=Bob",
               "--email", "red=alice@example.org", "--email", "blue=bob@example.org",
               "--option", "size=6", "--option", "frogs=2",
               "--setup", write_setup(folder, SETUP))
    assert made.exit_code == 0, made.output
    path = folder / f"{strictyaml.loads(draft.read_bytes())['header']['game']}.yaml"
    draft.rename(path)
    for view in folder.glob("new.*.view.yaml"):
        view.unlink()
    return path


def _red_moves(cli: Cli, keys: Keys, game: Path, copy: Path) -> list[str]:
    """Alice signs ``shoot C3`` into ``copy`` of ``game``; the block's lines as printed."""
    copy.write_bytes(game.read_bytes())
    asked = cli("move", copy, RED_MOVE, "--key", keys.path("alice"))
    assert asked.exit_code == 0, asked.output
    lines = asked.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("-----BEGIN"))
    end = next(i for i, line in enumerate(lines) if line.startswith("-----END"))
    return lines[start:end + 1]


def corpus_game(cli: Cli, keys: Keys, folder: Path) -> CorpusGame:
    """A game in ``folder/games`` (referee key ``referee``), Alice's signed move in a copy of
    it, and a stranger's game (referee ``mallory``) with a move of its own."""
    game = _new(cli, keys, folder / "games", "referee")
    block = _red_moves(cli, keys, game, folder / "alice.yaml")
    stranger = _red_moves(cli, keys, _new(cli, keys, folder / "stranger", "mallory"),
                          folder / "stranger-alice.yaml")
    game_id = strictyaml.loads(game.read_bytes())["header"]["game"]
    first, middle, last = block[0], block[1:-1], block[-1]
    mso = '<p class="MsoNormal"><span style="font-size:11.0pt">{}<o:p></o:p></span></p>'
    damaged = [*block]
    damaged[2] = damaged[2][:30] + damaged[2][31:]  # a character lost
    values = {
        "GAME_ID": game_id,
        "BLOCK": "\n".join(block),
        "BLOCK_JOINED": " ".join(block),
        "BLOCK_NBSP": "\n".join(f"\u00a0 \u00a0 {line}" for line in block),
        "BLOCK_HTML": "<br>".join(block),
        "BLOCK_HTML_NBSP": "<br>".join(f"&nbsp; &nbsp; {line}" for line in block),
        "BLOCK_MSO": "\n".join(mso.format(line) for line in
                               [f"My move: {first}", *middle, last]),
        "BLOCK_MSO_TEXT": "\n".join([f"My move: {first}", *middle, last]),
        "BLOCK_FLOWED": " \n".join(textwrap.wrap(" ".join(block), 72, break_long_words=False,
                                                 break_on_hyphens=False)),
        "BLOCK_TRUNCATED": "\n".join(block[:4]),
        "BLOCK_DAMAGED": "\n".join(damaged),
        "STRANGER_BLOCK": "\n".join(stranger),
        "STRANGER_BLOCK_HTML": "<br>".join(stranger),
        "GAME_FILE": (folder / "alice.yaml").read_text().rstrip("\n"),
        "GAME_FILE_UNCHANGED": game.read_text().rstrip("\n"),
    }
    return CorpusGame(game, values)


_REGION = re.compile(r"\{\{begin (qp|b64)\}\}\n(.*?)\{\{end \1\}\}\n", re.DOTALL)
_PLACEHOLDER = re.compile(r"\{\{([A-Z_]+)\}\}")


def render(template: str, values: dict[str, str], crlf: bool = False) -> bytes:
    """A template filled in: placeholders replaced, encoded regions encoded as the client
    did (quoted-printable, or base64 in lines of 76), then CRLF line ends if ``crlf``."""
    def fill(text: str) -> str:
        return _PLACEHOLDER.sub(lambda found: values[found.group(1)], text)

    def encode(found: re.Match[str]) -> str:
        text = fill(found.group(2)).encode()
        if found.group(1) == "qp":
            return quopri.encodestring(text).decode("ascii")
        return base64.encodebytes(text).decode("ascii")

    parts, at = [], 0
    for found in _REGION.finditer(template):
        parts += [fill(template[at:found.start()]), encode(found)]
        at = found.end()
    text = "".join([*parts, fill(template[at:])])
    return (text.replace("\n", "\r\n") if crlf else text).encode()


def replies(values: dict[str, str]) -> list[Reply]:
    """Every reply of the corpus, filled in with ``values`` (see :func:`corpus_game`)."""
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    return [Reply(entry["file"], entry["client"], entry["usable"], entry.get("reason", ""),
                  entry["about"], render((CORPUS / entry["file"]).read_text(), values,
                                         entry.get("crlf", False)))
            for entry in manifest["replies"]]
