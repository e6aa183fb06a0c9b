"""WS2812 ("NeoPixel") strips through Adafruit's CircuitPython libraries on Blinka.

``neopixel`` drives a strip from a PWM/PCM data pin (rpi_ws281x underneath, Pi 1-4);
``neopixel_spi`` drives it from an SPI bus's MOSI, which also works on a Pi 5.  Both
give the same pixel buffer, so one sink serves both.  The strips stay at brightness
1.0 with ``auto_write`` off: the daemon's presenter has already scaled the colours to
its brightness and current budget, and one ``show()`` per strip sends a whole frame.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from hal.base import RGB, DriverOptionError, HardwareError, LedSink
from hal.frames import checked_frame
from hal.options import DriverOptions

#: The colour orders of common strips; WS2812B is GRB.
ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")

#: LEDs one neopixel_spi write can carry (spidev's 4096-byte buffer, 24 bytes an LED).
SPI_MAX_LEDS = 4096 // 24


def _import(module: str) -> Any:
    """A Blinka module, or a HardwareError saying how to get a working one."""
    from importlib import import_module

    try:
        return import_module(module)
    except (ImportError, NotImplementedError, RuntimeError) as exc:
        raise HardwareError(
            f"cannot load {module} ({exc}); on a Pi install the [pi] extra, elsewhere use the mock LED driver"
        ) from None


class NeoPixelStrips(LedSink):
    """Several strips, each a CircuitPython pixel buffer; strip i of a frame goes to ``strips[i]``.

    Driver "neopixel" (a PWM/PCM data pin); ``NeoPixelSpiStrips`` is driver "neopixel_spi".
    """

    def __init__(self, strips: Sequence[Any]) -> None:
        self._strips = list(strips)

    @staticmethod
    def read_options(options: Mapping[str, Any]) -> list[tuple[str, int, str]]:
        """Options: ``strips``, a list of tables, one per strip in frame order: ``pin`` (a
        ``board`` pin name such as "D18" (PWM) or "D21" (PCM), required), ``length`` (LEDs,
        required), ``order`` (default "GRB")."""
        return _read_strips("neopixel", options, lambda strip: (
            strip.text("pin", example="D18"), strip.integer("length", low=1, high=2000, example="120"),
            strip.text("order", "GRB", choices=ORDERS)))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> NeoPixelStrips:
        strips = cls.read_options(options)
        board, neopixel = _import("board"), _import("neopixel")

        def open_strip(pin: str, length: int, order: str) -> Any:
            return neopixel.NeoPixel(_board_pin(board, "pin", pin), length, auto_write=False, brightness=1.0,
                                     pixel_order=order)

        return cls(_open_strips(strips, open_strip))

    @property
    def strip_lengths(self) -> tuple[int, ...]:
        return tuple(len(strip) for strip in self._strips)

    def show(self, frame: Sequence[Sequence[RGB]]) -> None:
        for strip, colours in zip(self._strips, checked_frame(frame, self.strip_lengths)):
            strip[:] = colours
            strip.show()

    def close(self) -> None:
        for strip in self._strips:
            strip.fill((0, 0, 0))
            strip.show()
            strip.deinit()


class NeoPixelSpiStrips(NeoPixelStrips):
    """Driver "neopixel_spi": each strip's data from an SPI bus's MOSI (works on a Pi 5 too)."""

    @staticmethod
    def read_options(options: Mapping[str, Any]) -> list[tuple[str, str, int, str]]:
        """Options: ``strips``, a list of tables, one per strip: ``clock`` and ``data`` (the SPI
        bus's ``board`` pins, default "SCK" and "MOSI"; the second bus is "SCK_1" and "MOSI_1"),
        ``length`` (LEDs, at most 170: spidev writes at most 4096 bytes), ``order`` (default "GRB")."""
        return _read_strips("neopixel_spi", options, lambda strip: (
            strip.text("clock", "SCK"), strip.text("data", "MOSI"),
            strip.integer("length", low=1, high=SPI_MAX_LEDS, example="120"),
            strip.text("order", "GRB", choices=ORDERS)))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> NeoPixelSpiStrips:
        strips = cls.read_options(options)
        board, busio, neopixel_spi = _import("board"), _import("busio"), _import("neopixel_spi")

        def open_strip(clock: str, data: str, length: int, order: str) -> Any:
            spi = busio.SPI(_board_pin(board, "clock", clock), MOSI=_board_pin(board, "data", data))
            return neopixel_spi.NeoPixel_SPI(spi, length, auto_write=False, brightness=1.0, pixel_order=order)

        return cls(_open_strips(strips, open_strip))


def _read_strips(driver: str, options: Mapping[str, Any], read_strip: Callable[[DriverOptions], tuple]) -> list[tuple]:
    """Every strip's settings, read before any strip opens; a bad key names its strip."""
    read = DriverOptions(driver, options)
    tables = read.tables("strips", example='[{ pin = "D18", length = 120 }]')
    read.finish()
    strips = []
    for index, table in enumerate(tables):
        with _naming_strip(index):
            strip = DriverOptions(driver, table)
            strips.append(read_strip(strip))
            strip.finish()
    return strips


def _open_strips(strips: Sequence[tuple], open_strip: Callable[..., Any]) -> list[Any]:
    """Every strip opened, or none: a strip that fails releases the others."""
    opened: list[Any] = []
    try:
        for index, settings in enumerate(strips):
            with _naming_strip(index):
                try:
                    opened.append(open_strip(*settings))
                except DriverOptionError:
                    raise
                except (RuntimeError, OSError, ValueError) as exc:
                    raise HardwareError(f"cannot open LED strips[{index}]: {exc}") from None
    except BaseException:
        for strip in opened:
            strip.deinit()
        raise
    return opened


@contextmanager
def _naming_strip(index: int) -> Iterator[None]:
    """A strip's option error reported as the ``strips`` option, naming the strip."""
    try:
        yield
    except DriverOptionError as exc:
        raise DriverOptionError("strips", f"strips[{index}].{exc}") from None


def _board_pin(board: Any, key: str, name: str) -> Any:
    if not hasattr(board, name):
        raise DriverOptionError(
            key, f"the board has no pin {name!r}; use a name of Blinka's board module such as 'D18'"
        )
    return getattr(board, name)
