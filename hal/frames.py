"""Checking an LED frame against the strips it is meant for, once for every LED sink."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import GameboardError
from hal.base import RGB

#: A frame as the sinks store it: one tuple of colours per strip.
Frame = tuple[tuple[RGB, ...], ...]


class FrameError(GameboardError, ValueError):
    """A frame whose shape or colours do not fit the strips; the message says where."""


def checked_frame(frame: Sequence[Sequence[RGB]], strip_lengths: Sequence[int]) -> Frame:
    """The frame as tuples, after checking one colour per LED, each channel 0-255.

    Sinks call this before touching hardware, so a bad frame never half-reaches a strip.
    """
    if len(frame) != len(strip_lengths):
        raise FrameError(f"a frame needs {len(strip_lengths)} strip(s), got {len(frame)}")
    checked = []
    for strip, (colours, length) in enumerate(zip(frame, strip_lengths)):
        if len(colours) != length:
            raise FrameError(f"strip {strip} has {length} LEDs, the frame gives {len(colours)} colours")
        for index, colour in enumerate(colours):
            if len(colour) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in colour):
                raise FrameError(f"strip {strip} LED {index}: {colour!r} is not (r, g, b) with each 0-255")
        checked.append(tuple(tuple(colour) for colour in colours))
    return tuple(checked)


def dark_frame(strip_lengths: Sequence[int]) -> Frame:
    """Every LED off."""
    return tuple(((0, 0, 0),) * length for length in strip_lengths)
