"""The mock HAL opened from a configuration: a daemon with no hardware at all.

``[sensors]``, ``[leds]`` and ``[buttons]`` with ``driver = "mock"`` and the same
options share one ``MockBoard``; ``shared_mock_board(options)`` returns it, so a
simulator or a test can handle the pieces the daemon senses.  A board lives as long
as something holds one of its parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from weakref import WeakValueDictionary

from engine.boards import board_names, load_board
from hal.base import DriverOptionError
from hal.mock import MockBoard, MockButtons, MockLeds, MockSensors, Noise
from hal.options import DriverOptions
from wiring.model import Wiring, straight_wiring

_BOARDS: WeakValueDictionary[tuple[Any, ...], MockBoard] = WeakValueDictionary()

NOISE = {"none": Noise(), "realistic": Noise.realistic()}


def shared_mock_board(options: Mapping[str, Any]) -> MockBoard:
    """The mock board these options describe, made on first use.

    Options: ``board`` (a board name, required), ``wiring`` (a wiring file; default:
    the board's straight wiring), ``sensing`` ("presence" or "analog", for the straight
    wiring), ``noise`` ("none" or "realistic"), ``seed`` (default 0).
    """
    read = DriverOptions("mock", options)
    board = read.text("board", choices=tuple(board_names()))
    wiring_path = read.text("wiring", None, example="wiring.toml")
    sensing = read.text("sensing", "presence", choices=("presence", "analog"))
    noise = read.text("noise", "none", choices=tuple(NOISE))
    seed = read.integer("seed", 0, low=0, high=2**32 - 1)
    read.finish()
    key = (board, wiring_path, sensing, noise, seed)
    found = _BOARDS.get(key)
    if found is None:
        found = MockBoard(_wiring(board, wiring_path, sensing), noise=NOISE[noise], seed=seed)
        _BOARDS[key] = found
    return found


def _wiring(board: str, path: str | None, sensing: str) -> Wiring:
    if path is None:
        return straight_wiring(load_board(board), sensing)
    from wiring.files import load_wiring

    wiring = load_wiring(path)
    if wiring.board != board:
        raise DriverOptionError(
            "wiring", f"{path} wires board {wiring.board!r}, not {board!r}; give board = {wiring.board!r}"
        )
    return wiring


def open_mock_sensors(options: Mapping[str, Any]) -> MockSensors:
    """The shared mock board's sensors (options: see ``shared_mock_board``)."""
    return shared_mock_board(options).sensors


def open_mock_leds(options: Mapping[str, Any]) -> MockLeds:
    """The shared mock board's LEDs (options: see ``shared_mock_board``)."""
    return shared_mock_board(options).leds


def open_mock_buttons(options: Mapping[str, Any]) -> MockButtons:
    """The shared mock board's buttons (options: see ``shared_mock_board``)."""
    return shared_mock_board(options).buttons
