"""Real mail servers for tests and benches: a throwaway Dovecot (IMAP) and an aiosmtpd
SMTP server delivering into its users' Maildirs, both on loopback.

Dovecot runs from a configuration in a temporary folder (its login and mail
processes as ``dovenull`` and ``dovecot``, users in a passwd file, plaintext login
on loopback). :func:`mail_servers` takes the users to make (:data:`USERS` unless
told), so a test or a bench can have as many players as it needs.
"""

from __future__ import annotations

import contextlib
import imaplib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

USERS = ("judge", "alice", "bob", "red", "blue", "black", "purple")
DOMAIN = "test.invalid"
PASSWORD = "secret"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def started_smtp(handler: Any, **options: Any) -> tuple[Any, int]:
    """aiosmtpd on loopback with ``handler``, started: its controller and port. A port probed
    free may be taken by another test process before it is bound: then a new one is tried."""
    from aiosmtpd.controller import Controller

    for attempt in range(1, 6):
        port = free_port()
        controller = Controller(handler, hostname="127.0.0.1", port=port, **options)
        try:
            controller.start()
            return controller, port
        except OSError:
            if attempt == 5:
                raise
    raise AssertionError("five attempts either returned or raised")


@dataclass
class Servers:
    folder: Path
    imap_port: int
    smtp_port: int
    delivered: list[str] = field(default_factory=list)
    """The recipient of each message the SMTP server delivered, in order."""

    @property
    def smtp(self) -> str:
        return f"smtp://127.0.0.1:{self.smtp_port}"

    def inbox(self, user: str, folder: str = "INBOX") -> list[bytes]:
        """Every message in a user's folder, taken out of it (as a mail client would)."""
        client = imaplib.IMAP4("127.0.0.1", self.imap_port)
        client.login(user, PASSWORD)
        status, _ = client.select(folder)
        if status != "OK":
            client.logout()
            return []
        _, found = client.search(None, "ALL")
        messages = []
        for number in found[0].split():
            _, data = client.fetch(number, "(RFC822)")
            messages.append(bytes(data[0][1]))  # type: ignore[index]
            client.store(number, "+FLAGS", "\\Deleted")
        client.expunge()
        client.logout()
        return messages

    def count(self, user: str, folder: str) -> int:
        client = imaplib.IMAP4("127.0.0.1", self.imap_port)
        client.login(user, PASSWORD)
        status, data = client.select(folder, readonly=True)
        client.logout()
        return int(data[0]) if status == "OK" and data[0] else 0


def dovecot_config(folder: Path, port: int) -> str:
    # the greeting names the folder: the start-up check knows it reached this Dovecot, not
    # one another test process started on the same port
    return f"""protocols = imap
listen = 127.0.0.1
login_greeting = frogpbem-test {folder.name}
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = dovenull
default_internal_user = dovecot
first_valid_uid = 1
mail_uid = dovecot
mail_gid = dovecot
mail_location = maildir:{folder}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/passwd
}}
userdb {{
  driver = static
  args = uid=dovecot gid=dovecot home={folder}/mail/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
"""


@contextlib.contextmanager
def mail_servers(users: Sequence[str] = USERS) -> Iterator[Servers]:
    """Dovecot and an SMTP server delivering into it, on loopback, for as long as needed:
    a mailbox for each of ``users`` (each at :data:`DOMAIN`, password :data:`PASSWORD`)."""
    # Dovecot's own users must reach the folder: not under pytest's 0700 temporary root
    folder = Path(tempfile.mkdtemp(prefix="frogpbem-mail-"))
    folder.chmod(0o755)
    dovecot = pwd.getpwnam("dovecot")
    for sub in ("run", "state"):
        (folder / sub).mkdir()
    (folder / "passwd").write_text("".join(f"{u}:{{PLAIN}}{PASSWORD}\n" for u in users))
    for user in users:
        for sub in ("new", "cur", "tmp"):
            (folder / "mail" / user / sub).mkdir(parents=True)
    for path in [folder / "mail", *(folder / "mail").rglob("*")]:
        os.chown(path, dovecot.pw_uid, dovecot.pw_gid)
    delivered: list[str] = []
    try:
        (imap, imap_port, smtp_port), smtp = start_servers(
            folder, Deliver(folder, dovecot.pw_uid, dovecot.pw_gid, tuple(users), delivered))
        try:
            yield Servers(folder, imap_port, smtp_port, delivered)
        finally:
            smtp.stop()
            stop(imap)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def start_servers(folder: Path, deliver: Deliver) -> tuple[Any, Any]:
    """Dovecot and aiosmtpd on free ports: ((Dovecot, its port, the SMTP port), aiosmtpd's
    controller). A port probed free may be taken by another test process before it is bound:
    then a new one is tried."""
    for _ in range(5):
        imap_port = free_port()
        process = start_dovecot(folder, imap_port)
        if process is None:
            continue
        try:
            controller, smtp_port = started_smtp(deliver)
        except BaseException:
            stop(process)
            raise
        return (process, imap_port, smtp_port), controller
    log = (folder / "dovecot.log").read_text() if (folder / "dovecot.log").exists() else ""
    raise RuntimeError(f"dovecot did not start: {log}")


def start_dovecot(folder: Path, port: int) -> subprocess.Popen[bytes] | None:
    """Dovecot on ``port``, once it greets as this folder's; None if it could not listen
    there (the port was taken meanwhile)."""
    (folder / "dovecot.conf").write_text(dovecot_config(folder, port))
    process = subprocess.Popen(["dovecot", "-F", "-c", str(folder / "dovecot.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60  # generous: the machine may be busy with other tests
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as probe:
                greeting = b""
                while b"\n" not in greeting and (part := probe.recv(1024)):
                    greeting += part
            if f"frogpbem-test {folder.name}".encode() in greeting:
                return process
        except OSError:
            pass
        time.sleep(0.05)
    stop(process)
    return None


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
    process.wait(timeout=10)


class Deliver:
    """Deliver into the recipient's Maildir, as an MTA's local delivery would; each
    recipient delivered to is added to ``delivered``."""

    count = 0

    def __init__(self, folder: Path, uid: int, gid: int, users: tuple[str, ...],
                 delivered: list[str]) -> None:
        self.folder, self.uid, self.gid = folder, uid, gid
        self.users, self.delivered = users, delivered

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: list[str]) -> str:
        if address.split("@")[0] not in self.users:  # as an MTA refuses a mistyped address
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        for rcpt in envelope.rcpt_tos:
            user = rcpt.split("@")[0]
            if user not in self.users:
                return "550 no such user"
            Deliver.count += 1
            self.delivered.append(rcpt)
            name = f"{time.time_ns()}.{Deliver.count}.frogpbem-test"
            tmp = self.folder / "mail" / user / "tmp" / name
            tmp.write_bytes(envelope.original_content or envelope.content)
            os.chown(tmp, self.uid, self.gid)
            os.replace(tmp, self.folder / "mail" / user / "new" / name)
        return "250 delivered"
