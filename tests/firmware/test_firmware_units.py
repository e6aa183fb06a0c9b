"""The reference firmware's parts under CPython: every check of checks.py (which test_firmware_checks.py
also runs under MicroPython), and what only CPython can check: the firmware against the Pi's own
code (hal/), which MicroPython cannot import."""

from __future__ import annotations

import random

import pico_clock
import pytest
from gameboard_fw import NAME, frames
from gameboard_fw.protocol import SYNC, Session
from gameboard_fw.sensors import Board, ShiftChain
from gameboard_fw.strips import Strips

from hal.cobs_frames import encode_frame
from hal.serial_protocol import Changes, Hello, Snapshot, parse_device_message
from tests.firmware.checks import CHECKS, RUNS_AROUND_254K, SQUARE_OFF_CHAIN, Line, Skip, ending_in_a_run, fake_pico


@pytest.mark.parametrize("function", CHECKS, ids=lambda function: function.__name__)
def test_under_cpython(function):
    try:
        function()
    except Skip as exc:
        pytest.skip(str(exc))
    finally:
        pico_clock.start_at(pico_clock.ticks_ms())  # a check that stopped the clock leaves it running


def test_frames_agree_with_the_pi_whatever_the_bytes():
    rng = random.Random(5)
    for size in [*range(600), 1024]:
        payload = bytes(rng.choice((0, 0, 1, 0xFF, rng.randrange(256))) for _ in range(size))
        assert bytes(frames.encode(payload)) == encode_frame(payload)
        assert frames.decode(encode_frame(payload)[:-1]) == (payload if size else None)


@pytest.mark.parametrize(("run", "alone"), RUNS_AROUND_254K,
                         ids=[f"{run}-{'alone' if alone else 'after-a-zero'}" for run, alone in RUNS_AROUND_254K])
def test_frames_ending_in_runs_around_254_k_agree_with_the_pi_byte_for_byte(run, alone):
    payload = ending_in_a_run(run, alone)
    assert bytes(frames.encode(payload)) == encode_frame(payload)
    assert frames.FrameReader().feed(encode_frame(payload)) == [payload]


def test_the_pi_reads_what_the_firmware_says():
    values = [0] * 24
    values[2] = 1
    fake_pico({"sensors": SQUARE_OFF_CHAIN}, values)
    line = Line()
    session = Session(line, Board(ShiftChain(0, 18, 16, 17, chips=3, channels=24)), Strips([{"pin": 22, "leds": 24}]))
    session.obey(bytes((SYNC, 0)))
    session.report([(4, 1)] * 300)
    messages = [parse_device_message(payload)[1] for payload in line.payloads()]
    assert messages == [Hello(1, "presence", 24, (24,), NAME), Snapshot(tuple(int(c == 2) for c in range(24))),
                        Changes(((4, 1),) * 255), Changes(((4, 1),) * 45)]
