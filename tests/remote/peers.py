"""Others on the broker, for the remote tests: an intruder's session under a client id of its choosing, what a
participant's link hears meanwhile, and a participant hearing on a thread of its own."""

from __future__ import annotations

import threading
import time

import paho.mqtt.client as mqtt

from firmware_host.remote.link import Connected, Disconnected, Link
from firmware_host.remote.participant import Participant

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
