"""Names and email addresses of the people in a game, checked before they are signed.

Both end up in mail headers (``To: Bob <bob@example.org>``) and on players'
screens, so a CR LF or a second address in one of them would add a header or
a recipient: an address must be one plain addr-spec, and a name free text on
one line. :mod:`email.headerregistry` does the parsing, as it later builds the
headers.
"""

from __future__ import annotations

from email.headerregistry import Address

from frogpbem.errors import UsageError
from frogpbem.safetext import is_safe

MAX_NAME = 100
"""The longest name, in characters: it is shown in every view and mail subject."""


def one_address(name: str, addr_spec: str) -> Address | None:
    """``name <addr_spec>`` as the email package builds it, or ``None`` when it cannot:
    its parser raises ``ValueError``, ``IndexError``, ``HeaderParseError`` or
    ``AttributeError`` as the text leads it (``bob@``, ``<"@b>``, ``a@[``), and an address
    from anyone must never stop a command."""
    try:
        return Address(display_name=name, addr_spec=addr_spec)
    except Exception:  # noqa: BLE001 - whatever the email package's parser raises
        return None


def header_addresses(name: str, text: str) -> tuple[Address, ...] | None:
    """The addresses of a header ``name: text``, as the email package reads them; ``None``
    when it cannot read them (or finds defects)."""
    from email.headerregistry import HeaderRegistry

    try:
        header = HeaderRegistry()(name, text)
        found = tuple(getattr(header, "addresses", ()))
    except Exception:  # noqa: BLE001 - whatever the email package's parser raises
        return None
    return None if header.defects else found
MAX_ADDRESS = 254
"""The longest address that SMTP carries (RFC 5321, 4.5.3.1.3)."""


def check_address(text: str, what: str) -> str:
    """``text`` if it is exactly one address ``user@domain`` in ASCII, with nothing around it
    (no name, comment, second address or line break); raises :class:`UsageError` naming
    ``what`` (``--email red``)."""
    address = one_address("", text)
    plain = address is not None and address.addr_spec == text and \
        bool(address.username and address.domain)
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
