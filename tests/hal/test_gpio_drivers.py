"""GPIO inputs, buttons and the 74HC165 chain on gpiozero's mock pins and mock SPI."""

from __future__ import annotations

import pytest

from hal.base import ButtonEvent, DriverOptionError, Scan
from hal.buttons import GpioButtons
from hal.clock import ManualClock
from hal.gpio_inputs import GpioSensors
from hal.hc165 import HC165Sensors

from .fake_chips import FakeHC165Chain


def test_gpio_sensors_read_a_closed_switch_to_ground_as_present(mock_factory):
    clock = ManualClock(5.0)
    sensors = GpioSensors([17, 27, 22], clock=clock)
    assert sensors.kind == "presence" and sensors.channels == 3
    assert sensors.read().values == (0, 0, 0)  # pulled up: nothing present
    mock_factory.pin(27).drive_low()
    assert sensors.read() == Scan((0, 1, 0), 5.0)
    sensors.close()


def test_gpio_sensors_without_pull_up_read_a_high_pin_as_present(mock_factory):
    sensors = GpioSensors.from_options({"pins": ["GPIO5", 6], "pull_up": False})
    mock_factory.pin(5).drive_high()
    assert sensors.read().values == (1, 0)


@pytest.mark.parametrize(
    ("options", "key", "message"),
    [
        ({}, "pins", "needs this option"),
        ({"pins": []}, "pins", "not a list of GPIO pins"),
        ({"pins": [17, 17]}, "pins", "17 listed more than once"),
        ({"pins": [17], "pullup": True}, "pullup", "no such option; its options: pins, pull_up"),
        ({"pins": [17], "pull_up": "yes"}, "pull_up", "not true or false"),
        ({"pins": ["GPIO99"]}, "pins", "GPIO99"),
    ],
)
def test_gpio_sensor_options_are_checked_with_the_key_and_fix(mock_factory, options, key, message):
    with pytest.raises(DriverOptionError, match=message) as raised:
        GpioSensors.from_options(options)
    assert raised.value.key == key


def test_a_failed_open_releases_the_pins_opened_before_it(mock_factory):
    with pytest.raises(DriverOptionError):
        GpioSensors.from_options({"pins": [17, "nonsense"]})
    GpioSensors.from_options({"pins": [17]})  # 17 was released


def test_buttons_queue_presses_made_between_collections(mock_factory):
    clock = ManualClock(1.0)
    buttons = GpioButtons({"confirm": 5, "undo": 6}, clock=clock)
    assert buttons.events() == []
    mock_factory.pin(6).drive_low()
    mock_factory.pin(6).drive_high()
    clock.advance(0.5)
    mock_factory.pin(5).drive_low()
    assert buttons.events() == [ButtonEvent("undo", 1.0), ButtonEvent("confirm", 1.5)]
    assert buttons.events() == []
    buttons.close()


def test_a_bouncing_contact_is_one_press(mock_factory):
    clock = ManualClock(1.0)
    buttons = GpioButtons({"undo": 6}, debounce=0.05, clock=clock)
    pin = mock_factory.pin(6)
    for _ in range(3):  # the contact chatters for a few milliseconds
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
    clock.advance(0.2)
    pin.drive_low()  # a second, real press
    events = buttons.events()
    assert [event.button for event in events] == ["undo", "undo"]
    assert [event.timestamp for event in events] == pytest.approx([1.0, 1.206])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"pins": {"reset": 5}}, "no reset here; the names are: end_turn"),
        ({"pins": {"undo": 5, "confirm": 5}}, "5 listed more than once"),
        ({"pins": [5, 6]}, "not a table of name = pin"),
    ],
)
def test_button_options_are_checked(mock_factory, options, message):
    with pytest.raises(DriverOptionError, match=message):
        GpioButtons.from_options(options)


def test_hc165_chain_latches_every_input_then_shifts_them_out(mock_factory):
    chain = FakeHC165Chain(mock_factory, chips=3)
    sensors = HC165Sensors.from_options({"chips": 3, "load_pin": 25})
    assert sensors.channels == 24
    assert sensors.read().values == (0,) * 24
    for channel in (0, 7, 9, 23):
        chain.levels[channel] = 0  # a sensor pulls its input low
    values = sensors.read().values
    assert [channel for channel, value in enumerate(values) if value] == [0, 7, 9, 23]
    assert chain.latches == 2  # one /PL pulse a scan
    sensors.close()


def test_hc165_active_high_inputs(mock_factory):
    chain = FakeHC165Chain(mock_factory, chips=1)
    chain.levels = [0, 1, 0, 0, 0, 0, 0, 1]
    sensors = HC165Sensors.from_options({"chips": 1, "active_low": False})
    assert sensors.read().values == (0, 1, 0, 0, 0, 0, 0, 1)


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({}, "chips"),
        ({"chips": 0}, "chips"),
        ({"chips": 2, "spi_device": 5}, "spi_device"),
        ({"chips": 2, "load_pin": 8}, "load_pin"),
    ],
)
def test_hc165_options_are_checked(mock_factory, options, key):
    with pytest.raises(DriverOptionError) as raised:
        HC165Sensors.from_options(options)
    assert raised.value.key == key
