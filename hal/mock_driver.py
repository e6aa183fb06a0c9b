"""The mock HAL opened from a configuration: a daemon with no hardware at all.

``[sensors]``, ``[leds]`` and ``[buttons]`` with ``driver = "mock"`` and the same
options share one ``MockBoard``; ``shared_mock_board(options)`` returns it, so a
simulator or a test can handle the pieces the daemon senses.  A board lives as long
as something holds one of its parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple
from weakref import WeakValueDictionary

from engine.boards import board_names, load_board
from hal.base import DriverOptionError
from hal.mock import MockBoard, Noise
from hal.options import DriverOptions
from wiring.model import Wiring, straight_wiring


class MockOptions(NamedTuple):
    """The options of a mock board: boards made with equal ones are shared."""

    board: str
    wiring: str | None
    sensing: str
    noise: str
    seed: int


_BOARDS: WeakValueDictionary[MockOptions, MockBoard] = WeakValueDictionary()

NOISE = {"none": Noise(), "realistic": Noise.realistic()}


def read_mock_options(options: Mapping[str, Any]) -> MockOptions:
    """Options: ``board`` (a board name, required), ``wiring`` (a wiring file of that board;
    default: the board's straight wiring), ``sensing`` ("presence" or "analog", for the
    straight wiring), ``noise`` ("none" or "realistic"), ``seed`` (default 0).
    """
    settings = _read_settings(options)
    if settings.wiring is not None:
        _wiring(settings)  # a file that cannot be read or wires another board is refused here
    return settings


def _read_settings(options: Mapping[str, Any]) -> MockOptions:
    read = DriverOptions("mock", options)
    settings = MockOptions(read.text("board", choices=tuple(board_names())),
                           read.text("wiring", None, example="wiring.toml"),
                           read.text("sensing", "presence", choices=("presence", "analog")),
                           read.text("noise", "none", choices=tuple(NOISE)),
                           read.integer("seed", 0, low=0, high=2**32 - 1))
    read.finish()
    return settings


def shared_mock_board(options: Mapping[str, Any]) -> MockBoard:
    """The mock board these options describe (see ``read_mock_options``), made on first use;
    its wiring file is read (and checked) once, when the board is made."""
    settings = _read_settings(options)
    found = _BOARDS.get(settings)
    if found is None:
        found = MockBoard(_wiring(settings), noise=NOISE[settings.noise], seed=settings.seed)
        _BOARDS[settings] = found
    return found


def _wiring(settings: MockOptions) -> Wiring:
    if settings.wiring is None:
        return straight_wiring(load_board(settings.board), settings.sensing)
    from wiring.files import load_wiring

    wiring = load_wiring(settings.wiring)
    if wiring.board != settings.board:
        raise DriverOptionError(
            "wiring", f"{settings.wiring} wires board {wiring.board!r}, not {settings.board!r}; "
                      f"give board = {wiring.board!r}"
        )
    return wiring


class MockPart:
    """One part of the shared mock board ("sensors", "leds" or "buttons") as a driver of ``hal.registry``."""

    def __init__(self, part: str) -> None:
        self.part = part

    read_options = staticmethod(read_mock_options)

    def from_options(self, options: Mapping[str, Any]) -> Any:
        return getattr(shared_mock_board(options), self.part)


MOCK_SENSORS = MockPart("sensors")
MOCK_LEDS = MockPart("leds")
MOCK_BUTTONS = MockPart("buttons")
