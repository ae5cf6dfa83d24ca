"""The rulebook follows the registry: a chapter for each game that comes with frogpbem,
in the registry's order, naming each of its options."""

from __future__ import annotations

import re
from pathlib import Path

from frogpbem.games import RULESETS, find_game

RULES = Path(__file__).resolve().parent.parent.parent / "docs" / "rules.md"
CHAPTER = re.compile(r"^## \d+\. .* \(`([a-z]+)`\)", re.M)


def chapters(text: str) -> dict[str, str]:
    """Each chapter's text by the game name its heading gives."""
    found = list(CHAPTER.finditer(text))
    ends = [m.start() for m in found[1:]] + [text.find("\n## ", found[-1].end())]
    return {m.group(1): text[m.start():end] for m, end in zip(found, ends, strict=True)}


def test_the_rulebook_has_a_chapter_for_each_game_in_the_registry_order() -> None:
    assert list(chapters(RULES.read_text())) == list(RULESETS)


def test_each_chapter_names_every_option_of_its_game() -> None:
    for name, text in chapters(RULES.read_text()).items():
        missing = [spec.name for spec in find_game(name).option_specs
                   if f"`{spec.name}" not in text and f"{spec.name}=" not in text]
        assert missing == [], name


def test_the_check_sees_a_missing_chapter() -> None:
    text = "## 1. A (`frogfinder`)\nsize\n## 2. B (`froglet`)\nx\n## Decisions\n"
    assert list(chapters(text)) == ["frogfinder", "froglet"]
    assert list(chapters(text)) != list(RULESETS)
