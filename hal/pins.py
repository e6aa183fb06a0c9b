"""gpiozero's pins: the pin library chosen by name, and devices opened so that a wrong pin names its option.

gpiozero reports a bad pin name or a pin used twice with its own exceptions; a
person editing the configuration needs the option's key and a fix instead.  Which
library drives the pins (lgpio, RPi.GPIO, pigpio) is gpiozero's *pin factory*,
named as its ``gpiozero_pin_factories`` entry points name them, as
``GPIOZERO_PIN_FACTORY`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from importlib.metadata import EntryPoint, entry_points
from importlib.util import find_spec
from typing import TypeVar

from gpiozero import Device, GPIOPinInUse, GPIOZeroError, PinInvalidPin

from hal.base import DriverOptionError, HardwareError

D = TypeVar("D", bound=Device)

#: The library each of gpiozero's pin factories imports, and how to install it.
PIN_LIBRARIES = {
    "lgpio": ("lgpio", "pip install lgpio (on Raspberry Pi OS: apt install python3-lgpio)"),
    "rpigpio": ("RPi.GPIO", "pip install RPi.GPIO (Pi 1-4 only: on a Pi 5 use lgpio)"),
    "pigpio": ("pigpio", "pip install pigpio, and run the pigpiod daemon (Pi 1-4 only)"),
}


def _pin_factories() -> dict[str, EntryPoint]:
    return {entry.name: entry for entry in entry_points(group="gpiozero_pin_factories")}


def pin_factory_problem(name: str) -> str | None:
    """Why gpiozero cannot use the pin factory ``name`` here (None: it can), found without loading it."""
    factories = _pin_factories()
    if name not in factories:
        return (f"{name!r} is not one of gpiozero's pin factories ({', '.join(sorted(factories))}); "
                "or leave pin_factory out for gpiozero's own choice")
    library, install = PIN_LIBRARIES.get(name, (None, ""))
    if library is not None and not _installed(library):
        return f"the {name} pin factory needs the {library} library, which is not installed; {install}"
    return None


def _installed(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except ModuleNotFoundError:  # its parent package (RPi of RPi.GPIO) is missing
        return False


def use_pin_factory(name: str) -> None:
    """Make every gpiozero device from now on use the pin factory ``name``.

    Raises HardwareError when the library cannot be loaded or cannot reach the pins.
    """
    problem = pin_factory_problem(name)
    if problem:
        raise HardwareError(problem)
    try:
        Device.pin_factory = _pin_factories()[name].load()()
    except Exception as exc:  # each library fails its own way off a Pi (RuntimeError, OSError, lgpio.error)
        raise HardwareError(f"gpiozero's {name} pin factory cannot start here ({exc}); "
                            "use the one this Pi supports (docs/hardware.md), or leave pin_factory out") from None


@contextmanager
def opening(what: str, key: str) -> Iterator[None]:
    """Turn gpiozero's errors while opening ``what`` into errors that name ``key``."""
    try:
        yield
    except PinInvalidPin as exc:
        raise DriverOptionError(key, f"{exc}; use a BCM number such as 17 or a name such as 'GPIO17'") from None
    except GPIOPinInUse as exc:
        raise DriverOptionError(key, f"{exc}; give every device its own pins") from None
    except (GPIOZeroError, OSError) as exc:
        raise HardwareError(
            f"cannot open {what}: {exc}; on a Pi add the user to the gpio and spi groups, elsewhere use the mock driver"
        ) from None


def open_devices(what: str, key: str, make: Callable[[object], D], pins: Iterable[object]) -> list[D]:
    """One device per pin, all or none: if one fails, those opened before it are closed."""
    devices: list[D] = []
    try:
        with opening(what, key):
            for pin in pins:
                devices.append(make(pin))
    except BaseException:
        for device in devices:
            device.close()
        raise
    return devices
