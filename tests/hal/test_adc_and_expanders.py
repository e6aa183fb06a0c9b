"""MCP23017 and ADS1115 (Adafruit drivers on a fake I2C bus) and MCP3008 (gpiozero on mock SPI)."""

from __future__ import annotations

import pytest

from hal.ads1115 import ADS1115Sensors
from hal.base import DriverOptionError, HardwareError
from hal.mcp3008 import MCP3008Sensors
from hal.mcp23017 import MCP23017Sensors

from .fake_chips import FakeMCP3008
from .fake_i2c import FakeADS1115, FakeI2C, FakeMCP23017


def test_mcp23017_chips_turn_on_pull_ups_and_read_grounded_pins_as_present():
    first, second = FakeMCP23017(), FakeMCP23017()
    bus = FakeI2C({0x20: first, 0x23: second})
    sensors = MCP23017Sensors.from_options({"addresses": [0x20, 0x23]}, i2c=bus)
    assert sensors.kind == "presence" and sensors.channels == 32
    assert sum(sensors.read().values) == 0
    first.grounded = {0, 15}
    second.grounded = {8}
    values = sensors.read().values
    assert [channel for channel, value in enumerate(values) if value] == [0, 15, 24]


def test_mcp23017_without_pull_ups_relies_on_the_sensors_driving_high():
    chip = FakeMCP23017()
    sensors = MCP23017Sensors.from_options({"pull_up": False, "active_low": False}, i2c=FakeI2C({0x20: chip}))
    assert sum(sensors.read().values) == 0  # no pull-ups: nothing reads high


def test_a_missing_expander_names_its_address():
    with pytest.raises(HardwareError, match="no MCP23017 answers at I2C address 0x21"):
        MCP23017Sensors.from_options({"addresses": [0x20, 0x21]}, i2c=FakeI2C({0x20: FakeMCP23017()}))
    with pytest.raises(DriverOptionError, match=r"addresses: \[32, 64\] is not a list of whole numbers from 32 to 39"):
        MCP23017Sensors.from_options({"addresses": [0x20, 0x40]}, i2c=FakeI2C({}))


def test_ads1115_reads_each_input_single_ended_as_raw_counts():
    first, second = FakeADS1115(), FakeADS1115()
    first.volts = [1.65, 0.0, 3.3, 0.5]
    second.volts[3] = 2.048
    sensors = ADS1115Sensors.from_options({"addresses": [0x48, 0x49]}, i2c=FakeI2C({0x48: first, 0x49: second}))
    assert sensors.kind == "analog" and sensors.channels == 8
    values = sensors.read().values
    assert values[:4] == (13200, 0, 26400, 4000)  # gain 1: 4.096 V full scale
    assert values[7] == 16384
    assert first.conversions == 4


@pytest.mark.parametrize(
    ("options", "key", "message"),
    [
        ({"gain": 3}, "gain", "3 is not one the ADS1115 offers; use one of 0.6667, 1, 2, 4, 8, 16"),
        ({"data_rate": 100}, "data_rate", "use one of 8, 16, 32, 64, 128, 250, 475, 860"),
        ({"addresses": [0x48, 0x48]}, "addresses", "72 listed more than once"),
    ],
)
def test_ads1115_options_are_checked(options, key, message):
    with pytest.raises(DriverOptionError, match=message) as raised:
        ADS1115Sensors.from_options(options, i2c=FakeI2C({0x48: FakeADS1115()}))
    assert raised.value.key == key


def test_ads1115_two_thirds_gain_may_be_written_as_a_decimal():
    chip = FakeADS1115()
    chip.volts[0] = 6.144
    sensors = ADS1115Sensors.from_options({"gain": 0.6667}, i2c=FakeI2C({0x48: chip}))
    assert sensors.read().values[0] == 32767


def test_mcp3008_chips_on_two_chip_selects(mock_factory):
    first, second = FakeMCP3008(mock_factory, select_pin=8), FakeMCP3008(mock_factory, select_pin=7)
    first.values = [512, 0, 1023, 7, 8, 9, 10, 11]
    second.values = [300 + n for n in range(8)]
    sensors = MCP3008Sensors.from_options({"select_pins": [8, 7]})
    assert sensors.kind == "analog" and sensors.channels == 16
    assert sensors.read().values == (512, 0, 1023, 7, 8, 9, 10, 11, *range(300, 308))
    sensors.close()


def test_mcp3008_select_pin_errors_name_the_option(mock_factory):
    with pytest.raises(DriverOptionError) as raised:
        MCP3008Sensors.from_options({"select_pins": [8, "GPIO77"]})
    assert raised.value.key == "select_pins"
