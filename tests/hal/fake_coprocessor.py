"""A fake sensor co-processor on the far side of a real pseudo-terminal.

It speaks docs/serial-protocol.md with its own encoder (struct, cobs, crc_hqx), so
the host's decoder is checked against the document rather than against itself.  The
port is a symlink to the pty, as udev's /dev/serial/by-id links are: ``unplug()``
closes the pty and removes the link, ``plug()`` makes a new pty behind the same name.
With ``heartbeat`` it sends an empty CHANGES that often, as the firmware must; ``hung``
makes it say nothing at all, as a crashed firmware on a live USB port does; ``reset()``
is a watchdog reset behind a UART that stays open.
"""

from __future__ import annotations

import os
import select
import struct
import threading
import time
import tty
from binascii import crc_hqx
from pathlib import Path

from cobs import cobs

HELLO, SNAPSHOT, CHANGES = 0x01, 0x02, 0x03
SYNC, LEDS, SHOW = 0x81, 0x82, 0x83


def frame(payload: bytes) -> bytes:
    return cobs.encode(payload + struct.pack(">H", crc_hqx(payload, 0xFFFF))) + b"\x00"


class FakeCoprocessor:
    def __init__(self, port: Path, channels: int = 16, kind: str = "presence", strips: tuple[int, ...] = (4,),
                 heartbeat: float | None = None) -> None:
        self.port = port
        self.heartbeat = heartbeat
        self.hung = False
        self.version = 1
        self.kind = kind
        self.values = [0] * channels
        self.strips = strips
        self.pixels = [[(0, 0, 0)] * length for length in strips]
        self.shown: list[list[list[tuple[int, int, int]]]] = []
        self.received: list[int] = []  # message types from the host, in order
        self.answer_sync = True
        self._sequence = 0
        self._lock = threading.Lock()
        self._master = self._slave = -1
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.plug()

    # -- the cable ---------------------------------------------------------------------

    def plug(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port.unlink(missing_ok=True)
        self.port.symlink_to(os.ttyname(self._slave))
        self._stop.clear()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        self._stop.set()
        self._thread.join()
        self.port.unlink()
        os.close(self._master)
        os.close(self._slave)

    # -- what the firmware sends ------------------------------------------------------------

    def next_payload(self, kind: int, body: bytes) -> bytes:
        with self._lock:
            payload = bytes((kind, self._sequence)) + body
            self._sequence = (self._sequence + 1) % 256
        return payload

    def write(self, data: bytes) -> None:
        os.write(self._master, data)

    def send(self, kind: int, body: bytes) -> None:
        self.write(frame(self.next_payload(kind, body)))

    def send_hello(self) -> None:
        body = struct.pack(">BBHB", self.version, 0 if self.kind == "presence" else 1, len(self.values), len(self.strips))
        self.send(HELLO, body + struct.pack(f">{len(self.strips)}H", *self.strips) + b"fake-mcu 1.0")

    def send_snapshot(self) -> None:
        if self.kind == "presence":
            packed = bytearray((len(self.values) + 7) // 8)
            for channel, value in enumerate(self.values):
                packed[channel // 8] |= value << (channel % 8)
            self.send(SNAPSHOT, struct.pack(">HB", len(self.values), 0) + bytes(packed))
        else:
            self.send(SNAPSHOT, struct.pack(f">HB{len(self.values)}H", len(self.values), 1, *self.values))

    def reset(self, sequence: int = 200) -> None:
        """Restart as firmware does after a reset: strips dark, numbering anew, HELLO and SNAPSHOT unasked."""
        self.pixels = [[(0, 0, 0)] * length for length in self.strips]
        with self._lock:
            self._sequence = sequence
        self.send_hello()
        self.send_snapshot()

    def change(self, *changes: tuple[int, int]) -> bytes:
        """Set channels and return the CHANGES frame that reports them (not sent yet)."""
        for channel, value in changes:
            self.values[channel] = value
        return frame(self.next_payload(CHANGES, b"".join(struct.pack(">HH", c, v) for c, v in changes)))

    # -- what the firmware receives ---------------------------------------------------------

    def _listen(self) -> None:
        pending = b""
        beat = time.monotonic()
        while not self._stop.is_set():
            if self.heartbeat and not self.hung and time.monotonic() - beat >= self.heartbeat:
                self.send(CHANGES, b"")
                beat = time.monotonic()
            ready, _, _ = select.select([self._master], [], [], 0.02)
            if not ready:
                continue
            try:
                pending += os.read(self._master, 4096)
            except OSError:
                return
            *frames, pending = pending.split(b"\x00")
            for encoded in frames:
                decoded = cobs.decode(encoded)
                payload, check = decoded[:-2], struct.unpack(">H", decoded[-2:])[0]
                assert crc_hqx(payload, 0xFFFF) == check
                self._obey(payload)

    def _obey(self, payload: bytes) -> None:
        kind, body = payload[0], payload[2:]
        self.received.append(kind)
        if kind == SYNC and self.answer_sync and not self.hung:
            self.send_hello()
            self.send_snapshot()
        elif kind == LEDS:
            strip, start = struct.unpack_from(">BH", body)
            colours = body[3:]
            for offset in range(0, len(colours), 3):
                if strip < len(self.pixels) and start + offset // 3 < len(self.pixels[strip]):
                    self.pixels[strip][start + offset // 3] = tuple(colours[offset : offset + 3])
        elif kind == SHOW:
            self.shown.append([list(strip) for strip in self.pixels])
