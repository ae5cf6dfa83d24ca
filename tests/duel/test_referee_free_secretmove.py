"""Secret Move without a referee (frogpbem.duel.secretmove): header commitments prove a
permutation, move proofs prove legality and nothing else, guesses are committed before
they are opened, and a whole game played by the two seats alone ends as the rules,
replayed with both seats' headers by an independent referee, say it ends.

Expected values come from outside the code under test: cells are recomputed from the
spec with hashlib, json and libsodium directly; legality from the rules' legal_moves;
scores by summing stones × (column header + row header) here."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl import bindings

from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.crypto.group import Scalar, commit
from frogpbem.crypto.proofs import Proof, bit_statement, prove
from frogpbem.duel.secretmove import (
    HEADERS,
    GuessCommitment,
    GuessOpening,
    HeaderCommitments,
    Headers,
    LegalProof,
    check_reveal,
    headers_secret,
    legal_statement,
    own_headers,
    read_headers,
    seal_guess,
    unseal_guess,
)
from frogpbem.errors import (
    CommitmentError,
    GameFileError,
    IllegalMoveError,
    InconsistentResultError,
    NotationError,
    ProofError,
)
from frogpbem.games.secretmove import (
    AutoPass,
    Guessed,
    Pass,
    Quiet,
    SealedGuess,
    SecretMove,
    SecretMoveResult,
    State,
    StoneMove,
    legal_moves,
)
from frogpbem.games.secretmove_view import SQUARES, adjacent, values_of

GAME, HEADER = "sm-referee-free", "sha256:" + "ab" * 32
L = 2**252 + 27742317777372353535851937790883648493
SETTINGS = settings(max_examples=12, deadline=None)


def _secret(seat: str, seed: int = 0, game: str = GAME) -> SeatSecret:
    return SeatSecret(game, seat, random.Random(f"{seat}{seed}").randbytes(32).hex())


def _values(headers: Headers) -> dict[str, int]:
    """Each square's value, by the rules' definition, computed here."""
    return {square: headers[HEADERS.index(square[0])] + headers[HEADERS.index(square[1])]
            for square in SQUARES}


# --- an independent implementation of the spec's derivations, for known answers --------------


def _spec_blinding(secret: SeatSecret, square: str) -> int:
    fields = {"game": secret.game, "seat": secret.seat, "secret": secret.secret,
              "attempt": 0, "square": square}
    body = json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.sha512(b"frogpbem/1 duel-blind\n" + body).digest(),
                          "little") % L


def _spec_commit(bit: int, r: int) -> bytes:
    """``bit·G + r·H`` with libsodium directly (G from the spec's published encoding, H
    the base point)."""
    g1 = bytes.fromhex("2aff6f458e03573870c3516eb2a0fa5f5c8415e57eeb9da408eb917bad5d4226")
    rh = bindings.crypto_scalarmult_ed25519_base_noclamp(r.to_bytes(32, "little"))
    if bit == 0:
        return rh
    g = bindings.crypto_scalarmult_ed25519_noclamp((bit % L).to_bytes(32, "little"), g1)
    return bindings.crypto_core_ed25519_add(g, rh)


KNOWN: Headers = (0, 3, 5, 1, 2, 4)


def test_referee_free_known_headers_commit_as_the_spec_derives() -> None:
    secret = _secret("red")
    made = HeaderCommitments.make(secret, HEADER, KNOWN)
    made.check(GAME, HEADER, "red")
    for h, name in enumerate(HEADERS):
        for v in range(6):
            r = _spec_blinding(secret, f"{name}={v}")
            assert made.cells[h][v].encoded == _spec_commit(int(KNOWN[h] == v), r)
        value_blinding = sum(v * _spec_blinding(secret, f"{name}={v}") for v in range(6)) % L
        assert made.value(name).encoded == _spec_commit(KNOWN[h], value_blinding)
    a1_blinding = sum(v * (_spec_blinding(secret, f"A={v}") + _spec_blinding(secret, f"1={v}"))
                      for v in range(6)) % L
    assert made.square("A1").encoded == _spec_commit(0 + 1, a1_blinding)
    text = json.dumps(made.to_json())
    assert HeaderCommitments.from_json(json.loads(text), "red") == made
    check_reveal(made, KNOWN, secret)


def test_referee_free_commitments_are_bound_to_game_header_and_seat() -> None:
    made = HeaderCommitments.make(_secret("red"), HEADER, KNOWN)
    for game, header, seat in ((GAME + "x", HEADER, "red"), (GAME, "sha256:" + "cd" * 32, "red"),
                               (GAME, HEADER, "blue")):
        with pytest.raises(ProofError, match="commits to 0 or 1"):
            made.check(game, header, seat)


def _mangle(data: dict[str, object], key: str, value: object) -> dict[str, object]:
    return {**data, key: value}


def test_referee_free_malformed_commitments_are_refused_in_a_sentence() -> None:
    good = HeaderCommitments.make(_secret("red"), HEADER, KNOWN).to_json()
    cells, bits, rows = good["cells"], good["bits"], good["rows"]
    assert isinstance(cells, list) and isinstance(bits, list) and isinstance(rows, list)
    bad: list[object] = [
        None, [], {**good, "extra": 1}, {k: v for k, v in good.items() if k != "rows"},
        _mangle(good, "cells", cells[:5]),
        _mangle(good, "cells", [*cells[:5], [*cells[5], cells[5][0]]]),  # a value 6
        _mangle(good, "cells", [["00" * 32] * 6] + cells[1:]),  # not a valid point
        _mangle(good, "cells", [[c.upper() for c in cells[0]]] + cells[1:]),
        _mangle(good, "bits", [[bits[0][0][:3], *bits[0][1:]], *bits[1:]]),  # short proof
        _mangle(good, "bits", [[None, *bits[0][1:]], *bits[1:]]),  # a missing proof
        _mangle(good, "rows", [*rows[:5], "ff" * 32]),  # not below the group order
        _mangle(good, "columns", rows[:5]),
    ]
    for data in bad:
        with pytest.raises(ProofError) as refused:
            HeaderCommitments.from_json(data, "red")  # type: ignore[arg-type]
        assert "\n" not in str(refused.value) and str(refused.value).startswith("red's")


@SETTINGS
@given(st.permutations(range(6)), st.integers(0, 10**6))
def test_referee_free_any_permutation_commits_and_checks(numbers: list[int], seed: int) -> None:
    headers: Headers = tuple(numbers)  # type: ignore[assignment]
    secret = _secret("blue", seed)
    made = HeaderCommitments.make(secret, HEADER, headers)
    HeaderCommitments.from_json(made.to_json(), "blue").check(GAME, HEADER, "blue")
    check_reveal(made, headers, secret)
    other = list(headers)
    i, j = seed % 6, (seed // 6) % 5
    j += j >= i
    other[i], other[j] = other[j], other[i]
    with pytest.raises(CommitmentError):
        check_reveal(made, tuple(other), secret)  # type: ignore[arg-type]
    with pytest.raises(CommitmentError):
        check_reveal(made, headers, _secret("blue", seed + 1))


@pytest.mark.parametrize("headers", [(3, 3, 5, 1, 2, 4), (0, 3, 6, 1, 2, 4), (0, 1, 2, 3, 4),
                                     (0, 1, 2, 3, 4, True)])
def test_referee_free_make_refuses_a_non_permutation(headers: Headers) -> None:
    with pytest.raises(NotationError, match="once each"):
        HeaderCommitments.make(_secret("red"), HEADER, headers)


def _forge(matrix: list[list[int]], secret: SeatSecret, fake: Proof) -> HeaderCommitments:
    """Commitments to any integer matrix: honest bit proofs where a cell is 0 or 1, ``fake``
    elsewhere; honest blinding sums (they open a row or column only if it sums to 1)."""
    key = secret.nonce_key()
    blind = [[Scalar(_spec_blinding(secret, f"{name}={v}")) for v in range(6)]
             for name in HEADERS]
    cells = [[commit(matrix[h][v], blind[h][v]) for v in range(6)] for h in range(6)]
    bits = [[prove(bit_statement({"game": GAME, "header": HEADER, "seat": secret.seat,
                                  "attempt": 0, "square": f"{HEADERS[h]}={v}"}, cells[h][v]),
                   matrix[h][v], (blind[h][v],), key)
             if matrix[h][v] in (0, 1) else fake for v in range(6)] for h in range(6)]

    def add(scalars: list[Scalar]) -> Scalar:
        return Scalar.of(sum(s.value for s in scalars))

    return HeaderCommitments(tuple(map(tuple, cells)), tuple(map(tuple, bits)),
                             tuple(add(blind[h]) for h in range(6)),
                             tuple(add([blind[h][v] for h in range(6)]) for v in range(6)))


def _permutation(headers: Headers) -> list[list[int]]:
    return [[int(headers[h] == v) for v in range(6)] for h in range(6)]


def test_referee_free_hand_built_non_permutations_are_refused() -> None:
    secret = _secret("red")
    honest = HeaderCommitments.make(secret, HEADER, KNOWN)
    assert _forge(_permutation(KNOWN), secret, honest.bits[0][0]) == honest  # the forger is sound
    fake = honest.bits[0][0]  # a real proof, of another cell
    # a repeated value: A = B = 3, nobody on 0 (every cell a bit, every row sums to 1)
    with pytest.raises(ProofError, match="value 0 is not on exactly one header"):
        _forge(_permutation((3, 3, 5, 1, 2, 4)), secret, fake).check(GAME, HEADER, "red")
    # a row summing to 2: header A on both 0 and 2, header C on nothing
    two = _permutation(KNOWN)
    two[0][2], two[2][5] = 1, 0
    with pytest.raises(ProofError, match="header A does not take exactly one value"):
        _forge(two, secret, fake).check(GAME, HEADER, "red")
    # A worth 6 (= 5 + 1 − 0) with every row and column summing to 1: only the bit proof
    # of the cell A=0, which commits to −1, can refuse it
    six = _permutation((0, 5, 1, 2, 3, 4))
    six[0][0], six[0][5], six[0][1] = -1, 1, 1
    six[1][5], six[1][0] = 0, 1
    six[2][1], six[2][0] = 0, 1
    assert all(sum(row) == 1 for row in six)
    assert all(sum(col) == 1 for col in zip(*six, strict=True))
    assert sum(v * six[0][v] for v in range(6)) == 6
    forged = _forge(six, secret, fake)
    with pytest.raises(ProofError, match="cell A=0 commits to 0 or 1"):
        forged.check(GAME, HEADER, "red")
    missing = forged.to_json()
    missing["bits"] = [[None, *row[1:]] if i == 0 else row  # type: ignore[index]
                       for i, row in enumerate(missing["bits"])]  # type: ignore[arg-type]
    with pytest.raises(ProofError, match="proof for cell A=0"):
        HeaderCommitments.from_json(missing, "red")
    with pytest.raises(ValueError):  # nor can an honest prover make that proof
        prove(bit_statement({"game": GAME, "header": HEADER, "seat": "red", "attempt": 0,
                             "square": "A=0"}, forged.cells[0][0]),
              0, (Scalar(0),), secret.nonce_key())


# --- legal move proofs ------------------------------------------------------------------------


def _stones(rng: random.Random) -> dict[str, int]:
    stones = dict.fromkeys(SQUARES, 0)
    for _ in range(27):
        stones[rng.choice(SQUARES)] += 1
    return stones


@SETTINGS
@given(st.permutations(range(6)), st.integers(0, 10**6))
def test_referee_free_every_legal_move_is_proven_and_bound(numbers: list[int], seed: int
                                                           ) -> None:
    headers: Headers = tuple(numbers)  # type: ignore[assignment]
    rng = random.Random(seed)
    secret = _secret("red", seed)
    mine = HeaderCommitments.make(secret, HEADER, headers)
    theirs = HeaderCommitments.make(_secret("blue", seed), HEADER, (5, 4, 3, 2, 1, 0))
    values = _values(headers)
    assert values == values_of(headers_secret(headers))
    stones = _stones(rng)
    moves = legal_moves(stones, values)
    bound = set(rng.sample(range(len(moves)), min(4, len(moves))))
    for index, (src, dst, count) in enumerate(moves):
        move = StoneMove(src, dst, count)
        n = rng.randint(1, 10)
        proof = LegalProof.from_json(json.loads(json.dumps(LegalProof.make(
            mine, secret, HEADER, headers, n, move).to_json())), "red")
        proof.check(mine, GAME, HEADER, "red", n, move)
        assert len(proof.to_json()) == 2 * (9 - count)
        if index not in bound:  # each proof is bound: checked on a few, for time
            continue
        wrong = [(mine, GAME, HEADER, "red", n + 1, move),
                 (mine, GAME + "x", HEADER, "red", n, move),
                 (mine, GAME, "sha256:" + "00" * 32, "red", n, move),
                 (mine, GAME, HEADER, "blue", n, move),
                 (theirs, GAME, HEADER, "red", n, move)]
        if count < 8:
            wrong.append((mine, GAME, HEADER, "red", n, StoneMove(src, dst, count + 1)))
        if count > 1:  # same size of proof, another move
            wrong.append((mine, GAME, HEADER, "red", n, StoneMove(dst, src, count)))
        if src[1] == dst[1]:  # along a row: the same move on another row has the same gap
            row = "1" if src[1] != "1" else "2"
            wrong.append((mine, GAME, HEADER, "red", n,
                          StoneMove(src[0] + row, dst[0] + row, count)))
        if src[0] == dst[0]:  # likewise along a column
            col = "A" if src[0] != "A" else "B"
            wrong.append((mine, GAME, HEADER, "red", n,
                          StoneMove(col + src[1], col + dst[1], count)))
        for commitments, game, header, seat, number, other in wrong:
            with pytest.raises(ProofError, match="is legal"):
                proof.check(commitments, game, header, seat, number, other)
    # every adjacent move the values forbid (any count 1..8) cannot be proven at all
    for src, dst in itertools.permutations(SQUARES, 2):
        if not adjacent(src, dst):
            continue
        for count in range(max(1, values[dst] - values[src] + 1), 9):
            move = StoneMove(src, dst, count)
            with pytest.raises(IllegalMoveError):
                LegalProof.make(mine, secret, HEADER, headers, 1, move)
            statement = legal_statement(mine, GAME, HEADER, "red", 1, move)
            witness = mine_witness(secret, dst) - mine_witness(secret, src)
            for branch in range(len(statement.branches)):
                with pytest.raises(ValueError):
                    prove(statement, branch, (witness,), secret.nonce_key())
    assert len(moves) == sum(min(values[d] - values[s], stones[s])
                             for s, d in itertools.permutations(SQUARES, 2)
                             if adjacent(s, d) and values[d] > values[s])


def mine_witness(secret: SeatSecret, square: str) -> Scalar:
    """The blinding of a square's value commitment, from the spec's derivation."""
    return Scalar.of(sum(v * (_spec_blinding(secret, f"{square[0]}={v}")
                              + _spec_blinding(secret, f"{square[1]}={v}")) for v in range(6)))


def test_referee_free_legal_proofs_refuse_impossible_counts_and_bad_shapes() -> None:
    made = HeaderCommitments.make(_secret("red"), HEADER, KNOWN)
    for count in (0, 9, 12):
        with pytest.raises(ProofError, match="can never be legal"):
            legal_statement(made, GAME, HEADER, "red", 1, StoneMove("A1", "B1", count))
    for data in (None, [], ["00" * 32] * 3, ["01" + "00" * 31] * 18, [1, 2], {"a": 1},
                 ["zz" * 32, "01" + "00" * 31]):
        with pytest.raises(ProofError, match="red's legal move proof"):
            LegalProof.from_json(data, "red")  # type: ignore[arg-type]
    # a proof of the right length made of garbage is refused by check, not accepted
    garbage = LegalProof.from_json(["01" + "00" * 31] * 14, "red")
    with pytest.raises(ProofError, match="does not hold"):
        garbage.check(made, GAME, HEADER, "red", 1, StoneMove("A1", "B1", 2))
    # the largest gap: A1 = 0 + 1 and B2 = 4 + 5; a count of 8 takes one branch
    secret, eight = _secret("red", 8), (0, 4, 2, 1, 5, 3)
    assert _values(eight)["B2"] - _values(eight)["A1"] == 8
    mine = HeaderCommitments.make(secret, HEADER, eight)
    for count in (1, 8):
        move = StoneMove("A1", "B2", count)
        proof = LegalProof.make(mine, secret, HEADER, eight, 3, move)
        assert len(proof.to_json()) == 2 * (9 - count)
        proof.check(mine, GAME, HEADER, "red", 3, move)
    with pytest.raises(ProofError, match="is legal"):
        LegalProof.make(mine, secret, HEADER, eight, 3, StoneMove("A1", "B2", 8)).check(
            made, GAME, HEADER, "red", 3, StoneMove("A1", "B2", 8))


# --- guesses ----------------------------------------------------------------------------------


def test_referee_free_guesses_are_committed_then_opened() -> None:
    secret = _secret("blue")
    guess = (1, 4, 6, 2, 5, 7, 4, 7, 9)
    opening = GuessOpening.make(secret, guess)
    assert opening == GuessOpening.make(secret, list(guess))  # the salt is derived: same again
    commitment = GuessCommitment.make(GAME, "blue", opening)
    body = json.dumps({"game": GAME, "seat": "blue", "guess": list(guess),
                       "salt": opening.salt}, sort_keys=True, separators=(",", ":")).encode()
    assert commitment.to_json() == "sha256:" + hashlib.sha256(
        b"frogpbem/1 duel-guess\n" + body).hexdigest()
    assert opening.salt == Scalar(_spec_blinding(secret, "guess")).hex()
    read = GuessCommitment.from_json(json.loads(json.dumps(commitment.to_json())))
    assert read.open(GAME, "blue", GuessOpening.from_json(opening.to_json())) == guess
    others = [(GAME, "red", opening), (GAME + "x", "blue", opening),
              (GAME, "blue", replace(opening, guess=(1, 4, 6, 2, 5, 7, 4, 7, 8))),
              (GAME, "blue", replace(opening, salt="00" * 32))]
    for game, seat, other in others:
        with pytest.raises(CommitmentError, match="not the one it committed to"):
            read.open(game, seat, other)
    for bad in ((1, 4, 6), (0, 4, 6, 2, 5, 7, 4, 7, 9), (1, 4, 6, 2, 5, 7, 4, 7, 10)):
        with pytest.raises(NotationError, match="nine values"):
            GuessOpening.make(secret, bad)
    for data in (None, "sha256:" + "AB" * 32, "sha256:" + "ab" * 31, "md5:" + "ab" * 32):
        with pytest.raises(GameFileError, match="guess commitment"):
            GuessCommitment.from_json(data)
    for data in (None, {"guess": list(guess)}, {"guess": list(guess), "salt": "ab"},
                 {"guess": [*guess, 1], "salt": "ab" * 32},
                 {"guess": [*guess[:8], 0], "salt": "ab" * 32},
                 {"guess": [*guess[:8], True], "salt": "ab" * 32},
                 {"guess": list(guess), "salt": "ab" * 32, "more": 1}):
        with pytest.raises(GameFileError, match="guess opening"):
            GuessOpening.from_json(data)  # type: ignore[arg-type]


# --- whole games, with an independent referee ------------------------------------------------


def test_referee_free_headers_read_from_the_rules_secret() -> None:
    assert read_headers({"cols": [0, 3, 5], "rows": [1, 2, 4]}) == KNOWN
    assert headers_secret(KNOWN) == {"cols": [0, 3, 5], "rows": [1, 2, 4]}
    for bad in ({"cols": [0, 3, 3], "rows": [1, 2, 4]}, {"cols": [0, 3, 5]}, [0, 3]):
        with pytest.raises(NotationError):
            read_headers(bad)  # type: ignore[arg-type]


def _play(seed: int) -> None:
    """Two seats play a game alone; the public state never knows a header."""
    rng = random.Random(seed)
    rules = SecretMove()
    seats = ("red", "blue")
    headers: dict[str, Headers] = {}
    secrets = {seat: _secret(seat, seed) for seat in seats}
    mailed = {}
    for seat in seats:
        numbers = list(range(6))
        rng.shuffle(numbers)
        headers[seat] = tuple(numbers)  # type: ignore[assignment]
        mailed[seat] = json.dumps(HeaderCommitments.make(secrets[seat], HEADER,
                                                         headers[seat]).to_json())
    commitments = {}
    for seat in seats:  # each seat's tool reads and checks the other's commitments
        commitments[seat] = HeaderCommitments.from_json(json.loads(mailed[seat]), seat)
        commitments[seat].check(GAME, HEADER, seat)
    public = rules.start({}, seats, None, {})
    log: list[tuple[str, StoneMove | Pass | SealedGuess, SecretMoveResult]] = []
    while rules.phase(public) == "moves":
        seat = rules.to_move(public)
        assert seat is not None
        values = _values(headers[seat])  # the mover knows its own values
        moves = legal_moves(public.stones[seat], values)
        result: SecretMoveResult = Quiet()
        move: StoneMove | Pass
        if not moves:
            move, result = Pass(), AutoPass()  # accepted unproven: the audit checks it
        elif rng.randrange(15) == 0:
            move = Pass()
        else:
            move = StoneMove(*rng.choice(moves))
            n = len(public.history[seat]) + 1
            sent = json.dumps(LegalProof.make(commitments[seat], secrets[seat], HEADER,
                                              headers[seat], n, move).to_json())
            LegalProof.from_json(json.loads(sent), seat).check(
                commitments[seat], GAME, HEADER, seat, n, move)  # the other seat's check
        rules.check_move(public, seat, move)  # what is public: adjacency, stones
        public, _ = rules.apply(public, seat, move, result)
        log.append((seat, move, result))
    truths = {seat: tuple(_values(headers[seat])[sq] for sq in SQUARES) for seat in seats}
    openings, shown = {}, {}
    for seat in seats:
        other = "blue" if seat == "red" else "red"
        guess = truths[other] if rng.randrange(2) else tuple(rng.randint(1, 9) for _ in SQUARES)
        openings[seat] = GuessOpening.make(secrets[seat], guess)
        shown[seat] = GuessCommitment.make(GAME, seat, openings[seat]).to_json()
    for seat in seats:  # both commitments are in: now the openings
        guess = GuessCommitment.from_json(shown[seat]).open(
            GAME, seat, GuessOpening.from_json(openings[seat].to_json()))
        public, _ = rules.apply(public, seat, SealedGuess(guess), Guessed())
        log.append((seat, SealedGuess(guess), Guessed()))
    for seat in seats:
        check_reveal(commitments[seat], headers[seat], secrets[seat])
    revealed = replace(public, secrets={s: headers_secret(headers[s]) for s in seats})
    duel = rules.outcome(revealed)
    # the independent referee: the rules with both headers from the start check every move
    referee: State = rules.start({}, seats, None, {s: headers_secret(headers[s]) for s in seats})
    for seat, move, result in log:
        rules.check_move(referee, seat, move)
        referee, _ = rules.apply(referee, seat, move, result)
    assert duel is not None and duel == rules.outcome(referee)
    points = {place.seat: place.points for place in duel.standing}
    for seat in seats:
        values = _values(headers[seat])
        assert points[seat] == sum(public.stones[seat][sq] * values[sq] for sq in SQUARES)


@SETTINGS
@given(st.integers(0, 10**9))
def test_referee_free_whole_games_end_as_the_rules_say(seed: int) -> None:
    _play(seed)


def test_referee_free_a_false_automatic_pass_is_caught_at_the_reveal() -> None:
    rules = SecretMove()
    seats = ("red", "blue")
    both = {"red": headers_secret(KNOWN), "blue": headers_secret((5, 4, 3, 2, 1, 0))}
    public = rules.start({}, seats, None, {})
    public, _ = rules.apply(public, "red", Pass(), AutoPass())  # nobody can check it now
    assert legal_moves(public.stones["red"], values_of(both["red"]))
    referee = rules.start({}, seats, None, both)
    with pytest.raises(InconsistentResultError, match="had a legal move"):
        rules.apply(referee, "red", Pass(), AutoPass())



@SETTINGS
@given(st.permutations(range(6)), st.integers(0, 10**6))
def test_referee_free_own_headers_read_back_from_the_commitments(numbers: list[int],
                                                                 seed: int) -> None:
    """A seat's tool keeps nothing: its headers are the one value of each row whose cell
    opens to 1 with its own blinding; another secret reads nothing back."""
    headers: Headers = tuple(numbers)  # type: ignore[assignment]
    made = HeaderCommitments.make(_secret("red", seed), HEADER, headers)
    assert own_headers(made, _secret("red", seed)) == headers
    with pytest.raises(CommitmentError, match="not made with its secret"):
        own_headers(made, _secret("red", seed + 1))


@SETTINGS
@given(st.lists(st.integers(1, 9), min_size=9, max_size=9), st.integers(0, 10**6))
def test_referee_free_guess_copy_padded_as_the_spec_says(guess: list[int], seed: int) -> None:
    """``(Σ (v_i − 1)·9^i + p) mod 9^9`` with ``p`` the blinding of square ``guess-pad``,
    recomputed here with hashlib; it opens back to the guess with the secret."""
    secret = _secret("blue", seed)
    pad = _spec_blinding(secret, "guess-pad")
    expected = (sum((v - 1) * 9**i for i, v in enumerate(guess)) + pad) % 9**9
    assert seal_guess(secret, guess) == expected
    assert unseal_guess(secret, expected) == tuple(guess)
    with pytest.raises(NotationError):
        seal_guess(secret, [*guess[:8], 0])
