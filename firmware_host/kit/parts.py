"""The bill of materials of a board built for a game: every count from the board's places and the game's pieces.

What each part is, how many inputs a chip reads and what draws how much current are the
parts' own figures (``parts.toml``); how many of each a board needs follows from its
locations (a sensor and LEDs at each), the game's piece set (a magnet a piece), the
front-end chosen and the current budget.  The chips, the strips and the wire come from the
same plan ``gameboard board route`` prints (``wiring.kit.plan``: the board at its size, the
route, the chain), so the list buys what the route lays.  ``gameboard board parts`` prints it.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.board import Board
from engine.core import Game
from firmware_host.kit.data import part_data
from hal.base import BUTTONS
from wiring.kit.data import FrontEnd, KitError, board_kit, front_end, front_end_names
from wiring.kit.layout import Layout, checked_layout
from wiring.kit.plan import Plan, max_strip_leds
from wiring.kit.routes import split_even


@dataclass(frozen=True)
class Kit:
    """What a builder chose: the board, the game, the sensors, the front-end, the LEDs, the size."""

    board: Board
    game: Game
    sensors: str = "reed"
    front_end: str = "hc165"
    leds_per_place: int = 1
    density: int = 60  # LEDs a metre of the strip the LEDs are cut from
    budget_ma: float | None = None
    layout: Layout | None = None  # the board at its size (`board template`'s); None: the board's default size

    @property
    def places(self) -> int:
        return len(self.board.locations)

    @property
    def sensing(self) -> str:
        return part_data()["sensors"][self.sensors]["kind"]

    @property
    def host(self) -> str:
        """What the sensor chips and the strips answer to: "pi" or "pico"."""
        return part_data()["front_ends"][self.front_end]["host"]

    @property
    def chain(self) -> FrontEnd:
        """The chips that read the sensors, as ``board route`` numbers them."""
        return front_end(self.front_end, self.sensing)

    @cached_property
    def plan(self) -> Plan:
        """The route the strips and the sensor chain follow, at the board's size: the wire is counted along it."""
        layout = self.layout or checked_layout(self.board, board_kit(self.board.name))
        return Plan(layout, self.chain)

    @property
    def size_mm(self) -> float:
        """The outline's longer side, margins included (what --size gives)."""
        return self.plan.layout.size


@dataclass(frozen=True)
class Line:
    """One row of the bill: the part, how many, and how the count follows from the board and the game."""

    item: str
    part: str
    quantity: float
    unit: str
    why: str


@dataclass
class Bill:
    """The rows, and the figures they were counted from (places, chips, strips, currents...)."""

    kit: Kit
    lines: list[Line] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def add(self, item: str, part: str, quantity: float, why: str, unit: str = "pcs") -> None:
        if quantity:
            self.lines.append(Line(item, part, quantity, unit, why))

    def quantity(self, item: str) -> float:
        """The total of the rows of ``item`` (0 when the bill has none)."""
        return sum(line.quantity for line in self.lines if line.item == item)


def bill_of_materials(kit: Kit) -> Bill:
    """Everything to buy to build ``kit``'s board for its game."""
    check_kit(kit)
    bill = Bill(kit)
    bill.figures.update(places=kit.places, board=kit.board.name, game=kit.game.name, size_mm=round(kit.size_mm, 1))
    _controller(bill)
    _sensing(bill)
    _pieces(bill)
    _leds(bill)
    _power(bill)
    _buttons_and_wire(bill)
    return bill


def check_kit(kit: Kit) -> None:
    """Refuse a front-end that cannot read these sensors or this many places, naming the fix."""
    data = part_data()
    if kit.front_end not in front_end_names():
        raise KitError(f"--front-end {kit.front_end}: no such front-end; they are {', '.join(front_end_names())}")
    kinds = _kinds(kit.front_end)
    if kit.sensing not in kinds:
        fits = [name for name in front_end_names() if kit.sensing in _kinds(name)]
        sensors = [name for name, sensor in data["sensors"].items() if sensor["kind"] in kinds]
        raise KitError(f"--front-end {kit.front_end} reads {' or '.join(kinds)} sensors, and --sensors "
                       f"{kit.sensors} are {kit.sensing}: choose --front-end {' or '.join(fits)}, or --sensors "
                       f"{' or '.join(sensors)}")
    most = _most_channels(kit.chain)
    if kit.places > most:
        fits = [name for name in front_end_names() if kit.sensing in _kinds(name)
                and _most_channels(front_end(name, kit.sensing)) >= kit.places]
        raise KitError(f"--front-end {kit.front_end} reads at most {most} sensors and the {kit.board.name} board has "
                       f"{kit.places} places: choose --front-end {' or '.join(fits)}")


def _kinds(name: str) -> list[str]:
    """The sensing a front-end reads (kit.json): presence, analog, or both (the Pico)."""
    return [kind for kind in ("presence", "analog") if _reads(name, kind)]


def _reads(name: str, kind: str) -> bool:
    try:
        front_end(name, kind)
    except KitError:
        return False
    return True


def _most_channels(chain: FrontEnd) -> int:
    return chain.per_chip * chain.max_chips


def _controller(bill: Bill) -> None:
    controller = part_data()["controller"]
    bill.add("controller", controller["pi"]["part"], 1, "runs the daemon")
    bill.add("controller", controller["pi"]["supply"], 1, "the Pi's own supply")
    if bill.kit.host == "pico":
        bill.add("co-processor", controller["pico"]["part"], 1, "scans the sensors and drives the strips")
        bill.add("co-processor", controller["pico"]["cable"], 1, "the serial link, and the Pico's power")


def _sensing(bill: Bill) -> None:
    kit, data = bill.kit, part_data()
    sensor, front = data["sensors"][kit.sensors], data["front_ends"][kit.front_end]
    bill.add("sensors", sensor["part"], kit.places, f"one under each of the board's {kit.places} places")
    analog_pico = kit.host == "pico" and kit.sensing == "analog"
    chip = front["analog_chip"] if analog_pico else front["chip"]
    plan, inputs = kit.plan, kit.chain.per_chip
    chips = plan.chips if kit.chain.whole_chips else 0
    bill.figures.update(chips=chips, inputs_per_chip=inputs, channels=plan.channels)
    bill.add("front-end", chip, chips, f"{inputs} inputs each: {kit.places} places / {inputs}, rounded up"
             + (f" ({plan.channels - kit.places} spare inputs)" if plan.channels > kit.places else ""))
    if front["pull_up"] and not analog_pico:
        bill.add("resistors", data["parts"]["pull_up"], kit.places, "one on each sensor's input")
    bypass = kit.places if sensor["bypass"] else 0
    shifters = math.ceil(_strip_count(kit) / data["leds"]["level_shifter_channels"])
    decoupling = chips + bypass + shifters
    bill.add("capacitors", data["parts"]["decoupling"], decoupling,
             f"{chips} chips + {shifters} level shifter" + (f" + {bypass} sensors" if bypass else ""))
    sensor_ma = kit.places * sensor["ma"] + chips * (front["analog_ma"] if analog_pico else front["ma"])
    rail = data["controller"][kit.host]["rail_3v3_ma"]
    bill.figures.update(sensor_ma=round(sensor_ma, 1), rail_3v3_ma=rail)
    if sensor_ma > rail:
        bill.add("power", data["regulator"]["part"], 1,
                 f"the sensors and chips draw {sensor_ma:.0f} mA, more than the {kit.host}'s 3.3 V pin's {rail} mA")


def _pieces(bill: Bill) -> None:
    kit, data = bill.kit, part_data()
    magnet = data["sensors"][kit.sensors]["magnet"]
    pieces = kit.game.piece_set()
    bill.figures["pieces"] = dict(pieces)
    for code, count in pieces.items():
        pieces_of = f"{code}s" if code == "disk" else f"{code} pieces"
        bill.add("magnets", f"{magnet} ({pieces_of})", count, f"one in each of the {count} {pieces_of} of "
                 f"{kit.game.title}")


def _strip_lengths(kit: Kit) -> list[int]:
    """The LEDs of each strip: the route cut as ``board route`` cuts it (with --leds N, N LEDs a place)."""
    count = kit.places * kit.leds_per_place
    return [len(strip) for strip in split_even([str(led) for led in range(count)], max_strip_leds(kit.host))]


def _strip_count(kit: Kit) -> int:
    return len(_strip_lengths(kit))


def _leds(bill: Bill) -> None:
    kit, data = bill.kit, part_data()
    leds = data["leds"]
    count = kit.places * kit.leds_per_place
    lengths = _strip_lengths(kit)
    strips = len(lengths)
    if kit.host == "pi" and strips > 2:
        raise KitError(f"{count} LEDs need {strips} strips of at most {max_strip_leds('pi')}, and the Pi "
                       "drives two (SPI0 and SPI1): choose --front-end serial (the Pico drives up to 8 strips) "
                       "or fewer --leds a place")
    metres = _rounded(count / kit.density, data["parts"]["strip_round_m"])
    bill.figures.update(leds=count, strips=lengths, strip_m=metres)
    bill.add("LEDs", f"{leds['part']}, {kit.density} LEDs/m, cut {kit.leds_per_place} LED a piece"
             if kit.leds_per_place == 1 else f"{leds['part']}, {kit.density} LEDs/m, cut in pieces of "
             f"{kit.leds_per_place}", metres,
             f"{count} LEDs ({kit.leds_per_place} at each of {kit.places} places) at {kit.density} a metre", "m")
    bill.add("LEDs", leds["level_shifter"], math.ceil(strips / leds["level_shifter_channels"]),
             f"{strips} strip(s), {leds['level_shifter_channels']} a chip")
    bill.add("resistors", leds["series_resistor"], strips, f"one a strip ({' + '.join(map(str, lengths))} LEDs)")
    bill.add("capacitors", leds["bulk_capacitor"], strips, "one a strip")


def _power(bill: Bill) -> None:
    kit, data = bill.kit, part_data()
    power = data["power"]
    full_white = bill.figures["leds"] * data["leds"]["ma_per_led"]
    budget = kit.budget_ma or min(full_white, power["budget_cap_ma"])
    amps = _next_size(budget / power["supply_share"] / 1000, power["supply_sizes_a"], "--budget")
    fuse = _next_size(amps * power["fuse_margin"], power["fuse_sizes_a"], "--budget")
    bill.figures.update(full_white_ma=full_white, budget_ma=budget, supply_a=amps, fuse_a=fuse)
    bill.add("power", f"{power['supply']}, {amps:g} A", 1,
             f"current_budget_ma = {budget:.0f} is at most {power['supply_share']:.0%} of it "
             f"(all {bill.figures['leds']} LEDs at full white would draw {full_white / 1000:.1f} A)")
    bill.add("power", f"{power['fuse']}, {fuse:g} A", 1, f"at least {power['fuse_margin']:g} x the supply's {amps:g} A")


def _buttons_and_wire(bill: Bill) -> None:
    kit, data = bill.kit, part_data()
    parts = data["parts"]
    bill.add("buttons", parts["button"], len(BUTTONS), ", ".join(BUTTONS))
    plan, size = kit.plan, kit.size_mm
    lengths = bill.figures["strips"]
    feeds = sum(2 if length > data["leds"]["inject_over"] else 1 for length in lengths)
    power_m = _rounded(2 * feeds * size / 1000, parts["wire_round_m"])
    between_m = sum(stop.led_wire_mm for stop in plan.stops) / 1000
    leads_m = sum(stop.lead_mm for stop in plan.stops) / 1000
    bus_m = sum(plan.chip_links()) / 1000
    bus_wires = _bus_wires(kit)
    bill.figures.update(feeds=feeds, led_wire_m=round(between_m, 2), lead_m=round(leads_m, 2), bus_m=round(bus_m, 2),
                        sensor_wiring_m=round(leads_m + bus_m, 2), bus_wires=bus_wires)
    bill.add("wire", parts["power_wire"], power_m,
             f"{feeds} feed(s) of 5 V and ground, each about the board's {size:.0f} mm "
             f"(strips over {data['leds']['inject_over']} LEDs fed at both ends)", "m")
    route = f"the {between_m:.2f} m to cut between LEDs (`gameboard board route` at {size:.0f} mm, its strip lines)"
    bill.add("wire", parts["chain_power_wire"], _rounded(2 * between_m, parts["wire_round_m"]),
             f"2 wires along {route}", "m")
    bill.add("wire", parts["chain_wire"], _rounded(between_m, parts["wire_round_m"]), f"1 wire along {route}", "m")
    bus = f" + {bus_wires} wires along the {bus_m:.2f} m of bus between chips" if bus_m else ""
    leads = data["sensors"][kit.sensors]["leads"]
    bill.add("wire", parts["sensor_wire"], _rounded(leads * leads_m + bus_wires * bus_m, parts["wire_round_m"]),
             f"{leads} wires along the {leads_m:.2f} m of leads from the sensors to their chips{bus} (`board route`'s "
             f"sensor wiring: {leads_m + bus_m:.2f} m)", "m")


def _bus_wires(kit: Kit) -> int:
    """The wires a link from one chip to the next carries (parts.toml's bus_wires)."""
    front = part_data()["front_ends"][kit.front_end]
    return front["analog_bus_wires"] if kit.host == "pico" and kit.sensing == "analog" else front["bus_wires"]


def _next_size(value: float, sizes: list[float], option: str) -> float:
    for size in sizes:
        if size >= value - 1e-9:
            return size
    raise KitError(f"{value:.1f} A is more than the largest size in the part data ({sizes[-1]} A): "
                   f"give a smaller {option}")


def _rounded(value: float, step: float) -> float:
    return round(math.ceil(value / step - 1e-9) * step, 3)


COLUMNS = ("item", "part", "quantity", "unit", "why")


def markdown(bill: Bill) -> str:
    """The bill as a Markdown table, under a line saying what it is for."""
    kit = bill.kit
    head = (f"# Parts: {kit.board.title} for {kit.game.title}\n\n{kit.places} places, {kit.sensors} sensors, "
            f"{kit.front_end} front-end, {kit.leds_per_place} LED a place, {kit.size_mm:.0f} mm (the outline's longer "
            f"side, as `gameboard board template --size` draws it).\n\n")
    rows = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    rows += [f"| {line.item} | {line.part} | {line.quantity:g} | {line.unit} | {line.why} |" for line in bill.lines]
    return head + "\n".join(rows) + "\n"


def csv_text(bill: Bill) -> str:
    """The bill as CSV with a header row, for a spreadsheet or a shop's basket."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for line in bill.lines:
        writer.writerow((line.item, line.part, f"{line.quantity:g}", line.unit, line.why))
    return out.getvalue()
