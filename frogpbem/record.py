"""The game as a PGN-like record: tag pairs, then numbered movetext with results."""

from __future__ import annotations

from typing import Any

from frogpbem.game import Game
from frogpbem.games import Ruleset


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def result_token(game: Game) -> tuple[str, str]:
    """``1-0``/``0-1``/``1/2-1/2`` (two seats) or the standing, and the termination."""
    reveal = game.doc["reveal"]
    if reveal is None:
        return "*", "unterminated"
    outcome = reveal["outcome"]
    standing = outcome["standing"]
    if len(game.seats) == 2 and len(standing) == 2:
        first = game.seats[0]
        ranks = {p["seat"]: p["rank"] for p in standing}
        if len(set(ranks.values())) == 1:
            token = "1/2-1/2"
        else:
            token = "1-0" if ranks[first] == 1 else "0-1"
    else:
        token = " ".join(f"{p['rank']}:{p['seat']}" for p in standing)
    return token, outcome["termination"]


def game_record(game: Game) -> str:
    """The whole game as text."""
    header = game.header
    rules = game.ruleset
    token, termination = result_token(game)
    tags = [
        _tag("Event", f"{rules.title} by email"),
        _tag("Game", game.game_id),
        _tag("Rules", rules.name),
        _tag("Date", header["created"][:10].replace("-", ".")),
    ]
    tags += [_tag(seat.capitalize(), name) for seat, name in game.names.items()]
    tags.append(_tag("Referee", header["referee"]["name"]))
    options = ", ".join(f"{k}={v}" for k, v in game.options.items())
    tags.append(_tag("Options", options))
    tags.append(_tag("Setup", header["setup"]["dealt"]))
    tags.append(_tag("Result", token))
    tags.append(_tag("Termination", termination))
    reveal = game.doc["reveal"]
    if reveal is not None:
        standing = reveal["outcome"]["standing"]
        tags.append(_tag("Standing", ", ".join(
            f"{p['rank']}. {p['seat']} {p['points']}" for p in standing)))
    log = game.doc["log"]
    if log and log[-1]["scores"]:
        scores = log[-1]["scores"]
        tags.append(_tag("Score", ", ".join(f"{s} {p}" for s, p in scores.items())))
    words: list[str] = []
    if len(game.seats) == 2:
        # chess-like: "1. red's move {result} blue's move {result} 2. ..."
        for index, record in enumerate(log):
            if index % 2 == 0:
                words.append(f"{index // 2 + 1}.")
            if record["seat"] != game.seats[index % 2]:
                words.append(f"({record['seat']})")
            words.append(_move_text(rules, record))
    else:
        # more seats, some of them skipped once out: each record numbered and named
        for record in log:
            words.append(f"{record['n']}. {record['seat']} {_move_text(rules, record)}")
    words.append(token)
    return "\n".join(tags) + "\n\n" + _wrap(" ".join(words)) + "\n"


def _move_text(rules: Ruleset[Any, Any], record: dict[str, Any]) -> str:
    comment = rules.comment(record["result"])
    return f"{record['move']} {{{comment}}}" if comment else record["move"]


def _wrap(text: str, width: int = 79) -> str:
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return "\n".join(lines)
