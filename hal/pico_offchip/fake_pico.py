"""The hardware around the firmware in its checks (tests/firmware/checks.py), small enough for MicroPython.

The shim's ``machine`` and ``rp2`` calls (this folder's modules) reach a ``FakePico``: the
checks set the channels' ``values`` and read what the strips were sent and what went out on
the UART.  Under the loop (``app.run``) each turn polls the UART once: that poll moves the
stopped clock (pico_clock.py) on by ``turn_ms``, runs what the check scheduled for that
moment, and BOOTSEL is pressed once ``run_ms`` have passed.

Why here, in hal/: the fake Pico and its shim are a simulated co-processor, the Pico's side of
the serial drivers' line, as hal/mock is a simulated board; the firmware's checks (tests/) and
its scan-rate benchmark (bench/firmware_scan_rate_pico.py) both run the firmware on it, and
neither may import the other.  The folder is not a package but package data: a test or bench
puts it on the path (after firmware/), where its ``machine``, ``rp2``, ``time`` and
``micropython`` stand in for MicroPython's own, under CPython and MicroPython's unix port alike.
"""

import pico_clock


class FakePico:
    """The pins, the 74HC165 chain, the multiplexers, the strips and the UART of one Pico.

    ``front_end`` is a checked front-end (``Settings(...).front_end``); ``values`` holds one
    reading a channel: presence 1 for a piece, or the ADC's 12-bit count.  Reading the inputs
    allocates nothing, so a check can count what the firmware's scan allocates.
    """

    def __init__(self, front_end: dict, values: list) -> None:
        self.front_end = front_end
        self.values = values
        self.outputs: dict = {}
        self.frames: dict = {}  # a strip's data pin -> the words last sent out
        self.writes: list = []  # (ms after the start, bytes) the firmware wrote to the UART
        self._incoming = bytearray()  # what the Pi sent, not yet read
        self._latched = bytearray(front_end.get("chips", 0))
        self.bootsel = 0
        self.turn_ms = 1
        self.run_ms = -1
        self.elapsed_ms = 0
        self._schedule: list = []  # (ms after the start, function), soonest last
        kind = front_end["front_end"]
        self._invert = 1 if front_end.get("active_low", True) else 0
        if kind == "hall_mux":
            self._select = front_end["select"]
            self._adc_pins = [mux["adc"] for mux in front_end["muxes"]]
            self._enables = [mux["enable"] for mux in front_end["muxes"]]

    # -- what the checks do -------------------------------------------------------------------

    def send(self, data) -> None:
        """Bytes from the Pi, waiting on the UART."""
        self._incoming.extend(data)

    def at(self, ms: int, action) -> None:
        """Call ``action()`` on the loop turn ``ms`` after the start."""
        self._schedule.append((ms, action))
        self._schedule.sort(key=lambda item: -item[0])

    # -- GPIO, SPI and the ADC ------------------------------------------------------------------

    def write_pin(self, number: int, value: int) -> None:
        self.outputs[number] = value
        if self.front_end["front_end"] == "hc165" and number == self.front_end["load"] and value == 0:
            self._latch()

    def read_pin(self, number: int) -> int:
        return self.values[self.front_end["pins"].index(number)] ^ self._invert

    def open_spi(self, bus: int, baudrate: int, polarity: int, phase: int) -> None:
        assert (polarity, phase) == (0, 0), "the 74HC165 shifts on the rising edge: SPI mode 0"

    def shift_in(self, count: int) -> bytes:
        assert len(self._latched) == count, "SPI read without a latch of the whole chain"
        return self._latched

    def _latch(self) -> None:
        """The chain copies its inputs (into the same buffer each time: the latch allocates nothing)."""
        chain, values = self._latched, self.values
        for chip in range(len(chain)):
            chain[chip] = 0xFF if self._invert else 0  # a switch to ground under a piece reads 0
        for channel in range(len(values)):
            chain[channel >> 3] ^= values[channel] << (channel & 7)

    def convert(self, adc_pin: int) -> int:
        """The ADC's reading of the one multiplexer enabled on ``adc_pin``, scaled as read_u16 scales 12 bits."""
        select, outputs = self._select, self.outputs
        line = 0
        for bit in range(4):
            line |= outputs.get(select[bit], 0) << bit
        found = -1
        for index in range(len(self._adc_pins)):
            enable = self._enables[index]
            if self._adc_pins[index] == adc_pin and (enable is None or outputs.get(enable, 1) == 0):
                assert found < 0, "two multiplexers enabled on one ADC pin"
                found = index
        assert found >= 0, "no multiplexer enabled on the ADC pin converted"
        channel = 16 * found + line
        count = self.values[channel] if channel < len(self.values) else 0
        return count << 4 | count >> 8

    # -- the strips -------------------------------------------------------------------------------

    def start_state_machine(self, number: int, pin: int, settings: dict, freq: int) -> None:
        assert freq == 8_000_000 and settings["pull_thresh"] == 24 and settings["autopull"]

    def state_machine_put(self, pin: int, words: list) -> None:
        self.frames[pin] = words

    def strip(self, pin: int) -> list:
        """The (r, g, b) colours the strip on ``pin`` shows, read as a WS2812 reads its words (GRB)."""
        return [(word >> 16 & 0xFF, word >> 24 & 0xFF, word >> 8 & 0xFF) for word in self.frames.get(pin, [])]

    # -- the UART, and the loop's turns -----------------------------------------------------------

    def open_uart(self, uart: int, baudrate: int, tx: int, rx: int) -> None:
        """The far end is ``send`` and ``writes``."""

    def uart_waiting(self) -> int:
        """The loop polls once a turn: the clock moves on, and what was scheduled for now happens."""
        if self.turn_ms:
            pico_clock.advance(self.turn_ms)
            self.elapsed_ms += self.turn_ms
            while self._schedule and self._schedule[-1][0] <= self.elapsed_ms:
                self._schedule.pop()[1]()
            if 0 <= self.run_ms <= self.elapsed_ms:
                self.bootsel = 1
        return len(self._incoming)

    def uart_read(self, count: int) -> bytes:
        data = bytes(self._incoming[:count])
        self._incoming = self._incoming[count:]
        return data

    def uart_write(self, data: bytes) -> int:
        self.writes.append((self.elapsed_ms, bytes(data)))
        return len(data)

    def close_uart(self) -> None:
        """Nothing to release."""
