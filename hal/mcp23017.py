"""MCP23017 I2C expanders: 16 presence sensors a chip, up to 8 chips on one bus.

Each chip is read in one 2-byte transfer of its GPIOA/GPIOB registers through
Adafruit's adafruit-circuitpython-mcp230xx.  Slower than a 74HC165 chain (about
0.3 ms a chip at 400 kHz) but needs only the two I2C wires.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hal.base import Scan, SensorArray
from hal.i2c_bus import no_device, open_i2c
from hal.options import DriverOptions


class MCP23017Sensors(SensorArray):
    """Channel ``16 * k + n`` is pin n of the k-th chip in ``addresses`` (GPA0-7 = 0-7, GPB0-7 = 8-15).

    With ``active_low`` (the default) a sensor pulls its pin to ground when a piece is
    present; ``pull_up`` turns on the chip's internal 100 kOhm pull-ups.
    """

    kind = "presence"

    def __init__(
        self, chips: Sequence[Any], *, active_low: bool = True, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._chips = list(chips)
        self._invert = 0xFFFF if active_low else 0
        self._clock = clock

    @staticmethod
    def read_options(options: Mapping[str, Any]) -> tuple[list[int], bool, bool]:
        """Options: ``addresses`` (I2C addresses in channel order, 0x20-0x27, default [0x20]),
        ``pull_up`` (default true), ``active_low`` (default true)."""
        read = DriverOptions("mcp23017", options)
        settings = (read.integers("addresses", [0x20], low=0x20, high=0x27, example="[0x20, 0x21]"),
                    read.boolean("pull_up", True), read.boolean("active_low", True))
        read.finish()
        return settings

    @classmethod
    def from_options(cls, options: Mapping[str, Any], i2c: Any = None) -> MCP23017Sensors:
        """``i2c`` defaults to the Pi's bus (``board.I2C()``)."""
        addresses, pull_up, active_low = cls.read_options(options)
        from adafruit_mcp230xx.mcp23017 import MCP23017

        bus = open_i2c() if i2c is None else i2c
        chips = []
        for address in addresses:
            try:
                chip = MCP23017(bus, address=address)
            except (ValueError, OSError) as exc:
                raise no_device("MCP23017", address, exc) from None
            chip.iodir = 0xFFFF  # every pin an input
            chip.gppu = 0xFFFF if pull_up else 0
            chips.append(chip)
        return cls(chips, active_low=active_low)

    @property
    def channels(self) -> int:
        return 16 * len(self._chips)

    def read(self) -> Scan:
        stamp = self._clock()
        values = []
        for chip in self._chips:
            bits = chip.gpio ^ self._invert
            values.extend((bits >> pin) & 1 for pin in range(16))
        return Scan(tuple(values), stamp)
