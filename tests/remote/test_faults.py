"""Two boards in two homes play through a real Mosquitto, and it goes wrong: the broker is killed, a board
loses its power, the network goes away for ten seconds, messages come twice or out of order.  Afterwards
both journals hold the same moves (none lost, none doubled) and each board matches its game."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from engine.registry import state_from_json
from firmware_host.journal import Journal

HERE = Path(__file__).parent
GAME_ID = "g1"
LATE = json.loads((HERE.parent / "data" / "remote_late.json").read_text(encoding="utf-8"))
#: Square Off's games of random moves last about 100-300 plies: long enough to break them in the middle.
FAULTY_GAME = ("squareoff", {})


def boards_module():
    name = "gameboard_remote_tests_boards"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / "boards.py")
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


def two_boards(tmp_path: Path, port: int, game: str, options: dict, seeds=(1, 2), offset: int = 0):
    Board = boards_module().Board
    return [Board(tmp_path, port, GAME_ID, seat, game, options, seeds[seat], offset).start() for seat in (0, 1)]


def finish(boards) -> list[str]:
    """Wait for both boards to end the game; both journals must hold the same finished game."""
    try:
        boards_module().wait_all(boards)
    finally:
        for board in boards:
            board.stop()
    moves = [board.moves() for board in boards]
    assert moves[0] == moves[1], f"the journals differ from move {next(i for i, (a, b) in enumerate(zip(*moves)) if a != b) + 1}"
    return moves[0]


@pytest.mark.parametrize(("game", "options"), [("hexover", {}), ("mono-line", {})])
def test_two_noisy_boards_play_a_whole_game_through_the_broker(tmp_path, mosquitto, game: str, options: dict):
    """Square Off's whole games are the fault tests' below."""
    moves = finish(two_boards(tmp_path, mosquitto.port, game, options))
    assert moves


@pytest.mark.parametrize("game", sorted(LATE))
def test_the_long_games_play_through_the_broker_to_their_end(tmp_path, mosquitto, game: str):
    """Over-Pass, Groups-of-Three and Pawns Crossing, from 150 plies before the end of a game of thousands
    (the whole games are `bench/remote.py`'s): dice, multi-step turns, slides and declarations."""
    late = LATE[game]
    for name in ("alice", "bob"):
        journal = Journal(tmp_path / f"{name}.sqlite3")
        journal.start(state_from_json(late["setup"]), remote=GAME_ID)
        journal.close()
    boards = two_boards(tmp_path, mosquitto.port, game, late["setup"]["options"], seeds=(late["seed"],) * 2,
                        offset=late["offset"])
    moves = finish(boards)
    assert len(moves) == late["end"] - late["offset"]


def test_the_broker_killed_mid_game_loses_no_move(tmp_path, mosquitto):
    boards = two_boards(tmp_path, mosquitto.port, *FAULTY_GAME)
    boards[0].wait_plies(30)
    mosquitto.kill()  # retained moves and all: nothing of the game is left on it
    time.sleep(1.0)
    mosquitto.restart()
    finish(boards)


def test_a_board_killed_mid_game_resumes_from_its_journal(tmp_path, mosquitto):
    boards = two_boards(tmp_path, mosquitto.port, *FAULTY_GAME)
    boards[1].wait_plies(30)
    boards[1].kill()
    kept = boards[1].moves()
    boards[1].start()
    finish(boards)
    assert boards[1].moves()[:len(kept)] == kept


def test_a_broker_out_of_reach_for_ten_seconds_loses_no_move(tmp_path, mosquitto, cable):
    boards = two_boards(tmp_path, cable.port, *FAULTY_GAME)
    boards[0].wait_plies(30)
    cable.cut()
    stalled = [board.plies for board in boards]
    time.sleep(10.0)
    assert max(board.plies for board in boards) <= max(stalled) + 1  # one board's own move at most
    cable.mend()
    finish(boards)


class Meddler:
    """A client that hears every move and sends it again, twice, later and out of order, with junk between."""

    def __init__(self, port: int) -> None:
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="meddler")
        self.heard: list[mqtt.MQTTMessage] = []
        self.client.on_message = lambda client, userdata, message: self.heard.append(message)
        self.client.connect("127.0.0.1", port)
        self.client.subscribe(f"gameboard/v3/{GAME_ID}/by/+/move/+", qos=1)
        self.client.loop_start()
        self.stop = threading.Event()
        self.sent = 0
        self.thread = threading.Thread(target=self._meddle, daemon=True)
        self.thread.start()

    def _meddle(self) -> None:
        rng = random.Random(5)
        junk = [("move/9999", b"{not json"), ("move/1", b'{"v": 3}'), ("presence", b"maybe"), ("refused", b"[]")]
        while not self.stop.wait(0.05):
            batch = list(self.heard[-6:])
            rng.shuffle(batch)
            for message in batch * 2:
                self.client.publish(message.topic, message.payload, qos=1)
                self.sent += 1
            suffix, payload = rng.choice(junk)
            self.client.publish(f"gameboard/v3/{GAME_ID}/by/{rng.choice(['alice', 'bob'])}/{suffix}", payload, qos=1)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.client.disconnect()
        self.client.loop_stop()


def test_moves_duplicated_and_reordered_change_nothing(tmp_path, mosquitto):
    meddler = Meddler(mosquitto.port)
    try:
        moves = finish(two_boards(tmp_path, mosquitto.port, *FAULTY_GAME))
    finally:
        meddler.close()
    assert meddler.sent > len(moves)
