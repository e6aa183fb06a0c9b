"""Each move binds the history before it: a holder who rewrites a move already applied is refused by every
participant, and a spectator started after the rewrite follows the boards' game and says who rewrote what."""

from __future__ import annotations

import json
import queue
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from engine.registry import game_class
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker
from firmware_host.remote.moves import Chain, published
from firmware_host.remote.participant import game_header
from firmware_host.remote.protocol import MoveMessage, Rewrite, header_topic, move_topic, rewrite_topic
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat
from hal.clock import ManualClock

GAME_ID = "friday"  # the game of the documented ACL file
DOCS = Path(__file__).parents[2] / "docs" / "mosquitto"
USERS = {"alice": "alice-pw", "bob": "bob-pw", "carol": "carol-pw"}
SEATS = (HUMAN, Seat("remote", holder="bob"))


@pytest.fixture
def documented(tmp_path, make_mosquitto, broker_tools):
    """A broker with the documented ACL file: each participant writes only under its own name."""
    return make_mosquitto(password_file=broker_tools.passwords(tmp_path, USERS), acl_file=DOCS / "gameboard.acl")


def login(port: int, user: str | None) -> Broker:
    return Broker("127.0.0.1", port, username=user, password=USERS.get(user or ""))


class Program:
    """A participant's own program on the broker: publishes whatever it likes, where the broker lets it."""

    def __init__(self, port: int, user: str | None) -> None:
        self.heard: queue.SimpleQueue[tuple[str, bytes]] = queue.SimpleQueue()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{user}s-own-program")
        if user is not None:
            self.client.username_pw_set(user, USERS[user])
        self.client.on_message = lambda client, userdata, message: self.heard.put((message.topic, message.payload))
        self.client.connect("127.0.0.1", port)
        self.client.subscribe(f"gameboard/v3/{GAME_ID}/#", qos=1)
        self.client.loop_start()

    def send(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)

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


def messages(game, moves: list[str]) -> dict[int, MoveMessage]:
    """Each ply of ``moves`` as alice (seat 0) and bob (seat 1) publish it."""
    state = game.new_initial_state()
    for move in moves:
        state.apply(move)
    return published(state, Chain(state), ("alice", "bob"))


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
                                                                                          documented):
    game = game_class("hexover")()
    clock = ManualClock()
    remote = host(login(documented.port, "alice"), GAME_ID, "alice", game, SEATS, clock)
    alice, mock, clock = tables.open_board(game, tmp_path / "alice.sqlite3", seats=SEATS, clock=clock, remote=remote)
    person, bob = hands.Hands(alice, mock, clock), Program(documented.port, "bob")
    watchers = []
    try:
        run_until(person, lambda: remote.heard_header is not None, "header")
        watchers.append(join(login(documented.port, "carol"), GAME_ID, "carol", wait=10)[0])
        early = Spectator(watchers[-1], game)
        first = str(next(iter(alice.state.legal_moves)))
        person.play(alice.state, alice.state.parse_move(first))
        honest, rewritten = [str(move) for move in list(alice.state.legal_moves)[:2]]
        bob.send(move_topic(GAME_ID, "bob", 2), messages(game, [first, honest])[2].payload())
        run_until(person, lambda: alice.carry is not None, "bob's move to carry out")
        person.play(alice.state, alice.carry.move)
        follow_until(early, lambda: len(early.state.history) == 2, "move 2 on the spectator")

        # bob's program publishes another move 2: the broker now holds only the rewrite
        bob.send(move_topic(GAME_ID, "bob", 2), messages(game, [first, rewritten])[2].payload())
        run_until(person, lambda: "bob rewrote move 2" in alice.snapshot()["note"], "rewrite noted")
        assert alice.snapshot()["note"] == f"bob rewrote move 2 ({honest}) as {rewritten}: refused, {honest} stands"
        deadline = time.monotonic() + 10
        while not (refusals := bob.payloads("/by/alice/refused")):
            assert time.monotonic() < deadline, "alice's refusal was not published"
            time.sleep(0.01)
        assert (refusals[0]["move"], refusals[0]["reason"]) == (rewritten, f"bob rewrote move 2: {honest} was "
                                                                            "applied here first")
        early.participant.hear()
        assert any(note.startswith(f"bob rewrote move 2 ({honest}) as {rewritten}: refused")
                   for note in early.participant.notes)
        assert [str(move) for move in early.state.history] == [first, honest]
        watchers[-1].close()

        third = next(iter(alice.state.legal_moves))
        person.play(alice.state, third)
        bob.send(rewrite_topic(GAME_ID, "alice", 2), b"")  # the ACLs keep bob from clearing alice's report
        watchers.append(join(login(documented.port, "carol"), GAME_ID, "carol", wait=10)[0])
        late = Spectator(watchers[-1], game)
        follow_until(late, lambda: len(late.state.history) == 3, "the whole game")
        assert [str(move) for move in late.state.history] == alice.journal.moves() == [first, honest, str(third)]
        assert late.view()["status"].endswith(f" - alice reports that bob rewrote move 2 ({honest}) as {rewritten}: "
                                              f"refused, {honest} stands")
        # A board resuming from its journal takes the same copies as applied: bob's honest move 2 is no rewrite.
        assert published(alice.state, Chain(alice.state), ("alice", "bob")) == {**remote.outbox, **remote.applied}
    finally:
        for watcher in watchers:
            watcher.close()
        bob.close()
        alice.close()


def test_a_spectator_that_followed_a_rewrite_goes_back_to_the_boards_game_when_the_report_comes(mosquitto):
    """Without ACLs bob can clear the reports: a spectator started then follows his rewrite and refuses alice's
    move 3, until alice's board publishes its report again (at its next reconnection)."""
    game = game_class("hexover")()
    honest_game = messages(game, ["h8", "h9", "h10"])
    rewrite = messages(game, ["h8", "h10"])[2]  # the issue's: the boards hold h8 h9 h10
    anyone = Program(mosquitto.port, None)
    watcher = None
    try:
        anyone.send(header_topic(GAME_ID), game_header(game, SEATS, "alice").payload())
        for message in (honest_game[1], rewrite, honest_game[3]):
            anyone.send(move_topic(GAME_ID, message.by, message.seq), message.payload())
        watcher = join(login(mosquitto.port, None), GAME_ID, "dave", wait=10)[0]
        spectator = Spectator(watcher, game)
        follow_until(spectator, lambda: "refused alice's move 3" in spectator.note, "a refusal")
        assert [str(move) for move in spectator.state.history] == ["h8", "h10"]
        report = Rewrite("alice", honest_game[2], rewrite)
        anyone.send(rewrite_topic(GAME_ID, "alice", 2), report.payload())
        follow_until(spectator, lambda: len(spectator.state.history) == 3, "the boards' game")
        assert [str(move) for move in spectator.state.history] == ["h8", "h9", "h10"]
        assert spectator.note == "alice reports that bob rewrote move 2 (h9) as h10: refused, h9 stands"
    finally:
        if watcher is not None:
            watcher.close()
        anyone.close()
