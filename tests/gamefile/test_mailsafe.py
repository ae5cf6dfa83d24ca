"""A game file pasted into a mail body: what mail does is undone, or named as damage."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from frogpbem.errors import GameFileError
from frogpbem.gamefile import mailsafe
from frogpbem.gamefile.document import parse_game
from tests.conftest import Cli, Keys, Result, here


@pytest.fixture
def mailed(new_game: Callable[..., Path], play: Callable[..., Result], cli: Cli,
           keys: Keys) -> Path:
    """A game two records in, with a note and a pending request: every kind of line."""
    game = new_game()
    play(game, "alice", "shoot C3")
    play(game, "bob", "guess A2")
    assert cli("note", game, 'my plan: "E5" \\ then F6', "--key", keys.path("alice")).exit_code \
        == 0
    assert cli("move", game, "guess E5", "--key", keys.path("alice")).exit_code == 0
    return game


def test_no_line_of_a_written_game_or_view_is_over_76_columns(mailed: Path) -> None:
    for path in [mailed, *mailed.parent.glob("*.view.yaml")]:
        assert max(len(line) for line in path.read_text().splitlines()) <= 76, path


QUOTE = ["> ", ">", "> > ", "\t", "    "]


@settings(max_examples=40, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(prefix=st.sampled_from(["", *QUOTE]), crlf=st.booleans(), trailing=st.booleans(),
       around=st.booleans())
def test_what_mail_does_is_undone(mailed: Path, prefix: str, crlf: bool, trailing: bool,
                                  around: bool) -> None:
    original = parse_game(mailed.read_bytes(), "game.yaml")
    lines = [prefix + line if line else prefix.rstrip() for line in
             mailed.read_text().splitlines()]
    if trailing:
        lines = [line + "  " for line in lines]
    if around:
        lines = ["Hi Carol,", "", "here is my move:", "", *lines, "", "-- ", "Alice",
                 "> On Monday, Carol wrote:", "> frogpbem is fun"]
    text = ("\r\n" if crlf else "\n").join(lines) + "\n"
    assert parse_game(text.encode(), "mail.txt") == original


def test_a_quoted_copy_works_through_the_cli(mailed: Path, cli: Cli, keys: Keys) -> None:
    quoted = mailed.with_name("reply.txt")
    quoted.write_text("Thanks!\n\n" + "".join(f"> {line}\n" for line in
                                              mailed.read_text().splitlines()))
    shown = cli("view", quoted, "--key", keys.path("bob"))
    assert shown.exit_code == 0, shown.output
    taken = cli("move", mailed, "--from", quoted, "--key", keys.path("referee"))
    assert taken.exit_code == 0, taken.output  # alice's request, out of a quoted reply


def damaged(mailed: Path, change: Callable[[list[str]], None]) -> GameFileError:
    lines = mailed.read_text().splitlines()
    change(lines)
    with pytest.raises(GameFileError) as caught:
        parse_game(("\n".join(lines) + "\n").encode(), "mail.txt")
    return caught.value


def test_a_space_put_into_a_sealed_block_is_named_not_blamed_on_the_referee(
        mailed: Path) -> None:
    def space(lines: list[str]) -> None:
        index = next(i for i, line in enumerate(lines) if "BEGIN AGE" in line) + 2
        lines[index] = lines[index][:30] + " " + lines[index][30:]

    error = damaged(mailed, space)
    assert "changed in transit" in error.message and "inside a sealed block" in error.message
    assert "attachment" in error.message and "signature" not in error.message


def test_a_rewrapped_sealed_block_is_named(mailed: Path) -> None:
    def rewrap(lines: list[str]) -> None:
        index = next(i for i, line in enumerate(lines) if "BEGIN AGE" in line) + 1
        indent = lines[index][:len(lines[index]) - len(lines[index].lstrip())]
        lines[index:index + 1] = [lines[index][:50], indent + lines[index].strip()[50 - len(
            indent):]]

    error = damaged(mailed, rewrap)
    assert "re-wrapped by a mail program" in error.message


def test_a_long_value_broken_at_a_space_is_named(mailed: Path) -> None:
    def wrap(lines: list[str]) -> None:
        index = next(i for i, line in enumerate(lines) if '"ssh-ed25519 ' in line)
        head, tail = lines[index].split("ssh-ed25519 ", 1)
        lines[index:index + 1] = [head + "ssh-ed25519", tail]

    error = damaged(mailed, wrap)
    assert "was broken in two by a mail program" in error.message


def slow_broken_lines(text: str) -> str | None:
    """The character-by-character reading of every line, as broken_lines was first written."""
    inside = False
    broken: int | None = None
    block: int | None = None
    for number, line in enumerate(text.split("\n"), 1):
        indent = len(line) - len(line.lstrip(" "))
        if block is not None and (not line.strip() or indent > block):
            continue
        block = None
        escaped = False
        for char in line:
            if escaped:
                escaped = False
            elif inside and char == "\\":
                escaped = True
            elif char == '"':
                inside = not inside
        if inside and not escaped and broken is None:
            broken = number
        if not inside and broken is not None:
            return f"line {broken} was broken in two by a mail program"
        if not inside and line.endswith(("- |", ": |")):
            block = indent
    return None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(['"', "\\", "\\\\", "a", " ", "  ", "- |", ": |",
                                          "x: "]), max_size=8).map("".join), max_size=12))
@example(['x: "a\\', "\\\\", '"'])  # an even run of "\\" at the end escapes no line break
def test_the_quick_reading_of_quoteless_lines_finds_what_the_slow_one_finds(
        lines: list[str]) -> None:
    text = "\n".join(lines)
    assert mailsafe.broken_lines(text) == slow_broken_lines(text)


# Lines that put the whole-text match and the line-by-line reading to the test: quotes,
# escapes, "|" blocks and their deeper or blank lines, tabs, a block's last line escaped.
_LINE_PARTS = ['"', "\\", "\\\\", "a", " ", "  ", "\t", "- |", ": |", "x: ", "|", '"a"']


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_LINE_PARTS), max_size=6).map("".join),
                max_size=10), st.booleans())
@example(["a: |", '  "x\\', 'b: y"', 'c: "', ""], True)  # a block's quote is no quote
@example(["- |", "   ", '  " a', "z", ""], False)
def test_a_text_matched_whole_has_no_broken_line(lines: list[str], end: bool) -> None:
    """The whole-text match (the quick path) only ever passes a text that the line-by-line
    reading finds unbroken."""
    text = "\n".join(lines) + ("\n" if end else "")
    if mailsafe._UNBROKEN.match(text):
        assert slow_broken_lines(text) is None
    assert mailsafe.broken_lines(text) == slow_broken_lines(text)


def test_a_written_file_takes_the_quick_paths(mailed: Path) -> None:
    """Every file frogpbem writes (a game, a view) is matched whole, not read line by
    line, in both checks of mail damage."""
    files = [mailed, *mailed.parent.glob(f"{mailed.stem}.*.view.yaml")]
    assert len(files) > 2
    for path in files:
        text = path.read_text()
        assert "BEGIN AGE ENCRYPTED FILE" in text or path != mailed
        assert mailsafe._UNBROKEN.match(text), path
        start = text.find(mailsafe.ARMOR_BEGIN)
        while start >= 0:
            whole = mailsafe._WHOLE_ARMOR.match(text, text.rfind("\n", 0, start) + 1)
            assert whole is not None, path
            start = text.find(mailsafe.ARMOR_BEGIN, whole.end())


_ARMOR_PARTS = [mailsafe.ARMOR_BEGIN, mailsafe.ARMOR_END, "A" * 64, "B" * 63, "C" * 65, "D=",
                "", " ", "  ", "\t", "> ", "x: ", "-", "E F"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_ARMOR_PARTS), max_size=3).map("".join),
                max_size=12), st.booleans())
@example([f"  {mailsafe.ARMOR_BEGIN}", "  " + "A" * 64, "  D=", f"  {mailsafe.ARMOR_END}"],
         True)
def test_sealed_blocks_matched_whole_are_read_as_line_by_line(lines: list[str],
                                                             end: bool) -> None:
    text = "\n".join(lines) + ("\n" if end else "")
    assert mailsafe.armor_damage(text) == mailsafe._armor_damage(text)


def test_a_file_parsed_again_is_the_same_and_a_changed_one_is_read_anew(
        mailed: Path) -> None:
    """Parses are kept (by a session's store) by the hash of the bytes: a change of one byte
    is never served old."""
    data = mailed.read_bytes()
    store = here().verified
    first = parse_game(data, "a", store)
    assert parse_game(data, "b", store) is first
    assert parse_game(b"> " + data.replace(b"\n", b"\n> "), "quoted", store) is first  # same
    signature = data.index(b"signature:")
    flipped = data[:signature] + data[signature:].replace(b"A", b"B", 1)
    changed = parse_game(flipped, "c", store)
    assert changed is not first and changed != first
    with pytest.raises(GameFileError):
        parse_game(data.replace(b"frogpbem: 2", b"frogpbem: 3", 1), "d", store)
    assert parse_game(data, "e", here().verified) is not first  # another session's store


def test_a_game_written_from_its_elements_lines_is_the_document_written_whole(
        mailed: Path) -> None:
    """dump_game keeps each element's lines; the bytes are those of the whole document."""
    from frogpbem.gamefile.document import dump_game, dump_yaml, read_game

    files = [mailed, *sorted(Path("tests/vectors").glob("*.yaml")),
             Path("examples/finished-frogfinder/game.yaml")]
    compared = 0
    for path in files:
        try:
            file = read_game(path)
        except GameFileError:
            continue  # a vector refused on reading
        assert dump_game(file) == dump_yaml(file.to_json()), path
        assert dump_game(file) == dump_game(file)  # the kept lines give the same again
        compared += 1
    assert compared > 40
