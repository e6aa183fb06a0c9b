"""Game positions on the mock board read back as the observations the daemon expects."""

from __future__ import annotations

import engine
from hal.mock import MockBoard, Noise
from wiring.model import ChannelCalibration, ClassBand, straight_wiring


def test_an_overpass_position_reads_back_through_presence_sensors():
    state = engine.new_game("overpass")
    wiring = straight_wiring(state.game.board)
    board = MockBoard(wiring)
    board.set_contents(state.contents())
    values = board.sensors.read().values
    for location, content in state.contents().items():
        assert values[wiring.channel_of[location]] == int(content is not None), location


def test_hexover_disks_read_as_their_class_and_a_flip_reverses_it():
    state = engine.new_game("hexover")
    wiring = straight_wiring(state.game.board, "analog", {"black": "north", "white": "south"})
    board = MockBoard(wiring, noise=Noise(analog_jitter=3.0), seed=11)
    sensors = board.sensors
    halfway = sensors.magnets.swing / 2  # thresholds halfway between empty and a magnet
    wiring.calibration = {
        channel: ChannelCalibration(
            baseline,
            (
                ClassBand("north", baseline + gain * halfway, 1023),
                ClassBand("south", 0, baseline - gain * halfway),
            ),
        )
        for channel, (baseline, gain) in enumerate(zip(sensors.baselines, sensors.gains, strict=True))
    }
    board.set_contents(state.contents())

    def observed() -> dict[str, str | None]:
        values = sensors.read().values
        return {
            location: wiring.calibration[channel].observe(values[channel])
            for channel, location in wiring.channels.items()
        }

    assert observed() == {location: wiring.expected(content) for location, content in state.contents().items()}
    disk = next(location for location, content in state.contents().items() if content == "black")
    board.flip(disk, "white")
    assert observed()[disk] == "south"
