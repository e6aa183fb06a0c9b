"""The reference firmware's parts under CPython: every check of checks.py (which test_firmware_checks.py
also runs under MicroPython), and what only CPython can check: the firmware against the Pi's own
code (hal/), which MicroPython cannot import."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pico_clock
import pytest
from gameboard_fw import NAME, frames, strict_json
from gameboard_fw.protocol import SYNC, Session
from gameboard_fw.sensors import Board, ShiftChain
from gameboard_fw.strips import Strips

from hypothesis import given, settings
from hypothesis import strategies as st

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


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12)


def strings_in(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)


def cpython_json(text: str):
    """CPython's reading, refusing what strict_json refuses on purpose: a key given twice (CPython keeps
    the last silently), NaN and Infinity, and a lone surrogate escape (no character)."""
    def no_twice(pairs: list) -> dict:
        if len({key for key, _ in pairs}) < len(pairs):
            raise ValueError("a key given twice")
        return dict(pairs)

    value = json.loads(text, object_pairs_hook=no_twice, parse_constant=lambda name: float("x"))
    if any("\ud800" <= char <= "\udfff" for string in strings_in(value) for char in string):
        raise ValueError("a lone surrogate")
    return value


@settings(max_examples=150, deadline=None)
@given(JSON_VALUES, st.sampled_from([None, 0, 2]), st.booleans())
def test_strict_json_reads_what_cpython_writes_as_cpython_reads_it(value, indent, ascii_only):
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert strict_json.loads(text) == json.loads(text)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.data())
def test_strict_json_refuses_whatever_cpython_refuses_and_reads_the_rest_alike(value, data):
    """One character deleted, doubled or inserted into a document: both interpreters' settings reader
    agrees with CPython's json, except for what ``cpython_json`` says it refuses on purpose."""
    text = json.dumps(value)
    at = data.draw(st.integers(0, len(text)))
    edit = data.draw(st.sampled_from(["delete", "double", *',:{}[]"\\ 0-.e']))
    text = (text[:at] + text[at + 1:] if edit == "delete" else
            text[:at] + text[at:at + 1] + text[at:] if edit == "double" else text[:at] + edit + text[at:])
    try:
        expected = cpython_json(text)
    except ValueError:
        with pytest.raises(strict_json.JsonError):
            strict_json.loads(text)
    else:
        assert strict_json.loads(text) == expected
