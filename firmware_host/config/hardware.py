"""The hardware sections checked as opening them would (opening nothing), and the ``Hal`` they open into."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from engine.errors import GameboardError
from firmware_host.config.problems import Problems
from firmware_host.config.settings import DriverConfig
from hal.base import DriverOptionError

if TYPE_CHECKING:
    from hal.base import ButtonPanel, DiceSource, LedSink, SensorArray


class Hal(NamedTuple):
    """The opened hardware the daemon runs on."""

    sensors: SensorArray
    leds: LedSink
    buttons: ButtonPanel | None
    dice: DiceSource

    def close(self) -> None:
        """Release every part (LEDs dark)."""
        for part in (self.leds, self.sensors, self.buttons):
            if part is not None:
                part.close()


def check_driver(problems: Problems, section: DriverConfig, board: str | None) -> None:
    """The driver exists and takes its options, checked as opening it would, but opening nothing.

    A mock part must mock the game's board (``board``; None when the game is unusable).
    """
    from hal import registry
    if section.driver == "mock" and board is not None and section.options.get("board") != board:
        problems.add(f"{section.section}.board", f"the mock must be of the game's board: give board = \"{board}\"")
        return
    try:
        registry.check_options(section.section, section.driver, section.options)
    except DriverOptionError as exc:
        problems.add(*driver_problem(section, exc))
    except GameboardError as exc:  # a file the options name (a mock's wiring) has problems of its own
        problems.add_lines(str(exc))


def driver_problem(section: DriverConfig, exc: DriverOptionError) -> tuple[str, str]:
    """The dotted key a driver's option error belongs to, and the problem without the key."""
    return f"{section.section}.{exc.key}", str(exc).removeprefix(f"{exc.key}: ")


def check_pin_factory(problems: Problems, name: str) -> None:
    from hal.pins import pin_factory_problem
    problem = pin_factory_problem(name)
    if problem:
        problems.add("gpio.pin_factory", problem)
