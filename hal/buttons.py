"""The board's push buttons on GPIO pins, through gpiozero's ``Button``.

gpiozero calls ``when_pressed`` from its own thread the moment a pin falls; the
presses wait in a queue until the daemon's loop collects them, so a press between
two scans is never lost.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Button

from hal.base import BUTTONS, ButtonEvent, ButtonPanel
from hal.options import DriverOptions, Pin
from hal.pins import open_devices


class GpioButtons(ButtonPanel):
    """Buttons by name (``hal.base.BUTTONS``), each between a pin and ground.

    gpiozero's ``bounce_time`` is left off: backends differ and some drop presses
    with it; a press is an edge, and the daemon ignores presses that make no sense.
    """

    def __init__(
        self, pins: Mapping[str, Pin], *, pull_up: bool = True, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._clock = clock
        self._queue: deque[ButtonEvent] = deque()
        names = list(pins)
        self._buttons = open_devices("the button pins", "pins", lambda pin: Button(pin, pull_up=pull_up), pins.values())
        for name, button in zip(names, self._buttons):
            button.when_pressed = self._recorder(name)

    def _recorder(self, name: str) -> Callable[[], None]:
        return lambda: self._queue.append(ButtonEvent(name, self._clock()))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> GpioButtons:
        """Options: ``pins``, a table of button name -> pin, e.g. ``{ end_turn = 5, confirm = 6 }``
        (names from ``hal.base.BUTTONS``); ``pull_up`` (default true: buttons to ground)."""
        read = DriverOptions("gpio", options)
        pins = read.pin_table("pins", BUTTONS, example="{ end_turn = 5, confirm = 6, undo = 13 }")
        pull_up = read.boolean("pull_up", True)
        read.finish()
        return cls(pins, pull_up=pull_up)

    def events(self) -> list[ButtonEvent]:
        events = []
        while self._queue:
            events.append(self._queue.popleft())
        return events

    def close(self) -> None:
        for button in self._buttons:
            button.close()
