"""``gameboard sim`` and ``watch`` as a person runs them: each a process of its own, its page driven through the
websocket the browser's page uses (the same actions, the same views)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from firmware_host.web.transport import apply

COMMAND = str(Path(sys.executable).with_name("gameboard"))
START_TIMEOUT_S = 30.0


def free_port() -> int:
    """A port free a moment ago, for a command's --port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Command:
    """``gameboard ARGS`` running with ``env``, until ``stop``; ``url`` once it serves its page."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen([COMMAND, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        self.output: list[str] = []
        self.url = ""
        self._served = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        if not self._served.wait(START_TIMEOUT_S):
            self.stop()
            raise AssertionError(f"gameboard {' '.join(args)} served no page: " + "\n".join(self.output))

    def _read(self) -> None:
        for line in self.process.stdout:
            self.output.append(line.rstrip())
            if line.startswith("gameboard: open "):
                self.url = line.split()[-1]
                self._served.set()
        self._served.set()  # ended: nothing more will come

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers (``stop_all`` stops several at once)."""
        stop_all([self])


def stop_all(commands: list[Command]) -> None:
    running = [command.process for command in commands if command.process.poll() is None]
    for process in running:
        process.terminate()
    for process in running:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Page:
    """The page of a ``Command`` (open it with ``with``): the views it is sent, and the actions a click sends."""

    def __init__(self, command: Command) -> None:
        self.command = command
        host = command.url.split("/")[2]
        self._connecting = connect(f"ws://{host}/ws", origin=f"http://{host}", max_size=2**24)
        self.view: dict[str, Any] = {}
        self.errors: list[str] = []

    def __enter__(self) -> Page:
        self._socket: ClientConnection = self._connecting.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._connecting.__exit__(*exc)

    def act(self, **action: Any) -> None:
        self._socket.send(json.dumps(action))

    def wait_for(self, condition: Callable[[dict[str, Any]], bool], what: str, timeout: float = 20.0) -> dict[str, Any]:
        """The first view for which ``condition`` holds (the latest view if it already does)."""
        deadline = time.monotonic() + timeout
        while not (self.view and condition(self.view)):
            left = deadline - time.monotonic()
            assert left > 0 and self.command.process.poll() is None, (
                f"{what}: not after {timeout:g} s; the page says {self.view.get('status')!r}, moves "
                f"{self.view.get('log')}, errors {self.errors}; the command's output:\n"
                + "\n".join(self.command.output))
            try:
                message = json.loads(self._socket.recv(timeout=left))
            except TimeoutError:
                continue
            except ConnectionClosed:
                time.sleep(0.1)  # the command ended: said above
                continue
            if message["type"] in ("view", "change"):
                self.view = apply(self.view or None, message)
            elif message["type"] == "error":
                self.errors.append(message["message"])
        return self.view
