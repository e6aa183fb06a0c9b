"""Class bands from measured readings: margins into each gap, open outer bands, overlaps warned."""

from __future__ import annotations

import math

from wiring.check import band_order_problems
from wiring.thresholds import MARGIN, Span, calibrate_channel


def test_bands_reach_into_each_gap_by_the_margin_and_stay_open_outside() -> None:
    empty = Span("empty", 510, 514)
    calibration, warnings = calibrate_channel(empty, [Span("north", 800, 810), Span("south", 200, 210)], min_gap=10)
    north, south = calibration.bands
    assert warnings == []
    assert calibration.baseline == 512
    assert (north.low, north.high) == (800 - MARGIN * (800 - 514), math.inf)
    assert (south.low, south.high) == (-math.inf, 210 + MARGIN * (510 - 210))
    readings = (1023, 700, 512, 400, 300, 0)
    assert [calibration.observe(v) for v in readings] == ["north", "north", None, None, "south", "south"]
    assert band_order_problems(calibration) == []


def test_overlapping_classes_split_between_their_middles_with_a_warning() -> None:
    empty = Span("empty", 510, 514)
    calibration, warnings = calibrate_channel(empty, [Span("north", 790, 820), Span("north_weak", 780, 800)], 10)
    weak, north = sorted(calibration.bands, key=lambda band: band.low)
    assert (weak.high, north.low) == (797.0, 798.0)
    assert warnings == ["north_weak (780-800) and north (790-820) overlap or nearly do: the sensor cannot tell them"
                        " apart reliably; use magnets that differ more"]
    assert band_order_problems(calibration) == []


def test_classes_closer_than_the_needed_change_are_warned_about() -> None:
    _, warnings = calibrate_channel(Span("empty", 500, 500), [Span("a", 600, 600), Span("b", 605, 605)], min_gap=10)
    assert len(warnings) == 1 and warnings[0].startswith("a (600) and b (605) overlap or nearly do")
