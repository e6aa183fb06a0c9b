"""74HC165 parallel-in shift registers chained on the SPI bus: 8 sensors a chip.

One latch pulse and one SPI read of N bytes samples every input of the chain at the
same instant, so a scan of 200 sensors costs a single ~26-byte transfer.  Wiring
(see docs/hardware.md): SCLK to every CP, CE0 to every /CE (the chain shifts only
while selected), the load pin to every /PL, the first chip's Q7 to MISO and each
chip's DS to the next chip's Q7.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import DigitalOutputDevice, SPIDevice

from hal.base import Scan, SensorArray
from hal.options import DriverOptions, Pin
from hal.pins import opening


class HC165Chain(SPIDevice):
    """A chain of ``chips`` 74HC165s: ``read_bytes()`` latches and shifts them all out.

    Like gpiozero's MCP3008, a chip is a few lines over ``SPIDevice``; the extra
    load pin (/PL, active low) copies the parallel inputs into the shift register.
    """

    def __init__(self, chips: int, load_pin: Pin, **spi_args: Any) -> None:
        self._load: DigitalOutputDevice | None = None
        super().__init__(**spi_args)
        try:
            self._load = DigitalOutputDevice(load_pin, initial_value=True, pin_factory=self.pin_factory)
        except BaseException:
            self.close()
            raise
        self.chips = chips

    def read_bytes(self) -> list[int]:
        """One byte per chip, the chip nearest MISO first; bit n of a byte is input Dn."""
        self._check_open()
        self._load.off()  # /PL low: every input is latched at once
        self._load.on()  # /PL high: the register shifts on the clock
        return list(self._spi.read(self.chips))

    def close(self) -> None:
        if self._load is not None:
            self._load.close()
            self._load = None
        super().close()


class HC165Sensors(SensorArray):
    """Channel ``8 * chip + n`` is input Dn of chip ``chip`` (chip 0 is the one wired to MISO).

    With ``active_low`` (the default) each input has a pull-up resistor and a sensor
    pulls it to ground when a piece is present.
    """

    kind = "presence"

    def __init__(
        self, chain: HC165Chain, *, active_low: bool = True, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._chain = chain
        self._invert = 0xFF if active_low else 0x00
        self._clock = clock

    @staticmethod
    def read_options(options: Mapping[str, Any]) -> tuple[int, Pin, int, int, bool]:
        """Options: ``chips`` (1-64, required), ``load_pin`` (the /PL pin, default 25),
        ``spi_port`` (default 0), ``spi_device`` (the chip-enable line, default 0),
        ``active_low`` (default true)."""
        read = DriverOptions("hc165", options)
        settings = (read.integer("chips", low=1, high=64, example="26"), read.pin("load_pin", 25),
                    read.integer("spi_port", 0, low=0, high=6), read.integer("spi_device", 0, low=0, high=2),
                    read.boolean("active_low", True))
        read.finish()
        return settings

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> HC165Sensors:
        chips, load_pin, port, device, active_low = cls.read_options(options)
        with opening(f"the 74HC165 chain on SPI {port}.{device}", "load_pin"):
            chain = HC165Chain(chips, load_pin, port=port, device=device)
        return cls(chain, active_low=active_low)

    @property
    def channels(self) -> int:
        return 8 * self._chain.chips

    def read(self) -> Scan:
        stamp = self._clock()
        values = []
        for byte in self._chain.read_bytes():
            byte ^= self._invert
            values.extend((byte >> bit) & 1 for bit in range(8))
        return Scan(tuple(values), stamp)

    def close(self) -> None:
        self._chain.close()
