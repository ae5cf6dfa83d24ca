"""Views: what one seat, or the public, may know; signed, written, rendered.

A view is derived by the ruleset's ``view`` function from the state and the
set of seats whose hidden pieces it may show, and by nothing else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.game import REFEREE, Game, known_secrets, replay, revealed_secrets
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import dump_game, write_atomic
from frogpbem.notes import read_notes

PUBLIC = "public"


def viewers_of(game: Game, seat: str | None) -> frozenset[str]:
    """The seats whose hidden pieces ``seat``'s view shows (none for the public)."""
    if game.doc["reveal"] is not None:
        return frozenset(game.seats)  # the game is over and everything is revealed
    if seat is None:
        return frozenset()
    return frozenset(
        s for s in game.seats if seat in game.ruleset.secret_readers(game.options, s)
    )


def build_view(game: Game, state: Any, seat: str | None, viewers: frozenset[str]) -> dict[str, Any]:
    """The unsigned view document of ``seat`` (``None``: public)."""
    return {
        "frogpbem": 1,
        "kind": "view",
        "game": game.game_id,
        "rules": game.ruleset.name,
        "seat": seat,
        "n": len(game.doc["log"]),
        "head": game.head,
        "names": game.names,
        "state": game.ruleset.view(state, viewers),
        "moves": [
            {"n": r["n"], "seat": r["seat"], "move": r["move"], "result": r["result"]}
            for r in game.doc["log"]
        ],
        "signature": None,
    }


def view_for(game: Game, key: crypto.PrivateKey | None) -> tuple[dict[str, Any], str]:
    """What the holder of ``key`` (``None``: the public) may see, and who that is in words.

    A seat sees its own (and its teammates') hidden pieces and notes; the
    referee sees everything; after the reveal everybody does.
    """
    role = game.role(key) if key is not None else None
    if game.doc["reveal"] is not None:
        secrets = revealed_secrets(game)
    elif role is None or key is None:
        secrets = dict.fromkeys(game.seats)
    else:
        secrets = known_secrets(game, role, key)
    state = replay(game, secrets).final
    seat = None if role in (None, REFEREE) else role
    viewers = frozenset(game.seats) if role == REFEREE else viewers_of(game, seat)
    doc = build_view(game, state, seat, viewers)
    if seat is not None and key is not None:
        doc["notes"] = read_notes(game, seat, key)
    if role == REFEREE:
        return doc, "the referee (every frog)"
    return doc, f"{seat} ({game.names[seat]})" if seat else "the public"


def view_path(game_path: Path, seat: str | None) -> Path:
    """``game.red.view.yaml`` beside ``game.yaml``."""
    stem = game_path.name.removesuffix(".yaml").removesuffix(".yml")
    return game_path.with_name(f"{stem}.{seat or PUBLIC}.view.yaml")


def write_views(game: Game, state: Any, key: crypto.PrivateKey) -> list[Path]:
    """Sign and write every seat's view and the public view beside the game file."""
    written = []
    for seat in (*game.seats, None):
        view = build_view(game, state, seat, viewers_of(game, seat))
        view["signature"] = crypto.sign_element(key, "view", view)
        path = view_path(game.path, seat)
        write_atomic(path, dump_game(view), durable=False)
        written.append(path)
    return written


def render(game: Game, view: dict[str, Any], who: str) -> str:
    """A view as text: heading, points, whose turn, the board, the moves."""
    rules = game.ruleset
    state = view["state"]
    names = view["names"]

    def label(seat: str) -> str:
        return f"{seat} ({names[seat]})" if names.get(seat) else seat

    lines = [
        f"{rules.title} - game {view['game']} - after record {view['n']}",
        f"Referee: {game.header['referee']['name']} "
        f"({chain.referee_key(game.doc).fingerprint})",
        f"View of: {who}",
    ]
    if state["points"]:
        lines.append("Points: " + ", ".join(f"{label(s)} {p}" for s, p in state["points"].items()))
    outcome = state.get("outcome")
    if outcome:
        standing = ", ".join(
            f"{p['rank']}. {label(p['seat'])} {p['points']}" for p in outcome["standing"]
        )
        lines.append(f"Game over: {outcome['termination']}. Standing: {standing}")
    else:
        lines.append(f"To move: {label(state['to_move'])}")
    lines += ["", rules.render(state), ""]
    if view["moves"]:
        lines.append("Moves:")
        lines += [
            f"{m['n']:>4}. {rules.describe(m['seat'], m['move'], m['result'])}"
            for m in view["moves"]
        ]
    if view.get("notes"):
        lines += ["", "Team notes:"]
        lines += [f"  after record {n['n']}, {n['seat']}: {n['text']}" for n in view["notes"]]
    pending = game.doc["requests"]
    if pending:
        lines.append("")
        lines += [f"Pending request: {r['seat']} {r['move']}" for r in pending]
    return "\n".join(lines)
