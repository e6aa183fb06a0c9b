"""Steady sensor readings, and which channels differ from the empty board.

A person presses a key when a piece is down, but a reed switch may still chatter and
an analog reading jitters: the calibration reads several scans and takes each
channel's median, keeping the spread to size its margins.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from hal.base import SensorArray


@dataclass(frozen=True)
class Reading:
    """One channel over several scans: the median and the lowest and highest seen."""

    value: float
    low: float
    high: float

    def as_sample(self) -> list[float]:
        """As the progress file keeps it: [median, lowest, highest]."""
        return [self.value, self.low, self.high]


def read_steady(sensors: SensorArray, samples: int) -> list[Reading]:
    """Each channel's median over ``samples`` scans (odd, so a presence median is a majority)."""
    scans = [sensors.read().values for _ in range(samples | 1)]
    return [Reading(float(statistics.median(column)), float(min(column)), float(max(column)))
            for column in zip(*scans)]


@dataclass(frozen=True)
class EmptyBoard:
    """What each channel reads with no piece on the board, and how far a piece must move it.

    For presence sensors a channel is on at 1; for analog ones a reading counts as a
    piece when it leaves the baseline by more than ``min_change`` counts and more than
    six times the channel's own jitter.
    """

    kind: str
    readings: tuple[Reading, ...]
    min_change: float

    def threshold(self, channel: int) -> float:
        reading = self.readings[channel]
        return max(self.min_change, 6 * (reading.high - reading.low))

    def differs(self, channel: int, reading: Reading) -> bool:
        """Whether ``reading`` on ``channel`` means a piece stands over it."""
        if self.kind == "presence":
            return reading.value >= 0.5
        return abs(reading.value - self.readings[channel].value) > self.threshold(channel)

    def changed(self, readings: list[Reading], ignore: frozenset[int] = frozenset()) -> dict[int, Reading]:
        """The channels (but those in ``ignore``) that read a piece."""
        return {channel: reading for channel, reading in enumerate(readings)
                if channel not in ignore and self.differs(channel, reading)}

    def stuck(self) -> list[int]:
        """Channels that read a piece although the board is empty.

        A presence channel at 1; an analog channel whose empty reading stands out from
        the other channels' by more than ten times their typical spread (and
        ``min_change``): a stuck ADC input or a magnet left on the board.
        """
        if self.kind == "presence":
            return [channel for channel, reading in enumerate(self.readings) if reading.value >= 0.5]
        values = [reading.value for reading in self.readings]
        middle = statistics.median(values)
        spread = statistics.median(abs(value - middle) for value in values)
        limit = max(10 * spread, 3 * self.min_change)
        return [channel for channel, value in enumerate(values) if abs(value - middle) > limit]
