"""A clock that moves only when told: the time source for the mock HAL in tests.

The mock board schedules contact bounce, slides and bumps against an injected clock
instead of sleeping, so a test advances time and reads the sensors at exact moments.
"""

from __future__ import annotations


class ManualClock:
    """A monotonic clock (call it for the time, in seconds) advanced by hand."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move time forward by ``seconds`` (never back) and return the new time."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go back: advance({seconds})")
        self.now += seconds
        return self.now
