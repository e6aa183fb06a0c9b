"""MicroPython's ``time`` for the firmware off the chip (the unix port loads this file instead of
its own): the unix port's sleeps with the RP2 port's tick counters.  CPython never loads it:
its ``time`` is built in, and micropython.py (beside this) adds the ticks to it."""

from pico_clock import ticks_add, ticks_diff, ticks_ms, ticks_us
from utime import sleep, sleep_ms, sleep_us
