"""The messages between the Pi and the sensor co-processor (docs/serial-protocol.md).

A payload is ``type (1 byte), sequence (1 byte), body``; integers are big-endian.
This module turns payloads into values and back; ``hal.cobs_frames`` frames them and
``hal.serial_link`` moves them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

from hal.cobs_frames import MAX_PAYLOAD

#: The only version this host speaks; a HELLO announcing another is refused.
PROTOCOL_VERSION = 1

#: LEDs per LEDS message: 3 bytes each keeps a payload under ``cobs_frames.MAX_PAYLOAD``.
LEDS_PER_MESSAGE = 300


class MessageType(IntEnum):
    # co-processor -> Pi
    HELLO = 0x01
    SNAPSHOT = 0x02
    CHANGES = 0x03
    # Pi -> co-processor
    SYNC = 0x81
    LEDS = 0x82
    SHOW = 0x83


class Encoding(IntEnum):
    """How a SNAPSHOT packs its values."""

    BITS = 0  # presence: channel c is bit c % 8 of byte c // 8
    WORDS = 1  # analog: two bytes a channel


class ProtocolError(ValueError):
    """A payload whose CRC was right but whose content is not a valid message."""


@dataclass(frozen=True)
class Hello:
    """The co-processor introduces itself: after a reset and in answer to SYNC."""

    version: int
    kind: str  # "presence" or "analog"
    channels: int
    strip_lengths: tuple[int, ...]
    name: str


@dataclass(frozen=True)
class Snapshot:
    """Every channel's value."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class Changes:
    """Channels whose value changed, as (channel, new value); none at all is a heartbeat."""

    changes: tuple[tuple[int, int], ...]


DeviceMessage = Hello | Snapshot | Changes

KINDS = ("presence", "analog")

#: The message types a co-processor sends; the host ignores others (counted as ``unknown``).
DEVICE_TYPES = frozenset((MessageType.HELLO, MessageType.SNAPSHOT, MessageType.CHANGES))

#: The most channels one SNAPSHOT can carry: its payload holds type, sequence, channels and encoding.
SNAPSHOT_ROOM = MAX_PAYLOAD - 5
MAX_CHANNELS = {"presence": SNAPSHOT_ROOM * 8, "analog": SNAPSHOT_ROOM // 2}


def hello_problem(hello: Hello, session: Hello | None) -> str:
    """Why the host cannot use ``hello`` ("" if it can): another protocol version, more channels
    than a SNAPSHOT carries, or a layout other than the session's first HELLO."""
    if hello.version != PROTOCOL_VERSION:
        return (f"the co-processor speaks protocol version {hello.version}, this host speaks {PROTOCOL_VERSION}: "
                "flash firmware for version 1")
    if hello.channels > MAX_CHANNELS[hello.kind]:
        return (f"the co-processor announces {hello.channels} {hello.kind} channels, "
                f"more than one SNAPSHOT carries ({MAX_CHANNELS[hello.kind]})")
    if session is not None:
        for field, now, then in (("sensing kind", hello.kind, session.kind),
                                 ("channel count", hello.channels, session.channels),
                                 ("LED strips", list(hello.strip_lengths), list(session.strip_lengths))):
            if now != then:
                return (f"the co-processor now announces {field} {now}, not {then} as when the daemon started: "
                        "fix its configuration, or restart the daemon if the change is meant")
    return ""


def parse_device_message(payload: bytes) -> tuple[int, DeviceMessage]:
    """The sequence number and message of a co-processor payload; ProtocolError if malformed."""
    if len(payload) < 2:
        raise ProtocolError("a payload needs a type and a sequence byte")
    kind, sequence, body = payload[0], payload[1], payload[2:]
    try:
        if kind == MessageType.HELLO:
            return sequence, _hello(body)
        if kind == MessageType.SNAPSHOT:
            return sequence, _snapshot(body)
        if kind == MessageType.CHANGES:
            if len(body) % 4:
                raise ProtocolError(f"CHANGES body of {len(body)} bytes is not a whole number of 4-byte changes")
            return sequence, Changes(tuple(struct.iter_unpack(">HH", body)))
    except struct.error as exc:
        raise ProtocolError(f"message 0x{kind:02x} is cut short: {exc}") from None
    raise ProtocolError(f"unknown message type 0x{kind:02x}")


def _hello(body: bytes) -> Hello:
    version, kind, channels, strips = struct.unpack_from(">BBHB", body)
    if kind >= len(KINDS):
        raise ProtocolError(f"HELLO sensing kind {kind} is not 0 (presence) or 1 (analog)")
    lengths = struct.unpack_from(f">{strips}H", body, 5)
    name = body[5 + 2 * strips :].decode("utf-8", errors="replace")
    return Hello(version, KINDS[kind], channels, lengths, name)


def _snapshot(body: bytes) -> Snapshot:
    channels, encoding = struct.unpack_from(">HB", body)
    data = body[3:]
    if encoding == Encoding.BITS:
        if len(data) != (channels + 7) // 8:
            raise ProtocolError(f"SNAPSHOT of {channels} channels needs {(channels + 7) // 8} bytes, not {len(data)}")
        return Snapshot(tuple((data[c // 8] >> (c % 8)) & 1 for c in range(channels)))
    if encoding == Encoding.WORDS:
        if len(data) != 2 * channels:
            raise ProtocolError(f"SNAPSHOT of {channels} channels needs {2 * channels} bytes, not {len(data)}")
        return Snapshot(struct.unpack(f">{channels}H", data))
    raise ProtocolError(f"SNAPSHOT encoding {encoding} is not 0 (bits) or 1 (words)")


def host_payload(kind: MessageType, sequence: int, body: bytes = b"") -> bytes:
    """A Pi -> co-processor payload."""
    return bytes((kind, sequence & 0xFF)) + body


def led_bodies(strip: int, colours: tuple[tuple[int, int, int], ...]) -> list[bytes]:
    """LEDS bodies for one strip: ``strip, start index, r g b ...``, at most LEDS_PER_MESSAGE each."""
    return [
        struct.pack(">BH", strip, start)
        + bytes(c for colour in colours[start : start + LEDS_PER_MESSAGE] for c in colour)
        for start in range(0, len(colours), LEDS_PER_MESSAGE)
    ]
