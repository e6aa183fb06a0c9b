"""Drivers by name: the configuration picks one, the daemon never knows which.

Each name maps to "module:driver", and the module is imported only when that driver
is asked for, so a Pi-only library (spidev, rpi_ws281x, Blinka's board support) is
never imported on a machine whose configuration does not use it.  A driver (a class,
or the mock board's parts) has ``read_options``, which checks the options
(``DriverOptionError`` names the key and the fix) and whose docstring lists them, and
``from_options``, which reads them the same way and then opens the hardware: so
``check_options`` finds every mistake that opening would, without opening anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any, Protocol

from hal.base import ButtonPanel, DriverOptionError, LedSink, SensorArray

SENSOR_DRIVERS: dict[str, str] = {
    "gpio": "hal.gpio_inputs:GpioSensors",
    "hc165": "hal.hc165:HC165Sensors",
    "mcp23017": "hal.mcp23017:MCP23017Sensors",
    "mcp3008": "hal.mcp3008:MCP3008Sensors",
    "ads1115": "hal.ads1115:ADS1115Sensors",
    "serial": "hal.serial_drivers:SerialSensors",
    "mock": "hal.mock_driver:MOCK_SENSORS",
}

LED_DRIVERS: dict[str, str] = {
    "neopixel": "hal.neopixel_strips:NeoPixelStrips",
    "neopixel_spi": "hal.neopixel_strips:NeoPixelSpiStrips",
    "serial": "hal.serial_drivers:SerialLeds",
    "mock": "hal.mock_driver:MOCK_LEDS",
}

BUTTON_DRIVERS: dict[str, str] = {
    "gpio": "hal.buttons:GpioButtons",
    "mock": "hal.mock_driver:MOCK_BUTTONS",
}

#: The drivers of each part, by the configuration section that names them.
DRIVERS: dict[str, dict[str, str]] = {"sensors": SENSOR_DRIVERS, "leds": LED_DRIVERS, "buttons": BUTTON_DRIVERS}

_KIND_NAMES = {"sensors": "sensors", "leds": "LED", "buttons": "buttons"}


class Driver(Protocol):
    """What every registered driver offers (see the module's docstring)."""

    def read_options(self, options: Mapping[str, Any]) -> object: ...

    def from_options(self, options: Mapping[str, Any]) -> Any: ...


def check_options(part: str, driver: str, options: Mapping[str, Any]) -> None:
    """Check that ``driver`` is one of ``part``'s ("sensors", "leds", "buttons") and takes ``options``.

    Opens nothing; raises what opening would (``DriverOptionError``).
    """
    find_driver(part, driver).read_options(options)


def open_sensors(driver: str, options: Mapping[str, Any]) -> SensorArray:
    """The sensor array of driver ``driver`` (a key of ``SENSOR_DRIVERS``), opened with ``options``."""
    return find_driver("sensors", driver).from_options(options)


def open_leds(driver: str, options: Mapping[str, Any]) -> LedSink:
    """The LED strips of driver ``driver`` (a key of ``LED_DRIVERS``), opened with ``options``."""
    return find_driver("leds", driver).from_options(options)


def open_buttons(driver: str, options: Mapping[str, Any]) -> ButtonPanel:
    """The buttons of driver ``driver`` (a key of ``BUTTON_DRIVERS``), opened with ``options``."""
    return find_driver("buttons", driver).from_options(options)


def find_driver(part: str, driver: str) -> Driver:
    """The driver called ``driver`` among ``part``'s, its module imported now."""
    drivers = DRIVERS[part]
    if driver not in drivers:
        raise DriverOptionError("driver", f"no {_KIND_NAMES[part]} driver {driver!r}; the drivers are: "
                                          f"{', '.join(drivers)}")
    module, name = drivers[driver].split(":")
    return getattr(import_module(module), name)
