"""Fork proofs: two elements the referee signed for one place of one game.

A referee signs exactly one header per game id and exactly one element
(deal, record or reveal) after each element of the history. Two different,
validly signed headers with one ``game``, or two different validly signed
elements with one ``prev``, prove that the referee showed two histories.

A proof is a small text file that checks with ``ssh-keygen -Y verify`` alone:
every line is ``FIELD VALUE``; ``sed -n 's/^first_message //p' | base64 -d``
gives the first signed message, ``sed -n 's/^first_signature //p'`` its
``.sig`` file, ``sed -n 's/^allowed_signers //p'`` the allowed-signers line.
"""

from __future__ import annotations

import base64
from typing import Any

from frogpbem import crypto
from frogpbem.errors import ForkError, GameFileError, SignatureError
from frogpbem.frozen import frozen
from frogpbem.gamefile import jsontext
from frogpbem.gamefile.model import Element, GameFile, Record

MAGIC = "frogpbem-fork-proof 1"
CHAINED = ("deal", "record", "reveal")
"""Kinds that name the element they follow in ``prev``."""


def conflict(a: GameFile, b: GameFile) -> tuple[Element, Element] | None:
    """The first place where two checked copies of one game hold different referee elements."""
    if a.game != b.game or not a.header.referee.public_key.same_key(
            b.header.referee.public_key):
        return None
    if a.header.hash != b.header.hash:
        return a.header, b.header
    for x, y in zip(a.history, b.history, strict=False):
        if x.hash != y.hash:
            return (x, y) if x.prev == y.prev else None
    return None


def where(element: Element) -> str:
    """Where an element stands, in words (``record 12``)."""
    if isinstance(element, Record):
        return f"record {element.n}"
    return element.KIND


@frozen
class ForkProof:
    """Two conflicting elements signed by one referee key, as checked."""

    game: str
    position: str
    """Where the histories part (``header``, ``record 12``, ``reveal``)."""
    referee: crypto.PublicKey
    messages: tuple[bytes, bytes]
    """What each signature covers: ``frogpbem/1 KIND\\n`` + canonical JSON."""
    signatures: tuple[str, str]
    """Each message's signature (base64 SSHSIG)."""

    @classmethod
    def of(cls, game: str, referee: crypto.PublicKey, first: Element,
           second: Element) -> ForkProof:
        position = " / ".join(sorted({where(first), where(second)}))
        return cls(game, position, referee, (first.signed_bytes, second.signed_bytes),
                   (first.signature, second.signature))

    def text(self) -> str:
        """The proof file: ``FIELD VALUE`` lines; a long value continues on lines of its field."""
        blob = self.referee.line.split()
        lines = [
            MAGIC,
            "# The referee of this game signed two different elements for one place of",
            "# its history. Check it: frogpbem verify --proof THIS_FILE, or with",
            "# ssh-keygen alone (F is this file, N is first or second):",
            "#   sed -n 's/^allowed_signers //p' F > allowed_signers",
            "#   sed -n 's/^N_message //p' F | base64 -d > N.msg",
            "#   sed -n 's/^N_signature //p' F > N.sig",
            "#   ssh-keygen -Y verify -f allowed_signers -I referee -n frogpbem \\",
            "#       -s N.sig < N.msg",
            "# then read first.msg and second.msg: two headers of one game, or two",
            "# elements with one \"prev\".",
            f"game {self.game}",
            f"position {self.position}",
            f"referee {blob[0]}",
            *(f"referee {blob[1][i:i + 60]}" for i in range(0, len(blob[1]), 60)),
        ]
        allowed = f'referee namespaces="frogpbem" {blob[0]} {blob[1]}'
        lines.append(f"allowed_signers {allowed}")
        return "\n".join(lines + pair_lines(self.messages, self.signatures)) + "\n"

    @classmethod
    def parse(cls, text: str) -> ForkProof:
        """Read a proof file and check it; raises :class:`GameFileError` or ``ForkError``.

        Returns the proof only when both signatures verify under its referee key
        and the two messages really conflict.
        """
        fields = read_fields(text, MAGIC, "a fork proof")
        try:
            game = fields["game"][0]
            position = fields["position"][0]
            referee = read_key(fields["referee"])
            messages, signatures = read_pair(fields)
        except (KeyError, IndexError, ValueError):
            raise GameFileError("a fork proof needs game, position, referee, and two "
                                "messages with their signatures") from None
        proof = cls(game, position, referee, messages, signatures)
        proof.check()
        return proof

    def check(self) -> None:
        """Both signatures by the referee key; two different messages for one place."""
        bodies = checked_bodies(self.referee, "referee", self.messages, self.signatures,
                                crypto.KINDS)
        (kind_a, a), (kind_b, b) = bodies
        if a == b and kind_a == kind_b:
            raise ForkError("the two messages are the same element: no fork")
        if kind_a == kind_b == "header":
            if a.get("game") != b.get("game") or a.get("game") != self.game:
                raise ForkError("the two headers are for different games: no fork")
        elif kind_a in CHAINED and kind_b in CHAINED:
            if a.get("prev") != b.get("prev"):
                raise ForkError("the two elements follow different elements: no fork")
            places = {f"record {x.get('n')}" if kind == "record" else kind
                      for kind, x in bodies}
            if self.position not in (" / ".join(sorted(places)), *places):
                raise ForkError(f"the proof says {self.position!r}, but its messages are "
                                f"{' and '.join(sorted(places))}")
        else:
            raise ForkError(f"a {kind_a} and a {kind_b} prove nothing together")


Pair = tuple[tuple[bytes, bytes], tuple[str, str]]
"""Two signed messages and their signatures (base64 SSHSIG), first then second."""


def pair_lines(messages: tuple[bytes, bytes], signatures: tuple[str, str]) -> list[str]:
    """The ``first_message``/``first_signature``/``second_…`` lines of a proof file: the
    messages in base64 and the signatures armoured, 60 characters a line at most."""
    lines: list[str] = []
    for name, message, signature in zip(("first", "second"), messages, signatures,
                                        strict=True):
        encoded = base64.b64encode(message).decode()
        lines += [f"{name}_message {encoded[i:i + 60]}" for i in range(0, len(encoded), 60)]
        armored = crypto.armor(crypto.b64decode_strict(signature)).splitlines()
        lines += [f"{name}_signature {line}" for line in armored]
    return lines


def read_fields(text: str, magic: str, what: str) -> dict[str, list[str]]:
    """A proof file's ``FIELD VALUE`` lines, each field's values in order; GameFileError
    unless its first line is ``magic``."""
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != magic:
        raise GameFileError(f"not {what} (its first line is not {magic!r})")
    fields: dict[str, list[str]] = {}
    for line in lines[1:]:
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition(" ")
            fields.setdefault(name, []).append(value.strip())
    return fields


def read_key(values: list[str]) -> crypto.PublicKey:
    """A key written as its kind, then its base64 blob over one or more lines."""
    kind, *parts = values
    return crypto.PublicKey.parse(f"{kind} {''.join(parts)}")


def read_pair(fields: dict[str, list[str]]) -> Pair:
    """The two messages and signatures of :func:`pair_lines`, read back (KeyError,
    ValueError where one is missing or malformed)."""
    first, second = (base64.b64decode("".join(fields[f"{n}_message"]), validate=True)
                     for n in ("first", "second"))
    one, two = (_dearmor(fields[f"{n}_signature"]) for n in ("first", "second"))
    return (first, second), (one, two)


def checked_bodies(key: crypto.PublicKey, signer: str, messages: tuple[bytes, bytes],
                   signatures: tuple[str, str], kinds: tuple[str, ...]
                   ) -> list[tuple[str, dict[str, Any]]]:
    """Each message's kind and JSON body, once its signature verifies under ``key`` (the
    ``signer``'s, named in the error) and its kind is one of ``kinds``."""
    bodies = []
    for name, message, signature in zip(("first", "second"), messages, signatures,
                                        strict=True):
        try:
            crypto.verify_message(key, message, signature)
        except SignatureError as exc:
            raise SignatureError(f"the {name} signature does not verify under the "
                                 f"{signer} key: {exc.message}") from None
        bodies.append(_body(message, kinds))
    return bodies


def _dearmor(lines: list[str]) -> str:
    if not lines or lines[0] != "-----BEGIN SSH SIGNATURE-----" or \
            lines[-1] != "-----END SSH SIGNATURE-----":
        raise ValueError("not an armoured SSH signature")
    return "".join(lines[1:-1])


def _body(message: bytes, kinds: tuple[str, ...] = crypto.KINDS) -> tuple[str, dict[str, Any]]:
    """A signed message's kind (one of ``kinds``) and JSON body."""
    head, _, body = message.partition(b"\n")
    prefix = crypto.PREFIX.encode()
    kind = head[len(prefix):].decode("ascii", "replace") if head.startswith(prefix) else ""
    if kind not in kinds:
        raise GameFileError("a signed message of the proof has no frogpbem kind"
                            if kinds == crypto.KINDS else
                            "a signed message of the proof is no header or message of a "
                            "game without a referee")
    try:
        value = jsontext.loads(body)
    except ValueError:
        raise GameFileError("a signed message of the proof is not JSON") from None
    if not isinstance(value, dict) or crypto.canonical_json(value) != body:
        raise GameFileError("a signed message of the proof is not canonical JSON")
    return kind, value
