"""The wiring diagram of a kit as SVG: the Pi's (and the Pico's) pins, wired to the chips, the strips and the buttons.

Drawn from the same bill as the parts list (how many chips, which strips) and the pins of
the default configuration (``parts.toml``, checked against the drivers by the tests).  Each
pin a wire leaves from is a group with ``data-host`` and ``data-gpio``, so a test (or a
person with a browser's inspector) reads exactly which pins the drawing asks for.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from html import escape
from typing import Any

from firmware_host.kit.data import part_data
from firmware_host.kit.parts import Bill
from firmware_host.kit.pico import multiplexer_pins
from hal.base import BUTTONS

ROW = 22
HOST_X, HOST_W = 20, 250
PART_X = 520
WIDTH = 1100
CHAIN_H = 50
NOTE_CHARS = 84  # a note's line, in characters, to stay in its box


@dataclass(frozen=True)
class Net:
    """One wire: from a pin of the Pi or the Pico to what it reaches."""

    host: str  # "pi" or "pico"
    pin: int | str  # a GPIO number, or a supply pin's name ("3V3", "GND", "USB")
    signal: str
    to: str


@dataclass(frozen=True)
class Block:
    """A part on the right and the wires reaching it, with lines saying how it is built inside."""

    title: str
    nets: list[Net]
    notes: list[str]
    chain: tuple[str, ...] = ()  # parts in a row, each fed by the next (a shift-register chain), drawn as boxes


def schematic_svg(bill: Bill) -> str:
    """The kit's wiring diagram: a block a part, each with the host pins wired to it."""
    blocks = [*sensor_blocks(bill), *led_blocks(bill), button_block(), power_block(bill)]
    return _draw(bill, blocks)


# -- what is wired to what ----------------------------------------------------------------------

def sensor_blocks(bill: Bill) -> list[Block]:
    kit, data = bill.kit, part_data()
    pi, pico, pinout = data["pins"]["pi"], data["pins"]["pico"], data["pinout"]
    chips, places = bill.figures["chips"], kit.places
    sensor = data["sensors"][kit.sensors]["part"].split(",")[0].lower()
    pull = ", a 10 kOhm pull-up to 3.3 V" if data["front_ends"][kit.front_end]["pull_up"] else ""
    if kit.front_end == "gpio":
        nets = [Net("pi", pin, f"sensor {n}", f"{sensor} {n} (channel {n}), its other leg to GND")
                for n, pin in enumerate(pi["free"][:places])]
        return [Block(f"{places} sensors on the Pi's pins", nets, ["internal pull-ups: a piece pulls its pin low"])]
    if kit.front_end == "hc165":
        return [Block(f"74HC165 chain: {chips} chips", _hc165_nets("pi", pi["spi0"]["sclk"], pi["spi0"]["miso"],
                                                                    pi["load"], pi["spi0"]["ce0"]),
                      _chain_notes(chips, pinout["hc165"], sensor, pull), _chain(chips, 8))]
    if kit.front_end == "mcp23017":
        chip = pinout["mcp23017"]
        nets = [Net("pi", pi["i2c"]["sda"], "SDA", f"SDA (pin {chip['SDA']}) of every chip"),
                Net("pi", pi["i2c"]["scl"], "SCL", f"SCL (pin {chip['SCL']}) of every chip")]
        addresses = ", ".join(f"chip {k}: 0x{address:02X}" for k, address in enumerate(data["addresses"]["mcp23017"][:chips]))
        return [Block(f"MCP23017 expanders: {chips} chips", nets, [
            f"{chip['address']} set each address: {addresses} (the config's addresses, in channel order)",
            f"RESET (pin {chip['RESET']}) to 3.3 V; channel 16 k + n is pin n of chip k",
            f"each input: {chip['inputs']} to a {sensor}, its other leg to GND (internal pull-ups)"])]
    if kit.front_end == "mcp3008":
        chip, spi = pinout["mcp3008"], pi["spi0"]
        selects = [*pi["mcp3008_select"], *[pin for pin in (7,) if pin not in pi["mcp3008_select"]]][:chips]
        nets = [Net("pi", spi["sclk"], "SCLK", f"CLK (pin {chip['CLK']}) of every chip"),
                Net("pi", spi["mosi"], "MOSI", f"DIN (pin {chip['DIN']}) of every chip"),
                Net("pi", spi["miso"], "MISO", f"DOUT (pin {chip['DOUT']}) of every chip")]
        nets += [Net("pi", pin, f"select {k}", f"/CS (pin {chip['/CS']}) of chip {k}") for k, pin in enumerate(selects)]
        return [Block(f"MCP3008 ADCs: {chips} chips", nets, [
            f"VDD (pin {chip['VDD']}) and VREF (pin {chip['VREF']}) to 3.3 V, GND (pins {chip['GND']})",
            f"{chip['inputs']}: a {sensor}'s output each; select_pins = {selects} in the configuration"])]
    if kit.front_end == "ads1115":
        nets = [Net("pi", pi["i2c"]["sda"], "SDA", "SDA of every ADS1115"),
                Net("pi", pi["i2c"]["scl"], "SCL", "SCL of every ADS1115")]
        ties = ("GND", "VDD", "SDA", "SCL")
        addresses = ", ".join(f"chip {k}: ADDR to {ties[k]} (0x{address:02X})"
                              for k, address in enumerate(data["addresses"]["ads1115"][:chips]))
        return [Block(f"ADS1115 ADCs: {chips} chips", nets, [addresses, f"AIN0-AIN3: a {sensor}'s output each"])]
    return _pico_blocks(bill, sensor, pull)


def _hc165_nets(host: str, sck: int, miso: int, load: int, ce: int | None) -> list[Net]:
    chip = part_data()["pinout"]["hc165"]
    nets = [Net(host, sck, "SCK", f"CP (pin {chip['CP']}) of every chip"),
            Net(host, miso, "MISO", f"Q7 (pin {chip['Q7']}) of chip 0"),
            Net(host, load, "load", f"/PL (pin {chip['/PL']}) of every chip")]
    if ce is not None:
        nets.append(Net(host, ce, "CE0", f"/CE (pin {chip['/CE']}) of every chip"))
    return nets


def _chain(chips: int, inputs: int) -> tuple[str, ...]:
    """The chain's boxes from the one read first (its Q7 on MISO): the first three and the last."""
    shown = [*range(min(chips, 3)), *([chips - 1] if chips > 3 else [])]
    return tuple(f"chip {k}: ch {inputs * k}-{inputs * k + inputs - 1}" for k in shown)


def _chain_notes(chips: int, chip: dict[str, Any], sensor: str, pull: str) -> list[str]:
    shown = " -> ".join(f"chip {k}" for k in range(min(chips, 3))) + (" -> ... -> " + f"chip {chips - 1}"
                                                                      if chips > 3 else "")
    return [f"chain: {shown}: each chip's DS (pin {chip['DS']}) to the next chip's Q7, the last chip's DS to GND",
            f"VCC (pin {chip['VCC']}) to 3.3 V, GND (pin {chip['GND']}); 100 nF beside each chip",
            f"inputs {chip['inputs']}: channel 8 k + n is input Dn of chip k; each a {sensor} to GND{pull}"]


def _pico_blocks(bill: Bill, sensor: str, pull: str) -> list[Block]:
    kit, data = bill.kit, part_data()
    pico, chips = data["pins"]["pico"], bill.figures["chips"]
    link = Block("Raspberry Pi Pico (the co-processor)",
                 [Net("pi", "USB", "USB", "the Pico's micro-USB: the serial link, and its 5 V (VBUS)")],
                 ['[sensors] driver = "serial" and [leds] driver = "serial", port = the Pico\'s /dev/serial/by-id/...',
                  "its gameboard.json names the pins below (docs/firmware.md)"])
    if kit.sensing == "presence":
        hc165 = pico["hc165"]
        chain = Block(f"74HC165 chain on the Pico: {chips} chips",
                      _hc165_nets("pico", hc165["sck"], hc165["miso"], hc165["load"], None),
                      [f"/CE (pin {data['pinout']['hc165']['/CE']}) of every chip to GND",
                       *_chain_notes(chips, data["pinout"]["hc165"], sensor, pull)], _chain(chips, 8))
        return [link, chain]
    mux = pico["hall_mux"]
    wired = multiplexer_pins(chips)  # the same pins `board route --pico` writes in the Pico's settings
    nets = [Net("pico", pin, f"S{k}", f"S{k} of every multiplexer") for k, pin in enumerate(mux["select"])]
    nets += [Net("pico", pins["enable"], f"enable {k}", f"/EN of multiplexer {k}") for k, pins in enumerate(wired)]
    adcs = sorted({pins["adc"] for pins in wired})
    nets += [Net("pico", adc, f"ADC {adc - 26}", "SIG of multiplexers " + ", ".join(
        str(k) for k, pins in enumerate(wired) if pins["adc"] == adc)) for adc in adcs]
    return [link, Block(f"CD74HC4067 multiplexers on the Pico: {chips}", nets, [
        f"C0-C15: a {sensor}'s output each; channel 16 k + n is input Cn of multiplexer k",
        "VCC to the Pico's 3.3 V, GND; 100 nF beside each multiplexer and each sensor"])]


def led_blocks(bill: Bill) -> list[Block]:
    kit, data = bill.kit, part_data()
    pins = data["pins"]
    lengths = bill.figures["strips"]
    data_pins = [pins["pi"]["led_data"], pins["pi"]["led_data_spi1"]] if kit.host == "pi" else [pins["pico"]["strip"]]
    shifter = data["pinout"]["ahct125"]
    nets = [Net(kit.host, data_pins[n], f"strip {n} data", f"74AHCT125 gate {n + 1}A; its {n + 1}Y through 330 Ohm "
                f"to strip {n}'s DIN ({length} LEDs)") for n, length in enumerate(lengths[:len(data_pins)])]
    notes = [f"74AHCT125: VCC (pin {shifter['VCC']}) to the LED supply's 5 V, GND (pin {shifter['GND']}), "
             "each used gate's /OE to GND",
             "1000 uF across 5 V and GND at each strip's start"]
    inject = data["leds"]["inject_over"]
    notes += [f"strip {n}: {length} LEDs, 5 V and GND fed at its start" + (" and its end" if length > inject else "")
              for n, length in enumerate(lengths)]
    if kit.host == "pi" and len(lengths) > 1:
        notes.append('strip 1 on SPI1: dtoverlay=spi1-1cs, and strips = [{ length = ... }, { clock = "SCK_1", '
                     'data = "MOSI_1", length = ... }]')
    return [Block("LED strips (WS2812B)", nets, notes)]


def button_block() -> Block:
    buttons = part_data()["pins"]["pi"]["buttons"]
    nets = [Net("pi", buttons[name], name, f"the {name.replace('_', ' ')} button, its other leg to GND")
            for name in BUTTONS]
    return Block("Buttons", nets, ["internal pull-ups: a press pulls the pin low"])


def power_block(bill: Bill) -> Block:
    figures = bill.figures
    nets = [Net("pi", "GND", "GND", "the LED supply's GND, every chip's GND: one ground"),
            Net(bill.kit.host, "3V3", "3.3 V", "every chip's and sensor's supply (and each pull-up)")]
    notes = [f"LED supply: 5 V {figures['supply_a']:g} A -> {figures['fuse_a']:g} A fuse -> the strips' 5 V "
             f"(current_budget_ma = {figures['budget_ma']:.0f})",
             "the Pi keeps its own USB-C supply; never feed the strips from the Pi's 5 V pins"]
    if figures["sensor_ma"] > figures["rail_3v3_ma"]:
        notes.append(f"the sensors draw {figures['sensor_ma']:.0f} mA: feed them from a 3.3 V regulator on the LED "
                     "supply, its GND joined")
    return Block("Power", nets, notes)


# -- drawing -----------------------------------------------------------------------------

def _pin_name(net: Net) -> str:
    data = part_data()["pins"]
    if net.host == "pi":
        if isinstance(net.pin, int):
            return f"GPIO{net.pin} (pin {data['pi']['header'][str(net.pin)]})"
        return "USB" if net.pin == "USB" else f"{net.pin} (pin {data['pi']['power_header'][net.pin]})"
    if isinstance(net.pin, int):
        return f"GP{net.pin}"
    return data["pico"]["power"][net.pin]


def _chain_drawing(chain: tuple[str, ...], top: int) -> str:
    """Boxes in a row, MISO on the left: each box's DS takes the Q7 of the box to its right; the last DS is GND."""
    box_w, gap, middle = 90, 26, top + (CHAIN_H - 10) / 2
    parts = [f'<g class="chain"><text class="signal" x="{PART_X}" y="{middle - 6}">MISO</text>']
    x = PART_X + 44
    for n, label in enumerate(chain):
        if n == 3:  # the chips between the third and the last
            parts.append(f'<text x="{x - gap / 2 - 2}" y="{middle - 4}">...</text>')
            x += 20
        name, inputs = label.split(": ")
        parts.append(f'<line x1="{x - gap}" y1="{middle}" x2="{x}" y2="{middle}"/>'
                     f'<rect class="chip" x="{x}" y="{top}" width="{box_w}" height="{CHAIN_H - 10}"/>'
                     f'<text x="{x + 6}" y="{top + 15}">{escape(name)}</text>'
                     f'<text class="signal" x="{x + 6}" y="{top + 28}">{escape(inputs)}</text>'
                     f'<text class="signal" x="{x + 3}" y="{top + 37}" font-size="8">Q7</text>'
                     f'<text class="signal" x="{x + box_w - 14}" y="{top + 37}" font-size="8">DS</text>')
        x += box_w + gap
    parts.append(f'<line x1="{x - gap}" y1="{middle}" x2="{x - 8}" y2="{middle}"/>'
                 f'<text class="signal" x="{x - 6}" y="{middle + 4}">GND</text></g>')
    return "".join(parts)


def _draw(bill: Bill, blocks: list[Block]) -> str:
    kit = bill.kit
    body: list[str] = []
    y = 70
    for block in blocks:
        top = y
        body.append(f'<text class="title" x="{PART_X}" y="{y}">{escape(block.title)}</text>')
        y += 10
        for net in block.nets:
            y += ROW
            host_label = {"pi": "Pi", "pico": "Pico"}[net.host]
            body.append(f'<g class="pin" data-host="{net.host}" data-gpio="{net.pin}" data-signal="{escape(net.signal)}">'
                        f'<text x="{HOST_X + 8}" y="{y}">{host_label} {escape(_pin_name(net))}</text>'
                        f'<line x1="{HOST_X + HOST_W}" y1="{y - 4}" x2="{PART_X - 10}" y2="{y - 4}"/>'
                        f'<circle cx="{HOST_X + HOST_W}" cy="{y - 4}" r="3"/>'
                        f'<text class="signal" x="{HOST_X + HOST_W + 12}" y="{y - 8}">{escape(net.signal)}</text>'
                        f'<text x="{PART_X}" y="{y}">{escape(net.to)}</text></g>')
        for note in block.notes:
            for part in textwrap.wrap(note, NOTE_CHARS, subsequent_indent="    "):
                y += ROW
                body.append(f'<text class="note" x="{PART_X}" y="{y}">{escape(part)}</text>')
        if block.chain:
            y += 14
            body.append(_chain_drawing(block.chain, y))
            y += CHAIN_H
        body.append(f'<rect class="part" x="{PART_X - 10}" y="{top - 18}" width="{WIDTH - PART_X - 10}" '
                    f'height="{y - top + 26}"/>')
        y += 40
    height = y
    hosts = sorted({net.host for block in blocks for net in block.nets}, key=["pi", "pico"].index)
    host_boxes = "".join(f'<rect class="host" x="{HOST_X}" y="50" width="{HOST_W}" height="{height - 80}"/>'
                         if host == hosts[0] else "" for host in hosts)
    names = {"pi": "Raspberry Pi (40-pin header: BCM GPIO, header pin)", "pico": "and the Pico (GP numbers)"}
    caption = " ".join(names[host] for host in hosts)
    style = ("text{font:13px sans-serif}.title{font-weight:bold;font-size:15px}.note{fill:#444;font-style:italic}"
             ".signal{fill:#05a;font-size:11px}line{stroke:#05a;stroke-width:1.5}circle{fill:#05a}"
             ".part,.host{fill:none;stroke:#888}.chip{fill:#fff;stroke:#333}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}"><style>{style}</style>'
            f'<text class="title" x="{HOST_X}" y="24">{escape(kit.board.title)} for {escape(kit.game.title)}: '
            f'{kit.places} {escape(kit.sensors)} sensors, {escape(kit.front_end)} front-end</text>'
            f'<text class="note" x="{HOST_X}" y="42">{escape(caption)}</text>'
            f'{host_boxes}{"".join(body)}</svg>\n')
