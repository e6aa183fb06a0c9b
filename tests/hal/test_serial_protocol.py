"""Framing and messages of the co-processor protocol, byte by byte as docs/serial-protocol.md gives them."""

from __future__ import annotations

import pytest

from hal.cobs_frames import MAX_PAYLOAD, FrameReader, crc16, encode_frame
from hal.serial_protocol import (
    Changes,
    Hello,
    MessageType,
    ProtocolError,
    Snapshot,
    host_payload,
    led_bodies,
    parse_device_message,
)
from tests.hal.documented_frames import documented_frames


def test_crc16_is_ccitt_false():
    assert crc16(b"123456789") == 0x29B1  # the catalogue's check value for CRC-16/CCITT-FALSE


def test_the_documented_example_frames():
    frames = documented_frames()
    assert len(frames) == 7
    for payload, wire in frames:
        assert encode_frame(payload) == wire
        assert FrameReader().feed(wire) == [payload]


def test_frames_round_trip_whatever_the_bytes_and_however_they_arrive():
    payloads = [b"\x00\x00", bytes(range(256)), b"\x01" * MAX_PAYLOAD]
    stream = b"".join(encode_frame(p) for p in payloads)
    reader = FrameReader()
    received = []
    for start in range(0, len(stream), 7):  # the bytes trickle in
        received.extend(reader.feed(stream[start : start + 7]))
    assert received == payloads and not reader.errors


def test_bad_frames_are_counted_by_reason():
    reader = FrameReader()
    good = encode_frame(b"\x03\x05")
    flipped = bytearray(good)
    flipped[1] ^= 0x01
    assert reader.feed(bytes(flipped) + b"\x00\x00" + b"\x05\x01\x00" + b"\x01\x01\x00" + good) == [b"\x03\x05"]
    assert reader.errors == {"crc": 1, "cobs": 1, "short": 1}
    assert reader.feed(b"\x07" * 2000) == [] and reader.errors["overlong"] == 1
    with pytest.raises(ValueError, match="at most 1024 bytes"):
        encode_frame(bytes(MAX_PAYLOAD + 1))


@pytest.mark.parametrize("cut", [2000, 1500, 1040])
def test_the_tail_of_an_overlong_run_split_across_reads_is_no_frame(cut):
    """A run without 0x00 longer than a frame is one bad frame up to the next 0x00, however it arrives."""
    good = encode_frame(b"\x03\x05")
    run = b"\x07" * 2000 + good  # a frame glued to garbage: no 0x00 before it
    reader = FrameReader()
    assert reader.feed(run[:cut]) == []
    assert reader.feed(run[cut:]) == []
    assert reader.feed(good) == [b"\x03\x05"]
    assert reader.errors == {"overlong": 1}


def test_device_messages_parse():
    hello = bytes((0x01, 7, 1, 1)) + (200).to_bytes(2, "big") + bytes((2,)) + b"\x00\x78\x00\x51" + b"mcu"
    assert parse_device_message(hello) == (7, Hello(1, "analog", 200, (120, 81), "mcu"))
    bits = bytes((0x02, 8)) + (10).to_bytes(2, "big") + b"\x00" + bytes((0b10000001, 0b10))
    assert parse_device_message(bits) == (8, Snapshot((1, 0, 0, 0, 0, 0, 0, 1, 0, 1)))
    words = bytes((0x02, 9, 0, 2, 1, 0x02, 0x00, 0x03, 0xFF))
    assert parse_device_message(words) == (9, Snapshot((512, 1023)))
    changes = bytes((0x03, 10, 0, 5, 0, 1, 0, 6, 0, 0))
    assert parse_device_message(changes) == (10, Changes(((5, 1), (6, 0))))
    assert parse_device_message(bytes((0x03, 11))) == (11, Changes(()))  # a heartbeat


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"\x01", "needs a type and a sequence"),
        (bytes((0x44, 0)), "unknown message type 0x44"),
        (bytes((0x02, 0, 0, 10, 0, 1)), "needs 2 bytes, not 1"),
        (bytes((0x02, 0, 0, 1, 5, 0)), "encoding 5"),
        (bytes((0x03, 0, 0, 1, 0)), "not a whole number of 4-byte changes"),
        (bytes((0x01, 0, 1, 0)), "cut short"),
        (bytes((0x01, 0, 1, 3, 0, 1, 0)), "sensing kind 3"),
    ],
)
def test_malformed_messages_say_what_is_wrong(payload, message):
    with pytest.raises(ProtocolError, match=message):
        parse_device_message(payload)


def test_host_messages():
    assert host_payload(MessageType.SYNC, 257) == b"\x81\x01"
    bodies = led_bodies(1, tuple((i % 256, 1, 2) for i in range(301)))
    assert [len(body) for body in bodies] == [3 + 900, 3 + 3]
    assert bodies[1][:3] == bytes((1, 0x01, 0x2C))  # strip 1, start 300
