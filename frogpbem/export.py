"""Hand signed elements to the stock ``ssh-keygen -Y verify``, and prove forks."""

from __future__ import annotations

import base64
import shlex
from pathlib import Path
from typing import Any

from frogpbem import crypto
from frogpbem.gamefile import chain
from frogpbem.gamefile.document import read_game


def _elements(doc: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(file stem, principal, kind, element) for every signed element."""
    header = doc["header"]
    items: list[tuple[str, str, str, dict[str, Any]]] = [("header", "referee", "header", header)]
    deal = doc.get("deal")
    if deal is not None:
        items.append(("deal", "referee", "deal", deal))
        items += [(f"deal-join-{j['seat']}", j["seat"], "join", j) for j in deal["joins"]]
    items += [(f"join-{j['seat']}", j["seat"], "join", j) for j in doc.get("joins", [])]
    for record in doc["log"]:
        items.append((f"record-{record['n']}", "referee", "record", record))
        if "request" in record:
            element = chain.request_element(
                header["game"], record["n"], record["prev"], record["seat"], record["move"],
                chain.sealed_parts(record),
            )
            element["signature"] = record["request"]
            items.append((f"record-{record['n']}-request", record["seat"], "request", element))
    for index, request in enumerate(doc["requests"]):
        items.append((f"pending-{index + 1}", request["seat"], "request", request))
    if doc["reveal"] is not None:
        items.append(("reveal", "referee", "reveal", doc["reveal"]))
    return items


def export_signatures(game_path: Path, folder: Path) -> list[dict[str, str]]:
    """Write NAME.msg (signed bytes), NAME.sig (armoured) per element, and allowed_signers.

    Each seat's sealed setup is written as ``sealed-SEAT.age`` for the stock ``age -d``.
    """
    doc = read_game(game_path)
    folder.mkdir(parents=True, exist_ok=True)
    header = doc["header"]
    signers = [f'referee namespaces="frogpbem" {header["referee"]["key"]}']
    signers += [f'{s["seat"]} namespaces="frogpbem" {s["key"]}' for s in header["seats"]]
    allowed = folder / "allowed_signers"
    allowed.write_text("\n".join(signers) + "\n", encoding="utf-8")
    written = []
    for stem, principal, kind, element in _elements(doc):
        message = folder / f"{stem}.msg"
        signature = folder / f"{stem}.sig"
        message.write_bytes(crypto.signed_bytes(kind, element))
        signature.write_text(crypto.armor(base64.b64decode(element["signature"])))
        command = (
            f"ssh-keygen -Y verify -f {shlex.quote(str(allowed))} -I {principal} -n frogpbem "
            f"-s {shlex.quote(str(signature))} < {shlex.quote(str(message))}"
        )
        written.append({"element": stem, "message": str(message), "signature": str(signature),
                        "signer": principal, "command": command})
    for seat, armored in chain.setup_of(doc)["sealed"].items():
        sealed = folder / f"sealed-{seat}.age"
        sealed.write_text(armored)
        command = f"age -d -i YOUR_KEY {shlex.quote(str(sealed))}"
        written.append({"element": f"sealed-{seat}", "message": str(sealed), "signature": "",
                        "signer": seat, "command": command})
    return written


def fork_report(path_a: Path, path_b: Path) -> str | None:
    """Words proving that the referee signed two histories, or ``None``."""
    proof = chain.fork_proof(read_game(path_a), read_game(path_b))
    if proof is None:
        return None
    rec_a, rec_b = proof
    return (
        f"FORK: record {rec_a['n']} of game {read_game(path_a)['header']['game']} is signed by "
        f"the referee twice with different content:\n  {path_a}: {rec_a['seat']} "
        f"{rec_a['move']} {rec_a['result']}\n  {path_b}: {rec_b['seat']} {rec_b['move']} "
        f"{rec_b['result']}\nboth signatures verify: the referee showed different histories"
    )
