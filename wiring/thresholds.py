"""Class bands for one analog channel, from its measured readings, with margins.

Each class's band reaches from its measured range towards each neighbour (the empty
baseline or another class) by ``MARGIN`` of the gap, leaving a small dead zone in the
middle; the outermost bands stay open, since a magnet sitting closer reads stronger.
Classes whose readings overlap cannot be told apart on that channel: the split falls
between their medians and the caller gets a warning to pass on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wiring.model import ChannelCalibration, ClassBand

#: How far a band reaches into the gap to its neighbour (the rest is a dead zone).
MARGIN = 0.45


@dataclass(frozen=True)
class Span:
    """Readings of one class (or of the empty board) on a channel."""

    name: str
    low: float
    high: float

    @property
    def middle(self) -> float:
        return (self.low + self.high) / 2


def calibrate_channel(baseline: Span, classes: list[Span], min_gap: float) -> tuple[ChannelCalibration, list[str]]:
    """Bands for ``classes`` around ``baseline``, and a warning for each pair too close to tell apart.

    Neighbours closer than ``min_gap`` (the change the sensor needs to see a piece)
    are warned about even when their ranges do not quite touch.
    """
    spans = sorted([baseline, *classes], key=lambda span: span.middle)
    edges: dict[str, list[float]] = {span.name: [-math.inf, math.inf] for span in spans}
    warnings = []
    for lower, upper in zip(spans, spans[1:]):
        gap = upper.low - lower.high
        if gap > 0:
            top, bottom = lower.high + MARGIN * gap, upper.low - MARGIN * gap
        else:
            split = (lower.middle + upper.middle) / 2
            top, bottom = split - 0.5, split + 0.5
        if gap < min_gap:
            warnings.append(f"{lower.name} ({_range(lower)}) and {upper.name} ({_range(upper)}) overlap or nearly do:"
                            " the sensor cannot tell them apart reliably; use magnets that differ more")
        edges[lower.name][1], edges[upper.name][0] = top, bottom
    bands = tuple(ClassBand(span.name, *edges[span.name]) for span in classes)
    return ChannelCalibration(baseline.middle, bands), warnings


def _range(span: Span) -> str:
    return f"{span.low:g}" if span.low == span.high else f"{span.low:g}-{span.high:g}"
