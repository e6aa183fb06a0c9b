"""Whatever a peer sends, a board, a joined simulator and a spectator go on: a message is either the
protocol's and checked, or refused with its reason; nothing a peer sends raises, stops the link or
changes a journal.  Regressions of issue 33 first, then property-based tests with a real Mosquitto."""

from __future__ import annotations

import json
import logging
import random
import time
from collections import Counter
from collections.abc import Callable

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import GameboardError
from engine.games.pawns_moves import Declare
from engine.hidden import PUBLIC, deal_unseen, seen_by
from engine.registry import game_class
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker, Garbled, Link
from firmware_host.remote.messages import parse_message
from firmware_host.remote.moves import Chain, learnt, replay
from firmware_host.remote.participant import COPIES_KEPT
from firmware_host.remote.protocol import (
    MAX_SEQ,
    MoveMessage,
    Opening,
    ProtocolError,
    move_topic,
)
from firmware_host.remote.seals import Seals, openings, sealing, seals_topic
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat
from hal.clock import ManualClock

GAME_ID = "g1"
PREFIX = f"gameboard/v3/{GAME_ID}"


@pytest.fixture
def peer(mosquitto, hostile):
    """A client publishing what a test makes up to the game g1 (tests/remote/hostile.py)."""
    peer = hostile.Peer(mosquitto.port, GAME_ID)
    yield peer
    peer.close()


def send(peer, message: MoveMessage, retain: bool = False) -> None:
    peer.publish(move_topic(GAME_ID, message.by, message.seq), message.payload(), retain)


def bobs_board(tables, tmp_path, port: int, game, journal: str = "bob.sqlite3"):
    """Bob's board: bob holds seat 1 of ``game``, alice's seat 0 is played through the broker."""
    seats = (Seat("remote", holder="alice"), HUMAN)
    clock = ManualClock()
    remote = host(Broker("127.0.0.1", port), GAME_ID, "bob", game, seats, clock)
    return tables.open_board(game, tmp_path / journal, seats=seats, clock=clock, remote=remote)


def run_until(daemon, clock, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out: {daemon.status_text()}"
        clock.advance(0.01)
        daemon.step()
        time.sleep(0.002)


def first_move(game) -> tuple[str, str]:
    state = game.new_initial_state()
    move = next(iter(state.legal_moves))
    state.push(move)
    return str(move), Chain(state).head


# -- issue 33, item 1: a "reveal" in a game that hides nothing -------------------------------------

def test_a_reveal_in_a_game_that_hides_nothing_is_refused_and_play_goes_on_after_a_restart(tables, tmp_path,
                                                                                           mosquitto, peer):
    game = game_class("hexover")()
    move, reached = first_move(game)
    reveal = {"red-a": Opening(3, "ab" * 32)}
    send(peer, MoveMessage(1, move, "alice", reached, reveal), retain=True)  # retained: heard at every start
    for start in range(3):
        bob, mock, clock = bobs_board(tables, tmp_path, mosquitto.port, game)
        try:
            run_until(bob, clock, lambda: "this game hides no values" in bob.snapshot()["note"])
            assert bob.carry is None and bob.journal.moves() == [] and bob.journal.setup() == \
                game.new_initial_state().to_json()
            if start == 2:
                send(peer, MoveMessage(1, move, "alice", reached))  # alice's real move still comes through
                run_until(bob, clock, lambda: bob.carry is not None)
                assert str(bob.carry.move) == move
        finally:
            bob.close()
    deadline = time.monotonic() + 10
    while len(peer.refusals()) < 3:  # refused at each start, in public
        assert time.monotonic() < deadline, peer.refusals()
        time.sleep(0.01)
    assert [(refusal["seq"], refusal["reason"]) for refusal in peer.refusals()] == \
        [(1, "this game hides no values: a move reveals none")] * 3


def test_a_spectator_refuses_a_reveal_in_a_game_that_hides_nothing_and_follows_on(tables, tmp_path, mosquitto,
                                                                                  peer):
    game = game_class("hexover")()
    move, reached = first_move(game)
    bob, _, clock = bobs_board(tables, tmp_path, mosquitto.port, game)  # its header is the game alice hosts
    try:
        peer.publish(f"{PREFIX}/header", bob.remote.header.payload(), retain=True)  # as alice's board would
        watcher, watched, _ = join(Broker("127.0.0.1", mosquitto.port), GAME_ID, "carol", wait=10)
        spectator = Spectator(watcher, watched)
        try:
            deadline = time.monotonic() + 10
            while not watcher.online.get("carol"):  # subscribed: its own presence, retained, came back
                assert time.monotonic() < deadline, "carol's subscriptions were not answered"
                spectator.follow()
                time.sleep(0.01)
            send(peer, MoveMessage(1, move, "alice", reached, {"red-a": Opening(3, "ab" * 32)}))
            while "this game hides no values" not in spectator.note:
                assert time.monotonic() < deadline, spectator.note
                spectator.follow()
                time.sleep(0.01)
            assert spectator.state.history == []
            send(peer, MoveMessage(1, move, "alice", reached))
            while not spectator.state.history:
                assert time.monotonic() < deadline, spectator.note
                spectator.follow()
                time.sleep(0.01)
            assert [str(played) for played in spectator.state.history] == [move]
        finally:
            watcher.close()
    finally:
        bob.close()


def test_a_refused_declaration_leaves_the_journal_as_it_was(tables, hands, tmp_path, mosquitto, peer):
    """What a move reveals is learnt into a copy and checked there: a refusal writes nothing."""
    game = game_class("pawns-crossing")()
    state, rng = game.new_initial_state(), random.Random(1)
    while not (state.current_player == 0 and any(isinstance(move, Declare) for move in state.legal_moves)):
        state.push(hands.pick(state, rng))
    declare = next(move for move in state.legal_moves if isinstance(move, Declare))
    truth = state.values[declare.token]
    bobs = next(guess for seed in range(100)  # bob's guess of alice's token is wrong: the reveal changes it
                if (guess := game.state_from_position(deal_unseen(state, seen_by(state, 1), random.Random(seed))))
                .values[declare.token] != truth)
    seats = (Seat("remote", holder="alice"), HUMAN)
    clock = ManualClock()
    remote = host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "bob", game, seats, clock)
    bob, _, clock = tables.open_board(bobs, tmp_path / "bob.sqlite3", seats=seats, clock=clock, remote=remote)
    try:
        setup = bob.journal.setup()
        key = bytes(range(32)).hex()  # alice's seals, then her declaration opening one, with a hash that is wrong
        peer.publish(seals_topic(GAME_ID, "alice"), Seals("alice", sealing(state, (0,), key)).payload(), retain=True)
        send(peer, MoveMessage(1, str(declare), "alice", "0" * 16, openings(key, {declare.token: truth})))
        run_until(bob, clock, lambda: "refused alice's move 1" in bob.snapshot()["note"])
        assert "the boards' games differ" in bob.snapshot()["note"]
        assert bob.journal.setup() == setup and bob.state.values[declare.token] != truth
    finally:
        bob.close()


# -- issue 33, item 2: a topic or a number that breaks the link's thread ---------------------------

@pytest.mark.parametrize("seq", ["²", "1" * 4400])
def test_a_move_topic_with_a_number_python_cannot_read_leaves_the_link_up(tables, tmp_path, mosquitto, peer,
                                                                          seq: str):
    game = game_class("hexover")()
    move, reached = first_move(game)
    bob, mock, clock = bobs_board(tables, tmp_path, mosquitto.port, game)
    try:
        run_until(bob, clock, lambda: bob.remote.connected)
        peer.publish(f"{PREFIX}/by/alice/move/{seq}", MoveMessage(1, move, "alice", reached).payload())
        send(peer, MoveMessage(1, move, "alice", reached))  # (the link follows exact topics: the first never comes;
        # test_a_payload_python_cannot_read_is_garbled_on_the_links_thread hands one to the link as paho would)
        run_until(bob, clock, lambda: bob.carry is not None)  # the link still hears
        assert str(bob.carry.move) == move and bob.remote.connected
    finally:
        bob.close()


def test_copies_refused_make_way_for_the_real_move(tables, tmp_path, mosquitto, peer):
    """Ten wrong copies of alice's move 1 under her name (a broker without the ACL): those kept are refused, and
    the real one, sent last, is still taken (refused copies do not fill the copies kept of a ply)."""
    game = game_class("hexover")()
    move, reached = first_move(game)
    bob, mock, clock = bobs_board(tables, tmp_path, mosquitto.port, game)
    try:
        run_until(bob, clock, lambda: bob.remote.connected and bob.remote.online.get("bob"))
        for number in range(10):
            send(peer, MoveMessage(1, move, "alice", f"{number:016x}"))
        # those kept are refused; those that came while COPIES_KEPT waited for their check were dropped
        run_until(bob, clock, lambda: len(peer.refusals()) >= COPIES_KEPT and not bob.remote.candidates(1))
        send(peer, MoveMessage(1, move, "alice", reached))
        run_until(bob, clock, lambda: bob.carry is not None)
        assert str(bob.carry.move) == move
    finally:
        bob.close()


def test_a_payload_python_cannot_read_is_garbled_on_the_links_thread(mosquitto):
    link = Link(Broker("127.0.0.1", mosquitto.port), GAME_ID, "bob")
    try:
        for topic, payload in [(f"{PREFIX}/by/alice/move/1".encode(), b'{"v": 3, "seq": 1' + b"1" * 4400 + b"}"),
                               (f"{PREFIX}/by/alice/move/1".encode(), b"[" * 60_000),
                               (PREFIX.encode() + b"/by/\xff/move/1", b"{}")]:
            message = mqtt.MQTTMessage(topic=topic)
            message.payload = payload
            link._on_message(link._client, None, message)  # as paho's thread calls it
        garbled = [event for event in link.events() if isinstance(event, Garbled)]
        assert [event.problem for event in garbled] == [
            "move 1 from alice is not JSON (a number of more than 4300 digits)",
            "move 1 from alice is not JSON (nested more than 100 deep)",
            "its topic is not UTF-8"]
    finally:
        link.close()


# -- refusals as docs/remote.md says them -----------------------------------------------------------

def test_a_move_for_this_boards_own_turn_is_refused_in_public_and_junk_is_noted(tables, hands, tmp_path, mosquitto,
                                                                               peer):
    game = game_class("hexover")()
    move, reached = first_move(game)
    seats = (HUMAN, Seat("remote", holder="bob"))
    clock = ManualClock()
    remote = host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "alice", game, seats, clock)
    alice, mock, clock = tables.open_board(game, tmp_path / "alice.sqlite3", seats=seats, clock=clock, remote=remote)
    try:
        run_until(alice, clock, lambda: alice.remote.connected)
        send(peer, MoveMessage(1, move, "bob", reached))  # bob, at alice's turn
        deadline = time.monotonic() + 10
        while len(peer.refusals()) < 1:
            assert time.monotonic() < deadline, alice.snapshot()["note"]
            clock.advance(0.01)
            alice.step()
            time.sleep(0.002)
        assert [refusal["reason"] for refusal in peer.refusals()] == ["bob does not hold the seat to move (alice does)"]
        assert alice.journal.moves() == [] and alice.carry is None
        peer.publish(f"{PREFIX}/by/bob/move/1", b'{"v": 3, "seq": 1}')  # junk: noted, not refused
        run_until(alice, clock, lambda: "was ignored" in alice.snapshot()["note"])
        assert alice.snapshot()["note"] == (f'a message on {PREFIX}/by/bob/move/1 was ignored: move 1 from bob: '
                                            '"move" is missing or of the wrong kind')
        person = hands.Hands(alice, mock, clock)
        person.play(alice.state, alice.state.parse_move(move))  # her own move goes on as ever
        assert alice.journal.moves() == [move] and len(peer.refusals()) == 1
    finally:
        alice.close()


@pytest.mark.parametrize(("header", "expected"), [
    ({"game": "hexover", "options": {}, "seats": ["alice"]}, "its header gives 1 seats for Hexover's 2 players"),
    ({"game": "hexover", "options": {"size": [1]}, "seats": ["alice", "bob"]}, "hexover: unknown option"),
    ({"game": "chess", "options": {}, "seats": ["alice", "bob"]}, "unknown game 'chess'"),
])
def test_joining_a_header_that_cannot_be_this_game_says_why(mosquitto, peer, header: dict, expected: str):
    payload = json.dumps({"v": 3, "host": "alice", "setup": "x", "dice": "fair", **header}).encode()
    peer.publish(f"{PREFIX}/header", payload, retain=True)
    with pytest.raises(GameboardError, match=f"the game {GAME_ID} on mqtt://127.0.0.1:{mosquitto.port} cannot be "
                                             f"played here: .*{expected}"):
        join(Broker("127.0.0.1", mosquitto.port), GAME_ID, "carol", wait=10)


# -- property-based: anything a peer sends, to a board, a joined simulator and a spectator ----------

#: Fixed and small: the same few seconds on every run (bench/remote_fuzz.py runs thousands at random).
FUZZ = settings(max_examples=15, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])


def test_whatever_a_peer_sends_the_board_the_simulator_and_the_spectator_go_on(tables, hands, hostile, tmp_path,
                                                                              mosquitto, caplog):
    table = hostile.Table(tables, hands, tmp_path, mosquitto.port)
    try:
        played = []
        for _ in range(2):  # alice's turn (her board's own, a remote one for bob), then bob's
            ply = table.ply()

            @FUZZ
            @given(st.lists(hostile.messages(ply), min_size=1, max_size=4))
            def attack(sent: list[tuple[str, bytes]]) -> None:
                table.deliver(sent)
                assert table.unchanged() == []

            attack()
            played.append(table.play())  # and play goes on
        assert table.alice.journal.moves() == table.bob.journal.moves() == played
        assert [str(move) for move in table.spectator.state.history] == played
        assert table.peer.refusals(), "nothing was refused in public"
        assert [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR] == []
    finally:
        table.close()


def test_parse_message_returns_a_message_of_the_protocols_or_raises_protocol_error(hostile):
    """The door itself, without a broker: many more topics and payloads than the boards above hear."""
    ply = hostile.Ply(3, "alice", "p1", "0123456789abcdef", ("p2", "p3"),
                      {"v": 3, "game": "squareoff", "options": {}, "seats": ["alice", "bob"], "host": "alice",
                       "setup": "x", "dice": "fair"})

    @settings(FUZZ, max_examples=80)
    @given(hostile.messages(ply) | st.tuples(st.text(max_size=80).map(lambda rest: f"{hostile.BASE}/{rest}"),
                                             st.binary(max_size=100)))
    def parse(message: tuple[str, bytes]) -> None:
        try:
            parsed = parse_message(hostile.GAME_ID, *message)
        except ProtocolError:
            return
        if isinstance(parsed, MoveMessage):  # every field of its type and range
            assert 1 <= parsed.seq <= MAX_SEQ and isinstance(parsed.move, str) and isinstance(parsed.hash, str)
            assert all(isinstance(token, str) and type(opening.value) is int and isinstance(opening.salt, str)
                       for token, opening in parsed.reveal.items())
            assert parsed != MoveMessage(ply.seq, ply.move, ply.holder, ply.hash)  # none of them is the real move

    parse()


def test_what_a_pawns_crossing_move_reveals_is_learnt_or_refused_with_a_value_error():
    """Any reveal of the protocol's shape (token names, whole numbers) against a dealt game: learnt into a
    setup that still replays, or a ValueError, the reason the boards refuse it with."""
    game = game_class("pawns-crossing")()
    start = game.new_initial_state()
    setup = game.state_from_position(deal_unseen(start, seen_by(start, PUBLIC), random.Random(5))).to_json()
    state = replay(setup, [])
    tokens = sorted(start.values)
    outcomes = Counter()

    @settings(FUZZ, max_examples=60)
    @given(st.dictionaries(st.sampled_from(tokens) | st.from_regex(r"[a-z-]{1,8}", fullmatch=True),
                           st.integers(-3, 12) | st.integers(), max_size=4),
           st.sets(st.sampled_from(tokens), max_size=6))
    def reveal(values: dict[str, int], fixed: set[str]) -> None:
        try:
            learnt_setup = learnt(setup, values, state, [0] if fixed else [])
        except ValueError:
            outcomes["refused"] += 1
            return
        outcomes["learnt"] += 1
        learnt_state = replay(learnt_setup, [])
        assert all(learnt_state.values[token] == value for token, value in values.items())
        assert sorted(learnt_state.values.values()) == sorted(state.values.values())  # the same values, swapped

    reveal()
    assert outcomes["learnt"] and outcomes["refused"], outcomes


def test_a_bug_of_ours_in_reading_a_message_is_logged_and_shown_and_the_link_stays_up(mosquitto, monkeypatch, caplog):
    """The last guard of paho's thread, where an exception would end the link without a word."""
    from firmware_host.remote import link as link_module

    def broken(game: str, topic: str, payload: bytes):
        raise KeyError("a bug")

    link = Link(Broker("127.0.0.1", mosquitto.port), GAME_ID, "bob")
    try:
        monkeypatch.setattr(link_module, "parse_message", broken)
        message = mqtt.MQTTMessage(topic=f"{PREFIX}/by/alice/move/1".encode())
        link._on_message(link._client, None, message)
        [event] = [event for event in link.events() if isinstance(event, Garbled)]
        assert event == Garbled(f"{PREFIX}/by/alice/move/1", "this board could not read it (KeyError('a bug')): a bug, "
                                                              "logged")
        assert [record.getMessage() for record in caplog.records if record.name == link_module.__name__] == [
            f"a message on {PREFIX}/by/alice/move/1 could not be read"]
    finally:
        link.close()


def test_a_move_sent_after_the_games_end_is_refused_in_public(tables, tmp_path, mosquitto, peer):
    game, rng = game_class("hexover")(), random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.push(state.random_move(rng))
    seats = (Seat("remote", holder="alice"), HUMAN)
    clock = ManualClock()
    remote = host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "bob", game, seats, clock)
    bob, _, clock = tables.open_board(state, tmp_path / "bob.sqlite3", seats=seats, clock=clock, remote=remote)
    try:
        run_until(bob, clock, lambda: bob.remote.connected)
        seq = len(bob.state.history) + 1
        send(peer, MoveMessage(seq, "h1", "alice", "0" * 16))
        run_until(bob, clock, lambda: "refused" in bob.snapshot()["note"])
        assert bob.snapshot()["note"] == f"refused alice's move {seq} (h1): the game is over"
    finally:
        bob.close()
