"""A model of analog Hall sensors under magnets: what an ADC reads for each piece class.

Real sensors differ: each channel has its own zero-field baseline and gain, and a
reading jitters.  The mock board draws these per channel from a seed, so calibration
code meets the same spread it meets on a real board, reproducibly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from wiring.model import PRESENT


def _default_fields() -> dict[str, float]:
    return {"north": 1.0, "south": -1.0, "north_weak": 0.5, "south_weak": -0.5}


@dataclass(frozen=True)
class MagnetModel:
    """How a piece class moves a channel's reading, in ADC counts.

    A reading is ``baseline + gain * field * swing`` (plus jitter), clamped to
    ``0..full_scale``.  ``fields`` gives each class its signed strength: north-up
    magnets raise the reading, south-up lower it, weak ones by half.  A piece with no
    class (``wiring.model.PRESENT``) carries the ``unclassified`` magnet.
    """

    full_scale: int = 1023  # a 10-bit ADC such as the MCP3008
    swing: float = 300.0
    baseline_spread: float = 25.0  # counts either side of mid-scale
    gain_spread: float = 0.15  # gains drawn from 1 +- this
    fields: Mapping[str, float] = field(default_factory=_default_fields)
    unclassified: str = "north"

    def field_of(self, piece_class: str | None) -> float:
        """The signed strength of a class (0 for an empty location)."""
        if piece_class is None:
            return 0.0
        return self.fields[self.unclassified if piece_class == PRESENT else piece_class]

    def draw_channels(self, channels: int, rng: random.Random) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Baselines and gains for ``channels`` sensors, drawn from ``rng``."""
        middle = self.full_scale / 2
        baselines = tuple(middle + rng.uniform(-self.baseline_spread, self.baseline_spread) for _ in range(channels))
        gains = tuple(1 + rng.uniform(-self.gain_spread, self.gain_spread) for _ in range(channels))
        return baselines, gains

    def reading(self, baseline: float, gain: float, piece_class: str | None, jitter: float) -> int:
        """The ADC count for one channel under a piece of ``piece_class``, ``jitter`` already drawn."""
        return self.count(baseline, gain, self.field_of(piece_class), jitter)

    def count(self, baseline: float, gain: float, field: float, jitter: float) -> int:
        """The ADC count under a magnet of signed strength ``field`` (the mock's hot path)."""
        value = baseline + gain * field * self.swing + jitter
        return min(self.full_scale, max(0, round(value)))
