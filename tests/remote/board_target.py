"""A board in another home, for the fault tests: a daemon on a noisy mock board playing one seat of a
remote game through the broker, until the game is over or it is killed.

Usage: python board_target.py JOURNAL PORT GAME_ID NAME SEAT GAME OPTIONS SEED [OFFSET [DICE]].  It resumes
the journal's game with the pieces where they stood when it died, plays its seat's moves (drawn
from SEED and the ply, counted from OFFSET for a game whose setup is a position OFFSET plies into
another, so a restarted board plays on the same way), carries out the other
seat's moves as its LEDs show them, and prints "accepted PLY MOVE" once each move is in its
journal, "done" at the end, after checking that the board matches the game.  DICE is "by hand" (the
default: its seat's rolls are drawn from SEED too, and entered, so a game replays the same) or "fair".
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import time
from pathlib import Path

from engine.registry import game_class
from firmware_host.config import Hal, LoopConfig
from firmware_host.daemon import Daemon
from firmware_host.journal import Journal
from firmware_host.remote.join import host
from firmware_host.remote.link import Broker
from firmware_host.remote.protocol import BY_HAND
from firmware_host.seats import HUMAN, Seat
from hal.clock import ManualClock
from hal.dice import EnteredDice
from hal.mock import MockBoard, Noise
from wiring.model import straight_wiring

NAMES = ("alice", "bob")
#: Real time to wait between loop turns while the other board's move travels.
IDLE_S = 0.002


def load_hands():
    path = Path(__file__).parents[1] / "daemon" / "hands.py"
    spec = importlib.util.spec_from_file_location("board_target_hands", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(journal_path: str, port: int, game_id: str, name: str, seat: int, game_name: str, options: str,
         seed: int, offset: int = 0, dice: str = BY_HAND) -> None:
    hands = load_hands()
    game = game_class(game_name)(**json.loads(options))
    seats = tuple(HUMAN if player == seat else Seat("remote", holder=NAMES[player])
                  for player in range(game.num_players))
    clock = ManualClock()
    wiring = straight_wiring(game.board)
    mock = MockBoard(wiring, clock=clock, noise=Noise.realistic(), seed=seed)
    journal = Journal(journal_path)
    resumed = journal.resume()
    start = resumed if resumed is not None else game.new_initial_state()
    mock.set_contents({loc: piece for loc, piece in start.contents().items() if piece})
    remote = host(Broker("127.0.0.1", port), game_id, name, game, seats, clock, dice)
    daemon = Daemon(game, Hal(mock.sensors, mock.leds, mock.buttons, EnteredDice()), wiring, journal, clock,
                    loop=LoopConfig(debounce_ms=5, settle_ms=100), seats=seats, remote=remote)
    person = hands.Hands(daemon, mock, clock, seed)
    shown = len(daemon.state.history)
    try:
        while not daemon.state.is_terminal():
            ply = len(daemon.state.history)
            if daemon.fair_dice is not None and daemon.state.is_chance_node():
                person.run(0.01)  # every seat rolls the fair dice together
                time.sleep(IDLE_S)
            elif not daemon.remote_turn:
                person.play(daemon.state, hands.pick(daemon.state, random.Random(f"{seed}:{offset + ply}")))
            elif daemon.carry is not None:
                person.play(daemon.state, daemon.carry.move)
            else:
                person.run(0.01)
                time.sleep(IDLE_S)
            for number in range(shown, len(daemon.state.history)):
                print(f"accepted {number + 1} {daemon.state.history[number]}", flush=True)
            shown = len(daemon.state.history)
        person.settle()
        assert mock.contents == {loc: piece for loc, piece in daemon.state.contents().items() if piece}, (
            "the board does not match the game")
        print("done", flush=True)
    finally:
        daemon.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6], sys.argv[7],
         int(sys.argv[8]), *map(int, sys.argv[9:10]), *sys.argv[10:])
