"""The link to the MQTT broker: paho-mqtt on its own thread, heard without blocking.

``Link`` connects in the background and keeps reconnecting (the board plays on
meanwhile); each time it connects it subscribes to the exact topics its participant
follows (``follow``; the header alone until it says) and says so with a ``Connected``
event, on which the participant publishes its moves again (retained, so a broker that
lost them has them back).  ``events()`` hands over what arrived since the last call,
parsed; the scan loop calls it and never waits.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias
from urllib.parse import SplitResult, unquote, urlsplit

from engine.errors import GameboardError
from firmware_host.remote.credentials import tls_context
from firmware_host.remote.messages import Message, parse_message
from firmware_host.remote.protocol import (
    NAME,
    Header,
    ProtocolError,
    check_name,
    header_topic,
    presence_topic,
    short_topic,
)

logger = logging.getLogger(__name__)

DEFAULT_PORT = 1883
TLS_PORT = 8883
#: Seconds between keep-alive pings: a broker gone silent is noticed within 1.5 times this.
KEEPALIVE_S = 5
#: The reconnect back-off: first try after this many seconds, doubling up to the second.
RECONNECT_DELAYS = (1, 4)
#: How long closing waits for the broker to acknowledge what was published (seconds).
CLOSE_WAIT_S = 2.0
#: Where a password goes instead of a command line or an address, which `ps` and logs show.
PASSWORD_PLACES = "[remote] password_file or password in the configuration, --password-file FILE on a command line"

#: How the remote-play drop-in goes in, under gameboard.service (which gives the daemon no network).
INSTALL_REMOTE = ("sudo install -D -m 0644 systemd/gameboard-remote.conf "
                  "/etc/systemd/system/gameboard.service.d/remote.conf")


class LinkError(GameboardError, ValueError):
    """A broker address or option that cannot work; the message says the fix."""


@dataclass(frozen=True)
class Broker:
    """Where the broker is and how to log in: ``mqtt://[user@]host[:port]`` (``mqtts://`` for TLS); the
    password comes apart, never in the address."""

    host: str
    port: int = DEFAULT_PORT
    tls: bool = False
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    #: TLS: the certificate authority to trust (None: the system's), and a client certificate if the broker asks.
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None

    @classmethod
    def parse(cls, url: str, **options: Any) -> Broker:
        parts = _split(url)
        if parts.password is not None:
            raise LinkError(f"broker {_hidden(url)!r}: a password in the address is shown wherever the address is "
                            f"(`ps`, logs); take it out and give it apart: {PASSWORD_PLACES}")
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise LinkError(f"broker {url!r}: write mqtt://HOST[:PORT] (mqtts:// for TLS), e.g. mqtt://127.0.0.1:1883")
        try:
            port = parts.port
        except ValueError:
            raise LinkError(f"broker {url!r}: the port must be a number from 1 to 65535") from None
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise LinkError(f"broker {url!r}: write only mqtt://HOST[:PORT], the game apart")
        tls = parts.scheme == "mqtts"
        username = options.pop("username", None)
        return cls(parts.hostname, port or (TLS_PORT if tls else DEFAULT_PORT), tls,
                   unquote(parts.username) if parts.username else username, **options)

    def __str__(self) -> str:
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"


@dataclass(frozen=True)
class Connected:
    """The link (re)connected and subscribed: publish what the broker may have lost."""


@dataclass(frozen=True)
class Disconnected:
    reason: str


@dataclass(frozen=True)
class Garbled:
    """A message that breaks the protocol: reported, never applied."""

    topic: str
    problem: str


Event: TypeAlias = "Message | Connected | Disconnected | Garbled"


def game_address(url: str, **options: Any) -> tuple[Broker, str]:
    """The broker and the game of ``mqtt://[user@]host[:port]/GAME`` (as ``--join`` takes it)."""
    parts = _split(url)
    game = parts.path.strip("/")
    if not NAME.fullmatch(game):
        raise LinkError(f"{_hidden(url)!r}: end the address with the game id, e.g. mqtt://broker.example:1883/friday "
                        "(letters, digits, '-' or '_')")
    return Broker.parse(parts._replace(path="").geturl(), **options), game


class Link:
    """One participant's connection to one game on the broker."""

    def __init__(self, broker: Broker, game: str, name: str) -> None:
        import paho.mqtt.client as mqtt

        self.broker = broker
        self.game = check_name(game, "the game id")
        self.name = check_name(name, "the participant's name")
        self._events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        #: Events read while waiting for the header, handed over first by ``events()``.
        self._held: list[Event] = []
        #: Messages published that the broker may not have acknowledged yet, oldest first.
        self._sent: deque[Any] = deque()
        self.connected = False
        #: Why the link is not connected now, in words ("" when it is).
        self.problem = ""
        self._refused = ""
        #: The exact topics subscribed to at every connection, in order (``follow``); the lock keeps a
        #: change from crossing a reconnection.
        self._following: tuple[str, ...] = (header_topic(game),)
        self._subscribing = threading.Lock()
        #: Messages received since the link was made: what the broker sent, junk included.
        self.received = 0
        #: The id this link asks the broker for (a broker configured as documented uses the user name instead).
        self.client_id = client_id(game, name)
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id,
                             clean_session=True, protocol=mqtt.MQTTv311)
        client.will_set(presence_topic(game, name), b"offline", qos=1, retain=True)
        if broker.username is not None:
            client.username_pw_set(broker.username, broker.password)
        if broker.tls:
            client.tls_set_context(tls_context(broker.ca_file, broker.cert_file, broker.key_file))
        client.reconnect_delay_set(*RECONNECT_DELAYS)
        client.max_inflight_messages_set(100)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        self._client = client
        client.connect_async(broker.host, broker.port, keepalive=KEEPALIVE_S)
        try:
            client.loop_start()
        except OSError as exc:  # paho's socket pair is TCP on 127.0.0.1: a sandbox without Internet sockets
            raise GameboardError(f"remote play cannot open a network socket here ({exc.strerror}); under "
                                 f"gameboard.service install the remote-play drop-in: {INSTALL_REMOTE} "
                                 "(docs/daemon.md)") from None

    # -- paho's thread ----------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:  # a wrong password, a name the broker does not know: said until it connects
            self._refused = self.problem = f"the broker {self.broker} refused this board: {reason}"
            return
        with self._subscribing:  # ``follow`` sends what changes once connected, after these
            self.connected, self.problem, self._refused = True, "", ""
            _subscribe(client, self._following)
        client.publish(presence_topic(self.game, self.name), b"online", qos=1, retain=True)
        self._events.put(Connected())

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected = False
        self.problem = self._refused or f"the broker {self.broker} cannot be reached ({reason}); trying again"
        self._events.put(Disconnected(str(reason)))

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        self.problem = self._refused or f"the broker {self.broker} cannot be reached; trying again"

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        """What a peer sent, as a message or as Garbled.  An exception raised here would end paho's loop,
        the link dead while it looks connected: a peer's bytes raise only ProtocolError (``parse_message``),
        and anything else, a bug of this board's, is logged and reported, the link kept."""
        self.received += 1
        try:
            topic = message.topic
        except UnicodeDecodeError:  # paho decodes the topic when it is read; Mosquitto refuses such topics
            self._events.put(Garbled("(not UTF-8)", "its topic is not UTF-8"))
            return
        try:
            parsed = parse_message(self.game, topic, message.payload)
        except ProtocolError as exc:
            self._events.put(Garbled(short_topic(topic), str(exc)))
            return
        except Exception as exc:  # paho's thread: see above
            logger.exception("a message on %s could not be read", short_topic(topic))
            self._events.put(Garbled(short_topic(topic), f"this board could not read it ({exc!r}): a bug, logged"))
            return
        if parsed is not None:
            self._events.put(parsed)

    # -- the participant's thread ------------------------------------------------------------

    def events(self) -> list[Event]:
        """What arrived since the last call (never blocks)."""
        heard, self._held = self._held, []
        while True:
            try:
                heard.append(self._events.get_nowait())
            except queue.Empty:
                return heard

    def header(self, timeout: float) -> Header | None:
        """Wait up to ``timeout`` seconds for the game's header (a participant joining a game it did not set
        up); what else arrives meanwhile is kept for ``events()``."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = self._events.get(timeout=min(left, 0.1))
            except queue.Empty:
                continue
            self._held.append(event)
            if isinstance(event, Header):
                return event
        return None

    def follow(self, topics: Sequence[str]) -> None:
        """Subscribe to exactly ``topics`` from now on, and at every reconnection: those new are subscribed
        (the broker sends what is retained there), those no longer listed unsubscribed."""
        with self._subscribing:
            listed = set(topics)
            known = set(self._following)
            new = [topic for topic in topics if topic not in known]
            gone = [topic for topic in self._following if topic not in listed]
            self._following = tuple(topics)
            if self.connected:
                _subscribe(self._client, new)
                if gone:
                    self._client.unsubscribe(gone)

    def fetch_again(self, topics: Sequence[str]) -> None:
        """Subscribe to ``topics`` again: the broker sends what is retained there once more (what it dropped
        from a full queue, say)."""
        with self._subscribing:
            if self.connected:
                _subscribe(self._client, topics)

    def publish(self, topic: str, payload: bytes, *, retain: bool) -> None:
        """Send at QoS 1; while the broker is away paho keeps it, and a reconnect publishes everything again."""
        self._sent.append(self._client.publish(topic, payload, qos=1, retain=retain))
        while self._sent and not _unacknowledged(self._sent[0]):  # acknowledged in order: a step, not a scan
            self._sent.popleft()

    def close(self, wait: float = CLOSE_WAIT_S) -> None:
        """Say this participant is offline and disconnect, once the broker has what was published (waiting at
        most ``wait`` seconds: a broker that is away gets it all again at the next start)."""
        if self.connected:
            self._sent.append(self._client.publish(presence_topic(self.game, self.name), b"offline", qos=1,
                                                   retain=True))
            deadline = time.monotonic() + wait
            for info in self._sent:
                left = deadline - time.monotonic()
                if left <= 0 or not self.connected:
                    break
                try:
                    info.wait_for_publish(left)
                except (RuntimeError, ValueError):  # paho's word for a message that will not go out now
                    break
        self._client.disconnect()  # a clean disconnect: no last will (the "offline" above said it)
        self._client.loop_stop()


def client_id(game: str, name: str) -> str:
    """A client id nobody can guess: a broker drops the older of two connections with the same id, so a
    predictable one (``gameboard-{game}-{name}``) let anyone knock a participant off.  Random per link, kept
    across its reconnects; a clean session, so nothing is lost with it when the board restarts."""
    return f"gameboard-{game}-{name}-{secrets.token_hex(8)}"


def _hidden(url: str) -> str:
    """``url`` with any password in it masked, to be shown in a message."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)).geturl()


def _split(url: str) -> SplitResult:
    """``urlsplit``, its ValueError (``mqtt://[::1/friday``) the LinkError every caller reports in one line."""
    try:
        return urlsplit(url)
    except ValueError as exc:
        raise LinkError(f"{url!r} is not an address ({exc}); an IPv6 host goes in brackets, e.g. "
                        "mqtt://[::1]:1883") from None


def _subscribe(client: Any, topics: Sequence[str]) -> None:
    """Subscribe to ``topics`` at QoS 1 in one packet, in their order (the order the broker sends what is
    retained there)."""
    if topics:
        client.subscribe([(topic, 1) for topic in topics])


def _unacknowledged(info: Any) -> bool:
    """Whether the broker has yet to acknowledge a message paho took; one paho gave up on (the link went
    down) is not waited for: the next connection publishes everything again."""
    try:
        return not info.is_published()
    except (RuntimeError, ValueError):
        return False
