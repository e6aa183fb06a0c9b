"""The example wiring files, one per board, generated from ``layouts.toml``.

They document the file format with a real board each and give ``gameboard
calibrate`` the LED order to light locations before its LED step.  Regenerate them
with ``python -m wiring.examples``; a test keeps the files and this code in step.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

from engine.boards import load_board
from wiring.files import render_wiring
from wiring.model import ChannelCalibration, ClassBand, Wiring, straight_wiring

HERE = Path(__file__).parent
LAYOUTS = HERE / "layouts.toml"
NOTE = ("An example: channels and LEDs in the board's location order. `gameboard calibrate`\n"
        "writes the file for a real board; wiring/examples/layouts.toml says how this one is made.")


def example_path(board: str) -> Path:
    return HERE / f"{board}.toml"


def example_wiring(board: str) -> Wiring:
    """The example wiring of ``board``, as ``layouts.toml`` describes it."""
    layouts = tomllib.loads(LAYOUTS.read_text(encoding="utf-8"))
    layout = layouts["boards"][board]
    wiring = straight_wiring(load_board(board), layout["sensing"], layout.get("piece_classes"))
    lengths = _even_strips(len(wiring.leds), layouts["max_strip_leds"])
    places = [(strip, index) for strip, length in enumerate(lengths) for index in range(length)]
    wiring.leds = {location: (place,) for location, place in zip(wiring.leds, places)}
    wiring.strip_lengths = tuple(lengths)
    if "nominal" in layout:
        nominal = dict(layout["nominal"])
        baseline = float(nominal.pop("baseline"))
        bands = tuple(ClassBand(name, float(low), float(high)) for name, (low, high) in nominal.items())
        wiring.calibration = {channel: ChannelCalibration(baseline, bands) for channel in wiring.channels}
    return wiring


def _even_strips(leds: int, most: int) -> list[int]:
    """``leds`` split as evenly as possible over the fewest strips of at most ``most`` LEDs."""
    count = math.ceil(leds / most)
    size, extra = divmod(leds, count)
    return [size + (1 if strip < extra else 0) for strip in range(count)]


def example_text(board: str) -> str:
    return render_wiring(example_wiring(board), NOTE)


def write_examples() -> list[Path]:
    """Write every board's example file; returns the paths written."""
    layouts = tomllib.loads(LAYOUTS.read_text(encoding="utf-8"))
    written = []
    for board in layouts["boards"]:
        example_path(board).write_text(example_text(board), encoding="utf-8")
        written.append(example_path(board))
    return written
