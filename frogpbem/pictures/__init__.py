"""Pictures of views: SVG boards, HTML pages, colour in the terminal.

A board is drawn from a ruleset's typed view (what ``Ruleset.view`` gives
for one holder, the data of the text board and of ``--json``) and a
:class:`Scene` (whose view, the names, the last move): a picture can show
only what its holder may know. Each kind of view has its drawing, found by the
view's class; a ruleset without one has its text board drawn. Pictures are
self-contained: no external fonts, scripts, images or links, and no element ids
(a page can hold many).
"""
