"""Where the judge's mail goes: the :class:`Outbox` port, over SMTP or kept in memory.

The judge hands its letters to an outbox and learns, for each, whether it went
or what refused it; how they travel is the outbox's business. :class:`SmtpOutbox`
sends them through a server (:func:`frogpbem.mail.compose.deliver`);
:class:`MemoryOutbox` keeps them, as aiosmtpd's ``Sink`` handler takes mail and
does nothing with it, for tests that need no server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

from frogpbem.mail.compose import Refusal, deliver

Envelope = tuple[EmailMessage, str]
"""One message and the one address it goes to."""


class Outbox(Protocol):
    """A way for mail to go out."""

    def send(self, envelopes: list[Envelope],
             sending: Callable[[], None] | None = None) -> list[Refusal | None]:
        """Send each message to its address, each on its own: in order, ``None`` for each
        sent and a :class:`Refusal` for each refused. Raises :class:`FileAccessError`
        when none can be sent (the server is away). ``sending`` is called once, just
        before the first message goes (the judge notes there that it answered)."""
        ...


@dataclass(frozen=True)
class SmtpOutbox:
    """An SMTP server: ``smtp://host[:port]`` (STARTTLS when offered) or ``smtps://``;
    the login from the environment or the ``[smtp]`` section of ``config``."""

    url: str
    config: Path | None = None

    def send(self, envelopes: list[Envelope],
             sending: Callable[[], None] | None = None) -> list[Refusal | None]:
        return deliver(envelopes, self.url, self.config, sending)


@dataclass
class MemoryOutbox:
    """An outbox that keeps what it is given (in :attr:`sent`), refusing only the
    addresses of :attr:`refusing`."""

    sent: list[Envelope] = field(default_factory=list)
    """Each message taken, with its address, in order."""
    refusing: dict[str, Refusal] = field(default_factory=dict)
    """What the server would say to an address it refuses."""

    def send(self, envelopes: list[Envelope],
             sending: Callable[[], None] | None = None) -> list[Refusal | None]:
        if sending is not None:
            sending()
        said: list[Refusal | None] = []
        for message, to in envelopes:
            refused = self.refusing.get(to)
            if refused is None:
                self.sent.append((message, to))
            said.append(refused)
        return said

    def to(self, address: str) -> list[EmailMessage]:
        """The messages taken for ``address``."""
        return [message for message, to in self.sent if to == address]


__all__ = ["Envelope", "MemoryOutbox", "Outbox", "SmtpOutbox"]
