"""The documented Mosquitto configuration (docs/mosquitto), run for real: each participant writes only
under its own name, only the host writes the header, a spectator only reads, a wrong password is refused."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

DOCS = Path(__file__).parents[2] / "docs" / "mosquitto"
USERS = {"alice": "alice-pw", "bob": "bob-pw", "carol": "carol-pw"}


def client(port: int, user: str, password: str | None = None) -> tuple[mqtt.Client, queue.SimpleQueue]:
    heard: queue.SimpleQueue = queue.SimpleQueue()
    connected: queue.SimpleQueue = queue.SimpleQueue()
    session = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"test-{user}")
    session.username_pw_set(user, USERS[user] if password is None else password)
    session.on_message = lambda c, u, message: heard.put((message.topic, message.payload))
    session.on_connect = lambda c, u, flags, reason, properties: connected.put(reason)
    session.connect("127.0.0.1", port)
    session.loop_start()
    reason = connected.get(timeout=10)
    if not reason.is_failure:
        session.subscribe("gameboard/v2/friday/#", qos=1)
        time.sleep(0.2)  # the subscription in place
    return session, heard, reason


@pytest.fixture
def documented(tmp_path, make_mosquitto, broker_tools):
    """A broker with the documented ACL file as it is, and the documented configuration's other lines."""
    text = (DOCS / "gameboard.conf").read_text(encoding="utf-8")
    for line in ("allow_anonymous false", "password_file /etc/mosquitto/gameboard.passwd",
                 "acl_file /etc/mosquitto/gameboard.acl", "persistence true"):
        assert f"\n{line}\n" in text, f"the documented configuration lost {line!r}"
    return make_mosquitto(password_file=broker_tools.passwords(tmp_path, USERS), acl_file=DOCS / "gameboard.acl",
                          persistence=True)


def heard_topics(heard: queue.SimpleQueue, wait: float = 1.0) -> list[str]:
    time.sleep(wait)
    topics = []
    while not heard.empty():
        topics.append(heard.get()[0])
    return topics


def test_the_documented_acls_hold_each_participant_to_its_own_seats(documented):
    sessions = {user: client(documented.port, user) for user in USERS}
    try:
        assert all(not reason.is_failure for _, _, reason in sessions.values())
        alice, bob, carol = (sessions[user][0] for user in USERS)
        alice.publish("gameboard/v2/friday/header", b'{"v": 2}', qos=1).wait_for_publish(5)
        alice.publish("gameboard/v2/friday/by/alice/move/1", b'{"v": 2}', qos=1).wait_for_publish(5)
        bob.publish("gameboard/v2/friday/by/bob/move/2", b'{"v": 2}', qos=1).wait_for_publish(5)
        bob.publish("gameboard/v2/friday/by/alice/move/3", b"forged", qos=1).wait_for_publish(5)
        bob.publish("gameboard/v2/friday/header", b"forged", qos=1).wait_for_publish(5)
        carol.publish("gameboard/v2/friday/by/carol/move/1", b"a spectator's", qos=1).wait_for_publish(5)
        carol.publish("gameboard/v2/friday/by/alice/move/4", b"forged", qos=1).wait_for_publish(5)
        expected = ["gameboard/v2/friday/header", "gameboard/v2/friday/by/alice/move/1",
                    "gameboard/v2/friday/by/bob/move/2"]
        for user in USERS:  # everyone in the game hears the allowed ones, and nothing forged
            assert sorted(heard_topics(sessions[user][1], wait=0.5 if user != "alice" else 1.0)) == sorted(expected)
    finally:
        for session, _, _ in sessions.values():
            session.disconnect()
            session.loop_stop()


def test_the_documented_broker_refuses_a_wrong_password(documented):
    session, _, reason = client(documented.port, "bob", password="guess")
    try:
        assert reason.is_failure
    finally:
        session.loop_stop()
