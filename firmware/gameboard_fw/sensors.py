"""The board's sensors on the front-ends people build, and what of their readings to report.

A front-end reads every channel into a buffer: ``ShiftChain`` (74HC165s on SPI),
``DirectInputs`` (one GPIO a sensor), ``HallMuxes`` (analog Hall sensors through
CD74HC4067 multiplexers into the ADC).  Presence is 1 for a piece whatever the
switch's polarity: active-low inputs are inverted here.  ``Board`` keeps what was
last reported and finds the changes to send.
"""

from array import array
from time import sleep_us, ticks_diff, ticks_ms

from machine import ADC, SPI, Pin
from micropython import const

#: An analog channel reports a change at most this often (docs/serial-protocol.md).
ANALOG_HOLD_MS = const(5)
#: What a scan that changed nothing reports: one object for all of them.
NO_CHANGES = ()
#: Counts an analog reading must move from the last reported one to be sent: 3 counts of a 10-bit ADC
#: on the Pico's 12 bits (the protocol asks for 2-4, 8-16 here).  201 Hall sensors with 2 counts of
#: jitter then send heartbeats only, with 3 counts 0.8 KB/s; a threshold of 3 sent 34 KB/s.
DEFAULT_NOISE = const(12)


class ShiftChain:
    """74HC165s chained on SPI: /PL low latches every input at once, then the chain shifts out,
    the chip nearest MISO first; channel c is input D(c % 8) of chip c // 8 (as the Pi's hc165 driver)."""

    kind = "presence"

    def __init__(self, spi: int, sck: int, miso: int, load: int, chips: int, channels: int,
                 active_low: bool = True, baudrate: int = 1_000_000) -> None:
        self._spi = SPI(spi, baudrate=baudrate, polarity=0, phase=0, sck=Pin(sck), miso=Pin(miso))
        self._load = Pin(load, Pin.OUT, value=1)
        self._bytes = bytearray(chips)
        self._unpacked = bytearray(chips)  # the chain's bytes as last unpacked into ``_filled``
        self._filled: bytearray | None = None
        self._invert = 0xFF if active_low else 0x00
        self.channels = channels

    def read(self, values: bytearray) -> None:
        """Latch and shift the chain; unpack it into ``values`` (one byte a channel) only where it changed."""
        self._load.value(0)
        self._load.value(1)
        chain, unpacked = self._bytes, self._unpacked
        self._spi.readinto(chain)
        if chain == unpacked and values is self._filled:
            return
        invert = self._invert
        for channel in range(self.channels):
            values[channel] = ((chain[channel >> 3] ^ invert) >> (channel & 7)) & 1
        unpacked[:] = chain
        self._filled = values


class DirectInputs:
    """One GPIO input a sensor, with the pull-up (active low, the default) or pull-down."""

    kind = "presence"

    def __init__(self, pins: list, active_low: bool = True) -> None:
        pull = Pin.PULL_UP if active_low else Pin.PULL_DOWN
        self._pins = [Pin(number, Pin.IN, pull) for number in pins]
        self._invert = 1 if active_low else 0
        self.channels = len(pins)

    def read(self, values: bytearray) -> None:
        invert = self._invert
        pins = self._pins
        for channel in range(len(pins)):
            values[channel] = pins[channel].value() ^ invert


class HallMuxes:
    """Analog Hall sensors through CD74HC4067s: four select pins shared by every multiplexer, each
    multiplexer's output on an ADC pin (several may share one, each then with its own /EN pin).
    Channel c is input c % 16 of multiplexer c // 16; the value is the ADC's 12-bit count.
    A scan allocates nothing (index loops over flat lists, no tuple a channel): no garbage to stop for."""

    kind = "analog"

    def __init__(self, select: list, muxes: list, channels: int, settle_us: int = 10) -> None:
        self._select = [Pin(number, Pin.OUT, value=0) for number in select]
        opened: dict = {}
        self._adcs: list = []  # multiplexer m's ADC and /EN pin (None: always on)
        self._enables: list = []
        for mux in muxes:
            pin = mux["adc"]
            if pin not in opened:
                opened[pin] = ADC(Pin(pin))
            self._adcs.append(opened[pin])
            enable = mux.get("enable")
            self._enables.append(Pin(enable, Pin.OUT, value=1) if enable is not None else None)
        self._settle_us = settle_us
        self.channels = channels

    def read(self, values: array) -> None:
        select = self._select  # one name a line: packing five into a tuple would allocate
        adcs = self._adcs
        enables = self._enables
        settle = self._settle_us
        channels = self.channels
        for line in range(16):
            for bit in range(4):
                select[bit].value((line >> bit) & 1)
            for index in range(len(adcs)):
                channel = index * 16 + line
                if channel >= channels:
                    break
                enable = enables[index]
                if enable is not None:
                    enable.value(0)
                sleep_us(settle)
                values[channel] = adcs[index].read_u16() >> 4
                if enable is not None:
                    enable.value(1)


class Board:
    """A front-end's readings and what the Pi has been told of them.

    Presence channels report every change; an analog one reports a move of more than
    ``noise`` counts from the value last reported, at most every ANALOG_HOLD_MS: a change
    held back is sent by the first scan after that, with the value read then.  A channel's
    hold ends at the first scan ANALOG_HOLD_MS after its report, and no report time is
    compared after that: ticks wrap (every 2**30 ms on the RP2), and ticks_diff from a time
    2**29 ms old is negative, which would hold a channel quiet for 6.2 days back for as long.
    """

    def __init__(self, front_end, noise: int = DEFAULT_NOISE) -> None:
        self.front_end = front_end
        self.kind = front_end.kind
        self.channels = front_end.channels
        self.noise = noise
        self._values: bytearray | array = bytearray(self.channels)
        self._reported: bytearray | array = bytearray(self.channels)
        if self.kind == "analog":
            self._values = array("H", [0] * self.channels)
            self._reported = array("H", [0] * self.channels)
        self._sent_at = [0] * self.channels  # ticks_ms of a held channel's last report
        self._held = bytearray(self.channels)  # 1 while a channel's last report is under ANALOG_HOLD_MS old
        self._holding = 0  # how many are held
        self.scans = 0

    def snapshot(self, now=None):
        """A fresh scan of every channel, all of it now reported (for SNAPSHOT) at ``now`` (ticks_ms)."""
        now = ticks_ms() if now is None else now
        self.front_end.read(self._values)
        self.scans += 1
        analog = self.kind == "analog"
        for channel in range(self.channels):
            self._reported[channel] = self._values[channel]
            self._sent_at[channel] = now
            self._held[channel] = analog
        self._holding = self.channels if analog else 0
        return self._reported

    def changes(self, now):
        """Scan once: the (channel, value) pairs to report, now counted as reported (a list, or
        NO_CHANGES: a quiet scan allocates nothing)."""
        values, reported = self._values, self._reported
        self.front_end.read(values)
        self.scans += 1
        if values == reported and not self._holding:
            return NO_CHANGES
        if self.kind == "presence":
            changes = []
            for channel in range(self.channels):
                if values[channel] != reported[channel]:
                    reported[channel] = values[channel]
                    changes.append((channel, values[channel]))
            return changes
        changes = None
        noise = self.noise
        sent_at = self._sent_at
        held = self._held
        holding = self._holding
        for channel in range(self.channels):
            if held[channel]:
                if ticks_diff(now, sent_at[channel]) < ANALOG_HOLD_MS:
                    continue
                held[channel] = 0
                holding -= 1
            value = values[channel]
            if abs(value - reported[channel]) > noise:
                reported[channel] = value
                sent_at[channel] = now
                held[channel] = 1
                holding += 1
                if changes is None:
                    changes = []
                changes.append((channel, value))
        self._holding = holding
        return NO_CHANGES if changes is None else changes
