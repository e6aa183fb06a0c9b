"""Drivers by name: the configuration picks one, the daemon never knows which.

Each name maps to "module:opener", and the module is imported only when that driver
is asked for, so a Pi-only library (spidev, rpi_ws281x, Blinka's board support) is
never imported on a machine whose configuration does not use it.  An opener (a
driver class's ``from_options``) checks the options (``DriverOptionError`` names the
key and the fix) before it touches any hardware; its docstring lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from hal.base import ButtonPanel, DriverOptionError, LedSink, SensorArray

SENSOR_DRIVERS: dict[str, str] = {
    "gpio": "hal.gpio_inputs:GpioSensors.from_options",
    "hc165": "hal.hc165:HC165Sensors.from_options",
    "mcp23017": "hal.mcp23017:MCP23017Sensors.from_options",
    "mcp3008": "hal.mcp3008:MCP3008Sensors.from_options",
    "ads1115": "hal.ads1115:ADS1115Sensors.from_options",
    "serial": "hal.serial_drivers:SerialSensors.from_options",
    "mock": "hal.mock_driver:open_mock_sensors",
}

LED_DRIVERS: dict[str, str] = {
    "neopixel": "hal.neopixel_strips:NeoPixelStrips.from_options",
    "neopixel_spi": "hal.neopixel_strips:NeoPixelStrips.from_spi_options",
    "serial": "hal.serial_drivers:SerialLeds.from_options",
    "mock": "hal.mock_driver:open_mock_leds",
}

BUTTON_DRIVERS: dict[str, str] = {
    "gpio": "hal.buttons:GpioButtons.from_options",
    "mock": "hal.mock_driver:open_mock_buttons",
}


def open_sensors(driver: str, options: Mapping[str, Any]) -> SensorArray:
    """The sensor array of driver ``driver`` (a key of ``SENSOR_DRIVERS``), opened with ``options``."""
    return _open("sensors", SENSOR_DRIVERS, driver, options)


def open_leds(driver: str, options: Mapping[str, Any]) -> LedSink:
    """The LED strips of driver ``driver`` (a key of ``LED_DRIVERS``), opened with ``options``."""
    return _open("LED", LED_DRIVERS, driver, options)


def open_buttons(driver: str, options: Mapping[str, Any]) -> ButtonPanel:
    """The buttons of driver ``driver`` (a key of ``BUTTON_DRIVERS``), opened with ``options``."""
    return _open("buttons", BUTTON_DRIVERS, driver, options)


def _open(kind: str, drivers: Mapping[str, str], driver: str, options: Mapping[str, Any]) -> Any:
    if driver not in drivers:
        raise DriverOptionError("driver", f"no {kind} driver {driver!r}; the drivers are: {', '.join(drivers)}")
    module, path = drivers[driver].split(":")
    opener: Any = import_module(module)
    for name in path.split("."):
        opener = getattr(opener, name)
    return opener(options)
