"""What mail does to a file pasted into a message body, undone where it safely can be.

frogpbem writes no line over 76 columns, no trailing space and no carriage
return, so a file survives being pasted into a mail body. On the way back a
mail program may quote it (``> ``), turn line ends into CRLF, add trailing
spaces, or put the file between other text (a greeting, a signature block).
:func:`unmail` undoes exactly these; none of them can change a value.

What cannot be undone — a line re-wrapped, a space put into a sealed block —
is named by :func:`transit_damage`, so that the reader hears "changed in
transit" rather than a false "invalid signature".
"""

from __future__ import annotations

import base64
import json
import quopri
import re
from dataclasses import dataclass

from frogpbem.errors import GameFileError
from frogpbem.gamefile import jsontext

_START = re.compile(r"^(?P<prefix>(?:> ?)*|[ \t]*)frogpbem: ?\d+\s*$")
_TOP_KEY = re.compile(r"^[a-z_]+:(?: |$)")
_ARMOR_LINE = re.compile(r"[A-Za-z0-9+/=]{1,64}")
ARMOR_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
ARMOR_END = "-----END AGE ENCRYPTED FILE-----"


def unmail(data: bytes) -> bytes:
    """``data`` with mail's reversible changes undone (unchanged if there are none)."""
    if data.startswith(b"frogpbem:") and b"\r" not in data and b" \n" not in data \
            and (b"\t" not in data or b"\t\n" not in data):  # a tab is found much faster
        return data  # the usual case: a file as frogpbem wrote it
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data  # the reader says what is wrong with it
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for index, line in enumerate(lines):
        match = _START.match(line)
        if match is not None:
            return "\n".join(_document(lines[index:], match.group("prefix"))).encode()
    return data


def _document(lines: list[str], prefix: str) -> list[str]:
    """The lines of the document that starts at ``lines[0]``, without ``prefix``.

    It ends before the first line without the prefix, or the first unindented
    line that is not a top-level key (a signature block, "Thanks, Bob").
    """
    bare = prefix.rstrip()
    out = []
    for line in lines:
        if line.startswith(prefix):
            line = line[len(prefix):]
        elif line.rstrip() == bare:
            line = ""
        else:
            break
        line = line.rstrip()
        if line and not line[0].isspace() and not _TOP_KEY.match(line) and \
                not line.startswith("- "):
            break
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return [*out, ""]


_WHOLE_ARMOR = re.compile(  # a sealed block's lines as age writes them (64 columns)
    r"[ \t]*" + re.escape(ARMOR_BEGIN) + r"[ \t]*\n(?:[ \t]*[A-Za-z0-9+/=]{64}[ \t]*\n)*"
    r"[ \t]*[A-Za-z0-9+/=]{1,64}[ \t]*\n[ \t]*" + re.escape(ARMOR_END) + r"[ \t]*(?:\n|\Z)")


def armor_damage(text: str) -> str | None:
    """A sealed block that mail changed (re-wrapped, spaces added), in words, or ``None``.

    Checked before anything else: a changed sealed block breaks the signature
    over it, and the signer is not to blame.

    Each block is first matched whole, as age writes it (no line to name then);
    only a text with another kind of block is read line by line.
    """
    at = text.find(ARMOR_BEGIN)
    while at >= 0:
        whole = _WHOLE_ARMOR.match(text, text.rfind("\n", 0, at) + 1)
        if whole is None:
            return _armor_damage(text)
        at = text.find(ARMOR_BEGIN, whole.end())
    return None


def _armor_damage(text: str) -> str | None:
    """:func:`armor_damage`, line by line."""
    armored = False
    body: list[str] = []
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if line == ARMOR_BEGIN:
            armored, body = True, []
        elif armored and line == ARMOR_END:
            armored = False
            if any(len(part) != 64 for part in body[:-1]):
                return (f"the sealed block ending at line {number} was re-wrapped by a mail "
                        "program")
        elif armored:
            if not _ARMOR_LINE.fullmatch(line):
                return (f"line {number}, inside a sealed block, was changed (spaces or other "
                        "characters added)")
            body.append(line)
    return None


_QUOTE_OR_ESCAPE = re.compile(r'["\\]')


_UNBROKEN = re.compile(r"""(?:
    [^"\\\n]*+(?:"(?:[^"\\\n]++|\\[\s\S])*+"[^"\\\n]*+)*+(?<!\|)\n
                     # a line whose quoted values are whole (over escaped line breaks)
  | (?P<indent>\ *+)(?=[^\ \n])[^"\\\n]*(?:-\ |:\ )\|\n  # a "|" block's first line
    (?:(?P=indent)\ +[^\n]*+\n|[^\S\n]*+\n)*+            # its lines (deeper, or blank)
)*+\Z""", re.VERBOSE)
"""A text in which no double-quoted value is broken, matched whole: every line is a
``|`` block's (with its block), or holds only whole quoted values, each line break
inside one escaped. It says less than :func:`broken_lines` reads (no quote or
backslash outside a value, none on a block's first line), never more."""


def broken_lines(text: str) -> str | None:
    """A double-quoted value broken across lines without ``\\`` (mail re-wrapped it), or ``None``.

    frogpbem ends every line inside a double-quoted value with ``\\``; a line
    that ends inside one without it was broken by a mail program, and the
    break reads as a space that was never signed.

    A text as frogpbem writes it is matched whole (:data:`_UNBROKEN`); any
    other is read line by line, which names the line.
    """
    if _UNBROKEN.match(text):
        return None
    inside = False
    broken: int | None = None  # a line that ended inside a value without its "\\"
    block: int | None = None  # the indentation of a "|" literal block being read
    for number, line in enumerate(text.split("\n"), 1):
        if block is not None:
            if not line.strip() or len(line) - len(line.lstrip(" ")) > block:
                continue  # literal text: quotes mean nothing there
            block = None
        escaped = False
        if '"' not in line:  # no quote opens or closes: only a trailing "\\" matters
            escaped = inside and (len(line) - len(line.rstrip("\\"))) % 2 == 1
        elif "\\" not in line:  # no escape: every quote opens or closes a value
            inside ^= line.count('"') % 2 == 1
        else:
            skip = -1  # the character after an escaping "\\" means nothing here
            for found in _QUOTE_OR_ESCAPE.finditer(line):
                at = found.start()
                if at == skip:
                    continue
                if found.group() == '"':
                    inside = not inside
                elif inside:  # a "\\" escapes the next character, or the line break at the end
                    skip, escaped = at + 1, at + 1 == len(line)
        if inside and not escaped and broken is None:
            broken = number
        if not inside and broken is not None:  # the value goes on after the break: re-wrapped
            return f"line {broken} was broken in two by a mail program"
        if not inside and line.endswith(("- |", ": |")):
            block = len(line) - len(line.lstrip(" "))
    return None  # a value still open at the end: cut short, which the reader reports


def damage(text: str) -> str | None:
    """What mail visibly did to a file, in words, or ``None``: checked before reading it."""
    return armor_damage(text) or broken_lines(text)


def joined_lines(text: str) -> str | None:
    """Lines longer than frogpbem writes, in a file that does not read: joined by mail."""
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > 76 and line.strip():
            return f"line {number} is {len(line)} characters long: lines were joined"
    return None


ADVICE = "send the game file as an attachment, not in the text of the message"


# --- short requests: a seat's signed request as a block to paste into a reply -------------

BLOCK_BEGIN = "-----BEGIN FROGPBEM REQUEST-----"
BLOCK_END = "-----END FROGPBEM REQUEST-----"
# every quantifier bounded, and the marker found by its words (dashes may be lost or
# turned into other dashes): a search through 16 MiB of anything stays linear
_GAP = r"[\s>\ufffd]{1,200}"  # spaces (non-breaking ones too), line breaks, quote marks
_MARKER = re.compile(r"(?P<word>BEGIN|END)" + _GAP + "FROGPBEM" + _GAP
                     + r"REQUEST[ \t]{0,8}[-\u2010-\u2015\u2212]{0,16}", re.IGNORECASE)
_MAY_BE_BLOCK = re.compile(rb"BEGIN(?:\s|>|\xc2?\xa0){1,200}FROGPBEM", re.IGNORECASE)
_NOT_BASE64 = re.compile(r"[^A-Za-z0-9+/=]+")


def request_block(element: dict[str, object]) -> str:
    """A signed request (its JSON, signature included) as an armoured block of 64 columns."""
    encoded = base64.b64encode(json.dumps(element, separators=(",", ":"),
                                          ensure_ascii=True).encode()).decode()
    lines = [encoded[i:i + 64] for i in range(0, len(encoded), 64)]
    return "\n".join([BLOCK_BEGIN, *lines, BLOCK_END]) + "\n"


def may_hold_blocks(data: bytes) -> bool:
    """Whether ``data`` may hold a request block (a quick look for its first line)."""
    return _MAY_BE_BLOCK.search(data) is not None


@dataclass(frozen=True)
class Block:
    """One request block found in a text: its JSON value, or why it does not read."""

    line: int
    """The line of the text where it begins."""
    value: object = None
    """The decoded JSON value (``None`` when it did not read)."""
    problem: str = ""
    """Why it did not read, in words (empty when it did)."""


def read_blocks(data: bytes, limit: int | None = None) -> list[Block]:
    """Every request block in a text or mail body, however a mail program mangled it.

    The markers are found anywhere, with any spacing between their words, so
    text before ``-----BEGIN`` on its line or after ``-----END`` does not
    matter; inside, everything that is not base64 is dropped (line breaks,
    spaces, non-breaking spaces, ``>`` quote marks, a re-flowed paragraph),
    and quoted-printable left undecoded is decoded. Nothing of this weakens
    anything: the block's content is a signed request, checked afterwards.
    At most ``limit`` blocks are read, if given.
    """
    text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    found: list[Block] = []
    begin: re.Match[str] | None = None  # a BEGIN marker whose END is still to come
    line, counted = 1, 0  # the line at offset ``counted`` of the text
    for marker in _MARKER.finditer(text):
        if limit is not None and len(found) >= limit:
            return found
        if marker.group("word").upper() == "END":
            body = text[begin.end():marker.start()] if begin is not None else ""
            if len(_NOT_BASE64.sub("", body)) >= 16:  # not the markers named in a sentence
                found.append(_decoded(body, line))
            begin = None
            continue
        if begin is not None:
            found.append(_cut(line))
        begin = marker
        line += text.count("\n", counted, marker.start())
        counted = marker.start()
    if begin is not None and (limit is None or len(found) < limit):
        found.append(_cut(line))
    return found


def _cut(line: int) -> Block:
    return Block(line, problem=f"the request block at line {line} has no end line: it was "
                               "cut short")


def _decoded(body: str, line: int) -> Block:
    """The block whose text between its markers is ``body``, decoded (see :func:`read_blocks`)."""
    tries = [body]
    if "=" in _NOT_BASE64.sub("", body).rstrip("="):  # "=3D", "=\n": quoted-printable
        tries.append(quopri.decodestring(body.encode("utf-8", "replace")).decode(
            "utf-8", "replace"))
    for text in tries:
        encoded = _NOT_BASE64.sub("", text)
        encoded += "=" * (-len(encoded) % 4) if "=" not in encoded else ""
        try:
            return Block(line, jsontext.loads(base64.b64decode(encoded, validate=True)))
        except ValueError:
            continue
    return Block(line, problem=f"the request block at line {line} was changed in transit; "
                               f"{ADVICE}, or paste the block again as frogpbem move printed "
                               "it")


def request_blocks(data: bytes) -> list[object]:
    """Every request block in a text or mail body (see :func:`read_blocks`), decoded to JSON.

    A block that does not decode raises :class:`GameFileError` naming it.
    """
    blocks = read_blocks(data)
    for block in blocks:
        if block.problem:
            raise GameFileError(block.problem)
    return [block.value for block in blocks]


def block_game(value: object) -> str:
    """The game id a decoded request block names (empty if none)."""
    game = value.get("game") if isinstance(value, dict) else None
    return game if isinstance(game, str) else ""
