"""Each move binds the history before it: a holder who rewrites a move already applied is refused by every
participant, and a spectator started after the rewrite follows the boards' game and says who rewrote what."""

from __future__ import annotations

import json
import queue
import re
import time

import paho.mqtt.client as mqtt

from engine.registry import game_class
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker
from firmware_host.remote.moves import Chain, published
from firmware_host.remote.protocol import MoveMessage, move_topic, rewrite_topic
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat
from hal.clock import ManualClock

GAME_ID = "rewritten"


class Rewriter:
    """Bob's own program: publishes under his name whatever he likes, and hears the game."""

    def __init__(self, port: int) -> None:
        self.heard: queue.SimpleQueue[tuple[str, bytes]] = queue.SimpleQueue()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bobs-own-program")
        self.client.on_message = lambda client, userdata, message: self.heard.put((message.topic, message.payload))
        self.client.connect("127.0.0.1", port)
        self.client.subscribe(f"gameboard/v2/{GAME_ID}/#", qos=1)
        self.client.loop_start()

    def send(self, message: MoveMessage) -> None:
        self.client.publish(move_topic(GAME_ID, "bob", message.seq), message.payload(), qos=1,
                            retain=True).wait_for_publish(5)

    def payloads(self, topic_end: str) -> list[dict]:
        found = []
        while not self.heard.empty():
            topic, payload = self.heard.get()
            if topic.endswith(topic_end) and payload:
                found.append(json.loads(payload))
        return found

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def bobs_move(state, move: str) -> MoveMessage:
    """Bob's move ``move`` after ``state``'s history, as his board would publish it."""
    state.apply(move)
    try:
        return published(state, Chain(state), ("alice", "bob"))[len(state.history)]
    finally:
        state.pop()


def run_until(hands, condition, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"no {what}: {hands.daemon.status_text()}; {hands.daemon.snapshot()['note']}"
        hands.run(0.01)
        time.sleep(0.002)


def follow_until(spectator: Spectator, condition, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"no {what}: {spectator.status()}; {spectator.note}"
        spectator.follow()
        time.sleep(0.01)


def test_a_rewritten_move_is_refused_by_everyone_and_a_later_spectator_follows_the_boards(tables, hands, tmp_path,
                                                                                          mosquitto):
    game = game_class("hexover")()
    broker = Broker("127.0.0.1", mosquitto.port)
    seats = (HUMAN, Seat("remote", holder="bob"))
    clock = ManualClock()
    remote = host(broker, GAME_ID, "alice", game, seats, clock)
    alice, mock, clock = tables.open_board(game, tmp_path / "alice.sqlite3", seats=seats, clock=clock, remote=remote)
    person, bob = hands.Hands(alice, mock, clock), Rewriter(mosquitto.port)
    early = late = latest = None
    try:
        run_until(person, lambda: remote.heard_header is not None, "header")
        early = join(broker, GAME_ID, "carol", wait=10)[0]
        early_spectator = Spectator(early, game)
        first = next(iter(alice.state.legal_moves))
        person.play(alice.state, first)
        honest, rewritten = [str(move) for move in list(alice.state.legal_moves)[:2]]
        bob.send(bobs_move(_after(game, [first]), honest))
        run_until(person, lambda: alice.carry is not None, "bob's move to carry out")
        person.play(alice.state, alice.carry.move)
        follow_until(early_spectator, lambda: len(early_spectator.state.history) == 2, "move 2 on the spectator")

        bob.send(bobs_move(_after(game, [first]), rewritten))  # the broker now holds only the rewrite
        run_until(person, lambda: "bob rewrote move 2" in alice.snapshot()["note"], "rewrite noted")
        assert alice.snapshot()["note"] == f"bob rewrote move 2 ({honest}) as {rewritten}: refused, {honest} stands"
        deadline = time.monotonic() + 10
        while not (refusals := bob.payloads("/by/alice/refused")):
            assert time.monotonic() < deadline, "alice's refusal was not published"
            time.sleep(0.01)
        assert refusals[0]["move"] == rewritten
        assert refusals[0]["reason"] == f"bob rewrote move 2: {honest} was applied here first"
        follow_until(early_spectator, lambda: "rewrote move 2" in early_spectator.note, "rewrite on the spectator")
        assert [str(move) for move in early_spectator.state.history] == [str(first), honest]

        third = next(iter(alice.state.legal_moves))
        person.play(alice.state, third)
        late = join(broker, GAME_ID, "dave", wait=10)[0]
        late_spectator = Spectator(late, game)
        follow_until(late_spectator, lambda: len(late_spectator.state.history) == 3, "the whole game")
        assert [str(move) for move in late_spectator.state.history] == alice.journal.moves() == \
            [str(first), honest, str(third)]
        # A board resuming from its journal takes the same copies as applied: bob's honest move 2 is no rewrite.
        assert published(alice.state, Chain(alice.state), ("alice", "bob")) == {**remote.outbox, **remote.applied}
        status = late_spectator.view()["status"]  # alice reported it, and carol, whom no ACL keeps from writing
        assert re.search(f" - (alice|carol) reports that bob rewrote move 2 \\({honest}\\) as {rewritten}: refused, "
                         f"{honest} stands$", status), status

        # Without ACLs bob can clear the reports: a spectator then follows his rewrite and refuses alice's move 3,
        # until alice's board publishes its report again (at its next reconnection); then it goes back.
        for reporter in ("alice", "carol"):
            bob.client.publish(rewrite_topic(GAME_ID, reporter, 2), b"", qos=1, retain=True).wait_for_publish(5)
        latest = join(broker, GAME_ID, "erin", wait=10)[0]
        latest_spectator = Spectator(latest, game)
        follow_until(latest_spectator, lambda: "refused alice's move 3" in latest_spectator.note, "a refusal")
        assert [str(move) for move in latest_spectator.state.history] == [str(first), rewritten]
        bob.client.publish(rewrite_topic(GAME_ID, "alice", 2), remote.rewrites[2].payload(), qos=1,
                           retain=True).wait_for_publish(5)
        follow_until(latest_spectator, lambda: len(latest_spectator.state.history) == 3, "the boards' game")
        assert [str(move) for move in latest_spectator.state.history] == alice.journal.moves()
    finally:
        for participant in (early, late, latest):
            if participant is not None:
                participant.close()
        bob.close()
        alice.close()


def _after(game, moves: list) -> object:
    state = game.new_initial_state()
    for move in moves:
        state.apply(str(move))
    return state
