"""The headers of every message frogpbem sends: addresses as headers hold them, the
``Date``, ``Message-ID`` and ``Auto-Submitted`` stamp, the folding policy, and a letter.

Below both the referee's letters (:mod:`frogpbem.mail.compose`) and the invitations
before the deal (:mod:`frogpbem.mail.invite`), which each use them.
"""

from __future__ import annotations

import email.policy
import re
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from frogpbem.errors import GameFileError
from frogpbem.frozen import frozen
from frogpbem.mail.contact import one_address
from frogpbem.protocol.game import REFEREE, Game
from frogpbem.safetext import safe


@frozen
class Letter:
    """One message, and whom it is for."""

    game: str
    role: str
    """The seat it is for, or ``referee``."""
    address: str | None
    """Where it goes (``None``: the game file gives no address for that role)."""
    message: EmailMessage


def re_subject(subject: str) -> str:
    """The subject of an answer to a message with ``subject``: ``Re: …`` once, on one line."""
    said = " ".join(subject.split())
    return said if said[:3].lower() == "re:" else f"Re: {said}".rstrip()


def address(name: str | None, addr_spec: str, whose: str) -> Address:
    """``addr_spec`` with its display name, as a header holds it (quoted by the email
    package, never pasted in: a name such as ``Bob <spy@evil.invalid>`` stays a name).

    Raises :class:`GameFileError` naming ``whose`` address when it is not one mail
    address on one line.
    """
    found = one_address((name or "")[:MAX_NAME], addr_spec)
    if found is None or not found.username or not found.domain or \
            found.addr_spec != addr_spec.strip():
        raise GameFileError(f"the mail address of {whose} is not one mail address: "
                            f"{safe(addr_spec)[:80]!r}")
    return found


def domain_of(addr_spec: str | None) -> str:
    """The domain for the Message-IDs of mail sent as ``addr_spec`` (``frogpbem.invalid``
    when there is none)."""
    domain = (addr_spec or "").rpartition("@")[2]
    return domain if re.fullmatch(r"[A-Za-z0-9.-]+", domain) else "frogpbem.invalid"


def stamp(message: EmailMessage, domain: str, auto: str | None,
          kind: str | None = None) -> None:
    """The headers every message frogpbem sends carries: ``Date``, a ``Message-ID`` in
    ``domain``, and ``Auto-Submitted`` (RFC 3834: ``auto-generated`` for game mail,
    ``auto-replied`` for answers), which tells autoresponders not to answer it.

    Called once the message's content is set: its headers are then folded as the email
    package folds them, except a subject that would not read back as it was (see
    :class:`_Policy`). ``kind`` goes into the Message-ID (``<….KIND@DOMAIN>``). ``auto``
    ``None``: a person's own message (a seat's move), which has no ``Auto-Submitted``.
    """
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(kind, domain=domain)
    if auto is not None:
        message["Auto-Submitted"] = auto
    message.policy = _POLICY


_IDENTIFIERS = ("message-id", "in-reply-to", "references")
"""Headers of message identifiers, never written as encoded words (RFC 5322 3.6.4)."""


class _Policy(email.policy.EmailPolicy):
    """The email package's own policy (lines of 78, encoded words of 76 at most), but a
    header that would read back changed once folded is written on one line, if it fits
    RFC 5322's 998 characters: the package folds a subject before the encoded ``—``, and
    a name not in ASCII between its encoded words, with a space left on each side, which
    reads back as two. Message identifiers are folded only at their spaces: the package
    writes one longer than a line as an encoded word, which no mail program threads by."""

    def fold(self, name: str, value: str) -> str:
        if name.lower() in _IDENTIFIERS:
            return str(email.policy.EmailPolicy.fold(self._unfolded(), name, value))
        folded = str(super().fold(name, value))
        if _read_back(name, folded) == str(value):
            return folded
        whole = str(email.policy.EmailPolicy.fold(self._unfolded(), name, value))
        return whole if _fits(whole) else folded

    def fold_binary(self, name: str, value: str) -> bytes:
        if name.lower() in _IDENTIFIERS:
            return bytes(email.policy.EmailPolicy.fold_binary(self._unfolded(), name, value))
        folded = bytes(super().fold_binary(name, value))
        if _read_back(name, folded.decode("ascii", "replace")) == str(value):
            return folded
        whole = bytes(email.policy.EmailPolicy.fold_binary(self._unfolded(), name, value))
        return whole if _fits(whole.decode("ascii", "replace")) else folded

    def _unfolded(self) -> email.policy.EmailPolicy:
        return self.clone(max_line_length=998)


def _read_back(name: str, folded: str) -> str:
    """A folded header's text as a mail program reads it."""
    return str(email.message_from_string(folded, policy=email.policy.default)[name])


def _fits(header: str) -> bool:
    return all(len(line) <= 998 for line in header.splitlines())


_POLICY = _Policy()
MAX_NAME = 200
"""Characters of a display name in a header (a longer one is cut: its line would be
refused by a mail server)."""


def addressed(message: EmailMessage, game: Game, role: str,
              sender: str | None) -> tuple[str | None, str]:
    """Set the ``From``, ``Reply-To`` and ``To`` of the referee's message to ``role``: from
    the referee's address in the game file, else from ``sender``, with answers going to
    ``sender`` (``Reply-To``) when it is another. Returns the recipient's address (``None``:
    the game file gives none) and the domain for the message's ``Message-ID``."""
    parties = {party.seat or REFEREE: party for party in (*game.header.seats,
                                                         game.header.referee)}
    referee = parties[REFEREE].email or sender
    if referee:
        message["From"] = address(safe(parties[REFEREE].name), referee, "the referee")
        if sender and sender != referee:
            message["Reply-To"] = address("frogpbem judge", sender, "the judge")
    recipient = parties[role].email
    if recipient:
        written = address(safe(parties[role].name), recipient, role)
        message["To"] = written
        recipient = written.addr_spec
    return recipient, domain_of(sender or parties[REFEREE].email)


__all__ = ["MAX_NAME", "Letter", "address", "addressed", "domain_of", "re_subject", "stamp"]
