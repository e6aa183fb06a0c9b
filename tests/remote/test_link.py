"""The link to the broker, for real: passwords, TLS, and a broker that is not there."""

from __future__ import annotations

import shutil
import time

import pytest

from firmware_host.remote.link import Broker, Connected, Link
from firmware_host.remote.protocol import MoveMessage, Presence, move_topic, presence_topic


class Heard:
    """Everything a link heard, kept for the test to look through."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self.events: list = []

    def wait(self, kind: type, timeout: float = 10.0) -> list:
        deadline = time.monotonic() + timeout
        while not (found := [event for event in self.events if isinstance(event, kind)]):
            assert time.monotonic() < deadline, f"nothing of {kind.__name__} heard; the link says {self.link.problem!r}"
            self.events += self.link.events()
            time.sleep(0.02)
        return found


def test_a_participant_logs_in_with_its_password_and_a_wrong_one_is_refused(tmp_path, make_mosquitto, broker_tools):
    users = broker_tools.passwords(tmp_path, {"alice": "right", "bob": "also"})
    mosquitto = make_mosquitto(password_file=users)
    alice = Link(Broker("127.0.0.1", mosquitto.port, username="alice", password="right"), "g1", "alice")
    bob = Link(Broker("127.0.0.1", mosquitto.port, username="bob", password="wrong"), "g1", "bob")
    try:
        alice_heard = Heard(alice)
        alice_heard.wait(Connected)
        message = MoveMessage(1, "p1", "alice", "abc")
        alice.follow([move_topic("g1", "alice", 1)])
        alice.publish(move_topic("g1", "alice", 1), message.payload(), retain=True)
        assert message in alice_heard.wait(MoveMessage)
        deadline = time.monotonic() + 10
        while not bob.problem:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert bob.problem.startswith(f"the broker mqtt://bob@127.0.0.1:{mosquitto.port} refused this board: ")
        assert not bob.connected
    finally:
        alice.close()
        bob.close()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed: apt-get install openssl")
def test_a_participant_connects_over_tls_trusting_the_given_authority(tmp_path, make_mosquitto, broker_tools):
    made = broker_tools.certificates(tmp_path)
    mosquitto = make_mosquitto(tls=(made.server, made.server_key))
    link = Link(Broker("127.0.0.1", mosquitto.port, tls=True, ca_file=made.ca), "g1", "alice")
    link.follow([presence_topic("g1", "alice")])
    try:
        assert Presence("alice", True) in Heard(link).wait(Presence)
    finally:
        link.close()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed: apt-get install openssl")
def test_a_board_shows_its_client_certificate_to_a_broker_that_asks_for_one(tmp_path, make_mosquitto, broker_tools):
    made = broker_tools.certificates(tmp_path)
    mosquitto = make_mosquitto(tls=(made.server, made.server_key), client_ca=made.ca)
    anonymous = Link(Broker("127.0.0.1", mosquitto.port, tls=True, ca_file=made.ca), "g1", "bob")
    alice = Link(Broker("127.0.0.1", mosquitto.port, tls=True, ca_file=made.ca, cert_file=made.client,
                     key_file=made.client_key), "g1", "alice")
    alice.follow([presence_topic("g1", "alice")])
    try:
        assert Presence("alice", True) in Heard(alice).wait(Presence)
        deadline = time.monotonic() + 10
        while not anonymous.problem:  # the handshake without a certificate fails
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert not anonymous.connected
        assert anonymous.problem.startswith(f"the broker mqtts://127.0.0.1:{mosquitto.port} cannot be reached")
    finally:
        alice.close()
        anonymous.close()


def test_a_broker_that_is_not_there_is_said_and_tried_again(tmp_path, make_mosquitto):
    mosquitto = make_mosquitto()
    port = mosquitto.port
    mosquitto.kill()
    link = Link(Broker("127.0.0.1", port), "g1", "alice")
    try:
        time.sleep(1.5)
        assert not link.connected and link.events() == []
        mosquitto.start()
        Heard(link).wait(Connected)
    finally:
        link.close()
