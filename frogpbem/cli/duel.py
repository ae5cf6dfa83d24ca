"""The commands on a game without a referee: ``new --no-referee``, ``move``, ``join``,
``view``, ``hint``, ``record``, ``verify`` (and ``audit``, in :mod:`frogpbem.cli.checks`),
each dispatched here by the existing command when the file is one
(:func:`is_duel_file`). The library is imported in each function's body."""

from __future__ import annotations

import json
from pathlib import Path

from frogpbem.cli.keys import load_key
from frogpbem.cli.output import echo, emit
from frogpbem.errors import FileAccessError, FrogPbemError, GameFileError, UsageError
from frogpbem.frozen import frozen


@frozen
class NotaryOptions:
    """``new``'s ``--notary PUB``, ``--email notary=ADDRESS`` and ``--deadline``."""

    key: Path | None = None
    email: str | None = None
    deadline: str | None = None


def is_duel_file(path: Path) -> bool:
    """Whether ``path`` is a game file without a referee (``False`` if it cannot be read:
    the referee's command then says why). A regular file too large to read is told by its
    first 4 MiB, so that the duel's command refuses it in its own sentence."""
    from frogpbem.gamefile.document import read_bytes
    from frogpbem.gamefile.duelfile import is_duel
    from frogpbem.gamefile.strictyaml import MAX_BYTES

    try:
        return is_duel(read_bytes(path))
    except FileAccessError:  # not a regular file, or not readable: never opened here
        return False
    except GameFileError:  # larger than a game file may be: its start tells
        try:
            with path.open("rb") as handle:
                return is_duel(handle.read(MAX_BYTES))
        except (OSError, FrogPbemError, ValueError):
            return False
    except (FrogPbemError, ValueError):
        return False


def new(game: Path, rules: str, key: Path | None, seat_keys: dict[str, str],
        names: dict[str, str], emails: dict[str, str], options: dict[str, str],
        as_json: bool, notary: NotaryOptions | None = None,
        placed: str | None = None) -> None:
    """``frogpbem new --no-referee``: the header, signed by the first seat's ``key``; with
    ``placed`` (``players``, Frog Finder alone) each seat places its own frogs."""
    from dataclasses import replace

    from frogpbem import crypto
    from frogpbem.dealing import new_game_id
    from frogpbem.duel.engine import create, write_new
    from frogpbem.duel.registry import duel_rules
    from frogpbem.gamefile.duelfile import PLACED, PLACED_RULES, DuelFile
    from frogpbem.gamefile.model import Deadline, Party
    from frogpbem.games import find_game
    from frogpbem.mail.contact import check_address
    from frogpbem.protocol.session import Session

    duel_rules(rules)
    if placed is not None and (placed != PLACED or find_game(rules).name != PLACED_RULES):
        raise UsageError(f"--placed takes {PLACED}, and only with --rules {PLACED_RULES}: "
                         "each seat then places its own frogs")
    notary = notary or NotaryOptions()
    if notary.key is None and (notary.email is not None or notary.deadline is not None):
        raise UsageError("--deadline and --email notary=… need --notary NOTARY.pub: without "
                         "a notary a game without a referee has no deadlines")
    for who, text in [*emails.items(), ("notary", notary.email or "")]:
        if text:
            check_address(text, f"--email {who}")
    try:
        deadline = Deadline.parse(notary.deadline) if notary.deadline is not None else None
    except FrogPbemError as exc:
        raise UsageError(f"--deadline: {exc.message}") from None
    private = load_key(key)
    with Session.from_environment() as session:
        seats = [Party(names.get(s, s.capitalize()), crypto.load_public_key(pub).line, s,
                       emails.get(s)) for s, pub in seat_keys.items()]
        public = crypto.load_public_key(str(notary.key)) if notary.key is not None else None
        party = Party("Notary", public.line, None, notary.email) if public else None
        file = create(rules, private, seats, dict(options), session.clock.text(),
                      new_game_id(find_game(rules)), party, deadline)
        if placed is not None:  # the header's own field, signed again with it
            file = DuelFile(replace(file.header, placed=placed).signed(private))
        write_new(game, file, session)
        first, second = file.header.seat_names
        to = f"the notary ({party.email or 'its address'}), which forwards it to {second}" \
            if party is not None else second
        emit({"game": file.game, "file": str(game), "referee": None,
              "notary": party.email if party is not None else None}, as_json,
             f"created {file.game} in {game} (no referee)\nnow mail it to {to}, who "
             f"joins with: frogpbem move {game.name}{_setup_words(rules)} --key THEIR_KEY")


def _setup_words(rules: str) -> str:
    """`` --random`` (or their own ``--setup``) for a ruleset whose seats choose a setup."""
    from frogpbem.duel.registry import duel_rules
    from frogpbem.duel.rules import DuelRules

    return " --random (or --setup YOURS)" \
        if type(duel_rules(rules)).choose is not DuelRules.choose else ""


def move(game: Path, words: list[str] | None, key: Path | None, as_json: bool,
         join_only: bool = False, setup: str | None = None,
         random_setup: bool = False) -> None:
    """``frogpbem move`` (and ``join``) on a game without a referee; with ``setup`` (or
    ``random_setup``) the seat's chosen setup goes first (Secret Move: its headers)."""
    from frogpbem.duel.engine import add
    from frogpbem.duel.rules import Choice
    from frogpbem.protocol.session import Session

    if setup is not None and random_setup:
        raise UsageError("give your setup, or --random (not both)")
    choice = Choice(setup) if setup is not None or random_setup else None
    text = " ".join(words) if words else None
    with Session.from_environment() as session:
        added = add(game, load_key(key), text, session, join_only, choice)
    then = f"now mail {game.name} to {added.due}" if added.due and added.due != added.seat \
        else ("your step again" if added.due else "")
    emit({"seat": added.seat, "n": added.n, "lines": list(added.lines), "due": added.due},
         as_json, "\n".join([*added.lines, then] if then else added.lines))


def view(game: Path, key: Path | None, public: bool, as_json: bool, fmt: str) -> None:
    """``frogpbem view`` on a game without a referee: text, json, yaml, svg or html, a
    seat's view (its key) or the public's, as for a refereed game."""
    from frogpbem.cli.keys import key_path
    from frogpbem.duel.engine import load, view_text
    from frogpbem.duel.looks import duel_view, render_html, render_svg, undealt_json
    from frogpbem.gamefile.document import dump_yaml
    from frogpbem.protocol.session import Session

    formats = ("text", "json", "yaml", "svg", "html")
    if fmt not in formats:
        raise UsageError(f"--format must be {', '.join(formats)}, got {fmt!r}")
    if as_json and fmt not in ("text", "json"):
        raise UsageError(f"--json and --format {fmt} ask for two formats: give one")
    with Session.from_environment() as session:
        path, asked = key_path(key)
        private = load_key(path) if not public and path is not None else None
        loaded = load(game, session, key=private)
        if fmt == "text" and not as_json:
            echo(view_text(loaded, private))
            return
        if (as_json or fmt in ("json", "yaml")) and loaded.progress.state is None:
            from frogpbem.duel.looks import viewer

            if viewer(loaded, private, asked)[1] is None:
                data = undealt_json(loaded)
                echo(json.dumps(data, indent=2) if fmt != "yaml" else
                     dump_yaml(data).decode(), nl=fmt != "yaml")
                return
        shown = duel_view(loaded, private, asked)
        if as_json or fmt == "json":
            echo(json.dumps(shown.to_json(), indent=2))
        elif fmt == "yaml":
            echo(dump_yaml(shown.to_json()).decode(), nl=False)
        else:
            echo((render_svg if fmt == "svg" else render_html)(shown), nl=False)


def hint(game: Path, key: Path | None, as_json: bool, fmt: str) -> None:
    """``frogpbem hint`` on a game without a referee: the ruleset's hint of the seat's own
    view, exactly as for a refereed game."""
    from frogpbem.duel.engine import load
    from frogpbem.duel.looks import duel_view, hint_of, render_html, render_svg
    from frogpbem.protocol.session import Session

    with Session.from_environment() as session:
        private = load_key(key)
        loaded = load(game, session, key=private)
        shown = duel_view(loaded, private)
        data = hint_of(shown)
        hints = loaded.progress.ruleset.hints
        assert hints is not None  # hint_of refused a ruleset without hints
        if fmt in ("svg", "html"):
            if hints.heat(data) is None:
                raise UsageError(f"--format {fmt}: {loaded.progress.ruleset.title}'s hint "
                                 "has no heat map; use text or json")
            echo((render_svg if fmt == "svg" else render_html)(shown, data), nl=False)
            return
        if loaded.note is not None and not (as_json or fmt == "json"):
            echo(loaded.note)
        emit(data, as_json or fmt == "json", hints.text(shown.board, data))


def record(game: Path, as_json: bool, fmt: str) -> None:
    """``frogpbem record`` on a game without a referee: text, json or an html page."""
    from frogpbem.duel.engine import load
    from frogpbem.duel.looks import record_html, record_json, record_text
    from frogpbem.protocol.session import Session

    with Session.from_environment() as session:
        loaded = load(game, session)
        if as_json or fmt == "json":
            echo(json.dumps(record_json(loaded), indent=2))
        else:
            echo((record_html if fmt == "html" else record_text)(loaded), nl=False)


def verify(game: Path, as_json: bool, export: Path | None = None,
           against: Path | None = None) -> None:
    """``frogpbem verify`` on a game without a referee: every signature, the chain, each
    seat's turn, the deal and every move; ``--export`` writes each signed element for
    ``ssh-keygen -Y verify``; ``--against`` compares another copy (a fork: a proof
    saved, exit 11)."""
    from frogpbem.duel.audit import compare_copies, export_duel, save_proof
    from frogpbem.duel.engine import load, verify_text
    from frogpbem.errors import ForkError
    from frogpbem.protocol.session import Session

    with Session.from_environment() as session:
        loaded = load(game, session, whole=True)  # every signature and proof, every time
        data: dict[str, object] = {"ok": True, "game": loaded.file.game,
                                   "messages": loaded.progress.n}
        text = verify_text(loaded)
        if against is not None:
            proof = compare_copies(loaded.file, against)
            if proof is not None:
                saved = save_proof(session.home, proof)
                emit({**data, "ok": False, "fork": proof.position, "proof": str(saved)},
                     as_json, text + f"\nFORK: {proof.position} of game {proof.game} is "
                     f"signed by {proof.seat} twice with different content ({game} and "
                     f"{against}); proof saved to {saved}")
                raise ForkError(f"FORK: {proof.seat} signed two different {proof.position}s "
                                f"of game {proof.game}; proof saved to {saved} (check it: "
                                "frogpbem verify --proof FILE)", path=against)
            data.update(against=str(against))
            text += f"\nOK no fork: {against} holds the same history as far as both go"
        if export is not None:
            written = export_duel(game, export)
            data.update(exported=[w.to_json() for w in written])
            text += f"\nexported {len(written)} signed elements to {export}; check one with:"
            text += f"\n  {written[0].command}"
        emit(data, as_json, text)


def check_proof(proof: Path, as_json: bool) -> bool:
    """``frogpbem verify --proof`` of a saved fork proof of a game without a referee;
    ``False`` when the file is no such proof (the referee's proof is checked then)."""
    from frogpbem.audit import Report
    from frogpbem.gamefile.document import read_bytes
    from frogpbem.gamefile.duelfork import DuelForkProof, is_duel_proof

    text = read_bytes(proof, 1 << 20).decode("utf-8", "replace")
    if not is_duel_proof(text):
        return False
    report = Report(str(proof), holds="the proof holds: a seat signed two histories")
    try:
        checked = DuelForkProof.parse(text)
        report.passed(f"fork proof: {checked.seat}'s key {checked.key.fingerprint} signed "
                      f"two different {checked.position}s of game {checked.game}; both "
                      "signatures verify")
    except FrogPbemError as exc:
        report.failed(f"not a valid fork proof: {exc.message}")
    emit(report.to_json(), as_json, report.text())
    if not report.ok:
        raise SystemExit(1)
    return True
