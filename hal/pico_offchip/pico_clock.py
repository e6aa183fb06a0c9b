"""The RP2 port's tick counters for the firmware off the chip, under CPython and MicroPython alike.

They wrap at 2**30 as on a Pico (the unix port's wrap at 2**62, CPython's clocks never), so
the firmware's time comparisons meet the wrap here as on the chip.  They follow the host's
clock from wherever a test starts them (``start_at``), or stand still (``stop_at``) and move
only when a test ``advance``s them.
"""

try:
    from utime import ticks_us as _host_us  # MicroPython: the unix port's own counter
except ImportError:
    from time import monotonic_ns

    def _host_us():
        return monotonic_ns() // 1000


#: The RP2 port's period (MICROPY_PY_TIME_TICKS_PERIOD): ticks_ms wraps 12.4 days after power-up.
PERIOD = 1 << 30
_MASK = PERIOD - 1
_HALF = PERIOD >> 1

_offset_us = 0
_stopped_ms = None  # the ms the clock stands at, or None while it follows the host's


def ticks_add(ticks, delta):
    return (ticks + delta) & _MASK


def ticks_diff(later, earlier):
    return ((later - earlier + _HALF) & _MASK) - _HALF


def ticks_us():
    if _stopped_ms is not None:
        return (_stopped_ms * 1000) & _MASK
    return (_host_us() + _offset_us) & _MASK


def ticks_ms():
    if _stopped_ms is not None:
        return _stopped_ms
    return ((_host_us() + _offset_us) // 1000) & _MASK


def start_at(ms):
    """Run on from ``ms`` (e.g. a few seconds before the wrap) with the host's clock."""
    global _offset_us, _stopped_ms
    _stopped_ms = None
    _offset_us = ms * 1000 - _host_us()


def stop_at(ms):
    """Stand at ``ms`` until ``advance``d: the firmware sees exactly the times a test gives it."""
    global _stopped_ms
    _stopped_ms = ms & _MASK


def advance(ms):
    global _stopped_ms
    _stopped_ms = ticks_add(_stopped_ms, ms)
