"""HTML pages: a view (the board beside the game in words) and a finished game's
record, stepped through move by move.

Pages are self-contained: the pictures are inline SVG, the little script that
steps through a record is inline, and no font, image or link is fetched. The
board is the page's first box, at its top-left corner, so a point of the
picture is the same point of the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from frogpbem.frozen import frozen
from frogpbem.games import GameView
from frogpbem.pictures.draw import picture
from frogpbem.pictures.scene import Scene, status
from frogpbem.pictures.svg import FONT, INK, Picture
from frogpbem.safetext import safe

STYLE = (
    f"body{{margin:0;font-family:{FONT};color:{INK};display:flex;flex-wrap:wrap;"
    "align-items:flex-start}.board{flex:none;line-height:0}"
    ".info{padding:10px 18px;flex:1 1 18em;max-width:40em}h1{font-size:1.25em;margin:0 0 .4em}"
    "p{margin:.25em 0}ol{padding-left:3.2em;margin:.3em 0}li.now{background:#ffe0b2}"
    "button{font-size:1em;margin:0 .15em .5em 0}"
    "#steps{list-style:none;padding-left:.4em;max-height:70vh;overflow-y:auto}"
    "#steps li{cursor:pointer;padding:0 .3em}pre{font-size:.85em;white-space:pre-wrap}"
)


def _words(text: str) -> str:
    """Text from a file or a player, as HTML: escaped, on one line."""
    return escape(safe(text))


def view_page(board: GameView, scene: Scene, title: str, facts: Sequence[str],
              moves: Sequence[tuple[int, str]]) -> str:
    """A view as a page: the board's picture, then the title, ``facts`` (lines of words),
    how the game stands and the moves (number and words)."""
    lines = [*facts, status(board, scene.clock)]
    return _page(title, picture(board, scene).svg(),
                 "".join(f"<p>{_words(line)}</p>" for line in lines if line)
                 + _move_list(moves))


def letter_page(board: GameView, scene: Scene, title: str, text: str) -> str:
    """A mail's HTML part: the board's picture above the mail's own text, whole (a mail
    program that shows the HTML part shows nothing else)."""
    lines = "\n".join(_words(line) for line in text.splitlines())
    return _page(title, picture(board, scene).svg(), f"<pre>{lines}</pre>")


def _move_list(moves: Sequence[tuple[int, str]]) -> str:
    if not moves:
        return "<p>No move yet.</p>"
    items = "".join(f'<li value="{n}">{_words(words)}</li>' for n, words in moves)
    return f"<h2>Moves</h2><ol>{items}</ol>"


def _page(title: str, svg: str, info: str, script: str = "") -> str:
    """A page: the picture ``svg`` first (at the top-left corner), then the title and
    ``info`` beside or below it."""
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_words(title)}</title><style>{STYLE}</style></head>"
            f'<body><div class="board">{svg}</div><div class="info"><h1>{_words(title)}</h1>'
            f"{info}</div>{script}</body></html>\n")


@frozen
class Frame:
    """One step of a record page: the public board after a record, and its caption."""

    board: GameView
    """The ruleset's view of the state then."""
    caption: str
    last: tuple[str, str] | None
    """The seat and public move of the record just played (``None``: none)."""


def record_page(title: str, facts: Sequence[str], names: Mapping[str, str],
                frames: Sequence[Frame]) -> str:
    """A game's record as one page that steps through ``frames`` (buttons, arrow keys;
    ``#K`` or ``?K`` at the end of the address opens frame K).

    All frames share one picture: each of its elements is drawn once, with
    the frames it is shown in (``data-f="FROM TO"``), so a long game stays
    small. Without a script the page shows the last frame.
    """
    pictures = [picture(frame.board, Scene(None, names, frame.last)) for frame in frames]
    merged = _timeline(pictures, f"{title}: the board")
    captions = "".join(f'<li value="{index}" data-k="{index}">{_words(frame.caption)}</li>'
                       for index, frame in enumerate(frames))
    last = len(frames) - 1
    controls = ('<p><button data-go="first">&#xAB; start</button>'
                '<button data-go="back">&#x25C0; back</button>'
                '<button data-go="next">next &#x25B6;</button>'
                '<button data-go="last">end &#xBB;</button> '
                'keys: &#x2190; &#x2192;, Home, End</p>')
    info = ("".join(f"<p>{_words(f)}</p>" for f in facts)
            + f'<p id="caption">{_words(frames[-1].caption)}</p>{controls}'
            + f'<ol start="0" id="steps">{captions}</ol>')
    return _page(title, merged.svg(), info, _SCRIPT.replace("LAST", str(last)))


@dataclass
class _Entry:
    """An element of a record's picture and the frames it is shown in: ``start`` to
    ``end`` (not included)."""

    part: str
    start: int
    end: int


def _timeline(pictures: Sequence[Picture], title: str) -> Picture:
    """One picture holding every frame's elements, each tagged with the frames it is in.

    An element that comes back after a gap is a new entry, painted where it
    comes back, so each frame's elements keep their order.
    """
    entries: list[_Entry] = []
    live: dict[str, _Entry] = {}
    count = len(pictures)
    for index, frame in enumerate(pictures):
        present = set(frame.parts)
        for part in frame.parts:
            if part not in live:
                live[part] = _Entry(part, index, count)
                entries.append(live[part])
        for part in [p for p in live if p not in present]:
            live.pop(part).end = index
    merged = Picture(max(p.width for p in pictures), max(p.height for p in pictures), title)
    for entry in entries:
        if entry.start == 0 and entry.end == count:
            merged.add(entry.part)
            continue
        hidden = "" if entry.end == count else ' style="display:none"'
        merged.add(f'<g data-f="{entry.start} {entry.end}"{hidden}>{entry.part}</g>')
    return merged


_SCRIPT = """<script>
(function () {
  var last = LAST, now = last;
  var parts = document.querySelectorAll(".board [data-f]");
  var steps = document.querySelectorAll("#steps li");
  function show(k) {
    now = Math.max(0, Math.min(last, k));
    for (var i = 0; i < parts.length; i++) {
      var f = parts[i].getAttribute("data-f").split(" ");
      parts[i].style.display = (+f[0] <= now && now < +f[1]) ? "inline" : "none";
    }
    for (var j = 0; j < steps.length; j++) steps[j].className = j === now ? "now" : "";
    if (steps[now].scrollIntoView) steps[now].scrollIntoView({block: "nearest"});
    document.getElementById("caption").textContent = steps[now].textContent;
    if (history.replaceState) history.replaceState(null, "", "#" + now);
  }
  var go = {first: function () { show(0); }, back: function () { show(now - 1); },
            next: function () { show(now + 1); }, last: function () { show(last); }};
  document.querySelectorAll("button[data-go]").forEach(function (b) {
    b.addEventListener("click", go[b.getAttribute("data-go")]);
  });
  steps.forEach(function (li) {
    li.addEventListener("click", function () { show(+li.getAttribute("data-k")); });
  });
  document.addEventListener("keydown", function (e) {
    var keys = {ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last"};
    if (keys[e.key]) { go[keys[e.key]](); e.preventDefault(); }
  });
  var asked = /^[#?]([0-9]+)$/.exec(location.hash) || /^[#?]([0-9]+)$/.exec(location.search);
  show(asked ? +asked[1] : last);
})();
</script>"""
