"""Fork proofs of a game without a referee: two different elements of one place of one
game (two headers, or two messages of one number after one ``prev``), both signed by one
seat's key.

The proof is a small text file like the referee's (:mod:`frogpbem.gamefile.forkproof`),
which ``ssh-keygen -Y verify`` alone checks: ``FIELD VALUE`` lines; ``sed -n
's/^first_message //p' | base64 -d`` gives the first signed message, ``sed -n
's/^first_signature //p'`` its ``.sig`` file, ``sed -n 's/^allowed_signers //p'`` the
allowed-signers line naming the seat.
"""

from __future__ import annotations

from frogpbem import crypto
from frogpbem.errors import ForkError, GameFileError
from frogpbem.frozen import frozen
from frogpbem.gamefile.duelfile import Message
from frogpbem.gamefile.forkproof import (
    checked_bodies,
    pair_lines,
    read_fields,
    read_key,
    read_pair,
)
from frogpbem.gamefile.model import Element

MAGIC = "frogpbem-duel-fork-proof 1"


@frozen
class DuelForkProof:
    """Two different elements of one place of one game, both signed by one seat's key."""

    game: str
    position: str
    """``header`` or ``message N``."""
    seat: str
    key: crypto.PublicKey
    messages: tuple[bytes, bytes]
    """What each signature covers: ``frogpbem/1 KIND\\n`` + canonical JSON."""
    signatures: tuple[str, str]

    @classmethod
    def of(cls, game: str, seat: str, key: crypto.PublicKey, first: Element,
           second: Element) -> DuelForkProof:
        position = f"message {first.n}" if isinstance(first, Message) else "header"
        return cls(game, position, seat, key, (first.signed_bytes, second.signed_bytes),
                   (first.signature, second.signature))

    def text(self) -> str:
        """The proof file: ``FIELD VALUE`` lines, as the refereed fork proof's."""
        kind, blob = self.key.line.split()[:2]
        lines = [
            MAGIC,
            f"# A seat of this game without a referee signed two different {self.position}s.",
            "# Check it: frogpbem verify --proof THIS_FILE, or with ssh-keygen alone",
            "# (F is this file, N is first or second):",
            "#   sed -n 's/^allowed_signers //p' F > allowed_signers",
            "#   sed -n 's/^N_message //p' F | base64 -d > N.msg",
            "#   sed -n 's/^N_signature //p' F > N.sig",
            f"#   ssh-keygen -Y verify -f allowed_signers -I {self.seat} -n frogpbem \\",
            "#       -s N.sig < N.msg",
            "# then read first.msg and second.msg: one game, one n, one prev, two contents.",
            f"game {self.game}", f"position {self.position}", f"seat {self.seat}",
            f"key {kind}", *(f"key {blob[i:i + 60]}" for i in range(0, len(blob), 60)),
            f'allowed_signers {self.seat} namespaces="frogpbem" {kind} {blob}',
        ]
        return "\n".join(lines + pair_lines(self.messages, self.signatures)) + "\n"

    @classmethod
    def parse(cls, text: str) -> DuelForkProof:
        """Read a proof and check it (:meth:`check`); raises a :class:`FrogPbemError`."""
        fields = read_fields(text, MAGIC, "a fork proof of a game without a referee")
        try:
            messages, signatures = read_pair(fields)
            proof = cls(fields["game"][0], fields["position"][0], fields["seat"][0],
                        read_key(fields["key"]), messages, signatures)
        except (KeyError, IndexError, ValueError):
            raise GameFileError("a fork proof needs game, position, seat, key, and two "
                                "messages with their signatures") from None
        proof.check()
        return proof

    def check(self) -> None:
        """Both signatures by the key; two different elements of one place of the game."""
        bodies = checked_bodies(self.key, "seat's", self.messages, self.signatures,
                                ("duel", "message"))
        (kind_a, a), (kind_b, b) = bodies
        if a == b and kind_a == kind_b:
            raise ForkError("the two messages are the same element: no fork")
        if kind_a == kind_b == "duel":
            place = "header"
        elif kind_a == kind_b == "message" and a.get("n") == b.get("n") and \
                a.get("prev") == b.get("prev") and a.get("seat") == b.get("seat") == self.seat:
            place = f"message {a.get('n')}"
        else:
            raise ForkError("the two elements are not of one place of one seat: no fork")
        if a.get("game", self.game) != self.game or b.get("game", self.game) != self.game:
            raise ForkError("the two headers are for another game: no fork")
        if place != self.position:
            raise ForkError(f"the proof says {self.position!r}, but its messages are the "
                            f"{place}")


def is_duel_proof(text: str) -> bool:
    return text.startswith(MAGIC)


__all__ = ["MAGIC", "DuelForkProof", "is_duel_proof"]
