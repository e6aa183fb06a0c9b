"""MCP3008 SPI ADCs through gpiozero: analog Hall sensors, 8 a chip, chips on chip-select pins.

gpiozero's ``MCP3008`` reads one channel in one 3-byte transfer (about 50 us on the
wire at 500 kHz, plus Python's overhead), so 200 sensors on 25 chips take some 20 ms
a scan: keep ``scan_hz`` at 40 or less, or let the co-processor scan them.  Chips share SCLK,
MOSI and MISO; each has its own select pin: CE0 (GPIO8) and CE1 (GPIO7) use the
hardware SPI driver, any other pins make gpiozero fall back to (slower) software SPI.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gpiozero import MCP3008

from hal.base import Scan, SensorArray
from hal.options import DriverOptions, Pin
from hal.pins import open_devices

#: The Pi's SPI0 pins (BCM): clock, MOSI, MISO.
SPI0 = {"clock_pin": 11, "mosi_pin": 10, "miso_pin": 9}


class MCP3008Sensors(SensorArray):
    """Channel ``8 * k + n`` is input CHn of the chip on ``select_pins[k]``; values are 0-1023."""

    kind = "analog"

    def __init__(self, select_pins: Sequence[Pin], *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        wanted = [(pin, channel) for pin in select_pins for channel in range(8)]
        self._inputs = open_devices(
            "the MCP3008 ADCs",
            "select_pins",
            lambda pair: MCP3008(channel=pair[1], select_pin=pair[0], **SPI0),
            wanted,
        )

    @staticmethod
    def read_options(options: Mapping[str, Any]) -> list[Pin]:
        """Options: ``select_pins`` (each chip's chip-select pin in channel order, default [8], CE0)."""
        read = DriverOptions("mcp3008", options)
        select_pins = read.pins("select_pins", [8], example="[8, 7]")
        read.finish()
        return select_pins

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> MCP3008Sensors:
        return cls(cls.read_options(options))

    @property
    def channels(self) -> int:
        return len(self._inputs)

    def read(self) -> Scan:
        stamp = self._clock()
        return Scan(tuple(adc.raw_value for adc in self._inputs), stamp)

    def close(self) -> None:
        for adc in self._inputs:
            adc.close()
