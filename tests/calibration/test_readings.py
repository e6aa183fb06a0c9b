"""The empty board's readings: how far a piece must move a channel, and which channels are stuck."""

from __future__ import annotations

from firmware_host.calibration.readings import EmptyBoard, Reading


def test_a_piece_must_move_an_analog_channel_beyond_its_jitter() -> None:
    empty = EmptyBoard("analog", (Reading(512, 510, 514), Reading(500, 500, 500)), min_change=10)
    assert empty.threshold(0) == 24 and empty.threshold(1) == 10
    assert empty.changed([Reading(530, 530, 530), Reading(511, 511, 511)]) == {1: Reading(511, 511, 511)}


def test_a_stuck_analog_channel_stands_out_from_the_others() -> None:
    readings = tuple(Reading(v, v, v) for v in (500, 520, 490, 1023, 511, 0))
    assert EmptyBoard("analog", readings, min_change=10).stuck() == [3, 5]
    assert EmptyBoard("presence", (Reading(0, 0, 0), Reading(1, 1, 1)), 10).stuck() == [1]
