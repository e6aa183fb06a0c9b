"""MicroPython's ``machine`` module for the firmware off the chip, under CPython and MicroPython (whose
unix port loads this file instead of its own): each call goes to ``PICO``, the simulated Pico of the
test (tests/firmware/pico.py on a mock board, or this folder's fake_pico.py in the checks).

Plain Python that both interpreters run: no ``__future__``, no ``typing`` (MicroPython ignores
annotations, so they stay)."""

#: The simulated Pico the firmware's hardware calls reach; set by the test before the firmware starts.
PICO = None


class Pin:
    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, number: int, mode: int = -1, pull: int = -1, *, value: int | None = None) -> None:
        self.number = number
        self.mode = mode
        if value is not None:
            PICO.write_pin(number, value)

    def value(self, value: int | None = None) -> int | None:
        if value is None:
            return PICO.read_pin(self.number)
        PICO.write_pin(self.number, int(value))
        return None


class SPI:
    def __init__(self, bus: int, *, baudrate: int, polarity: int, phase: int, sck: Pin, miso: Pin) -> None:
        PICO.open_spi(bus, baudrate, polarity, phase)

    def readinto(self, buffer: bytearray) -> None:
        buffer[:] = PICO.shift_in(len(buffer))


class ADC:
    def __init__(self, pin: Pin) -> None:
        self.pin = pin.number

    def read_u16(self) -> int:
        return PICO.convert(self.pin)


class UART:
    def __init__(self, uart: int, *, baudrate: int, bits: int, parity: None, stop: int, tx: Pin, rx: Pin,
                 rxbuf: int, timeout: int) -> None:
        PICO.open_uart(uart, baudrate, tx.number, rx.number)

    def any(self) -> int:
        return PICO.uart_waiting()

    def read(self, count: int) -> bytes | None:
        return PICO.uart_read(count) or None

    def write(self, data: bytes) -> int:
        return PICO.uart_write(bytes(data))

    def deinit(self) -> None:
        PICO.close_uart()
