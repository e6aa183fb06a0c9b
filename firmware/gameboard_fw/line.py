"""The serial line to the Pi: the Pico's USB (CDC-ACM, the default) or a UART."""

import select
import sys

import micropython
from machine import UART, Pin

#: The most bytes one poll takes from the line: a whole LED frame of 300 LEDs and more.
READ_CHUNK = 2048


class UsbLine:
    """USB CDC-ACM, MicroPython's own console: Ctrl-C (0x03) is turned off, since frames carry
    any byte, and back on at ``close``; the BOOTSEL button stops the firmware (docs/firmware.md)."""

    def __init__(self) -> None:
        micropython.kbd_intr(-1)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer

    def read(self) -> bytes:
        data = bytearray()
        while len(data) < READ_CHUNK and self._poll.poll(0):
            data.extend(self._in.read(1))
        return bytes(data)

    def write(self, data) -> None:
        self._out.write(data)

    def close(self) -> None:
        micropython.kbd_intr(3)


class UartLine:
    """A UART at 8N1, its receive buffer large enough for a whole LED frame."""

    def __init__(self, uart: int = 0, tx: int = 0, rx: int = 1, baudrate: int = 115200) -> None:
        self._uart = UART(uart, baudrate=baudrate, bits=8, parity=None, stop=1, tx=Pin(tx), rx=Pin(rx),
                          rxbuf=4096, timeout=0)

    def read(self) -> bytes:
        waiting = self._uart.any()
        return self._uart.read(min(waiting, READ_CHUNK)) or b"" if waiting else b""

    def write(self, data) -> None:
        self._uart.write(data)

    def close(self) -> None:
        self._uart.deinit()
