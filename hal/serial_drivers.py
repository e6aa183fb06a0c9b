"""Sensors and LEDs behind the serial co-processor, sharing one link per port.

The co-processor (docs/serial-protocol.md) scans every sensor and may drive the LED
strips too: useful on a Pi 5, where rpi_ws281x does not run, and for boards with
more sensors than the Pi can scan itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hal.base import RGB, HardwareError, LedSink, Scan, SensorArray, SensorHealth
from hal.frames import checked_frame, dark_frame
from hal.options import DriverOptions
from hal.serial_link import SerialLink


class _SharedLink:
    """A link used by the sensors and the LEDs at once: closed when the last one lets go."""

    def __init__(self, link: SerialLink) -> None:
        self.link = link
        self.users = 0


#: Port -> its link while a driver uses it.
_LINKS: dict[str, _SharedLink] = {}


def read_link_options(options: Mapping[str, Any]) -> tuple[str, int, float, float, float]:
    """Options: ``port`` (required, e.g. "/dev/serial/by-id/usb-..." or "/dev/ttyAMA0"),
    ``baudrate`` (default 115200; ignored by USB serial), ``connect_timeout`` (seconds to
    wait for the first snapshot, default 3), ``retry_interval`` (seconds between attempts
    to reopen an unplugged port, default 0.5), ``silence_timeout`` (seconds without a
    frame, heartbeats included, before the link sends SYNC again, default 3).
    """
    read = DriverOptions("serial", options)
    settings = (read.text("port", example="/dev/ttyACM0"),
                read.integer("baudrate", 115200, low=1200, high=4_000_000, example="115200"),
                read.number("connect_timeout", 3.0, low=0.0, high=60.0, example="3"),
                read.number("retry_interval", 0.5, low=0.01, high=60.0, example="0.5"),
                read.number("silence_timeout", 3.0, low=0.05, high=600.0, example="3"))
    read.finish()
    return settings


def open_link(options: Mapping[str, Any]) -> SerialLink:
    """The ready link for these options (see ``read_link_options``), opened (or shared) and waited for.

    The sensors and the LEDs on one port share one link: the options of whichever opens
    it first apply.
    """
    port, baudrate, timeout, retry, silence = read_link_options(options)
    shared = _LINKS.get(port)
    if shared is None:
        shared = _SharedLink(SerialLink(port, baudrate=baudrate, retry_interval=retry, silence_timeout=silence))
        _LINKS[port] = shared
    if not shared.link.wait_ready(timeout):
        if not shared.users:
            shared.link.close()
            del _LINKS[port]
        reason = shared.link.last_error or "it sent no HELLO and SNAPSHOT"
        if "exclusively lock" in reason:  # pyserial's words for a port another program holds
            raise HardwareError(f"{port} is held by another program, such as the daemon (`gameboard run`): "
                                "stop it first (sudo systemctl stop gameboard)")
        raise HardwareError(
            f"no answer from the co-processor on {port} within {timeout:g} s ({reason}); "
            "check the cable, the port name and that the firmware runs"
        )
    shared.users += 1
    return shared.link


def release_link(link: SerialLink) -> None:
    shared = _LINKS.get(link.port)
    if shared is None or shared.link is not link:
        return
    shared.users -= 1
    if shared.users <= 0:
        link.close()
        del _LINKS[link.port]


def describe(link: SerialLink) -> str:
    """The co-processor in words: its port and the name its HELLO gave."""
    name = link.hello.name if link.hello else ""
    return f"the co-processor on {link.port}" + (f" ({name})" if name else "")


class SerialSensors(SensorArray):
    """The co-processor's channels: presence 0/1 or raw analog counts, as its HELLO says.

    While the cable is unplugged a scan repeats the last known state and ``health()``
    says it is stale; the link reconnects and a fresh snapshot brings it up to date.
    """

    def __init__(self, link: SerialLink, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.link = link
        self.kind = link.hello.kind if link.hello else "presence"
        self._clock = clock

    read_options = staticmethod(read_link_options)

    def __str__(self) -> str:
        return describe(self.link)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> SerialSensors:
        return cls(open_link(options))

    @property
    def channels(self) -> int:
        return self.link.hello.channels if self.link.hello else 0

    def read(self) -> Scan:
        return Scan(self.link.values(), self._clock())

    def health(self) -> SensorHealth:
        return self.link.health()

    def close(self) -> None:
        release_link(self.link)


class SerialLeds(LedSink):
    """LED strips driven by the co-processor; their lengths come from the session's HELLO."""

    def __init__(self, link: SerialLink) -> None:
        self.link = link

    read_options = staticmethod(read_link_options)

    def __str__(self) -> str:
        return describe(self.link)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> SerialLeds:
        """The same port as the sensors shares their link."""
        return cls(open_link(options))

    @property
    def strip_lengths(self) -> tuple[int, ...]:
        return self.link.hello.strip_lengths if self.link.hello else ()

    def show(self, frame: Sequence[Sequence[RGB]]) -> None:
        self.link.show(checked_frame(frame, self.strip_lengths))

    def close(self) -> None:
        self.link.show(dark_frame(self.strip_lengths))
        release_link(self.link)
