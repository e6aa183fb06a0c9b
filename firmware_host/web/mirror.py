"""The web page beside a real board: a read-only mirror of what the daemon shows.

The daemon runs its loop on the main thread; the page's server runs on another.
The daemon hands over each new snapshot through ``subscribe`` (called on its
thread), and the mirror keeps the latest one: the server never reads the live game.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from engine.errors import GameboardError
from firmware_host.daemon import Daemon
from firmware_host.records import JournalHeader
from firmware_host.web.view import READ_ONLY_VIEW, BoardPicture, snapshot_view


class MirrorSession:
    """What the page shows of a running daemon; it takes no actions."""

    def __init__(self, daemon: Daemon) -> None:
        game = daemon.state.game
        self._picture = BoardPicture(game.board, game.pieces)
        self._title = game.title
        self._pieces = game.pieces
        self._player_names = [game.player_name(p) for p in range(game.num_players)]
        self._record = JournalHeader(daemon.journal.path, tuple(str(seat) for seat in daemon.seats))
        self._lock = threading.Lock()
        self._snapshot = daemon.snapshot()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None
        daemon.subscribe(self._received)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's event loop, which the daemon's thread wakes on each change."""
        self._loop = loop
        self._event = asyncio.Event()

    def _received(self, snapshot: dict[str, Any]) -> None:
        with self._lock:
            self._snapshot = snapshot
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        event, self._event = self._event, asyncio.Event()
        event.set()

    def changed(self) -> asyncio.Event:
        return self._event

    def act(self, action: dict[str, Any]) -> None:
        raise GameboardError("this page mirrors a real board: play on the board")

    def view(self) -> dict[str, Any]:
        with self._lock:
            snapshot = self._snapshot
        pieces = {loc: piece for loc, piece in snapshot["expected"].items() if piece}
        player = snapshot["turn"]
        turn = self._player_names[player] if 0 <= player < len(self._player_names) else ""
        return {
            **READ_ONLY_VIEW,
            "title": self._title,
            "game": snapshot["game"],
            **self._picture.view(pieces, snapshot),
            "turn": turn,
            "turn_colour": self._pieces.get(snapshot["turn_piece"] or "", ""),
            **snapshot_view(snapshot),
            "piece_colours": self._pieces,
            "record_header": self._record.header(snapshot["outcome"]),
        }
