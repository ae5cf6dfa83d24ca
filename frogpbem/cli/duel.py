"""The commands on a game without a referee: ``new --no-referee``, ``move``, ``join``,
``view``, ``verify``, each dispatched here by the existing command when the file is one
(:func:`is_duel_file`). The library is imported in each function's body."""

from __future__ import annotations

from pathlib import Path

from frogpbem.cli.keys import load_key
from frogpbem.cli.output import echo, emit
from frogpbem.errors import FrogPbemError, UsageError


def is_duel_file(path: Path) -> bool:
    """Whether ``path`` is a game file without a referee (``False`` if it cannot be read:
    the referee's command then says why)."""
    from frogpbem.gamefile.document import read_bytes
    from frogpbem.gamefile.duelfile import is_duel

    try:
        return is_duel(read_bytes(path))
    except (FrogPbemError, ValueError):
        return False


def new(game: Path, rules: str, key: Path | None, seat_keys: dict[str, str],
        names: dict[str, str], emails: dict[str, str], options: dict[str, str],
        as_json: bool) -> None:
    """``frogpbem new --no-referee``: the header, signed by the first seat's ``key``."""
    from frogpbem import crypto
    from frogpbem.dealing import new_game_id
    from frogpbem.duel.engine import create, write_new
    from frogpbem.duel.registry import duel_rules
    from frogpbem.gamefile.model import Party
    from frogpbem.games import find_game
    from frogpbem.protocol.session import Session

    duel_rules(rules)
    private = load_key(key)
    with Session.from_environment() as session:
        seats = [Party(names.get(s, s.capitalize()), crypto.load_public_key(pub).line, s,
                       emails.get(s)) for s, pub in seat_keys.items()]
        file = create(rules, private, seats, dict(options), session.clock.text(),
                      new_game_id(find_game(rules)))
        write_new(game, file, session)
        first, second = file.header.seat_names
        emit({"game": file.game, "file": str(game), "referee": None}, as_json,
             f"created {file.game} in {game} (no referee)\nnow mail it to {second}, who "
             f"joins with: frogpbem move {game.name} --key THEIR_KEY")


def move(game: Path, words: list[str] | None, key: Path | None, as_json: bool,
         join_only: bool = False) -> None:
    """``frogpbem move`` (and ``join``) on a game without a referee."""
    from frogpbem.duel.engine import add
    from frogpbem.protocol.session import Session

    text = " ".join(words) if words else None
    with Session.from_environment() as session:
        added = add(game, load_key(key), text, session, join_only)
    then = f"now mail {game.name} to {added.due}" if added.due and added.due != added.seat \
        else ("your step again" if added.due else "")
    emit({"seat": added.seat, "n": added.n, "lines": list(added.lines), "due": added.due},
         as_json, "\n".join([*added.lines, then] if then else added.lines))


def view(game: Path, key: Path | None, public: bool, as_json: bool, fmt: str) -> None:
    """``frogpbem view`` on a game without a referee (text only, so far)."""
    from frogpbem.cli.keys import key_path
    from frogpbem.duel.engine import load, view_text
    from frogpbem.protocol.session import Session

    if fmt != "text" or as_json:
        raise UsageError("a game without a referee is shown as text only, so far")
    with Session.from_environment() as session:
        loaded = load(game, session)
        path, _ = key_path(key)
        private = load_key(path) if not public and path is not None else None
        echo(view_text(loaded, private))


def verify(game: Path, as_json: bool) -> None:
    """``frogpbem verify`` on a game without a referee: every signature, the chain, each
    seat's turn, the deal and every move."""
    from frogpbem.duel.engine import load, verify_text
    from frogpbem.protocol.session import Session

    with Session.from_environment() as session:
        loaded = load(game, session)
        emit({"ok": True, "game": loaded.file.game, "messages": loaded.progress.n}, as_json,
             verify_text(loaded))
