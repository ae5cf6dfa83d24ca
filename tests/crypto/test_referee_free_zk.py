"""The group and the proofs of games without a referee, against an independent reference
(tests/crypto/ed25519_ref.py: pure-Python Ed25519 and the spec's proof written again)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.crypto import group, proofs
from frogpbem.crypto.group import G, H, L, Point, Scalar, commit, opens_to, total
from frogpbem.crypto.proofs import (
    Proof,
    Statement,
    bit_statement,
    first_messages,
    mask_statement,
    overlap_statement,
    prove,
    select_statement,
    verify,
)
from frogpbem.errors import ProofError
from tests.crypto import ed25519_ref as ref

SPEC_G = "2aff6f458e03573870c3516eb2a0fa5f5c8415e57eeb9da408eb917bad5d4226"
CONTEXT: dict[str, str | int] = {"game": "g-1", "header": "sha256:" + "ab" * 32, "seat": "red",
                                 "attempt": 0, "square": "D4"}
KEY = bytes(31) + b"\x01"


def fixed_scalar(label: str) -> int:
    """A fixed scalar for the vectors, made with hashlib alone."""
    return int.from_bytes(hashlib.sha512(label.encode()).digest(), "little") % L


def mine(a: ref.Pt) -> Point:
    """The reference's point as ours, through its encoding."""
    return Point.from_hex(ref.phex(a), "a reference point")


def same_statement(ours: Statement, theirs: list[list[ref.Eq]]) -> None:
    assert ours.to_json() == ref.statement_json(theirs)


def check_vector(ours: Statement, theirs: list[list[ref.Eq]], tau: int, witness: list[int]
                 ) -> None:
    """Our prover and the reference's make the same bytes; each verifies the other's."""
    same_statement(ours, theirs)
    context = dict(ours.context)
    proof = prove(ours, tau, [Scalar(x) for x in witness], KEY)
    expected = ref.prove(ours.tag, context, theirs, tau, witness, KEY)
    assert proof.to_json() == [ref.shex(s) for s in expected]
    assert ref.verify(ours.tag, context, theirs, [s.value for s in proof.scalars])
    verify(ours, Proof.from_json([ref.shex(s) for s in expected], ours, "the proof"), "the proof")


# --- the group ------------------------------------------------------------------------------


def test_referee_free_g_is_the_specs_recomputed_independently() -> None:
    assert ref.G_COUNTER == 4
    assert ref.phex(ref.G) == SPEC_G == G.hex()
    assert group.generator_g() == (4, G)
    assert H.hex() == ref.phex(ref.BASE)


@pytest.mark.parametrize("b", [0, 1, 2, 5, -1])
def test_referee_free_commitments_match_the_reference(b: int) -> None:
    r = fixed_scalar(f"r{b}")
    assert commit(b, Scalar(r)).hex() == ref.phex(ref.commit(b, r))
    assert opens_to(commit(b, Scalar(r)), b, Scalar(r))
    assert not opens_to(commit(b, Scalar(r)), b + 1, Scalar(r))


def test_referee_free_scalar_arithmetic_matches_integers() -> None:
    a, b = Scalar(fixed_scalar("a")), Scalar(fixed_scalar("b"))
    assert (a + b).value == (a.value + b.value) % L
    assert (a - b).value == (a.value - b.value) % L
    assert (a * b).value == a.value * b.value % L
    assert (-a).value == L - a.value
    assert (a * a.inverse()).value == 1
    assert Scalar.from_hex(a.hex(), "a") == a
    assert group.hash_to_scalar(b"x").value == \
        int.from_bytes(hashlib.sha512(b"x").digest(), "little") % L


def test_referee_free_identity_only_by_arithmetic() -> None:
    assert (0 * G).is_identity and (L * G).is_identity and (G - G).is_identity
    assert Point.identity().hex() == "01" + "00" * 31
    assert 1 * H == H and 0 * Point.identity() == Point.identity()
    assert (Scalar(3) * Point.identity()).is_identity
    assert (Point.identity() + H) == H
    assert opens_to(commit(0, Scalar(0)), 0, Scalar(0))
    assert total([]) == Point.identity()


# --- points and scalars refused -------------------------------------------------------------


def torsion() -> list[bytes]:
    """The encodings of the eight points of order dividing 8, found with the reference."""
    y = 2
    while True:
        a = ref.decode(y.to_bytes(32, "little"))
        if a is not None:
            t = ref.mul(L, a)  # the torsion part of a, times L
            if not ref.equal(ref.mul(4, t), ref.IDENTITY):
                return [ref.encode(ref.mul(k, t)) for k in range(8)]
        y += 1


def test_referee_free_the_torsion_points_are_the_known_ones() -> None:
    found = {e.hex() for e in torsion()}
    assert len(found) == 8
    assert {"01" + "00" * 31, "ec" + "ff" * 30 + "7f", "00" * 32,
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"} < found


@pytest.mark.parametrize("k", range(8))
def test_referee_free_small_order_points_are_refused(k: int) -> None:
    with pytest.raises(ProofError, match="C_D4 is not a valid point"):
        Point.from_hex(torsion()[k].hex(), "C_D4")


@pytest.mark.parametrize("k", range(1, 8))
def test_referee_free_mixed_order_points_are_refused(k: int) -> None:
    mixed = ref.add(ref.commit(1, fixed_scalar("mixed")), ref.decode(torsion()[k]) or ref.BASE)
    assert ref.decode(ref.encode(mixed)) is not None  # on the curve, canonical
    with pytest.raises(ProofError, match="is not a valid point"):
        Point.from_hex(ref.phex(mixed), "P")


def test_referee_free_non_canonical_encodings_are_refused() -> None:
    refused = 0
    for y in range(ref.P, 2**255):
        for sign in (0, 1):
            text = (y | sign << 255).to_bytes(32, "little").hex()
            with pytest.raises(ProofError):
                Point.from_hex(text, "P")
            refused += 1
    assert refused == 38


def test_referee_free_off_curve_encodings_are_refused() -> None:
    y = 2
    while ref.decode(y.to_bytes(32, "little")) is not None:
        y += 1
    with pytest.raises(ProofError, match="is not a valid point"):
        Point.from_hex(y.to_bytes(32, "little").hex(), "P")


@pytest.mark.parametrize("text", ["zz" * 32, SPEC_G.upper(), SPEC_G[:62], SPEC_G + "00", "",
                                  " " + SPEC_G[1:], 5, None, b"\x00" * 32])
def test_referee_free_malformed_points_and_scalars_are_refused(text: object) -> None:
    with pytest.raises(ProofError, match="is not a point"):
        Point.from_hex(text, "P")
    with pytest.raises(ProofError, match="is not a scalar"):
        Scalar.from_hex(text, "z")


@pytest.mark.parametrize("value", [L, L + 1, 2 * L, 2**256 - 1])
def test_referee_free_scalars_not_below_l_are_refused(value: int) -> None:
    text = value.to_bytes(32, "little").hex()
    with pytest.raises(ProofError, match="z is not a canonical scalar"):
        Scalar.from_hex(text, "z")
    statement = bit_statement(CONTEXT, commit(0, Scalar(5)))
    proof = prove(statement, 0, [Scalar(5)], KEY).to_json()
    proof[3] = text
    with pytest.raises(ProofError, match="scalar 3 of the bit proof"):
        Proof.from_json(proof, statement, "the bit proof")
    assert Scalar.from_hex((L - 1).to_bytes(32, "little").hex(), "z").value == L - 1


def test_referee_free_a_proof_of_the_wrong_length_is_refused() -> None:
    statement = bit_statement(CONTEXT, commit(0, Scalar(5)))
    proof = prove(statement, 0, [Scalar(5)], KEY).to_json()
    for wrong in (proof[:3], [*proof, proof[0]], [], "".join(proof), {"e": proof[0]}):
        with pytest.raises(ProofError, match="the bit proof"):
            Proof.from_json(wrong, statement, "the bit proof")


# --- known answers: the four statements -----------------------------------------------------


@pytest.mark.parametrize("b", [0, 1])
def test_referee_free_bit_vector(b: int) -> None:
    r = fixed_scalar("bit r")
    c = ref.commit(b, r)
    check_vector(bit_statement(CONTEXT, mine(c)), ref.bit(c), b, [r])


@pytest.mark.parametrize("b", [0, 1])
def test_referee_free_mask_vector(b: int) -> None:
    r, x = fixed_scalar("mask r"), fixed_scalar("mask x")
    c, p = ref.commit(b, r), ref.mul(x, ref.H)
    d = ref.mul(x, ref.sub(c, ref.mul(b, ref.G)))
    assert ref.equal(d, ref.mul(r, p))  # D = r·P = x·(C − b·G)
    check_vector(mask_statement(CONTEXT, mine(p), mine(c), mine(d)), ref.mask(p, c, d), b,
                 [r, x])


@pytest.mark.parametrize(("k", "b"), [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_referee_free_select_vector(k: int, b: int) -> None:
    r, x, s, t = (fixed_scalar(f"select {n}") for n in "rxst")
    c, p = ref.commit(b, r), ref.mul(x, ref.H)
    d = ref.mul(x, ref.sub(c, ref.mul(b, ref.G)))
    kk = ref.commit(k, s)
    e = ref.add(ref.mul(k, c), ref.mul(t, ref.H))
    f = ref.add(ref.mul(k, d), ref.mul(t, p))
    ours = select_statement(CONTEXT, mine(kk), mine(c), mine(d), mine(p), mine(e), mine(f))
    check_vector(ours, ref.select(kk, c, d, p, e, f), k, [s, t])


def placement_run(red: list[int], blue: list[int]) -> tuple[int, ref.Pt, ref.Pt, ref.Pt, int]:
    """The reference's Frog Finder overlap over a few squares: ``(x, P, S_E, S_F, m)``."""
    x = fixed_scalar("overlap x")
    p = ref.mul(x, ref.H)
    s_e, s_f = ref.IDENTITY, ref.IDENTITY
    for q, (b, k) in enumerate(zip(red, blue, strict=True)):
        c = ref.commit(b, fixed_scalar(f"r{q}"))
        d = ref.mul(x, ref.sub(c, ref.mul(b, ref.G)))
        t = fixed_scalar(f"t{q}")
        s_e = ref.add(s_e, ref.add(ref.mul(k, c), ref.mul(t, ref.H)))
        s_f = ref.add(s_f, ref.add(ref.mul(k, d), ref.mul(t, p)))
    return x, p, s_e, s_f, sum(b * k for b, k in zip(red, blue, strict=True))


@pytest.mark.parametrize("blue", [[0, 0, 1, 1], [1, 0, 0, 1], [1, 1, 0, 1]])
def test_referee_free_overlap_vector(blue: list[int]) -> None:
    x, p, s_e, s_f, m = placement_run([1, 1, 0, 0], blue)
    # red finds m from S_E − x⁻¹·S_F = m·G
    found = mine(s_e) - Scalar(x).inverse() * mine(s_f) if not ref.equal(s_f, ref.IDENTITY) \
        else mine(s_e)
    assert found == m * G
    context = {**CONTEXT, "count": m}
    del context["square"]
    check_vector(overlap_statement(context, mine(p), mine(s_e), mine(s_f), m, 4),
                 ref.overlap(p, s_e, s_f, m), 0, [x])
    with pytest.raises(ValueError, match="do not satisfy"):
        prove(overlap_statement(context, mine(p), mine(s_e), mine(s_f), m + 1, 4), 0,
              [Scalar(x)], KEY)


# --- must fail ------------------------------------------------------------------------------


@pytest.mark.parametrize("b", [2, -1])
def test_referee_free_no_bit_proof_for_a_non_bit(b: int) -> None:
    r = fixed_scalar("non-bit r")
    c = ref.commit(b, r)
    statement = bit_statement(CONTEXT, mine(c))
    for tau in (0, 1):
        with pytest.raises(ValueError, match="do not satisfy"):
            prove(statement, tau, [Scalar(r)], KEY)
        forged = ref.prove("bit", dict(CONTEXT), ref.bit(c), tau, [r], KEY)
        assert not ref.verify("bit", dict(CONTEXT), ref.bit(c), forged)
        with pytest.raises(ProofError, match="the bit proof for D4 does not hold"):
            verify(statement, Proof(tuple(Scalar(s) for s in forged)), "the bit proof for D4")


@pytest.mark.parametrize(("field", "value"), [("square", "E4"), ("seat", "blue"),
                                              ("game", "g-2"), ("attempt", 1),
                                              ("header", "sha256:" + "cd" * 32)])
def test_referee_free_a_proof_moved_elsewhere_is_refused(field: str, value: str | int) -> None:
    r = Scalar(fixed_scalar("moved r"))
    c = commit(1, r)
    proof = prove(bit_statement(CONTEXT, c), 1, [r], KEY)
    verify(bit_statement(CONTEXT, c), proof, "the bit proof")
    with pytest.raises(ProofError, match="does not hold"):
        verify(bit_statement({**CONTEXT, field: value}, c), proof, "the bit proof")


def test_referee_free_a_proof_for_another_commitment_is_refused() -> None:
    r = Scalar(fixed_scalar("other r"))
    proof = prove(bit_statement(CONTEXT, commit(1, r)), 1, [r], KEY)
    for other in (commit(1, r + Scalar(1)), commit(0, r), commit(1, r) + G):
        with pytest.raises(ProofError, match="does not hold"):
            verify(bit_statement(CONTEXT, other), proof, "the bit proof")
    x = Scalar(fixed_scalar("other x"))
    c, p = commit(1, r), x * H
    d = x * (c - G)
    mask = prove(mask_statement(CONTEXT, p, c, d), 1, [r, x], KEY)
    with pytest.raises(ProofError, match="does not hold"):
        verify(mask_statement(CONTEXT, p, c, d + G), mask, "the mask proof")
    with pytest.raises(ProofError, match="does not hold"):  # another tag, the same equations
        verify(Statement("select", CONTEXT, mask_statement(CONTEXT, p, c, d).branches), mask,
               "the mask proof")


def fixed_stream(values: list[int]) -> Iterator[int]:
    yield from values
    yield from (fixed_scalar(f"more {j}") for j in range(100))


@pytest.mark.parametrize("position", [0, 1, 2, 3])
def test_referee_free_a_zero_challenge_or_response_is_refused(position: int) -> None:
    """A proof that holds as an equation but has a zero ``e_i`` or ``z_{i,w}``: the reference
    prover puts the zero in the simulated branch; only the zero check refuses it."""
    r = fixed_scalar("zero r")
    simulated = position // 2  # positions 0, 1 are branch 0's e and z; 2, 3 branch 1's
    tau = 1 - simulated
    values = [fixed_scalar("u"), fixed_scalar("e"), fixed_scalar("z")]  # u, then e_i, z_i
    values[1 + position % 2] = 0
    c = ref.commit(tau, r)  # the true branch's bit
    scalars = ref.prove("bit", dict(CONTEXT), ref.bit(c), tau, [r],
                        stream=lambda: fixed_stream(values))
    assert scalars[position] == 0
    assert ref.verify("bit", dict(CONTEXT), ref.bit(c), scalars, refuse_zero=False)
    proof = Proof.from_json([ref.shex(s) for s in scalars], bit_statement(CONTEXT, mine(c)), "p")
    with pytest.raises(ProofError, match="the bit proof has a zero scalar"):
        verify(bit_statement(CONTEXT, mine(c)), proof, "the bit proof")


def test_referee_free_a_flipped_bit_is_refused() -> None:
    r = Scalar(fixed_scalar("flip r"))
    statement = bit_statement(CONTEXT, commit(1, r))
    good = prove(statement, 1, [r], KEY).to_json()
    for index in range(len(good)):
        for byte in range(32):
            for bit in (0, 7):
                data = bytearray(bytes.fromhex(good[index]))
                data[byte] ^= 1 << bit
                changed = list(good)
                changed[index] = data.hex()
                with pytest.raises(ProofError):
                    verify(statement, Proof.from_json(changed, statement, "p"), "p")


def test_referee_free_one_nonce_for_two_proofs_gives_the_witness_away() -> None:
    r = fixed_scalar("reused r")
    c = ref.commit(0, r)
    values = [fixed_scalar("one u"), fixed_scalar("one e"), fixed_scalar("one z")]
    contexts = [dict(CONTEXT), {**CONTEXT, "attempt": 1}]
    made = [ref.prove("bit", ctx, ref.bit(c), 0, [r], stream=lambda: fixed_stream(values))
            for ctx in contexts]
    statements = [bit_statement(ctx, mine(c)) for ctx in contexts]
    firsts = []
    for statement, scalars in zip(statements, made, strict=True):
        proof = Proof(tuple(Scalar(s) for s in scalars))
        # each verifies on its own
        firsts.append(proofs.verified_first_messages(statement, proof, "the bit proof"))
        assert firsts[-1] == first_messages(statement, proof)
    shared = set(firsts[0]) & set(firsts[1])
    assert shared  # what the verifier refuses a game for
    # an onlooker: where a first message is shared, z − z' = (e − e')·x
    (e1, z1), (e2, z2) = made[0][0:2], made[1][0:2]
    x = (z1 - z2) * pow(e1 - e2, -1, L) % L
    assert x == r and opens_to(mine(c), 0, Scalar(x))


def test_referee_free_prove_never_shares_a_first_message() -> None:
    r = Scalar(fixed_scalar("shared r"))
    x = Scalar(fixed_scalar("shared x"))
    seen: list[Point] = []
    count = 0
    for attempt in range(3):
        for square in ("A1", "B1", "C1"):
            ctx = {**CONTEXT, "attempt": attempt, "square": square}
            for statement, tau, witness in (
                    (bit_statement(ctx, commit(1, r)), 1, [r]),
                    (bit_statement(ctx, commit(0, r)), 0, [r]),
                    (mask_statement(ctx, x * H, commit(0, r), x * commit(0, r)), 0, [r, x])):
                seen.extend(first_messages(statement, prove(statement, tau, witness, KEY)))
                count += 1
    assert count == 27 and len(set(seen)) == len(seen) == 18 * 2 + 9 * 6


def test_referee_free_a_wrong_witness_count_or_branch_is_refused() -> None:
    r = Scalar(7)
    statement = bit_statement(CONTEXT, commit(0, r))
    for tau, witness in ((2, [r]), (-1, [r]), (0, []), (0, [r, r])):
        with pytest.raises(ValueError, match="do not satisfy"):
            prove(statement, tau, witness, KEY)


# --- properties -----------------------------------------------------------------------------

scalars = st.integers(min_value=1, max_value=L - 1).map(Scalar)


@settings(max_examples=25, deadline=None)
@given(b=st.integers(0, 1), r=scalars, key=st.binary(min_size=32, max_size=32))
def test_referee_free_honest_bit_proofs_verify(b: int, r: Scalar, key: bytes) -> None:
    statement = bit_statement(CONTEXT, commit(b, r))
    proof = prove(statement, b, [r], key)
    verify(statement, Proof.from_json(proof.to_json(), statement, "p"), "p")


@settings(max_examples=15, deadline=None)
@given(b=st.integers(0, 1), k=st.integers(0, 1), r=scalars, x=scalars, s=scalars, t=scalars)
def test_referee_free_honest_mask_and_select_proofs_verify(
        b: int, k: int, r: Scalar, x: Scalar, s: Scalar, t: Scalar) -> None:
    c, p = commit(b, r), x * H
    d = x * (c - b * G)
    mask = mask_statement(CONTEXT, p, c, d)
    verify(mask, prove(mask, b, [r, x], KEY), "the mask proof")
    e, f = k * c + t * H, k * d + t * p
    select = select_statement(CONTEXT, commit(k, s), c, d, p, e, f)
    verify(select, prove(select, k, [s, t], KEY), "the select proof")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), scalars), min_size=1, max_size=8))
def test_referee_free_commitments_add(pairs: list[tuple[int, Scalar]]) -> None:
    points = [commit(b, r) for b, r in pairs]
    k = sum(b for b, _ in pairs)
    blinding = Scalar(0)
    for _, r in pairs:
        blinding = blinding + r
    assert opens_to(total(points), k, blinding)
    assert not opens_to(total(points), k + 1, blinding)
    assert not opens_to(total(points), k, blinding + Scalar(1))
    assert total(points).hex() == ref.phex(ref.commit(k, blinding.value))


def test_referee_free_proofs_module_names_its_tags() -> None:
    assert proofs.TAGS == ("bit", "mask", "select", "overlap", "legal", "empty", "box")
