"""Two six-sided dice, rolled at the start of a turn (Over-Pass, Groups-of-Three)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core import Move

DIE_FACES = range(1, 7)


@dataclass(frozen=True, slots=True)
class Roll(Move):
    """The two dice, smaller first (``roll 2+5``): a chance outcome; the turn's budget is the sum."""

    low: int
    high: int
    cost: ClassVar[int] = 0

    def __str__(self) -> str:
        return f"roll {self.low}+{self.high}"

    @property
    def total(self) -> int:
        return self.low + self.high


#: Every roll with its probability: the 21 unordered pairs, doubles 1/36, the others 2/36.
ROLLS: tuple[tuple[Roll, float], ...] = tuple(
    (Roll(low, high), (1 if low == high else 2) / 36) for low in DIE_FACES for high in DIE_FACES if low <= high)
