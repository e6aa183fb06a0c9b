"""Done when: a mock board soldered in an unknown order is calibrated by the tool alone, then plays a game.

Everything goes through the configuration file as on a Pi: the mock driver holds the
board's true (scrambled) wiring, ``calibrate`` writes ``[board] wiring``, and the
daemon reads it and follows a game played by hand.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.registry import game_class
from firmware_host.commands.calibrate import calibrate_with, opened_hal
from firmware_host.config import load_config
from firmware_host.daemon import Daemon
from hal.clock import ManualClock
from hal.mock_driver import shared_mock_board
from wiring.files import load_wiring, save_wiring

from .person import ScriptedPerson, scrambled_wiring

HANDS = Path(__file__).parents[1] / "daemon" / "hands.py"
PLIES = 20


def hands_module() -> ModuleType:
    """The daemon tests' person at the board (tests/daemon/hands.py), loaded by path."""
    name = "gameboard_daemon_tests_hands"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HANDS)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def write_config(folder: Path, game: str, truth: Path) -> Path:
    board = game_class(game)().board_name
    mock = f'driver = "mock"\nboard = "{board}"\nwiring = "{truth}"\n'
    text = (f'[game]\nname = "{game}"\n\n[board]\nwiring = "wiring.toml"\n\n[sensors]\n{mock}\n[leds]\n{mock}\n'
            f'[buttons]\n{mock}\n[dice]\nmode = "entered"\n\n[journal]\npath = "journal.sqlite3"\n')
    path = folder / "gameboard.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("game", "sensing", "classes"), [
    ("squareoff", "presence", None),
    ("hexover", "analog", {"white": "north", "black": "south"}),  # flips seen by the class readings
])
def test_a_scrambled_board_is_calibrated_then_plays_a_game(tmp_path: Path, game: str, sensing: str,
                                                           classes: dict[str, str] | None) -> None:
    board = game_class(game)().board_name
    truth = scrambled_wiring(board, seed=8, spare_channels=8, strips=2, sensing=sensing, piece_classes=classes)
    save_wiring(tmp_path / "truth.toml", truth)
    config = load_config(write_config(tmp_path, game, tmp_path / "truth.toml"))
    mock = shared_mock_board(config.sensors.options)

    with opened_hal(config) as hal:
        result = calibrate_with(config, hal.sensors, hal.leds, ScriptedPerson(mock), classes=classes)
    assert result.problems == []
    calibrated = load_wiring(tmp_path / "wiring.toml")
    assert (calibrated.channels, calibrated.leds) == (truth.channels, truth.leds)

    hands = hands_module()
    clock = ManualClock()
    reference = game_class(game)().new_initial_state()
    mock.set_contents(reference.contents())  # the person clears the calibration piece and sets up the game
    daemon = Daemon.from_config(config, clock)
    person = hands.Hands(daemon, mock, clock, seed=2)
    rng = random.Random(5)
    person.run(0.05)
    while not reference.is_terminal() and len(reference.history) < PLIES:
        move = hands.pick(reference, rng)
        person.play(daemon.state, move)
        reference.push(move)
    assert len(reference.history) == PLIES
    assert daemon.state.position() == reference.position()
    daemon.close()
