"""A real Mosquitto for the remote-play tests: on 127.0.0.1 on a free port, in a folder of its own.

``Mosquitto`` writes its configuration (persistence, passwords and ACLs as asked), starts the
broker and waits until it accepts connections; ``kill`` (SIGKILL), ``stop`` (SIGTERM) and
``restart`` keep the port, so clients reconnect to the same address.  ``Cable`` is a TCP
proxy in front of it that can be cut: the broker out of reach without restarting it.
"""

from __future__ import annotations

import getpass
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import NamedTuple

START_TIMEOUT_S = 10.0


def find_mosquitto() -> str | None:
    return shutil.which("mosquitto") or next((path for path in ("/usr/sbin/mosquitto",) if Path(path).exists()),
                                             None)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


class Mosquitto:
    """One broker process, started again on the same port after a kill."""

    def __init__(self, folder: Path, *, persistence: bool = False, password_file: Path | None = None,
                 acl_file: Path | None = None, tls: tuple[Path, Path] | None = None,
                 client_ca: Path | None = None, more: tuple[str, ...] = ()) -> None:
        """``tls``: the server's certificate and key files, for a TLS listener only; ``client_ca``: with it,
        the listener asks each client for a certificate this authority signed; ``more``: other lines of
        configuration (``max_queued_messages 100``)."""
        self.binary = find_mosquitto()
        if self.binary is None:
            raise FileNotFoundError("mosquitto is not installed: apt-get install mosquitto")
        self.folder = folder
        self.port = free_port()
        # Mosquitto started by root would run as the user "mosquitto", who cannot read the test's folder.
        lines = [f"user {getpass.getuser()}", f"listener {self.port} 127.0.0.1",
                 f"allow_anonymous {'false' if password_file else 'true'}",
                 f"log_dest file {folder / 'mosquitto.log'}", "log_type error", "log_type warning",
                 "log_type notice"]
        if persistence:
            lines += ["persistence true", f"persistence_location {folder}/", "autosave_interval 1"]
        if password_file:
            lines.append(f"password_file {password_file}")
        if acl_file:
            lines.append(f"acl_file {acl_file}")
        if tls:
            lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
        if client_ca:
            lines += [f"cafile {client_ca}", "require_certificate true"]
        lines += more
        self.config = folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.process: subprocess.Popen | None = None

    def start(self) -> Mosquitto:
        self.process = subprocess.Popen([self.binary, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + START_TIMEOUT_S
        while not accepts(self.port):
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto ended with code {self.process.returncode}: "
                                   f"{self.process.stderr.read()}{self.log()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"mosquitto did not open port {self.port}: {self.log()}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        self._end(signal.SIGKILL)

    def restart(self) -> None:
        self.stop()
        self.start()

    def _end(self, how: signal.Signals) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(how)
            self.process.wait(timeout=10)
        if self.process is not None:
            self.process.stderr.close()

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def cpu_seconds(self) -> float:
        """The broker's user and system CPU time so far (Linux)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _clock_ticks()


def _clock_ticks() -> int:
    import os
    return os.sysconf("SC_CLK_TCK")


class Cable:
    """A TCP proxy on 127.0.0.1 to the broker's port: ``cut`` drops every connection and refuses new ones
    until ``mend``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._cut = False
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            with self._lock:
                if self._cut:
                    client.close()
                    continue
                try:
                    upstream = socket.create_connection(("127.0.0.1", self.target_port))
                except OSError:
                    client.close()
                    continue
                self._open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            for end in self._open:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()
            self._open.clear()

    def mend(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._server.close()


def passwords(folder: Path, users: dict[str, str]) -> Path:
    """A Mosquitto password file for ``users`` (name -> password), made by mosquitto_passwd itself."""
    path = folder / "passwords"
    path.touch()
    tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    for user, password in users.items():
        subprocess.run([tool, "-b", str(path), user, password], check=True, capture_output=True)
    return path


class Certificates(NamedTuple):
    """A certificate authority, and a broker's and a board's certificates it signed, with their keys."""

    ca: Path
    server: Path
    server_key: Path
    client: Path
    client_key: Path


def certificates(folder: Path) -> Certificates:
    """A certificate authority, a server certificate for 127.0.0.1 and a client certificate for alice, both
    signed by it, made by openssl in ``folder`` (elliptic-curve keys: quick to make)."""
    ca, ca_key = folder / "ca.crt", folder / "ca.key"
    made = Certificates(ca, folder / "server.crt", folder / "server.key", folder / "alice.crt", folder / "alice.key")
    new_key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    commands = [["req", "-x509", *new_key, "-days", "2", "-subj", "/CN=gameboard test CA", "-keyout", ca_key,
                 "-out", ca]]
    for certificate, key, subject, extension in ((made.server, made.server_key, "/CN=127.0.0.1",
                                                  "subjectAltName = IP:127.0.0.1"),
                                                 (made.client, made.client_key, "/CN=alice",
                                                  "extendedKeyUsage = clientAuth")):
        request, extensions = certificate.with_suffix(".csr"), certificate.with_suffix(".ext")
        extensions.write_text(extension + "\n", encoding="utf-8")
        commands += [["req", *new_key, "-subj", subject, "-keyout", key, "-out", request],
                     ["x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-days", "2",
                      "-extfile", extensions, "-out", certificate]]
    for command in commands:
        subprocess.run(["openssl", *map(str, command)], check=True, capture_output=True)
    return made
