"""Hand signed elements to the stock ``ssh-keygen -Y verify`` and sealed setups to ``age -d``."""

from __future__ import annotations

import base64
import shlex
from pathlib import Path

from frogpbem import crypto
from frogpbem.errors import FileAccessError
from frogpbem.frozen import frozen
from frogpbem.gamefile.document import read_game
from frogpbem.gamefile.model import Element, GameFile


def _elements(file: GameFile) -> list[tuple[str, str, Element]]:
    """(file stem, principal, element) for every signed element."""
    items: list[tuple[str, str, Element]] = [("header", "referee", file.header)]
    if file.deal is not None:
        items.append(("deal", "referee", file.deal))
        items += [(f"deal-join-{j.seat}", j.seat, j) for j in file.deal.joins]
    items += [(f"join-{j.seat}", j.seat, j) for j in file.joins]
    for record in file.log:
        items.append((f"record-{record.n}", "referee", record))
        request = record.request_element(file.game)
        if request is not None:
            items.append((f"record-{record.n}-request", record.seat, request))
    items += [(f"pending-{i + 1}", r.seat, r) for i, r in enumerate(file.requests)]
    items += [(f"note-{i + 1}", n.seat, n) for i, n in enumerate(file.notes)]
    if file.reveal is not None:
        items.append(("reveal", "referee", file.reveal))
    return items


@frozen
class Exported:
    """One exported element: its files, its signer, and the stock command that checks it."""

    element: str
    message: str
    signature: str
    signer: str
    command: str

    def to_json(self) -> dict[str, str]:
        return {"element": self.element, "message": self.message, "signature": self.signature,
                "signer": self.signer, "command": self.command}


def export_signatures(game_path: Path, folder: Path) -> list[Exported]:
    """Write NAME.msg (signed bytes), NAME.sig (armoured) per element, and allowed_signers.

    Each seat's sealed setup is written as ``sealed-SEAT.age`` for the stock
    ``age -d``. ``folder`` must not exist yet, or be empty: nothing is overwritten.
    """
    file = read_game(game_path)
    try:
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise FileAccessError("exists and is not an empty folder; not overwriting it",
                                  path=folder)
        return _write(file, folder)
    except OSError as exc:  # a folder that cannot be made, a full disk
        raise FileAccessError(f"cannot write: {exc.strerror}", path=folder) from None


def _write(file: GameFile, folder: Path) -> list[Exported]:
    """Write the export of ``file`` into ``folder``; raises ``OSError``."""
    folder.mkdir(parents=True, exist_ok=True)
    header = file.header
    signers = [f'referee namespaces="frogpbem" {header.referee.key}']
    signers += [f'{p.seat} namespaces="frogpbem" {p.key}' for p in header.seats]
    allowed = folder / "allowed_signers"
    allowed.write_text("\n".join(signers) + "\n", encoding="utf-8")
    written = []
    for stem, principal, element in _elements(file):
        message = folder / f"{stem}.msg"
        signature = folder / f"{stem}.sig"
        message.write_bytes(element.signed_bytes)
        signature.write_text(crypto.armor(base64.b64decode(element.signature)))
        command = (
            f"ssh-keygen -Y verify -f {shlex.quote(str(allowed))} -I {principal} -n frogpbem "
            f"-s {shlex.quote(str(signature))} < {shlex.quote(str(message))}"
        )
        written.append(Exported(stem, str(message), str(signature), principal, command))
    for seat, armored in file.dealing.sealed.items():
        sealed = folder / f"sealed-{seat}.age"
        sealed.write_text(armored)
        command = f"age -d -i YOUR_KEY {shlex.quote(str(sealed))}"
        written.append(Exported(f"sealed-{seat}", str(sealed), "", seat, command))
    return written
