"""How untidy a mock board's readings are (``Noise``), and the error for what a real board cannot be or do."""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.errors import GameboardError


class MockBoardError(GameboardError, ValueError):
    """A mock board set up or handled in a way a real one cannot be; the message says how."""


@dataclass(frozen=True)
class Noise:
    """How untidy the mock board's readings are; all zero (the default) is a clean board.

    Times are in seconds of the board's clock, probabilities in 0..1.
    """

    bounce_time: float = 0.0  # how long a contact chatters after it changes
    bounce_probability: float = 0.0  # the chance that a change chatters at all
    slide_step: float = 0.0  # how long a slid piece is over each location it passes
    bump_probability: float = 0.0  # the chance that handling a piece bumps a neighbour
    bump_time: float = 0.0  # how long a bumped piece is off its location
    analog_jitter: float = 0.0  # standard deviation of an analog reading, in ADC counts

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise MockBoardError(f"Noise.{name} = {value!r}: must be a number >= 0")
            if name.endswith("probability") and value > 1:
                raise MockBoardError(f"Noise.{name} = {value!r}: a probability is at most 1")

    @classmethod
    def realistic(cls) -> Noise:
        """Figures of a hand-played board with reed switches: for the simulator and soak tests."""
        return cls(
            bounce_time=0.003,
            bounce_probability=0.5,
            slide_step=0.08,
            bump_probability=0.05,
            bump_time=0.3,
            analog_jitter=3.0,
        )
