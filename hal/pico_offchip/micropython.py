"""MicroPython's ``micropython`` module under CPython (MicroPython's own is built in and wins); importing
it also gives CPython's ``time`` the RP2 port's tick functions (shim/pico_clock.py), which the
firmware imports from ``time``."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pico_clock

T = TypeVar("T")


def const(value: T) -> T:
    return value


def native(function: Callable) -> Callable:
    return function


viper = native


def kbd_intr(character: int) -> None:
    """The console's Ctrl-C: the USB line is not used under CPython."""


time.ticks_ms = pico_clock.ticks_ms
time.ticks_us = pico_clock.ticks_us
time.ticks_add = pico_clock.ticks_add
time.ticks_diff = pico_clock.ticks_diff
time.sleep_us = lambda us: time.sleep(us / 1_000_000) if us > 0 else None  # 0 returns at once, as on the Pico
time.sleep_ms = lambda ms: time.sleep(ms / 1000) if ms > 0 else None
