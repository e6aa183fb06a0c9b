"""The far side of the SPI bus for gpiozero's mock pins: chips that answer like real ones."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockSPIDevice


class FakeHC165Chain(MockSPIDevice):
    """74HC165s on hardware SPI 0.0 (SCLK 11, MISO 9, CE0 8) with /PL on ``load_pin``.

    ``levels[c]`` is the voltage level (0/1) on input c (chip c // 8, input Dn with
    n = c % 8); like the real chip, the register only takes them in on a /PL pulse.
    """

    def __init__(self, factory: MockFactory, chips: int, load_pin: int = 25) -> None:
        super().__init__(clock_pin=11, mosi_pin=10, miso_pin=9, select_pin=8, pin_factory=factory)
        self.levels = [1] * (8 * chips)  # pulled up: nothing present
        self._load = factory.pin(load_pin)
        self._latched = [0] * chips
        self.latches = 0

    def on_start(self) -> None:
        super().on_start()
        if any(state.state == 0 for state in self._load.states[1:]):  # a /PL pulse since the last read
            self._latched = [
                sum(self.levels[8 * chip + bit] << bit for bit in range(8)) for chip in range(len(self._latched))
            ]
            self.latches += 1
        self._load.clear_states()
        for byte in self._latched:
            self.tx_word(byte)


class FakeMCP3008(MockSPIDevice):
    """An MCP3008 on SPI 0 selected by ``select_pin``: a single-ended read returns ``values[channel]``.

    The datasheet's exchange (figure 6-1): a start bit, the single-ended bit, three channel
    bits; then the chip clocks out a null bit and 10 data bits, most significant first.
    """

    def __init__(self, factory: MockFactory, select_pin: int) -> None:
        super().__init__(clock_pin=11, mosi_pin=10, miso_pin=9, select_pin=select_pin, pin_factory=factory)
        self.values = [0] * 8
        self.state = "idle"

    def on_start(self) -> None:
        super().on_start()
        self.state = "idle"

    def on_bit(self) -> None:
        if self.state == "idle" and self.rx_buf[-1]:
            self.state, self.rx_buf = "mode", []
        elif self.state == "mode":
            assert self.rx_buf[-1], "the driver asked for a differential reading"
            self.state, self.rx_buf = "channel", []
        elif self.state == "channel" and len(self.rx_buf) == 3:
            self.tx_word(self.values[self.rx_word()], 12)  # a sample period, the null bit, 10 data bits
            self.state = "result"
