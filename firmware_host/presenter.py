"""The LED presenter: what the tracker and the game say, as one colour per LED within a current budget.

Each location gets at most one colour, chosen by priority (a fix beats a candidate
beats a lifted piece beats a destination beats the last move beats the whose-turn
glow).  A fault flashes every LED in its colour, alternating with that picture: a
board that cannot see (amber), a journal that cannot be written (red).  The frame
is then dimmed by the brightness setting and, if the strips would still draw more
than the budget (a full-white WS2812 draws about 60 mA, 20 mA per colour channel),
scaled down so that it never does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from firmware_host.tracker import Status, TrackerView
from hal.base import RGB
from wiring.model import Wiring

#: What each colour means (docs/daemon.md shows the same table).
PALETTE: dict[str, RGB] = {
    "destination": (0, 200, 40),  # a legal move can end here
    "removal": (255, 110, 0),  # a piece the move takes off
    "lifted": (0, 150, 255),  # the piece in the hand came from here
    "last_move": (90, 0, 160),  # the last accepted move
    "candidate": (255, 200, 0),  # awaiting confirm (blinks)
    "selected": (255, 255, 255),  # the candidate confirm will make (blinks)
    "fix_from": (255, 0, 0),  # take the piece off here ...
    "fix_to": (255, 0, 170),  # ... and put one here
    "dice_first": (255, 255, 255),  # the first die's pips
    "dice_second": (0, 200, 200),  # the second die's pips
    "fault_sensors": (255, 90, 0),  # the board cannot see: the whole board flashes (with the picture between)
    "fault_journal": (255, 0, 0),  # the journal cannot be written: likewise
}
TURN_GLOW = 0.25  # the whose-turn glow: the mover's display colour at this fraction


@dataclass(frozen=True)
class Scene:
    """Everything the LEDs show at one moment."""

    view: TrackerView
    last_move: frozenset[str] = frozenset()
    turn_locations: frozenset[str] = frozenset()
    turn_colour: RGB = (0, 0, 0)
    dice: str = ""
    blink_on: bool = True
    #: A fault to flash over the whole board now ("sensors", "journal"), or "".
    fault: str = ""


def hex_colour(text: str) -> RGB:
    """'#c62828' -> (198, 40, 40)."""
    value = text.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


class Presenter:
    """Builds LED frames from scenes for one wiring."""

    def __init__(self, wiring: Wiring, brightness: float, budget_ma: float, ma_per_led: float,
                 dice_locations: Iterable[str] = ()) -> None:
        self.strip_lengths = tuple(wiring.strip_lengths)
        self.leds = {location: leds for location, leds in wiring.leds.items() if leds}
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.ma_per_unit = ma_per_led / (3 * 255)  # one colour channel at 255 draws a third of a full LED
        self.dice_locations = tuple(dice_locations)

    def colours(self, scene: Scene) -> dict[str, RGB]:
        """Location -> colour, before brightness and budget."""
        if scene.fault:
            return dict.fromkeys(self.leds, PALETTE[f"fault_{scene.fault}"])
        view = scene.view
        lit: dict[str, RGB] = {}
        glow = tuple(int(c * TURN_GLOW) for c in scene.turn_colour)
        if view.status is Status.READY:
            lit.update(dict.fromkeys(scene.turn_locations, glow))
            lit.update(dict.fromkeys(scene.last_move, PALETTE["last_move"]))
        lit.update(dict.fromkeys(view.removals, PALETTE["removal"]))
        lit.update(dict.fromkeys(view.destinations, PALETTE["destination"]))
        lit.update(dict.fromkeys(view.lifted, PALETTE["lifted"]))
        if view.status is Status.SETTLING:
            lit.update(dict.fromkeys((loc for loc, _ in view.candidates[0].reading), PALETTE["destination"]))
        if view.status is Status.CONFIRM and scene.blink_on:
            for index, plan in enumerate(view.candidates):
                if index != view.selected:
                    lit.update(dict.fromkeys(plan.locations, PALETTE["candidate"]))
            lit.update(dict.fromkeys(view.candidates[view.selected].locations, PALETTE["selected"]))
        for fix in view.fixes:
            if fix.source:
                lit[fix.source] = PALETTE["fix_from"]
            if fix.target:
                lit[fix.target] = PALETTE["fix_to"]
        lit.update(self._dice(scene.dice))
        return lit

    def _dice(self, roll: str) -> dict[str, RGB]:
        """Each die's pips as that many dice LEDs in a row, the first die white, the second cyan."""
        lit: dict[str, RGB] = {}
        slots = iter(self.dice_locations)
        for index, pips in enumerate(int(n) for n in re.findall(r"\d+", roll)):
            colour = PALETTE["dice_first" if index % 2 == 0 else "dice_second"]
            for _, location in zip(range(pips), slots):
                lit[location] = colour
        return lit

    def frame(self, colours: Mapping[str, RGB]) -> tuple[list[list[RGB]], float]:
        """The frame for the strips and the current it draws (mA), never above the budget."""
        scale = self.brightness
        total = sum(sum(colour) * len(self.leds.get(location, ())) for location, colour in colours.items())
        current = total * scale * self.ma_per_unit
        if current > self.budget_ma:
            scale *= self.budget_ma / current * (1 - 1e-9)  # the margin absorbs float rounding
        strips: list[list[RGB]] = [[(0, 0, 0)] * length for length in self.strip_lengths]
        drawn = 0
        for location, (r, g, b) in colours.items():
            dimmed = (int(r * scale), int(g * scale), int(b * scale))
            for strip, index in self.leds.get(location, ()):
                strips[strip][index] = dimmed
                drawn += sum(dimmed)
        return strips, drawn * self.ma_per_unit
