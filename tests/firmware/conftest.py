"""The firmware's tests run it under CPython (and, through run_checks.py, MicroPython): its folder and the
machine/rp2/time shim (hal/pico_offchip) go on the path first."""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path[:0] = [str(HERE.parents[1] / "firmware"), str(HERE.parents[1] / "hal" / "pico_offchip")]

import micropython  # noqa: F401  (gives time the ticks functions before any firmware module imports them)
