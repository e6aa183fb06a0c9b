"""MicroPython's ``rp2`` module for the firmware off the chip (CPython and MicroPython): a PIO program
is kept with its settings (not assembled), a state machine hands the words it is given to
``machine.PICO``."""

import machine


class PIO:
    OUT_LOW, OUT_HIGH = 0, 1
    SHIFT_LEFT, SHIFT_RIGHT = 0, 1


class Program:
    def __init__(self, body, settings: dict) -> None:
        self.body = body
        self.settings = settings


def asm_pio(**settings):
    return lambda body: Program(body, settings)


class StateMachine:
    def __init__(self, number: int, program: Program, *, freq: int, sideset_base: machine.Pin) -> None:
        self.number = number
        self.program = program
        self.pin = sideset_base.number
        self.freq = freq

    def active(self, on: int) -> None:
        machine.PICO.start_state_machine(self.number, self.pin, self.program.settings, self.freq)

    def put(self, words, shift: int = 0) -> None:
        machine.PICO.state_machine_put(self.pin, [word << shift & 0xFFFFFFFF for word in words])


def bootsel_button() -> int:
    return machine.PICO.bootsel
