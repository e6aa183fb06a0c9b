"""The mock board's buttons, pressed by code."""

from __future__ import annotations

from collections.abc import Callable

from hal.base import BUTTONS, ButtonEvent, ButtonPanel
from hal.mock.noise import MockBoardError


class MockButtons(ButtonPanel):
    """Buttons pressed by code: ``press(name)`` queues an event at the clock's time."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._queue: list[ButtonEvent] = []

    def press(self, name: str) -> None:
        if name not in BUTTONS:
            raise MockBoardError(f"no button {name!r}; buttons: {', '.join(BUTTONS)}")
        self._queue.append(ButtonEvent(name, self._clock()))

    def events(self) -> list[ButtonEvent]:
        events, self._queue = self._queue, []
        return events
