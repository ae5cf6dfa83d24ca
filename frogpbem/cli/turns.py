"""The two commands of every turn, ``move`` and ``view``, as both command lines call them.

Typer's (:mod:`frogpbem.cli.game`, with their help) and the quick path's
(:mod:`frogpbem.cli.quick`) call these functions with the same values. Each
imports the library it runs in its body: the typer app imports this module for
every command, and ``move`` needs none of ``view``'s drawing.
"""

from __future__ import annotations

from pathlib import Path

from frogpbem.cli.keys import key_path, load_key
from frogpbem.cli.output import colour, echo, emit, emit_applied, reported
from frogpbem.errors import FrogPbemError, IllegalMoveError, UsageError


def move(game: Path, words: list[str] | None, key: Path | None, seat: str | None,
         take_from: list[Path], discard_requests: bool, withdraw: bool,
         as_json: bool, setup: str | None = None, random_setup: bool = False) -> None:
    """``frogpbem move`` (its help is in :mod:`frogpbem.cli.game`)."""
    from frogpbem.cli import duel

    if duel.is_duel_file(game):
        with reported(as_json):
            if seat is not None or take_from or discard_requests or withdraw:
                raise UsageError("a game without a referee takes a seat's move and --key "
                                 "only (--seat, --from, --discard-requests and --withdraw "
                                 "are the referee's)")
            duel.move(game, words, key, as_json, setup=setup, random_setup=random_setup)
        return
    if setup is not None or random_setup:
        with reported(as_json):
            raise UsageError("--setup and --random choose a seat's setup in a game without "
                             "a referee (with a referee: frogpbem setup)")
    from frogpbem.protocol.session import Session
    from frogpbem.referee import Applied
    from frogpbem.referee import move as do_move

    with reported(as_json), Session.from_environment() as session:
        text = " ".join(words) if words else None
        result = do_move(game, load_key(key), text, seat, tuple(take_from), discard_requests,
                         withdraw, session=session)
        if not isinstance(result, Applied):
            words_out = result.line
            if result.block:
                words_out += ("\nor paste this block into your reply to the referee:\n"
                              + result.block.rstrip("\n"))
            emit({"request": result.line, "seat": result.seat, "move": result.move,
                  "n": result.n, "sealed": result.sealed, "replaced": result.replaced,
                  "withdrawn": result.withdrawn, "block": result.block or None}, as_json,
                 words_out)
            return
        emit_applied(result, as_json)


def view(game: Path, key: Path | None, public: bool, as_json: bool, fmt: str) -> None:
    """``frogpbem view`` (its help is in :mod:`frogpbem.cli.game`)."""
    from frogpbem.cli import duel

    if duel.is_duel_file(game):
        with reported(as_json):
            duel.view(game, key, public, as_json, fmt)
        return
    from frogpbem.gamefile.document import dump_yaml, parse_view, read_bytes
    from frogpbem.protocol.game import deadline_words, load
    from frogpbem.protocol.session import Session
    from frogpbem.views import RENDERERS, render_text, show_view_file, view_for

    with reported(as_json), Session.from_environment() as session:
        if fmt not in RENDERERS:
            raise UsageError(f"--format must be {', '.join(RENDERERS)}, got {fmt!r}")
        if as_json and fmt not in ("text", "json"):
            raise UsageError(f"--json and --format {fmt} ask for two formats: give one")
        painted = colour() if fmt == "text" and not as_json else None
        mailed = parse_view(read_bytes(game), str(game))
        if mailed is not None:  # a view file, as the referee mails it to a seat
            if fmt in ("json", "yaml") or as_json:
                raise UsageError("a view file is YAML already; --format json/yaml and --json "
                                 "show game files")
            try:
                shown_file = show_view_file(mailed, session.seen, fmt, painted,
                                            lambda words: echo(f"note: {words}", err=True))
            except FrogPbemError as exc:
                raise exc.within(path=game) from None
            echo(shown_file)
            return
        loaded = load(game, session)
        session.seen.see(loaded)
        if loaded.undealt:
            waiting = ", ".join(loaded.waiting_for) or "the referee to deal"
            if fmt in ("svg", "html"):  # a line of text in place of a picture: a broken file
                raise IllegalMoveError(f"game {loaded.game_id} is not dealt yet: no board to "
                                       f"draw (waiting for {waiting})", path=game)
            deadline = loaded.header.deadline
            data = {"game": loaded.game_id, "dealt": False, "waiting_for": loaded.waiting_for,
                    "deadline": deadline.to_json() if deadline else None}
            if fmt == "yaml":
                echo(dump_yaml(data).decode(), nl=False)
                return
            line = (f"{loaded.ruleset.title} - game {loaded.game_id}: not dealt yet, "
                    f"waiting for {waiting}. {deadline_words(loaded.header)}")
            emit(data, as_json or fmt == "json", line)
            return
        private = None
        path, asked = key_path(key)
        if not public and path is not None:
            private = load_key(path)
        shown = view_for(loaded, private, asked)
        if private is not None and shown.role is None:
            echo(f"note: {path} is not part of this game; showing the public view", err=True)
        if painted is not None:
            echo(render_text(shown, painted))
            return
        echo(RENDERERS["json" if as_json else fmt](shown), nl=fmt in ("text", "json"))
