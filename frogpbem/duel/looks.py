"""What a game without a referee looks like: a seat's or the public's typed view, its
pictures and hint, and the game's record.

A seat's view is the ruleset's own ``view(state, {seat})`` of the state its tool knows
(:meth:`~frogpbem.duel.rules.DuelRules.seat_state`: the public state with its own hidden
pieces, opened from its own sealed secret); the public's is ``view(public_state, {})``.
So ``view --json``, the pictures (:mod:`frogpbem.pictures`), ``hint`` and ``record`` show
exactly what they show of a refereed game in the same position, and nothing more.
"""

from __future__ import annotations

from typing import Any

from frogpbem import crypto
from frogpbem.duel.engine import (
    Loaded,
    advance,
    due_seat,
    ending_words,
    own_secret,
    seat_of,
    start,
)
from frogpbem.duel.registry import duel_rules
from frogpbem.duel.rules import DuelRules, Played, Progress
from frogpbem.errors import IllegalMoveError, KeyError_, UsageError
from frogpbem.frozen import frozen
from frogpbem.gamefile.duelfile import DuelFile, DuelHeader
from frogpbem.gamefile.model import JSON
from frogpbem.games import GameView, Outcome, SomeRuleset
from frogpbem.safetext import safe

SETUP_WORDS = "dealt by the two seats from their own seeds, without a referee"
PLACED_WORDS = "placed by each seat itself, without a referee"


def setup_words(header: DuelHeader) -> str:
    """How the game's hidden pieces came to be, in the words of a view or record."""
    return PLACED_WORDS if header.placed is not None else SETUP_WORDS


def walk(file: DuelFile, signed: bool = False) -> list[Progress]:
    """The progress before any message, then after each (the file checked whole before:
    ``signed`` checks every signature again)."""
    progress = start(file.header)
    rules = duel_rules(file.header.rules)
    steps = [progress]
    for message in file.messages:
        progress = advance(progress, message, rules, signed)
        steps.append(progress)
    return steps


def shown_to_all(progress: Progress, rules: DuelRules) -> bool:
    """Whether every hidden piece may be shown to anybody: the game is over and no reveal
    is awaited (as after a refereed game's reveal)."""
    return progress.over and not rules.awaited_reveals(progress)


@frozen
class DuelView:
    """What one seat (``seat``) or the public (``None``) may know after message ``n``."""

    loaded: Loaded
    seat: str | None
    who: str
    """Whose view it is, in words (``white (Alice)``, ``the public``)."""
    state: Any
    """The rules' state it was made from."""
    board: GameView
    """The ruleset's view of that state (what ``viewers`` may see)."""
    viewers: frozenset[str]

    @property
    def progress(self) -> Progress:
        return self.loaded.progress

    @property
    def outcome(self) -> Outcome | None:
        return self.progress.ruleset.outcome(self.state)

    def to_json(self) -> dict[str, JSON]:
        """The view's values, shaped as a refereed view's (``state`` is the ruleset's
        view), with ``referee: null``."""
        progress, header = self.progress, self.loaded.file.header
        return {"frogpbem": 1, "kind": "view", "game": header.game, "rules": header.rules,
                "referee": None, "seat": self.seat, "n": progress.n, "head": progress.head,
                "names": dict(header.names), "setup": setup_words(header),
                "state": self.board.to_json(),
                "moves": [{"n": p.n, "seat": p.seat, "move": p.move, "result": p.result}
                          for p in progress.played],
                "ending": ending_words(self.loaded.file, progress,
                                       duel_rules(header.rules))}


def viewer(loaded: Loaded, key: crypto.PrivateKey | None,
           asked: bool = True) -> tuple[str | None, Any]:
    """The seat of ``key`` (``None``: the public) and the state it knows (``None``: not
    dealt). A key of no seat is refused when ``asked``, else the public's is given."""
    progress = loaded.progress
    rules = duel_rules(loaded.file.header.rules)
    seat = None
    if key is not None:
        try:
            seat = seat_of(loaded.file.header, key.public)
        except KeyError_:
            if asked:
                raise
    if seat is None or key is None:
        return None, rules.public_state(progress)
    secret = own_secret(progress, loaded.file, seat, key)
    return seat, rules.seat_state(progress, secret) if secret is not None else None


def view_of(loaded: Loaded, seat: str | None, state: Any) -> DuelView:
    """The view of ``seat`` (``None``: the public) of ``state``, a dealt one."""
    progress = loaded.progress
    rules = duel_rules(loaded.file.header.rules)
    if shown_to_all(progress, rules):
        viewers = frozenset(progress.seats)
    else:
        viewers = frozenset({seat}) if seat else frozenset()
    names = loaded.file.header.names
    who = f"{seat} ({safe(names[seat])})" if seat else "the public"
    return DuelView(loaded, seat, who, state, progress.ruleset.view(state, viewers), viewers)


def duel_view(loaded: Loaded, key: crypto.PrivateKey | None, asked: bool = True) -> DuelView:
    """What the holder of ``key`` (``None``: the public) may see; raises
    :class:`IllegalMoveError` before the deal (no board yet)."""
    seat, state = viewer(loaded, key, asked)
    if state is None:
        raise IllegalMoveError(f"game {loaded.file.game} is not dealt yet: no board to show "
                               f"(waiting for {waiting(loaded.progress)})", path=loaded.path)
    return view_of(loaded, seat, state)


def waiting(progress: Progress) -> str:
    """Whose step the game waits for before its deal, in words."""
    due = due_seat(progress, duel_rules(progress.header.rules))
    return f"{due} to join" if not progress.joined else f"{due}'s deal step"


def undealt_json(loaded: Loaded) -> dict[str, JSON]:
    """``view --json`` before the deal, as for a refereed game."""
    return {"game": loaded.file.game, "dealt": False, "referee": None,
            "waiting_for": [due_seat(loaded.progress, duel_rules(loaded.file.header.rules))
                            or ""]}


def moves_in_words(progress: Progress) -> list[tuple[int, str]]:
    """Each move played: its message's number and the ruleset's words for it."""
    return [(p.n, _described(progress.ruleset, p)) for p in progress.played]


PENDING = "awaiting the answer"
"""The words of a move whose result its answer has not given yet (Frog Finder)."""


def _described(rules: SomeRuleset, played: Played) -> str:
    if played.result is None:
        return f"{played.seat} played {played.move}: {PENDING}"
    return rules.describe(played.seat, played.move, rules.parse_result(played.result))


def _comment(rules: SomeRuleset, played: Played) -> str:
    return PENDING if played.result is None else \
        rules.comment(rules.parse_result(played.result))


def _last(progress: Progress) -> tuple[str, str] | None:
    played = progress.played
    return (played[-1].seat, played[-1].move) if played else None


def _scene(view: DuelView, hint: JSON | None = None) -> Any:
    from frogpbem.pictures.scene import Scene

    hints = view.progress.ruleset.hints
    heat = hints.heat(hint) if hint is not None and hints is not None else None
    return Scene(view.seat, view.loaded.file.header.names, _last(view.progress), heat or {},
                 hints.labels(hint) if heat and hints is not None else {})


def render_svg(view: DuelView, hint: JSON | None = None) -> str:
    """A view as a standalone SVG picture (with a ``hint``'s heat map)."""
    from frogpbem.pictures.draw import picture

    return picture(view.board, _scene(view, hint)).svg(standalone=True)


def _title(loaded: Loaded) -> str:
    return f"{loaded.progress.ruleset.title} - game {loaded.file.game} (no referee)"


def render_html(view: DuelView, hint: JSON | None = None) -> str:
    """A view as a self-contained page: the picture beside the game in words."""
    from frogpbem.pictures.page import view_page

    n = view.progress.n
    facts = [f"View of: {view.who}", f"After {n} message{'' if n == 1 else 's'}",
             f"Setup: {setup_words(view.loaded.file.header)}"]
    return view_page(view.board, _scene(view, hint), f"{_title(view.loaded)} - view of "
                     f"{view.who}", facts, moves_in_words(view.progress))


def hint_of(view: DuelView) -> JSON:
    """The ruleset's hint for the view's seat: what its own view alone tells it."""
    rules = view.progress.ruleset
    if view.seat is None:
        raise UsageError("a hint is a seat's: give the key of a seat of this game")
    if view.outcome is not None:
        raise UsageError("the game is over: nothing is hidden any more")
    if rules.hints is None:
        raise UsageError(f"{rules.title} gives no hints")
    return rules.hints.hint(view.board, view.seat)


# --- the record ------------------------------------------------------------------------


def _outcome(progress: Progress) -> Outcome | None:
    return progress.ruleset.outcome(progress.state) if progress.state is not None else None


def result_token(loaded: Loaded) -> tuple[str, str]:
    """``1-0``, ``0-1``, ``1/2-1/2`` or ``*``, and the termination in words: a forfeit the
    protocol proved or the notary's timeout, where the rules' state records it as the
    losing seat's resignation, says so."""
    progress = loaded.progress
    outcome = _outcome(progress)
    if outcome is None:
        return "*", "unterminated"
    termination = ending_words(loaded.file, progress, duel_rules(progress.header.rules)) \
        or outcome.termination
    if outcome.is_draw:
        return "1/2-1/2", termination
    ranks = {p.seat: p.rank for p in outcome.standing}
    return ("1-0" if ranks.get(progress.first) == 1 else "0-1"), termination


def record_text(loaded: Loaded) -> str:
    """The whole game as a PGN-like record, as for a refereed game (no referee)."""
    from frogpbem.record import _move_text, _tag, _wrap

    progress, header = loaded.progress, loaded.file.header
    rules = progress.ruleset
    token, termination = result_token(loaded)
    tags = [_tag("Event", f"{rules.title} by email"), _tag("Game", header.game),
            _tag("Rules", rules.name), _tag("Date", header.created[:10].replace("-", "."))]
    tags += [_tag(seat.capitalize(), name) for seat, name in header.names.items()]
    tags += [_tag("Referee", "none (the two seats sign their own messages)"),
             _tag("Options", ", ".join(f"{k}={v}" for k, v in header.options.items())),
             _tag("Setup", setup_words(header)), _tag("Result", token),
             _tag("Termination", termination)]
    outcome = _outcome(progress)
    if outcome is not None:
        tags.append(_tag("Standing", outcome.standing_text()))
    if progress.state is not None:
        tags.append(_tag("Score", ", ".join(f"{s} {p}" for s, p in
                                            rules.scores(progress.state).items())))
    words: list[str] = []
    for index, played in enumerate(progress.played):
        if index % 2 == 0:
            words.append(f"{index // 2 + 1}.")
        if played.seat != progress.seats[index % 2]:
            words.append(f"({played.seat})")
        words.append(_move_text(_comment(rules, played), played.move))
    words.append(token)
    return "\n".join(tags) + "\n\n" + _wrap(" ".join(words)) + "\n"


def record_json(loaded: Loaded) -> dict[str, JSON]:
    """The record as data: tags, then every move with its result and comment."""
    progress = loaded.progress
    rules = progress.ruleset
    token, termination = result_token(loaded)
    outcome = _outcome(progress)
    return {"game": loaded.file.game, "rules": rules.name, "referee": None, "result": token,
            "termination": termination,
            "standing": [p.to_json() for p in outcome.standing] if outcome else None,
            "moves": [{"n": p.n, "seat": p.seat, "move": p.move, "result": p.result,
                       "comment": _comment(rules, p)}
                      for p in progress.played]}


def record_html(loaded: Loaded) -> str:
    """The game as one page that steps through its moves on the public board (every frame
    is the public view after a message); once every hidden piece may be shown, a last
    frame shows them."""
    from frogpbem.pictures.page import Frame, record_page

    rules = duel_rules(loaded.file.header.rules)
    ruleset = loaded.progress.ruleset
    nobody: frozenset[str] = frozenset()
    frames: list[Frame] = []
    played = 0
    for step in walk(loaded.file):
        state = rules.public_state(step)
        if state is None:
            continue
        board = ruleset.view(state, nobody)
        if not frames:
            frames.append(Frame(board, f"the start: the board dealt (message {step.n})", None))
        for move in step.played[played:]:
            words = _described(ruleset, move)
            frames.append(Frame(board, f"{move.n}. {words}", (move.seat, move.move)))
        played = len(step.played)
    if not frames:
        raise IllegalMoveError(f"game {loaded.file.game} is not dealt yet: no board to draw "
                               f"(waiting for {waiting(loaded.progress)})", path=loaded.path)
    final = loaded.progress
    if shown_to_all(final, rules):
        everything = ruleset.view(rules.public_state(final), frozenset(final.seats))
        if everything.to_json() != frames[-1].board.to_json():
            frames.append(Frame(everything, "the reveal: every hidden piece shown",
                                frames[-1].last))
    header = loaded.file.header
    token, termination = result_token(loaded)
    players = ", ".join(f"{seat}: {name}" for seat, name in header.names.items())
    facts = [f"Players: {players}; no referee",
             f"Started {header.created[:10]}; setup {setup_words(header)}",
             f"Result: {token} ({termination})"]
    return record_page(_title(loaded), facts, header.names, frames)


__all__ = ["DuelView", "duel_view", "hint_of", "moves_in_words", "record_html",
           "record_json", "record_text", "render_html", "render_svg", "undealt_json",
           "view_of", "viewer", "walk"]
