"""The game's header, for real: written again by its host after a broker lost it, kept in a joiner's journal
so that the joiner resumes without the broker, and compared on what matters (the options as the game
resolves them)."""

from __future__ import annotations

import threading
import time

import pytest

from engine.registry import game_class
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker
from firmware_host.remote.participant import Participant
from firmware_host.remote.protocol import Header, header_topic, position_hash
from firmware_host.seats import HUMAN, Seat
from tests.remote.intruders import connect

GAME_ID = "friday"
BOB = Seat("remote", holder="bob")


class Hearing:
    """``participant`` hearing on a thread of its own, as in the daemon's loop, while the test waits on others."""

    def __init__(self, participant: Participant) -> None:
        self.participant = participant
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._hear, daemon=True)
        self._thread.start()

    def _hear(self) -> None:
        while not self._stop.wait(0.02):
            self.participant.hear()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.participant.close()


def wait_until(done, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_the_host_writes_its_header_again_after_the_broker_lost_it(mosquitto):
    """A kill -9 and a restart without the retained messages: a spectator arriving afterwards finds the game."""
    broker = Broker("127.0.0.1", mosquitto.port)
    alice = Hearing(host(broker, GAME_ID, "alice", game_class("hexover")(), (HUMAN, BOB)))
    try:
        join(broker, GAME_ID, "carol", wait=5)[0].close()  # the header is on the broker
        mosquitto.kill()
        wait_until(lambda: not alice.participant.connected, "alice did not see the broker go")
        mosquitto.start()  # with nothing retained: this broker keeps nothing across a restart
        watcher, game, seats = join(broker, GAME_ID, "carol", wait=10)
        watcher.close()
        assert (game.name, watcher.header, seats) == ("hexover", alice.participant.header,
                                                      (Seat("remote", holder="alice"), BOB))
    finally:
        alice.stop()


@pytest.mark.parametrize(("options", "problem"), [
    ({"players": 2}, ""),  # the goal left out at its default: the same game
    ({"players": 2, "goal": "one"}, ""),
    ({"players": 2, "goal": "both"}, "options {'players': 2, 'goal': 'both'} against {'players': 2, 'goal': 'one'}"),
    ({"players": 2, "speed": 3}, "options {'players': 2, 'speed': 3} against {'players': 2, 'goal': 'one'}"),
])
def test_a_header_is_compared_on_the_options_as_the_game_resolves_them(mosquitto, options, problem):
    """A host written from docs/remote.md alone lists only the options it sets; bob's board checks it."""
    game = game_class("overpass")(players=2)
    header = Header("overpass", options, ("alice", "bob"), "alice", position_hash(game.new_initial_state()))
    third_party = connect(mosquitto.port, "a-third-party-host")
    third_party.publish(header_topic(GAME_ID), header.payload(), qos=1, retain=True).wait_for_publish(5)
    bob = Hearing(host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "bob", game, (Seat("remote", holder="alice"),
                                                                                   HUMAN)))
    try:
        wait_until(lambda: bob.participant.heard_header == header, "bob did not hear the header")
        expected = f"the broker's game {GAME_ID} is not this board's: {problem}; play it under another game id"
        assert bob.participant.problem == (expected if problem else "")
    finally:
        bob.stop()
        third_party.disconnect()
        third_party.loop_stop()
