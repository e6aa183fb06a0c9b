"""The serial link to the sensor co-processor: a reader thread that keeps the board's state.

The co-processor scans the sensors and reports a SNAPSHOT of every channel, then
only CHANGES (docs/serial-protocol.md).  The reader thread applies them to the
latest full state, which a scan copies without waiting for the wire.  It survives a
noisy line (bad frames are dropped and counted), lost frames (a gap in the sequence
numbers asks for a fresh snapshot), a co-processor that resets (its unasked HELLO
brings a fresh snapshot and the LED frame again) and an unplugged cable (the port is
reopened until it comes back).  The first HELLO fixes the session: a later one that
disagrees with it is refused and reported, and the board stays stale until one agrees.
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
    DEVICE_TYPES,
    Changes,
    Hello,
    MessageType,
    ProtocolError,
    Snapshot,
    hello_problem,
    host_payload,
    led_bodies,
    parse_device_message,
)

#: How long a read waits for bytes before the thread checks whether it should stop.
READ_TIMEOUT = 0.1
#: Seconds to wait for the snapshot that answers a SYNC (or follows a reset's HELLO) before asking
#: again; also the least time between two SYNCs, so a co-processor whose answers are refused is not
#: asked faster than this.
RESYNC_INTERVAL = 0.5
#: The link's counters that count faults (the rest count ordinary traffic).
ERROR_STATS = ("lost", "malformed", "refused", "resets", "silences", "disconnects", "led_frames_dropped")


class SerialLink:
    """One open (or reopening) serial port to a co-processor; thread-safe to read and write.

    ``stats`` counts frames, dropped frames by reason, lost frames, reconnects and
    syncs; ``health()`` says whether ``values()`` is the board as it is now.  ``hello``
    is the session's HELLO, the first one accepted; ``problem`` says why a later one
    was refused, until one agrees again.
    """

    def __init__(
        self, port: str, *, baudrate: int = 115200, retry_interval: float = 0.5, silence_timeout: float = 3.0
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self.retry_interval = retry_interval
        self.silence_timeout = silence_timeout
        self._last_heard = self._sync_asked = time.monotonic()
        self._synced = False  # a snapshot arrived since the last connect, reset or lost frame
        self._resync_at: float | None = None  # when to send SYNC, while the state is not whole
        self._awaiting_hello = False  # a SYNC was sent and no HELLO came since
        self.stats: Counter[str] = Counter()
        self.last_error = ""
        self.problem = ""
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
        if self.problem:
            return SensorHealth(True, True, f"{self.problem} ({self.port})", errors)
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
        self._last_heard = time.monotonic()
        with self._write_lock:
            self._serial = port
            self.stats["connects"] += 1
        self._sync(self._last_heard)  # the LED frame follows the HELLO that answers it

    def _pump(self, port: serial.Serial) -> None:
        while not self._stop.is_set():
            data = port.read(port.in_waiting or 1)
            for payload in self._reader.feed(data):
                self._handle(payload)
            self._keep_in_sync()

    def _keep_in_sync(self) -> None:
        """Send SYNC to a co-processor silent for longer than its heartbeat allows (once a timeout),
        or when a fresh snapshot is due and has not come."""
        now = time.monotonic()
        if now - self._last_heard > self.silence_timeout and now - self._sync_asked > self.silence_timeout:
            self.stats["silences"] += 1
            self.last_error = f"the co-processor on {self.port} said nothing for {self.silence_timeout:g} s"
            self._sync(now)
        elif self._resync_at is not None and now >= self._resync_at and not self.problem:
            self._sync(now)

    def _sync(self, now: float) -> None:
        """Ask for HELLO and SNAPSHOT, and again later unless the snapshot makes the state whole."""
        self._sync_asked = now
        self._awaiting_hello = True
        self._resync_at = now + RESYNC_INTERVAL
        with self._write_lock:
            self._send(MessageType.SYNC)

    def _lose_sync(self, *, at_once: bool = True) -> None:
        """The state is no longer the board's: ask for a snapshot (now, or after a pause if one was
        just asked for, or ``at_once=False``: only if the co-processor's own snapshot does not come)."""
        self._synced = False
        now = time.monotonic()
        due = max(now, self._sync_asked + RESYNC_INTERVAL) if at_once else now + RESYNC_INTERVAL
        self._resync_at = due if self._resync_at is None else min(self._resync_at, due)
        self._keep_in_sync()

    def _handle(self, payload: bytes) -> None:
        self.stats["frames"] += 1
        self._last_heard = time.monotonic()
        kind, sequence = payload[0], payload[1] if len(payload) > 1 else 0
        numbered = self._expected is None or sequence == self._expected
        if kind == MessageType.HELLO:
            self._expected = (sequence + 1) % 256  # a HELLO starts the numbering afresh (after a reset)
        else:
            self._check_sequence(sequence)
        if kind not in DEVICE_TYPES:
            self.stats["unknown"] += 1  # a later version's message: ignored, as the firmware ignores ours
            return
        try:
            _, message = parse_device_message(payload)
        except ProtocolError as exc:
            self.stats["malformed"] += 1
            self.last_error = str(exc)
            self._lose_sync()  # what it said is lost: only a snapshot makes the state whole again
            return
        if isinstance(message, Hello):
            self._hello(message, numbered)
        elif isinstance(message, Snapshot):
            self._snapshot(message)
        elif not self.problem:
            self._apply(message)

    def _hello(self, hello: Hello, numbered: bool) -> None:
        """Check a HELLO against the session's.  One that answers no SYNC and breaks the numbering
        means the co-processor reset (one that keeps it answers a SYNC twice: a boot's HELLO came first)."""
        asked, self._awaiting_hello = self._awaiting_hello or numbered, False
        problem = hello_problem(hello, self.hello)
        if problem:
            self.stats["refused"] += 1
            self.problem = self.last_error = problem
            self._synced = False
            return
        self.problem = ""
        if self.hello is None:
            self.hello = hello
        if not asked:
            self.stats["resets"] += 1
            self.last_error = f"the co-processor on {self.port} reset"
            self._lose_sync(at_once=False)  # its own SNAPSHOT follows the HELLO
        with self._write_lock:
            if self._led_frame is not None:  # a reset co-processor's strips are dark
                self._send_leds(self._led_frame)

    def _snapshot(self, snapshot: Snapshot) -> None:
        if self.problem or self.hello is None:
            return  # no HELLO yet, or not the session's layout: the last known state stays, stale
        if len(snapshot.values) != self.hello.channels:
            self.stats["refused"] += 1
            self.last_error = f"a SNAPSHOT of {len(snapshot.values)} channels after a HELLO of {self.hello.channels}"
            self._lose_sync()
            return
        with self._state_lock:
            self._values = list(snapshot.values)
        self._synced = True
        self._resync_at = None
        self._ready.set()

    def _check_sequence(self, sequence: int) -> None:
        """Count the frames lost since the last one and ask for a snapshot if any were."""
        if self._expected is not None and sequence != self._expected:
            self.stats["lost"] += (sequence - self._expected) % 256
            self._lose_sync()
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
