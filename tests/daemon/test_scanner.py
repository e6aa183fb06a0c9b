"""Scan, debounce and observe: chatter never reaches the tracker; analog readings become classes."""

from __future__ import annotations

import pytest

from engine.boards import load_board
from firmware_host.observer import Observer, WiringMismatchError
from firmware_host.scanner import Debouncer, Scanner
from hal.clock import ManualClock
from hal.mock import MockBoard, Noise
from wiring.model import PRESENT, ChannelCalibration, ClassBand, straight_wiring


def test_a_change_is_reported_once_it_has_held_for_the_debounce_time() -> None:
    debouncer = Debouncer([None, None], hold=0.005)
    assert debouncer.update([PRESENT, None], 0.000) == {}
    assert debouncer.update([PRESENT, None], 0.004) == {}
    assert debouncer.update([PRESENT, None], 0.005) == {0: PRESENT}
    assert debouncer.update([PRESENT, None], 0.010) == {}
    assert debouncer.stable == [PRESENT, None]


def test_chatter_restarts_the_timer_and_a_return_to_the_stable_value_cancels_it() -> None:
    debouncer = Debouncer([None], hold=0.005)
    for t, value in [(0.000, PRESENT), (0.002, None), (0.003, PRESENT), (0.007, PRESENT)]:
        assert debouncer.update([value], t) == {}
    assert debouncer.update([PRESENT], 0.008) == {0: PRESENT}
    debouncer.update([None], 0.010)
    debouncer.update([PRESENT], 0.011)
    assert not debouncer.pending
    assert debouncer.update([PRESENT], 0.100) == {}


def test_the_scanner_hides_contact_bounce_and_a_slide_over_intermediate_locations() -> None:
    clock = ManualClock()
    board = load_board("squareoff")
    wiring = straight_wiring(board)
    mock = MockBoard(wiring, clock=clock, noise=Noise(bounce_time=0.003, bounce_probability=1.0, slide_step=0.004),
                     seed=3)
    mock.set_contents({"p17": "black"})
    scanner = Scanner(mock.sensors, Observer(wiring, "presence", mock.sensors.channels), 0.006, clock)
    mock.move("p17", "p1", via=["p9"])
    reported: dict[str, object] = {}
    for _ in range(60):
        clock.advance(0.001)
        reported.update(scanner.scan())
    assert reported == {"p17": None, "p1": PRESENT}
    assert scanner.board()["p1"] == PRESENT and scanner.board()["p9"] is None


def test_analog_readings_are_classified_and_unknown_classes_read_as_present() -> None:
    wiring = straight_wiring(load_board("squareoff"), "analog", {"black": "north"})
    bands = (ClassBand("north", 600, 1023), ClassBand("south", 0, 400))
    wiring.calibration = {channel: ChannelCalibration(512, bands) for channel in wiring.channels}
    observer = Observer(wiring, "analog", 24)
    assert observer.observe([700, 300, 512] + [512] * 21)[:3] == ["north", PRESENT, None]


def test_a_wiring_that_does_not_fit_the_sensors_is_refused_with_the_fix() -> None:
    wiring = straight_wiring(load_board("squareoff"))
    with pytest.raises(WiringMismatchError, match="only 10 .*chip count"):
        Observer(wiring, "presence", 10)
    with pytest.raises(WiringMismatchError, match="wiring is for presence sensors .* analog"):
        Observer(wiring, "analog", 24)
    analog = straight_wiring(load_board("squareoff"), "analog")
    with pytest.raises(WiringMismatchError, match="no calibration; run `gameboard calibrate`"):
        Observer(analog, "analog", 24)
