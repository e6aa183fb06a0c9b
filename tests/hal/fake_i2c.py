"""A fake I2C bus with register models of the MCP23017 and the ADS1115.

It has the interface Adafruit's I2CDevice uses (``try_lock``, ``unlock``, ``writeto``,
``readfrom_into``, ``writeto_then_readfrom``), so the real Adafruit drivers run on it;
an address with no chip fails as a real bus does (OSError), and the chips behave as
their datasheets say for the registers the drivers touch.
"""

from __future__ import annotations

import errno


class FakeI2C:
    def __init__(self, devices: dict[int, object]) -> None:
        self.devices = devices

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def _chip(self, address: int):
        if address not in self.devices:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        return self.devices[address]

    def writeto(self, address: int, buffer, *, start: int = 0, end: int | None = None) -> None:
        self._chip(address).write(bytes(buffer[start:end]))

    def readfrom_into(self, address: int, buffer, *, start: int = 0, end: int | None = None) -> None:
        end = len(buffer) if end is None else end
        buffer[start:end] = self._chip(address).read(end - start)

    def writeto_then_readfrom(
        self,
        address: int,
        out,
        into,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        self.writeto(address, out, start=out_start, end=out_end)
        self.readfrom_into(address, into, start=in_start, end=in_end)


class FakeMCP23017:
    """Registers in the default bank 0 layout; the pointer advances after each byte (sequential mode).

    ``grounded`` is the set of pins (0-15) a sensor pulls to ground; any other pin reads 1
    only if its pull-up (GPPU) is on, as a floating input would not read reliably high.
    """

    IODIR, GPPU, GPIO = 0x00, 0x0C, 0x12

    def __init__(self) -> None:
        self.registers = bytearray(0x16)
        self.registers[0] = self.registers[1] = 0xFF  # all inputs after reset
        self.grounded: set[int] = set()
        self.pointer = 0

    def write(self, data: bytes) -> None:
        if data:
            self.pointer = data[0]
            for byte in data[1:]:
                self.registers[self.pointer] = byte
                self.pointer += 1

    def read(self, count: int) -> bytes:
        pull_ups = self.registers[self.GPPU] | self.registers[self.GPPU + 1] << 8
        levels = pull_ups & ~sum(1 << pin for pin in self.grounded)
        self.registers[self.GPIO], self.registers[self.GPIO + 1] = levels & 0xFF, levels >> 8
        data = bytes(self.registers[self.pointer : self.pointer + count])
        self.pointer += count
        return data


class FakeADS1115:
    """A single-shot conversion starts when a config write sets OS (bit 15); MUX (bits 14-12)
    100-111 selects AIN0-3 against ground.  ``volts[n]`` is the voltage on AINn; the result
    is volts / full scale * 32768 (at most 32767), full scale set by the PGA bits (11-9)."""

    CONVERSION, CONFIG = 0x00, 0x01
    FULL_SCALE = {0: 6.144, 1: 4.096, 2: 2.048, 3: 1.024, 4: 0.512, 5: 0.256}

    def __init__(self) -> None:
        self.volts = [0.0] * 4
        self.registers = {self.CONVERSION: 0, self.CONFIG: 0x8583}
        self.pointer = 0
        self.conversions = 0

    def write(self, data: bytes) -> None:
        if not data:
            return
        self.pointer = data[0]
        if len(data) == 3:
            value = data[1] << 8 | data[2]
            self.registers[self.pointer] = value
            if self.pointer == self.CONFIG and value & 0x8000:
                mux = (value >> 12) & 0b111
                assert mux >= 0b100, "the driver asked for a differential reading"
                full_scale = self.FULL_SCALE[(value >> 9) & 0b111]
                count = round(self.volts[mux - 0b100] / full_scale * 32768)  # 1 LSB = full scale / 2^15
                self.registers[self.CONVERSION] = max(-32768, min(32767, count)) & 0xFFFF
                self.conversions += 1

    def read(self, count: int) -> bytes:
        return self.registers[self.pointer].to_bytes(2, "big")[:count]
