"""Opening gpiozero devices so that a wrong pin names the option to fix.

gpiozero reports a bad pin name or a pin used twice with its own exceptions; a
person editing the configuration needs the option's key and a fix instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from gpiozero import Device, GPIOPinInUse, GPIOZeroError, PinInvalidPin

from hal.base import DriverOptionError, HardwareError

D = TypeVar("D", bound=Device)


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
