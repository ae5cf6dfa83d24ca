"""Any input ends in success or a FrogPbemError, never another exception.

Property tests over the loader (arbitrary bytes, and valid files with bytes
changed, cut or inserted), the notation parsers of every ruleset, fork
proofs, ``verify``, what ``receive`` and the judge read of a damaged reply, and
``view`` of a damaged view file. ``fuzz/fuzz_frogpbem.py`` runs the same targets under
atheris, by hand.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frogpbem.games import find_game
from fuzz.targets import (
    RULESETS,
    SAMPLE,
    SAMPLE_MAIL,
    SAMPLE_VIEW,
    load_bytes,
    parse_notation,
    parse_proof,
    read_mail,
    show_view,
    verify_bytes,
)

FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def mutated(data: bytes) -> st.SearchStrategy[bytes]:
    """``data`` with a few bytes replaced, removed or inserted."""
    edits = st.lists(st.tuples(st.integers(0, len(data) - 1), st.sampled_from(["set", "cut",
                                                                              "add"]),
                               st.binary(min_size=1, max_size=8)), min_size=1, max_size=4)

    def apply(changes: list[tuple[int, str, bytes]]) -> bytes:
        out = bytearray(data)
        for where, how, what in changes:
            where = min(where, len(out) - 1)
            if how == "set":
                out[where:where + len(what)] = what
            elif how == "cut":
                del out[where:where + len(what)]
            else:
                out[where:where] = what
        return bytes(out)

    return edits.map(apply)


@FUZZ
@given(st.binary(max_size=2000))
def test_the_loader_takes_any_bytes(data: bytes) -> None:
    load_bytes(data)


@FUZZ
@given(mutated(SAMPLE))
def test_the_loader_takes_a_damaged_game_file(data: bytes) -> None:
    load_bytes(data)


@settings(max_examples=60, deadline=None)
@given(mutated(SAMPLE))
def test_verify_takes_a_damaged_game_file(data: bytes) -> None:
    verify_bytes(data)


@FUZZ
@given(st.sampled_from(RULESETS), st.text(max_size=40))
def test_the_notation_parsers_take_any_text(rules: str, text: str) -> None:
    parse_notation(rules, text)


@FUZZ
@given(st.sampled_from(RULESETS),
       st.lists(st.sampled_from(["shoot", "guess", "resign", "pass", "remove", "x", "-", " ",
                                 "A", "Z", "9", "0", "99999999999999999999", "/", ",", "=",
                                 "cols", "rows", "\n", "\x00", "é"]), max_size=8))
def test_the_notation_parsers_take_near_misses(rules: str, words: list[str]) -> None:
    parse_notation(rules, " ".join(words))
    parse_notation(rules, "".join(words))


@FUZZ
@given(st.text(max_size=400))
def test_a_fork_proof_reader_takes_any_text(text: str) -> None:
    parse_proof("frogpbem-fork-proof 1\n" + text)


@FUZZ
@given(mutated(SAMPLE_MAIL) | st.binary(max_size=600))
def test_mail_readers_take_a_damaged_reply(data: bytes) -> None:
    read_mail(data)
    read_mail(b"From x Mon Nov 30 12:00:00 2026\n" + data)  # as an mbox


@settings(max_examples=100, deadline=None)
@given(mutated(SAMPLE_VIEW))
def test_the_view_of_a_damaged_view_file(data: bytes) -> None:
    show_view(data)


def test_the_undamaged_samples_read_and_every_ruleset_is_fuzzed() -> None:
    assert load_bytes(SAMPLE) is not None
    found = read_mail(SAMPLE_MAIL)[2]
    assert len(found.copies) == 1 and not found.problems
    assert all(show_view(SAMPLE_VIEW))
    assert {find_game(r).name for r in RULESETS} == {"frogfinder", "coan", "froglet",
                                                     "secretmove"}
