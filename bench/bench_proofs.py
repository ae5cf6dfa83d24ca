"""The cost of the proofs of games without a referee, against one Ed25519 signature.

Run by hand (``python bench/bench_proofs.py``); prints, from one run, the best wall
time of each step over ROUNDS runs (QUICK_ROUNDS for the steps of one shot), in ms and
as two ratios, both measured in the same run with cryptography's Ed25519 on a 200-byte
message: to one signature made (the cost of signing a record) and to one signature
checked (the cost of checking one, the natural unit of a check). The steps are
those of Frog Finder on a 12×12 board, 144 squares: one bit proof; red's setup (144
commitments with their bit proofs, the mask key and 144 masks with their proofs);
blue's selection (144 commitments with their bit proofs, 144 selections with their
proofs); the overlap; one shot's answer (8 + 8 commitments summed, one opening); and
one shot as the tools make and check it (frogpbem.duel.frogfinder): the mover's opening and
count box, the answerer's check of them, its empty proof and total, and the checks of both
on arrival. A
verifier reads every point from hex (the validity check is part of its cost) and
collects the first messages for the reused-nonce check. Not a test: nothing here
asserts a time.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frogpbem.crypto import (  # noqa: E402
    DerivedChance,
    G,
    H,
    Point,
    Proof,
    SeatSecret,
    bit_statement,
    commit,
    mask_statement,
    overlap_statement,
    prove,
    select_statement,
    total,
    verified_first_messages,
)
from frogpbem.crypto.group import _valid_encoding, opens_to  # noqa: E402

ROUNDS = 5
QUICK_ROUNDS = 100
"""Runs of each step of one shot: they take a millisecond, so the best of many is steadier."""
SIZE, FROGS = 12, 8
SQUARES = [f"{chr(65 + c)}{r + 1}" for r in range(SIZE) for c in range(SIZE)]
RED = SeatSecret("bench", "red", "00" * 31 + "01")
BLUE = SeatSecret("bench", "blue", "00" * 31 + "02")


def best(step: Callable[[], object], rounds: int = ROUNDS) -> float:
    times = []
    for _ in range(rounds):
        _valid_encoding.cache_clear()  # each round reads its points as a fresh process would
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)


def placement(seat: SeatSecret, other: SeatSecret) -> list[int]:
    chance = DerivedChance(seat.deal_key(other.public_seed(), 0))
    order = list(range(len(SQUARES)))
    for i in range(FROGS):  # partial Fisher-Yates
        j = i + chance.randrange(len(order) - i)
        order[i], order[j] = order[j], order[i]
    chosen = set(order[:FROGS])
    return [1 if q in chosen else 0 for q in range(len(SQUARES))]


def context(seat: SeatSecret, square: str) -> dict[str, str | int]:
    return {"game": seat.game, "header": "sha256:" + "00" * 32, "seat": seat.seat,
            "attempt": 0, "square": square}


def read(text: str) -> Point:
    return Point.from_hex(text, "a point")


def main() -> None:
    key = Ed25519PrivateKey.generate()
    message = bytes(200)
    signature = best(lambda: key.sign(message), 2000)
    signed, public = key.sign(message), key.public_key()
    check = best(lambda: public.verify(signed, message), 2000)
    red_bits, blue_bits = placement(RED, BLUE), placement(BLUE, RED)
    nonce_red, nonce_blue = RED.nonce_key(), BLUE.nonce_key()
    x = RED.mask_key(0)

    def red_setup() -> tuple[list[str], list[str], str, list[list[str]], list[list[str]]]:
        cs, ds, bits, masks = [], [], [], []
        p = x * H
        for q, name in enumerate(SQUARES):
            b, r = red_bits[q], RED.blinding(0, name)
            c = commit(b, r)
            d = x * (c - b * G)
            ctx = context(RED, name)
            bits.append(prove(bit_statement(ctx, c), b, [r], nonce_red).to_json())
            masks.append(prove(mask_statement(ctx, p, c, d), b, [r, x], nonce_red).to_json())
            cs.append(c.hex())
            ds.append(d.hex())
        return cs, ds, p.hex(), bits, masks

    red = red_setup()

    def red_check() -> None:
        cs, ds, p_hex, bits, masks = red
        p = read(p_hex)
        seen: set[Point] = set()
        for q, name in enumerate(SQUARES):
            c, d, ctx = read(cs[q]), read(ds[q]), context(RED, name)
            for statement, data in ((bit_statement(ctx, c), bits[q]),
                                    (mask_statement(ctx, p, c, d), masks[q])):
                proof = Proof.from_json(data, statement, "a proof")
                seen.update(verified_first_messages(statement, proof, "a proof"))

    def blue_select() -> tuple[list[str], list[str], list[str], list[list[str]], list[list[str]]]:
        cs, d_s, p_hex = red[0], red[1], red[2]
        p = read(p_hex)
        ks, es, fs, bits, selects = [], [], [], [], []
        for q, name in enumerate(SQUARES):
            k, s, t = blue_bits[q], BLUE.blinding(0, name), BLUE.selection(0, name)
            c, d = read(cs[q]), read(d_s[q])
            kk = commit(k, s)
            e, f = k * c + t * H, k * d + t * p
            ctx = context(BLUE, name)
            bits.append(prove(bit_statement(ctx, kk), k, [s], nonce_blue).to_json())
            selects.append(prove(select_statement(ctx, kk, c, d, p, e, f), k, [s, t],
                                 nonce_blue).to_json())
            ks.append(kk.hex())
            es.append(e.hex())
            fs.append(f.hex())
        return ks, es, fs, bits, selects

    blue = blue_select()

    def blue_check() -> None:
        cs, d_s, p = red[0], red[1], read(red[2])
        ks, es, fs, bits, selects = blue
        seen: set[Point] = set()
        for q, name in enumerate(SQUARES):
            kk, e, f, ctx = read(ks[q]), read(es[q]), read(fs[q]), context(BLUE, name)
            c, d = read(cs[q]), read(d_s[q])
            for statement, data in ((bit_statement(ctx, kk), bits[q]),
                                    (select_statement(ctx, kk, c, d, p, e, f), selects[q])):
                proof = Proof.from_json(data, statement, "a proof")
                seen.update(verified_first_messages(statement, proof, "a proof"))

    def overlap() -> tuple[int, Point, Point, Point, Proof]:
        s_e, s_f = total(read(e) for e in blue[1]), total(read(f) for f in blue[2])
        found = s_e - x.inverse() * s_f
        m = next(m for m in range(FROGS + 1) if m * G == found)
        ctx = {"game": "bench", "header": "sha256:" + "00" * 32, "seat": "red", "attempt": 0,
               "count": m}
        p = x * H
        return m, s_e, s_f, p, prove(overlap_statement(ctx, p, s_e, s_f, m, FROGS), 0, [x],
                                                nonce_red)

    m, s_e, s_f, p, overlap_proof = overlap()

    def overlap_check() -> None:
        ctx = {"game": "bench", "header": "sha256:" + "00" * 32, "seat": "red", "attempt": 0,
               "count": m}
        verified_first_messages(overlap_statement(ctx, p, s_e, s_f, m, FROGS), overlap_proof,
                                "it")

    around = list(range(8))  # eight squares around a shot, on each side

    def shot_check() -> None:
        red_sum = total(read(red[0][j]) for j in around)
        blue_sum = total(read(blue[0][j]) for j in around)
        k = sum(red_bits[j] + blue_bits[j] for j in around)
        blinding = RED.blinding(0, SQUARES[0])
        for j in around[1:]:
            blinding = blinding + RED.blinding(0, SQUARES[j])
        for j in around:
            blinding = blinding + BLUE.blinding(0, SQUARES[j])
        assert opens_to(red_sum + blue_sum, k, blinding)

    from frogpbem.board import Board
    from frogpbem.duel.frogfinder import (
        Answer,
        Context,
        CountBox,
        MoverPart,
        answer,
        check_answer,
        check_mover_part,
        commit_placement,
        mover_part,
        open_box,
        seal_box,
    )
    from frogpbem.duel.frogfinder import placement as placed_frogs
    from frogpbem.games.frogs_notation import Shoot

    board = Board(SIZE)
    red_ctx = Context("bench", "sha256:" + "00" * 32, "red", 0)
    blue_ctx = red_ctx.of("blue")
    red_frogs = placed_frogs(RED, board, FROGS, BLUE.public_seed(), 0)
    blue_frogs = placed_frogs(BLUE, board, FROGS, RED.public_seed(), 0)
    red_c = commit_placement(red_ctx, RED, board, red_frogs)
    blue_c = commit_placement(blue_ctx, BLUE, board, blue_frogs)
    square = next(q for q in board.squares() if q not in red_frogs | blue_frogs
                  and 0 < q.row < SIZE - 1 and 0 < q.col < SIZE - 1)
    shot = Shoot(square)
    blue_box_key = BLUE.box_key(0) * H

    def mover() -> tuple[MoverPart, CountBox]:
        opening, count = mover_part(RED, 0, board, red_frogs, shot)
        assert count is not None
        return opening, seal_box(red_ctx, RED, board, blue_c, blue_box_key, 7, square, count)

    opening, box = mover()

    def answerer() -> Answer:
        check_mover_part(board, red_c, shot, opening)
        count = open_box(red_ctx, BLUE, board, red_c, 7, square, box)
        assert count is not None, "the bench's box is true"
        return answer(blue_ctx, BLUE, board, blue_frogs, 7, shot, count)

    given = answerer()

    def arrival() -> None:
        check_mover_part(board, red_c, shot, opening)
        check_answer(blue_ctx, board, 7, shot, blue_c, red_c, given)

    one = bit_statement(context(RED, "A1"), commit(1, RED.blinding(0, "A1")))
    one_proof = prove(one, 1, [RED.blinding(0, "A1")], nonce_red)
    steps = [
        ("one bit proof, prove", lambda: prove(one, 1, [RED.blinding(0, "A1")], nonce_red),
         QUICK_ROUNDS),
        ("one bit proof, verify", lambda: verified_first_messages(one, one_proof, "it"),
         QUICK_ROUNDS),
        ("red's setup: 144 commitments, bits, masks, prove", red_setup, ROUNDS),
        ("red's setup, read and verify", red_check, ROUNDS),
        ("blue's selection: 144 commitments, bits, selects, prove", blue_select, ROUNDS),
        ("blue's selection, read and verify", blue_check, ROUNDS),
        ("the overlap: decrypt m and prove", overlap, ROUNDS),
        ("the overlap, verify", overlap_check, QUICK_ROUNDS),
        ("one shot's answer: read 8+8 commitments, opening", shot_check, QUICK_ROUNDS),
        ("a shot as the tool makes it: opening, count box", mover, QUICK_ROUNDS),
        ("its answer: check, open the box, empty proof + total", answerer, QUICK_ROUNDS),
        ("both checked on arrival (opening, empty proof, total)", arrival, QUICK_ROUNDS),
    ]
    print(f"baseline 'signed': one Ed25519 signature made (200 bytes): "
          f"{signature * 1e3:.3f} ms")
    print(f"baseline 'checked': one Ed25519 signature checked (200 bytes): "
          f"{check * 1e3:.3f} ms")
    signing, checking = message_signature()
    print(f"(one message signed as the tools sign it (SSHSIG): {signing * 1e3:.3f} ms, "
          f"its signature checked: {checking * 1e3:.3f} ms)")
    print(f"(the placements overlap on {m} square{'s' if m != 1 else ''})")
    print(f"{'step':<58} {'ms':>9}   {'signed':>8} {'checked':>8}")
    for name, step, rounds in steps:
        seconds = best(step, rounds)
        print(f"{name:<58} {seconds * 1e3:9.3f}   {seconds / signature:8.1f} "
              f"{seconds / check:8.1f}")


def message_signature() -> tuple[float, float]:
    """What signing a game message, and checking its signature, costs in frogpbem: the
    SSHSIG of its canonical JSON with an Ed25519 key (the unit the answers are paid in
    beside the bare signature above)."""
    import tempfile

    from frogpbem import crypto
    from frogpbem.gamefile.duelfile import Message

    with tempfile.TemporaryDirectory() as folder:
        key = crypto.generate_key(Path(folder) / "key", "bench")
    unsigned = Message(3, "sha256:" + "0" * 64, "red", "2026-12-02T12:00:00Z",
                       move="shoot G9")
    signed = unsigned.signed(key)
    return best(lambda: unsigned.signed(key), 200), best(lambda: signed.verify(key.public),
                                                        200)


if __name__ == "__main__":
    main()
