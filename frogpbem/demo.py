"""The demonstration: two bots play a whole game through the real flow, then it is audited.

Keys are made, the game is created, every move is a request signed by the
bot's key and applied by the referee's key, exactly as by email. The game, the
players' and the referee's memories stay in memory while the bots play, and
their files (and the views) are written when the game stops.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.audit import Report, audit
from frogpbem.dealing import SeatSpec, create_game, deal_game, join_game, start_game, submit_setup
from frogpbem.errors import FileAccessError, UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.document import write_atomic, writes_held
from frogpbem.games import STRENGTHS, Outcome, bot_move, find_game
from frogpbem.protocol.game import REFEREE, known_secrets, load, replay
from frogpbem.protocol.memory import HeadMemory
from frogpbem.protocol.seen import SeenGames
from frogpbem.protocol.session import Session
from frogpbem.record import game_record, outcome_of, record_html
from frogpbem.referee import apply_moves, request_move
from frogpbem.views import make_view, write_views

PLAYERS = ("Alice", "Bob", "Chloe", "Dmitri", "Emeka", "Fatima")
MAX_RECORDS = 2000


def _key(folder: Path, name: str) -> crypto.PrivateKey:
    path = folder / name
    if path.exists():
        return crypto.load_private_key(path)
    return crypto.generate_key(path, f"{name}@frogpbem.demo")


def players_of(seats: tuple[str, ...]) -> list[str]:
    """The demo's file names for the players' keys, one per seat."""
    return [name.lower() for name in PLAYERS[: len(seats)]]


def play_demo(
    folder: Path, rules: str = "frogfinder", seed: int | None = None,
    echo: Callable[[str], None] | None = None, seats: int | None = None,
    options: dict[str, str] | None = None, moves: int | None = None, bot: str = "strong",
    *, session: Session,
) -> DemoResult:
    """Play and audit one game in ``folder``; return a summary.

    With ``moves``, the bots stop after that many moves and leave the game
    unfinished (a position to look at, or to go on with by hand). ``bot`` is the
    bots' strength (``random``, ``greedy``, ``strong``, ``expert``).
    """
    say = echo or (lambda _line: None)
    ruleset = find_game(rules)
    if bot not in STRENGTHS:
        raise UsageError(f"--bot {bot!r}: give one of {', '.join(STRENGTHS)}")
    opts = ruleset.options(options or {})
    seat_names = ruleset.seats(opts, seats or len(ruleset.seat_order))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise FileAccessError("is a file: give the demo a folder", path=folder) from None
    except OSError as exc:
        raise FileAccessError(f"cannot make this folder: {exc.strerror}", path=folder) from None
    game_path = folder / "game.yaml"
    if game_path.exists():
        raise FileAccessError(f"{game_path} exists already; give the demo an empty folder")
    # the referee's memory and the players' tools' memory, kept here too
    here = Session(session.home, session.state, session.clock)
    here.replays, here.verified = session.replays, session.verified
    here.memory = HeadMemory(folder / ".referee-state")
    here.seen = SeenGames(folder / ".players-memory", session.clock)
    referee = _key(folder, "referee")
    names = players_of(seat_names)
    players = {seat: _key(folder, name) for seat, name in zip(seat_names, names, strict=True)}
    say("keys: " + ", ".join(str(folder / n) for n in ["referee", *names]))
    specs = [SeatSpec(seat, players[seat].public, PLAYERS[i])
             for i, seat in enumerate(seat_names)]
    file = create_game(rules, referee, "Carol (referee)", specs, options or {},
                       created=session.clock.text(), join=not ruleset.players_choose)
    start_game(game_path, file, referee, here)
    teams = ruleset.team_names(opts)
    say(f"created game {file.game} ({ruleset.title}, seats "
        f"{', '.join(seat_names)}{'; teams ' + str(teams) if teams else ''}) in {game_path}")
    for joiner in seat_names:  # each seat adds its own seed (or chooses its own secret)
        if ruleset.players_choose:
            say("  " + submit_setup(game_path, players[joiner], None, here))
        else:
            say("  " + join_game(game_path, players[joiner], here))
    say("  " + deal_game(game_path, referee, here).lines[-1])
    play_out(game_path, referee, players, here, random.Random(seed), bot, moves, say)
    report = audit(game_path, clock=session.clock)
    final = load(game_path, here)
    record_path = folder / "game.pgn"
    write_atomic(record_path, game_record(final).encode())
    page_path = folder / "game.html"
    write_atomic(page_path, record_html(final).encode())
    outcome = outcome_of(final)
    if outcome:
        say(f"game over: {outcome.termination}; {outcome.standing_text()}")
    say(report.text())
    say(f"files: {game_path} (the game), {record_path} (the record), {page_path} (the "
        f"record as a page: open it in a browser), {folder}/game.*.view.yaml (views), keys "
        f"in {folder}")
    return DemoResult(folder, game_path, record_path, len(final.file.log), outcome, report)


def play_out(game_path: Path, referee: crypto.PrivateKey,
             players: Mapping[str, crypto.PrivateKey], session: Session, rng: random.Random,
             bot: str = "strong", moves: int | None = None,
             say: Callable[[str], None] = lambda _line: None) -> None:
    """Bots play a dealt game to its end (or ``moves`` moves), as by email: each move a
    request signed by the seat's key from its own view, applied by the referee's key."""
    memory = session.memory
    game = load(game_path, session, memory)  # read once, then kept in memory
    ruleset = game.ruleset
    with writes_held():  # the files, written once at the end: no record rewrites them
        for _ in range(MAX_RECORDS if moves is None else moves):
            state = replay(game, known_secrets(game, REFEREE, referee)).final
            seat = ruleset.to_move(state)
            if seat is None:
                break
            # The bot sees only its own view, computed with its own key.
            mine = known_secrets(game, seat, players[seat])
            own_state = replay(game, mine).final
            board = make_view(game, own_state, seat).board
            text = bot_move(ruleset, board, seat, rng, bot)
            before = len(game.file.log)
            session.seen.see(game)  # the player's tool checks its copy against what it saw
            request_move(game, players[seat], text)  # the player signs a request into the file
            applied = apply_moves(game, referee, memory=memory, views=False)  # the referee
            for index, line in enumerate(applied.lines):                     # applies it
                say(f"  {before + 1 + index:>3}. {line}")
        write_views(game, replay(game, known_secrets(game, REFEREE, referee)).final, referee)


@frozen
class DemoResult:
    """What the demonstration played, and the audit's verdict."""

    folder: Path
    game: Path
    record: Path
    records: int
    outcome: Outcome | None
    audit: Report

    def to_json(self) -> dict[str, Any]:
        return {"folder": str(self.folder), "game": str(self.game), "records": self.records,
                "outcome": self.outcome.to_json() if self.outcome else None,
                "audit_ok": self.audit.ok, "audit": self.audit.to_json(),
                "record": str(self.record)}
