"""A fair deal through the judge, on Dovecot and aiosmtpd: invitations, joins, the start.

A game created with ``--join`` waits for every seat's seed before the deal.
The judge mails each seat an invitation with the game file, takes the joined
copies out of the replies, deals once every seed is in and mails the start;
then the game is played to its end through the same judge and audited.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from frogpbem.audit import audit
from frogpbem.gamefile import strictyaml
from tests.conftest import Cli, Keys, here
from tests.test_judge import (
    DOMAIN,
    Servers,
    judge,
    mail_servers,
    parse,
    reply_with,
    send,
)


@pytest.fixture
def servers() -> Iterator[Servers]:
    with mail_servers() as running:
        yield running


def read_mail(servers: Servers, cli: Cli, keys: Keys, tmp_path: Path,
              player: str) -> list[str]:
    """A player reads its mail: each message saved and taken into its games folder (as
    ``frogpbem receive`` does); the subjects, in order."""
    subjects = []
    for index, data in enumerate(servers.inbox(player)):
        box = tmp_path / f"{player}-{len(list(tmp_path.glob(f'{player}-*.eml')))}.eml"
        box.write_bytes(data)
        subjects.append(str(parse(data)["Subject"]))
        got = cli("receive", box, "--games", tmp_path / f"{player}-games", "--key",
                  keys.path(player))
        assert got.exit_code == 0, (index, got.output)
    return subjects


def test_a_join_game_is_invited_dealt_and_played_through_the_judge(
        servers: Servers, cli: Cli, keys: Keys, tmp_path: Path) -> None:
    """Acceptance 4 of issue 29. Before, the judge skipped the game ("not dealt yet") and
    refused the joined copies: the referee had to deal by hand."""
    games = tmp_path / "judge-games"
    games.mkdir()
    draft = tmp_path / "draft.yaml"
    made = cli("new", draft, "--join", "--referee", keys.path("referee"),
               "--referee-name", "Judge", "--seat", f"red={keys.pub('alice')}",
               "--seat", f"blue={keys.pub('bob')}", "--email", f"red=alice@{DOMAIN}",
               "--email", f"blue=bob@{DOMAIN}", "--option", "size=6", "--option", "frogs=2",
               "--option", "deadline=72h")
    assert made.exit_code == 0, made.output
    game_id = str(strictyaml.loads(draft.read_bytes())["header"]["game"])
    game = games / f"{game_id}.yaml"
    shutil.move(draft, game)

    invited = judge(servers, games, keys)
    assert f"game {game_id}: waiting for red, blue to join: mailed red: alice@" \
        in invited.stdout, invited.stdout
    assert "skipped" not in invited.stdout
    assert judge(servers, games, keys).stdout == ""  # invited once
    copies = {player: tmp_path / f"{player}-games" / f"{game_id}.yaml"
              for player in ("alice", "bob")}
    for player in copies:
        [subject] = read_mail(servers, cli, keys, tmp_path, player)
        assert "join as" in subject and game_id in subject

    # bob replies at once, with the file as it came: he is told what to run
    send(servers, reply_with(copies["bob"], "bob", f"Re: [frogpbem {game_id}] join"))
    forgot = judge(servers, games, keys)
    assert "holds no join" in forgot.stdout, forgot.stdout
    [answer] = servers.inbox("bob")
    assert f"frogpbem join {game_id}.yaml --key YOUR_KEY" in parse(answer).get_content()

    # alice joins and replies: her join is taken, and she hears that it is in
    assert cli("join", copies["alice"], "--key", keys.path("alice")).exit_code == 0
    joined = tmp_path / "alice-joined.yaml"
    shutil.copy(copies["alice"], joined)
    send(servers, reply_with(copies["alice"], "alice", f"Re: [frogpbem {game_id}] join"))
    waiting = judge(servers, games, keys)
    assert f"game {game_id}: waiting for blue to join" in waiting.stdout, waiting.stdout
    [told] = servers.inbox("alice")
    assert "red has joined" in str(parse(told)["Subject"])
    assert servers.inbox("bob") == []

    # bob joins: the judge deals at once and mails the start to both
    assert cli("join", copies["bob"], "--key", keys.path("bob")).exit_code == 0
    send(servers, reply_with(copies["bob"], "bob", f"Re: [frogpbem {game_id}] join"))
    dealt = judge(servers, games, keys)
    assert f"dealt game {game_id} from the referee's seed and the seeds of red, blue" \
        in dealt.stdout, dealt.stdout
    assert f"game {game_id}: mailed record 0" in dealt.stdout
    for player in copies:
        [subject] = read_mail(servers, cli, keys, tmp_path, player)
        assert "the game begins" in subject and "red to move" in subject

    # a late copy of alice's join (sent twice): taken already, nothing new is mailed
    send(servers, reply_with(joined, "alice"))
    late = judge(servers, games, keys)
    assert "refused: nothing new in it" in late.stdout and "mailed" not in late.stdout, late.stdout
    [answer] = servers.inbox("alice")  # answered once, in words: the join is in already
    assert "taken already" in str(parse(answer).get_body(("plain",)))

    # played to the end: red shoots a square of her own choosing, blue resigns
    own = json.loads(cli("view", copies["alice"], "--key", keys.path("alice"),
                         "--json").stdout)["state"]["own_frogs"]["red"]
    square = next(f"{c}{r}" for c in "ABCDEF" for r in range(1, 7) if f"{c}{r}" not in own)
    for number, (player, move) in enumerate([("alice", f"shoot {square}"),
                                             ("bob", "resign")], 1):
        assert cli("move", copies[player], move, "--key", keys.path(player)).exit_code == 0
        send(servers, reply_with(copies[player], player))
        took = judge(servers, games, keys)
        assert f"mailed record {number}" in took.stdout, took.stdout
        for reader in copies:
            [subject] = read_mail(servers, cli, keys, tmp_path, reader)
    assert "game over" in subject
    audited = cli("audit", game)
    assert audited.exit_code == 0, audited.output
    report = audit(copies["alice"], clock=here().clock)
    assert report.ok, report.text()
    line = next(c.what for c in report.checks if c.what.startswith("deal:"))
    assert "the seeds that red, blue added: it matches" in line
    assert servers.count("judge", "INBOX") == 0
