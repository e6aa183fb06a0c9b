"""Step 5 of a calibration, for analog Hall sensors: each further piece class measured, then every channel's bands.

The walk (``walk.py``) has mapped every location with the first class; here the
other classes are put on the lit locations a handful at a time.  The bands
themselves are ``wiring.thresholds``' pure arithmetic; this reads them off the
calibration's progress, keeps the bands of channels a ``--redo`` left alone, and notes
each pair of classes a channel cannot tell apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from firmware_host.calibration.progress import Progress
from firmware_host.calibration.questions import QUIT, READ, SKIP, Ask, Person, listed
from firmware_host.calibration.readings import EmptyBoard, Reading
from wiring.model import ChannelCalibration, Wiring
from wiring.thresholds import Span, calibrate_channel


class Walk(Protocol):
    """What the class step needs of the calibration under way."""

    progress: Progress
    person: Person

    def ask(self, question: Ask) -> str:
        """The person's answer; ``q`` pauses the calibration."""

    def light(self, locations: Iterable[str]) -> None:
        """Light ``locations`` alone."""

    def pieces_on(self) -> dict[int, Reading]:
        """The channels that see a piece now."""

    def save(self) -> None:
        """Keep what is found so far."""


def class_step(walk: Walk, piece_class: str, pieces: int) -> None:
    """Measure ``piece_class`` on every mapped channel not kept from the file being replaced, ``pieces`` at a time."""
    progress = walk.progress
    measured = progress.readings.setdefault(piece_class, {})
    skipped = progress.class_skipped.setdefault(piece_class, [])
    locations = [loc for loc, channel in progress.mapped.items() if channel not in progress.kept]
    while todo := [loc for loc in locations if str(progress.mapped[loc]) not in measured and loc not in skipped]:
        batch = todo[:pieces]
        _measure_batch(walk, piece_class, batch, len(locations) - len(todo), len(locations))
    if skipped:
        progress.note(f"{piece_class} not measured on {listed(skipped)}: no piece was seen there")


def _measure_batch(walk: Walk, piece_class: str, batch: list[str], done: int, total: int) -> None:
    progress = walk.progress
    walk.light(batch)
    text = (f"Put a {piece_class} piece on each lit location ({len(batch)}: {listed(batch)}) and take every"
            " other piece off. Enter when they are down.")
    ask = Ask("classes", text, {READ: "read the sensors", SKIP: "skip the lit locations that have no piece",
                                QUIT: "stop"}, done, total, tuple(batch), piece_class)
    wanted = {progress.mapped[loc]: loc for loc in batch}
    while True:
        key = walk.ask(ask)
        on = walk.pieces_on()
        extra = [progress.used_channels.get(c, f"channel {c}") for c in on if c not in wanted]
        missing = [loc for channel, loc in wanted.items() if channel not in on]
        if extra:
            walk.person.tell(f"Pieces stand on {listed(extra)}, which are not lit: take them off.")
        elif missing and key != SKIP:
            walk.person.tell(f"No piece seen on {listed(missing)}: put a {piece_class} piece there,"
                             " or press s to skip them.")
        else:
            break
    for channel in wanted:
        if channel in on:
            progress.readings[piece_class][str(channel)] = on[channel].as_sample()
    progress.class_skipped[piece_class] += missing
    walk.save()


def measured_calibration(progress: Progress, start: Wiring, empty: EmptyBoard | None) -> dict[int, ChannelCalibration]:
    """The bands of every mapped channel measured in a class (a kept channel's from ``start``), by channel."""
    found = {}
    for location, channel in progress.mapped.items():
        if channel in progress.kept:
            found[channel] = start.calibration[channel]
            continue
        low_high = progress.empty[str(channel)][1:]
        spans = [Span(cls, *progress.readings[cls][str(channel)][1:]) for cls in progress.classes
                 if str(channel) in progress.readings.get(cls, {})]
        if not spans:
            continue
        assert empty is not None
        found[channel], warnings = calibrate_channel(Span("empty", *low_high), spans, empty.threshold(channel))
        for warning in warnings:
            progress.note(f"channel {channel} ({location}): {warning}")
    return dict(sorted(found.items()))
