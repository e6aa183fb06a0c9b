"""The computer-restart test's target: Square Off, a person against the computer, killed mid-turn.

Usage: python computer_kill_target.py JOURNAL.  It resumes the journal's game (or starts
one and makes the person's first move, p1), waits for the computer's move to be shown,
prints "worker PID" and "shown MOVE", then waits to be killed.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

from engine.registry import game_class
from firmware_host.config import Hal, LoopConfig
from firmware_host.daemon import Daemon
from firmware_host.journal import Journal
from firmware_host.seats import Seat
from hal.clock import ManualClock
from hal.dice import EnteredDice
from hal.mock import MockBoard
from wiring.model import straight_wiring


def load_hands():
    spec = importlib.util.spec_from_file_location("computer_kill_hands", Path(__file__).with_name("hands.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(journal_path: str) -> None:
    game = game_class("squareoff")()
    clock = ManualClock()
    wiring = straight_wiring(game.board)
    mock = MockBoard(wiring, clock=clock)
    journal = Journal(journal_path)
    resumed = journal.resume()
    start = resumed if resumed is not None else game.new_initial_state()
    mock.set_contents({loc: piece for loc, piece in start.contents().items() if piece})
    daemon = Daemon(game, Hal(mock.sensors, mock.leds, mock.buttons, EnteredDice()), wiring, journal, clock,
                    loop=LoopConfig(debounce_ms=5, settle_ms=100), seats=(Seat(), Seat("computer", "easy")))
    person = load_hands().Hands(daemon, mock, clock)
    if not daemon.state.history:
        person.play(daemon.state, daemon.state.parse_move("p1"))
    while daemon.carry is None:
        person.run(0.01)
        time.sleep(0.002)
    print(f"worker {daemon.thinker._process.pid}", flush=True)
    print(f"shown {daemon.carry.move}", flush=True)
    time.sleep(600)


if __name__ == "__main__":
    main(sys.argv[1])
