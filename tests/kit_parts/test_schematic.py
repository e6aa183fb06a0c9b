"""The schematic asks for the pins the default configuration and the drivers use, read from them, not retyped."""

from __future__ import annotations

import json
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from gpiozero.pins.data import PI4_J8, SPI_HARDWARE_PINS

from engine.boards import load_board
from engine.registry import game_class
from firmware_host.cli import main
from firmware_host.config.settings import DRIVER_SETTINGS
from firmware_host.kit.data import part_data
from firmware_host.kit.parts import Kit, bill_of_materials
from firmware_host.kit.schematic import schematic_svg
from hal.base import BUTTONS
from hal.hc165 import HC165Sensors
from hal.mcp23017 import MCP23017Sensors
from hal.mcp3008 import MCP3008Sensors
from hal.neopixel_strips import NeoPixelSpiStrips

ROOT = Path(__file__).parents[2]
SPI0 = {signal: int(pin.removeprefix("GPIO")) for signal, pin in SPI_HARDWARE_PINS[0].items() if signal != "select"}
CE0 = int(SPI_HARDWARE_PINS[0]["select"][0].removeprefix("GPIO"))
DEFAULT_BUTTONS = tomllib.loads((ROOT / "systemd" / "gameboard.toml").read_text())["buttons"]["pins"]
PICO_HC165 = json.loads((ROOT / "firmware" / "examples" / "squareoff-hc165.json").read_text())
PICO_HALL = json.loads((ROOT / "firmware" / "examples" / "hexover-hall.json").read_text())


def pins_drawn(game: str, **choices) -> dict[tuple[str, str], int | str]:
    """(host, signal) -> the pin the schematic wires it to."""
    game_type = game_class(game)
    svg = schematic_svg(bill_of_materials(Kit(load_board(game_type.board_name), game_type(), **choices)))
    groups = ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g")
    drawn = {}
    for group in groups:
        if group.get("class") == "pin":
            pin = group.get("data-gpio")
            drawn[group.get("data-host"), group.get("data-signal")] = int(pin) if pin.isdigit() else pin
    return drawn


def test_the_part_data_pins_are_the_drivers_defaults() -> None:
    pi = part_data()["pins"]["pi"]
    assert pi["spi0"] == {"sclk": SPI0["clock"], "mosi": SPI0["mosi"], "miso": SPI0["miso"], "ce0": CE0}
    chips, load_pin, port, device, _ = HC165Sensors.read_options({"chips": 1})
    assert (pi["load"], port, device) == (load_pin, 0, 0)
    assert MCP3008Sensors.read_options({}) == pi["mcp3008_select"]
    assert MCP23017Sensors.read_options({})[0] == part_data()["addresses"]["mcp23017"][:1]
    assert pi["buttons"] == DEFAULT_BUTTONS
    assert part_data()["leds"]["ma_per_led"] == DRIVER_SETTINGS["leds"]["ma_per_led"].default
    header = PI4_J8[2]
    for gpio, number in pi["header"].items():
        assert header[number]["gpio"] == f"GPIO{gpio}", (gpio, number)
    pico = part_data()["pins"]["pico"]
    sensors = PICO_HC165["sensors"]
    assert pico["hc165"] == {"sck": sensors["sck"], "miso": sensors["miso"], "load": sensors["load"]}
    assert pico["strip"] == PICO_HC165["strips"][0]["pin"] == PICO_HALL["strips"][0]["pin"]
    hall = PICO_HALL["sensors"]
    assert pico["hall_mux"]["select"] == hall["select"]
    assert pico["hall_mux"]["enables"] == [mux["enable"] for mux in hall["muxes"]]


def test_neopixel_spi_sends_on_spi0_mosi_by_default() -> None:
    (clock, data, _, _), = NeoPixelSpiStrips.read_options({"strips": [{"length": 24}]})
    assert (clock, data) == ("SCK", "MOSI")  # Blinka's board.MOSI: SPI0's, GPIO10 on every Pi


def test_the_74hc165_schematic_wires_the_default_pins() -> None:
    drawn = pins_drawn("squareoff", front_end="hc165")
    assert drawn[("pi", "SCK")] == SPI0["clock"]
    assert drawn[("pi", "MISO")] == SPI0["miso"]
    assert drawn[("pi", "CE0")] == CE0
    assert drawn[("pi", "load")] == HC165Sensors.read_options({"chips": 3})[1]
    assert drawn[("pi", "strip 0 data")] == SPI0["mosi"]
    assert {name: drawn[("pi", name)] for name in BUTTONS} == DEFAULT_BUTTONS


def test_the_over_pass_schematic_has_a_second_strip_on_spi1() -> None:
    drawn = pins_drawn("overpass", front_end="hc165")
    assert (drawn[("pi", "strip 0 data")], drawn[("pi", "strip 1 data")]) == (10, 20)  # SPI0 MOSI, SPI1 MOSI


def test_the_mcp23017_schematic_uses_the_i2c_bus() -> None:
    drawn = pins_drawn("squareoff", front_end="mcp23017")
    assert (drawn[("pi", "SDA")], drawn[("pi", "SCL")]) == (2, 3)
    assert PI4_J8[2][3]["gpio"] == "GPIO2" and PI4_J8[2][5]["gpio"] == "GPIO3"


@pytest.mark.parametrize("game", ["overpass", "squareoff"])
def test_the_pico_schematic_wires_the_firmware_examples_pins(game: str) -> None:
    drawn = pins_drawn(game, front_end="serial")
    sensors = PICO_HC165["sensors"]
    assert {signal: drawn[("pico", signal)] for signal in ("SCK", "MISO", "load")} == {
        "SCK": sensors["sck"], "MISO": sensors["miso"], "load": sensors["load"]}
    assert drawn[("pico", "strip 0 data")] == PICO_HC165["strips"][0]["pin"]
    assert drawn[("pi", "USB")] == "USB"


def test_the_hall_multiplexer_schematic_wires_the_hexover_example() -> None:
    drawn = pins_drawn("hexover", sensors="hall-analog", front_end="serial")
    hall = PICO_HALL["sensors"]
    assert [drawn[("pico", f"S{k}")] for k in range(4)] == hall["select"]
    assert [drawn[("pico", f"enable {k}")] for k in range(4)] == [mux["enable"] for mux in hall["muxes"]]
    assert sorted(drawn[("pico", name)] for name in ("ADC 0", "ADC 1")) == sorted({mux["adc"] for mux in hall["muxes"]})


def test_the_command_writes_the_svg(tmp_path: Path) -> None:
    out = tmp_path / "schematic.svg"
    assert main(["board", "schematic", "overpass", "--front-end", "serial", "-o", str(out)]) == 0
    assert ET.parse(out).getroot().tag == "{http://www.w3.org/2000/svg}svg"
