"""Whatever a peer sends, a board, a joined simulator and a spectator go on: a message is either the
protocol's and checked, or refused with its reason; nothing a peer sends raises, stops the link or
changes a journal.  Regressions of issue 33 first, then property-based tests with a real Mosquitto."""

from __future__ import annotations

import json
import logging
import queue
import random
import time
from collections.abc import Callable

import paho.mqtt.client as mqtt
import pytest

from engine.errors import GameboardError
from engine.registry import game_class
from firmware_host.daemon import Daemon
from firmware_host.journal import Journal
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker, Garbled, Link
from firmware_host.remote.protocol import MoveMessage, move_topic, position_hash
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat
from hal.clock import ManualClock

GAME_ID = "g1"
PREFIX = f"gameboard/v2/{GAME_ID}"


class Peer:
    """A client on the broker that publishes whatever a test makes up, and hears what the game's
    participants publish."""

    def __init__(self, port: int) -> None:
        self.heard: queue.SimpleQueue[tuple[str, bytes]] = queue.SimpleQueue()
        self.log: list[tuple[str, bytes]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="peer")
        self.client.on_message = lambda client, userdata, message: self.heard.put((message.topic, message.payload))
        self.client.connect("127.0.0.1", port)
        self.client.subscribe(f"{PREFIX}/#", qos=1)
        self.client.loop_start()

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def send(self, message: MoveMessage, retain: bool = False) -> None:
        self.publish(move_topic(GAME_ID, message.by, message.seq), message.payload(), retain)

    def refusals(self) -> list[dict]:
        """The refusals heard so far."""
        while not self.heard.empty():
            self.log.append(self.heard.get())
        return [json.loads(payload) for topic, payload in self.log if topic.endswith("/refused")]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def peer(mosquitto):
    peer = Peer(mosquitto.port)
    yield peer
    peer.close()


def bobs_board(tables, tmp_path, port: int, game, journal: str = "bob.sqlite3"):
    """Bob's board: bob holds seat 1 of ``game``, alice's seat 0 is played through the broker."""
    seats = (Seat("remote", holder="alice"), HUMAN)
    clock = ManualClock()
    remote = host(Broker("127.0.0.1", port), GAME_ID, "bob", game, seats, clock)
    return tables.open_board(game, tmp_path / journal, seats=seats, clock=clock, remote=remote)


def run_until(daemon, clock, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out: {daemon.status_text()}"
        clock.advance(0.01)
        daemon.step()
        time.sleep(0.002)


def first_move(game) -> tuple[str, str]:
    state = game.new_initial_state()
    move = next(iter(state.legal_moves))
    state.push(move)
    return str(move), position_hash(state)


# -- issue 33, item 1: a "reveal" in a game that hides nothing -------------------------------------

def test_a_reveal_in_a_game_that_hides_nothing_is_refused_and_play_goes_on_after_a_restart(tables, tmp_path,
                                                                                           mosquitto, peer):
    game = game_class("hexover")()
    move, reached = first_move(game)
    peer.send(MoveMessage(1, move, "alice", reached, {"t1": 3}), retain=True)  # retained: heard at every start
    for start in range(3):
        bob, mock, clock = bobs_board(tables, tmp_path, mosquitto.port, game)
        try:
            run_until(bob, clock, lambda: "this game hides no values" in bob.snapshot()["note"])
            assert bob.carry is None and bob.journal.moves() == [] and bob.journal.setup() == \
                game.new_initial_state().to_json()
            if start == 2:
                peer.send(MoveMessage(1, move, "alice", reached))  # alice's real move still comes through
                run_until(bob, clock, lambda: bob.carry is not None)
                assert str(bob.carry.move) == move
        finally:
            bob.close()
    deadline = time.monotonic() + 10
    while len(peer.refusals()) < 3:  # refused at each start, in public
        assert time.monotonic() < deadline, peer.refusals()
        time.sleep(0.01)
    assert [(refusal["seq"], refusal["reason"]) for refusal in peer.refusals()] == \
        [(1, "this game hides no values: a move reveals none")] * 3


def test_a_spectator_refuses_a_reveal_in_a_game_that_hides_nothing_and_follows_on(tables, tmp_path, mosquitto,
                                                                                  peer):
    game = game_class("hexover")()
    move, reached = first_move(game)
    bob, _, clock = bobs_board(tables, tmp_path, mosquitto.port, game)  # the host, whose header carol reads
    try:
        peer.publish(f"{PREFIX}/header", bob.remote.header.payload(), retain=True)
        watcher, watched, _ = join(Broker("127.0.0.1", mosquitto.port), GAME_ID, "carol", wait=10)
        spectator = Spectator(watcher, watched)
        try:
            peer.send(MoveMessage(1, move, "alice", reached, {"t1": 3}))
            deadline = time.monotonic() + 10
            while "this game hides no values" not in spectator.note:
                assert time.monotonic() < deadline, spectator.note
                spectator.follow()
                time.sleep(0.01)
            assert spectator.state.history == []
            peer.send(MoveMessage(1, move, "alice", reached))
            while not spectator.state.history:
                assert time.monotonic() < deadline, spectator.note
                spectator.follow()
                time.sleep(0.01)
            assert [str(played) for played in spectator.state.history] == [move]
        finally:
            watcher.close()
    finally:
        bob.close()


# -- issue 33, item 2: a topic or a number that breaks the link's thread ---------------------------

@pytest.mark.parametrize("seq", ["²", "1" * 4400])
def test_a_move_topic_with_a_number_python_cannot_read_leaves_the_link_up(tables, tmp_path, mosquitto, peer,
                                                                          seq: str):
    game = game_class("hexover")()
    move, reached = first_move(game)
    bob, mock, clock = bobs_board(tables, tmp_path, mosquitto.port, game)
    try:
        run_until(bob, clock, lambda: bob.remote.connected)
        peer.publish(f"{PREFIX}/by/alice/move/{seq}", MoveMessage(1, move, "alice", reached).payload())
        run_until(bob, clock, lambda: "was ignored" in bob.snapshot()["note"])
        assert "is not one of the protocol's" in bob.snapshot()["note"]
        peer.send(MoveMessage(1, move, "alice", reached))
        run_until(bob, clock, lambda: bob.carry is not None)  # the link still hears
        assert str(bob.carry.move) == move and bob.remote.connected
    finally:
        bob.close()


def test_a_payload_python_cannot_read_is_garbled_on_the_links_thread(mosquitto):
    link = Link(Broker("127.0.0.1", mosquitto.port), GAME_ID, "bob")
    try:
        for topic, payload in [(f"{PREFIX}/by/alice/move/1".encode(), b'{"v": 2, "seq": 1' + b"1" * 4400 + b"}"),
                               (f"{PREFIX}/by/alice/move/1".encode(), b"[" * 60_000),
                               (PREFIX.encode() + b"/by/\xff/move/1", b"{}")]:
            message = mqtt.MQTTMessage(topic=topic)
            message.payload = payload
            link._on_message(link._client, None, message)  # as paho's thread calls it
        garbled = [event for event in link.events() if isinstance(event, Garbled)]
        assert [event.problem for event in garbled] == [
            "move 1 from alice is not JSON (a number of more than 4300 digits)",
            "move 1 from alice is not JSON (nested more than 100 deep)",
            "its topic is not UTF-8"]
    finally:
        link.close()


# -- refusals as docs/remote.md says them -----------------------------------------------------------

def test_a_move_for_this_boards_own_turn_is_refused_in_public_and_junk_is_noted(tables, hands, tmp_path, mosquitto,
                                                                               peer):
    game = game_class("hexover")()
    move, reached = first_move(game)
    seats = (HUMAN, Seat("remote", holder="bob"))
    clock = ManualClock()
    remote = host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "alice", game, seats, clock)
    alice, mock, clock = tables.open_board(game, tmp_path / "alice.sqlite3", seats=seats, clock=clock, remote=remote)
    try:
        run_until(alice, clock, lambda: alice.remote.connected)
        peer.send(MoveMessage(1, move, "bob", reached))  # bob, at alice's turn
        peer.send(MoveMessage(1, move, "alice", reached))  # alice's name, for a move her board has not made
        deadline = time.monotonic() + 10
        while len(peer.refusals()) < 2:
            assert time.monotonic() < deadline, alice.snapshot()["note"]
            clock.advance(0.01)
            alice.step()
            time.sleep(0.002)
        assert [refusal["reason"] for refusal in peer.refusals()] == [
            "bob does not hold the seat to move (alice does)",
            "move 1 is for this board (alice) to make, and it has not made it"]
        assert alice.journal.moves() == [] and alice.carry is None
        peer.publish(f"{PREFIX}/by/bob/move/1", b'{"v": 2, "seq": 1}')  # junk: noted, not refused
        run_until(alice, clock, lambda: "was ignored" in alice.snapshot()["note"])
        assert alice.snapshot()["note"] == (f'a message on {PREFIX}/by/bob/move/1 was ignored: move 1 from bob: '
                                            '"move" is missing or of the wrong kind')
        person = hands.Hands(alice, mock, clock)
        person.play(alice.state, alice.state.parse_move(move))  # her own move goes on as ever
        assert alice.journal.moves() == [move] and len(peer.refusals()) == 2
    finally:
        alice.close()


@pytest.mark.parametrize(("header", "expected"), [
    ({"game": "hexover", "options": {}, "seats": ["alice"]}, "its header gives 1 seats for Hexover's 2 players"),
    ({"game": "hexover", "options": {"size": [1]}, "seats": ["alice", "bob"]}, "hexover: unknown option"),
    ({"game": "chess", "options": {}, "seats": ["alice", "bob"]}, "unknown game 'chess'"),
])
def test_joining_a_header_that_cannot_be_this_game_says_why(mosquitto, peer, header: dict, expected: str):
    payload = json.dumps({"v": 2, "host": "alice", "setup": "x", **header}).encode()
    peer.publish(f"{PREFIX}/header", payload, retain=True)
    with pytest.raises(GameboardError, match=f"the game {GAME_ID} on mqtt://127.0.0.1:{mosquitto.port} cannot be "
                                             f"played here: .*{expected}"):
        join(Broker("127.0.0.1", mosquitto.port), GAME_ID, "carol", wait=10)
