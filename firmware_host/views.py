"""The views driven from each published ``BoardState``: a new LED frame when what the LEDs mean changes
(or a blink flips), the subscribers (the page, the simulator) told of any change they show: a blink's
phase is none, the page blinks by itself (``LedView.page_lights``); and the watchers (the voice) handed the
state itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware_host.board_state import BoardState
from firmware_host.led_view import LedView
from firmware_host.snapshot import snapshot

Subscriber = Callable[[dict[str, Any]], None]
Watcher = Callable[[BoardState], None]


class Views:
    """The LEDs and the subscribers of one board, and what they were last shown."""

    def __init__(self, lights: LedView) -> None:
        self.lights = lights
        self.subscribers: list[Subscriber] = []
        self.watchers: list[Watcher] = []
        self._lights: tuple[Any, ...] = ()
        self._position: tuple[Any, ...] = (-1, "")

    def show(self, board: BoardState, now: float) -> None:
        """A frame when the lights change; the snapshot, built only then and only for subscribers, when the lights
        or what the page says of the position change."""
        lights = self.lights.key(board, now)
        remote = board.remote
        link = None if remote is None else (remote.connected, tuple(sorted(remote.online.items())))
        # The legend is narrowed to the game's own lights once they are worked out (off the loop): news for the page.
        position = (board.position.ply, board.note, remote.sealing if remote else "", board.faults, board.sensors,
                    board.thinking, link, self.lights.legend_known)
        if lights == self._lights and position == self._position:
            return
        meaning_changed = not self._lights or lights[0] != self._lights[0]
        if lights != self._lights:
            self.lights.show(board, lights)
            self._lights = lights
        if not meaning_changed and position == self._position:
            return  # only a blink's phase
        self._position = position
        for watcher in self.watchers:
            watcher(board)
        if self.subscribers:
            shown = snapshot(board, self.lights)
            for callback in self.subscribers:
                callback(shown)
