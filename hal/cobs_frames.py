"""Frames on the serial link: COBS-encoded payloads with a CRC-16, ended by a 0x00 byte.

COBS leaves no zero byte inside a frame, so a receiver that starts listening in the
middle of a stream, or loses bytes, resynchronises at the next zero; the CRC-16
(CCITT, init 0xFFFF: ``binascii.crc_hqx``) catches corrupted bytes.  A bad frame is
dropped and counted, never raised: a noisy cable must not stop the reader.
"""

from __future__ import annotations

from binascii import crc_hqx
from collections import Counter

from cobs import cobs

DELIMITER = b"\x00"

#: The longest payload either side sends; longer garbage is dropped.
MAX_PAYLOAD = 1024

#: An encoded frame is at most this long: payload, CRC and COBS's overhead byte per 254.
MAX_ENCODED = MAX_PAYLOAD + 2 + (MAX_PAYLOAD + 2) // 254 + 1


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection."""
    return crc_hqx(data, 0xFFFF)


def encode_frame(payload: bytes) -> bytes:
    """The bytes on the wire for one payload, delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"a payload is at most {MAX_PAYLOAD} bytes, not {len(payload)}")
    return cobs.encode(payload + crc16(payload).to_bytes(2, "big")) + DELIMITER


class FrameReader:
    """Cuts a byte stream into checked payloads; ``errors`` counts what it dropped, by reason.

    A run of more than MAX_ENCODED bytes without a 0x00 is one overlong frame up to the next
    0x00, however the reads cut it: its end is never taken for a frame of its own.
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self._overlong = False  # the bytes since the last 0x00 outgrew a frame: dropped up to the next
        self.errors: Counter[str] = Counter()

    def feed(self, data: bytes) -> list[bytes]:
        """The payloads completed by ``data``, in order."""
        self._pending += data
        *complete, rest = self._pending.split(DELIMITER)
        self._pending = bytearray(rest)
        payloads = []
        for encoded in complete:
            if self._overlong:
                self._overlong = False  # the end of a run already dropped and counted
                continue
            payload = self._decode(bytes(encoded))
            if payload is not None:
                payloads.append(payload)
        if len(self._pending) > MAX_ENCODED:
            if not self._overlong:
                self.errors["overlong"] += 1
            self._overlong = True
            self._pending.clear()
        return payloads

    def reset(self) -> None:
        """Forget a half-received frame (the port was closed)."""
        self._pending.clear()
        self._overlong = False

    def _decode(self, encoded: bytes) -> bytes | None:
        if not encoded:
            return None  # two delimiters in a row: an idle line, not an error
        if len(encoded) > MAX_ENCODED:
            self.errors["overlong"] += 1
            return None
        try:
            decoded = cobs.decode(encoded)
        except cobs.DecodeError:
            self.errors["cobs"] += 1
            return None
        if len(decoded) < 3:
            self.errors["short"] += 1
            return None
        payload, check = decoded[:-2], int.from_bytes(decoded[-2:], "big")
        if crc16(payload) != check:
            self.errors["crc"] += 1
            return None
        return payload
