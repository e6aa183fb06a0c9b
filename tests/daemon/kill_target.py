"""The SIGKILL test's target: a daemon on the mock HAL playing a seeded game until it is killed.

Usage: python kill_target.py JOURNAL SEED PLIES.  It resumes the journal's game, sets
the mock board to that position (the pieces stay where they stood when the power went),
and plays on; after each accepted move (journalled, then shown) it prints
"accepted PLY MOVE".  The moves depend only on the seed and the ply, so every run
continues the same game.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

from engine.registry import game_class
from firmware_host.config import Hal, LoopConfig
from firmware_host.daemon import Daemon
from firmware_host.journal import Journal
from firmware_host.thinker import Thinking
from hal.clock import ManualClock
from hal.dice import EnteredDice
from hal.mock import MockBoard
from wiring.model import straight_wiring

GAME = "squareoff"


def load_hands():
    spec = importlib.util.spec_from_file_location("kill_target_hands", Path(__file__).with_name("hands.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def resumed_table(journal_path: str, seats=(), computer_seed: int = 0) -> tuple[Daemon, MockBoard, ManualClock]:
    """A Square Off daemon on the mock board, resuming the journal's game with the pieces where they stood; its
    computer thinks to a deadline (as on the board) from ``computer_seed``."""
    game = game_class(GAME)()
    clock = ManualClock()
    wiring = straight_wiring(game.board)
    mock = MockBoard(wiring, clock=clock)
    journal = Journal(journal_path)
    resumed = journal.resume()
    start = resumed if resumed is not None else game.new_initial_state()
    mock.set_contents({loc: piece for loc, piece in start.contents().items() if piece})
    daemon = Daemon(game, Hal(mock.sensors, mock.leds, mock.buttons, EnteredDice()), wiring, journal, clock,
                    loop=LoopConfig(debounce_ms=5, settle_ms=100), seats=seats, seed=computer_seed,
                    thinking=Thinking(speed=50.0))
    return daemon, mock, clock


def main(journal_path: str, seed: int, plies: int) -> None:
    hands = load_hands()
    daemon, mock, clock = resumed_table(journal_path)
    person = hands.Hands(daemon, mock, clock, seed)
    while not daemon.state.is_terminal() and len(daemon.state.history) < plies:
        ply = len(daemon.state.history)
        move = hands.pick(daemon.state, random.Random(f"{seed}:{ply}"))
        person.play(daemon.state, move)
        print(f"accepted {ply + 1} {move}", flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
