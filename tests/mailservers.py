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
    return f"""protocols = imap
listen = 127.0.0.1
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
    from aiosmtpd.controller import Controller

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
    imap_port, smtp_port = free_port(), free_port()
    (folder / "dovecot.conf").write_text(dovecot_config(folder, imap_port))
    process = subprocess.Popen(["dovecot", "-F", "-c", str(folder / "dovecot.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    class Deliver:
        """Deliver into the recipient's Maildir, as an MTA's local delivery would."""

        count = 0

        async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                              options: list[str]) -> str:
            if address.split("@")[0] not in users:  # as an MTA refuses a mistyped address
                return "550 5.1.1 no such user"
            envelope.rcpt_tos.append(address)
            return "250 OK"

        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            for rcpt in envelope.rcpt_tos:
                user = rcpt.split("@")[0]
                if user not in users:
                    return "550 no such user"
                Deliver.count += 1
                running.delivered.append(rcpt)
                name = f"{time.time_ns()}.{Deliver.count}.frogpbem-test"
                tmp = folder / "mail" / user / "tmp" / name
                tmp.write_bytes(envelope.original_content or envelope.content)
                os.chown(tmp, dovecot.pw_uid, dovecot.pw_gid)
                os.replace(tmp, folder / "mail" / user / "new" / name)
            return "250 delivered"

    running = Servers(folder, imap_port, smtp_port)
    controller = Controller(Deliver(), hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", imap_port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            log = (folder / "dovecot.log").read_text() if (folder / "dovecot.log").exists() else ""
            raise RuntimeError(f"dovecot did not start: {log}")
        yield running
    finally:
        controller.stop()
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
