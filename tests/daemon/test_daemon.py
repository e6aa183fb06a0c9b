"""End to end on the mock HAL: games played as lifts, slides and places with noise, buttons, dice, sync."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.core import Game
from engine.registry import available_games
from firmware_host.config import Hal, LoopConfig
from firmware_host.daemon import Daemon, LedSettings
from firmware_host.journal import Journal
from firmware_host.presenter import PALETTE
from firmware_host.tracker import Status
from hal.clock import ManualClock
from hal.dice import EnteredDice
from hal.mock import MockBoard, Noise
from wiring.model import ChannelCalibration, ClassBand, straight_wiring

LOOP = LoopConfig(scan_hz=100, debounce_ms=8, settle_ms=400, out_of_sync_ms=1500, blink_ms=200)
MAX_PLIES = 80  # games whose random play may wander on are cut here and compared all the same


def open_board(game: Game, journal: Path, *, noise: Noise | None = None, seed: int = 0, contents=None,
               sensing: str = "presence", classes: dict[str, str] | None = None):
    """A mock board set up with the game's first position (or ``contents``) and a daemon on it."""
    clock = ManualClock()
    wiring = straight_wiring(game.board, sensing, classes)
    mock = MockBoard(wiring, clock=clock, noise=noise, seed=seed)
    if sensing == "analog":
        wiring.calibration = calibrated(mock)
    start = game.new_initial_state().contents() if contents is None else contents
    mock.set_contents({loc: piece for loc, piece in start.items() if piece})
    hal = Hal(mock.sensors, mock.leds, mock.buttons, EnteredDice())
    daemon = Daemon(game, hal, wiring, Journal(journal), clock, loop=LOOP,
                    leds=LedSettings(brightness=1.0, current_budget_ma=100_000))
    return daemon, mock, clock


def play_game(daemon: Daemon, mock: MockBoard, clock: ManualClock, hands, seed: int, plies: int = MAX_PLIES):
    """Random moves a person can make, played on the board; returns the engine state of those moves."""
    person = hands.Hands(daemon, mock, clock, seed)
    rng = random.Random(seed)
    reference = daemon.state.clone()
    person.run(0.05)
    while not reference.is_terminal() and len(reference.history) < plies:
        move = hands.pick(reference, rng)
        person.play(daemon.state, move)
        reference.push(move)
    return reference


@pytest.mark.parametrize("name", sorted(available_games()))
def test_a_game_played_by_hand_with_noise_ends_in_the_engine_state_of_the_intended_moves(name, hands, tmp_path):
    game = available_games()[name]()
    daemon, mock, clock = open_board(game, tmp_path / "j.sqlite3", noise=Noise.realistic(), seed=7)
    reference = play_game(daemon, mock, clock, hands, seed=11)
    assert daemon.state.position() == reference.position()
    assert [str(m) for m in daemon.state.history] == [str(m) for m in reference.history]
    assert daemon.journal.moves() == [str(m) for m in reference.history]


def test_the_toy_game_with_every_kind_of_move_plays_to_its_end_under_presence_sensing(toy, hands, tmp_path):
    daemon, mock, clock = open_board(toy.ToyGame(plies=40), tmp_path / "j.sqlite3", noise=Noise.realistic(), seed=3)
    reference = play_game(daemon, mock, clock, hands, seed=5, plies=1000)
    assert reference.is_terminal()
    assert daemon.state.position() == reference.position()
    kinds = {type(move).__name__ for move in reference.history}
    assert {"Place", "Slide", "Flip", "Pass", "Roll"} <= kinds


def test_the_toy_game_under_analog_sensing_needs_no_confirmation(toy, hands, tmp_path):
    classes = {"black": "north", "white": "south"}
    game = toy.ToyGame(plies=24)
    daemon, mock, clock = open_board(game, tmp_path / "j.sqlite3", sensing="analog", classes=classes,
                                     noise=Noise(analog_jitter=3.0))
    asked = []
    daemon.subscribe(lambda snapshot: asked.append(snapshot["candidates"]) if snapshot["status"] == "confirm" else None)
    reference = play_game(daemon, mock, clock, hands, seed=9, plies=1000)
    assert daemon.state.position() == reference.position()
    assert {"Trade", "Flip"} & {type(move).__name__ for move in reference.history}
    assert not asked


def calibrated(mock: MockBoard) -> dict[int, ChannelCalibration]:
    """Each channel's bands, halfway between its baseline and each class (what `gameboard calibrate` finds)."""
    sensors = mock.sensors
    result = {}
    for channel in mock.wiring.channels:
        base, gain = sensors.baselines[channel], sensors.gains[channel]
        bands = []
        for name in ("north", "south"):
            level = sensors.magnets.reading(base, gain, name, 0.0)
            edge = (level + base) / 2
            bands.append(ClassBand(name, min(edge, level * 2 - edge), max(edge, level * 2 - edge)))
        result[channel] = ChannelCalibration(base, tuple(bands))
    return result


def test_lifting_a_piece_lights_its_destinations_and_the_accepted_move_lights_as_last_move(toy, hands, tmp_path):
    game = toy.ToyGame(hand=1)
    daemon, mock, clock = open_board(game, tmp_path / "j.sqlite3")
    person = hands.Hands(daemon, mock, clock)
    for text in ("roll 2", "@p1", "roll 2", "@p20"):
        person.play(daemon.state, daemon.state.parse_move(text))
    person.play(daemon.state, daemon.state.parse_move("roll 2"))
    mock.lift("p1")
    person.run(0.05)
    assert mock.leds.location_colour("p1") == PALETTE["lifted"]
    assert {loc for loc in ("p5", "p8", "p9") if mock.leds.location_colour(loc) == PALETTE["destination"]} == {"p5", "p8", "p9"}
    mock.place("p9", "black")
    person.run(0.5)
    assert str(daemon.state.history[-1]) == "p1-p9"
    assert mock.leds.location_colour("p9") == PALETTE["last_move"] == mock.leds.location_colour("p1")
