"""A table for the daemon tests: a mock board set up with a game and a daemon watching it, on a manual clock."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from engine.core import Game, State
from firmware_host.config import Hal, LoopConfig
from firmware_host.daemon import Daemon, LedSettings
from firmware_host.journal import Journal
from firmware_host.thinker import Thinking
from hal.clock import ManualClock
from hal.dice import EnteredDice
from hal.mock import MockBoard, Noise
from wiring.model import ChannelCalibration, ClassBand, straight_wiring

LOOP = LoopConfig(scan_hz=100, debounce_ms=8, settle_ms=400, out_of_sync_ms=1500, blink_ms=200)
#: The computer as on a machine fifty times a Raspberry Pi 4: a turn at easy within 20 ms, so no test waits on it
#: (a turn to a deadline, as on the board: not reproducible, so a restart needs the journal's kept turn).
QUICK = Thinking(speed=50.0)


def open_board(game: Game | State, journal: Path, *, noise: Noise | None = None, seed: int = 0, contents=None,
               sensing: str = "presence", classes: dict[str, str] | None = None, seats=(), hints: bool = True,
               clock: ManualClock | None = None, remote=None, thinking: Thinking = QUICK):
    """A mock board set up with the game's first position (a state's, or ``contents``) and a daemon on it
    (in a remote game, ``remote`` is its participant, on ``clock``).  A game with a random set-up is dealt
    as the engine deals it by default (its options all given), so that the tests repeat."""
    position = game if isinstance(game, State) else None
    game = position.game if position else type(game)(**game.options)  # the engine's deal, not a fresh one
    clock = clock or ManualClock()
    wiring = straight_wiring(game.board, sensing, classes)
    mock = MockBoard(wiring, clock=clock, noise=noise, seed=seed)
    if sensing == "analog":
        wiring.calibration = calibrated(mock)
    start = (position or game.new_initial_state()).contents() if contents is None else contents
    mock.set_contents({loc: piece for loc, piece in start.items() if piece})
    hal = Hal(mock.sensors, mock.leds, mock.buttons, EnteredDice())
    daemon = Daemon(position or game, hal, wiring, Journal(journal), clock, loop=LOOP,
                    leds=LedSettings(brightness=1.0, current_budget_ma=100_000), seats=seats, hints=hints,
                    remote=remote, thinking=thinking)
    return daemon, mock, clock


def calibrated(mock: MockBoard) -> dict[int, ChannelCalibration]:
    """Each channel's class bands, split halfway between neighbouring levels (as `gameboard calibrate` does)."""
    sensors = mock.sensors
    result = {}
    for channel in mock.wiring.channels:
        base, gain = sensors.baselines[channel], sensors.gains[channel]
        levels = sorted([(base, None)] + [(sensors.magnets.reading(base, gain, name, 0.0), name)
                                          for name in mock.wiring.classes])
        edges = [0.0] + [(a + b) / 2 for (a, _), (b, _) in pairwise(levels)] + [sensors.magnets.full_scale]
        bands = tuple(ClassBand(name, low, high) for (_, name), low, high in zip(levels, edges, edges[1:]) if name)
        result[channel] = ChannelCalibration(base, bands)
    return result


def toy_table(toy, hands, tmp_path, moves=("roll 2", "@p1", "roll 2", "@p20", "roll 2"), **options):
    """The toy game with ``moves`` played by hand; black to move after a roll of 2 by default."""
    daemon, mock, clock = open_board(toy.ToyGame(**{"hand": 1, **options}), tmp_path / "j.sqlite3")
    person = hands.Hands(daemon, mock, clock)
    for text in moves:
        person.play(daemon.state, daemon.state.parse_move(text))
    return daemon, mock, person


def trade_awaiting_confirm(toy, hands, tmp_path):
    """Black and white swap p1 and p9 by hand (a Trade, invisible to presence sensors): it waits for confirm."""
    daemon, mock, person = toy_table(toy, hands, tmp_path, moves=("roll 2", "@p1", "roll 2", "@p9", "roll 2"))
    for location in ("p1", "p9"):
        mock.lift(location)
        person.run(0.1)
    mock.place("p1", "white")
    mock.place("p9", "black")
    person.run(1.0)
    return daemon, mock, person
