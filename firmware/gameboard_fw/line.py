"""The serial line to the Pi: the Pico's USB (CDC-ACM, the default) or a UART."""

import select
import sys

import micropython
from machine import UART, Pin

#: The most bytes one poll of the UART takes: a whole LED frame of 300 LEDs and more.
READ_CHUNK = 2048
#: The most reads of USB stdin a loop turn makes: a frame that needs more arrives over several turns,
#: and the sensors are scanned in between.
USB_READS_PER_TURN = 64


class CobsBlocks:
    """Reads a console that only says whether a byte waits, and whose ``read(n)`` waits for all n
    (MicroPython's USB stdin on the RP2 has no count and no partial read): a COBS block a read.

    A frame's code byte c says c - 1 bytes follow in its block, and then at least one more (the
    next code byte, or the frame's 0x00), all written at once by the Pi: so one read takes c
    bytes, block and next code.  A byte at a time took two calls a byte (a poll and a read).
    Garbage (a Pico that starts listening mid-frame) can pass a data byte for a code byte: the
    next 0x00 read puts the reader back in step, as it does the frames.  A frame cut short (the
    Pi's process killed mid-write) holds a read until the Pi's next frames make up the block.
    """

    def __init__(self, ready, read) -> None:
        self._ready = ready  # () -> bool: a byte waits
        self._read = read  # (count) -> bytes: waits for all of them
        self._due = 0  # bytes sure to come (0: a frame ended, wait for a byte before reading)

    def read(self, reads: int) -> bytes:
        """What has come, in at most ``reads`` reads."""
        if not (self._due or self._ready()):
            return b""
        data = bytearray()
        while reads and (self._due or self._ready()):
            chunk = self._read(self._due or 1)
            data.extend(chunk)
            self._due = chunk[-1] if b"\x00" not in chunk else due_after(chunk)  # in step: ends on a code byte
            reads -= 1
        return bytes(data)


def due_after(chunk: bytes) -> int:
    """How many bytes are sure to follow ``chunk``, which ends on a code byte or a 0x00 when in step.

    After a 0x00 a frame starts, so a 0x00 inside ``chunk`` (out of step) puts the walk there."""
    end = len(chunk)
    zero = chunk.rfind(b"\x00")
    if zero == end - 1:
        return 0
    at = zero + 1 if zero >= 0 else end - 1
    while at < end:
        at += chunk[at]  # a code byte: the next is that far on
    return at - end + 1


class UsbLine:
    """USB CDC-ACM, MicroPython's own console: Ctrl-C (0x03) is turned off, since frames carry
    any byte, and back on at ``close``; the BOOTSEL button stops the firmware (docs/firmware.md)."""

    def __init__(self) -> None:
        micropython.kbd_intr(-1)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._blocks = CobsBlocks(self._waiting, sys.stdin.buffer.read)
        self._out = sys.stdout.buffer

    def _waiting(self) -> bool:
        return bool(self._poll.poll(0))

    def read(self) -> bytes:
        return self._blocks.read(USB_READS_PER_TURN)

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
