"""ADS1115 I2C ADCs: analog Hall sensors, 4 a chip, up to 4 chips on one bus.

16-bit readings through Adafruit's adafruit-circuitpython-ads1x15.  A conversion
takes 1.2 ms at the fastest rate, so a scan of 16 channels takes about 20 ms: fine
for a small board that tells colours apart (Hexover disks), too slow for 200 sensors.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hal.base import DriverOptionError, Scan, SensorArray
from hal.i2c_bus import no_device, open_i2c
from hal.options import DriverOptions

#: The programmable gains the chip offers (full scale 4.096 V / gain).
GAINS = (2 / 3, 1, 2, 4, 8, 16)

#: The conversion rates the chip offers, in samples a second.
RATES = (8, 16, 32, 64, 128, 250, 475, 860)


def _choice(key: str, value: float, allowed: tuple[float, ...]) -> float:
    """The allowed value equal to ``value`` (2/3 may be written 0.667), else a DriverOptionError."""
    for candidate in allowed:
        if math.isclose(value, candidate, rel_tol=1e-3):
            return candidate
    listed = ", ".join(f"{a:.4g}" for a in allowed)
    raise DriverOptionError(key, f"{value:g} is not one the ADS1115 offers; use one of {listed}")


class ADS1115Sensors(SensorArray):
    """Channel ``4 * k + n`` is input AINn of the k-th chip; values are raw counts (0-32767 single-ended)."""

    kind = "analog"

    def __init__(self, inputs: Sequence[Any], *, clock: Callable[[], float] = time.monotonic) -> None:
        self._inputs = list(inputs)
        self._clock = clock

    @staticmethod
    def read_options(options: Mapping[str, Any]) -> tuple[list[int], float, int]:
        """Options: ``addresses`` (0x48-0x4B in channel order, default [0x48]), ``gain`` (1 reads
        0-4.096 V, right for 3.3 V Hall sensors; one of 2/3, 1, 2, 4, 8, 16), ``data_rate``
        (samples a second, default 860, the fastest)."""
        read = DriverOptions("ads1115", options)
        addresses = read.integers("addresses", [0x48], low=0x48, high=0x4B, example="[0x48, 0x49]")
        gain = _choice("gain", read.number("gain", 1, low=0.5, high=16, example="1"), GAINS)
        rate = int(_choice("data_rate", read.integer("data_rate", 860, low=8, high=860, example="860"), RATES))
        read.finish()
        return addresses, gain, rate

    @classmethod
    def from_options(cls, options: Mapping[str, Any], i2c: Any = None) -> ADS1115Sensors:
        """``i2c`` defaults to the Pi's bus."""
        addresses, gain, rate = cls.read_options(options)
        from adafruit_ads1x15.ads1115 import ADS1115
        from adafruit_ads1x15.analog_in import AnalogIn

        bus = open_i2c() if i2c is None else i2c
        inputs = []
        for address in addresses:
            try:
                chip = ADS1115(bus, gain=gain, data_rate=rate, address=address)
            except (ValueError, OSError) as exc:
                raise no_device("ADS1115", address, exc) from None
            inputs.extend(AnalogIn(chip, pin) for pin in range(4))
        return cls(inputs)

    @property
    def channels(self) -> int:
        return len(self._inputs)

    def read(self) -> Scan:
        stamp = self._clock()
        return Scan(tuple(max(0, analog_in.value) for analog_in in self._inputs), stamp)
