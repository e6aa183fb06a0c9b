"""Who is who on the broker, for real: nobody can knock a participant off by taking its client id, on an
anonymous broker (here) or under the documented configuration (test_broker_config.py)."""

from __future__ import annotations

from firmware_host.remote.link import Broker, Link
from tests.remote.intruders import connect, connected, knocked_off


def test_a_stranger_guessing_client_ids_knocks_nobody_off(mosquitto):
    alice = connected(Link(Broker("127.0.0.1", mosquitto.port), "friday", "alice"))
    same_name = connected(Link(Broker("127.0.0.1", mosquitto.port), "friday", "alice"))  # a second page as alice
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
