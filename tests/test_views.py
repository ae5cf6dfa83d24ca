"""Views show a seat what it may know and nothing else; sealed data has one length."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem import crypto
from frogpbem.dealing import SeatSpec, create_game
from frogpbem.errors import SignatureError
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.model import ChosenSetup
from frogpbem.jsonvalue import JSON
from tests.conftest import Cli, Keys, here, now, play_moves

# Two setups that differ only in red's hidden frogs (B2 against C1) ...
SETUP_A = {"red": {"frogs": ["A1", "B2"]}, "blue": {"frogs": ["E5", "F6"]}}
SETUP_B = {"red": {"frogs": ["A1", "C1"]}, "blue": {"frogs": ["E5", "F6"]}}
# ... and moves whose public results are the same under both.
MOVES = [("alice", "shoot D4"), ("bob", "shoot F1"), ("alice", "guess E5"),
         ("bob", "shoot D6"), ("alice", "guess B5"), ("bob", "guess A1")]


def play_out(new_game: Callable[..., Path], cli: Cli, keys: Keys, setup: dict[str, object],
             name: str) -> Path:
    game = new_game(setup=setup, name=name)
    play_moves(cli, keys, game, MOVES)
    return game


def test_blue_and_public_views_carry_no_trace_of_reds_frogs(
    new_game: Callable[..., Path], cli: Cli, keys: Keys
) -> None:
    game_a = play_out(new_game, cli, keys, SETUP_A, "a.yaml")
    game_b = play_out(new_game, cli, keys, SETUP_B, "b.yaml")
    log_a = strictyaml.loads(game_a.read_bytes())["log"]
    log_b = strictyaml.loads(game_b.read_bytes())["log"]
    assert [(r["move"], r["result"], r["scores"]) for r in log_a] == \
        [(r["move"], r["result"], r["scores"]) for r in log_b]
    for seat in ("blue", "public"):
        view_a = strictyaml.loads(game_a.with_name(f"a.{seat}.view.yaml").read_bytes())
        view_b = strictyaml.loads(game_b.with_name(f"b.{seat}.view.yaml").read_bytes())
        for field in ("state", "moves", "n", "seat", "names", "rules"):
            assert view_a[field] == view_b[field], (seat, field)
        # whatever differs is the game id, the head and the signature: no frog in them
        differing = {k for k in view_a if view_a[k] != view_b[k]}
        assert differing <= {"game", "head", "signature"}
    # red's own views do differ: they show red's frogs
    red_a = strictyaml.loads(game_a.with_name("a.red.view.yaml").read_bytes())
    red_b = strictyaml.loads(game_b.with_name("b.red.view.yaml").read_bytes())
    assert red_a["state"]["own_frogs"] != red_b["state"]["own_frogs"]
    # the view command agrees with the written files
    for key in ("bob", None):
        args = ["--key", keys.path(key)] if key else ["--public"]
        shown_a = json.loads(cli("view", game_a, "--json", *args).stdout)
        shown_b = json.loads(cli("view", game_b, "--json", *args).stdout)
        assert shown_a["state"] == shown_b["state"]


def test_view_file_is_signed_by_the_referee(new_game: Callable[..., Path], keys: Keys) -> None:
    game = new_game()
    view = strictyaml.loads(game.with_name("game.red.view.yaml").read_bytes())
    crypto.verify_message(keys.key("referee").public, crypto.signed_bytes("view", view),
                              view["signature"])
    view["state"]["points"]["red"] = 50
    try:
        crypto.verify_message(keys.key("referee").public, crypto.signed_bytes("view", view),
                              view["signature"])
    except SignatureError:
        pass
    else:
        raise AssertionError("a changed view still verified")


SQUARES = [f"{c}{r}" for c in "ABCDEFGHIJKL" for r in range(1, 13)]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(SQUARES), min_size=10, max_size=10, unique=True))
def test_sealed_setups_have_one_payload_length(keys: Keys, squares: list[str]) -> None:
    """Whatever the placement (A1 or L12), the sealed payload has one length.

    The whole age file's length also varies, but only by age's random-length
    "grease" header stanza, which has nothing to do with the content.
    """
    referee = keys.key("referee")
    specs = [SeatSpec("red", keys.key("alice").public, "A"),
             SeatSpec("blue", keys.key("bob").public, "B")]
    setup = {"red": {"frogs": squares[:5]}, "blue": {"frogs": squares[5:]}}
    doc = create_game("frogfinder", referee, "R", specs, {}, ChosenSetup.from_json(setup),
                      game_id="ff-fixedid", created=now())
    short = {"red": {"frogs": ["A1", "A2", "A3", "A4", "A5"]},
             "blue": {"frogs": ["B1", "B2", "B3", "B4", "B5"]}}
    ref = create_game("frogfinder", referee, "R", specs, {}, ChosenSetup.from_json(short),
                      game_id="ff-fixedid", created=now())
    for seat in ("red", "blue"):
        sealed = doc.dealing.sealed[seat]
        assert crypto.payload_length(sealed) == crypto.payload_length(ref.dealing.sealed[seat])
        plain = crypto.unseal(sealed, referee)
        assert len(plain) == 512  # the padded length of a 5-frog setup


def test_a_view_file_written_from_its_records_lines_is_the_view_written_whole(
        finished_game: Path, new_game: Callable[..., Path], keys: Keys) -> None:
    """View.dumped keeps each record's entry; the bytes are those of the whole view."""
    from frogpbem.gamefile.document import dump_yaml
    from frogpbem.protocol.game import load
    from frogpbem.views import view_for

    for path in (finished_game, new_game(name="empty.yaml")):  # many records, and none
        game = load(path, here())
        for key in (None, keys.key("alice"), keys.key("referee")):
            view = view_for(game, key).signed(keys.key("referee"))
            assert view.dumped() == dump_yaml(view.to_json())


def test_views_written_with_their_shared_members_are_the_views_written_alone(
        finished_game: Path, new_game: Callable[..., Path], keys: Keys, cli: Cli) -> None:
    """The public part of the board, made once for every view of a move, gives the bytes
    and the signature each view has when written whole, and the signature verifies."""
    from frogpbem.gamefile.document import dump_yaml, parse_view
    from frogpbem.protocol.game import REFEREE, known_secrets, load, replay
    from frogpbem.views import make_view, shared_members

    running = new_game(name="running.yaml")
    play_moves(cli, keys, running, [("alice", "shoot C3"), ("bob", "guess A2")])
    referee = keys.key("referee")
    for path in (finished_game, running):
        game = load(path, here())
        state = replay(game, known_secrets(game, REFEREE, referee)).final
        views = [make_view(game, state, seat) for seat in (*game.seats, None)]
        shared = shared_members(views)
        assert "shots" in shared
        assert ("own_frogs" in shared) == (path == finished_game)  # apart until the reveal
        for view in views:
            alone = view.signed(referee)
            together = view.signed(referee, shared)
            assert together.signature == alone.signature
            data = together.dumped(shared)
            assert data == alone.dumped() == dump_yaml(alone.to_json())
            written = parse_view(data, "view")
            assert written is not None
            written.verify(referee.public)


# --- a mailed view file holding anything ------------------------------------------------------

odd_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2**40) | st.text(max_size=3)
    | st.sampled_from(["A1", "B2", "Z99", "red", "blue", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["A1", "B2", "Z99", "red", "owner", "count", "frogs"])
        | st.text(max_size=2), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["frogfinder", "coan", "froglet", "secretmove"]), st.data(), odd_values,
       st.sampled_from(["text", "svg", "html"]))
def test_a_view_file_holding_anything_is_drawn_or_refused_in_a_sentence(
        finished_demos: dict[str, Path], rules: str, data: st.DataObject, value: object,
        fmt: str) -> None:
    """Anyone can mail a view file, and ``frogpbem view`` draws it (saying when it is not
    verified): a board or a result of another shape once ended it in a traceback (a
    KeyError, a TypeError...). It is drawn, or refused with GameFileError."""
    from frogpbem.errors import GameFileError
    from frogpbem.gamefile.document import parse_view
    from frogpbem.protocol.seen import SeenGames
    from frogpbem.views import show_view_file

    folder = finished_demos[rules].parent
    path = data.draw(st.sampled_from(sorted(folder.glob("*.view.yaml"))))
    doc = strictyaml.loads(path.read_bytes())
    board = data.draw(st.booleans()) or not doc["moves"]
    if board:
        doc["state"][data.draw(st.sampled_from([*doc["state"], "x"]))] = value
    else:
        doc["moves"][data.draw(st.integers(0, len(doc["moves"]) - 1))]["result"] = value
    try:
        view = parse_view(strictyaml.dumps(doc).encode(), "mailed.view.yaml")
    except GameFileError:
        return  # refused by the schema (a result that is no mapping)
    assert view is not None
    try:
        shown = show_view_file(view, SeenGames(folder / "nobody", here().clock), fmt)
    except GameFileError:
        assert board  # a result alone that cannot be read is listed as such, not refused
        return
    assert shown


def test_a_view_file_whose_board_cannot_be_drawn_gets_one_sentence(
        finished_demos: dict[str, Path], cli: Cli, tmp_path: Path) -> None:
    view = strictyaml.loads(
        (finished_demos["froglet"].parent / "game.public.view.yaml").read_bytes())
    view["state"]["rows"] = ["Z"]
    mailed = tmp_path / "mailed.view.yaml"
    mailed.write_text(strictyaml.dumps(view))
    shown = cli("view", mailed)
    assert shown.exit_code == 7, shown.output
    assert "the board in this view file is not as frogpbem writes it" in shown.stderr
    assert "Traceback" not in shown.output


def test_whether_a_view_file_was_verified_is_a_value(new_game: Callable[..., Path]) -> None:
    """Not verified when no copy of the game was seen here, verified against the referee of
    the copy seen: a value that callers decide on (an SVG picture has no room to say it,
    so ``warn`` is told, only when not verified), with the words the view shows."""
    from types import SimpleNamespace

    from frogpbem.gamefile.document import parse_view, read_game
    from frogpbem.views import check_view_file, show_view_file

    class Seen:
        """The store of copies seen, as a view file's check asks it: the latest copy."""

        def __init__(self, path: Path | None) -> None:
            self.copy = read_game(path) if path else None

        def latest(self, game: str) -> object:
            return self.copy and (self.copy, SimpleNamespace(records=len(self.copy.log)))

    game = new_game()
    path = game.with_name("game.red.view.yaml")
    view = parse_view(path.read_bytes(), path.name)
    assert view is not None
    unseen = check_view_file(view, Seen(None))  # type: ignore[arg-type]
    assert not unseen.verified
    assert unseen.words.startswith("NOT VERIFIED: this tool has not seen game ")
    warned: list[str] = []
    assert show_view_file(view, Seen(None), "svg", warn=warned.append)  # type: ignore[arg-type]
    assert warned == [unseen.words]
    seen = check_view_file(view, Seen(game))  # type: ignore[arg-type]
    assert seen.verified and seen.words.startswith("signed by the referee (SHA256:")
    assert show_view_file(view, Seen(game), "svg", warn=warned.append)  # type: ignore[arg-type]
    assert warned == [unseen.words]


def _mutated(value: JSON, data: st.DataObject) -> JSON:
    """``value`` with one nested value replaced by another JSON type, a key dropped or a
    key of garbage added, somewhere along a random path."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: _mutated(value[key], data)}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        at = data.draw(st.integers(0, len(value) - 1))
        return [*value[:at], _mutated(value[at], data), *value[at + 1:]]
    how = data.draw(st.sampled_from(["replace", "drop", "add"]))
    if how == "drop" and isinstance(value, dict) and value:
        key = data.draw(st.sampled_from(sorted(value)))
        return {k: v for k, v in value.items() if k != key}
    if how == "add" and isinstance(value, dict):
        return {**value, data.draw(st.text(max_size=3)): data.draw(json_scalars)}
    if how == "add" and isinstance(value, list):
        return [*value, data.draw(json_scalars)]
    other = data.draw(json_values.filter(lambda new: type(new) is not type(value)))
    return other


json_scalars = st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=4) \
    | st.sampled_from(["A1", "Z9", "red", "blue", "G", ""])
json_values: st.SearchStrategy[JSON] = st.recursive(
    json_scalars, lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=4)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["frogfinder", "froglet", "secretmove"]), st.data(),
       st.sampled_from(["text", "svg", "html"]))
def test_a_view_files_board_changed_deep_inside_is_drawn_or_refused_in_a_sentence(
        finished_demos: dict[str, Path], rules: str, data: st.DataObject, fmt: str) -> None:
    """Each ruleset's ``read_view`` checks the whole shape its drawing relies on: a board
    changed anywhere inside (a value of another type, a key dropped or added) is drawn,
    or refused with GameFileError and the one sentence, never another exception; a record's
    move in other words is listed as a result this frogpbem cannot read."""
    from frogpbem.errors import GameFileError
    from frogpbem.gamefile.document import parse_view
    from frogpbem.protocol.seen import SeenGames
    from frogpbem.views import show_view_file

    folder = finished_demos[rules].parent
    path = data.draw(st.sampled_from(sorted(folder.glob("*.view.yaml"))))
    doc = strictyaml.loads(path.read_bytes())
    doc["state"] = _mutated(doc["state"], data)
    if doc["moves"] and data.draw(st.booleans()):  # and a record's move in other words
        doc["moves"][data.draw(st.integers(0, len(doc["moves"]) - 1))]["move"] = \
            data.draw(st.sampled_from(["", "x", "pass x", "A1-B2 q", "shoot"]) | st.text())
    try:
        view = parse_view(strictyaml.dumps(doc).encode(), "mailed.view.yaml")
    except GameFileError:
        return  # refused by the schema
    assert view is not None
    try:
        shown = show_view_file(view, SeenGames(folder / "nobody", here().clock), fmt)
    except GameFileError as refused:
        assert "the board in this view file is not as frogpbem writes it, and cannot be " \
               "drawn" in str(refused)
        return
    assert shown
