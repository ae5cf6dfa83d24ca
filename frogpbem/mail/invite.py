"""Letters for a game that waits for its seats: how each seat joins, by mail, before the deal.

A game created with ``--join`` (and every Secret Move game) is not dealt until
each seat has added a seed of its own (``frogpbem join``) or chosen its
secret (``frogpbem setup``). The referee's ``mail``, or the judge, sends each
seat that has still to join an invitation that says exactly what to run and
what to send back, the game file attached; a seat whose join is in is told
so, and what it waits for. The judge takes the joins out of the replies and
deals once all are in (:func:`frogpbem.dealing.take_mailed_joins`); the start
is then mailed as any record is (:func:`frogpbem.mail.compose.letters`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from email.message import EmailMessage

from frogpbem import crypto
from frogpbem.dealing import joined_words
from frogpbem.errors import UsageError
from frogpbem.gamefile.document import dump_game
from frogpbem.mail.headers import Letter, addressed, stamp
from frogpbem.protocol.game import REFEREE, Game
from frogpbem.safetext import safe


def invitations(game: Game, key: crypto.PrivateKey, roles: Sequence[str],
                sender: str | None = None) -> list[Letter]:
    """The referee's letters for an undealt game, one to each of ``roles`` (seats, or
    ``referee``): to a seat that has still to join, how to join, the game file attached;
    to a seat that has joined, that its join is in; to the referee, whom the game waits for.

    They come from the referee's address in the game file, else from ``sender``.
    """
    if game.role(key) != REFEREE:
        raise UsageError("frogpbem mail is the referee's: it mails each seat its invitation")
    return [_letter(game, role, sender) for role in roles]


def due(game: Game, key: crypto.PrivateKey, marked: str | None,
        sender: str | None = None) -> tuple[list[Letter], str]:
    """What the judge mails for an undealt game, and the mark to keep once it is sent.

    ``marked`` is the mark kept after the last mailing (:func:`mark_of`), or ``None``:
    the first time every seat is invited; after that, a seat whose join has come in
    since is told it is in. Nothing else is mailed until the deal, whose start the
    judge mails as any record.
    """
    mark = mark_of(game)
    before = marked.removeprefix(f"{game.head} joined:") if marked else None
    if before is None or before == marked:  # never mailed under this header
        return invitations(game, key, game.seats, sender), mark
    known = set(before.split(","))
    news = [seat for seat in _joined(game) if seat not in known]
    return (invitations(game, key, news, sender) if news else []), mark


def mark_of(game: Game) -> str:
    """The header's hash and the seats whose joins are in: what the judge mailed about."""
    return f"{game.head} joined:{','.join(_joined(game))}"


def _joined(game: Game) -> list[str]:
    return [seat for seat in game.header.setup.joiners if seat not in game.waiting_for]


def _letter(game: Game, role: str, sender: str | None) -> Letter:
    """One letter: its words for ``role`` (:func:`_words`), headers, the game file."""
    if role not in (*game.seats, REFEREE):
        raise UsageError(f"--to {role!r}: give a seat of this game, all, or referee")
    subject, body, attach = _words(game, role, game.path.name)
    message = EmailMessage()
    message["Subject"] = f"[frogpbem {game.game_id}] {subject}"
    recipient, domain = addressed(message, game, role, sender)
    message["X-Frogpbem-Game"] = game.game_id
    message["X-Frogpbem-Head"] = game.head
    message.set_content(body)
    if attach:
        message.add_attachment(dump_game(game.file), maintype="application",
                               subtype="yaml", filename=game.path.name)
    stamp(message, domain, "auto-generated")
    return Letter(game.game_id, role, recipient, message)


def _words(game: Game, role: str, name: str) -> tuple[str, str, bool]:
    """The subject and text of ``role``'s letter, and whether the game file goes with it
    (not to a seat that has joined: it has nothing to do with it)."""
    waiting = ", ".join(game.waiting_for)
    if role == REFEREE:
        subject = f"waiting for {waiting} to join" if waiting else "every seat has joined"
        return subject, _referee_body(game, name), True
    if role in game.waiting_for:
        return (f"{game.ruleset.title}: join as {role} before the deal",
                _invitation(game, role, name), True)
    then = (f"The game begins once {joined_words(game.waiting_for)}: the referee then deals "
            "and mails you the start." if waiting else
            "Every seat has joined: the referee deals and mails you the start.")
    body = _wrap(f"{JOINED}{role}) is in game {game.game_id}; nothing more to do for "
                 f"now. {then}") + "\n"
    return f"{role} has joined" + (f" \u2014 waiting for {waiting}" if waiting else ""), \
        body, False


JOINED = "Your join ("
"""How the words to a seat whose join is in begin (:func:`says_joined`)."""


def says_joined(text: bytes) -> bool:
    """Whether a message's text is the judge's (or referee's) word to a seat that its join
    is in. Such a message carries no game file and no mark of its own: it is known by its
    words, here, beside the function that writes them (it may come from another judge)."""
    return JOINED.encode() in text


def _invitation(game: Game, seat: str, name: str) -> str:
    """What a seat reads: why it joins, the one command to run, and what to send back."""
    others = [f"{p.seat} ({safe(p.name)})" for p in game.header.seats if p.seat != seat]
    title = game.ruleset.title
    invited = (f"{safe(game.header.referee.name)} invites you to a game of {title} (game "
               f"{game.game_id}): you play {seat}, against {', '.join(others)}.")
    if game.header.setup.choosers:
        why = (f"In {title} every seat chooses its own secret before the game begins; it is "
               "sealed to you and the referee only.")
        command = 'frogpbem reply THIS_MESSAGE.eml --setup "YOUR SECRET" --key YOUR_KEY'
        how = ("with your secret in place of YOUR SECRET (see frogpbem setup --help), or "
               "--random in place of --setup to let your tool choose one: it answers this "
               "message with the game file signed (--sendmail or --smtp URL sends it).")
        by_hand = f'frogpbem setup {name} "YOUR SECRET" --key YOUR_KEY'

    else:
        why = ("Before the deal every seat adds a random seed of its own, so that nobody, not "
               "even the referee, can choose the deal (frogpbem audit checks it at the end).")
        command = "frogpbem reply THIS_MESSAGE.eml join --key YOUR_KEY"
        how = ("It answers this message with the game file signed (--sendmail or --smtp "
               "URL sends it).")
        by_hand = f"frogpbem join {name} --key YOUR_KEY"
    then = (f"The game begins once every seat has joined (waiting for "
            f"{', '.join(game.waiting_for)}); then the start comes to you by mail.")
    return "\n\n".join([_wrap(invited), _wrap(f"{why} Save this message, then run:"),
                        f"    {command}", _wrap(how),
                        _wrap(f"Or by hand: save the attached {name}, run"), f"    {by_hand}",
                        _wrap(f"and reply to this message with {name} attached (the command "
                              "has just changed it)."), _wrap(then)]) + "\n"


def _wrap(paragraph: str) -> str:
    return textwrap.fill(paragraph, 72, break_long_words=False, break_on_hyphens=False)


def _referee_body(game: Game, name: str) -> str:
    if game.waiting_for:
        return _wrap(f"Your own copy of game {game.game_id}, as the referee: it waits for "
                     f"{', '.join(game.waiting_for)} to join. Take each join out of a "
                     "returned copy with:") + f"\n\n    frogpbem deal {name} --from COPY\n"
    return _wrap(f"Your own copy of game {game.game_id}, as the referee: every seat has "
                 "joined. Deal it:") + f"\n\n    frogpbem deal {name}\n"
