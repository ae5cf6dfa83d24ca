"""What the judge says to people, and how it tells a person's mail from a machine's.

The judge answers every message a person sends that it cannot use, once, in a
player's words, with the next command to run; it never answers automatic mail
(bounces, out-of-office replies, lists, its own mail), so no two programs can
mail each other for ever (RFC 3834). What it did with each message is kept in
a :class:`Journal`, so that neither a move nor an answer happens twice across a
crash.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from email.headerregistry import Address
from email.message import EmailMessage, Message
from email.utils import parseaddr
from pathlib import Path

from frogpbem import crypto
from frogpbem.dealing import JoinRefusedError
from frogpbem.errors import (
    FrogPbemError,
    GameFileError,
    GameOverError,
    IllegalMoveError,
    KeyError_,
    NotationError,
    NothingToApplyError,
    NotYourTurnError,
    StaleCopyError,
    UnchangedCopyError,
    VerificationError,
)
from frogpbem.frozen import frozen
from frogpbem.gamefile import jsontext, mailsafe
from frogpbem.gamefile.document import read_bytes, write_atomic
from frogpbem.mail.contact import one_address
from frogpbem.mail.headers import MAX_NAME, domain_of, re_subject, stamp
from frogpbem.mail.receive import GAME_ID, Found, header_text
from frogpbem.protocol.game import Game
from frogpbem.record import outcome_of, result_token
from frogpbem.safetext import safe

JUDGE_NAME = "frogpbem judge"
"""The display name of the judge's own mail."""
NEXT_STEP = ("save the judge's last message about the game as MESSAGE, and run\n"
             '    frogpbem reply MESSAGE "YOUR MOVE" --key YOUR_KEY\n'
             "(or run\n"
             '    frogpbem move GAME.yaml "YOUR MOVE" --key YOUR_KEY\n'
             "on your copy of the game, and reply with that file attached).")
"""The command a player runs next, in every answer."""


def automatic(message: Message, own: str) -> str | None:
    """Why ``message`` was sent by a machine (a bounce, an autoresponder, a list, the
    judge itself), in a few words; ``None`` for a person's message, which is answered."""
    sender = parseaddr(header_text(message, "from"))[1].lower()
    if "return-path" in message and \
            header_text(message, "return-path").strip() in ("<>", ""):
        return "a bounce (empty return path)"
    if sender.partition("@")[0] in ("mailer-daemon", "postmaster") or \
            message.get_content_type() == "multipart/report":
        return "a bounce or delivery report"
    submitted = header_text(message, "auto-submitted").split(";")[0].strip().lower()
    if submitted and submitted != "no":
        return f"automatic mail (Auto-Submitted: {safe(submitted)[:40]})"
    if header_text(message, "precedence").strip().lower() in ("bulk", "junk", "list"):
        return "bulk or list mail (Precedence)"
    if "list-id" in message:
        return "mail from a list (List-Id)"
    if "x-autoreply" in message or "x-autorespond" in message:
        return "an autoresponder's mail"
    if sender and sender == own.lower():
        return "mail from the judge's own address"
    return None


@frozen
class Unused:
    """Why a person's message was not used, for the log and for the sender."""

    said: str
    """The log line's words."""
    words: str
    """What happened, in a player's words (one or two sentences)."""
    detail: str | None = None
    """The technical reason, when it helps (shown on a line of its own)."""
    game: str | None = None
    """The game the message was about, when known."""
    next_step: str = NEXT_STEP
    """What the player does now."""
    nothing: bool = False
    """Whether the message held nothing of a game at all (see :func:`unanswered`)."""


@frozen
class Own:
    """The judge's own copy of the game a refused message is about."""

    game: Game
    to_move: str | None
    """The seat to move in it (``None``: over, or not dealt)."""


def unused_for(exc: FrogPbemError, game: str | None, own: Own | None = None,
               found: Found | None = None) -> Unused:
    """A refusal of ``take_found`` said to a player: what happened and what to do.

    With the judge's ``own`` copy the answer says what it holds: a game over (whatever
    was refused, no move is taken any more), or the record a stale request asks for made
    already by the same seat from an earlier message (a move sent twice): nothing to
    move again."""
    if isinstance(exc, JoinRefusedError):
        return _join_refused(exc, game, own.game.path.name if own is not None else None)
    said = f"refused: {_REFEREE_OPTION.sub('', exc.message)}"  # the judge's own, not its options
    if own is not None and outcome_of(own.game) is not None:
        return Unused(said, f"the game is over: {safe(result_token(own.game)[1])}; no more "
                      "moves are taken.", None, game,
                      f"check the game with\n    frogpbem audit {own.game.path.name}")
    if own is not None and found is not None and isinstance(exc, StaleCopyError):
        made = _made_before(own.game, found)
        if made is not None:
            turn = f"; it is {own.to_move}'s turn now" if own.to_move else ""
            return Unused(said, f"your move for record {made} came in an earlier message and "
                          f"was applied (it is record {made} of the game); this one is not "
                          f"used{turn}.", None, game,
                          "wait for the judge's next message about the game; then " + NEXT_STEP
                          if own.to_move != own.game.file.log[made - 1].seat else NEXT_STEP)
    detail: str | None = safe(exc.message)
    next_step = NEXT_STEP
    if isinstance(exc, UnchangedCopyError):
        words = ("it holds the judge's copy of the game unchanged: there is no move in it "
                 "(frogpbem move, or frogpbem reply, was not run on it).")
        detail = None
    elif isinstance(exc, NothingToApplyError):  # what it holds came in an earlier message
        words = ("everything in it was taken already, from an earlier message (the same "
                 "move sent twice?): nothing more to do.")
        detail = None
        next_step = "wait for the judge's next message about the game; then " + NEXT_STEP
    elif isinstance(exc, GameOverError):
        words, next_step = "the game is over: it takes no more moves.", \
            "check the game with\n    frogpbem audit GAME.yaml"
    elif isinstance(exc, NotYourTurnError):
        words = "it is not your turn: another seat is to move."
        next_step = "wait for the judge's message saying it is your move; then " + NEXT_STEP
    elif isinstance(exc, NotationError):
        words = "your move is not written as this game writes moves."
    elif isinstance(exc, IllegalMoveError):
        words = "your move is not allowed in the game as it stands."
    elif isinstance(exc, StaleCopyError):
        words = ("your copy of the game is older than the judge's: a move was made after "
                 "it (or this message was sent before).")
        detail = None  # it names the referee's own options, of no use to a player
        next_step = NEXT_STEP.replace("last message about the game", "latest message "
                                      "about the game (it holds the judge's copy)", 1)
    elif isinstance(exc, KeyError_):
        words = "the request is not signed with the key of a seat of this game."
        next_step = NEXT_STEP.replace("YOUR_KEY\n", "YOUR_KEY\n(YOUR_KEY: the key you "
                                      "play this game with)\n", 1)
    elif isinstance(exc, VerificationError):
        words = ("a signature in it does not check: the game file or the request was "
                 "changed after it was signed.")
    elif isinstance(exc, GameFileError):
        words = _DAMAGED
    else:
        words = "it could not be used."
    return Unused(said, words, detail, game, next_step)


_REFEREE_OPTION = re.compile(r";? (or )?drop (it|them) with --discard-requests")
"""What the referee's ``move`` adds to a refusal: an option of no use to a player."""


def _made_before(game: Game, found: Found) -> int | None:
    """The record a request of the message asks for that its own seat has made already in
    ``game`` (from an earlier message), if any."""
    for copy in found.copies:
        if copy.game != game.game_id:
            continue
        for request in copy.requests:
            if 0 < request.n <= len(game.file.log) and \
                    game.file.log[request.n - 1].seat == request.seat:
                return request.n
    return None


def _join_refused(exc: JoinRefusedError, game: str | None, file: str | None) -> Unused:
    """A reply to an invitation that adds no join, said to a seat: before the deal there
    is no move to make, only the join (or the secret of Secret Move) to send, on the file
    attached to the invitation (named as the judge's own, ``file``)."""
    if exc.joined:
        return Unused(f"refused: {exc.message}", "you joined already: the first join "
                      "counts, and this one is not used.", None, game,
                      "nothing: the start of the game comes to you by mail once every "
                      "seat has joined.")
    name = file or (f"{game}.yaml" if game else "GAME.yaml")  # as the judge mails it
    if exc.choosing:
        what, reply, by_hand = ("frogpbem setup", '--setup "YOUR SECRET"',
                                f'frogpbem setup {name} "YOUR SECRET"')
    else:
        what, reply, by_hand = "frogpbem join", "join", f"frogpbem join {name}"
    return Unused(f"refused: {exc.message}", f"your copy holds no join: the game waits for "
                  f"its seats to join before the deal, and {what} was not run on it.",
                  None, game,
                  "save the judge's invitation as MESSAGE, and run\n"
                  f"    frogpbem reply MESSAGE {reply} --key YOUR_KEY\n"
                  + ("(--random in place of --setup lets your tool choose the secret)\n"
                     if exc.choosing else "")
                  + f"(or run\n    {by_hand} --key YOUR_KEY\non the game file attached to "
                  "the invitation, and reply with that file attached).")


def unused_nothing(found: Found, said: str, game: str | None) -> Unused:
    """A message in which nothing was taken, said to a player: no game file and no
    request block in it, or a game file that does not read."""
    if found.problems:
        return Unused(said, _DAMAGED, safe("; ".join(found.problems)), game)
    return Unused(said, "there is no game file and no request block in it.", None, game,
                  nothing=True)


ANSWERS = "frogpbem-answer"
"""What the Message-ID of each of the judge's answers holds (``<….frogpbem-answer@DOMAIN>``),
so that a reply to an answer is known for one."""
ONE_A_DAY = 86400
"""Seconds before one address is answered again that its message held nothing."""


def unanswered(message: Message, judge: str, players: Callable[[], set[str]],
               answered_at: int | None, now: int) -> str | None:
    """Why a message that held nothing of a game at all is not answered, or ``None`` to
    answer it. Such a message is answered only when something ties it to a game (a
    ``[frogpbem …]`` subject, a Message-ID of the judge's in its references, an
    attachment, or a sender who has a seat: not spam under a forged sender), never when
    it answers one of the judge's own answers (an autoresponder that ignores
    Auto-Submitted: no loop), and once a day per address (``answered_at``: when it last
    was)."""
    domain = domain_of(judge)
    ids = _ids(header_text(message, "in-reply-to") + " " + header_text(message, "references"))
    if any(ident.endswith(f".{ANSWERS}@{domain}>") for ident in ids):
        return "it answers the judge's own answer"
    sender = parseaddr(header_text(message, "from"))[1].lower()
    if "[frogpbem" not in header_text(message, "subject").lower() and \
            not any(ident.endswith(f"@{domain}>") for ident in ids) and \
            not any(part.get_filename() or part.get_content_disposition() == "attachment"
                    for part in message.walk()) and sender not in players():
        return "nothing ties it to a game"
    if answered_at is not None and 0 <= now - answered_at < ONE_A_DAY:
        return f"{safe(sender)[:80]} was answered so in the last day"
    return None


_DAMAGED = ("the game file in it could not be read: it was changed on the way, or by "
            "hand (attach the file rather than paste it).")


def games_named(found: Found) -> list[str]:
    """The ids of the games a message's files and request blocks are about."""
    named = [copy.game for copy in found.copies]
    for text in found.blocks:
        try:
            named += [mailsafe.block_game(value) for value in mailsafe.request_blocks(text)]
        except FrogPbemError:
            continue
    return [game for game in dict.fromkeys(named) if GAME_ID.fullmatch(game)]


def answer(to: Message, unused: Unused, judge: str) -> EmailMessage | None:
    """The judge's answer to a person's message it did not use; ``None`` when the message
    gives no address to answer.

    It quotes the message's subject (``Re: …``), names the game, answers the message
    (``In-Reply-To``, ``References``) and is marked ``Auto-Submitted: auto-replied``.
    """
    name, sender = parseaddr(header_text(to, "from"))
    recipient = one_address(name[:MAX_NAME], sender) if sender else None
    if recipient is None or not recipient.domain:
        return None
    theirs = " ".join(header_text(to, "subject").split())[:200]
    subject = re_subject(theirs)
    if unused.game and unused.game not in subject:
        subject = f"[frogpbem {unused.game}] {subject}"
    reply = EmailMessage()
    reply["From"] = Address(display_name=JUDGE_NAME, addr_spec=judge)
    reply["To"] = recipient
    reply["Subject"] = subject if theirs else \
        f"[frogpbem {unused.game}] your message" if unused.game else "[frogpbem] your message"
    ident = message_id(to)
    if ident:
        reply["In-Reply-To"] = ident
        reply["References"] = " ".join([*_ids(header_text(to, "references"))[-10:], ident])
    game = f" about game {unused.game}" if unused.game else ""
    quoted = f' "{safe(theirs)}"' if theirs else ""
    lines = [f"Your message{quoted}{game} was not used; nothing was changed in the game.",
             "", f"What happened: {unused.words}"]
    if unused.detail:
        lines.append(f"(In detail: {unused.detail})")
    lines += ["", f"What to do: {unused.next_step}", "", "-- ",
              "This answer was written by a program; replies to it are read by the judge "
              "only."]
    reply.set_content("\n".join(lines) + "\n")
    stamp(reply, domain_of(judge), "auto-replied", ANSWERS)
    return reply


def notice(game: str, role: str, refused: str, referee: str, judge: str) -> EmailMessage:
    """The one message that tells the referee a seat's address is refused for good."""
    message = EmailMessage()
    message["From"] = Address(display_name=JUDGE_NAME, addr_spec=judge)
    message["To"] = Address(addr_spec=referee)
    message["Subject"] = f"[frogpbem {game}] cannot mail {role}"
    message.set_content(
        f"The mail server refused to take mail for {role} in game {game}:\n\n"
        f"    {refused}\n\n"
        f"The judge no longer mails {role} at that address; the game goes on. Once the\n"
        f"address works again (or the game names another one), remove the file\n"
        f".judge/bounced/{game}.json in the judge's games folder, and the judge mails\n"
        f"{role} again. You are told this once.\n")
    stamp(message, domain_of(judge), "auto-generated")
    return message


def message_id(message: Message) -> str | None:
    """``message``'s own ``Message-ID`` (``<…>``), or ``None`` when it has none."""
    found = _ids(header_text(message, "message-id"))
    return found[0] if found else None


def _ids(text: str) -> list[str]:
    """The ``<…>`` message ids in a header's text (nothing else of it is repeated)."""
    return re.findall(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>", text)


@frozen
class Entry:
    """What the judge did with one message (see :class:`Journal`)."""

    state: str
    """``taking``, ``taken``, ``answered``, or ``unanswered`` (found of no use, and the
    answer not taken by the server: the message is taken afresh by a later round)."""
    games: object = None
    """For ``taking``: the hash of the file of each game it names, before it was taken; for
    ``taken`` and ``answered``: how the mailbox named the message (found again under that
    name, a round stopped before filing it; under another, the same message came twice)."""


class Journal:
    """What the judge did with each message, by the sha256 of its bytes, in
    ``FOLDER/SHA256.json``: ``taking`` (before its requests are taken, with the
    hash of the file of each game it names), ``taken`` (after the game file was written),
    ``answered`` (once the session with the mail server is up, just before the answer is
    sent: an answer is never sent twice, and one lost by a crash at that instant is not
    sent at all). Each state is
    written before the message is filed, so a message found again after a crash
    is filed as it would have been.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get(self, digest: str) -> Entry | None:
        path = self.folder / f"{digest}.json"
        try:
            found = jsontext.loads(read_bytes(path)) if path.is_file() else None
        except (FrogPbemError, ValueError):  # damaged: as if never written
            return None
        if isinstance(found, list) and len(found) == 2 and isinstance(found[0], str):
            return Entry(found[0], found[1])
        return None

    def put(self, digest: str, entry: Entry) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(self.folder / f"{digest}.json", json.dumps([entry.state, entry.games])
                     .encode())


def digest_of(data: bytes) -> str:
    """The name of a message in the :class:`Journal`."""
    return crypto.sha256(data).hex()
