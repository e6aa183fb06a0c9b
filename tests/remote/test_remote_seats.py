"""Remote seats on a board: a move from the broker is carried out as the LEDs show it, checked first;
this board's moves are published once journalled; nothing heard twice or out of order is applied twice."""

from __future__ import annotations

import json
import random
import re
import time

import paho.mqtt.client as mqtt
import pytest

from engine.games.pawns_moves import Declare
from engine.hidden import PUBLIC, deal_unseen, seen_by
from engine.registry import game_class
from firmware_host.remote.join import host
from firmware_host.remote.link import Broker
from firmware_host.remote.moves import Chain
from firmware_host.remote.protocol import BY_HAND, FAIR, MoveMessage, Opening, position_hash
from firmware_host.remote.seals import salt
from firmware_host.seats import HUMAN, Seat
from hal.clock import ManualClock
from tests.remote.peers import Spy

GAME_ID = "g1"


def remote_table(tables, tmp_path, port: int, game, seat: int, state=None, journal: str = "j.sqlite3",
                 dice: str = FAIR):
    """A board holding ``seat`` of ``game`` (or of the position ``state``) through the broker on ``port``,
    as alice (seat 0) or bob (seat 1), its dice ``dice``."""
    names = ("alice", "bob")
    seats = tuple(HUMAN if player == seat else Seat("remote", holder=names[player])
                  for player in range(game.num_players))
    clock = ManualClock()
    remote = host(Broker("127.0.0.1", port), GAME_ID, names[seat], game, seats, clock, dice)
    return tables.open_board(state or game, tmp_path / journal, seats=seats, clock=clock, remote=remote)


def run_until(person, condition, timeout: float = 10.0) -> None:
    """Step the board (and let the network work) until ``condition()``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out: {person.daemon.status_text()}"
        person.run(0.01)
        time.sleep(0.002)


def scripted(game, moves_wanted: int, seed: int = 0) -> list[tuple[str, str]]:
    """The first moves of a game drawn at random, with the chained hash after each."""
    state, rng, script = game.new_initial_state(), random.Random(seed), []
    chain = Chain(state)
    for _ in range(moves_wanted):
        move = state.random_move(rng)
        state.push(move)
        chain.record(state)
        script.append((str(move), chain.head))
    return script


def test_two_boards_play_with_the_remote_move_shown_to_carry_out(tables, hands, tmp_path, mosquitto):
    game = game_class("hexover")()
    alice, alice_mock, alice_clock = remote_table(tables, tmp_path, mosquitto.port, game, 0, journal="a.sqlite3")
    bob, bob_mock, bob_clock = remote_table(tables, tmp_path, mosquitto.port, game, 1, journal="b.sqlite3")
    alice_hands, bob_hands = hands.Hands(alice, alice_mock, alice_clock), hands.Hands(bob, bob_mock, bob_clock)
    try:
        # docs/remote.md quotes these status lines
        assert bob.status_text() == "white (alice) to move: waiting for alice's move"
        assert bob.remote_turn and not alice.remote_turn
        move = next(iter(alice.state.legal_moves))
        alice_hands.play(alice.state, move)
        run_until(bob_hands, lambda: bob.carry is not None)
        assert bob.status_text() == f"white (alice): {move}: put a white on {move}; flip h1 and h2 to white"
        assert bob.carry.move == move and bob.carry.put and not bob.carry.lift
        assert bob.snapshot()["decided"]["by"] == "alice"
        assert bob.snapshot()["leds"][next(iter(bob.carry.put))] != "#000000"  # the place to put it is lit
        bob_hands.play(bob.state, bob.carry.move)
        reply = next(iter(bob.state.legal_moves))
        bob_hands.play(bob.state, reply)
        run_until(alice_hands, lambda: alice.carry is not None)
        alice_hands.play(alice.state, alice.carry.move)
        assert alice.journal.moves() == bob.journal.moves() == [str(move), str(reply)]
        assert position_hash(alice.state) == position_hash(bob.state)
    finally:
        alice.close()
        bob.close()


def test_moves_heard_twice_or_out_of_order_are_applied_once_in_order(tables, hands, tmp_path, mosquitto, spy):
    game = game_class("squareoff")()
    (first, first_hash), (second, second_hash), (third, third_hash) = scripted(game, 3)
    bob, mock, clock = remote_table(tables, tmp_path, mosquitto.port, game, 1)
    person = hands.Hands(bob, mock, clock)
    try:
        spy.send(MoveMessage(3, third, "alice", third_hash))  # alice's next move, heard first
        spy.send(MoveMessage(1, first, "alice", first_hash))
        spy.send(MoveMessage(1, first, "alice", first_hash))
        run_until(person, lambda: bob.carry is not None)
        assert str(bob.carry.move) == first
        person.play(bob.state, bob.carry.move)
        spy.send(MoveMessage(1, first, "alice", first_hash))  # a replay after a reconnect
        person.play(bob.state, bob.state.parse_move(second))
        run_until(person, lambda: bob.carry is not None)
        assert str(bob.carry.move) == third
        person.play(bob.state, bob.carry.move)
        assert bob.journal.moves() == [first, second, third]
        [published] = [json.loads(payload) for payload in spy.wait_for("/by/bob/move/")]
        assert (published["seq"], published["move"], published["hash"]) == (2, second, second_hash)
    finally:
        bob.close()


def test_a_move_that_fails_a_check_is_refused_reported_and_never_applied(tables, hands, tmp_path, mosquitto, spy):
    game = game_class("squareoff")()
    [(first, first_hash)] = scripted(game, 1)
    other = next(str(move) for move in game.new_initial_state().legal_moves if str(move) != first)
    bob, mock, clock = remote_table(tables, tmp_path, mosquitto.port, game, 1)
    person = hands.Hands(bob, mock, clock)
    try:
        spy.send(MoveMessage(1, first, "mallory", first_hash))
        spy.send(MoveMessage(1, "p99", "alice", first_hash))
        spy.send(MoveMessage(1, other, "alice", first_hash))
        run_until(person, lambda: len(spy.messages()) and bob.snapshot()["note"].startswith(f"refused alice's move 1 "
                                                                                              f"({other})"))
        assert bob.carry is None and bob.state.history == [] and bob.remote_turn
        reasons = [json.loads(payload)["reason"] for payload in spy.wait_for("/by/bob/refused", 2)]
        assert reasons[0].startswith("'p99' is not a legal move here")
        assert reasons[1].startswith("it leads to history ") and "the boards' games differ" in reasons[1]
        assert len(reasons) == 2  # mallory holds no seat: bob's board never fetches her messages
        assert bob.snapshot()["note"].startswith(f"refused alice's move 1 ({other}): it leads to history")
        spy.send(MoveMessage(1, first, "alice", first_hash))
        run_until(person, lambda: bob.carry is not None)
        person.play(bob.state, bob.carry.move)
        assert bob.journal.moves() == [first]
    finally:
        bob.close()


def test_undo_and_new_game_are_off_in_a_remote_game(tables, hands, tmp_path, mosquitto):
    game = game_class("hexover")()
    alice, mock, clock = remote_table(tables, tmp_path, mosquitto.port, game, 0)
    person = hands.Hands(alice, mock, clock)
    try:
        move = next(iter(alice.state.legal_moves))
        person.play(alice.state, move)
        mock.buttons.press("undo")
        person.run(0.05)
        assert alice.snapshot()["note"] == "undo is off in a remote game: each move was sent to the others as it was made"
        mock.buttons.press("new_game")
        person.run(0.05)
        assert alice.snapshot()["note"].startswith("a remote game is not restarted: play the next one under another")
        assert alice.journal.moves() == [str(move)]
        mock.lift(str(move).strip("@"))  # taking the piece back is out of sync, not a takeback
        person.run(2.0)
        assert alice.journal.moves() == [str(move)] and alice.tracker.view.status.value == "out_of_sync"
    finally:
        alice.close()


def test_the_host_writes_the_header_and_a_different_game_on_the_broker_stops_play(tables, tmp_path, mosquitto, spy):
    game = game_class("hexover")()
    alice, _, clock = remote_table(tables, tmp_path, mosquitto.port, game, 0)
    try:
        deadline = time.monotonic() + 10
        while not any(topic.endswith("/header") for topic, _, _ in spy.messages()):
            assert time.monotonic() < deadline, "no header"
            clock.advance(0.05)
            alice.step()
            time.sleep(0.01)
        [header] = [json.loads(payload) for payload in spy.wait_for("/header")]
        assert (header["game"], header["seats"], header["host"]) == ("hexover", ["alice", "bob"], "alice")
        other = {**header, "game": "mono-line", "options": {"mode": "strict"}}
        spy.client.publish(f"gameboard/v3/{GAME_ID}/header", json.dumps(other), qos=1, retain=True).wait_for_publish(5)
        while "remote" not in alice.faults:
            assert time.monotonic() < deadline + 10, alice.status_text()
            clock.advance(0.01)
            alice.step()
            time.sleep(0.005)
        assert alice.status_text().startswith("the remote game cannot go on: the broker's game g1 is not this "
                                              "board's: game 'mono-line' against 'hexover'")
    finally:
        alice.close()


def test_pawns_crossing_values_stay_hidden_until_a_declaration_reveals_one(tables, hands, tmp_path, mosquitto, spy):
    game = game_class("pawns-crossing")()
    state, rng = game.new_initial_state(), random.Random(1)
    while not (state.current_player == 0 and any(isinstance(move, Declare) for move in state.legal_moves)):
        state.push(hands.pick(state, rng))
    declare = next(move for move in state.legal_moves if isinstance(move, Declare))
    truth = state.values[declare.token]
    alices = game.state_from_position(deal_unseen(state, seen_by(state, 0), rng))
    bobs = next(guess for seed in range(100)  # bob knows his own values and guesses alice's, wrongly here
                if (guess := game.state_from_position(deal_unseen(state, seen_by(state, 1), random.Random(seed))))
                .values[declare.token] != truth)
    alice, alice_mock, alice_clock = remote_table(tables, tmp_path, mosquitto.port, game, 0, state=alices,
                                                  journal="a.sqlite3")
    bob, bob_mock, bob_clock = remote_table(tables, tmp_path, mosquitto.port, game, 1, state=bobs,
                                            journal="b.sqlite3")
    alice_hands, bob_hands = hands.Hands(alice, alice_mock, alice_clock), hands.Hands(bob, bob_mock, bob_clock)
    try:
        alice_hands.play(alice.state, declare)
        run_until(bob_hands, lambda: bob.carry is not None)
        assert bob.state.values[declare.token] == truth  # learnt before it is carried out
        bob_hands.play(bob.state, bob.carry.move)
        assert bob.journal.setup()["position"]["tokens"][declare.token]["value"] == truth
        assert bob.journal.moves() == alice.journal.moves() == [str(declare)]
        assert position_hash(bob.state) == position_hash(alice.state)
        moves = [json.loads(payload) for payload in spy.wait_for("/move/")]
        opening = {"value": truth, "salt": salt(alice.journal.remote_key, declare.token)}
        assert moves == [{"v": 3, "seq": 1, "move": str(declare), "hash": alice.chain.head,
                          "reveal": {declare.token: opening}}]
        sealed = json.loads(spy.wait_for("/by/alice/seals")[0])["seals"]  # published before the move
        assert Opening(**opening).opens(declare.token, sealed[declare.token])
    finally:
        alice.close()
        bob.close()


def test_a_new_remote_pawns_crossing_game_deals_each_boards_values_in_private(tables, tmp_path, mosquitto):
    game = game_class("pawns-crossing")()
    alice, *_ = remote_table(tables, tmp_path, mosquitto.port, game, 0, journal="a.sqlite3")
    bob, *_ = remote_table(tables, tmp_path, mosquitto.port, game, 1, journal="b.sqlite3")
    try:
        dealt = game.new_initial_state()
        assert position_hash(alice.state) == position_hash(bob.state) == position_hash(dealt)
        # Each board deals its values itself, not from the seed everyone could deal from again.
        assert alice.state.values != dealt.values and bob.state.values != dealt.values
        assert seen_by(alice.state, PUBLIC) == seen_by(bob.state, PUBLIC)
    finally:
        alice.close()
        bob.close()


def test_with_dice_by_hand_a_remote_seats_roll_is_applied_as_it_arrives_and_shown(tables, hands, tmp_path, mosquitto,
                                                                                   spy):
    game = game_class("groups-of-three")()
    [(roll, roll_hash)] = scripted(game, 1)
    bob, mock, clock = remote_table(tables, tmp_path, mosquitto.port, game, 1, dice=BY_HAND)
    person = hands.Hands(bob, mock, clock)
    try:
        person.run(0.1)
        assert bob.status_text().startswith("waiting for alice's roll")
        spy.send(MoveMessage(1, roll, "alice", roll_hash))
        run_until(person, lambda: bob.state.history)
        assert bob.journal.moves() == [roll] and bob.remote_turn
        assert f"({roll})" in bob.status_text() and "waiting for alice's move" in bob.status_text()
    finally:
        bob.close()


def follow_the_fixes(person, daemon, mock) -> None:
    """A person putting the board back as the LEDs show (red to pink, or a piece brought to pink)."""
    for fix in daemon.tracker.view.fixes:
        if fix.source and fix.target:
            mock.move(fix.source, fix.target)
        elif fix.target:
            mock.place(fix.target, fix.piece or next(iter(daemon.state.game.pieces)))
        else:
            mock.lift(fix.source)
        person.pause()
    person.settle()


def test_a_board_back_after_a_power_cut_is_led_into_sync_and_catches_up_from_the_broker(tables, hands, tmp_path,
                                                                                         mosquitto):
    game = game_class("hexover")()
    alice, alice_mock, alice_clock = remote_table(tables, tmp_path, mosquitto.port, game, 0, journal="a.sqlite3")
    bob, bob_mock, bob_clock = remote_table(tables, tmp_path, mosquitto.port, game, 1, journal="b.sqlite3")
    alice_hands, bob_hands = hands.Hands(alice, alice_mock, alice_clock), hands.Hands(bob, bob_mock, bob_clock)
    try:
        first = next(iter(alice.state.legal_moves))
        alice_hands.play(alice.state, first)
        run_until(bob_hands, lambda: bob.carry is not None)
        bob_hands.play(bob.state, bob.carry.move)
        bob_hands.play(bob.state, next(iter(bob.state.legal_moves)))
        run_until(alice_hands, lambda: alice.carry is not None)
        alice_hands.play(alice.state, alice.carry.move)
        bob.close()  # the power goes at bob's: his board keeps its pieces, one of them in his hand
        lifted = next(location for location, piece in bob_mock.contents.items() if piece)
        bob_mock.lift(lifted)
        third = next(iter(alice.state.legal_moves))
        alice_hands.play(alice.state, third)  # made while bob's board is off
        seats = bob.seats
        remote = host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "bob", game, seats, bob_clock)
        from firmware_host.daemon import Daemon
        from firmware_host.journal import Journal
        bob = Daemon(game, bob.hal, bob.wiring, Journal(tmp_path / "b.sqlite3"), bob_clock, loop=tables.LOOP,
                     seats=seats, remote=remote)
        bob_hands.daemon = bob
        bob_hands.run(0.1)
        assert bob.tracker.view.status.value == "restoring"
        assert [(fix.target, fix.piece) for fix in bob.tracker.view.fixes] == [(lifted, bob.state.contents()[lifted])]
        follow_the_fixes(bob_hands, bob, bob_mock)
        run_until(bob_hands, lambda: bob.carry is not None)  # alice's move from the broker, to carry out
        assert bob.carry.move == third
        bob_hands.play(bob.state, bob.carry.move)
        assert bob.journal.moves() == alice.journal.moves() and len(alice.journal.moves()) == 3
    finally:
        alice.close()
        bob.close()


def test_a_move_made_while_the_broker_is_away_is_kept_and_sent_when_it_is_back(tables, hands, tmp_path, mosquitto):
    game = game_class("hexover")()
    alice, mock, clock = remote_table(tables, tmp_path, mosquitto.port, game, 0)
    person = hands.Hands(alice, mock, clock)
    try:
        run_until(person, lambda: alice.remote.connected)
        mosquitto.kill()
        run_until(person, lambda: not alice.remote.connected)
        move = next(iter(alice.state.legal_moves))
        person.play(alice.state, move)  # journalled, the broker away: the board plays on
        assert alice.journal.moves() == [str(move)]
        assert re.fullmatch(r"black \(bob\) to move: waiting for bob's move \(the broker mqtt://127\.0\.0\.1:\d+ cannot "
                            r"be reached \(.+\); trying again\)", alice.status_text()), alice.status_text()
        mosquitto.start()
        spy = Spy(mosquitto.port)
        try:
            run_until(person, lambda: "/by/alice/move/1" in " ".join(topic for topic, _, _ in spy.messages()),
                      timeout=15)
        finally:
            spy.close()
    finally:
        alice.close()
