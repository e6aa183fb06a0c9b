"""The mock board's sensor array: presence 1/0, or analog counts from a magnet model, with its faults."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from hal.base import SEES, HardwareError, Scan, SensorArray, SensorHealth
from hal.magnets import MagnetModel
from hal.mock.noise import MockBoardError, Noise
from wiring.model import Wiring


class SensedBoard(Protocol):
    """What the sensors read of the board in memory (``hal.mock.board.MockBoard``)."""

    @property
    def wiring(self) -> Wiring: ...
    @property
    def lock(self) -> AbstractContextManager[Any]: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    @property
    def noise(self) -> Noise: ...
    @property
    def reading_rng(self) -> random.Random: ...
    def seen(self, now: float) -> dict[str, str | None]: ...


class MockSensors(SensorArray):
    """The mock board's sensor channels: presence 1/0, or analog counts from a magnet model.

    ``baselines`` and ``gains`` are each channel's true analog figures, drawn from the
    seed: what a calibration should find.
    """

    def __init__(self, board: SensedBoard, channels: int, magnets: MagnetModel, seed: int) -> None:
        wiring = board.wiring
        if wiring.sensing not in ("presence", "analog"):
            raise MockBoardError(f"wiring sensing {wiring.sensing!r}: use 'presence' or 'analog'")
        too_high = sorted(channel for channel in wiring.channels if not 0 <= channel < channels)
        if too_high:
            raise MockBoardError(f"the wiring uses channels {too_high} outside 0..{channels - 1}; raise channels=")
        unknown = sorted(set(wiring.piece_classes.values()) - set(magnets.fields))
        if wiring.sensing == "analog" and unknown:
            raise MockBoardError(f"no magnet model for piece classes {unknown}; known: {', '.join(magnets.fields)}")
        self.kind = wiring.sensing
        self.magnets = magnets
        self.baselines, self.gains = magnets.draw_channels(channels, random.Random(f"{seed}:sensors"))
        self._board = board
        self._located = [wiring.channels.get(channel) for channel in range(channels)]
        self._stuck: dict[int, int] = {}
        self._fields: dict[str | None, float] = {}
        #: The last scan before the cable was pulled, repeated until it is back (None: plugged in).
        self.unplugged: Scan | None = None
        #: Why every scan fails (a bus that stops answering), or "".
        self.failure = ""

    @property
    def channels(self) -> int:
        return len(self._located)

    def health(self) -> SensorHealth:
        if self.unplugged is not None:
            return SensorHealth(False, True, "the mock board's sensor cable is unplugged")
        return SEES

    def read(self) -> Scan:
        if self.failure:
            raise HardwareError(self.failure)
        if self.unplugged is not None:
            return self.unplugged
        board = self._board
        with board.lock:
            now = board.clock()
            seen = board.seen(now)
            if self.kind == "presence":
                values = [int(seen.get(location) is not None) for location in self._located]
            else:
                values = self._analog([seen.get(location) for location in self._located])
            for channel, value in self._stuck.items():
                values[channel] = value
            return Scan(tuple(values), now)

    def _analog(self, shown: list[str | None]) -> list[int]:
        """The ADC counts of every channel, given what each one's location shows."""
        board = self._board
        spread, gauss = board.noise.analog_jitter, board.reading_rng.gauss
        fields = [self._field(content) for content in shown]
        return [
            self.magnets.count(baseline, gain, field, gauss(0.0, spread) if spread else 0.0)
            for baseline, gain, field in zip(self.baselines, self.gains, fields, strict=True)
        ]

    def _field(self, content: str | None) -> float:
        """The signed magnet strength under a location holding ``content`` (cached by content)."""
        if content not in self._fields:
            self._fields[content] = self.magnets.field_of(self._board.wiring.expected(content))
        return self._fields[content]

    def stick(self, channel: int, value: int) -> None:
        if not 0 <= channel < self.channels:
            raise MockBoardError(f"channel {channel} is outside 0..{self.channels - 1}")
        highest = 1 if self.kind == "presence" else self.magnets.full_scale
        if not (isinstance(value, int) and 0 <= value <= highest):
            raise MockBoardError(f"channel {channel}: a {self.kind} reading is 0..{highest}, not {value!r}")
        self._stuck[channel] = value
