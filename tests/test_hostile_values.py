"""A referee signs any value into the fields the schema leaves free: every check still ends
in a verdict, never a traceback.

The schema fixes the shape of almost every field; the header's options, the public
setups, the records' results, the revealed secrets and the outcome are left to each
ruleset. A buggy or hostile referee can sign anything there (a header option ``~`` once
ended ``verify`` and ``audit`` in a ``TypeError``). Each game here is re-signed whole
after the change, seats' joins, requests and notes included, so the checks go past the
signatures to the rules.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem import crypto
from frogpbem.audit import audit, verify
from frogpbem.demo import players_of
from frogpbem.gamefile import strictyaml
from tests.conftest import DEMO_RULES, here


def resigned(doc: dict[str, Any], folder: Path) -> str:
    """``doc`` signed again by everyone, as written: header, deal and its joins, notes,
    records and their requests, reveal."""
    referee = crypto.load_private_key(folder / "referee")
    seats = tuple(seat["seat"] for seat in doc["header"]["seats"])
    keys = {seat: crypto.load_private_key(folder / name)
            for seat, name in zip(seats, players_of(seats), strict=True)}
    header = doc["header"]
    header["signature"] = crypto.sign_element(referee, "header", header)
    prev = header_hash = crypto.element_hash("header", header)
    if doc["deal"]:
        deal = doc["deal"]
        deal["prev"] = prev
        for join in deal["joins"]:
            join["header"] = header_hash
            join["signature"] = crypto.sign_element(keys[join["seat"]], "join", join)
        deal["signature"] = crypto.sign_element(referee, "deal", deal)
        prev = crypto.element_hash("deal", deal)
    for note in doc["notes"]:
        note["header"] = header_hash
        note["signature"] = crypto.sign_element(keys[note["seat"]], "note", note)
    for record in doc["log"]:
        record["prev"] = prev
        if record.get("request") is not None:
            assert "asked" not in record  # the demonstration's seats ask at the head
            request = {"game": header["game"], "n": record["n"], "head": prev,
                       "seat": record["seat"], "move": record["move"]}
            if "sealed" in record:
                request.update(commitment=record["commitment"], sealed=record["sealed"])
            record["request"] = crypto.sign_element(keys[record["seat"]], "request", request)
        record["signature"] = crypto.sign_element(referee, "record", record)
        prev = crypto.element_hash("record", record)
    if doc["reveal"]:
        doc["reveal"]["prev"] = prev
        doc["reveal"]["signature"] = crypto.sign_element(referee, "reveal", doc["reveal"])
    return strictyaml.dumps(doc)


@functools.cache
def written(game: Path) -> dict[str, Any]:
    """The finished game ``game`` as written, read once: each example changes a deep copy."""
    return strictyaml.loads(game.read_bytes())


def verdicts(path: Path) -> list[str]:
    """What ``audit``, ``verify`` and the referee's ``verify`` say of ``path``."""
    referee = crypto.load_private_key(path.parent / "referee")
    return [audit(path, clock=here().clock).verdict, verify(path, here()).verdict,
            verify(path, here(), referee).verdict]


def test_a_game_signed_again_unchanged_holds_and_a_changed_result_does_not(
        finished_demos: dict[str, Path]) -> None:
    """The re-signing reaches the rules: without it the checks below would stop at the
    signatures."""
    for game in finished_demos.values():
        doc = strictyaml.loads(game.read_bytes())
        changed = game.parent / "hostile.yaml"
        changed.write_text(resigned(copy.deepcopy(doc), game.parent))
        assert verdicts(changed) == ["everything holds"] * 3, game
        doc["log"][0]["result"] = {"count": 99}
        changed.write_text(resigned(doc, game.parent))
        report = audit(changed, clock=here().clock)
        assert not report.ok and "record 1" in report.text()


SPOTS = ["option", "setup public", "deal public", "result", "secret", "outcome"]
values = st.recursive(  # integers within what canonical JSON, and so a signature, can hold
    st.none() | st.booleans() | st.integers(-3, 2**53 - 1) | st.text(max_size=4)
    | st.sampled_from(["A1", "E5", "Z99", "red", "blue", "shoot A1", "12", "~"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["frogs", "count", "frog", "rows", "seat", "points", "rank",
                         "termination", "standing", "size"]) | st.text(max_size=3),
        inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(DEMO_RULES)), st.sampled_from(SPOTS), values, st.data())
def test_any_value_signed_into_a_free_field_ends_in_a_verdict(
        finished_demos: dict[str, Path], rules: str, spot: str, value: Any,
        data: st.DataObject) -> None:
    game = finished_demos[rules]
    doc = copy.deepcopy(written(game))
    if spot == "option":
        name = data.draw(st.sampled_from([*doc["header"]["options"], "teams", "size"]))
        doc["header"]["options"][name] = value
    elif spot == "setup public":
        doc["header"]["setup"]["public"] = value
    elif spot == "deal public" and doc["deal"]:
        doc["deal"]["public"] = value
    elif spot == "result":
        doc["log"][data.draw(st.integers(0, len(doc["log"]) - 1))]["result"] = value
    elif spot == "secret" and doc["reveal"]["secrets"]:
        seat = data.draw(st.sampled_from(sorted(doc["reveal"]["secrets"])))
        doc["reveal"]["secrets"][seat]["secret"] = value
    else:
        doc["reveal"]["outcome"] = value
    changed = game.parent / "hostile.yaml"
    changed.write_text(resigned(doc, game.parent))
    for verdict in verdicts(changed):  # a verdict each, whatever it is; no exception
        assert verdict.startswith(("everything holds", "DOES NOT HOLD", "not finished"))
