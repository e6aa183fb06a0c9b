"""Intruders on the broker for the identity tests: sessions under a client id of their choosing, and what
a participant's link hears meanwhile."""

from __future__ import annotations

import time

import paho.mqtt.client as mqtt

from firmware_host.remote.link import Connected, Disconnected, Link

#: How long a participant is watched for a disconnection after an intruder connected (seconds).
WATCH_S = 1.5


def connect(port: int, client_id: str, user: str | None = None, password: str | None = None) -> mqtt.Client:
    """An intruder's session asking for ``client_id``, connected before it returns."""
    session = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)
    if user is not None:
        session.username_pw_set(user, password)
    session.connect("127.0.0.1", port)
    session.loop_start()
    deadline = time.monotonic() + 10
    while not session.is_connected():
        assert time.monotonic() < deadline, f"{client_id} did not connect"
        time.sleep(0.02)
    return session


def connected(link: Link) -> Link:
    deadline = time.monotonic() + 10
    while not any(isinstance(event, Connected) for event in link.events()):
        assert time.monotonic() < deadline, link.problem
        time.sleep(0.02)
    return link


def knocked_off(link: Link) -> list[Disconnected]:
    """The disconnections ``link`` heard in the next ``WATCH_S`` seconds."""
    time.sleep(WATCH_S)
    return [event for event in link.events() if isinstance(event, Disconnected)]
