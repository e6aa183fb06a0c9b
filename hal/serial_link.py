"""The serial link to the sensor co-processor: a reader thread that keeps the board's state.

The co-processor scans the sensors and reports a SNAPSHOT of every channel, then
only CHANGES (docs/serial-protocol.md).  The reader thread applies them to the
latest full state, which a scan copies without waiting for the wire.  It survives a
noisy line (bad frames are dropped and counted), lost frames (a gap in the sequence
numbers asks for a fresh snapshot) and an unplugged cable (the port is reopened
until it comes back, then the link asks for a snapshot and resends the LED frame).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from contextlib import suppress

import serial

from hal.base import SensorHealth
from hal.cobs_frames import FrameReader, encode_frame
from hal.frames import Frame
from hal.serial_protocol import (
    PROTOCOL_VERSION,
    Changes,
    Hello,
    MessageType,
    ProtocolError,
    Snapshot,
    host_payload,
    led_bodies,
    parse_device_message,
)

#: How long a read waits for bytes before the thread checks whether it should stop.
READ_TIMEOUT = 0.1
#: The link's counters that count faults (the rest count ordinary traffic).
ERROR_STATS = ("lost", "malformed", "silences", "disconnects", "led_frames_dropped")


class SerialLink:
    """One open (or reopening) serial port to a co-processor; thread-safe to read and write.

    ``stats`` counts frames, dropped frames by reason, lost frames, reconnects and
    syncs; ``health()`` says whether ``values()`` is the board as it is now.
    """

    def __init__(
        self, port: str, *, baudrate: int = 115200, retry_interval: float = 0.5, silence_timeout: float = 3.0
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self.retry_interval = retry_interval
        self.silence_timeout = silence_timeout
        self._last_heard = self._sync_asked = time.monotonic()
        self._synced = False  # a snapshot arrived since the last connect or lost frame
        self.stats: Counter[str] = Counter()
        self.last_error = ""
        self.hello: Hello | None = None
        self._reader = FrameReader()
        self._state_lock = threading.Lock()
        self._values: list[int] | None = None
        self._expected: int | None = None  # the next sequence number, once one was seen
        self._ready = threading.Event()
        self._write_lock = threading.Lock()
        self._serial: serial.Serial | None = None
        self._sent = 0
        self._led_frame: Frame | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"serial link {port}", daemon=True)
        self._thread.start()

    # -- what the drivers use --------------------------------------------------------------

    def wait_ready(self, timeout: float) -> bool:
        """Wait until the co-processor has introduced itself and sent a snapshot."""
        return self._ready.wait(timeout)

    @property
    def connected(self) -> bool:
        return self._serial is not None

    @property
    def bad_frames(self) -> Counter[str]:
        """Frames dropped by the framing layer, by reason (crc, cobs, short, overlong)."""
        return Counter(self._reader.errors)

    def health(self) -> SensorHealth:
        """Stale while unplugged, silent for longer than ``silence_timeout``, or waiting for a snapshot."""
        errors = {**self.bad_frames, **{name: self.stats[name] for name in ERROR_STATS if self.stats[name]}}
        if self._serial is None:
            return SensorHealth(False, True, f"the co-processor is not connected ({self.last_error})", errors)
        silent = time.monotonic() - self._last_heard
        if silent > self.silence_timeout:
            return SensorHealth(True, True, f"the co-processor on {self.port} has said nothing for {silent:.1f} s",
                                errors)
        if not self._synced:
            return SensorHealth(True, True, f"waiting for the co-processor on {self.port} to send the board",
                                errors)
        return SensorHealth(errors=errors)

    def values(self) -> tuple[int, ...]:
        """The latest value of every channel (the last known ones while unplugged)."""
        with self._state_lock:
            return tuple(self._values or ())

    def show(self, frame: Frame) -> None:
        """Send an LED frame (strip by strip, then SHOW); kept and resent after a reconnect."""
        with self._write_lock:
            self._led_frame = frame
            if self._serial is None:
                self.stats["led_frames_dropped"] += 1
                return
            try:
                self._send_leds(frame)
            except (serial.SerialException, OSError) as exc:
                self.stats["led_frames_dropped"] += 1
                self.last_error = f"write failed: {exc}"

    def close(self) -> None:
        """Stop the reader thread and close the port."""
        self._stop.set()
        port = self._serial
        if port is not None:
            with suppress(serial.SerialException, OSError):
                port.cancel_read()  # wake the reader thread now rather than at its read timeout
        self._thread.join(timeout=2)

    # -- the reader thread -----------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                port = serial.Serial(self.port, self.baudrate, timeout=READ_TIMEOUT, exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                self.last_error = f"cannot open {self.port}: {exc}"
                self._stop.wait(self.retry_interval)
                continue
            try:
                self._connect(port)
                self._pump(port)
            except (serial.SerialException, OSError) as exc:
                self.last_error = f"{self.port} lost: {exc}"
                self.stats["disconnects"] += 1
            finally:
                with self._write_lock:
                    self._serial = None
                port.close()
            self._stop.wait(self.retry_interval)

    def _connect(self, port: serial.Serial) -> None:
        self._reader.reset()
        self._expected = None
        self._synced = False
        self._last_heard = self._sync_asked = time.monotonic()
        with self._write_lock:
            self._serial = port
            self.stats["connects"] += 1
            self._send(MessageType.SYNC)
            if self._led_frame is not None:
                self._send_leds(self._led_frame)

    def _pump(self, port: serial.Serial) -> None:
        while not self._stop.is_set():
            data = port.read(port.in_waiting or 1)
            for payload in self._reader.feed(data):
                self._handle(payload)
            self._check_silence()

    def _check_silence(self) -> None:
        """A co-processor silent for longer than its heartbeat allows is asked to SYNC again (once a timeout)."""
        now = time.monotonic()
        if now - self._last_heard > self.silence_timeout and now - self._sync_asked > self.silence_timeout:
            self.stats["silences"] += 1
            self.last_error = f"the co-processor on {self.port} said nothing for {self.silence_timeout:g} s"
            self._sync_asked = now
            with self._write_lock:
                self._send(MessageType.SYNC)

    def _handle(self, payload: bytes) -> None:
        try:
            sequence, message = parse_device_message(payload)
        except ProtocolError as exc:
            self.stats["malformed"] += 1
            self.last_error = str(exc)
            return
        self.stats["frames"] += 1
        self._last_heard = time.monotonic()
        self._check_sequence(sequence)
        if isinstance(message, Hello):
            if message.version != PROTOCOL_VERSION:
                self.last_error = f"the co-processor speaks protocol {message.version}, this host {PROTOCOL_VERSION}"
            self.hello = message
        elif isinstance(message, Snapshot):
            with self._state_lock:
                self._values = list(message.values)
            self._synced = True
        elif isinstance(message, Changes):
            self._apply(message)
        if self.hello is not None and self._values is not None:
            self._ready.set()

    def _check_sequence(self, sequence: int) -> None:
        """Count the frames lost since the last one and ask for a snapshot if any were."""
        if self._expected is not None and sequence != self._expected:
            self._synced = False
            self.stats["lost"] += (sequence - self._expected) % 256
            with self._write_lock:
                self._send(MessageType.SYNC)
        self._expected = (sequence + 1) % 256

    def _apply(self, message: Changes) -> None:
        with self._state_lock:
            if self._values is None:
                return  # before the first snapshot there is nothing to change
            for channel, value in message.changes:
                if channel < len(self._values):
                    self._values[channel] = value
                else:
                    self.stats["malformed"] += 1
                    self.last_error = f"CHANGES names channel {channel} of {len(self._values)}"

    # -- writing (callers hold _write_lock) -------------------------------------------------

    def _send(self, kind: MessageType, body: bytes = b"") -> None:
        if self._serial is None:
            return
        self._serial.write(encode_frame(host_payload(kind, self._sent, body)))
        self._sent += 1
        self.stats[f"sent_{kind.name.lower()}"] += 1

    def _send_leds(self, frame: Frame) -> None:
        for strip, colours in enumerate(frame):
            for body in led_bodies(strip, colours):
                self._send(MessageType.LEDS, body)
        self._send(MessageType.SHOW)
