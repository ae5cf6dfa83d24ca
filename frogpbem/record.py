"""The game as a PGN-like record: tag pairs, then numbered movetext with results."""

from __future__ import annotations

from typing import Any

from frogpbem.games import GameView, Outcome
from frogpbem.protocol.game import Game, termination_words
from frogpbem.safetext import safe


def _tag(name: str, value: str) -> str:
    escaped = safe(value.replace("\\", "\\\\").replace('"', '\\"'))  # one line, no controls
    return f'[{name} "{escaped}"]'


def outcome_of(game: Game) -> Outcome | None:
    """The outcome the reveal states, once the game is over."""
    reveal = game.file.reveal
    return Outcome.from_json(reveal.outcome) if reveal is not None else None


def result_token(game: Game) -> tuple[str, str]:
    """``1-0``/``0-1``/``1/2-1/2`` (two seats) or the standing, and the termination."""
    outcome = outcome_of(game)
    if outcome is None:
        return "*", "unterminated"
    if len(game.seats) == 2 and len(outcome.standing) == 2:
        ranks = {p.seat: p.rank for p in outcome.standing}
        if outcome.is_draw:
            token = "1/2-1/2"
        else:
            token = "1-0" if ranks.get(game.seats[0]) == 1 else "0-1"
    else:
        token = " ".join(f"{p.rank}:{p.seat}" for p in outcome.standing)
    return token, termination_words(game, outcome.termination)


def game_record(game: Game) -> str:
    """The whole game as text."""
    header = game.header
    rules = game.ruleset
    token, termination = result_token(game)
    tags = [
        _tag("Event", f"{rules.title} by email"),
        _tag("Game", game.game_id),
        _tag("Rules", rules.name),
        _tag("Date", header.created[:10].replace("-", ".")),
    ]
    tags += [_tag(seat.capitalize(), name) for seat, name in game.names.items()]
    tags.append(_tag("Referee", header.referee.name))
    options = ", ".join(f"{k}={v}" for k, v in game.options.items())
    tags.append(_tag("Options", options))
    tags.append(_tag("Setup", header.setup.dealt))
    tags.append(_tag("Result", token))
    tags.append(_tag("Termination", termination))
    outcome = outcome_of(game)
    if outcome is not None:
        tags.append(_tag("Standing", outcome.standing_text()))
    log = game.file.log
    if log and log[-1].scores:
        tags.append(_tag("Score", ", ".join(f"{s} {p}" for s, p in log[-1].scores.items())))
    words: list[str] = []
    pairs = list(zip(log, game.results, strict=True))
    if len(game.seats) == 2:
        # chess-like: "1. red's move {result} blue's move {result} 2. ..."
        for index, (record, result) in enumerate(pairs):
            if index % 2 == 0:
                words.append(f"{index // 2 + 1}.")
            if record.seat != game.seats[index % 2]:
                words.append(f"({record.seat})")
            words.append(_move_text(rules.comment_record(result), record.move))
    else:
        # more seats, some of them skipped once out: each record numbered and named
        for record, result in pairs:
            words.append(f"{record.n}. {record.seat} "
                         f"{_move_text(rules.comment_record(result), record.move)}")
    words.append(token)
    return "\n".join(tags) + "\n\n" + _wrap(" ".join(words)) + "\n"


def record_json(game: Game) -> dict[str, object]:
    """The record as data: tags, then every move with its result and comment."""
    token, termination = result_token(game)
    outcome = outcome_of(game)
    return {
        "game": game.game_id, "rules": game.ruleset.name, "result": token,
        "termination": termination,
        "standing": [p.to_json() for p in outcome.standing] if outcome else None,
        "moves": [{"n": r.n, "seat": r.seat, "move": r.move, "result": r.result,
                   "comment": game.ruleset.comment_record(result)}
                  for r, result in zip(game.file.log, game.results, strict=True)],
    }


def _move_text(comment: str, move: str) -> str:
    return f"{move} {{{comment}}}" if comment else move


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


def record_html(game: Game) -> str:
    """The game as one page that steps through its records on the public board.

    Every frame is the public view after a record (what anybody may know
    then); after the reveal, a last frame shows every hidden piece.
    """
    from frogpbem.pictures.page import Frame, record_page
    from frogpbem.protocol.game import known_secrets, start_state, states
    from frogpbem.views import setup_words

    rules = game.ruleset
    nobody: frozenset[str] = frozenset()
    secrets = known_secrets(game, None, None)
    state = start_state(game, secrets)

    def board(state: Any, viewers: frozenset[str]) -> GameView:
        """The board of ``state``, its outcome told as players read it (a loss on time)."""
        outcome = rules.outcome(state)
        drawn: GameView = rules.view(state, viewers)
        return drawn if outcome is None else \
            drawn.retold(termination_words(game, outcome.termination))

    frames = [Frame(board(state, nobody), "the start: nothing played yet", None)]
    for (record, state), result in zip(states(game, secrets), game.results, strict=True):
        words = rules.describe_record(record.seat, record.move, result)
        frames.append(Frame(board(state, nobody), f"{record.n}. {words}",
                            (record.seat, record.move)))
    if game.file.reveal is not None:
        frames.append(Frame(board(state, frozenset(game.seats)),
                            "the reveal: every hidden piece shown", frames[-1].last))
    token, termination = result_token(game)
    players = ", ".join(f"{seat}: {name}" for seat, name in game.names.items())
    facts = [f"Players: {players}; referee: {game.header.referee.name}",
             f"Started {game.header.created[:10]}; setup {setup_words(game)}",
             f"Result: {token} ({termination})"]
    title = f"{rules.title} - game {game.game_id}"
    return record_page(title, facts, game.names, frames)
