"""systemd's notify protocol in a few stdlib lines: READY, WATCHDOG, STATUS, STOPPING.

Without ``NOTIFY_SOCKET`` (run by hand, or in tests) every call does nothing.
"""

from __future__ import annotations

import os
import socket


class Notifier:
    """Sends state lines to systemd over its datagram socket (``@name`` is Linux's abstract namespace)."""

    def __init__(self, address: str | None = None) -> None:
        address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")
        self._address = "\0" + address[1:] if address.startswith("@") else address
        self._socket: socket.socket | None = None
        if self._address:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        usec = os.environ.get("WATCHDOG_USEC", "")
        pid = os.environ.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        #: How often the watchdog must be fed (half systemd's timeout), None without a watchdog.
        self.watchdog_interval = int(usec) / 2e6 if usec.isdigit() and mine else None

    def send(self, *lines: str) -> None:
        if self._socket is not None:
            try:
                self._socket.sendto("\n".join(lines).encode(), self._address)
            except OSError:
                pass  # systemd gone (shutdown) or not listening: nothing to tell

    def ready(self, status: str) -> None:
        self.send("READY=1", f"STATUS={status}")

    def watchdog(self) -> None:
        self.send("WATCHDOG=1")

    def status(self, text: str) -> None:
        self.send(f"STATUS={text}")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
