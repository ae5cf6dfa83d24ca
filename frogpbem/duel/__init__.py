"""Games without a referee (docs/format.md, "Games without a referee").

``frogfinder`` and ``secretmove`` hold each game's protocol as pure functions and frozen
values (a value goes out with ``to_json()`` and comes in with ``from_json()``, which
refuses any other shape in one sentence); ``rules`` fits them to the ``engine``, which
checks, signs and keeps the co-written file; ``memory`` is each seat's memory of it.
"""
