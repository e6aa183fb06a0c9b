"""What the page costs the board's Wi-Fi: bytes per view, per move and per second while lights blink; prints
figures, asserts nothing.

    .venv/bin/python bench/page_traffic.py [--games squareoff hexover ...] [--plies 12] [--blink-seconds 5]

For each game, ``gameboard sim`` is started as a person starts it, and a page's websocket counts the bytes of
every message the server sends it (the JSON text), and, in brackets, the bytes that crossed the connection
(the websocket's frames compressed with permessage-deflate, which the server and browsers agree on):

- per view: the first message, the whole view a page gets when it connects (over the connection: with the
  websocket's opening handshake);
- while blinking: every seat the computer, its first move shown to carry out (its lights blink) and nobody
  carrying it out, over ``--blink-seconds``, with nothing else happening;
- per move: every seat the computer at easy, the simulated hands carrying out its moves (``--auto``), over
  ``--plies`` plies: all that a page is sent meanwhile (lifts, puts, what the status says, any blinking),
  divided by the plies played.

The server's messages are read as ``static/app.js`` reads them (``firmware_host/web/transport.py``).
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from firmware_host.web.transport import apply

COMMAND = str(Path(sys.executable).with_name("gameboard"))
#: The games that seat two or more, and the options they are measured with (Over-Pass with two players).
GAMES: dict[str, list[str]] = {"squareoff": [], "hexover": [], "overpass": ["--option", "players=2"],
                               "pawns-crossing": [], "groups-of-three": [], "mono-line": []}
#: The longest the bench waits for the computer's first move to be shown, or for the plies (seconds).
PATIENCE_S = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Relay:
    """A connection to ``port`` through this relay, which counts the bytes the server sends (``wire``)."""

    def __init__(self, port: int) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.target = port
        self.wire = 0
        threading.Thread(target=self._relay, daemon=True).start()

    def _relay(self) -> None:
        client, _ = self.listener.accept()
        server = socket.create_connection(("127.0.0.1", self.target))
        threading.Thread(target=self._pump, args=(client, server, False), daemon=True).start()
        self._pump(server, client, True)

    def _pump(self, source: socket.socket, sink: socket.socket, counted: bool) -> None:
        try:
            while data := source.recv(65536):
                if counted:
                    self.wire += len(data)
                sink.sendall(data)
        except OSError:
            pass  # the other way closed both
        sink.close()


class Page:
    """A page's websocket to a running simulator: the view as the page holds it, and the bytes it was sent."""

    def __init__(self, socket_: ClientConnection, relay: Relay) -> None:
        self.socket = socket_
        self.relay = relay
        self.view: dict[str, Any] | None = None
        self.sizes: list[int] = []

    def receive(self, timeout: float) -> bool:
        """One message within ``timeout`` seconds, counted and applied; False if none came."""
        try:
            text = self.socket.recv(timeout=timeout)
        except TimeoutError:
            return False
        self.sizes.append(len(text.encode()))
        message = json.loads(text)
        if message["type"] in ("view", "change"):
            self.view = apply(self.view, message)
        return True

    def until(self, condition: Callable[[dict[str, Any]], bool], what: str) -> None:
        deadline = time.monotonic() + PATIENCE_S
        while not (self.view and condition(self.view)):
            if time.monotonic() > deadline:
                raise SystemExit(f"page_traffic: no {what} within {PATIENCE_S:.0f} s; the page says "
                                 f"{self.view and self.view.get('status')!r}")
            self.receive(1.0)

    def listen(self, seconds: float) -> tuple[int, int]:
        """The bytes sent over ``seconds``: of the messages, and over the connection."""
        before, wire = sum(self.sizes), self.relay.wire
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.receive(left)
        return sum(self.sizes) - before, self.relay.wire - wire


def opened(port: int) -> tuple[ClientConnection, Relay]:
    """A page's websocket to the simulator on ``port`` (as its address, which the server checks), through a relay."""
    relay = Relay(port)
    through = socket.create_connection(("127.0.0.1", relay.port))
    return connect(f"ws://127.0.0.1:{port}/ws", sock=through, max_size=2**24), relay


def simulator(game: str, options: list[str], seats: list[str], folder: Path, *auto: str) -> tuple[subprocess.Popen, int]:
    """``gameboard sim`` on a free port, once it says it serves the page."""
    port = free_port()
    process = subprocess.Popen([COMMAND, "sim", game, *options, "--seats", *seats, *auto, "--seed", "1",
                                "--port", str(port), "--journal", str(folder / f"{game}-{len(auto)}.sqlite3")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while (line := process.stdout.readline()) and not line.startswith("gameboard: open"):
        pass
    if not line:
        raise SystemExit(f"page_traffic: gameboard sim {game} did not start: {process.stderr.read()}")
    return process, port


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def measure(game: str, options: list[str], plies: int, blink_seconds: float, folder: Path) -> dict[str, Any]:
    """The figures of one game, each (bytes of the messages, bytes over the connection)."""
    process, port = simulator(game, options, ["computer:easy"] * 2, folder)  # no hands: its first move waits
    try:
        ws, relay = opened(port)
        with ws:
            page = Page(ws, relay)
            page.receive(30.0)
            first = (page.sizes[0], relay.wire)
            page.until(lambda view: "(computer)" in view["status"] and not view["thinking"],
                       "computer's move shown")
            page.listen(1.0)  # the lights settle on the move shown
            blinking = tuple(sent / blink_seconds for sent in page.listen(blink_seconds))
    finally:
        stop(process)
    process, port = simulator(game, options, ["computer:easy"] * 2, folder, "--auto")
    try:
        ws, relay = opened(port)
        with ws:
            page = Page(ws, relay)
            page.receive(30.0)
            start, wire = len(page.sizes), relay.wire
            page.until(lambda view: len(view["log"]) >= plies or view["daemon"]["outcome"] is not None, "plies")
            played = max(len(page.view["log"]), 1)
            per_move = (sum(page.sizes[start:]) / played, (relay.wire - wire) / played)
    finally:
        stop(process)
    return {"view": first, "blinking": blinking, "move": per_move, "plies": played}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--plies", type=int, default=12)
    parser.add_argument("--blink-seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"{'game':16} {'kB per view':>18} {'kB/s blinking':>18} {'kB per move':>18} {'plies':>6}")
    with tempfile.TemporaryDirectory() as folder:
        for game in args.games:
            figures = measure(game, GAMES[game], args.plies, args.blink_seconds, Path(folder))
            print(f"{game:16} " + " ".join(f"{sent / 1000:9.1f} ({wire / 1000:6.1f})" for sent, wire in
                                           (figures["view"], figures["blinking"], figures["move"]))
                  + f" {figures['plies']:6}", flush=True)


if __name__ == "__main__":
    main()
