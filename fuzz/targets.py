"""What the fuzzers call: each target takes any input and ends in a result or a FrogPbemError.

Any other exception escapes, and the fuzzer reports it as a crash.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from frogpbem.audit import verify
from frogpbem.errors import FrogPbemError
from frogpbem.gamefile.document import parse_game
from frogpbem.gamefile.forkproof import ForkProof
from frogpbem.games import find_game, listed_games
from frogpbem.protocol.session import Session

_EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "finished-frogfinder"
SAMPLE = (_EXAMPLE / "game.yaml").read_bytes()
"""A finished, valid game file to damage."""
SAMPLE_VIEW = (_EXAMPLE / "game.red.view.yaml").read_bytes()
"""A seat's view file, as the referee mails it, to damage."""
SAMPLE_MAIL = (b"From: alice@example.org\r\nSubject: Re: your move\r\nMIME-Version: 1.0\r\n"
               b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n'
               b'Content-Type: text/html; charset="utf-8"\r\n\r\n<p>my move</p>\r\n--b\r\n'
               b"Content-Type: application/yaml\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
               + SAMPLE + b"\r\n--b--\r\n")
"""A reply with the game file attached, to damage."""
RULESETS = listed_games()
"""The rulesets whose notation is fuzzed: every one in the registry."""


def load_bytes(data: bytes) -> Any:
    """Parse and type a game file's bytes; ``None`` when it is refused."""
    try:
        return parse_game(data, "<fuzz>")
    except FrogPbemError:
        return None


def verify_bytes(data: bytes) -> Any:
    """Everything ``frogpbem verify`` checks, on a file holding ``data``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.yaml"
        path.write_bytes(data)
        try:
            return verify(path, Session.from_environment(home=Path(folder), state=Path(folder)))
        except FrogPbemError:
            return None


def parse_notation(rules: str, text: str) -> Any:
    """Every parser a player's text reaches: move, square, and a chosen secret."""
    ruleset = find_game(rules)
    results = []
    for parse in (ruleset.parse_move, ruleset.parse_secret):
        try:
            results.append(parse(text))
        except FrogPbemError:
            results.append(None)
    for move in results[:1]:
        if move is not None:
            ruleset.format_move(move)
            ruleset.public_move(move)
    return results


def parse_proof(text: str) -> Any:
    try:
        return ForkProof.parse(text)
    except FrogPbemError:
        return None


def read_mail(data: bytes) -> Any:
    """What ``receive`` and the judge read of a message (or an mbox): its messages, their
    subjects and senders, the game files and request blocks in them."""
    from frogpbem.gamefile import mailsafe
    from frogpbem.mail.receive import contents, header_text, messages_in, subject

    try:
        messages = messages_in(data)
        found = contents(*messages)
        for text in found.blocks:
            mailsafe.request_blocks(text)
    except FrogPbemError:
        return None
    return subject(messages), [header_text(m, "from") for m in messages], found


def show_view(data: bytes) -> Any:
    """``frogpbem view`` of a mailed view file, in each format."""
    from frogpbem.gamefile.document import parse_view
    from frogpbem.protocol.seen import SeenGames
    from frogpbem.protocol.times import Clock
    from frogpbem.views import show_view_file

    with tempfile.TemporaryDirectory() as folder:
        try:
            view = parse_view(data, "<fuzz>")
            if view is None:
                return None
            return [show_view_file(view, SeenGames(Path(folder), Clock.from_environment()), fmt)
                    for fmt in ("text", "svg", "html")]
        except FrogPbemError:
            return None
