"""Provably fair dealing: joins, the derivation, its distribution, and what the audit catches."""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from frogpbem import crypto
from frogpbem.audit import audit
from frogpbem.gamefile import strictyaml
from frogpbem.games import find_game
from tests.conftest import Cli, Keys, Result, game_addressed, here


def chi_square_ok(observed: list[int], expected: float) -> bool:
    """Pearson's statistic within 5 standard deviations of its mean (df = cells - 1)."""
    statistic = sum((o - expected) ** 2 / expected for o in observed)
    df = len(observed) - 1
    return statistic < df + 5 * math.sqrt(2 * df)


def chance(index: int) -> crypto.DerivedChance:
    return crypto.DerivedChance(hashlib.sha256(f"test deal {index}".encode()).digest())


def test_randrange_is_uniform_without_modulo_bias() -> None:
    source = chance(0)
    for stop in (3, 6, 144, 1000):
        draws = Counter(source.randrange(stop) for _ in range(stop * 200))
        assert set(draws) <= set(range(stop))
        assert chi_square_ok([draws[v] for v in range(stop)], 200)
    with pytest.raises(ValueError):
        source.randrange(0)


def test_froglet_deals_have_exact_counts_and_uniform_squares() -> None:
    rules = find_game("froglet")
    deals = 1500
    per_square: dict[str, list[int]] = {c: [0] * 144 for c in "GYRB"}
    for index in range(deals):
        public, secrets = rules.deal({"size": 12}, ("white", "black"), chance(index))
        letters = "".join(public["rows"])
        assert Counter(letters) == {"G": 66, "Y": 51, "R": 21, "B": 6}
        assert secrets == {}
        for square, letter in enumerate(letters):
            per_square[letter][square] += 1
    for colour, count in {"G": 66, "Y": 51, "R": 21, "B": 6}.items():
        assert chi_square_ok(per_square[colour], deals * count / 144), colour


def test_frogfinder_placements_are_uniform_and_distinct() -> None:
    rules = find_game("frogfinder")
    deals = 1500
    per_square = {seat: Counter[str]() for seat in ("red", "blue")}
    for index in range(deals):
        _, secrets = rules.deal({"size": 12, "frogs": 5}, ("red", "blue"), chance(index))
        squares = secrets["red"]["frogs"] + secrets["blue"]["frogs"]
        assert len(set(squares)) == 10
        for seat in ("red", "blue"):
            per_square[seat].update(secrets[seat]["frogs"])
    names = [f"{c}{r}" for c in "ABCDEFGHIJKL" for r in range(1, 13)]
    for seat in ("red", "blue"):
        assert chi_square_ok([per_square[seat][n] for n in names], deals * 5 / 144), seat


def test_the_derivation_is_pinned() -> None:
    """The documented derivation, computed here by hand for one draw."""
    key = crypto.deal_key("ff-test", "11" * 32, {"red": "22" * 32})
    body = b'{"game":"ff-test","player_seeds":{"red":"' + b"22" * 32 + \
        b'"},"referee_seed":"' + b"11" * 32 + b'"}'
    assert key == hashlib.sha256(b"frogpbem/1 deal-key\n" + body).digest()
    import hmac
    first = hmac.new(key, (0).to_bytes(8, "big"), hashlib.sha256).digest()
    expected = next(b & 0x7F for b in first if b & 0x7F < 100)  # bits(99) = 7
    assert crypto.DerivedChance(key).randrange(100) == expected


# --- through the CLI ---------------------------------------------------------------


@pytest.fixture
def joined_game(tmp_path: Path, cli: Cli, keys: Keys) -> Callable[..., Path]:
    def make(rules: str = "frogfinder", size: int = 6) -> Path:
        game = tmp_path / f"{rules}.yaml"
        seats = ("red", "blue") if rules == "frogfinder" else ("white", "black")
        args: list[Any] = ["new", game, "--rules", rules, "--join", "--referee",
                           keys.path("referee"), "--option", f"size={size}",
                           "--seat", f"{seats[0]}={keys.pub('alice')}",
                           "--seat", f"{seats[1]}={keys.pub('bob')}"]
        if rules == "frogfinder":
            args += ["--option", "frogs=2"]
        created = cli(*args)
        assert created.exit_code == 0, created.output
        assert "now each seat joins" in created.stdout
        return game

    return make


def join_and_deal(cli: Cli, keys: Keys, game: Path, tmp_path: Path) -> Result:
    alice_copy = tmp_path / "alice-copy.yaml"
    alice_copy.write_bytes(game.read_bytes())
    assert cli("join", alice_copy, "--key", keys.path("alice")).exit_code == 0
    waiting = cli("deal", game, "--from", alice_copy, "--key", keys.path("referee"))
    assert waiting.exit_code == 0, waiting.output
    assert "waiting for" in waiting.stdout
    assert cli("join", game, "--key", keys.path("bob")).exit_code == 0
    dealt = cli("deal", game, "--key", keys.path("referee"))
    assert dealt.exit_code == 0, dealt.output
    return dealt


def test_deal_says_in_json_whether_it_dealt(joined_game: Callable[..., Path], cli: Cli,
                                           keys: Keys, tmp_path: Path) -> None:
    """``dealt`` in ``deal --json`` comes from whom the deal still waits for."""
    game = joined_game()
    alice_copy = tmp_path / "alice-copy.yaml"
    alice_copy.write_bytes(game.read_bytes())
    assert cli("join", alice_copy, "--key", keys.path("alice")).exit_code == 0
    waiting = cli("deal", game, "--from", alice_copy, "--key", keys.path("referee"), "--json")
    assert waiting.exit_code == 0, waiting.output
    said = json.loads(waiting.stdout)
    assert said["dealt"] is False and said["lines"] == ["waiting for blue to join"]
    assert cli("join", game, "--key", keys.path("bob")).exit_code == 0
    dealt = cli("deal", game, "--key", keys.path("referee"), "--json")
    assert dealt.exit_code == 0, dealt.output
    said = json.loads(dealt.stdout)
    assert said["dealt"] is True and said["lines"][0].startswith("dealt game ")


def test_join_then_deal_then_play_then_audit(joined_game: Callable[..., Path], cli: Cli,
                                             keys: Keys, tmp_path: Path) -> None:
    game = joined_game()
    assert "not dealt yet, waiting for red, blue" in cli("view", game, "--public").stdout
    early = cli("move", game, "shoot A1", "--key", keys.path("alice"))
    assert early.exit_code == 4 and "not dealt yet" in early.stderr  # noqa: PT018
    dealt = join_and_deal(cli, keys, game, tmp_path)
    assert "from the referee's seed and the seeds of red, blue" in dealt.stdout
    again = cli("join", game, "--key", keys.path("alice"))
    assert again.exit_code == 4 and "takes no joins" in again.stderr  # noqa: PT018
    frogs = json.loads(cli("view", game, "--key", keys.path("referee"), "--json").stdout)
    own = frogs["state"]["own_frogs"]
    empty = [f"{c}{r}" for c in "ABCDEF" for r in range(1, 7)
             if f"{c}{r}" not in own["red"] + own["blue"]]
    def play(player: str, move: str) -> None:
        assert cli("move", game, move, "--key", keys.path(player)).exit_code == 0
        assert cli("move", game, "--key", keys.path("referee")).exit_code == 0

    for index, square in enumerate(own["blue"]):  # red finds blue's frogs; blue misses
        play("alice", f"guess {square}")
        if strictyaml.loads(game.read_bytes())["reveal"] is None:
            play("bob", f"guess {empty[index]}")
    assert strictyaml.loads(game.read_bytes())["reveal"]["outcome"]["standing"][0]["seat"] == \
        "red"
    report = audit(game, clock=here().clock)
    assert report.ok, report.text()
    line = next(c.what for c in report.checks if c.what.startswith("deal:"))
    assert "the seeds that red, blue added: it matches" in line


def test_seats_cannot_join_twice_or_join_for_the_referee(
    joined_game: Callable[..., Path], cli: Cli, keys: Keys, new_game: Callable[..., Path]
) -> None:
    game = joined_game()
    assert cli("join", game, "--key", keys.path("alice")).exit_code == 0
    twice = cli("join", game, "--key", keys.path("alice"))
    assert twice.exit_code == 4 and "has joined already" in twice.stderr  # noqa: PT018
    referee = cli("join", game, "--key", keys.path("referee"))
    assert referee.exit_code == 2
    plain = new_game(setup=None, name="plain.yaml")
    assert cli("join", plain, "--key", keys.path("alice")).exit_code == 4


def finish_by_resignation(cli: Cli, keys: Keys, game: Path) -> None:
    assert cli("move", game, "resign", "--key", keys.path("bob")).exit_code == 0
    assert cli("move", game, "--key", keys.path("referee")).exit_code == 0


def rechain_from_deal(doc: dict[str, Any], key: crypto.PrivateKey) -> None:
    """Sign the deal, every record (their requests dropped) and the reveal again."""
    doc["deal"]["prev"] = crypto.element_hash("header", doc["header"])
    doc["deal"]["signature"] = crypto.sign_element(key, "deal", doc["deal"])
    prev = crypto.element_hash("deal", doc["deal"])
    for record in doc["log"]:
        record["prev"] = prev
        record.pop("request", None)
        record["signature"] = crypto.sign_element(key, "record", record)
        prev = crypto.element_hash("record", record)
    doc["reveal"]["prev"] = prev
    doc["reveal"]["signature"] = crypto.sign_element(key, "reveal", doc["reveal"])


def tamper(game: Path, keys: Keys, change: Callable[[dict[str, Any]], None]) -> list[str]:
    """A dishonest referee rewrites the file and signs everything again."""
    doc = strictyaml.loads(game.read_bytes())
    change(doc)
    key = keys.key("referee")
    doc["header"]["signature"] = crypto.sign_element(key, "header", doc["header"])
    rechain_from_deal(doc, key)
    game.write_text(strictyaml.dumps(doc))
    return [c.what for c in audit(game, clock=here().clock).checks if not c.ok]


@pytest.fixture
def finished_fair_game(joined_game: Callable[..., Path], cli: Cli, keys: Keys,
                       tmp_path: Path) -> Path:
    game = joined_game()
    join_and_deal(cli, keys, game, tmp_path)
    finish_by_resignation(cli, keys, game)
    report = audit(game, clock=here().clock)
    assert report.ok, report.text()
    return game


def test_revealed_seed_must_match_its_commitment(finished_fair_game: Path, keys: Keys) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["reveal"]["seed"] = "ab" * 32
    failures = tamper(finished_fair_game, keys, change)
    assert any("seed does not match its commitment" in f for f in failures), failures


def test_a_players_altered_seed_is_caught(finished_fair_game: Path, keys: Keys) -> None:
    def change(doc: dict[str, Any]) -> None:
        doc["deal"]["joins"][0]["seed"] = "cd" * 32
    failures = tamper(finished_fair_game, keys, change)
    assert any("deal: join (red): invalid signature by red" in f for f in failures), failures


def test_a_setup_other_than_the_derived_one_is_caught(finished_fair_game: Path,
                                                      keys: Keys) -> None:
    def change(doc: dict[str, Any]) -> None:
        # the referee swaps red's frogs for others and recommits (same salt) consistently
        revealed = doc["reveal"]["secrets"]["red"]
        taken = set(revealed["secret"]["frogs"]) | set(
            doc["reveal"]["secrets"]["blue"]["secret"]["frogs"])
        free = [f"{c}{r}" for c in "ABCDEF" for r in range(1, 7) if f"{c}{r}" not in taken]
        revealed["secret"] = {"frogs": sorted(free[:2])}
        doc["deal"]["commitments"]["red"] = crypto.commitment(
            doc["header"]["game"], "red", revealed["salt"], revealed["secret"])
    failures = tamper(finished_fair_game, keys, change)
    assert any("deal: the hidden setup of red differs from the one the seeds derive" in f
               for f in failures), failures


def test_froglet_board_is_checked_right_after_the_deal(joined_game: Callable[..., Path],
                                                       cli: Cli, keys: Keys,
                                                       tmp_path: Path) -> None:
    game = joined_game("froglet", size=6)
    join_and_deal(cli, keys, game, tmp_path)
    verified = cli("verify", game)
    assert verified.exit_code == 0, verified.output
    assert "deal: re-derived" in verified.stdout and "white, black added" in verified.stdout
    doc = strictyaml.loads(game.read_bytes())
    rows = doc["deal"]["public"]["rows"]
    flat = "".join(rows)  # one frog another colour, the green ones (the first move's) kept:
    at = next(i for i, letter in enumerate(flat) if letter != "G")  # always a change
    flat = flat[:at] + {"Y": "R", "R": "B", "B": "Y"}[flat[at]] + flat[at + 1:]
    doc["deal"]["public"]["rows"] = [flat[i:i + len(rows)] for i in range(0, len(flat), len(rows))]
    doc["deal"]["signature"] = crypto.sign_element(keys.key("referee"), "deal", doc["deal"])
    game.write_text(strictyaml.dumps(doc))
    tampered = cli("verify", game)
    assert tampered.exit_code == 1
    assert "deal: the public setup differs from the one the seeds derive" in tampered.stdout


def test_every_single_changed_value_of_a_fair_game_fails_audit(finished_fair_game: Path,
                                                               tmp_path: Path) -> None:
    from tests.test_audit import element_name, mutate, scalars, set_at

    doc = strictyaml.loads(finished_fair_game.read_bytes())
    target = tmp_path / "tampered.yaml"
    paths = list(scalars(doc))
    assert any(path[0] == "deal" for path, _ in paths)
    for path, value in paths:
        changed = strictyaml.loads(finished_fair_game.read_bytes())
        set_at(changed, path, mutate(value))
        target.write_text(strictyaml.dumps(changed))
        failures = [c.what for c in audit(target, clock=here().clock).checks if not c.ok]
        assert any(element_name(path) in f for f in failures), (path, failures)


# --- by mail: invitations, joins taken out of replies ------------------------------------


def reply_holding(copy: Path) -> bytes:
    """A seat's reply with its copy of the game attached, as a mail client sends it."""
    from email.message import EmailMessage

    reply = EmailMessage()
    reply["From"] = "alice@example.org"
    reply["Subject"] = "Re: join"
    reply.set_content("Joined, file attached.")
    reply.add_attachment(copy.read_bytes(), maintype="application", subtype="yaml",
                         filename=copy.name)
    return bytes(reply)


def mailed(cli: Cli, keys: Keys, game: Path, out: Path, *args: str) -> dict[str, Any]:
    """``frogpbem mail GAME --out OUT``: each written message, parsed, by its role."""
    from email import message_from_bytes, policy

    written = cli("mail", game, "--out", out, "--key", keys.path("referee"), *args)
    assert written.exit_code == 0, written.output
    return {path.stem.rsplit("-", 1)[1]: message_from_bytes(path.read_bytes(),
                                                            policy=policy.default)
            for path in sorted(out.glob("*.eml"))}


def test_mail_of_an_undealt_game_writes_invitations_and_receive_takes_the_joins(
        joined_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """``frogpbem mail`` of a game that waits for joins once refused ("not dealt yet"),
    and a returned copy holding a join was refused by ``receive`` (the referee ran
    ``deal --from`` by hand). Now each seat gets an invitation that names the command,
    its reply's join is taken, a reply without a new join is refused in words the seat can
    act on, and the last join deals."""
    game = joined_game()
    letters = mailed(cli, keys, game, tmp_path / "out")
    assert sorted(letters) == ["blue", "red"]
    invitation = letters["red"]
    assert "join as red before the deal" in str(invitation["Subject"])
    body = invitation.get_body(("plain",)).get_content()
    assert f"frogpbem join {game.name} --key YOUR_KEY" in body
    assert "reply to this message with" in body
    attached = next(invitation.iter_attachments())
    assert attached.get_filename() == game.name
    alice = tmp_path / "seats" / game.name
    alice.parent.mkdir()
    alice.write_bytes(attached.get_content())
    referee = ["--games", str(tmp_path), "--key", str(keys.path("referee"))]

    def receive(data: bytes, name: str) -> Result:
        (tmp_path / name).write_bytes(data)
        return cli("receive", tmp_path / name, *referee)

    forgot = receive(reply_holding(alice), "forgot.eml")  # the invitation sent back as it came
    assert forgot.exit_code == 1
    assert f"holds no join: save the file, run frogpbem join {game.name}" in forgot.stdout
    assert cli("join", alice, "--key", keys.path("alice")).exit_code == 0
    taken = receive(reply_holding(alice), "alice.eml")
    assert taken.exit_code == 0, taken.output
    assert "waiting for blue to join" in taken.stdout
    again = receive(reply_holding(alice), "again.eml")  # the same join once more
    assert "the join of red is in game" in again.stdout and "once blue has joined" in again.stdout
    other = alice.parent / "other.yaml"  # red joins a second time, on another copy
    other.write_bytes(attached.get_content())
    assert cli("join", other, "--key", keys.path("alice")).exit_code == 0
    twice = receive(reply_holding(other), "twice.eml")
    assert twice.exit_code == 1 and "red joined game" in twice.stdout
    assert "the first join counts" in twice.stdout
    told = mailed(cli, keys, game, tmp_path / "told", "--to", "red")["red"]
    assert "red has joined \u2014 waiting for blue" in str(told["Subject"])
    assert list(told.iter_attachments()) == []
    own = mailed(cli, keys, game, tmp_path / "own", "--to", "referee")["referee"]
    assert f"frogpbem deal {game.name} --from COPY" in own.get_body(("plain",)).get_content()
    bob = alice.parent / "bob.yaml"
    bob.write_bytes(attached.get_content())
    assert cli("join", bob, "--key", keys.path("bob")).exit_code == 0
    dealt = receive(reply_holding(bob), "bob.eml")
    assert "dealt game" in dealt.stdout and "seeds of red, blue" in dealt.stdout, dealt.output
    start = mailed(cli, keys, game, tmp_path / "start")
    assert "the game begins" in str(start["red"]["Subject"])


def test_a_secret_move_invitation_says_to_choose_a_secret(cli: Cli, keys: Keys,
                                                          tmp_path: Path) -> None:
    game = tmp_path / "sm.yaml"
    created = cli("new", game, "--rules", "secretmove", "--referee", keys.path("referee"),
                  "--seat", f"red={keys.pub('alice')}", "--seat", f"blue={keys.pub('bob')}",
                  "--email", "red=alice@example.org", "--email", "blue=bob@example.org",
                  "--name", "blue=Bob <spy@evil.invalid>")
    assert created.exit_code == 0, created.output
    letters = mailed(cli, keys, game, tmp_path / "out")
    body = letters["blue"].get_body(("plain",)).get_content()
    assert f'frogpbem setup {game.name} "YOUR SECRET" --key YOUR_KEY' in body
    assert "--random" in body and "frogpbem join" not in body
    # the name is quoted, never read as a second address
    assert [a.addr_spec for a in letters["blue"]["To"].addresses] == ["bob@example.org"]
    said = []
    for seat, player in (("red", "alice"), ("blue", "bob")):  # each seat chooses, replies
        copy = tmp_path / player / game.name
        copy.parent.mkdir()
        copy.write_bytes(next(letters[seat].iter_attachments()).get_content())
        assert cli("setup", copy, "--random", "--key", keys.path(player)).exit_code == 0
        (tmp_path / f"{player}.eml").write_bytes(reply_holding(copy))
        said.append(cli("receive", tmp_path / f"{player}.eml", "--games", tmp_path,
                        "--key", keys.path("referee")).stdout)
    assert "waiting for blue to join" in said[0]
    assert "every seat has chosen its setup" in said[1], said


def test_the_judge_invites_every_seat_once_then_tells_each_joiner_once(
        joined_game: Callable[..., Path], cli: Cli, keys: Keys) -> None:
    """invite.due: what the judge mails for a game that waits, by the mark it keeps."""
    from frogpbem.mail.invite import due
    from frogpbem.protocol.game import load

    game = joined_game()
    referee = keys.key("referee")
    first, mark = due(load(game, here()), referee, None)
    assert [letter.role for letter in first] == ["red", "blue"]
    assert due(load(game, here()), referee, mark)[0] == []  # nothing new: nothing mailed
    assert cli("join", game, "--key", keys.path("alice")).exit_code == 0
    told, after = due(load(game, here()), referee, mark)
    assert [letter.role for letter in told] == ["red"] and after != mark
    assert "red has joined" in str(told[0].message["Subject"])
    assert due(load(game, here()), referee, after)[0] == []
    head = load(game, here()).head  # a mark that names the head alone: every seat is written to
    assert len(due(load(game, here()), referee, head)[0]) == 2


def test_an_address_that_is_not_one_is_refused_in_a_sentence(cli: Cli, keys: Keys,
                                                             tmp_path: Path) -> None:
    game = tmp_path / "g.yaml"  # new refuses such an address: an older or hostile tool's
    game_addressed(game, keys, {"blue": "bob@"}, join=True)
    refused = cli("mail", game, "--out", tmp_path / "out", "--key", keys.path("referee"))
    assert refused.exit_code == 7  # the game file's: mail.address, as for a dealt game
    assert "the mail address of blue is not one mail address: 'bob@'" in refused.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_reply_joins_from_the_invitation_and_reads_the_letter_that_says_so(
        joined_game: Callable[..., Path], cli: Cli, keys: Keys, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``frogpbem reply`` on an invitation said "not dealt yet" (exit 4), took ``join`` for a
    move (exit 3) and called the "your join is in" letter one with no game file (a move
    before the deal is now refused with 4, as ``move`` refuses it, not 2). Now the
    invitation names it, it shows the join, joins (or chooses a secret), and says what the
    letter is."""
    monkeypatch.chdir(tmp_path)
    game = joined_game()
    mailed(cli, keys, game, tmp_path / "out")
    [invitation] = (tmp_path / "out").glob("*-red.eml")
    body = parsed_body(invitation)
    assert "frogpbem reply THIS_MESSAGE.eml join --key YOUR_KEY" in body
    alice = ["--key", keys.path("alice"), "--games", tmp_path / "alice-games"]
    shown = cli("reply", invitation, *alice)
    assert shown.exit_code == 0, shown.output
    assert "waiting for red, blue to join" in shown.stdout
    assert f"frogpbem reply {invitation} --key {keys.path('alice')}" in shown.stdout
    assert shown.stdout.count(" join\n") == 1
    early = cli("reply", invitation, "shoot C3", *alice)
    assert early.exit_code == 4 and "join first, with join in place" in early.stderr
    done = cli("reply", invitation, "join", *alice, "--out", "joined.eml")
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("red joined game")
    assert "your join is in; waiting for blue" in cli("reply", invitation, *alice).stdout
    again = cli("reply", invitation, "shoot C3", *alice)
    assert again.exit_code == 4 and "your join is in" in again.stderr, again.output
    taken = cli("receive", tmp_path / "joined.eml", "--games", tmp_path, "--key",
                keys.path("referee"))
    assert "waiting for blue to join" in taken.stdout, taken.output
    mailed(cli, keys, game, tmp_path / "told", "--to", "red")
    [told] = (tmp_path / "told").glob("*-red.eml")
    what = cli("reply", told, *alice)
    assert what.exit_code == 2
    assert "word that your join is in game" in what.stderr, what.output

    secret = tmp_path / "sm.yaml"
    assert cli("new", secret, "--rules", "secretmove", "--referee", keys.path("referee"),
               "--seat", f"red={keys.pub('alice')}", "--seat",
               f"blue={keys.pub('bob')}").exit_code == 0
    mailed(cli, keys, secret, tmp_path / "sm")
    [invited] = (tmp_path / "sm").glob("*-blue.eml")
    assert "frogpbem reply THIS_MESSAGE.eml --setup" in parsed_body(invited)
    bob = ["--key", keys.path("bob"), "--games", tmp_path / "bob-games"]
    assert "--random" in cli("reply", invited, *bob).stdout
    moved = cli("reply", invited, "guess A1", *bob, "--out", "no.eml")
    assert moved.exit_code == 4 and "choose your secret first" in moved.stderr, moved.output
    chose = cli("reply", invited, "--random", *bob, "--out", "chose.eml")
    assert chose.exit_code == 0 and "blue chose its setup" in chose.stdout, chose.output
    taken = cli("receive", tmp_path / "chose.eml", "--games", tmp_path, "--key",
                keys.path("referee"))
    assert "waiting for red" in taken.stdout, taken.output


def parsed_body(path: Path) -> str:
    from email import message_from_bytes, policy

    message = message_from_bytes(path.read_bytes(), policy=policy.default)
    return str(message.get_body(("plain",)).get_content())  # type: ignore[union-attr]
