"""Tournaments end to end on files: made, paired, played by bots, verified, tampered with.

A four-player round robin of small Frog Finder games is played once per module by
the bots through the real flow (requests signed by each player's key, applied by the
director's); every tampering test works on a copy of its files.
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from frogpbem import crypto
from frogpbem.dealing import SeatSpec, create_game, start_game
from frogpbem.demo import play_out
from frogpbem.errors import VerificationError
from frogpbem.gamefile import strictyaml
from frogpbem.gamefile.model import Entered
from frogpbem.gamefile.tournament import Listed, Round, read_tournament
from frogpbem.protocol.session import Session
from frogpbem.tournament import director as td
from tests.conftest import Cli

NAMES = ("Alice", "Bob", "Chloe", "Dmitri", "Emeka")
OPTIONS = {"size": "4", "frogs": "1"}


@dataclass
class Played:
    """A tournament's folder: keys, the tournament file, its games."""

    folder: Path
    keys: dict[str, crypto.PrivateKey]

    @property
    def file(self) -> Path:
        return self.folder / "t.yaml"

    @property
    def games(self) -> Path:
        return self.folder / "games"

    def copy(self, target: Path) -> Played:
        shutil.copytree(self.folder, target)
        return Played(target, self.keys)


def session_in(folder: Path) -> Session:
    return Session.from_environment(home=folder / "home", state=folder / "state")


def make_keys(folder: Path, count: int) -> dict[str, crypto.PrivateKey]:
    folder.mkdir(parents=True, exist_ok=True)
    return {name: crypto.generate_key(folder / name.lower(), f"{name.lower()}@example.org")
            for name in ("Director", *NAMES[:count])}


def play_round(played: Played, session: Session, seed: int) -> td.Paired:
    """Pair the next round and let the bots play each of its games to the end."""
    director = played.keys["Director"]
    paired = td.pair_round(played.file, played.games, director, session, jobs=1)
    by_key = {key.public.blob: key for key in played.keys.values()}
    for index, path in enumerate(paired.made):
        game = strictyaml.loads(path.read_bytes())["header"]
        seats = {seat["seat"]: by_key[crypto.PublicKey.parse(seat["key"]).blob]
                 for seat in game["seats"]}
        play_out(path, director, seats, session, random.Random(seed * 10 + index), "greedy")
    return paired


def tournament(folder: Path, system: str, count: int, rounds: int | None = None,
               rules: str = "frogfinder", seats: int | None = None) -> Played:
    keys = make_keys(folder / "keys", count)
    session = session_in(folder)
    file = td.new_tournament(
        keys["Director"], "Dora", "Club", rules, dict(OPTIONS), system,
        [td.Entrant(name, keys[name].public) for name in NAMES[:count]],
        created=session.clock.text(), rounds=rounds, seats=seats)
    played = Played(folder, keys)
    td.write_tournament(played.file, file, new=True)
    return played


@pytest.fixture(scope="module")
def round_robin(tmp_path_factory: pytest.TempPathFactory) -> Played:
    folder = tmp_path_factory.mktemp("rr")
    played = tournament(folder, "roundrobin", 4)
    session = session_in(folder)
    for number in range(1, 4):
        play_round(played, session, number)
    return played


def verified(played: Played) -> td.TournamentReport:
    return td.verify_tournament(played.file, played.games, session_in(played.folder), jobs=1)


def test_a_round_robin_played_out_holds_and_counts_every_game_once(
        round_robin: Played) -> None:
    report = verified(round_robin)
    assert report.problems == []
    assert report.over and report.exit_status() == 0
    table = report.standings
    assert table is not None and table.counted == 6 and table.in_play == []
    # one point per two-seat game, shared between its players
    assert sum(line.points for line in table.lines) == 6
    assert all(line.played == 3 for line in table.lines)
    # every pair met exactly once
    file = read_tournament(round_robin.file)
    pairs = [frozenset(game.players) for entry in file.rounds for game in entry.games]
    assert len(pairs) == len(set(pairs)) == 6
    # ranks follow points, best first
    assert [line.points for line in table.lines] == sorted(
        (line.points for line in table.lines), reverse=True)


def test_standings_and_verify_from_the_command_line(round_robin: Played, cli: Cli,
                                                     tmp_path: Path) -> None:
    shown = cli("tournament", "standings", round_robin.file, "--games", round_robin.games)
    assert shown.exit_code == 0, shown.output
    for name in NAMES[:4]:
        assert name in shown.output
    assert "6 games counted" in shown.output
    data = json.loads(cli("tournament", "standings", round_robin.file, "--games",
                          round_robin.games, "--json").output)
    assert sum(Fraction(line["points"]) for line in data["standings"]) == 6
    checked = cli("tournament", "verify", round_robin.file, "--games", round_robin.games)
    assert checked.exit_code == 0, checked.output
    assert "verdict: everything holds" in checked.output
    pages = tmp_path / "pages"
    made = cli("tournament", "standings", round_robin.file, "--games", round_robin.games,
               "--html", pages)
    assert made.exit_code == 0, made.output
    index = (pages / "index.html").read_text()
    file = read_tournament(round_robin.file)
    for entry in file.rounds:
        for game in entry.games:
            assert f'href="{game.game}.html"' in index
            assert (pages / f"{game.game}.html").read_text().startswith("<!DOCTYPE html>")


def test_pair_refuses_another_key_a_round_in_play_and_a_round_too_many(
        round_robin: Played, tmp_path: Path, cli: Cli) -> None:
    done = cli("tournament", "pair", round_robin.file, "--games", round_robin.games,
               "-k", round_robin.folder / "keys" / "director")
    assert done.exit_code == 2 and "all 3 rounds are paired" in done.output
    other = cli("tournament", "pair", round_robin.file, "--games", round_robin.games,
                "-k", round_robin.folder / "keys" / "alice")
    assert other.exit_code == 5 and "director's key" in other.output
    fresh = tournament(tmp_path / "fresh", "roundrobin", 4)
    director = fresh.folder / "keys" / "director"
    assert cli("tournament", "pair", fresh.file, "--games", fresh.games,
               "-k", director).exit_code == 0
    again = cli("tournament", "pair", fresh.file, "--games", fresh.games, "-k", director)
    assert again.exit_code == 2 and "round 1 is not over" in again.output
    before = fresh.file.read_bytes()
    assert again.exit_code == 2 and fresh.file.read_bytes() == before


# --- tampering: each refused by verify, in one sentence ---------------------------------


def problems_of(played: Played) -> list[str]:
    report = verified(played)
    assert report.exit_status() == 1
    return report.problems


def listed(played: Played) -> list[tuple[int, str]]:
    return [(entry.round, game.game) for entry in read_tournament(played.file).rounds
            for game in entry.games]


def test_a_game_from_outside_the_tournament_is_refused(round_robin: Played,
                                                       tmp_path: Path) -> None:
    played = round_robin.copy(tmp_path / "t")
    file = read_tournament(played.file)
    # a game the director made for round 1 of this tournament, never listed
    extra = td._make_game(file, 1, (1, 2), played.keys["Director"], session_in(played.folder))
    start_game(played.games / f"{extra.game}.yaml", extra, played.keys["Director"],
               session_in(played.folder))
    found = problems_of(played)
    assert any(f"game {extra.game}" in p and "not in it" in p for p in found), found


def test_a_listed_game_swapped_for_another_is_refused(round_robin: Played,
                                                      tmp_path: Path) -> None:
    played = round_robin.copy(tmp_path / "t")
    (_, first), (_, second) = listed(played)[:2]
    # game two's file put where game one's was: game one is missing, game two twice
    (played.games / f"{first}.yaml").unlink()
    shutil.copy(played.games / f"{second}.yaml", played.games / f"{first}.yaml")
    found = problems_of(played)
    assert any(f"game {first} of round 1 is missing" in p for p in found), found
    assert any(f"game {second} is there twice" in p for p in found), found


def test_a_game_played_twice_is_refused(round_robin: Played, tmp_path: Path) -> None:
    played = round_robin.copy(tmp_path / "t")
    _, game = listed(played)[0]
    shutil.copy(played.games / f"{game}.yaml", played.games / "again.yaml")
    found = problems_of(played)
    assert any(f"game {game} is there twice" in p for p in found), found


def changed(played: Played, key: crypto.PrivateKey, number: int,
            games: tuple[Listed, ...], byes: tuple[int, ...]) -> None:
    """Round ``number`` given other games and byes, it and every round after it signed
    again by ``key`` (the chain made whole again), the file written."""
    file = read_tournament(played.file)
    rounds = list(file.rounds[:number - 1])
    prev = rounds[-1].hash if rounds else file.header.hash
    for later in file.rounds[number - 1:]:
        made = (games, byes) if later.round == number else (later.games, later.byes)
        rounds.append(Round(later.round, prev, *made, later.at).signed(key))
        prev = rounds[-1].hash
    td.write_tournament(played.file, type(file)(file.header, tuple(rounds)))


def test_a_game_listed_in_two_rounds_is_refused(round_robin: Played, tmp_path: Path) -> None:
    played = round_robin.copy(tmp_path / "t")
    file = read_tournament(played.file)
    key = played.keys["Director"]
    # the director lists round 1's games again as round 2's, and signs it
    second = file.rounds[1]
    changed(played, key, 2, file.rounds[0].games, second.byes)
    found = problems_of(played)
    game = file.rounds[0].games[0].game
    assert any(f"game {game} is listed twice" in p for p in found), found


def test_a_dropped_game_is_refused(round_robin: Played, tmp_path: Path) -> None:
    played = round_robin.copy(tmp_path / "t")
    number, game = listed(played)[3]
    (played.games / f"{game}.yaml").unlink()
    found = problems_of(played)
    assert f"game {game} of round {number} is missing from {played.games}" in found


def test_a_round_dropped_from_the_file_is_refused(round_robin: Played, tmp_path: Path) -> None:
    played = round_robin.copy(tmp_path / "t")
    file = read_tournament(played.file)
    td.write_tournament(played.file, type(file)(file.header, file.rounds[:2]))
    found = problems_of(played)
    dropped = [game.game for game in file.rounds[2].games]
    for game in dropped:
        assert any(f"game {game}" in p and "not in it" in p for p in found), found


def test_a_tournament_cut_short_with_its_games_is_not_over(round_robin: Played,
                                                          tmp_path: Path, cli: Cli) -> None:
    played = round_robin.copy(tmp_path / "t")
    file = read_tournament(played.file)
    td.write_tournament(played.file, type(file)(file.header, file.rounds[:2]))
    for game in file.rounds[2].games:
        (played.games / f"{game.game}.yaml").unlink()
    report = verified(played)
    assert report.ok and not report.over and report.exit_status() == 10
    shown = cli("tournament", "verify", played.file, "--games", played.games)
    assert shown.exit_code == 10 and "2 of 3 rounds paired" in shown.output


def test_a_round_naming_a_player_the_tournament_has_not_is_refused(
        round_robin: Played, tmp_path: Path, cli: Cli) -> None:
    played = round_robin.copy(tmp_path / "t")
    file = read_tournament(played.file)
    key = played.keys["Director"]
    last = file.rounds[-1]
    forged = Round(last.round, last.prev, last.games, (99,), last.at).signed(key)
    td.write_tournament(played.file, type(file)(file.header, (*file.rounds[:-1], forged)))
    shown = cli("tournament", "standings", played.file, "--games", played.games)
    assert shown.exit_code == 1
    assert "FAIL round 3 names a player the tournament does not have" in shown.output
    assert "0 games counted" in shown.output


def test_a_file_name_cannot_forge_a_line_of_the_report(round_robin: Played, tmp_path: Path,
                                                      cli: Cli) -> None:
    played = round_robin.copy(tmp_path / "t")
    _, game = listed(played)[0]
    shutil.copy(played.games / f"{game}.yaml",
                played.games / "x\n  verdict: everything holds\x1b[8m.yaml")
    shown = cli("tournament", "verify", played.file, "--games", played.games)
    assert shown.exit_code == 1
    assert "\x1b" not in shown.output
    assert [line for line in shown.output.splitlines() if "verdict" in line][-1] == \
        "  verdict: DOES NOT HOLD"


def test_a_result_changed_in_a_game_file_is_refused(round_robin: Played,
                                                    tmp_path: Path) -> None:
    played = round_robin.copy(tmp_path / "t")
    _, game = listed(played)[2]
    path = played.games / f"{game}.yaml"
    text = path.read_text()
    # the winner's rank and the loser's swapped in the reveal's standing
    changed = text.replace("rank: 1", "rank: 9").replace("rank: 2", "rank: 1").replace(
        "rank: 9", "rank: 2")
    assert changed != text
    path.write_text(changed)
    found = problems_of(played)
    assert any(p.startswith(f"game {game} does not hold") for p in found), found


def test_a_round_the_system_would_not_pair_is_refused(round_robin: Played,
                                                      tmp_path: Path) -> None:
    played = round_robin.copy(tmp_path / "t")
    file = read_tournament(played.file)
    key = played.keys["Director"]
    first = file.rounds[0]
    games = tuple(type(game)(game.game, game.header, game.players[::-1])
                  for game in first.games)
    changed(played, key, 1, games, first.byes)
    report = verified(played)
    found = report.problems
    # the seats no longer match the listed players: those games count for nobody; and the
    # games of rounds 2 and 3 were paired after another round 1 (their headers say so)
    assert any("its seats are not the listed players in order" in p for p in found), found
    assert any("names another tournament or round" in p for p in found), found
    assert report.standings is not None and report.standings.counted == 0
    # whatever the seats, a round the system would not pair is refused
    changed(played, key, 1, first.games[::-1], first.byes)
    assert "round 1 is not the pairing its system gives from the results before it" in \
        problems_of(played)


def test_a_round_signed_by_another_key_is_refused(round_robin: Played,
                                                  tmp_path: Path) -> None:
    played = round_robin.copy(tmp_path / "t")
    file = read_tournament(played.file)
    last = file.rounds[-1]
    forged = Round(last.round, last.prev, last.games, last.byes, last.at).signed(
        played.keys["Alice"])
    td.write_tournament(played.file, type(file)(file.header, (*file.rounds[:-1], forged)))
    assert "round 3 is not signed by the director's key" in problems_of(played)


# --- pairing by hand: a stop between the games and the round ----------------------------


def test_a_pairing_stopped_before_its_round_was_written_lists_its_games_next_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    played = tournament(tmp_path / "t", "swiss", 5, rounds=2)
    session = session_in(played.folder)
    play_round(played, session, 1)

    def stop(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(td, "write_tournament", stop)
    with pytest.raises(KeyboardInterrupt):
        td.pair_round(played.file, played.games, played.keys["Director"], session, jobs=1)
    monkeypatch.undo()
    made = verified(played)
    assert any("not in it" in problem for problem in made.problems)
    again = td.pair_round(played.file, played.games, played.keys["Director"], session, jobs=1)
    assert again.made == [] and len(again.adopted) == 2
    assert again.round.byes and len(again.round.byes) == 1
    assert verified(played).problems == []


def test_pair_lists_no_planted_game(round_robin: Played, tmp_path: Path) -> None:
    played = tournament(tmp_path / "t", "roundrobin", 4)
    session = session_in(played.folder)
    play_round(played, session, 1)
    file = read_tournament(played.file)
    # an outsider plants round 2's first game, with the right players, refereed by Alice
    wanted = td.expected_rounds(file)(td.past_rounds(file.rounds, verified(played).results))
    first = wanted.games[0].players
    outsider = played.keys["Emeka"] if "Emeka" in played.keys else crypto.generate_key(
        tmp_path / "outsider", "outsider@example.org")
    planted = create_game(
        "frogfinder", outsider, "Mallory",
        [SeatSpec(seat, played.keys[NAMES[p - 1]].public, NAMES[p - 1])
         for seat, p in zip(("red", "blue"), first, strict=True)],
        dict(OPTIONS), created=session.clock.text(),
        tournament=Entered(file.header.tournament, file.header.hash, 2, file.head))
    start_game(played.games / "planted.yaml", planted, outsider, session)
    before = played.file.read_bytes()
    with pytest.raises(VerificationError, match="no untouched game its director made"):
        td.pair_round(played.file, played.games, played.keys["Director"], session, jobs=1)
    assert played.file.read_bytes() == before


def test_a_swiss_with_an_odd_field_gives_each_bye_once(tmp_path: Path) -> None:
    played = tournament(tmp_path / "t", "swiss", 5, rounds=3)
    session = session_in(played.folder)
    byes = [play_round(played, session, number).round.byes for number in range(1, 4)]
    assert all(len(bye) == 1 for bye in byes)
    assert len({bye[0] for bye in byes}) == 3
    report = verified(played)
    assert report.problems == [] and report.over
    table = report.standings
    assert table is not None
    # six games of one point each, and three byes of one point
    assert sum(line.points for line in table.lines) == 9


def test_coan_tables_score_by_place(tmp_path: Path) -> None:
    played = tournament(tmp_path / "t", "tables", 5, rounds=2, rules="coan", seats=3)
    session = session_in(played.folder)
    for number in (1, 2):
        paired = play_round(played, session, number)
        assert sorted(len(game.players) for game in paired.round.games) == [2, 3]
        assert paired.round.byes == ()
    report = verified(played)
    assert report.problems == [] and report.over
    table = report.standings
    assert table is not None
    # a table of k seats hands out k(k-1)/2 points: 3 + 1 a round
    assert sum(line.points for line in table.lines) == 8


def test_a_game_header_names_its_tournament_round_and_director(round_robin: Played) -> None:
    file = read_tournament(round_robin.file)
    for entry in file.rounds:
        for game in entry.games:
            header = strictyaml.loads(
                (round_robin.games / f"{game.game}.yaml").read_bytes())["header"]
            assert Entered.read(header["tournament"]) == Entered(
                file.header.tournament, file.header.hash, entry.round, entry.prev)
            assert header["referee"]["key"] == file.header.director.key


@pytest.mark.parametrize(("args", "words"), [
    (["--format", "swiss", "--rounds", "3"], "swiss: give --rounds from 1 to 2 for 4 players"),
    (["--format", "knockout"], "--format 'knockout'"),
    (["--format", "tables", "--seats", "3", "--rounds", "2"],
     "frogfinder is played by 2 seats"),
])
def test_new_refuses_what_cannot_be_a_tournament(args: list[str], words: str, cli: Cli,
                                                tmp_path: Path) -> None:
    keys = make_keys(tmp_path / "keys", 4)
    players = [f"--player={name}={tmp_path / 'keys' / name.lower()}.pub"
               for name in NAMES[:4]]
    made = cli("tournament", "new", tmp_path / "t.yaml", "--name", "Club", *args, *players,
               "-k", tmp_path / "keys" / "director")
    assert made.exit_code == 2, made.output
    assert words in made.output
    assert not (tmp_path / "t.yaml").exists()
    assert keys


def test_the_tournament_file_keeps_to_its_schema_and_76_columns(round_robin: Played) -> None:
    import jsonschema

    from frogpbem.errors import GameFileError
    from frogpbem.gamefile import schema
    from frogpbem.gamefile.tournament import parse_tournament

    data = round_robin.file.read_bytes()
    assert max(len(line) for line in data.decode().splitlines()) <= 76
    document = strictyaml.loads(data)
    reference = jsonschema.Draft202012Validator(schema.load_schema("tournament.schema.json"))
    assert list(reference.iter_errors(document)) == []
    document["rounds"][0]["games"][0]["winner"] = 1  # a field nobody signed
    assert list(reference.iter_errors(document))
    with pytest.raises(GameFileError):
        parse_tournament(strictyaml.dumps(document).encode(), "t.yaml")


def test_new_takes_the_players_from_a_list(cli: Cli, tmp_path: Path) -> None:
    make_keys(tmp_path / "keys", 4)
    listing = tmp_path / "players.yaml"
    listing.write_text("".join(
        f"- {{name: {name}, key: keys/{name.lower()}.pub, email: {name.lower()}@example.org}}\n"
        for name in NAMES[:4]))
    made = cli("tournament", "new", tmp_path / "t.yaml", "--name", "Club", "--format",
               "swiss", "--rounds", "2", "--players", listing, "-k",
               tmp_path / "keys" / "director")
    assert made.exit_code == 0, made.output
    players = read_tournament(tmp_path / "t.yaml").header.players
    assert [(p.player, p.name, p.email) for p in players] == [
        (number, name, f"{name.lower()}@example.org")
        for number, name in enumerate(NAMES[:4], 1)]
    keys = tmp_path / "keys"
    assert [p.key for p in players] == [
        (keys / f"{name.lower()}.pub").read_text().strip() for name in NAMES[:4]]
    listing.write_text("- {name: Alice, key: keys/alice.pub, rating: 2100}\n")
    wrong = cli("tournament", "new", tmp_path / "u.yaml", "--name", "Club", "--format",
                "swiss", "--rounds", "2", "--players", listing, "-k", keys / "director")
    assert wrong.exit_code == 7 and "player 1: give {name, key, email?}" in wrong.output
    assert not (tmp_path / "u.yaml").exists()
