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

    gpiozero's ``bounce_time`` is left off (backends differ and some drop presses with
    it); instead a press of a button within ``debounce`` seconds of its last accepted
    press is contact bounce, not a second press: one push never undoes twice.
    """

    def __init__(
        self,
        pins: Mapping[str, Pin],
        *,
        pull_up: bool = True,
        debounce: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._clock = clock
        self._debounce = debounce
        self._queue: deque[ButtonEvent] = deque()
        self._last_press: dict[str, float] = {}
        names = list(pins)
        self._buttons = open_devices("the button pins", "pins", lambda pin: Button(pin, pull_up=pull_up), pins.values())
        for name, button in zip(names, self._buttons):
            button.when_pressed = self._recorder(name)

    def _recorder(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            now = self._clock()
            last = self._last_press.get(name)
            if last is None or now - last >= self._debounce:
                self._last_press[name] = now
                self._queue.append(ButtonEvent(name, now))

        return pressed

    @staticmethod
    def read_options(options: Mapping[str, Any]) -> tuple[dict[str, Pin], bool, float]:
        """Options: ``pins``, a table of button name -> pin, e.g. ``{ end_turn = 5, confirm = 6 }``
        (names from ``hal.base.BUTTONS``); ``pull_up`` (default true: buttons to ground);
        ``debounce_ms`` (presses of one button closer than this are bounce, default 50)."""
        read = DriverOptions("gpio", options)
        settings = (read.pin_table("pins", BUTTONS, example="{ end_turn = 5, confirm = 6, undo = 13 }"),
                    read.boolean("pull_up", True), read.number("debounce_ms", 50, low=0, high=1000, example="50"))
        read.finish()
        return settings

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> GpioButtons:
        pins, pull_up, debounce_ms = cls.read_options(options)
        return cls(pins, pull_up=pull_up, debounce=debounce_ms / 1000)

    def events(self) -> list[ButtonEvent]:
        events = []
        while self._queue:
            events.append(self._queue.popleft())
        return events

    def close(self) -> None:
        for button in self._buttons:
            button.close()
