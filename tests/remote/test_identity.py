"""Who is who on the broker, for real: nobody can knock a participant off by taking its client id, on an
anonymous broker (here) or under the documented configuration (test_broker_config.py)."""

from __future__ import annotations

import time

import paho.mqtt.client as mqtt

from engine.registry import game_class
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker, Link
from firmware_host.remote.participant import Participant
from firmware_host.remote.protocol import presence_topic
from firmware_host.seats import HUMAN, Seat
from tests.remote.peers import connect, connected, knocked_off

GAME_ID = "friday"


def test_a_stranger_guessing_client_ids_knocks_nobody_off(mosquitto):
    alice = connected(Link(Broker("127.0.0.1", mosquitto.port), GAME_ID, "alice"))
    same_name = connected(Link(Broker("127.0.0.1", mosquitto.port), GAME_ID, "alice"))  # a second page as alice
    guesses = [connect(mosquitto.port, guess) for guess in ("gameboard-friday-alice", "alice", "friday-alice")]
    try:
        assert knocked_off(alice) == knocked_off(same_name) == []
        assert alice.connected and same_name.connected
    finally:
        for session in guesses:
            session.disconnect()
            session.loop_stop()
        alice.close()
        same_name.close()


def test_an_old_connections_last_will_does_not_leave_a_participant_offline(mosquitto, cable):
    """alice's page restarted (a new client id) before the broker saw her old connection go: the old one's
    last will, "offline", comes after her new "online"; her participant says "online" again."""
    old = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="gameboard-friday-alice-before")
    old.will_set(presence_topic(GAME_ID, "alice"), b"offline", qos=1, retain=True)
    old.connect("127.0.0.1", cable.port)
    old.loop_start()
    broker = Broker("127.0.0.1", mosquitto.port)
    alice = host(broker, GAME_ID, "alice", game_class("hexover")(), (HUMAN, Seat("remote", holder="bob")))
    try:
        hear_until(alice, lambda: alice.heard_header is not None and alice.online.get("alice") is True)
        old.loop_stop()
        cable.cut()  # the broker sees the old connection die now, and sends its last will
        hear_until(alice, lambda: alice.online.get("alice") is False)
        watcher, _, _ = join(broker, GAME_ID, "carol", wait=5)
        try:
            hear_until(watcher, lambda: watcher.online.get("alice") is True)  # before: offline for good
        finally:
            watcher.close()
    finally:
        alice.close()


def hear_until(participant: Participant, done, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, (f"{participant.name} heard presences {participant.online}; "
                                             f"{participant.link.problem}")
        participant.hear()
        time.sleep(0.02)
