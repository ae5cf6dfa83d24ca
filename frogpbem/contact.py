"""Names and email addresses of the people in a game, checked before they are signed.

Both end up in mail headers (``To: Bob <bob@example.org>``) and on players'
screens, so a CR LF or a second address in one of them would add a header or
a recipient: an address must be one plain addr-spec, and a name free text on
one line. :mod:`email.headerregistry` does the parsing, as it later builds the
headers.
"""

from __future__ import annotations

from email.errors import HeaderParseError
from email.headerregistry import Address

from frogpbem.errors import UsageError
from frogpbem.safetext import is_safe

MAX_NAME = 100
"""The longest name, in characters: it is shown in every view and mail subject."""
MAX_ADDRESS = 254
"""The longest address that SMTP carries (RFC 5321, 4.5.3.1.3)."""


def check_address(text: str, what: str) -> str:
    """``text`` if it is exactly one address ``user@domain`` in ASCII, with nothing around it
    (no name, comment, second address or line break); raises :class:`UsageError` naming
    ``what`` (``--email red``)."""
    try:
        address = Address(addr_spec=text)
        plain = address.addr_spec == text and bool(address.username and address.domain)
    except (ValueError, IndexError, HeaderParseError):  # IndexError: 'bob@', in Python 3.11
        plain = False
    if not plain or not text.isascii() or len(text) > MAX_ADDRESS:
        raise UsageError(f"{what}: {text!r} is not one email address written like "
                         "bob@example.org (no name, no second address, no line break)")
    return text


def check_name(text: str, what: str) -> str:
    """``text`` if it is a name on one line: not empty, at most :data:`MAX_NAME` characters,
    no control characters, line separators or bidi overrides; raises :class:`UsageError`."""
    if not text.strip():
        raise UsageError(f"{what}: a name cannot be empty")
    if len(text) > MAX_NAME:
        raise UsageError(f"{what}: a name has at most {MAX_NAME} characters, not {len(text)}")
    if not is_safe(text):
        raise UsageError(f"{what}: {text!r} holds control, line-break or direction characters: a "
                         "name is one line of text")
    return text


__all__ = ["MAX_ADDRESS", "MAX_NAME", "check_address", "check_name"]
