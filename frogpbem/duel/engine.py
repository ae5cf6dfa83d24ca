"""Games without a referee: create one, check a copy, replay it, and add a seat's message.

Every copy read is checked (whole by ``verify`` and ``audit``; a seat's other commands
skip re-checking the messages its tool verified before, the verified prefix of
:mod:`frogpbem.protocol.verified`): the header (signed by the first seat, two seats, the
ruleset's seat names and complete options), then each message: its number and ``prev``,
its seat's signature, that it is that seat's step, the join, the public seed, each
revealed secret against its commitment, the ruleset's steps (:mod:`frogpbem.duel.rules`)
and the move through the rules. Each seat's tool remembers the messages it saw
(:mod:`frogpbem.duel.memory`): a rolled-back or forked copy is refused.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.crypto.duelsecret import SeatSecret
from frogpbem.duel import stamps
from frogpbem.duel.memory import DuelMemory
from frogpbem.duel.registry import duel_rules
from frogpbem.duel.rules import Choice, DuelRules, Parts, Played, Progress
from frogpbem.errors import (
    ChainError,
    CommitmentError,
    FrogPbemError,
    GameFileError,
    GameOverError,
    IllegalMoveError,
    InconsistentResultError,
    KeyError_,
    NotationError,
    NotYourTurnError,
    SignatureError,
    UsageError,
)
from frogpbem.frozen import frozen
from frogpbem.gamefile.document import locked, read_bytes, write_atomic
from frogpbem.gamefile.duelfile import (
    DuelFile,
    DuelHeader,
    JoinPart,
    Message,
    OwnSecret,
    SecretPlaintext,
    dump_duel,
)
from frogpbem.gamefile.duelfile import parse_duel as parse_duel_bytes
from frogpbem.gamefile.model import JSON, Deadline, Party
from frogpbem.games import find_game
from frogpbem.protocol.session import Session
from frogpbem.protocol.times import SKEW, seconds_of

SECRET_LENGTH = 256
"""A seat's sealed secret is the JSON ``{game, seat, secret}`` padded to this many bytes."""


# --- a seat's secret, sealed to itself --------------------------------------------------


def seal_secret(secret: SeatSecret, key: crypto.PublicKey) -> str:
    """``secret`` sealed (age) to its seat's key alone."""
    body = crypto.canonical_json({"game": secret.game, "seat": secret.seat,
                                  "secret": secret.secret})
    return crypto.seal(body + b" " * (SECRET_LENGTH - len(body)), [key])


def open_secret(sealed: str, game: str, seat: str, commitment: str,
                key: crypto.PrivateKey) -> SeatSecret:
    """The seat's own secret, opened with its key and checked against its commitment."""
    value = SecretPlaintext.parse(crypto.unseal(sealed, key))
    if value is None or value.game != game or value.seat != seat:
        raise CommitmentError(f"the sealed secret of {seat} does not hold its secret")
    secret = SeatSecret(game, seat, value.secret)
    if secret.seed_commitment() != commitment:
        raise CommitmentError(f"the sealed secret of {seat} does not match its commitment")
    return secret


# --- checking and replaying -------------------------------------------------------------


def check_header(header: DuelHeader) -> None:
    """The header's shape beyond the schema, and its signature by the first seat."""
    if len(header.seats) != 2:
        raise GameFileError(f"a game without a referee has two seats; this header names "
                            f"{len(header.seats)}", element="header")
    rules = find_game(header.rules)
    duel_rules(header.rules)
    try:
        options = rules.options(header.options)
    except FrogPbemError as exc:
        raise GameFileError(f"options: {exc.message}", element="header") from None
    if dict(options) != dict(header.options):
        raise GameFileError("options not complete as the ruleset writes them", element="header")
    wanted = rules.seats(options, 2)
    if header.seat_names != wanted:
        raise GameFileError(f"{rules.title} without a referee needs seats "
                            f"{', '.join(wanted)} in turn order, not "
                            f"{', '.join(header.seat_names)}", element="header")
    if header.seats[0].key == header.seats[1].key or \
            header.seats[0].public_key.blob == header.seats[1].public_key.blob:
        raise GameFileError("the two seats need keys of their own", element="header")
    try:
        header.verify(header.seats[0].public_key)
    except SignatureError:
        raise SignatureError(f"the header is not signed by {header.seat_names[0]}, its first "
                             "seat", element="header") from None
    stamps.check_header(header)


def start(header: DuelHeader) -> Progress:
    """The progress before any message (the header checked)."""
    check_header(header)
    first = header.seat_names[0]
    return Progress(header, find_game(header.rules), 0, header.hash,
                    {first: header.secret.commitment})


def due_seat(progress: Progress, rules: DuelRules) -> str | None:
    """The seat whose message is awaited (``None``: the game is over)."""
    if not progress.joined:
        return progress.second
    if progress.state is None:
        return rules.due(progress)
    return rules.awaited(progress) or progress.ruleset.to_move(progress.state)


def reveals_due(progress: Progress, rules: DuelRules) -> tuple[str, ...]:
    """Once the rules' moves are over, the seats whose reveal the game still waits for
    (Secret Move's outcome, Frog Finder's placement check); none after a resignation or a
    forfeit the protocol proved, which decide the game at once. With a notary each runs a
    clock, and a seat that lets it pass forfeits (docs/format.md, "A notary")."""
    if not progress.over or rules.forfeit(progress) is not None or \
            any(played.move == "resign" for played in progress.played):
        return ()
    return tuple(seat for seat in rules.awaited_reveals(progress)
                 if seat not in progress.revealed)


def waiting(progress: Progress, rules: DuelRules) -> tuple[str, ...]:
    """The seats whose message is awaited: the due seat (:func:`due_seat`), else each
    seat whose reveal is due (:func:`reveals_due`); the notary's clock runs for each."""
    due = due_seat(progress, rules)
    return (due,) if due is not None else reveals_due(progress, rules)


def withheld_words(seats: tuple[str, ...]) -> str:
    """``red has not revealed``, ``red and blue have not revealed``."""
    return f"{' and '.join(seats)} {'has' if len(seats) == 1 else 'have'} not revealed"


def ending_words(file: DuelFile, progress: Progress, rules: DuelRules) -> str | None:
    """How the game ended, in words (``None``: it has not): the notary's timeout, a
    forfeit the protocol proved (a false automatic pass), or the rules' outcome."""
    if file.timeout is not None:
        return f"{file.timeout.seat} forfeits on time"
    forfeit = rules.forfeit(progress)
    if forfeit is not None:
        return forfeit
    outcome = progress.ruleset.outcome(progress.state) if progress.state is not None \
        else None
    return outcome.termination if outcome is not None else None


def advance(progress: Progress, message: Message, rules: DuelRules,
            signed: bool = True, trusted: bool = False) -> Progress:
    """``progress`` after ``message``, checked (its signature too when ``signed``); a
    ``trusted`` message (verified before by this tool, byte for byte) is replayed without
    checking its signature and its ruleset's proofs again."""
    if trusted:
        rules.checks_proofs = False
        try:
            return advance(progress, message, rules, signed=False)
        finally:
            rules.checks_proofs = True
    header = progress.header
    if message.n != progress.n + 1:
        raise ChainError(f"numbered {message.n}, where message {progress.n + 1} comes")
    if message.prev != progress.head:
        before = f"message {progress.n}" if progress.n else "the header"
        raise ChainError(f"does not follow {before} (its prev names another hash)")
    if message.seat not in progress.seats:
        raise GameFileError(f"{message.seat!r} is not a seat of this game")
    if signed:
        try:
            message.verify(header.party(message.seat).public_key)
        except SignatureError:
            raise SignatureError(f"not signed by {message.seat}'s key") from None
    if message.at < header.created:
        raise ChainError("dated before the game was created")
    due = due_seat(progress, rules)
    pure_resign = message.resign is True and message.move is None and not message.steps \
        and message.public is None and message.join is None
    pure_reveal = message.reveal is not None and message.move is None and not message.resign \
        and message.public is None and message.join is None  # its rules' closing steps too
    if due is None and not pure_reveal:
        raise GameOverError("the game is over: only a seat's reveal may follow")
    if message.seat != due and not (pure_resign and progress.state is not None) \
            and not (due is None and pure_reveal):
        raise NotYourTurnError(f"it is {due}'s step, not {message.seat}'s")
    commitments, publics = dict(progress.commitments), dict(progress.publics)
    revealed = dict(progress.revealed)
    if not progress.joined:
        if message.join is None:
            raise NotYourTurnError(f"the first message is {progress.second}'s join")
        commitments[progress.second] = message.join.commitment
        publics[progress.second] = message.join.public
    elif message.join is not None:
        raise InconsistentResultError(f"{progress.second} joined already")
    if message.public is not None:
        if message.seat != progress.first or progress.first in publics:
            raise InconsistentResultError(f"only {progress.first} shows its public seed, once")
        publics[progress.first] = message.public
    if message.reveal is not None:
        secret = SeatSecret(header.game, message.seat, message.reveal)
        if message.seat in revealed:
            raise InconsistentResultError(f"{message.seat} revealed its secret already")
        if secret.seed_commitment() != commitments.get(message.seat):
            raise CommitmentError(f"the secret {message.seat} revealed does not match its "
                                  "seed commitment")
        if message.seat in publics and secret.public_seed() != publics[message.seat]:
            raise CommitmentError(f"the secret {message.seat} revealed does not give the "
                                  "public seed it showed")
        revealed[message.seat] = secret
    after = rules.take(replace(progress, commitments=commitments, publics=publics,
                               revealed=revealed), message)
    if message.move is not None or message.resign:
        if message.move is not None and message.resign:
            raise InconsistentResultError("a message holds a move or a resignation, not both")
        move = "resign" if message.resign else message.move or ""
        if message.move is not None and message.move.strip().lower() == "resign":
            raise NotationError("a resignation is written 'resign: true', not as a move")
        if after.state is None:
            raise IllegalMoveError("the board is not dealt yet")
        state, result = rules.play(after, message.seat, move)
        after = replace(after, state=state,
                        played=(*after.played, Played(message.n, message.seat, move, result)))
    elif message.join is None and message.public is None and message.reveal is None \
            and not message.steps:
        raise InconsistentResultError("an empty message")
    return replace(after, n=message.n, head=message.hash)


def replay(file: DuelFile, where: Path | str | None = None, trusted: int = 0) -> Progress:
    """Check the whole file and replay it; a fault names the file and the element. The
    first ``trusted`` messages were verified by this tool before, byte for byte
    (:mod:`frogpbem.protocol.verified`): their signatures and proofs are not checked again."""
    try:
        progress = start(file.header)
        rules = duel_rules(file.header.rules)
    except FrogPbemError as exc:
        raise exc.within(path=where, element="header") from None
    last_at = file.header.created
    dues: list[tuple[str, ...]] = []  # the seats awaited before each message (the clock)
    for position, message in enumerate(file.messages, 1):
        label = f"message {position} ({message.seat})"  # as it stands, whatever it says
        try:
            if message.at < last_at:
                raise ChainError("dated before the message before it")
            dues.append(waiting(progress, rules))
            progress = advance(progress, message, rules, trusted=position <= trusted)
        except (IllegalMoveError, NotationError) as exc:
            raise InconsistentResultError(exc.message, path=where, element=label) from None
        except FrogPbemError as exc:
            raise exc.within(path=where, element=label) from None
        last_at = message.at
    try:
        stamps.check(file, dues, waiting(progress, rules))
    except FrogPbemError as exc:
        raise exc.within(path=where) from None
    return progress


@frozen
class Loaded:
    """A copy read, checked and replayed."""

    path: Path
    file: DuelFile
    progress: Progress
    note: str | None = None
    """What the memory said of it: a crossing it won (the message seen before void)."""


def read_duel(path: Path) -> DuelFile:
    return parse_duel_bytes(read_bytes(path), str(path))


def load(path: Path, session: Session | None, whole: bool = False,
         key: crypto.PrivateKey | None = None) -> Loaded:
    """Read ``path``, check and replay it, and (with a session) check it against what this
    tool saw of the game before, remembering it if it is newer. With a session the
    messages this tool verified before are not verified again, unless ``whole`` (``verify``
    and ``audit`` check everything)."""
    file = read_duel(path)
    trusted = session.verified.duel_trusted(file) if session is not None and not whole \
        else 0
    progress = replay(file, path, trusted)
    if session is not None:
        try:
            stamps.not_ahead(file, session.clock.now())
        except FrogPbemError as exc:
            raise exc.within(path=path) from None
        notice = arriving(progress, file, key, path) if key is not None else None
        note = DuelMemory(session.home).see(file, path)
        if notice is not None:
            note = notice if note is None else f"{note}\n{notice}"
        session.verified.remember_duel(file)
        return Loaded(path, file, progress, note)
    return Loaded(path, file, progress)


def arriving(progress: Progress, file: DuelFile, key: crypto.PrivateKey, path: Path
             ) -> str | None:
    """What only the seat holding ``key`` can check of a copy, before its tool remembers
    it (:meth:`DuelRules.arrival`), and the line it has for the seat's view; nothing for a
    key that is no seat's."""
    header = file.header
    seat = next((p.seat for p in header.seats if p.public_key.same_key(key.public)), None)
    if seat is None or not progress.joined:
        return None
    secret = own_secret(progress, file, seat, key)
    if secret is None:
        return None
    try:
        return duel_rules(header.rules).arrival(progress, secret)
    except FrogPbemError as exc:
        raise exc.within(path=path) from None


# --- what a seat's tool writes ----------------------------------------------------------


def seat_of(header: DuelHeader, key: crypto.PublicKey) -> str:
    for party in header.seats:
        if party.public_key.blob == key.blob:
            return party.seat or ""
    raise KeyError_(f"key {key.fingerprint} is not a seat of game {header.game}")


def send_to(header: DuelHeader, seat: str) -> str | None:
    """Where ``seat`` mails its messages: the notary's address when the header names a
    notary (it stamps and forwards them), else the other seat's; ``None`` when the header
    gives no address there."""
    if header.notary is not None:
        return header.notary.email
    return next((party.email for party in header.seats if party.seat != seat), None)


def create(rules_name: str, key: crypto.PrivateKey, seats: list[Party],
           options: dict[str, str | int], created: str, game_id: str,
           notary: Party | None = None, deadline: Deadline | None = None) -> DuelFile:
    """A new game without a referee: the header, signed by ``key``, the first seat's
    (with ``notary``, a notary's, and its ``deadline``)."""
    rules = find_game(rules_name)
    duel_rules(rules_name)
    opts = rules.options(options)
    if len(seats) != 2:
        raise UsageError(f"a game without a referee has two seats, got {len(seats)}")
    wanted = rules.seats(opts, 2)
    by_seat = {party.seat or "": party for party in seats}
    if sorted(by_seat) != sorted(wanted):
        raise UsageError(f"{rules_name} needs seats {', '.join(wanted)}, got "
                         f"{', '.join(str(p.seat) for p in seats)}")
    ordered = tuple(by_seat[seat] for seat in wanted)
    if ordered[0].public_key.blob == ordered[1].public_key.blob:
        raise UsageError("the two seats need keys of their own")
    if ordered[0].public_key.blob != key.public.blob:
        raise KeyError_(f"the game's creator is its first seat, {wanted[0]}: give its key "
                        "(--key), not another")
    secret = SeatSecret.new(game_id, wanted[0])
    header = DuelHeader(game_id, rules.name, opts, created, ordered,
                        OwnSecret(secret.seed_commitment(), seal_secret(secret, key.public)),
                        notary=notary, deadline=deadline)
    try:
        stamps.check_header(header)
    except GameFileError as exc:
        raise UsageError(exc.message) from None
    return DuelFile(header.signed(key))


def write_new(path: Path, file: DuelFile, session: Session) -> None:
    """Write a new game's file (never over an existing one) and remember it."""
    if path.exists():
        raise UsageError(f"{path} exists already: give a new file")
    file.header.verify(file.header.seats[0].public_key)
    write_atomic(path, dump_duel(file))
    DuelMemory(session.home).see(file, path)


def own_secret(progress: Progress, file: DuelFile, seat: str,
               key: crypto.PrivateKey) -> SeatSecret | None:
    """The seat's secret, opened from the file (``None``: the second seat has not joined)."""
    header = file.header
    if seat == progress.first:
        return open_secret(header.secret.sealed, header.game, seat, header.secret.commitment,
                           key)
    join = file.messages[0].join if file.messages else None
    if join is None:
        return None
    return open_secret(join.sealed, header.game, seat, join.commitment, key)


def _signing_time(file: DuelFile, session: Session, path: Path) -> str:
    """The time a seat's new message is dated: its clock's, but never before the last
    message's (times never go back: a clock behind by less than the skew signs the last
    message's time); a clock behind it by more than the skew (10 minutes) is refused."""
    now = session.clock.text()
    last = file.messages[-1].at if file.messages else file.header.created
    if now >= last:
        return now
    if seconds_of(last) - seconds_of(now) > SKEW:
        raise UsageError(f"your clock ({now}) is more than 10 minutes behind the last "
                         f"message's time ({last}): set it right first", path=path)
    return last


def _with(message: Message, parts: Parts) -> Message:
    """``message`` with ruleset ``parts`` added."""
    steps: dict[str, JSON] = dict(message.steps or {})
    changes: dict[str, Any] = {}
    for name, value in parts.items():
        if name in ("setup", "overlap", "answer"):
            before = steps.get(name)  # a step given twice (an answer, then a move's part)
            steps[name] = {**before, **value} if isinstance(before, dict) and \
                isinstance(value, dict) else value
        elif name in ("public", "reveal") and isinstance(value, str):
            changes[name] = value
        else:
            raise ValueError(f"the rules gave a part {name!r} the file has no place for")
    return replace(message, steps=steps or None, **changes)


@frozen
class Added:
    """What a seat's command added: its message, in words."""

    seat: str
    n: int
    lines: tuple[str, ...]
    due: str | None
    """The seat whose message comes next (``None``: the game is over)."""


def add(path: Path, key: crypto.PrivateKey, text: str | None, session: Session,
        join_only: bool = False, choice: Choice | None = None) -> Added:
    """Add the seat's message to the game at ``path``: its join if it has not joined, its
    chosen setup (``choice``) if given, the steps due from it, then its move (``text``, or
    the one its tool makes by itself). The file is written once, whole, atomically; on
    any refusal it is left as it was."""
    with locked(path):
        loaded = load(path, session, key=key)
        file, progress = loaded.file, loaded.progress
        header = file.header
        rules = duel_rules(header.rules)
        seat = seat_of(header, key.public)
        if join_only and (seat != progress.second or progress.joined):
            raise UsageError(f"{seat} has nothing to join: "
                             + ("it joined already" if progress.joined and seat ==
                                progress.second else "the first seat created the game"))
        if file.timeout is not None:
            raise GameOverError(f"the game is over: the notary recorded {file.timeout.seat}'s "
                                f"timeout at {file.timeout.at}", path=path)
        if progress.over and text is not None:
            raise GameOverError("the game is over", path=path)
        secret = own_secret(progress, file, seat, key)
        if progress.over and secret is not None and seat not in progress.revealed:
            # the game is over: nothing stays hidden (the rules' closing parts with it)
            steps: Parts = {**rules.steps(progress, secret), "reveal": secret.secret}
        else:
            steps = {}
        now = _signing_time(file, session, path)
        base = Message(progress.n + 1, progress.head, seat, now)
        message = _with(base, steps)
        if not progress.joined:
            if seat != progress.second:
                raise NotYourTurnError(f"{progress.second} has not joined yet: mail them the "
                                       "file", path=path)
            secret = SeatSecret.new(header.game, seat)
            message = replace(message, join=JoinPart(secret.seed_commitment(),
                                                     secret.public_seed(),
                                                     seal_secret(secret, key.public)))
        assert secret is not None
        try:
            trial = advance(progress, message, rules, signed=False) if message != base \
                else progress
            if choice is not None:
                message = _with(message, rules.choose(trial, secret, choice))
                trial = advance(progress, message, rules, signed=False)
            for _ in range(8):  # each step due from this seat, taken in before the next
                if trial.state is not None and due_seat(trial, rules) != seat:
                    break
                more = rules.steps(trial, secret)
                grown = _with(message, more) if more else message
                if grown == message:
                    break
                message = grown
                trial = advance(progress, message, rules, signed=False)
            unplayed = None
            if text is None and not join_only and not trial.over:
                text = rules.automatic(trial, secret)
            if text is not None and not join_only and trial.over:
                unplayed = text  # the steps (an answer) ended the game: no move is played
                if seat not in trial.revealed:
                    message = _with(message, {"reveal": secret.secret})
                    trial = advance(progress, message, rules, signed=False)
            elif text is not None and not join_only:
                ruleset = progress.ruleset
                if text.strip().lower() == "resign":
                    message = replace(message, resign=True)
                else:
                    parsed = ruleset.parse_move(text)  # a sealed move: its public form shown
                    if trial.state is not None:  # its squares on the board, before any
                        ruleset.check_on_board(trial.state, parsed)  # proof is made of them
                    message = _with(replace(message, move=ruleset.public_move(parsed)),
                                    rules.move_parts(trial, secret,
                                                     ruleset.format_move(parsed)))
                trial = advance(progress, message, rules, signed=False)
                message, trial = _with_reveal(progress, message, trial, rules, secret)
        except FrogPbemError as exc:
            raise exc.within(path=path) from None
        if message == base:
            due = due_seat(progress, rules)
            raise UsageError(f"nothing to add: it is {due}'s step" if due else
                             "nothing to add: the game is over", path=path)
        signed = message.signed(key)
        new = file.added(signed)
        write_atomic(path, dump_duel(new))
        DuelMemory(session.home).see(new, path, own=True)
        session.verified.remember_duel(new)  # its parts checked as the trial's
    due = due_seat(trial, rules)
    if due is None:  # the rules' moves are over: a reveal the outcome waits for
        due = next((s for s in rules.pending(trial) if s != seat), None)
    lines = _words(progress, trial, signed)
    if loaded.note is not None:
        lines.insert(0, loaded.note)
    if unplayed is not None:
        lines.append(f"your move {unplayed} was not played: your answer ended the game")
    return Added(seat, signed.n, tuple(lines), due)


def _with_reveal(progress: Progress, message: Message, trial: Progress, rules: DuelRules,
                 secret: SeatSecret) -> tuple[Message, Progress]:
    """A move that ended the game with the seat's reveal added, when the outcome (or the
    audit) waits for it and the rules take it in that message (Secret Move's does not:
    a guess is opened only in a later message than its commitment; the seat then
    reveals with its next message)."""
    if message.seat not in reveals_due(trial, rules):
        return message, trial
    try:
        closing = _with(message, {**rules.steps(trial, secret), "reveal": secret.secret})
        return closing, advance(progress, closing, rules, signed=False)
    except FrogPbemError:
        return message, trial


def _words(before: Progress, after: Progress, message: Message) -> list[str]:
    """What a message did, in words."""
    lines = []
    if message.join is not None:
        lines.append(f"{message.seat} joined game {after.header.game}")
    if message.reveal is not None:
        lines.append(f"{message.seat} revealed its secret")
    if before.state is None and after.state is not None:
        lines.append("the board is dealt")
    rules = after.ruleset
    for index, played in enumerate(after.played):
        if index < len(before.played) and before.played[index] == played:
            continue  # said before (a move answered now was pending then)
        if played.result is None:
            lines.append(f"{played.seat} played {played.move}: awaiting the answer")
        else:
            lines.append(rules.describe(played.seat, played.move,
                                        rules.parse_result(played.result)))
    outcome = rules.outcome(after.state) if after.state is not None else None
    forfeit = duel_rules(after.header.rules).forfeit(after)
    if forfeit is not None:
        lines.append(f"game over: {forfeit}")
    elif outcome is not None:
        lines.append(f"game over: {outcome.termination}; {outcome.standing_text()}")
    return lines


# --- for mail (frogpbem.mail.duel) ------------------------------------------------------


def message_words(file: DuelFile, n: int) -> tuple[str, ...]:
    """What message ``n`` of a ``file`` this tool checked whole (a :class:`Loaded` one) did,
    in words (as :func:`add` says it): its messages are replayed without checking their
    proofs again."""
    before = replay(DuelFile(file.header, file.messages[:n - 1], file.stamps[:n - 1]),
                    trusted=n - 1)
    after = replay(DuelFile(file.header, file.messages[:n], file.stamps[:n]), trusted=n)
    return tuple(_words(before, after, file.messages[n - 1]))


def steps_alone(loaded: Loaded, seat: str, key: crypto.PrivateKey) -> bool:
    """Whether ``seat`` has setup steps due before the deal that make a message of their
    own (the other seat's step comes next), rather than going with its first move (as
    Froglet's reveal, after which white is to move)."""
    progress, file = loaded.progress, loaded.file
    rules = duel_rules(file.header.rules)
    if not progress.joined or progress.state is not None or due_seat(progress, rules) != seat:
        return False
    secret = own_secret(progress, file, seat, key)
    parts = rules.steps(progress, secret) if secret is not None else {}
    if not parts:
        return False
    at = file.messages[-1].at if file.messages else file.header.created
    trial = advance(progress, _with(Message(progress.n + 1, progress.head, seat, at), parts),
                    rules, signed=False)
    return not (trial.state is not None and due_seat(trial, rules) == seat)


# --- what a seat sees --------------------------------------------------------------------


def view_text(loaded: Loaded, key: crypto.PrivateKey | None) -> str:
    """The board as text, the scores and whose step it is (the public view: nothing is
    hidden in Froglet; with the first seat's key before its reveal, the board its reveal
    will deal)."""
    progress, header = loaded.progress, loaded.file.header
    rules = duel_rules(header.rules)
    ruleset = progress.ruleset
    seat = None
    if key is not None:
        try:
            seat = seat_of(header, key.public)
        except KeyError_:
            seat = None
    names = ", ".join(f"{p.seat} ({p.name})" for p in header.seats)
    lines = [f"{ruleset.title} - game {header.game}, no referee: {names}"]
    if loaded.note is not None:
        lines.append(loaded.note)
    state = progress.state
    if seat is not None and key is not None and progress.joined:
        secret = own_secret(progress, loaded.file, seat, key)
        if secret is not None:  # what the seat knows of its own hidden pieces
            state = rules.seat_state(progress, secret)
            if progress.state is None and state is not None:
                lines.append(rules.preview)
    timeout = loaded.file.timeout
    forfeit = rules.forfeit(progress)
    over = f"game over: {timeout.seat} forfeits on time (the notary's timeout at " \
        f"{timeout.at})" if timeout is not None else \
        f"game over: {forfeit}" if forfeit is not None else None
    if state is None and over is not None:
        lines.append(over)
        return "\n".join(lines)
    if state is None:
        due = due_seat(progress, rules)
        waiting = f"{due} to join" if not progress.joined else f"{due}'s setup step"
        lines.append(f"not dealt yet: waiting for {waiting}")
        return "\n".join(lines)
    you = frozenset({seat}) if seat else frozenset()
    lines.append(ruleset.render(ruleset.view(state, frozenset(progress.seats)), you))
    scores = ", ".join(f"{s} {p}" for s, p in ruleset.scores(state).items())
    outcome = ruleset.outcome(state)
    if scores:
        lines.append(f"points: {scores}")
    if over is not None:
        lines.append(over)
    elif outcome is not None:
        lines.append(f"game over: {outcome.termination}; {outcome.standing_text()}")
    elif ruleset.to_move(state) is None:
        lines.append(_pending_words(progress, rules))
    elif (answering := rules.awaited(progress)) is not None:
        mover = next(p.seat for p in reversed(progress.played) if p.result is None)
        lines.append(f"to answer: {answering} ({mover}'s last move awaits the answer)")
    else:
        lines.append(f"to move: {ruleset.to_move(state)}")
    for played in progress.played:
        lines.append(f"{played.n}. " + (f"{played.seat} played {played.move}: awaiting the "
                                        "answer" if played.result is None else
                                        ruleset.describe(played.seat, played.move,
                                                         ruleset.parse_result(played.result))))
    return "\n".join(lines)


def verify_text(loaded: Loaded) -> str:
    """``verify``'s report of a copy that checked."""
    progress = loaded.progress
    header = loaded.file.header
    lines = [loaded.note] if loaded.note is not None else []
    lines += [f"OK header of game {header.game} ({header.rules}, no referee), signed by "
              f"{progress.first}",
              f"OK {progress.n} messages: each signed by its seat, chained, in turn"]
    rules = duel_rules(header.rules)
    lines += rules.audit_lines(progress)
    for seat, _secret in progress.revealed.items():
        lines.append(f"OK {seat}'s revealed secret matches its seed commitment")
    lines += stamps.lines(loaded.file)
    ending = ending_words(loaded.file, progress, rules)
    due = due_seat(progress, rules)
    withheld = reveals_due(progress, rules)
    if ending is not None and withheld and loaded.file.timeout is None:
        lines.append(f"reveal pending: {withheld_words(withheld)}: what rests on a reveal "
                     "is not checked")
    lines.append(f"game over: {ending}" if ending else
                 f"waiting for {due}" if due else _pending_words(progress, rules))
    return "\n".join(lines)


def _pending_words(progress: Progress, rules: DuelRules) -> str:
    """The moves are over and the outcome waits: for whose reveal."""
    pending = reveals_due(progress, rules) or rules.pending(progress)
    return "outcome pending: " + (withheld_words(pending) if pending else
                                  "waiting for nothing")
