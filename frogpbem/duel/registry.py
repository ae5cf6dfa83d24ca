"""The rulesets that can be played without a referee, and their protocols: a module of its
own, so that a ruleset's :class:`~frogpbem.duel.rules.DuelRules` may import the rules
module without a circle."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from frogpbem.duel.frogfinder_rules import FrogFinderDuel
from frogpbem.duel.rules import DuelRules, FrogletDuel
from frogpbem.duel.secretmove_rules import SecretMoveDuel
from frogpbem.errors import UsageError

DUEL_RULES: Mapping[str, type[DuelRules]] = MappingProxyType({
    "froglet": FrogletDuel, "frogfinder": FrogFinderDuel, "secretmove": SecretMoveDuel})
"""The rulesets that can be played without a referee, so far."""


def duel_rules(name: str) -> DuelRules:
    """The protocol of ruleset ``name``; raises :class:`UsageError` for one that has none."""
    made = DUEL_RULES.get(name)
    if made is None:
        names = ", ".join(sorted(DUEL_RULES))
        raise UsageError(f"{name} cannot be played without a referee (so far: {names})")
    return made()
