"""Frames on the line: COBS(payload + CRC-16/CCITT-FALSE, big-endian) + 0x00.

The same framing as the Pi's hal/cobs_frames.py, written for MicroPython: no
binascii.crc_hqx, no allocation per byte where it can be avoided.
"""

from micropython import const

#: The longest payload either side sends (type, sequence and body).
MAX_PAYLOAD = const(1024)
#: The longest encoded frame without its delimiter: payload, CRC and one COBS byte per 254.
MAX_ENCODED = const(1031)


def _crc_table() -> list:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _crc_table()


def crc16(data) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR."""
    crc = 0xFFFF
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def encode(payload) -> bytearray:
    """The bytes on the wire for one payload, delimiter included: standard COBS, as the Pi's ``cobs``
    package encodes it (a last run of 254 * k non-zero bytes ends on its full block)."""
    crc = crc16(payload)
    data = bytearray(payload)
    data.append(crc >> 8)
    data.append(crc & 0xFF)
    size = len(data)
    out = bytearray(size + size // 254 + 2)
    code_at, code, written = 0, 1, 1
    for index in range(size):
        byte = data[index]
        if byte:
            out[written] = byte
            written += 1
            code += 1
            if code < 0xFF or index == size - 1:
                continue
        out[code_at] = code  # a zero, or a full block with more after it, ends the block
        code_at, code = written, 1
        written += 1
    out[code_at] = code
    out[written] = 0
    return out[: written + 1]


def decode(encoded) -> bytes | None:
    """The payload of one encoded frame (no delimiter), or None if its COBS or CRC is wrong."""
    out = bytearray()
    index, size = 0, len(encoded)
    while index < size:
        code = encoded[index]
        end = index + code
        if code == 0 or end > size:
            return None
        out.extend(encoded[index + 1 : end])
        index = end
        if code < 0xFF and index < size:
            out.append(0)
    if len(out) < 3:
        return None
    payload = bytes(out[:-2])
    if crc16(payload) != (out[-2] << 8) | out[-1]:
        return None
    return payload


class FrameReader:
    """Cuts the bytes from the Pi into checked payloads; a bad or overlong frame is dropped and counted.

    A run of more than MAX_ENCODED bytes without a 0x00 is one bad frame up to the next 0x00,
    however the reads cut it: its end is never taken for a frame of its own.
    """

    def __init__(self) -> None:
        self._pending = b""
        self._overlong = False  # the bytes since the last 0x00 outgrew a frame: dropped up to the next
        self.dropped = 0

    def feed(self, data) -> list:
        """The payloads completed by ``data``, in order."""
        parts = (self._pending + bytes(data)).split(b"\x00")
        self._pending = parts.pop()
        payloads = []
        for encoded in parts:
            if self._overlong:
                self._overlong = False  # the end of a run already dropped and counted
                continue
            if not encoded:
                continue  # an idle line
            payload = decode(encoded) if len(encoded) <= MAX_ENCODED else None
            if payload is None:
                self.dropped += 1
            else:
                payloads.append(payload)
        if len(self._pending) > MAX_ENCODED:
            if not self._overlong:
                self.dropped += 1
            self._overlong = True
            self._pending = b""
        return payloads
