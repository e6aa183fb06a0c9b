"""A simulated Raspberry Pi Pico running the real firmware (firmware/gameboard_fw) under CPython.

The firmware's ``machine`` and ``rp2`` calls (the shim, hal/pico_offchip) reach ``Pico``, which
plays the hardware around the chip: the 74HC165 chain, GPIO inputs or CD74HC4067
multiplexers in front of a mock board's sensors, the WS2812 strips on the state
machines, and the UART, whose other end is a real pseudo-terminal that the Pi side
(``gameboard run``, ``sensors watch``) opens by a /dev/serial/by-id-like link.
"""

from __future__ import annotations

import fcntl
import os
import select
import sys
import termios
import threading
import time
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hal.mock import MockBoard

ROOT = Path(__file__).parents[2]
sys.path[:0] = [str(ROOT / "firmware"), str(ROOT / "hal" / "pico_offchip")]

import machine
import micropython  # noqa: F401  (gives time its ticks functions before the firmware imports them)
import pico_clock

#: How long a poll of the UART stands for: the rest of a loop turn on the chip (and a yield here).
LOOP_TURN_S = 0.0005
#: How long the mock board's readings stand for one scan of a multiplexed front-end.
SCAN_S = 0.002
#: How long the UART waits for the pty to take its bytes before they are lost (no one is listening).
WRITE_WAIT_S = 0.2
#: The Pico's clock starts this long before its ticks wrap (2**30 ms), so every game crosses the wrap.
BEFORE_THE_WRAP_MS = 2000


class Pico:
    """The hardware around the firmware: ``settings`` is its gameboard.json, ``mock`` the board."""

    def __init__(self, mock: MockBoard, settings: dict[str, Any], port: Path) -> None:
        self.mock = mock
        self.settings = settings
        self.port = port
        self.sensors = settings["sensors"]
        self.outputs: dict[int, int] = {}
        self.frames: dict[int, list[int]] = {}  # a strip's data pin -> the last words sent out
        self.shows = 0
        self.bootsel = 0
        self.dropped_bytes = 0
        self._latched = b""
        self._readings: tuple[tuple[int, ...], float] = ((), -1.0)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        fcntl.fcntl(self._master, fcntl.F_SETFL, fcntl.fcntl(self._master, fcntl.F_GETFL) | os.O_NONBLOCK)
        port.unlink(missing_ok=True)
        port.symlink_to(os.ttyname(self._slave))
        self._thread: threading.Thread | None = None
        self.failure: BaseException | None = None

    # -- running the firmware -----------------------------------------------------------------

    def start(self) -> None:
        """Power up: the firmware runs its loop on a thread, as main.py runs it on the chip."""
        from gameboard_fw import app
        from gameboard_fw.settings import Settings

        machine.PICO = self
        pico_clock.start_at(pico_clock.ticks_add(0, -BEFORE_THE_WRAP_MS))
        firmware = Settings(self.settings)

        def run() -> None:
            try:
                app.run(firmware)
            except BaseException as exc:  # a firmware crash fails the test that waits on it
                self.failure = exc
                raise

        self._thread = threading.Thread(target=run, name="pico firmware", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Press BOOTSEL: the firmware leaves its loop; then the cable is gone."""
        self.bootsel = 1
        if self._thread is not None:
            self._thread.join(timeout=5)
            assert not self._thread.is_alive(), "the firmware did not stop at BOOTSEL"
        self.port.unlink(missing_ok=True)
        os.close(self._master)
        os.close(self._slave)
        if self.failure is not None:
            raise AssertionError(f"the firmware crashed: {self.failure!r}") from self.failure

    # -- GPIO, SPI and the ADC ---------------------------------------------------------------------

    def write_pin(self, number: int, value: int) -> None:
        if self.sensors["front_end"] == "hc165" and number == self.sensors["load"] and value == 0:
            self._latch()  # /PL low: the chain copies its inputs
        self.outputs[number] = value

    def read_pin(self, number: int) -> int:
        pins = self.sensors["pins"]
        present = self._board_readings()[pins.index(number)]
        return 1 - present if self.sensors.get("active_low", True) else present

    def open_spi(self, bus: int, baudrate: int, polarity: int, phase: int) -> None:
        assert (polarity, phase) == (0, 0), "the 74HC165 shifts on the rising edge: SPI mode 0"

    def shift_in(self, count: int) -> bytes:
        assert len(self._latched) == count, "SPI read without a latch of the whole chain"
        return self._latched

    def _latch(self) -> None:
        values = self._board_readings(fresh=True)
        chips = self.sensors["chips"]
        invert = 0xFF if self.sensors.get("active_low", True) else 0
        self._latched = bytes(
            invert ^ sum(values[8 * chip + bit] << bit for bit in range(8) if 8 * chip + bit < len(values))
            for chip in range(chips))

    def convert(self, adc_pin: int) -> int:
        """The ADC's reading of the multiplexer input selected now, as read_u16 scales 12 bits."""
        line = sum(self.outputs.get(pin, 0) << bit for bit, pin in enumerate(self.sensors["select"]))
        on = [index for index, mux in enumerate(self.sensors["muxes"]) if mux["adc"] == adc_pin
              and (mux.get("enable") is None or self.outputs.get(mux["enable"]) == 0)]
        assert len(on) == 1, f"ADC pin {adc_pin} sees {len(on)} multiplexers enabled"
        channel = 16 * on[0] + line
        values = self._board_readings()
        count = values[channel] if channel < len(values) else 0
        return count << 4 | count >> 8

    def _board_readings(self, fresh: bool = False) -> tuple[int, ...]:
        values, taken = self._readings
        now = time.monotonic()
        if fresh or now - taken > SCAN_S:
            values = self.mock.sensors.read().values
            self._readings = (values, now)
        return values

    # -- the strips ------------------------------------------------------------------------------

    def start_state_machine(self, number: int, pin: int, settings: dict[str, Any], freq: int) -> None:
        assert freq == 8_000_000 and settings["pull_thresh"] == 24 and settings["autopull"]

    def state_machine_put(self, pin: int, words: list[int]) -> None:
        self.frames[pin] = words
        self.shows += 1

    def strip(self, number: int) -> list[tuple[int, int, int]]:
        """The colours strip ``number`` shows, decoded from the words sent as WS2812 takes them (GRB)."""
        words = self.frames.get(self.settings["strips"][number]["pin"], [])
        return [(word >> 16 & 0xFF, word >> 24 & 0xFF, word >> 8 & 0xFF) for word in words]

    # -- the UART --------------------------------------------------------------------------------

    def open_uart(self, uart: int, baudrate: int, tx: int, rx: int) -> None:
        """The UART's far end is the pty."""

    def uart_waiting(self) -> int:
        select.select([self._master], [], [], LOOP_TURN_S)
        waiting = fcntl.ioctl(self._master, termios.FIONREAD, b"\0\0\0\0")
        return int.from_bytes(waiting, sys.byteorder)

    def uart_read(self, count: int) -> bytes:
        try:
            return os.read(self._master, count)
        except (BlockingIOError, OSError):
            return b""

    def uart_write(self, data: bytes) -> int:
        """Every byte goes out, as a UART sends them; those nobody takes in WRITE_WAIT_S are lost."""
        rest = memoryview(data)
        deadline = time.monotonic() + WRITE_WAIT_S
        while rest:
            try:
                rest = rest[os.write(self._master, rest):]
            except (BlockingIOError, OSError):
                if time.monotonic() > deadline:
                    self.dropped_bytes += len(rest)
                    break
                select.select([], [self._master], [], 0.01)
        return len(data)

    def close_uart(self) -> None:
        """Nothing to release: the pty closes at ``stop``."""


@contextmanager
def running(mock: MockBoard, settings: dict[str, Any], port: Path) -> Iterator[Pico]:
    pico = Pico(mock, settings, port)
    pico.start()
    try:
        yield pico
    finally:
        pico.stop()
