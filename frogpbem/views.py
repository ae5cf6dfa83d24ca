"""Views: what one seat, or the public, may know; signed, written, rendered.

A view is derived by the ruleset's ``view`` function from the state and the
set of seats whose hidden pieces it may show, and by nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from frogpbem import crypto
from frogpbem.board import text_legend
from frogpbem.errors import (
    FileAccessError,
    FrogPbemError,
    GameFileError,
    KeyError_,
    SignatureError,
)
from frogpbem.frozen import cached, frozen
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.document import dump_yaml, write_atomic
from frogpbem.gamefile.model import JSON, ViewFile
from frogpbem.games import GameView, Outcome, Paint, SomeRuleset, find_game
from frogpbem.notes import NoteText, read_notes
from frogpbem.protocol.game import (
    REFEREE,
    Game,
    clock_of,
    clock_words,
    known_secrets,
    replay,
    termination_words,
)
from frogpbem.protocol.seen import SeenGames
from frogpbem.safetext import safe

if TYPE_CHECKING:
    from frogpbem.pictures.scene import Scene

PUBLIC = "public"


@frozen
class View:
    """What one seat (``seat``), the referee or the public may know after record ``n``."""

    game: Game
    role: str | None
    """Whose it is: a seat, ``referee``, or ``None`` for the public."""
    seat: str | None
    """The seat it is for; ``None`` for the public and the referee."""
    who: str
    """Whose view it is, in words (``red (Alice)``, ``the public``)."""
    state: Any
    """The replayed state it was made from."""
    board: GameView
    """The ruleset's view of that state (what ``viewers`` may see)."""
    viewers: frozenset[str]
    """The seats whose hidden pieces it shows."""
    notes: tuple[NoteText, ...] | None = None
    """The team notes its seat can read (``None``: not read, as in written view files)."""
    signature: str | None = None

    @property
    def outcome(self) -> Outcome | None:
        return self.game.ruleset.outcome(self.state)

    @cached
    def board_json(self) -> dict[str, JSON]:
        """The board as the view file holds it (its ``state``), made once."""
        return self.board.to_json()

    def to_json(self, moves: bool = True) -> dict[str, Any]:
        """The view file's values (``moves`` left ``None`` when not ``moves``: the callers
        that write or sign a view take them from :attr:`GameFile.view_moves`)."""
        game = self.game
        data: dict[str, Any] = {
            "frogpbem": 1,
            "kind": "view",
            "game": game.game_id,
            "rules": game.ruleset.name,
            "seat": self.seat,
            "n": len(game.file.log),
            "head": game.head,
            "names": game.names,
            "setup": setup_words(game),
            "state": self.board_json,
            "moves": [record.view_entry for record in game.file.log] if moves else None,
            "signature": self.signature,
        }
        if self.notes is not None:
            data.update(notes=[note.to_json() for note in self.notes])
        return data

    def dumped(self, shared: Shared | None = None) -> bytes:
        """The view file's bytes: ``dump_yaml(self.to_json())``, with each record's entry
        made once (a view lists every record, and a long game has many), and the members
        of the board in ``shared`` taken from there."""
        lines: list[str] = []
        for name, value in self.to_json(moves=False).items():
            if name == "moves":
                if self.game.file.log:
                    lines += ["moves:", self.game.file.view_moves[0]]
                else:
                    lines.append("moves: []")
            elif name == "state" and shared and isinstance(value, dict) and value:
                lines.append("state:")
                for member, part in value.items():
                    lines += shared[member][0] if member in shared else \
                        strictyaml.member(member, part, "  ")
            else:
                lines += strictyaml.entry(name, value)
        return ("\n".join(lines) + "\n").encode("utf-8")

    def signed(self, key: crypto.PrivateKey, shared: Shared | None = None) -> View:
        """The view signed: its list of records from each record's canonical entry, made
        once (a referee signs a view for every seat at every move), and the members of
        the board in ``shared`` taken from there."""
        data = self.to_json(moves=False)
        del data["moves"]
        encoded = {"moves": self.game.file.view_moves[1]}
        board = self.board_json  # what to_json gives as "state"
        if shared and isinstance(board, dict) and all(name.isascii() for name in board):
            del data["state"]
            encoded["state"] = crypto.canonical_members(
                {name: part for name, part in board.items() if name not in shared},
                {name: shared[name][1] for name in board if name in shared})
        return replace(self, signature=crypto.sign_element(key, "view", data, encoded))


def viewers_of(game: Game, role: str | None) -> frozenset[str]:
    """The seats whose hidden pieces ``role``'s view shows (none for the public)."""
    return frozenset(s for s in game.seats if game.may_read(role, s))


def make_view(game: Game, state: Any, role: str | None,
              notes: tuple[NoteText, ...] | None = None) -> View:
    """The view of ``role`` (a seat, the referee, ``None``: the public) of ``state``."""
    viewers = viewers_of(game, role)
    seat = None if role in (None, REFEREE) else role
    if role == REFEREE:
        who = "the referee (everything)"
    elif seat is not None:
        who = f"{seat} ({safe(game.names[seat])})"
    else:
        who = "the public"
    return View(game, role, seat, who, state, game.ruleset.view(state, viewers), viewers, notes)


def view_for(game: Game, key: crypto.PrivateKey | None, asked: bool = True) -> View:
    """What the holder of ``key`` (``None``: the public) may see.

    A seat sees its own (and its teammates') hidden pieces and notes; the
    referee sees everything; after the reveal everybody does. A key that is
    not part of the game is refused when ``asked`` for, else the public view
    is shown.
    """
    role = None
    if key is not None:
        try:
            role = game.role(key)
        except KeyError_:
            if asked:
                raise
            key = None
    state = replay(game, known_secrets(game, role, key), keeper=key).final
    notes = tuple(read_notes(game, role, key)) if role not in (None, REFEREE) and key else None
    return make_view(game, state, role, notes)


def view_path(game_path: Path, seat: str | None) -> Path:
    """``game.red.view.yaml`` beside ``game.yaml``."""
    stem = game_path.name.removesuffix(".yaml").removesuffix(".yml")
    return game_path.with_name(f"{stem}.{seat or PUBLIC}.view.yaml")


Shared = dict[str, tuple[list[str], bytes]]
"""Members of the board that every view written at one move has alike (the public part of
the position), each with its lines and its canonical JSON, made once for all the views."""


def shared_members(views: list[View]) -> Shared:
    """The members of the board equal in every one of ``views``, made once."""
    boards = [view.board_json for view in views]
    if not boards or not all(isinstance(board, dict) for board in boards):
        return {}
    return {name: (strictyaml.member(name, part, "  "), crypto.canonical_json(part))
            for name, part in boards[0].items()
            if all(name in board and board[name] == part for board in boards[1:])}


def write_views(game: Game, state: Any, key: crypto.PrivateKey) -> list[Path]:
    """Sign and write every seat's view and the public view beside the game file."""
    written = []
    views = [make_view(game, state, seat) for seat in (*game.seats, None)]
    shared = shared_members(views)
    for view in views:
        path = view_path(game.path, view.seat)
        # a seat's view holds its hidden pieces: readable by its owner only
        try:
            write_atomic(path, view.signed(key, shared).dumped(shared), durable=False,
                         private=view.seat is not None)
        except FileAccessError as exc:  # the game is written already: do not apply it again
            raise FileAccessError(f"{exc.message}; {game.path.name} itself is saved and what "
                                  "was done counts: only the views are missing", path=path
                                  ) from None
        written.append(path)
    return written


def render_json(view: View) -> str:
    """The view's values, and its clock (:func:`~frogpbem.protocol.game.clock_of`: not
    part of the signed view file, which the deadline's words would date)."""
    clock = clock_of(view.game, view.state)
    return json.dumps({**view.to_json(), "clock": clock.to_json() if clock else None}, indent=2)


def render_yaml(view: View) -> str:
    return dump_yaml(view.to_json()).decode()


def scene_of(view: View, hint: Any = None) -> Scene:
    """What a picture of ``view`` shows besides the board: whose, the names, the last move,
    while the game runs under a deadline or a pause its clock in words (and a ``hint``'s
    heat map, if one is given)."""
    from frogpbem.pictures.scene import Scene

    game = view.game
    log = game.file.log
    hints = game.ruleset.hints
    heat = hints.heat(hint) if hint is not None and hints is not None else None
    running = view.outcome is None and (game.header.deadline is not None
                                        or game.paused is not None)
    return Scene(view.seat, game.names, (log[-1].seat, log[-1].move) if log else None,
                 heat or {}, hints.labels(hint) if heat and hints is not None else {},
                 clock_words(game, view.state) if running else "")


def pictured(view: View) -> GameView:
    """The board a picture of ``view`` draws: the view's, its outcome told as players read
    it (:func:`~frogpbem.protocol.game.termination_words`: a loss on time)."""
    outcome = view.outcome
    if outcome is None:
        return view.board
    return view.board.retold(termination_words(view.game, outcome.termination))


def render_svg(view: View, hint: Any = None) -> str:
    """A view as a standalone SVG picture of its board (with a ``hint``'s heat map)."""
    from frogpbem.pictures.draw import picture

    return picture(pictured(view), scene_of(view, hint)).svg(standalone=True)


def render_html(view: View, hint: Any = None) -> str:
    """A view as a self-contained page: the picture beside the game in words."""
    from frogpbem.pictures.page import view_page

    game = view.game
    rules = game.ruleset
    moves = [(r.n, rules.describe_record(r.seat, r.move, result))
             for r, result in zip(game.file.log, game.results, strict=True)]
    facts = [f"View of: {view.who}", _after(len(game.file.log)), f"Setup: {setup_words(game)}"]
    clock = clock_words(game, view.state)
    if clock:
        facts.append(f"Clock: {clock}")
    return view_page(pictured(view), scene_of(view, hint),
                     f"{rules.title} - game {game.game_id} - view of {view.who}", facts, moves)


def render_letter(view: View, text: str) -> str:
    """A mail's HTML part: the picture of ``view`` above the mail's ``text``."""
    from frogpbem.pictures.page import letter_page

    game = view.game
    return letter_page(pictured(view), scene_of(view),
                       f"{game.ruleset.title} - game {game.game_id} - view of {view.who}", text)


def render_text(view: View, colour: IO[str] | None = None) -> str:
    """A view as text: heading, points, whose turn, the board, the moves.

    With ``colour`` (the terminal it is for), the board's squares are in colour.
    """
    game = view.game
    rules = game.ruleset
    names = game.names
    paint = None
    if colour is not None:
        from frogpbem.pictures.terminal import painter

        paint = painter(view.board, scene_of(view).last, colour)

    def label(seat: str) -> str:
        return f"{seat} ({safe(names[seat])})" if names.get(seat) else seat

    records = len(game.file.log)
    lines = [
        f"{rules.title} - game {game.game_id} - after {records} record"
        f"{'' if records == 1 else 's'}",
        *text_legend([f"Referee: {safe(game.header.referee.name)}",
                      f"({game.header.referee.public_key.fingerprint})"], " ", indent="",
                     hang="  "),
        f"View of: {view.who}",
        *text_legend(f"Setup: {setup_words(game)}".split(" "), " ", indent="", hang="  "),
    ]
    points = rules.scores(view.state)
    if points:
        scores = [f"{label(s)} {p}" for s, p in points.items()]
        lines += text_legend([f"Points: {scores[0]}", *scores[1:]], ", ", indent="",
                             hang="  ")
    outcome = view.outcome
    if outcome:
        places = [f"{p.rank}. {label(p.seat)} {p.points}" for p in outcome.standing]
        lines += text_legend([f"Game over: {termination_words(game, outcome.termination)}. "
                              f"Standing: {places[0]}", *places[1:]], ", ", indent="",
                             hang="  ")
    else:
        lines.append(f"To move: {label(rules.to_move(view.state) or '')}")
    pause = game.paused
    if pause is not None:
        lines.append(f"Paused since {pause.at} by the referee: no move and no deadline "
                     "until it resumes")
    elif outcome is None and game.header.deadline is not None:
        lines.append(f"Clock: {clock_words(game, view.state)}")
    lines += ["", board_text(rules, view.board, view.viewers, paint), ""]
    if game.file.log:
        lines.append("Moves:")
        lines += [f"{r.n:>4}. {rules.describe_record(r.seat, r.move, result)}"
                  for r, result in zip(game.file.log, game.results, strict=True)]
    if view.notes:
        lines += ["", "Team notes:"]
        lines += [f"  after record {n.n}, {n.seat}: {safe(n.text)}" for n in view.notes]
    if game.file.requests:
        lines.append("")
        lines += [f"Pending request: {r.seat} {safe(r.move)}" for r in game.file.requests]
    return "\n".join(lines)


RENDERERS: dict[str, Callable[[View], str]] = {
    "text": render_text, "json": render_json, "yaml": render_yaml, "svg": render_svg,
    "html": render_html,
}
"""Each ``--format`` of a view, by name."""


def board_text(rules: SomeRuleset, board: GameView, viewers: frozenset[str],
               paint: Paint | None) -> str:
    """The ruleset's text board; ``paint`` is passed only when there is one, so a
    ruleset written before colour came works unchanged."""
    if paint is None:
        return rules.render(board, viewers)
    return rules.render(board, viewers, paint)


def setup_words(game: Game) -> str:
    """How the setup came about, as a seat should be told it."""
    setup = game.header.setup
    if setup.dealt == "chosen":
        return "chosen by the referee (a set position, not dealt)"
    if setup.dealt == "players":
        return "chosen by each seat itself, sealed to it and the referee"
    if setup.fairness is None:
        return ("dealt by the referee with no committed seed: nothing shows that the deal "
                "was random")
    joiners = setup.fairness.joiners
    if set(joiners) == set(game.seats):
        return "dealt fairly from the referee's committed seed and a seed of every seat"
    if joiners:
        return (f"dealt from the referee's committed seed and the seeds of "
                f"{', '.join(joiners)} only")
    return "dealt by the referee alone (from its committed seed; the seats added none)"


@frozen
class ViewCheck:
    """What stands behind a mailed view file."""

    verified: bool
    """Whether its signature was checked against the referee's key of a copy seen here."""
    words: str
    """The same, in words, as the view shows it."""


def check_view_file(view: ViewFile, seen: SeenGames) -> ViewCheck:
    """What stands behind a mailed view file; raises :class:`SignatureError` if its
    signature is not the referee's.

    A view file names no key; the referee's key comes from the copy of the
    game seen here before. Without one, the view is shown as unverified.
    """
    known = seen.latest(view.game)
    if known is None:
        check = ViewCheck(False, f"NOT VERIFIED: this tool has not seen game {view.game}; "
                                 "open the game file itself to check it")
    else:
        copy, history = known
        try:
            view.verify(copy.header.referee.public_key)
        except FrogPbemError:
            raise SignatureError("invalid signature by the referee of this game",
                                 element="view") from None
        ahead = view.n > history.records
        check = ViewCheck(True, f"signed by the referee "
                                f"({copy.header.referee.public_key.fingerprint})"
                                + ("; newer than the copies seen here" if ahead else ""))
    return check


def show_view_file(view: ViewFile, seen: SeenGames, fmt: str = "text",
                   colour: IO[str] | None = None,
                   warn: Callable[[str], None] = lambda words: None) -> str:
    """A mailed view file as text (or ``svg``, ``html``), its signature checked if this
    tool has seen the game (:func:`check_view_file`; an SVG picture has no room to say
    so: ``warn`` is told when the view is not verified)."""
    from frogpbem.pictures.scene import Scene

    rules = find_game(view.rules)
    check = check_view_file(view, seen)
    seat = view.seat
    names = view.names
    moves = view.moves
    scene = Scene(seat, names, (moves[-1][1], moves[-1][2]) if moves else None)
    in_words = []
    for n, who, move, result in moves:
        try:
            words = rules.describe_record(who, move, rules.parse_record_result(result))
        except FrogPbemError:
            words = f"{safe(who)} {safe(move)} (a result this frogpbem cannot read)"
        in_words.append((n, words))

    def label(who: str) -> str:
        return f"{who} ({safe(names[who])})" if names.get(who) else who

    who = label(seat) if seat else "the public"
    facts = [f"View of: {who}", f"Setup: {safe(view.setup)}", f"Check: {check.words}"]
    try:
        board = rules.read_view(view.board)
    except FrogPbemError:
        raise GameFileError("the board in this view file is not as frogpbem writes it, and "
                            "cannot be drawn (the file was changed, or written by another "
                            "tool)") from None
    return _drawn(view, rules, board, scene, fmt, who, facts, in_words, check, colour, warn)


def _drawn(view: ViewFile, rules: SomeRuleset, board: GameView, scene: Scene, fmt: str, who: str,
           facts: list[str], in_words: list[tuple[int, str]], check: ViewCheck,
           colour: IO[str] | None, warn: Callable[[str], None]) -> str:
    """:func:`show_view_file`'s drawing of the board, in ``fmt``."""
    seat = view.seat
    if fmt == "svg":
        from frogpbem.pictures.draw import picture

        if not check.verified:
            warn(check.words)
        return picture(board, scene).svg(standalone=True)
    if fmt == "html":
        from frogpbem.pictures.page import view_page

        return view_page(board, scene,
                         f"{rules.title} - game {view.game} - view of {who}",
                         [*facts, _after(view.n)], in_words)
    paint = None
    if colour is not None:
        from frogpbem.pictures.terminal import painter

        paint = painter(board, scene.last, colour)
    wrapped = [line for fact in facts  # at most 76 columns, as the game's own view
               for line in text_legend(fact.split(" "), " ", indent="", hang="  ")]
    lines = [f"{rules.title} - game {view.game} - view file {_after(view.n).lower()}",
             *wrapped, "", board_text(rules, board, frozenset({seat} if seat else ()),
                                      paint), ""]
    if in_words:
        lines.append("Moves:")
        lines += [f"{n:>4}. {words}" for n, words in in_words]
    return "\n".join(lines)


def _after(records: int) -> str:
    return f"After {records} record{'' if records == 1 else 's'}"
