"""Bring-up lighting: one location at a time, and a light running along each strip.

``gameboard leds test`` and the calibration's LED and chase steps share these; they
take any ``LedSink``, so tests pass the mock board's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from hal.base import RGB, LedSink
from wiring.model import Wiring

LIT: RGB = (255, 255, 255)
CHASE: RGB = (0, 160, 255)
OFF: RGB = (0, 0, 0)

Led = tuple[int, int]


def show_leds(sink: LedSink, leds: Iterable[Led], colour: RGB = LIT) -> None:
    """Light exactly ``leds`` (strip, index) in ``colour``; every other LED goes dark."""
    frame = [[OFF] * length for length in sink.strip_lengths]
    for strip, index in leds:
        frame[strip][index] = colour
    sink.show(frame)


def chase(sink: LedSink, strip: int, pause: Callable[[float], None], seconds: float) -> None:
    """Run one light along ``strip`` from its first LED to its last, then go dark."""
    for index in range(sink.strip_lengths[strip]):
        show_leds(sink, [(strip, index)], CHASE)
        pause(seconds)
    show_leds(sink, [])


def light_each_location(sink: LedSink, wiring: Wiring, locations: Sequence[str], pause: Callable[[float], None],
                        seconds: float, report: Callable[[str], None]) -> None:
    """Light every location in turn, naming it, so a person can see the LED order is right."""
    for number, location in enumerate(locations, 1):
        leds = wiring.leds.get(location, ())
        where = ", ".join(f"{strip}:{index}" for strip, index in leds) or "no LED in the wiring"
        report(f"[{number}/{len(locations)}] {location} (LED {where})")
        show_leds(sink, leds)
        pause(seconds)
    show_leds(sink, [])
