"""MicroPython's ``micropython`` module under CPython; importing it also gives ``time`` the
ticks functions MicroPython's has (the firmware imports them from ``time``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: The period of MicroPython's tick counters: ticks wrap, ``ticks_diff`` undoes the wrap.
TICKS_PERIOD = 1 << 30


def const(value: T) -> T:
    return value


def native(function: Callable) -> Callable:
    return function


viper = native


def kbd_intr(character: int) -> None:
    """The console's Ctrl-C: the USB line is not used under CPython."""


def _ticks_diff(later: int, earlier: int) -> int:
    return (later - earlier + TICKS_PERIOD // 2) % TICKS_PERIOD - TICKS_PERIOD // 2


time.ticks_ms = lambda: int(time.monotonic() * 1000) % TICKS_PERIOD
time.ticks_us = lambda: int(time.monotonic() * 1_000_000) % TICKS_PERIOD
time.ticks_diff = _ticks_diff
time.sleep_us = lambda us: time.sleep(us / 1_000_000)
time.sleep_ms = lambda ms: time.sleep(ms / 1000)
