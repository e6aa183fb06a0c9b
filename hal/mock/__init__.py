"""The mock HAL: a physical board in memory, seen through its true wiring.

Tests and the simulator lift, place, slide and flip pieces on a ``MockBoard``; its
``sensors``, ``leds`` and ``buttons`` are drivers like any other, so the daemon runs
on it unchanged.  Like gpiozero's mock pins it is a first-class driver, not a test
hack.  Optional ``Noise`` makes the readings as untidy as a real board's: contacts
bounce after a change, a slid piece passes over the locations on its way, a hand
bumps a neighbour that lifts and drops back.  Every effect is scheduled against the
injected clock (no sleeps, no threads), so a test with a ``hal.clock.ManualClock``
reads the sensors at exact moments and gets the same values on every run.

By job: ``board`` (the pieces and the handling's effects), ``noise``, and the parts the
daemon drives: ``sensors``, ``leds``, ``buttons``.  ``hal.mock_driver`` opens them from a
configuration.
"""

from hal.mock.board import BUMP_REACH, MockBoard
from hal.mock.buttons import MockButtons
from hal.mock.leds import MockLeds
from hal.mock.noise import MockBoardError, Noise
from hal.mock.sensors import MockSensors

__all__ = ["BUMP_REACH", "MockBoard", "MockBoardError", "MockButtons", "MockLeds", "MockSensors", "Noise"]
