"""Hostile peers, for tests/remote/test_fuzz.py and bench/remote_fuzz.py.

``messages(ply)`` is a hypothesis strategy for whatever a peer may publish to a game: random
bytes, JSON of every shape, topics with odd numbers and characters, and (most often) the real
next move broken in one to three ways (another sender, seq, move, hash, a field dropped or of
another type, a reveal, extra fields); none of them is a move the game may take.  ``Table``
is one game played through a real Mosquitto by a board (alice, hosting), a joined simulator
(bob) and a spectator (carol): ``deliver`` sends messages to all three and waits until each
has read them, ``unchanged`` says whether any of them took one.
"""

from __future__ import annotations

import json
import queue
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.subscribeoptions import SubscribeOptions
from hypothesis import strategies as st

from engine.core import State
from engine.registry import game_class
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker, Event, Garbled
from firmware_host.remote.moves import Chain
from firmware_host.remote.participant import Participant
from firmware_host.remote.protocol import PREFIX
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat
from firmware_host.sim import SimSession
from hal.clock import ManualClock
from tests.sim import clicks

GAME_ID = "fuzz"
BASE = f"{PREFIX}/{GAME_ID}"
PARTICIPANTS = ("alice", "bob", "carol", "mallory")
#: Characters str.isdigit() or int() take that a topic's ply must not.
ODD_DIGITS = "²³¹١٢٣۴५٥൬௭①𝟙０"
#: How long a table waits for the three participants to read what was sent (seconds).
DELIVERY_S = 15.0

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
#: A value of any JSON type but a whole number (true and 1.0 included: neither is a ply).
NOT_INT = JSON.filter(lambda value: type(value) is not int)
NOT_STR = JSON.filter(lambda value: not isinstance(value, str))
#: What MQTT and Mosquitto take in a topic level: no wildcard, no separator, no control character.
LEVEL = st.text(st.characters(exclude_categories=("Cc", "Cs", "Cn"), exclude_characters="/+#"), max_size=12)
#: A participant's name: mostly those of the game (a real sender, or one who holds no seat).
NAMES = st.sampled_from(PARTICIPANTS) | st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,63}", fullmatch=True)
SPECIAL_PAYLOADS = (b"", b"online", b"offline", b"[" * 60_000, b"{" * 70_000, b'{"v": 3, "seq": ' + b"9" * 5000 + b"}",
                    b'{"v": 3, "seq": 1e999}', b'{"v": 3, "seq": NaN}', b"\xef\xbb\xbf{}", '{"v": 3}'.encode("utf-16"),
                    b'{"v": 3, "v": 1}', b"null", b"\x00" * 10)


def marker_of(event: Event) -> str:
    """The marker a garbled presence carries ("" for any other event)."""
    found = re.search(r"not b'(marker-[0-9]+)'", event.problem) if isinstance(event, Garbled) else None
    return found.group(1) if found else ""


@dataclass(frozen=True)
class Ply:
    """The next ply of a game, as a well-formed message for it would carry it."""

    seq: int
    holder: str
    move: str
    hash: str
    #: Other legal moves here.
    others: tuple[str, ...]
    header: dict[str, Any]

    @classmethod
    def of(cls, state: State, holder: str, header: dict[str, Any], rng: random.Random) -> Ply:
        moves = [str(move) for move in state.legal_moves]
        move = rng.choice(moves)
        state.apply(move)
        try:
            reached = Chain(state).head
        finally:
            state.pop()
        return cls(len(state.history) + 1, holder, move, reached, tuple(m for m in moves if m != move), header)


def topics(ply: Ply) -> st.SearchStrategy[str]:
    """Topics of the game's, with a sender, a ply and levels of every kind (never the header)."""
    seqs = st.one_of(st.just(str(ply.seq)), st.integers(-3, 2_000_000).map(str),
                     st.text("0123456789" + ODD_DIGITS, min_size=1, max_size=8),
                     st.sampled_from(["1" * 4400, f"0{ply.seq}", f" {ply.seq}", f"{ply.seq}.0", "-1", "1e3", ""]))
    kinds = st.sampled_from(["presence", "refused", "move", "dice/1", "seal/1", f"move/{ply.seq}/x", ""])
    return st.one_of(
        st.builds(lambda by, seq: f"{BASE}/by/{by}/move/{seq}", NAMES, seqs),
        st.builds(lambda by, kind: f"{BASE}/by/{by}/{kind}", NAMES | LEVEL, kinds),
        st.lists(LEVEL, min_size=1, max_size=5).filter(lambda levels: levels != ["header"])
        .map(lambda levels: "/".join([BASE, *levels])),
        st.just(f"{BASE}/{'x' * 5000}"))


PAYLOADS = st.one_of(
    st.binary(max_size=300),
    JSON.map(lambda value: json.dumps(value).encode()),
    st.dictionaries(st.sampled_from(["seq", "move", "hash", "reveal", "reason", "game", "seats"]) | st.text(max_size=6),
                    JSON, max_size=5).map(lambda fields: json.dumps({"v": 3, **fields}).encode()),
    st.sampled_from(SPECIAL_PAYLOADS))


BREAKS = st.lists(st.sampled_from(("sender", "seq", "ply", "move", "hash", "drop", "type", "reveal", "version")),
                  min_size=1, max_size=3, unique=True)
FIELDS = st.sampled_from(("v", "seq", "move", "hash"))
#: This game hides nothing: any reveal is refused, an empty one being none.
REVEALS = st.dictionaries(NAMES, st.integers(), min_size=1) | JSON.filter(lambda value: value != {})
NOT_VERSION = JSON.filter(lambda value: not (type(value) is int and value == 3))
#: Fields a move message does not have: ignored, so they never make a broken message whole.
EXTRA_FIELDS = st.dictionaries(
    st.text(max_size=8).filter(lambda key: key not in ("v", "seq", "move", "hash", "reveal")), JSON, max_size=3)


def broken_moves(ply: Ply) -> st.SearchStrategy[tuple[str, bytes]]:
    """The real next move, broken in one to three ways, with extra fields or not."""
    senders = NAMES.filter(lambda name: name != ply.holder)
    other_seqs = st.integers().filter(lambda number: number != ply.seq)  # the payload's ply is not the topic's
    other_plies = st.integers(1, ply.seq + 5).filter(lambda number: number != ply.seq)  # a duplicate, or one to wait
    moves = st.sampled_from(ply.others or ("p0",)) | st.text(max_size=300).filter(lambda text: text.strip() != ply.move)
    hashes = (st.text(max_size=20) | st.binary(min_size=8, max_size=8).map(bytes.hex)).filter(
        lambda text: text != ply.hash)

    @st.composite
    def broken(draw: st.DrawFn) -> tuple[str, bytes]:
        data: dict[str, Any] = {"v": 3, "seq": ply.seq, "move": ply.move, "hash": ply.hash}
        by, seq = ply.holder, ply.seq
        for way in draw(BREAKS):
            if way == "sender":
                by = draw(senders)
            elif way == "seq":
                data["seq"] = draw(other_seqs)
            elif way == "ply":
                seq = data["seq"] = draw(other_plies)
            elif way == "move":
                data["move"] = draw(moves)
            elif way == "hash":
                data["hash"] = draw(hashes)
            elif way == "drop":
                data.pop(draw(FIELDS), None)
            elif way == "type":
                key = draw(FIELDS)
                data[key] = draw(NOT_STR if key in ("move", "hash") else NOT_INT)
            elif way == "reveal":
                data["reveal"] = draw(REVEALS)
            elif way == "version":
                data["v"] = draw(NOT_VERSION)
        return f"{BASE}/by/{by}/move/{seq}", json.dumps({**draw(EXTRA_FIELDS), **data}).encode()

    return broken()


def broken_headers(ply: Ply) -> st.SearchStrategy[tuple[str, bytes]]:
    """The game's header with a field dropped or of another type (another well-formed header would stop the
    game, as it must: the header is its host's alone, docs/mosquitto/gameboard.acl)."""
    retyped = {key: JSON.filter(lambda value, key=key: type(value) is not type(ply.header[key])
                                or key == "v" and value != 2) for key in ply.header}
    keys = st.sampled_from(sorted(ply.header))

    @st.composite
    def broken(draw: st.DrawFn) -> tuple[str, bytes]:
        header, key = dict(ply.header), draw(keys)
        if draw(st.booleans()):
            del header[key]
        else:
            header[key] = draw(retyped[key])
        return f"{BASE}/header", json.dumps(header).encode()

    return broken()


def messages(ply: Ply) -> st.SearchStrategy[tuple[str, bytes]]:
    """Anything a hostile or broken peer may publish while ``ply`` is to be made; none of it a move to take."""
    return st.one_of(st.tuples(topics(ply), PAYLOADS), broken_moves(ply), broken_headers(ply))


class Peer:
    """A client on the broker that publishes what a test makes up and hears what the participants publish."""

    def __init__(self, port: int, game_id: str) -> None:
        self.heard: queue.SimpleQueue[tuple[str, bytes]] = queue.SimpleQueue()
        self.log: list[tuple[str, bytes]] = []
        self.sent = 0
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"peer-{game_id}",
                                  protocol=mqtt.MQTTv5)
        self.client.on_message = lambda client, userdata, message: self.heard.put((message.topic, message.payload))
        self.client.connect("127.0.0.1", port)
        # MQTT 5's no-local: what it hears is the participants', never its own junk
        self.client.subscribe(f"{PREFIX}/{game_id}/#", options=SubscribeOptions(qos=1, noLocal=True))
        self.client.loop_start()

    def publish(self, topic: str, payload: bytes, retain: bool = False, wait: bool = True) -> None:
        """Publish at QoS 1, waiting for the broker's acknowledgement unless told not to (messages of one
        client reach each subscriber in the order published)."""
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        self.sent += 1
        if wait:
            info.wait_for_publish(5)

    def refusals(self) -> list[dict[str, Any]]:
        """The refusals heard so far."""
        while not self.heard.empty():
            self.log.append(self.heard.get())
        return [json.loads(payload) for topic, payload in self.log if topic.endswith("/refused")]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class Table:
    """One Square Off game through the broker on ``port``: alice's board hosts it (seat 0), bob plays it
    in a joined simulator with its hands on auto (seat 1), carol watches it."""

    def __init__(self, tables: ModuleType, hands: ModuleType, folder: Path, port: int, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.peer = Peer(port, GAME_ID)
        broker, game = Broker("127.0.0.1", port), game_class("squareoff")()
        seats = (HUMAN, Seat("remote", holder="bob"))
        self.alice_clock = ManualClock()
        remote = host(broker, GAME_ID, "alice", game, seats, self.alice_clock)
        self.alice, mock, _ = tables.open_board(game, folder / "alice.sqlite3", seats=seats, clock=self.alice_clock,
                                                remote=remote)
        self.alice_hands = hands.Hands(self.alice, mock, self.alice_clock)
        deadline = time.monotonic() + DELIVERY_S
        while remote.heard_header is None:  # its own header, heard back: what bob and carol join
            assert time.monotonic() < deadline, f"no header: {self.alice.status_text()}"
            self.alice_clock.advance(0.05)
            self.alice.step()
            time.sleep(0.01)
        self.header = json.loads(remote.header.payload())
        bobs, joined, bob_seats = join(broker, GAME_ID, "bob", wait=10)
        self.bob_clock = ManualClock()
        self.session = SimSession(joined.name, dict(joined.options), journal=folder / "bob.sqlite3",
                                  clock=self.bob_clock, seats=[str(seat) for seat in bob_seats], auto=True,
                                  remote=bobs)
        self.bob = self.session.daemon
        carols, watched, _ = join(broker, GAME_ID, "carol", wait=10)
        self.spectator = Spectator(carols, watched)
        self.participants = (remote, bobs, carols)
        self.markers = 0
        #: The markers each participant's link handed over, by participant.
        self.heard: dict[str, set[str]] = {}
        for participant in self.participants:
            self._watch_markers(participant)
        self._before = self._seen()

    def close(self) -> None:
        self.session.close()
        self.alice.close()
        self.spectator.participant.close()
        self.peer.close()

    # -- what the three hold ---------------------------------------------------------------

    def ply(self) -> Ply:
        """The next ply, as its holder would send it."""
        state = self.spectator.state
        return Ply.of(state, self.header["seats"][state.current_player], self.header, self.rng)

    def _seen(self) -> tuple[Any, ...]:
        alice, bob = self.alice, self.bob
        return (alice.journal.moves(), alice.journal.setup(), [str(m) for m in alice.state.history],
                bob.journal.moves(), bob.journal.setup(), [str(m) for m in bob.state.history],
                [str(m) for m in self.spectator.state.history])

    def unchanged(self) -> list[str]:
        """What changed since the last move played (journals, games, a move shown to carry out, a fault)."""
        problems = [f"{what} changed" for what, before, now in zip(
            ("alice's journal", "alice's setup", "alice's game", "bob's journal", "bob's setup", "bob's game",
             "carol's game"), self._before, self._seen()) if before != now]
        problems += [f"{name} shows a move to carry out" for name, daemon in (("alice", self.alice), ("bob", self.bob))
                     if daemon.carry is not None]
        problems += [f"{name}: {daemon.status_text()}" for name, daemon in (("alice", self.alice), ("bob", self.bob))
                     if daemon.faults]
        return problems

    # -- stepping ----------------------------------------------------------------------------

    def step(self) -> None:
        self.alice_clock.advance(0.01)
        self.alice.step()
        self.bob_clock.advance(0.01)
        self.session.step()
        self.spectator.follow()

    def _wait(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + DELIVERY_S
        while not condition():
            assert time.monotonic() < deadline, (
                f"no {what} after {DELIVERY_S:g} s: alice: {self.alice.status_text()}; bob: {self.bob.status_text()}; "
                f"carol: {self.spectator.status()}")
            self.step()
            time.sleep(0.001)

    def deliver(self, sent: list[tuple[str, bytes]]) -> None:
        """Publish ``sent`` and step the three participants until each has read it."""
        self.read(self.send(sent))

    def send(self, sent: list[tuple[str, bytes]]) -> str:
        """Publish ``sent``, then a marker, returned: a participant that has heard the marker has read what came
        before it (one publisher's messages arrive in order).  The marker is a garbled presence of alice's, a topic
        all three follow (a participant is sent only the topics it follows)."""
        for topic, payload in sent:
            self.peer.publish(topic, payload, wait=False)
        self.markers += 1
        marker = f"marker-{self.markers}"
        self.peer.publish(f"{BASE}/by/alice/presence", marker.encode())
        return marker

    def read(self, marker: str) -> None:
        """Step the three until each has heard ``marker``."""
        self._wait(lambda: all(marker in self.heard[participant.name] for participant in self.participants),
                   "marker")

    def _watch_markers(self, participant: Participant) -> None:
        """Note each marker ``participant``'s link hands over (an observer on the real link)."""
        events, heard = participant.link.events, self.heard.setdefault(participant.name, set())

        def watched() -> list[Event]:
            got = events()
            heard.update(marker_of(event) for event in got if marker_of(event))
            return got

        participant.link.events = watched  # type: ignore[method-assign]

    # -- real moves --------------------------------------------------------------------------

    def play(self) -> str:
        """The player to move makes a move at random; both other participants take it.  The move."""
        plies = len(self.spectator.state.history)
        if self.spectator.state.current_player == 0:
            move = self.rng.choice(list(self.alice.state.legal_moves))
            self.alice_hands.play(self.alice.state, move)
            self._wait(lambda: len(self.bob.journal.moves()) > plies, "move carried out on bob's page")
        else:
            move = self.rng.choice(list(self.bob.state.legal_moves))
            clicks.Player(self.session, self.bob_clock).make(move)
            self._wait(lambda: self.alice.carry is not None, "move to carry out on alice's board")
            self.alice_hands.play(self.alice.state, self.alice.carry.move)
        self._wait(lambda: len(self.spectator.state.history) > plies, "move followed by carol")
        self._before = self._seen()
        return str(move)
