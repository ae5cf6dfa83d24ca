"""The outside review's findings, each a test: the ``mask`` proof binds ``D`` to the bit
committed in ``C`` (the review's attack, red proving a mask for a bit of its choice, now
fails), the count box of a shot opens only for an answerer without a frog on the square,
the ``empty`` proof, and the statement builders' refusals. Expected values come from the
independent reference (tests/crypto/ed25519_ref.py) and hashlib."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frogpbem.crypto.countbox import box_keys, open_count, seal_count
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.crypto.group import G, H, L, Point, Scalar, commit, total
from frogpbem.crypto.proofs import (
    Proof,
    bit_statement,
    box_statement,
    empty_statement,
    mask_statement,
    overlap_statement,
    prove,
    select_statement,
    verify,
)
from frogpbem.errors import ProofError
from tests.crypto import ed25519_ref as ref

CONTEXT: dict[str, str | int] = {"game": "g-1", "header": "sha256:" + "ab" * 32, "seat": "red",
                                 "attempt": 0, "square": "D4"}
MOVE: dict[str, str | int] = {"game": "g-1", "header": "sha256:" + "ab" * 32, "seat": "red",
                              "n": 3, "square": "D4"}
KEY = bytes(31) + b"\x02"


def fixed(label: str) -> int:
    return int.from_bytes(hashlib.sha512(label.encode()).digest(), "little") % L


def mine(a: ref.Pt) -> Point:
    return Point.from_hex(ref.phex(a), "a reference point")


def ours(scalars: list[int]) -> Proof:
    return Proof(tuple(Scalar(s) for s in scalars))


# --- the mask binds D to C's bit --------------------------------------------------------


@pytest.mark.parametrize("b", [0, 1])
def test_referee_free_mask_for_the_other_bit_cannot_be_made(b: int) -> None:
    r, x = Scalar(fixed(f"mask r {b}")), Scalar(fixed(f"mask x {b}"))
    c, p = commit(b, r), x * H
    for beta in (0, 1):
        d = x * (c - beta * G)
        statement = mask_statement(CONTEXT, p, c, d)
        if beta == b:
            verify(statement, prove(statement, b, [r, x], KEY), "the mask proof")
            continue
        # D masks the other bit: no branch holds for the seat's witnesses
        for tau in (0, 1):
            with pytest.raises(ValueError, match="do not satisfy"):
                prove(statement, tau, [r, x], KEY)
        # nor for any blinding that opens C to beta: there is none (binding); the
        # reference prover, which checks nothing, makes a proof that does not verify
        for witness in ([r.value, x.value], [(r.value + 1) % L, x.value],
                        [fixed("guess"), x.value]):
            forged = ref.prove("mask", dict(CONTEXT), ref.mask(mine_ref(p), mine_ref(c),
                                                               mine_ref(d)), beta, witness, KEY)
            assert not ref.verify("mask", dict(CONTEXT),
                                  ref.mask(mine_ref(p), mine_ref(c), mine_ref(d)), forged)
            with pytest.raises(ProofError, match="does not hold"):
                verify(statement, ours(forged), "the mask proof")


def mine_ref(a: Point) -> ref.Pt:
    point = ref.decode(a.encoded)
    assert point is not None
    return point


def test_referee_free_the_reviews_mask_attack_fails() -> None:
    """/tmp/review-zk/mask_cheat.py: red masks with a bit β of its choosing. With β = 1
    everywhere it would read blue's whole placement (E_q − x⁻¹F_q = K_q·G); with β = 0 it
    would show m = 0 over overlapping frogs. Now the mask proof of every square whose β
    is not red's bit cannot be made, and a hand-made one does not verify."""
    rnd = random.Random(1)
    squares = [f"S{i}" for i in range(16)]
    red_bits = [1 if i in (0, 1, 2) else 0 for i in range(16)]
    for beta in ([1] * 16, [0] * 16):
        x = Scalar(rnd.randrange(1, L))
        p = x * H
        refused = 0
        for i, square in enumerate(squares):
            ctx = {**CONTEXT, "square": square}
            r = Scalar(rnd.randrange(1, L))
            c = commit(red_bits[i], r)
            d = x * (c - beta[i] * G)
            statement = mask_statement(ctx, p, c, d)
            if beta[i] == red_bits[i]:
                verify(statement, prove(statement, beta[i], [r, x], KEY), "the mask proof")
                continue
            with pytest.raises(ValueError, match="do not satisfy"):
                prove(statement, beta[i], [r, x], KEY)
            forged = ref.prove("mask", dict(ctx), ref.mask(mine_ref(p), mine_ref(c),
                                                           mine_ref(d)), beta[i],
                               [r.value, x.value], KEY)
            with pytest.raises(ProofError, match="does not hold"):
                verify(statement, ours(forged), "the mask proof")
            refused += 1
        assert refused == (13 if beta[0] else 3)


def test_referee_free_honest_mask_gives_the_true_overlap() -> None:
    """With the honest mask (D = r·P), blue's selection encrypts the true number of shared
    squares: the m = 0 of the review's attack cannot be proven over overlapping frogs."""
    rnd = random.Random(2)
    red_bits, blue_bits = [1, 1, 0, 0, 1, 0], [0, 1, 0, 1, 1, 0]
    x = Scalar(rnd.randrange(1, L))
    p = x * H
    es, fs = [], []
    for i, (b, k) in enumerate(zip(red_bits, blue_bits, strict=True)):
        ctx = {**CONTEXT, "square": f"S{i}"}
        r, s, t = (Scalar(rnd.randrange(1, L)) for _ in range(3))
        c = commit(b, r)
        d = r * p
        verify(mask_statement(ctx, p, c, d), prove(mask_statement(ctx, p, c, d), b, [r, x],
                                                   KEY), "mask")
        e, f = k * c + t * H, k * d + t * p
        sel = select_statement({**ctx, "seat": "blue"}, commit(k, s), c, d, p, e, f)
        verify(sel, prove(sel, k, [s, t], KEY), "select")
        es.append(e)
        fs.append(f)
    s_e, s_f = total(es), total(fs)
    octx = {k: v for k, v in CONTEXT.items() if k != "square"} | {"count": 0}
    assert s_e - x.inverse() * s_f == 2 * G
    with pytest.raises(ValueError, match="do not satisfy"):
        prove(overlap_statement(octx, p, s_e, s_f, 0, 3), 0, [x], KEY)
    good = overlap_statement({**octx, "count": 2}, p, s_e, s_f, 2, 3)
    verify(good, prove(good, 0, [x], KEY), "overlap")


# --- the builders' refusals -------------------------------------------------------------


@pytest.mark.parametrize("m", [True, False, -1, 4, 2.0, "1", None])
def test_referee_free_overlap_count_is_a_whole_number_in_range(m: object) -> None:
    p = Scalar(5) * H
    with pytest.raises(ProofError, match="whole number 0..3"):
        overlap_statement({**CONTEXT, "count": 0}, p, G, p, m, 3)  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ["game", "header", "seat", "attempt", "square"])
def test_referee_free_builders_need_their_context_keys(key: str) -> None:
    ctx = {k: v for k, v in CONTEXT.items() if k != key}
    c, p = commit(1, Scalar(3)), Scalar(5) * H
    for build in (lambda: bit_statement(ctx, c), lambda: mask_statement(ctx, p, c, p),
                  lambda: select_statement(ctx, c, c, p, p, c, p)):
        with pytest.raises(ProofError, match=f"lacks {key}"):
            build()
    octx = {k: v for k, v in CONTEXT.items() if k not in ("square", key)} | {"count": 0}
    if key != "square":
        with pytest.raises(ProofError, match=f"lacks {key}"):
            overlap_statement(octx, p, c, p, 0, 2)
    mctx = {k: v for k, v in MOVE.items() if k != key}
    if key != "attempt":
        with pytest.raises(ProofError, match=f"lacks {key}"):
            empty_statement(mctx, c)
    with pytest.raises(ProofError, match="lacks n"):
        empty_statement({k: v for k, v in MOVE.items() if k != "n"}, c)
    with pytest.raises(ProofError, match="lacks count"):
        overlap_statement({k: v for k, v in CONTEXT.items() if k != "square"}, p, c, p, 0, 2)


# --- the empty proof ----------------------------------------------------------------------


def test_referee_free_empty_vector_and_refusals() -> None:
    r = fixed("empty r")
    c = ref.commit(0, r)
    statement = empty_statement(MOVE, mine(c))
    assert statement.to_json() == ref.statement_json(ref.empty(c))
    proof = prove(statement, 0, [Scalar(r)], KEY)
    assert [s.value for s in proof.scalars] == ref.prove("empty", dict(MOVE), ref.empty(c), 0,
                                                         [r], KEY)
    assert ref.verify("empty", dict(MOVE), ref.empty(c), [s.value for s in proof.scalars])
    verify(statement, proof, "the empty proof")
    for field, value in (("square", "E4"), ("n", 4), ("seat", "blue"), ("game", "g-2"),
                         ("header", "sha256:" + "cd" * 32)):
        with pytest.raises(ProofError, match="does not hold"):
            verify(empty_statement({**MOVE, field: value}, mine(c)), proof, "the empty proof")
    # a frog there: no empty proof can be made, and a hand-made one does not verify
    frog = ref.commit(1, r)
    with pytest.raises(ValueError, match="do not satisfy"):
        prove(empty_statement(MOVE, mine(frog)), 0, [Scalar(r)], KEY)
    forged = ref.prove("empty", dict(MOVE), ref.empty(frog), 0, [r], KEY)
    with pytest.raises(ProofError, match="does not hold"):
        verify(empty_statement(MOVE, mine(frog)), ours(forged), "the empty proof")


# --- the count box ------------------------------------------------------------------------


def reference_box(context: dict[str, str | int], y: int, answering: ref.Pt, box_key: ref.Pt,
                  count: int, blinding: int) -> tuple[str, bytes]:
    """The spec's box, from hashlib and the reference group alone."""
    y_point = ref.mul(y, ref.H)
    body = dict(context) | {"Y": ref.phex(y_point), "key": ref.phex(ref.mul(y, answering)),
                            "shared": ref.phex(ref.mul(y, box_key))}
    pad = hashlib.sha512(b"frogpbem/1 count-box\n" + ref.cjson(body)).digest()[:33]
    plain = bytes([count]) + (blinding % L).to_bytes(32, "little")
    return ref.phex(y_point), bytes(a ^ b for a, b in zip(plain, pad, strict=True))


def reference_box_branches(c: ref.Pt, a: ref.Pt, y: ref.Pt, z1: ref.Pt, z2: ref.Pt
                           ) -> list[list[ref.Eq]]:
    """The spec's ``box`` statement: one branch, witnesses r (0) and a (1)."""
    return [[(0, ref.H, c), (0, y, z1), (1, ref.H, a), (1, y, z2)]]


def test_referee_free_box_key_is_the_specs() -> None:
    secret = SeatSecret("g-1", "blue", "22" * 32)
    fields = {"game": "g-1", "seat": "blue", "secret": "22" * 32, "attempt": 2}
    assert secret.box_key(2).value == int.from_bytes(hashlib.sha512(
        b"frogpbem/1 duel-box\n" + ref.cjson(fields)).digest(), "little") % L
    assert secret.box_key(2) != secret.box_key(3)


def test_referee_free_count_box_vector() -> None:
    secret = SeatSecret("g-1", "red", "11" * 32)
    y = secret.count_key(3, "D4")
    # y = reduce(D("duel-count", F + {n, square})), recomputed with hashlib
    fields = {"game": "g-1", "seat": "red", "secret": "11" * 32, "n": 3, "square": "D4"}
    assert y.value == int.from_bytes(hashlib.sha512(
        b"frogpbem/1 duel-count\n" + ref.cjson(fields)).digest(), "little") % L
    r_q, r_m, a = fixed("box r_q"), fixed("box R_M"), fixed("box a")
    answering, box_key = ref.commit(0, r_q), ref.mul(a, ref.H)
    y_point, box = seal_count(MOVE, y, mine(answering), mine(box_key), 2, Scalar(r_m))
    expected_y, expected_box = reference_box(MOVE, y.value, answering, box_key, 2, r_m)
    assert y_point.hex() == expected_y and box == expected_box
    keys = box_keys(y_point, Scalar(r_q), Scalar(a))
    assert [k.hex() for k in keys] == [ref.phex(ref.mul(y.value * r_q, ref.H)),
                                       ref.phex(ref.mul(y.value * a, ref.H))]
    assert open_count(MOVE, y_point, box, *keys) == (2, Scalar(r_m))


def test_referee_free_box_proof_vector() -> None:
    """The complaint's ``box`` proof: our prover and the reference's make the same bytes,
    and each verifies the other's."""
    r, a, y = fixed("complaint r"), fixed("complaint a"), fixed("complaint y")
    c, big_a, big_y = ref.commit(0, r), ref.mul(a, ref.H), ref.mul(y, ref.H)
    z1, z2 = ref.mul(r, big_y), ref.mul(a, big_y)
    theirs = reference_box_branches(c, big_a, big_y, z1, z2)
    statement = box_statement(MOVE, mine(c), mine(big_a), mine(big_y), mine(z1), mine(z2))
    assert statement.to_json() == ref.statement_json(theirs)
    proof = prove(statement, 0, [Scalar(r), Scalar(a)], KEY)
    expected = ref.prove("box", dict(MOVE), theirs, 0, [r, a], KEY)
    assert proof.to_json() == [ref.shex(s) for s in expected]
    assert ref.verify("box", dict(MOVE), theirs, [s.value for s in proof.scalars])
    verify(statement, ours(expected), "the box proof")


def test_referee_free_box_proof_with_a_wrong_key_or_moved_is_refused() -> None:
    r, a, y = Scalar(fixed("complaint r")), Scalar(fixed("complaint a")), \
        Scalar(fixed("complaint y"))
    c, big_a, big_y = commit(0, r), a * H, y * H
    z1, z2 = r * big_y, a * big_y
    proof = prove(box_statement(MOVE, c, big_a, big_y, z1, z2), 0, [r, a], KEY)
    verify(box_statement(MOVE, c, big_a, big_y, z1, z2), proof, "the box proof")
    for context, keys in (
            (MOVE, (z1 + H, z2)), (MOVE, (z1, z2 + H)), (MOVE, (z2, z1)),
            ({**MOVE, "n": 4}, (z1, z2)), ({**MOVE, "square": "E4"}, (z1, z2)),
            ({**MOVE, "seat": "blue"}, (z1, z2)), ({**MOVE, "game": "g-2"}, (z1, z2))):
        with pytest.raises(ProofError, match="does not hold"):
            verify(box_statement(context, c, big_a, big_y, *keys), proof, "the box proof")
    # keys for a frog square cannot be proven: no r gives C = G + r·H as r·H
    with pytest.raises(ValueError, match="do not satisfy"):
        prove(box_statement(MOVE, commit(1, r), big_a, big_y, z1, z2), 0, [r, a], KEY)
    with pytest.raises(ProofError, match="lacks n"):
        box_statement({k: v for k, v in MOVE.items() if k != "n"}, c, big_a, big_y, z1, z2)


@settings(max_examples=20, deadline=None)
@given(count=st.integers(0, 8), r_q=st.integers(1, L - 1), r_m=st.integers(0, L - 1),
       y=st.integers(1, L - 1), a=st.integers(1, L - 1))
def test_referee_free_count_box_opens_only_without_a_frog(count: int, r_q: int, r_m: int,
                                                         y: int, a: int) -> None:
    empty, frog, box_key = commit(0, Scalar(r_q)), commit(1, Scalar(r_q)), Scalar(a) * H
    y_point, box = seal_count(MOVE, Scalar(y), empty, box_key, count, Scalar(r_m))
    keys = box_keys(y_point, Scalar(r_q), Scalar(a))
    assert open_count(MOVE, y_point, box, *keys) == (count, Scalar(r_m))
    # the same box for another move, square or seat does not open
    for field, value in (("n", 4), ("square", "E4"), ("seat", "blue")):
        assert open_count({**MOVE, field: value}, y_point, box, *keys) != \
            (count, Scalar(r_m))
    # on a frog square the answerer's r_q·Y is not the key y·C = y·G + r_q·Y: what comes out
    # is noise (and a spectator, who knows neither y nor r_q, has no better key)
    y_point, box = seal_count(MOVE, Scalar(y), frog, box_key, count, Scalar(r_m))
    keys = box_keys(y_point, Scalar(r_q), Scalar(a))
    assert open_count(MOVE, y_point, box, *keys) != (count, Scalar(r_m))


@settings(max_examples=30, deadline=None)
@given(count=st.integers(0, 8), r_q=st.integers(1, L - 1), r_m=st.integers(0, L - 1),
       y=st.integers(1, L - 1), a=st.integers(1, L - 1), guess=st.integers(1, L - 1))
def test_referee_free_spectator_with_the_blinding_cannot_open_the_box(
        count: int, r_q: int, r_m: int, y: int, a: int, guess: int) -> None:
    """A spectator given the answerer's blinding r_q (as public sums may isolate it late in a
    game) and everything public (Y, A, C, the box) has the first key r_q·Y but not a·Y:
    the keys it can form from them (A, Y, C, r_q·A, a guessed scalar's multiple of Y) do not
    give the pad, so the box does not open to the count."""
    empty, box_key = commit(0, Scalar(r_q)), Scalar(a) * H
    y_point, box = seal_count(MOVE, Scalar(y), empty, box_key, count, Scalar(r_m))
    key = Scalar(r_q) * y_point
    shared = Scalar(a) * y_point
    for second in (box_key, y_point, empty, Scalar(r_q) * box_key, Scalar(guess) * y_point,
                   key, box_key + y_point):
        if second == shared:
            continue  # a guess of a itself (probability 2^-252)
        assert open_count(MOVE, y_point, box, key, second) != (count, Scalar(r_m))


def test_referee_free_count_box_key_is_not_public() -> None:
    """Everything public about a hit (Y, the box, C = G + r·H, and the opening r itself, which
    a hit's answer shows) does not give the key y·C: r·Y misses it by y·G."""
    y, r, a = Scalar(fixed("hit y")), Scalar(fixed("hit r")), Scalar(fixed("hit a"))
    frog = commit(1, r)
    y_point, box = seal_count(MOVE, y, frog, a * H, 3, Scalar(fixed("hit R")))
    assert y * frog == r * y_point + y * G != r * y_point
    assert open_count(MOVE, y_point, box, *box_keys(y_point, r, a)) != \
        (3, Scalar(fixed("hit R")))
