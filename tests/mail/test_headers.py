"""Message identifiers in the headers frogpbem writes read back as they were written,
however long (RFC 5322 3.6.4: no encoded words; lines of 998 characters at most)."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage

from hypothesis import example, given, settings
from hypothesis import strategies as st

from frogpbem.mail.headers import stamp

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
