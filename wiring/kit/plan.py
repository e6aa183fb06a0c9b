"""The wiring plan: the route's order as sensor channels and LED positions, and the wiring file it makes.

Every front-end numbers its channels chip by chip (channel ``per_chip * k + n`` is input
n of chip k: the hc165, mcp23017, mcp3008 and ads1115 drivers and the Pico's hall_mux
alike), so the k-th place along the route is channel k, on chip k // per_chip, input
k % per_chip.  LEDs follow the same route, cut into strips of at most
``max_strip_leds`` (the Pi's 165, the Pico's 1000).  Lengths are straight lines between drill centres (and from a
sensor to the middle of its chip's group) times the kit's slack, plus the ends to strip.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cached_property

from engine.geometry import Coord
from wiring.examples import LAYOUTS, example_wiring
from wiring.kit.data import FrontEnd, KitError, read_kit
from wiring.kit.drawing import Chip
from wiring.kit.layout import Layout
from wiring.kit.routes import path_length, route, split_even
from wiring.model import ChannelCalibration, Wiring

#: What reads more sensors than a front-end can, by the sensors' kind.
BIGGER = {"presence": "use hc165 (a 74HC165 chain, up to 512 sensors) or serial (a Pico's, up to 1024)",
          "analog": "use serial (Hall sensors through CD74HC4067s on the Pico co-processor, up to 496)"}


def max_strip_leds(host: str = "pi") -> int:
    """The longest strip ``host`` drives: on the Pi, the example wirings' (a neopixel_spi strip's one SPI write);
    on the Pico, its firmware's limit (kit.json's pico_strip_leds)."""
    if host == "pico":
        return int(read_kit()["pico_strip_leds"])
    return int(tomllib.loads(LAYOUTS.read_text(encoding="utf-8"))["max_strip_leds"])


@dataclass(frozen=True)
class Stop:
    """One place along the route: its sensor channel on the front-end and its LED on a strip."""

    place: str
    channel: int
    chip: int
    input: str
    strip: int
    index: int
    led_wire_mm: float  # from the LED before it on its strip (0 for a strip's first LED)
    lead_mm: float  # from the sensor to the middle of its chip's group


class Plan:
    """The route through ``layout``'s places as a wiring for ``front_end``."""

    def __init__(self, layout: Layout, front_end: FrontEnd, style: str | None = None) -> None:
        self.layout = layout
        self.front_end = front_end
        self.style = style or layout.kit.route
        board = layout.board
        places = len(board.locations)
        self.chips = math.ceil(places / front_end.per_chip)
        if self.chips > front_end.max_chips:
            most = front_end.max_chips * front_end.per_chip
            raise KitError(f"--front-end {front_end.name}: the {board.name} board's {places} places need {self.chips}"
                           f" {front_end.chip} chips of {front_end.per_chip} inputs, and the driver reads at most "
                           f"{front_end.max_chips} ({most} sensors); {BIGGER[front_end.sensing]}")
        points = {place: drill.xy for place, drill in layout.leds.items()}
        self.order = route(self.style, points, layout.spacing / 2)
        self.strips = split_even(self.order, max_strip_leds(front_end.host))

    @property
    def channels(self) -> int:
        """Channels the front-end reads: whole chips (spare inputs unmapped), or one pin a place."""
        per_chip = self.front_end.per_chip
        return self.chips * per_chip if self.front_end.whole_chips else len(self.order)

    def chip_centre(self, chip: int) -> Coord:
        """Where a chip sits: the middle of the sensors it reads."""
        group = self.order[chip * self.front_end.per_chip:(chip + 1) * self.front_end.per_chip]
        sensors = [self.layout.sensors[place].xy for place in group]
        return (sum(x for x, _ in sensors) / len(sensors), sum(y for _, y in sensors) / len(sensors))

    def cut(self, straight: float) -> float:
        """A wire's length to cut for a straight run: the slack for going round, the ends to strip."""
        return straight * self.layout.kit.slack + self.layout.kit.ends_mm

    @cached_property
    def stops(self) -> list[Stop]:
        per_chip = self.front_end.per_chip
        strip_of = {place: (number, index) for number, strip in enumerate(self.strips)
                    for index, place in enumerate(strip)}
        centres = [self.chip_centre(chip) for chip in range(self.chips)]
        stops = []
        for channel, place in enumerate(self.order):
            strip, index = strip_of[place]
            before = self.strips[strip][index - 1] if index else None
            led = self.layout.leds[place].xy
            wire = self.cut(math.dist(self.layout.leds[before].xy, led)) if before else 0.0
            chip, n = divmod(channel, per_chip)
            lead = math.dist(self.layout.sensors[place].xy, centres[chip])
            stops.append(Stop(place, channel, chip, self.front_end.input_name(n), strip, index, wire, self.cut(lead)))
        return stops

    def strip_length(self, strip: int) -> float:
        """The straight path through a strip's LEDs, mm."""
        return path_length([self.layout.leds[place].xy for place in self.strips[strip]])

    def chips_drawn(self) -> list[Chip]:
        """Each chip where the template draws it, with the channels it reads (none for the Pi's own pins)."""
        if not self.front_end.whole_chips:
            return []
        per_chip = self.front_end.per_chip
        return [Chip(self.chip_name(chip), f"ch {chip * per_chip}-{chip * per_chip + per_chip - 1}",
                     self.chip_centre(chip)) for chip in range(self.chips)]

    def chip_links(self) -> list[float]:
        """The cut length of the bus from each chip to the next (the chain's data, clock and load lines)."""
        centres = [self.chip_centre(chip) for chip in range(self.chips)]
        return [self.cut(math.dist(a, b)) for a, b in zip(centres, centres[1:])]

    def wiring(self) -> Wiring:
        """The wiring file a board built to this plan has: calibrate then confirms it."""
        board = self.layout.board
        wiring = Wiring(board=board.name, sensing=self.front_end.sensing,
                        channels={stop.channel: stop.place for stop in self.stops},
                        leds={stop.place: ((stop.strip, stop.index),) for stop in self.stops},
                        strip_lengths=tuple(len(strip) for strip in self.strips),
                        sensor_channels=self.channels)
        if self.front_end.sensing == "analog":
            example = example_wiring(board.name)
            nominal = next(iter(example.calibration.values()), None)
            if example.sensing != "analog" or nominal is None or not example.piece_classes:
                raise KitError(f"--front-end {self.front_end.name} reads analog Hall sensors, but "
                               f"wiring/examples/layouts.toml gives the {board.name} board no piece classes and "
                               f"nominal bands; use presence sensors (--sensors reed or hall) or add them there")
            wiring.piece_classes = dict(example.piece_classes)
            wiring.calibration = {channel: ChannelCalibration(nominal.baseline, nominal.bands)
                                  for channel in wiring.channels}
        return wiring

    def driver_line(self) -> str:
        """How the configuration names this front-end."""
        base = self.front_end.address or 0
        addresses = ", ".join(f"0x{base + chip:02X}" for chip in range(self.chips))
        return self.front_end.driver.format(chips=self.chips, channels=self.channels, addresses=addresses)

    def chip_name(self, chip: int) -> str:
        name = f"{self.front_end.chip} {chip}"
        if self.front_end.address is not None:
            name += f" (0x{self.front_end.address + chip:02X})"
        return name if self.front_end.max_chips > 1 else self.front_end.chip

    def report(self) -> str:
        """The plan for a person with a soldering iron: every place in route order, then the totals."""
        layout, fe = self.layout, self.front_end
        lines = [f"{layout.board.title} at {layout.size:.0f} mm ({layout.mm_per_unit:.2f} mm a unit), "
                 f"{self.style} route, {fe.chip} front-end: {self.driver_line()}",
                 "",
                 f"{'place':8} {'channel':>7}  {'chip':<22} {'input':<8} {'lead mm':>7}  {'LED':<9} {'wire mm':>7}"]
        for stop in self.stops:
            lines.append(f"{stop.place:8} {stop.channel:>7}  {self.chip_name(stop.chip):<22} {stop.input:<8} "
                         f"{stop.lead_mm:>7.0f}  {f'{stop.strip}:{stop.index}':<9} {stop.led_wire_mm:>7.0f}")
        lines.append("")
        for number, strip in enumerate(self.strips):
            wire = sum(stop.led_wire_mm for stop in self.stops if stop.strip == number)
            lines.append(f"strip {number}: {len(strip)} LEDs from {strip[0]} to {strip[-1]}, "
                         f"{self.strip_length(number) / 1000:.2f} m straight, {wire / 1000:.2f} m of wire to cut "
                         f"between LEDs")
        links = self.chip_links()
        for chip in range(self.chips):
            leads = [stop.lead_mm for stop in self.stops if stop.chip == chip]
            link = f"; {links[chip]:.0f} mm of bus on to the next" if chip < len(links) else ""
            lines.append(f"{self.chip_name(chip)}: {len(leads)} sensors, {sum(leads) / 1000:.2f} m of leads{link}")
        spare = self.channels - len(self.order)
        total = sum(stop.lead_mm for stop in self.stops) + sum(links)
        lines.append(f"sensor wiring: {total / 1000:.2f} m in all; {spare} spare channel(s) "
                     f"({', '.join(map(str, range(len(self.order), self.channels))) or 'none'})")
        return "\n".join(lines) + "\n"
