"""Protocol version 1 on the co-processor's side: the messages it sends and those it obeys.

``Session`` numbers what it sends and turns the Pi's payloads into calls on the
sensors and the strips; it keeps nothing between SYNCs but the strips' pixels.
"""

import struct

from micropython import const

from gameboard_fw import NAME
from gameboard_fw.frames import MAX_PAYLOAD, encode

VERSION = const(1)
HELLO = const(0x01)
SNAPSHOT = const(0x02)
CHANGES = const(0x03)
SYNC = const(0x81)
LEDS = const(0x82)
SHOW = const(0x83)

#: Changes per CHANGES frame: 4 bytes each, under MAX_PAYLOAD with type and sequence.
CHANGES_PER_FRAME = const(255)
#: The most analog channels one SNAPSHOT holds: type, sequence, count, encoding and a word each.
MAX_ANALOG_CHANNELS = const(509)
KINDS = {"presence": 0, "analog": 1}


def hello_body(kind: str, channels: int, strip_lengths: list, name: str = NAME) -> bytes:
    body = struct.pack(">BBHB", VERSION, KINDS[kind], channels, len(strip_lengths))
    for length in strip_lengths:
        body += struct.pack(">H", length)
    return body + name.encode()


def snapshot_body(kind: str, values) -> bytes:
    """Every channel: bits for presence (channel c is bit c % 8 of byte c // 8), big-endian words for analog."""
    channels = len(values)
    if kind == "presence":
        packed = bytearray((channels + 7) // 8)
        for channel in range(channels):
            if values[channel]:
                packed[channel >> 3] |= 1 << (channel & 7)
        return struct.pack(">HB", channels, 0) + packed
    words = bytearray(3 + 2 * channels)
    struct.pack_into(">HB", words, 0, channels, 1)
    for channel in range(channels):
        struct.pack_into(">H", words, 3 + 2 * channel, values[channel])
    return bytes(words)


def changes_bodies(changes: list) -> list:
    """CHANGES bodies for (channel, value) pairs, at most CHANGES_PER_FRAME each; [b""] is a heartbeat."""
    bodies = []
    for start in range(0, len(changes), CHANGES_PER_FRAME):
        body = bytearray(4 * len(changes[start : start + CHANGES_PER_FRAME]))
        for index, (channel, value) in enumerate(changes[start : start + CHANGES_PER_FRAME]):
            struct.pack_into(">HH", body, 4 * index, channel, value)
        bodies.append(bytes(body))
    return bodies or [b""]


class Session:
    """What the co-processor says and does, over a ``line`` with ``write(bytes)``.

    ``board`` scans the sensors (``kind``, ``channels``, ``scan()``, ``snapshot()``, ``changes()``);
    ``strips`` hold the pixels (``lengths``, ``set(strip, start, rgb_bytes)``, ``show()``).
    """

    def __init__(self, line, board, strips) -> None:
        self.line = line
        self.board = board
        self.strips = strips
        self._sequence = 0
        self.sent = 0

    def send(self, kind: int, body: bytes = b"") -> None:
        payload = bytes((kind, self._sequence)) + body
        self._sequence = (self._sequence + 1) & 0xFF
        self.line.write(encode(payload))
        self.sent += 1

    def introduce(self) -> None:
        """HELLO, then a SNAPSHOT of a fresh scan: after a reset and in answer to SYNC."""
        board = self.board
        self.send(HELLO, hello_body(board.kind, board.channels, self.strips.lengths))
        self.send(SNAPSHOT, snapshot_body(board.kind, board.snapshot()))

    def report(self, changes: list) -> None:
        """The channels that changed in one CHANGES frame (more if over 255); none is a heartbeat."""
        for body in changes_bodies(changes):
            self.send(CHANGES, body)

    def obey(self, payload: bytes) -> None:
        """One payload from the Pi; LEDS for a strip or LED that does not exist and unknown types are ignored."""
        if len(payload) < 2 or len(payload) > MAX_PAYLOAD:
            return
        kind = payload[0]
        if kind == SYNC:
            self.introduce()
        elif kind == LEDS and len(payload) >= 5:
            strip, start = struct.unpack_from(">BH", payload, 2)
            colours = memoryview(payload)[5 : 5 + (len(payload) - 5) // 3 * 3]
            self.strips.set(strip, start, colours)
        elif kind == SHOW:
            self.strips.show()
