"""Sensors on the Pi's own GPIO pins: one reed switch or digital Hall sensor a pin.

Enough for a small board (a few dozen locations); larger boards chain shift
registers (``hal.hc165``) or expanders (``hal.mcp23017``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gpiozero import DigitalInputDevice

from hal.base import Scan, SensorArray
from hal.options import DriverOptions, Pin
from hal.pins import open_devices


class GpioSensors(SensorArray):
    """Channel i is the pin ``pins[i]``; it reads 1 while a piece closes its switch.

    With ``pull_up`` (the default) each switch connects its pin to ground, the Pi's
    internal pull-up holds it high otherwise, and a low pin reads as present: the
    usual wiring of reed switches and open-drain Hall sensors.  Without it, the
    sensor drives the pin high when present against an external or internal pull-down.
    """

    kind = "presence"

    def __init__(
        self, pins: Sequence[Pin], *, pull_up: bool = True, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._clock = clock
        self._inputs = open_devices(
            "the GPIO sensor pins", "pins", lambda pin: DigitalInputDevice(pin, pull_up=pull_up), pins
        )

    @staticmethod
    def read_options(options: Mapping[str, Any]) -> tuple[list[Pin], bool]:
        """Options: ``pins`` (list, channel order; required), ``pull_up`` (default true)."""
        read = DriverOptions("gpio", options)
        settings = read.pins("pins"), read.boolean("pull_up", True)
        read.finish()
        return settings

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> GpioSensors:
        pins, pull_up = cls.read_options(options)
        return cls(pins, pull_up=pull_up)

    @property
    def channels(self) -> int:
        return len(self._inputs)

    def read(self) -> Scan:
        return Scan(tuple(device.value for device in self._inputs), self._clock())

    def close(self) -> None:
        for device in self._inputs:
            device.close()
