"""Message identifiers in the headers frogpbem writes read back as they were written,
however long (RFC 5322 3.6.4: no encoded words; lines of 998 characters at most)."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from frogpbem.mail.headers import stamp
from frogpbem.mail.reply import MESSAGE_ID

ATEXT = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+_-=",
                min_size=1, max_size=120)
IDS = st.builds(lambda left, right: f"<{left}@{right}.example>", ATEXT, ATEXT)


GMAIL = "<CAH" + "x" * 90 + "@mail.gmail.com>"  # as long as Gmail's often are


@settings(max_examples=40, deadline=None)
@given(st.lists(IDS, min_size=1, max_size=12))
@example([GMAIL])
@example([GMAIL.replace("H", f"{i}") for i in range(12)])
def test_identifiers_are_never_encoded_words(ids: list[str]) -> None:
    message = EmailMessage()
    message["Subject"] = "[frogpbem ff-1] a move"
    message["In-Reply-To"] = ids[-1]
    message["References"] = " ".join(ids)
    message.set_content("a move")
    stamp(message, "example.org", "auto-generated")
    raw = message.as_bytes()
    head = raw.split(b"\n\n", 1)[0]
    assert b"=?" not in head
    assert all(len(line) <= 998 for line in raw.splitlines())
    back = email.message_from_bytes(raw, policy=email.policy.default)
    assert str(back["In-Reply-To"]) == ids[-1]
    assert str(back["References"]).split() == ids


@pytest.mark.parametrize("ident", [
    "<a@b>", "<179622855191.27982.1676@example.org>", "<CAH+x=y_z@mail.gmail.com>",
    "<x@[127.0.0.1]>", "<a.b.c@d.e>", "<" + "a" * 250 + "@" + "b" * 250 + ">"])
def test_a_message_id_as_rfc_5322_writes_it_is_kept(ident: str) -> None:
    assert MESSAGE_ID.fullmatch(ident)


@pytest.mark.parametrize("ident", [
    "<a(b@c>", "<x@y@z>", "<a,b:c;d@e>", "<.a@b>", "<a..b@c>", "<a.@b>", "<a b@c>",
    "<@b>", "<a@>", "a@b", "<" + "a" * 251 + "@b>", "<a@" + "b" * 251 + ">", "<a@b>\n"])
def test_anything_else_is_not_threaded_by(ident: str) -> None:
    """A ``(`` starts a comment and a ``,`` or a second ``@`` splits the identifier for a
    mail program: such an id is never repeated in In-Reply-To or References."""
    assert not MESSAGE_ID.fullmatch(ident)
