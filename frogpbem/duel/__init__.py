"""Games without a referee (docs/format.md, "Games without a referee"): each game's
protocol as pure functions and frozen values, which the engine signs, seals and mails.

Nothing here reads or writes a file: a value goes out with ``to_json()`` and comes in
with ``from_json()``, which refuses any other shape in one sentence.
"""
