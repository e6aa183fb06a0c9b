"""The mock board's LED strips: the last frame shown, read back by location."""

from __future__ import annotations

from collections.abc import Sequence

from hal.base import RGB, LedSink
from hal.frames import Frame, checked_frame, dark_frame
from hal.mock.noise import MockBoardError
from wiring.model import Wiring


class MockLeds(LedSink):
    """LED strips that keep the last frame shown, read back by location through the wiring."""

    def __init__(self, wiring: Wiring) -> None:
        self._wiring = wiring
        self.frame: Frame = dark_frame(wiring.strip_lengths)
        self.frames_shown = 0

    @property
    def strip_lengths(self) -> tuple[int, ...]:
        return tuple(self._wiring.strip_lengths)

    def show(self, frame: Sequence[Sequence[RGB]]) -> None:
        self.frame = checked_frame(frame, self.strip_lengths)
        self.frames_shown += 1

    def location_colour(self, location: str) -> RGB:
        """The colour lighting ``location`` (its first LED, where it has several)."""
        leds = self._wiring.leds.get(location)
        if not leds:
            raise MockBoardError(f"no LED lights {location!r} in this wiring")
        strip, index = leds[0]
        return self.frame[strip][index]

    def close(self) -> None:
        self.frame = dark_frame(self.strip_lengths)
