"""The documented Mosquitto configuration (docs/mosquitto), run for real: each participant writes only
under its own name, only the host writes the header, a spectator only reads, a wrong password is refused."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from firmware_host.remote.link import Broker, Link
from tests.remote.peers import connect, connected, knocked_off

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
        session.subscribe("gameboard/v3/friday/#", qos=1)
        time.sleep(0.2)  # the subscription in place
    return session, heard, reason


#: The documented configuration's settings the test broker makes its own way: its port, files and folder.
HARNESS_SETTINGS = frozenset({"listener", "password_file", "acl_file", "persistence", "persistence_location",
                              "autosave_interval", "certfile", "keyfile"})


def documented_settings() -> list[str]:
    """The documented configuration's other settings, as written (after the test broker's listener, so that a
    listener's settings such as use_username_as_clientid apply to it)."""
    text = (DOCS / "gameboard.conf").read_text(encoding="utf-8")
    for line in ("allow_anonymous false", "password_file /etc/mosquitto/gameboard.passwd",
                 "acl_file /etc/mosquitto/gameboard.acl", "persistence true", "use_username_as_clientid true"):
        assert f"\n{line}\n" in text, f"the documented configuration lost {line!r}"
    settings = [line.strip() for line in text.splitlines()]
    return [line for line in settings if line and not line.startswith("#") and line.split()[0] not in HARNESS_SETTINGS]


@pytest.fixture
def documented(tmp_path, broker_tools):
    """A broker with the documented ACL file as it is, and the documented configuration's other lines."""
    if broker_tools.find_mosquitto() is None:
        pytest.skip("mosquitto is not installed: apt-get install mosquitto")
    folder = tmp_path / "documented"
    folder.mkdir()
    broker = broker_tools.Mosquitto(folder, password_file=broker_tools.passwords(tmp_path, USERS),
                                    acl_file=DOCS / "gameboard.acl", persistence=True)
    with broker.config.open("a", encoding="utf-8") as config:
        config.write("\n".join(documented_settings()) + "\n")
    yield broker.start()
    broker.kill()


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
        alice.publish("gameboard/v3/friday/header", b'{"v": 3}', qos=1).wait_for_publish(5)
        alice.publish("gameboard/v3/friday/by/alice/move/1", b'{"v": 3}', qos=1).wait_for_publish(5)
        bob.publish("gameboard/v3/friday/by/bob/move/2", b'{"v": 3}', qos=1).wait_for_publish(5)
        bob.publish("gameboard/v3/friday/by/alice/move/3", b"forged", qos=1).wait_for_publish(5)
        bob.publish("gameboard/v3/friday/header", b"forged", qos=1).wait_for_publish(5)
        carol.publish("gameboard/v3/friday/by/carol/move/1", b"a spectator's", qos=1).wait_for_publish(5)
        carol.publish("gameboard/v3/friday/by/alice/move/4", b"forged", qos=1).wait_for_publish(5)
        expected = ["gameboard/v3/friday/header", "gameboard/v3/friday/by/alice/move/1",
                    "gameboard/v3/friday/by/bob/move/2"]
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


def test_under_the_documented_configuration_nobody_else_can_knock_a_participant_off(documented):
    """use_username_as_clientid: another user's or a spectator's connection under alice's client id (her
    link's, or the one earlier releases made up from the game and her name) is given its own user's id."""
    alice = connected(Link(Broker("127.0.0.1", documented.port, username="alice", password=USERS["alice"]),
                           "friday", "alice"))
    intruders = [connect(documented.port, alice.client_id, "bob", USERS["bob"]),
                 connect(documented.port, "gameboard-friday-alice", "carol", USERS["carol"])]
    try:
        assert knocked_off(alice) == []
        assert alice.connected
    finally:
        for session in intruders:
            session.disconnect()
            session.loop_stop()
        alice.close()
