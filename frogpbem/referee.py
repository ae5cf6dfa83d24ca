"""The referee's and the players' moves: requests, records, automatic moves, the reveal."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.errors import (
    FrogPbemError,
    StaleCopyError,
    UsageError,
)
from frogpbem.game import (
    REFEREE,
    Game,
    HeadMemory,
    default_state_dir,
    known_secrets,
    load,
    load_copy,
    now_text,
    open_move,
    open_secret,
    referee_seed,
    replay,
    seal_move,
)
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import (
    dump_game,
    locked,
    write_atomic,
)
from frogpbem.games import JSON
from frogpbem.views import write_views


@dataclass
class Applied:
    """What the referee did to a game in one call."""

    lines: list[str] = field(default_factory=list)
    """Each applied record in words (``red shoots G9: 2``)."""
    outcome: JSON | None = None
    """The outcome, if the game ended."""
    views: list[Path] = field(default_factory=list)
    """View files written."""


def _append_record(
    game: Game, state: Any, seat: str, text: str, request: dict[str, Any] | None,
    key: crypto.PrivateKey, at: str,
) -> tuple[Any, str]:
    rules = game.ruleset
    n = len(game.doc["log"]) + 1
    sealed = chain.sealed_parts(request) if request is not None else None
    if sealed is not None:  # a sealed request: open it, with the referee's key
        text = open_move(game, {"n": n, "seat": seat, **sealed}, key)["move"]
    move = rules.parse_move(text)
    state, result = rules.play(state, seat, move)
    if sealed is None and rules.is_sealed(text):
        sealed = seal_move(game, seat, n, rules.format_move(move), key.public)
    record: dict[str, Any] = {
        "n": n,
        "prev": game.head,
        "seat": seat,
        "move": rules.public_move(move),
        "result": result,
        "scores": rules.scores(state),
        "at": at,
    }
    if sealed is not None:
        record.update(sealed)
    if request is not None:
        record["request"] = request["signature"]
    record["signature"] = crypto.sign_element(key, "record", record)
    game.doc["log"].append(record)
    game.head = chain.record_hash(record)
    return state, rules.describe(seat, record["move"], result)


def _reveal(game: Game, key: crypto.PrivateKey, outcome: JSON, at: str) -> None:
    revealed = {seat: open_secret(game, seat, key) for seat in game.setup["sealed"]}
    reveal: dict[str, Any] = {"prev": game.head, "secrets": revealed, "outcome": outcome,
                              "seed": referee_seed(game, key), "at": at}
    moves = {str(r["n"]): open_move(game, r, key) for r in game.doc["log"] if "commitment" in r}
    if moves:
        reveal["sealed_moves"] = moves
    reveal["signature"] = crypto.sign_element(key, "reveal", reveal)
    game.doc["reveal"] = reveal


def take_requests(game: Game, other_path: Path) -> int:
    """Copy the pending requests and new team notes of a player's returned copy into ``game``.

    Returns how many requests were taken.
    """
    other = load_copy(game, other_path)
    present = {r["signature"] for r in game.doc["requests"]}
    fresh = [r for r in other.doc["requests"] if r["signature"] not in present]
    game.doc["requests"].extend(fresh)
    notes = game.doc.setdefault("notes", [])
    known = {note["signature"] for note in notes}
    notes.extend(n for n in other.doc.get("notes", []) if n["signature"] not in known)
    return len(fresh)


def move(
    path: Path,
    key: crypto.PrivateKey,
    text: str | None = None,
    seat: str | None = None,
    take_from: Path | None = None,
    discard_requests: bool = False,
    state_dir: Path | None = None,
    at: str | None = None,
) -> Applied | str:
    """The ``move`` command: the referee applies, a seat signs a request.

    Returns what the referee applied, or the player's confirmation line.
    """
    memory = HeadMemory(state_dir or default_state_dir())
    with locked(path):
        game = load(path, memory)
        role = game.role(key)
        if role != REFEREE:
            if text is None:
                raise UsageError(f"give the move to sign for {role}, e.g. \"shoot G9\"")
            if seat not in (None, role) or take_from or discard_requests:
                raise UsageError(f"key {key.public.fingerprint} holds seat {role}: "
                                 "--seat, --from and --discard-requests are the referee's")
            return _request(game, role, key, text)
        return _apply(game, key, text, seat, take_from, discard_requests, memory,
                      at or now_text())


def _apply(
    game: Game, key: crypto.PrivateKey, text: str | None, seat: str | None,
    take_from: Path | None, discard_requests: bool, memory: HeadMemory, at: str,
) -> Applied:
    path = game.path
    memory.check(game)
    state = replay(game, known_secrets(game, REFEREE, key), key).final
    applied = Applied()
    if take_from is not None:
        take_requests(game, take_from)
    if discard_requests:
        game.doc["requests"] = []
    if text is not None:
        if game.doc["requests"]:
            raise UsageError(
                f"{path} has {len(game.doc['requests'])} pending request(s): apply them first "
                f"(frogpbem move {path.name}) or drop them with --discard-requests"
            )
        actor = seat or game.ruleset.to_move(state)
        if actor is None:
            actor = game.seats[0]  # the game is over: play() says so
        if actor not in game.seats:
            raise UsageError(f"{actor!r} is not a seat of game {game.game_id}")
        state, line = _append_record(game, state, actor, text, None, key, at)
        applied.lines.append(line)
    else:
        pending = game.doc["requests"]
        if not pending and not discard_requests:
            raise UsageError(f"{path}: no move given and no pending requests to apply")
        for index, request in enumerate(pending):
            where = f"pending request {index + 1} ({request['seat']} {request['move']!r})"
            expected_n = len(game.doc["log"]) + 1
            if request["n"] != expected_n or request["head"] != game.head:
                raise StaleCopyError(
                    f"{path}: {where} was signed for record {request['n']} at another "
                    f"point of the game (now record {expected_n}): stale or replayed; "
                    "drop it with --discard-requests"
                )
            try:
                state, line = _append_record(
                    game, state, request["seat"], request["move"], request, key, at,
                )
            except FrogPbemError as exc:
                raise type(exc)(f"{path}: {where}: {exc}") from None
            applied.lines.append(line)
    game.doc["requests"] = []
    state = automatic_moves(game, state, key, at, applied.lines)
    outcome = game.ruleset.outcome(state)
    if outcome is not None and game.doc["reveal"] is None:
        applied.outcome = outcome.to_json()
        _reveal(game, key, applied.outcome, at)
    write_atomic(path, dump_game(game.doc))
    memory.remember(game)
    applied.views = write_views(game, state, key)
    return applied


def automatic_moves(game: Game, state: Any, key: crypto.PrivateKey, at: str,
                     lines: list[str]) -> Any:
    """Record the moves the rules make by themselves (a pass for a seat with no legal move)."""
    rules = game.ruleset
    while (auto := rules.automatic(state)) is not None:
        seat = rules.to_move(state)
        assert seat is not None  # the rules only force a move on a seat to move
        state, line = _append_record(game, state, seat, auto, None, key, at)
        lines.append(line)
    return state


def _request(game: Game, seat: str, key: crypto.PrivateKey, text: str) -> str:
    """Sign a move request for ``seat`` and add it to the game file's requests."""
    rules = game.ruleset
    state = replay(game, known_secrets(game, seat, key)).final
    parsed = rules.parse_move(text)
    rules.check(state, seat, parsed)
    canonical = rules.format_move(parsed)
    n = len(game.doc["log"]) + 1
    sealed = (seal_move(game, seat, n, canonical, chain.referee_key(game.doc))
              if rules.is_sealed(canonical) else None)
    public = rules.public_move(parsed)
    for request in game.doc["requests"]:
        if request["seat"] == seat and request["n"] == n and request["head"] == game.head:
            raise UsageError(
                f"{game.path}: {seat} has already asked for {request['move']!r} at record {n}"
            )
    element: dict[str, Any] = chain.request_element(game.game_id, n, game.head, seat, public,
                                                    sealed)
    element["signature"] = crypto.sign_element(key, "request", element)
    game.doc["requests"].append(element)
    write_atomic(game.path, dump_game(game.doc))
    shown = canonical + (" (sealed: only you and the referee can read it)" if sealed else "")
    return f"{seat} asks: {shown} (for record {n}); send {game.path.name} to the referee"
