"""Others on the broker, for the remote tests: an intruder's session under a client id of its choosing, what a
participant's link hears meanwhile, a participant hearing on a thread of its own, and a bare client that hears
everything of a game and publishes what a test makes up (``Spy``)."""

from __future__ import annotations

import queue
import threading
import time

import paho.mqtt.client as mqtt

from firmware_host.remote.link import Connected, Disconnected, Link
from firmware_host.remote.participant import Participant
from firmware_host.remote.protocol import PREFIX, MoveMessage, move_topic

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


class Spy:
    """A bare client on the broker: hears everything of the game ``game``, publishes what a test makes up (a
    peer's messages, well-formed or not, under any name)."""

    def __init__(self, port: int, game: str = "g1", name: str = "spy") -> None:
        self.game = game
        self.heard: queue.SimpleQueue[tuple[str, bytes, bool]] = queue.SimpleQueue()
        self.log: list[tuple[str, bytes, bool]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"test-{name}")
        self.client.on_message = lambda client, userdata, message: self.heard.put(
            (message.topic, message.payload, message.retain))
        self.client.connect("127.0.0.1", port)
        self.client.subscribe(f"{PREFIX}/{game}/#", qos=1)
        self.client.loop_start()

    def publish(self, topic: str, payload: bytes) -> None:
        """Publish ``payload`` retained, as a participant publishes its header, seals and dice."""
        self.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)

    def send(self, message: MoveMessage, retain: bool = False) -> None:
        self.client.publish(move_topic(self.game, message.by, message.seq), message.payload(), qos=1,
                            retain=retain).wait_for_publish(5)

    def messages(self) -> list[tuple[str, bytes, bool]]:
        """Everything heard so far."""
        while not self.heard.empty():
            self.log.append(self.heard.get())
        return list(self.log)

    def heard_on(self, topic_part: str) -> list[bytes]:
        """The payloads heard so far on topics containing ``topic_part``."""
        return [payload for topic, payload, _ in self.messages() if topic_part in topic]

    def wait_for(self, topic_part: str, count: int = 1, timeout: float = 10.0) -> list[bytes]:
        """The payloads of the first ``count`` messages heard on topics containing ``topic_part``."""
        deadline = time.monotonic() + timeout
        while len(found := self.heard_on(topic_part)) < count:
            assert time.monotonic() < deadline, f"heard {len(found)} of {count} on *{topic_part}*: {self.log}"
            time.sleep(0.01)
        return found

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
