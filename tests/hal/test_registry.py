"""Drivers opened by name from configuration options, and what a machine without a Pi imports."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from engine.boards import load_board
from hal import registry
from hal.base import DriverOptionError
from hal.gpio_inputs import GpioSensors
from hal.mock_driver import shared_mock_board
from wiring.files import save_wiring
from wiring.model import Wiring, straight_wiring


def test_an_unknown_driver_lists_the_known_ones():
    with pytest.raises(DriverOptionError, match="no sensors driver 'hc595'; the drivers are: gpio, hc165") as raised:
        registry.open_sensors("hc595", {})
    assert raised.value.key == "driver"
    with pytest.raises(DriverOptionError, match="no LED driver 'dotstar'"):
        registry.open_leds("dotstar", {})
    with pytest.raises(DriverOptionError, match="no buttons driver 'serial'"):
        registry.open_buttons("serial", {})


@pytest.mark.parametrize(
    "target", [*registry.SENSOR_DRIVERS.values(), *registry.LED_DRIVERS.values(), *registry.BUTTON_DRIVERS.values()]
)
def test_every_registered_driver_reads_and_opens_with_its_options_listed(target):
    module, name = target.split(":")
    driver = getattr(importlib.import_module(module), name)
    assert callable(driver.from_options)
    assert "Options:" in driver.read_options.__doc__, f"{target}.read_options needs a docstring listing its options"


def test_drivers_open_by_name_with_their_options(mock_factory):
    sensors = registry.open_sensors("gpio", {"pins": [17, 27]})
    assert isinstance(sensors, GpioSensors) and sensors.channels == 2
    with pytest.raises(DriverOptionError, match="its options: debounce_ms, pins, pull_up") as raised:
        registry.open_buttons("gpio", {"pins": {"undo": 5}, "bounce": 0.1})
    assert raised.value.key == "bounce"


def test_mock_parts_opened_with_the_same_options_share_one_board():
    options = {"board": "squareoff", "seed": 3}
    sensors = registry.open_sensors("mock", options)
    leds = registry.open_leds("mock", options)
    buttons = registry.open_buttons("mock", options)
    board = shared_mock_board(options)
    assert board.sensors is sensors and board.leds is leds and board.buttons is buttons
    board.place("p1", "white")
    assert sensors.read().values[board.wiring.channel_of["p1"]] == 1
    assert shared_mock_board({"board": "squareoff", "seed": 4}) is not board


@pytest.mark.parametrize(
    ("options", "key", "message"),
    [
        ({}, "board", "needs this option"),
        ({"board": "chess"}, "board", "'chess' is not one of 'overpass'"),
        ({"board": "overpass", "noise": "loud"}, "noise", "one of 'none', 'realistic'"),
        ({"board": "overpass", "seed": -1}, "seed", "not a whole number from 0"),
    ],
)
def test_mock_options_are_checked(options, key, message):
    with pytest.raises(DriverOptionError, match=message) as raised:
        registry.open_sensors("mock", options)
    assert raised.value.key == key


def test_checking_options_finds_what_opening_would_and_opens_nothing():
    with pytest.raises(DriverOptionError, match="no sensors driver 'hc595'; the drivers are: gpio, hc165"):
        registry.check_options("sensors", "hc595", {})
    with pytest.raises(DriverOptionError, match="the mock driver needs this option, e.g. board = ") as raised:
        registry.check_options("leds", "mock", {})
    assert raised.value.key == "board"
    with pytest.raises(DriverOptionError, match=r"strips\[1\]\.length: the neopixel_spi driver needs") as raised:
        registry.check_options("leds", "neopixel_spi", {"strips": [{"length": 3}, {"clock": "SCK_1"}]})
    assert raised.value.key == "strips"
    # Opening would wait for a co-processor on this port and fail; checking only reads the options.
    assert registry.check_options("sensors", "serial", {"port": "/dev/ttyNONE"}) is None


def test_the_hal_imports_no_pi_only_library_until_a_driver_needs_it():
    code = (
        "import sys, hal.registry, hal.mock, hal.mock_driver, hal.dice\n"
        "hal.registry.open_sensors('mock', {'board': 'overpass'})\n"
        "hal.registry.check_options('leds', 'neopixel', {'strips': [{'pin': 'D18', 'length': 3}]})\n"
        "hal.registry.check_options('leds', 'neopixel_spi', {'strips': [{'length': 3}]})\n"
        "pi_only = {'RPi', 'lgpio', 'spidev', 'rpi_ws281x', 'board', 'neopixel', 'neopixel_spi', 'busio'}\n"
        "print(sorted(pi_only & set(sys.modules)))\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert found.strip() == "[]"


def test_a_mock_board_can_follow_a_wiring_file(tmp_path):
    path = tmp_path / "wiring.toml"
    straight = straight_wiring(load_board("squareoff"))
    last = len(straight.channels) - 1
    reversed_channels = {last - channel: location for channel, location in straight.channels.items()}
    save_wiring(path, Wiring(**{**vars(straight), "channels": reversed_channels}))
    options = {"board": "squareoff", "wiring": str(path)}
    sensors = registry.open_sensors("mock", options)
    shared_mock_board(options).place(straight.channels[0], "white")
    assert sensors.read().values[last] == 1 and sum(sensors.read().values) == 1
    with pytest.raises(DriverOptionError, match="wires board 'squareoff', not 'overpass'; give board = 'squareoff'"):
        registry.open_sensors("mock", {"board": "overpass", "wiring": str(path)})
