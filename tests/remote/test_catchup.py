"""Catching up through a real Mosquitto: a board, a joined simulator or a spectator fetches exactly the plies
it lacks whatever the broker's queue limits, and junk retained under the game neither hides a move from it
nor floods it (issue 33, item 4).  The long runs (4,000 plies, 50,000 junk messages) are
bench/remote_catchup.py's."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from engine.core import State
from engine.registry import game_class
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker
from firmware_host.remote.following import most_sent_at_once
from firmware_host.remote.moves import Chain, mover, published
from firmware_host.remote.participant import COPIES_KEPT, NOTES_KEPT, REFETCH_S, game_header
from firmware_host.remote.protocol import (
    BY_HAND,
    MoveMessage,
    Rewrite,
    header_topic,
    move_topic,
    presence_topic,
    rewrite_topic,
)
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat
from hal.clock import ManualClock

#: The game of the documented ACL file: alice hosts it, bob plays, carol watches.
GAME_ID = "friday"
DOCS = Path(__file__).parents[2] / "docs" / "mosquitto"
USERS = {"alice": "alice-pw", "bob": "bob-pw", "carol": "carol-pw"}
#: The lines of the documented configuration that say how much the broker queues for each client.
LIMITS = ("max_queued_messages", "max_inflight_messages", "max_queued_bytes")
#: The most players of any game (Over-Pass, Groups-of-Three, Pawns Crossing): a spectator follows them all.
MOST_PLAYERS = 4
#: A broker whose queue for each client holds 100 messages, a tenth of Mosquitto's default: the long game
#: below overflows it ten times over, as four-player Over-Pass's 3,000-4,200 plies overflow the default.
#: (Groups-of-Three: its moves are checked ten times faster than Over-Pass's, and it has rolls too.)
SMALL_QUEUE = ("max_queued_messages 100",)
#: Plies of the long game: more than the default queue and its 20 messages in flight (the issue's board got
#: 1,020 of 1,200).
PLIES = 1250
SEATS = (HUMAN, Seat("remote", holder="bob"))


@functools.cache
def long_game() -> tuple[State, dict[int, MoveMessage]]:
    """A two-player Groups-of-Three game of random moves, PLIES plies long, and each ply's move as its
    holder (alice for player 0, bob for player 1) published it."""
    state, rng = game_class("groups-of-three")().new_initial_state(), random.Random(1)
    while len(state.history) < PLIES:
        state.push(state.random_move(rng))
    return state, published(state, Chain(state), ("alice", "bob"))


class Publisher:
    """Another client on the broker, publishing what the test makes up (the boards' moves, junk); ``user`` is
    its name and password, for a broker that asks."""

    def __init__(self, port: int, user: tuple[str, str] | None = None) -> None:
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"publisher-{user and user[0]}")
        if user is not None:
            self.client.username_pw_set(*user)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def retain(self, messages: list[tuple[str, bytes]]) -> None:
        self.send(messages, retain=True)

    def send(self, messages: list[tuple[str, bytes]], retain: bool = False) -> None:
        infos = [self.client.publish(topic, payload, qos=1, retain=retain) for topic, payload in messages]
        for info in infos:
            info.wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def retained_game(port: int, moves: list[MoveMessage], junk: Sequence[tuple[str, bytes]] = (),
                  passwords: dict[str, str] | None = None) -> None:
    """The broker holding the long game's header, ``moves`` and ``junk``, as the boards and others left them
    (each writing as itself where the broker has ``passwords``)."""
    state, _ = long_game()
    header = game_header(state.game, SEATS, "alice", BY_HAND)  # its rolls are drawn, as by hand
    writes = {"alice": [(header_topic(GAME_ID), header.payload()), *junk]}
    for move in moves:
        writes.setdefault(move.by, []).append((move_topic(GAME_ID, move.by, move.seq), move.payload()))
    for writer, messages in writes.items():
        publisher = Publisher(port, (writer, passwords[writer]) if passwords else None)
        try:
            publisher.retain(messages)
        finally:
            publisher.close()


def documented_limits() -> tuple[str, ...]:
    """The queue's lines of docs/mosquitto/gameboard.conf."""
    lines = (DOCS / "gameboard.conf").read_text(encoding="utf-8").splitlines()
    found = tuple(line for line in lines if line.split(" ")[0] in LIMITS)
    assert [line.split(" ")[0] for line in found] == list(LIMITS), f"the documented configuration lost {LIMITS}"
    return found


@pytest.fixture
def documented(tmp_path, make_mosquitto, broker_tools):
    """A broker with the documented ACL file, passwords, and queue limits."""
    return make_mosquitto(password_file=broker_tools.passwords(tmp_path, USERS), acl_file=DOCS / "gameboard.acl",
                          more=documented_limits())


def position_at(plies: int) -> State:
    """The long game after its first ``plies`` plies."""
    state, _ = long_game()
    position = state.game.new_initial_state()
    for move in state.history[:plies]:
        position.push(move)
    return position


def board_at(tables, hands, tmp_path, port: int, plies: int):
    """Alice's board restarted at ply ``plies`` of the long game (its journal's), and its person."""
    state, _ = long_game()
    position = position_at(plies)
    clock = ManualClock()
    remote = host(Broker("127.0.0.1", port), GAME_ID, "alice", state.game, SEATS, clock, BY_HAND)
    daemon, mock, clock = tables.open_board(position, tmp_path / "alice.sqlite3", seats=SEATS, clock=clock,
                                            remote=remote)
    return daemon, hands.Hands(daemon, mock, clock)


def bobs_ply_after(plies: int) -> int:
    """The first ply after ``plies`` that is bob's move (not a roll): a board shows it to carry out."""
    state, _ = long_game()
    position = position_at(plies)
    while position.is_chance_node() or mover(position) != 1:
        position.push(state.history[len(position.history)])
    return len(position.history) + 1


def wait_for(condition: Callable[[], object], what: Callable[[], str], step: Callable[[], object],
             timeout: float = 30.0) -> None:
    """Call ``step`` until ``condition()``; after ``timeout`` seconds, fail saying ``what()``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what()
        step()
        time.sleep(0.002)


def test_the_documented_queue_holds_all_a_spectator_of_four_players_can_be_sent_at_once():
    limits = dict(line.split(" ") for line in documented_limits())
    assert int(limits["max_queued_messages"]) + int(limits["max_inflight_messages"]) >= most_sent_at_once(MOST_PLAYERS)
    assert limits["max_queued_bytes"] == "0"  # no limit


def test_a_late_spectator_follows_every_retained_move_in_order_past_the_broker_queue(documented):
    """The documented configuration: its queue limits, and its ACL letting carol read the game."""
    _, moves = long_game()
    retained_game(documented.port, list(moves.values()), passwords=USERS)
    participant, game, _ = join(Broker("127.0.0.1", documented.port, username="carol", password=USERS["carol"]),
                                GAME_ID, "carol", wait=10)
    spectator = Spectator(participant, game)
    try:
        wait_for(lambda: len(spectator.state.history) == PLIES,
                 lambda: f"the spectator followed {len(spectator.state.history)} of {PLIES} plies", spectator.follow)
        assert [str(move) for move in spectator.state.history] == [moves[seq].move for seq in range(1, PLIES + 1)]
    finally:
        participant.close()


def test_a_restarted_board_gets_the_newest_move_past_the_broker_queue(tables, hands, tmp_path, make_mosquitto):
    """The issue's board got 1,020 of 1,200 retained moves, not the newest: the one it lacked."""
    mosquitto = make_mosquitto(more=SMALL_QUEUE)
    _, moves = long_game()
    newest = bobs_ply_after(PLIES - 30)
    retained_game(mosquitto.port, [moves[seq] for seq in range(1, newest + 1)])
    daemon, person = board_at(tables, hands, tmp_path, mosquitto.port, newest - 1)
    try:
        wait_for(lambda: daemon.carry is not None, lambda: f"no move {newest}: {daemon.status_text()}",
                 lambda: person.run(0.01))
        assert str(daemon.carry.move) == moves[newest].move
    finally:
        daemon.close()


def junk(plies: int) -> list[tuple[str, bytes]]:
    """3,000 retained messages nobody should read: moves of a name that holds no seat, the holder's moves
    far ahead, and topics that are not the protocol's."""
    base = f"gameboard/v3/{GAME_ID}/by"
    return ([(f"{base}/mallory/move/{seq}", b'{"v": 3, "seq": 1, "move": "x", "hash": "0"}') for seq in range(1, 1001)]
            + [(f"{base}/bob/move/{plies + 10_000 + seq}", b"{not json") for seq in range(1000)]
            + [(f"{base}/bob/chatter/{seq}", b"hello" * 20) for seq in range(1000)])


def test_junk_retained_under_the_game_neither_hides_a_move_from_a_restarted_board_nor_floods_it(
        tables, hands, tmp_path, mosquitto):
    """The issue's 50,000 junk retained messages hid a real move and cost 27 MiB (bench/remote_catchup.py
    measures that many); 3,000 overflow Mosquitto's default queue of 1,000.  The board is sent no more
    than one message a topic it follows."""
    _, moves = long_game()
    newest = bobs_ply_after(40)
    retained_game(mosquitto.port, [moves[seq] for seq in range(1, newest + 1)], junk(newest))
    daemon, person = board_at(tables, hands, tmp_path, mosquitto.port, newest - 1)
    try:
        wait_for(lambda: daemon.carry is not None, lambda: f"no move {newest}: {daemon.status_text()}",
                 lambda: person.run(0.01))
        assert str(daemon.carry.move) == moves[newest].move
        assert daemon.remote.link.received <= most_sent_at_once(holders=1)
    finally:
        daemon.close()


def test_a_peer_flooding_a_ply_costs_a_few_copies_and_a_name_holding_no_seat_nothing(mosquitto):
    """Live (not retained) junk: the holder of a seat may write under its own name, as often as it likes."""
    state, moves = long_game()
    retained_game(mosquitto.port, [])
    clock = ManualClock()
    alice = host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "alice", state.game, SEATS, clock, BY_HAND)
    publisher = Publisher(mosquitto.port)
    try:
        # her own presence, published once subscribed: the window is in place
        wait_for(lambda: alice.online.get("alice"), lambda: "alice never heard herself", lambda: alice.hear(1))
        flood = [MoveMessage(1, f"junk {number}", "bob", "0") for number in range(300)]
        publisher.send([(move_topic(GAME_ID, "mallory", 1), moves[1].payload()),
                        *((move_topic(GAME_ID, "bob", 1), move.payload()) for move in flood),
                        *((move_topic(GAME_ID, "bob", 2), b"{not json") for _ in range(300)),
                        (presence_topic(GAME_ID, "bob"), b"online")])
        wait_for(lambda: alice.online.get("bob"), lambda: "bob's presence never came", lambda: alice.hear(1))
        assert alice.candidates(1) == flood[:COPIES_KEPT]
        assert len(alice.notes) == NOTES_KEPT and all(note.startswith(f"a message on {move_topic(GAME_ID, 'bob', 2)} ")
                                                      for note in alice.notes)
        assert alice.link.received == 2 + 300 + 300 + 1  # the header, her presence, bob's; nothing of mallory's
    finally:
        publisher.close()
        alice.close()


def test_a_broker_queue_smaller_than_a_window_only_slows_the_catching_up(make_mosquitto):
    """A queue of 20 messages (and 10 in flight) drops half of each window; what was dropped is fetched again
    once the next ply has lacked a move for REFETCH_S (on the participant's clock)."""
    mosquitto = make_mosquitto(more=("max_queued_messages 20", "max_inflight_messages 10"))
    _, moves = long_game()
    plies = 120
    retained_game(mosquitto.port, [moves[seq] for seq in range(1, plies + 1)])
    clock = ManualClock()
    state, _ = long_game()
    participant = host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "carol", state.game,
                       (Seat("remote", holder="alice"), Seat("remote", holder="bob")), clock, BY_HAND)
    followed: list[str] = []
    try:
        stalled = time.monotonic()
        deadline = time.monotonic() + 30
        while len(followed) < plies:
            assert time.monotonic() < deadline, f"followed {len(followed)} of {plies} plies"
            participant.hear(len(followed) + 1)
            if candidates := participant.candidates(len(followed) + 1):
                followed.append(candidates[0].move)
                stalled = time.monotonic()
            elif time.monotonic() - stalled > 0.1:
                clock.advance(REFETCH_S)
                stalled = time.monotonic()
            time.sleep(0.002)
        assert followed == [moves[seq].move for seq in range(1, plies + 1)]
        assert "Outgoing messages are being dropped" in mosquitto.log()
    finally:
        participant.close()


def test_a_participant_reconnecting_follows_its_window_again(mosquitto, cable):
    """The broker out of reach while bob moves: once back, alice's window is subscribed again and his move,
    retained meanwhile, comes."""
    state, moves = long_game()
    retained_game(mosquitto.port, [])
    newest = bobs_ply_after(100)
    clock = ManualClock()
    alice = host(Broker("127.0.0.1", cable.port), GAME_ID, "alice", state.game, SEATS, clock, BY_HAND)
    try:
        wait_for(lambda: alice.connected, lambda: "alice never connected", lambda: alice.hear(newest))
        cable.cut()
        wait_for(lambda: not alice.connected, lambda: "alice never saw the cut", lambda: alice.hear(newest))
        retained_game(mosquitto.port, [moves[newest]])
        cable.mend()
        wait_for(lambda: alice.candidates(newest), lambda: f"no move {newest} after reconnecting",
                 lambda: alice.hear(newest))
        assert alice.candidates(newest) == [moves[newest]]
    finally:
        alice.close()


def test_a_spectator_that_followed_a_rewrite_past_a_step_still_hears_the_report_and_goes_back(mosquitto):
    """Bob rewrote his move 64; a late spectator follows the rewrite and refuses alice's roll 65, which chains
    from the move the boards hold.  Alice's report of the rewrite, published then, is heard: the window
    reaches back a step (without it, the window of ply 65 would start at 65)."""
    state, moves = long_game()
    rewritten = 64
    position = position_at(rewritten - 1)
    position.push(next(move for move in position.legal_moves if str(move) != moves[rewritten].move))
    rewrite = published(position, Chain(position), ("alice", "bob"))[rewritten]
    retained_game(mosquitto.port, [*(moves[seq] for seq in range(1, rewritten)), rewrite, moves[rewritten + 1]])
    participant, game, _ = join(Broker("127.0.0.1", mosquitto.port), GAME_ID, "carol", wait=10)
    spectator = Spectator(participant, game)
    try:
        wait_for(lambda: f"refused alice's move {rewritten + 1}" in spectator.note,
                 lambda: f"no refusal of move {rewritten + 1}: {spectator.note!r}", spectator.follow)
        assert str(spectator.state.history[-1]) == rewrite.move
        report = Rewrite("alice", moves[rewritten], rewrite)
        publisher = Publisher(mosquitto.port)
        try:
            publisher.retain([(rewrite_topic(GAME_ID, "alice", rewritten), report.payload())])
        finally:
            publisher.close()
        wait_for(lambda: len(spectator.state.history) == rewritten + 1,
                 lambda: f"the spectator stayed at ply {len(spectator.state.history)}: {spectator.note!r}",
                 spectator.follow)
        assert [str(move) for move in spectator.state.history] == [moves[seq].move for seq in range(1, rewritten + 2)]
    finally:
        participant.close()
