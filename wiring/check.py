"""What makes a wiring usable on its board, as a list of problems a person can fix.

The checks work on a ``Wiring`` plus a way to find the line each entry came from, so
``gameboard wiring check`` can list every problem with its line at once instead of
stopping at the first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.board import Board
from engine.boards import board_names, load_board
from wiring.model import ChannelCalibration, Wiring

#: Finds the line of a key path in the file, e.g. ("locations", "p1") -> 12.
LineOf = Callable[..., int]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a wiring file: where, what, and how to fix it."""

    line: int
    message: str

    def render(self, source: object) -> str:
        """``FILE:LINE: message``; line 0 stands for the file as a whole."""
        return f"{source}:{self.line}: {self.message}" if self.line else f"{source}: {self.message}"


def check_wiring(wiring: Wiring, board: Board, line_of: LineOf) -> list[Problem]:
    """Every problem that stops ``wiring`` from working on ``board``, in file order.

    A file whose locations are mostly another board's gets one problem, not one per location.
    """
    foreign = sorted(set(wiring.channels.values()).union(wiring.leds) - set(board.locations))
    if len(foreign) > len(board.locations) / 2:
        return [Problem(line_of("board"), _another_board(wiring, board, foreign))]
    problems = (_location_problems(wiring, board, line_of) + _channel_problems(wiring, line_of)
                + _led_problems(wiring, line_of) + _calibration_problems(wiring, line_of))
    return sorted(problems, key=lambda p: p.line)


def _another_board(wiring: Wiring, board: Board, foreign: list[str]) -> str:
    written = set(wiring.channels.values()).union(wiring.leds)
    fits = [name for name in board_names() if name != board.name and written <= set(load_board(name).locations)]
    found = f"they are the {fits[0]} board's: set board = \"{fits[0]}\"" if fits else "they belong to another board"
    return (f"{len(foreign)} of the {len(written)} locations are not on the {board.name} board "
            f"({', '.join(foreign[:3])}, ...); {found}, or use a wiring file made for {board.name}")


def _location_problems(wiring: Wiring, board: Board, line_of: LineOf) -> list[Problem]:
    mapped = set(wiring.channels.values())
    problems = []
    for location in board.locations:
        written = line_of("locations", location) != line_of("locations")
        if location not in mapped and not written:  # a written line without a usable channel is reported as read
            problems.append(Problem(line_of("locations", location), (
                f"location {location} has no sensor channel;"
                f" add `{location} = {{ channel = N, leds = [[strip, index]] }}`"
                " or run `gameboard calibrate`")))
        elif location in mapped and not wiring.leds.get(location):
            problems.append(Problem(line_of("locations", location), (
                f"location {location} has no LED; give it `leds = [[strip, index]]`")))
    for location in sorted(mapped.union(wiring.leds) - set(board.locations)):
        problems.append(Problem(line_of("locations", location), (
            f"{location!r} is not a location of the {board.name} board; use one of its ids"
            f" ({', '.join(list(board.locations)[:4])}, ...) or remove the line")))
    return problems


def _channel_problems(wiring: Wiring, line_of: LineOf) -> list[Problem]:
    problems = []
    for location, channels in _channels_by_location(wiring).items():
        if len(channels) > 1:
            problems.append(Problem(line_of("locations", location), (
                f"location {location} is read by channels {', '.join(map(str, channels))}; keep one")))
    count = wiring.sensor_channels
    for channel, location in wiring.channels.items():
        if count and not 0 <= channel < count:
            problems.append(Problem(line_of("locations", location), (
                f"channel {channel} of {location} is out of range: the sensors have channels 0-{count - 1};"
                " fix the channel or `channels` under [sensors]")))
    return problems


def _channels_by_location(wiring: Wiring) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for channel, location in sorted(wiring.channels.items()):
        found.setdefault(location, []).append(channel)
    return found


def _led_problems(wiring: Wiring, line_of: LineOf) -> list[Problem]:
    problems = []
    owner: dict[tuple[int, int], str] = {}
    strips = wiring.strip_lengths
    for location, leds in wiring.leds.items():
        for strip, index in leds:
            where = line_of("locations", location)
            if not 0 <= strip < len(strips):
                problems.append(Problem(where, (
                    f"{location}: strip {strip} does not exist; [leds] strips lists {len(strips)} strip(s),"
                    f" numbered from 0")))
            elif not 0 <= index < strips[strip]:
                problems.append(Problem(where, (
                    f"{location}: LED {index} is past the end of strip {strip}, which has {strips[strip]} LEDs"
                    " (numbered from 0); fix the index or the strip length under [leds]")))
            if (strip, index) in owner:
                problems.append(Problem(where, (
                    f"{location}: LED [{strip}, {index}] already lights {owner[strip, index]};"
                    " each LED lights one location")))
            owner.setdefault((strip, index), location)
    return problems


def _calibration_problems(wiring: Wiring, line_of: LineOf) -> list[Problem]:
    if wiring.sensing != "analog":
        return [Problem(line_of("calibration"), "calibration is only for analog sensors; remove [calibration]"
                        " or set kind = \"analog\" under [sensors]")] if wiring.calibration else []
    problems = []
    if not wiring.piece_classes:
        problems.append(Problem(line_of("piece_classes"), (
            "analog sensors need [piece_classes]: each piece code with the class its magnet reads,"
            " e.g. black = \"north\"")))
    classes = set(wiring.classes)
    for channel, location in sorted(wiring.channels.items()):
        if channel not in wiring.calibration:
            problems.append(Problem(line_of("locations", location), (
                f"channel {channel} ({location}) has no calibration; add it under [calibration]"
                " or run `gameboard calibrate`")))
    for channel, calibration in sorted(wiring.calibration.items()):
        where = line_of("calibration", str(channel))
        if channel not in wiring.channels:
            problems.append(Problem(where, f"channel {channel} is calibrated but reads no location; remove the line"))
        missing = classes - {band.name for band in calibration.bands}
        if missing:
            problems.append(Problem(where, (
                f"channel {channel} has no band for {', '.join(sorted(missing))}; add `CLASS = [low, high]`")))
        problems += [Problem(where, f"channel {channel}: {message}") for message in band_order_problems(calibration)]
    return problems


def band_order_problems(calibration: ChannelCalibration) -> list[str]:
    """Why a channel's bands cannot classify a reading unambiguously (empty when they can)."""
    messages = []
    for band in calibration.bands:
        if not band.low < band.high:
            messages.append(f"{band.name} = [{band.low:g}, {band.high:g}] must be [low, high] with low < high")
        elif band.low <= calibration.baseline <= band.high:
            messages.append(f"{band.name} = [{band.low:g}, {band.high:g}] contains the empty baseline"
                            f" {calibration.baseline:g}; an empty location would read as {band.name}")
    ordered = sorted((b for b in calibration.bands if b.low < b.high), key=lambda b: b.low)
    for lower, upper in zip(ordered, ordered[1:]):
        if upper.low <= lower.high:
            messages.append(f"{lower.name} = [{lower.low:g}, {lower.high:g}] and {upper.name} = "
                            f"[{upper.low:g}, {upper.high:g}] overlap; a threshold must separate them")
    return messages
