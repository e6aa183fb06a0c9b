"""Fair dice in a remote game, through a real Mosquitto: nobody chooses a roll, everyone checks it; dice by
hand only when every seat agreed."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from pathlib import Path

import pytest

from engine.core import IllegalMoveError
from engine.games.dice import ROLLS
from engine.registry import game_class
from firmware_host.cli import main
from firmware_host.daemon import Daemon
from firmware_host.journal import Journal
from firmware_host.remote.dice import DiceMessage, FairDice, commitment, derive, dice_topic, secret_for, weights
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker, Link
from firmware_host.remote.messages import parse_message
from firmware_host.remote.moves import Chain
from firmware_host.remote.participant import Participant
from firmware_host.remote.participant import game_header
from firmware_host.remote.protocol import (
    BY_HAND,
    MoveMessage,
    ProtocolError,
    header_topic,
    position_hash,
)
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat
from firmware_host.sim import SimSession
from firmware_host.web.view import remote_words
from hal.clock import ManualClock
from tests.daemon.hands import pick
from tests.remote.peers import Spy
from tests.remote.test_remote_seats import GAME_ID, remote_table, run_until

DOC = Path(__file__).parents[2] / "docs" / "remote.md"
SEATS = (HUMAN, Seat("remote", holder="bob"))  # as alice, the host, writes them


def hash_after(game, text: str) -> str:
    """The chained hash of the game's first move ``text``."""
    state = game.new_initial_state()
    chain = Chain(state)
    state.apply(text)
    return chain.following(state)


def dice_of(spy: Spy, name: str, seq: int) -> list[DiceMessage]:
    """What ``name`` published for roll ``seq`` so far."""
    return [DiceMessage.parse(name, seq, payload) for topic, payload, _ in spy.messages()
            if topic == dice_topic(GAME_ID, name, seq)]


def test_the_worked_example_of_docs_remote_md_derives_its_roll():
    block = re.search(r"A worked example in Groups-of-Three.*?```text\n(.*?)```", DOC.read_text(encoding="utf-8"),
                      re.S).group(1)
    lines = [line.split() for line in block.splitlines()]
    example = {words[0]: words[1:] for words in lines if words[0] not in ("alice", "bob")}
    parts = {(words[0], words[1]): words[2] for words in lines if words[0] in ("alice", "bob")}
    game, seq, position = example["game"][0], int(example["seq"][0]), example["before"][0]
    secrets = [parts["alice", "secret"], parts["bob", "secret"]]
    for name in ("alice", "bob"):
        assert commitment(game, name, seq, parts[name, "secret"]) == parts[name, "commit"]
    assert ":".join([position, str(seq), *secrets]) == example["text"][0]
    assert hashlib.sha256(example["text"][0].encode()).hexdigest() == example["sha256"][0]
    assert int(example["sha256"][0], 16) % 36 == int(example["number"][0])
    outcomes = game_class("groups-of-three")().new_initial_state().chance_outcomes()
    assert derive(position, seq, secrets, outcomes) == " ".join(example["roll"])
    table, total = weights(ROLLS)
    assert total == 36 and table[0] == ("roll 1+1", 1) and table[1] == ("roll 1+2", 2)


def test_each_roll_has_its_share_of_the_numbers_and_pawns_crossing_its_faces():
    table, total = weights(ROLLS)
    assert sum(weight for _, weight in table) == total == 36
    state, rng = game_class("pawns-crossing")().new_initial_state(), random.Random(2)
    while not state.is_chance_node():
        state.push(pick(state, rng))
    table, total = weights(state.chance_outcomes())
    assert total == len(table) == 36 and {weight for _, weight in table} == {1}


@pytest.mark.parametrize(("payload", "expected"), [
    (b'{"v": 3, "seq": 3, "commit": "ab"}', '"commit" and "secret" must be 64 lowercase hex digits'),
    (b'{"v": 3, "seq": 3, "commit": "' + b"A" * 64 + b'"}', "must be 64 lowercase hex digits"),
    (b'{"v": 3, "seq": 3, "commit": "' + b"a" * 64 + b'", "secret": 5}', "must be 64 lowercase hex digits"),
    (b'{"v": 3, "seq": 4, "commit": "' + b"a" * 64 + b'"}', "its seq 4 is not its topic's"),
    (b'{"v": 3, "seq": 3}', '"commit" is missing or of the wrong kind'),
])
def test_a_dice_message_that_breaks_the_protocol_is_refused(payload: bytes, expected: str):
    with pytest.raises(ProtocolError, match=re.escape(expected)):
        parse_message("friday", "gameboard/v3/friday/by/bob/dice/3", payload)
    message = DiceMessage(3, "bob", "a" * 64, "b" * 64)
    assert parse_message("friday", dice_topic("friday", "bob", 3), message.payload()) == message


def test_a_cheaters_roll_is_refused_and_the_fair_one_applied_on_the_board_and_for_a_spectator(
        tables, hands, tmp_path, mosquitto, spy):
    """The spy plays alice, whose roll begins the game; the board is bob's."""
    game = game_class("groups-of-three")()
    position = position_hash(game.new_initial_state())
    bob, mock, clock = remote_table(tables, tmp_path, mosquitto.port, game, 1)
    person = hands.Hands(bob, mock, clock)
    spy.publish(header_topic(GAME_ID), game_header(game, SEATS, "alice").payload())
    watcher, watched, _ = join(Broker("127.0.0.1", mosquitto.port), GAME_ID, "carol", wait=10)
    spectator = Spectator(watcher, watched)

    def run_both(condition) -> None:
        run_until(person, lambda: (spectator.follow(), condition())[1])

    try:
        spy.send(MoveMessage(1, "roll 6+6", "alice", hash_after(game, "roll 6+6")), retain=True)
        run_both(lambda: dice_of(spy, "bob", 1))
        person.run(0.3)
        assert bob.state.history == [] and spectator.state.history == []
        assert bob.status_text() == "rolling the fair dice: waiting for alice's commitment"
        [bobs] = dice_of(spy, "bob", 1)
        assert not bobs.secret  # bob does not reveal before he holds alice's commitment
        bob_secret = secret_for(bob.journal.remote_key, 1)
        alice_secret = next(secret for n in range(100) if derive(
            position, 1, [secret := hashlib.sha256(str(n).encode()).hexdigest(), bob_secret],
            ROLLS) != "roll 6+6")
        fair = derive(position, 1, [alice_secret, bob_secret], ROLLS)
        commit = commitment(GAME_ID, "alice", 1, alice_secret)
        spy.publish(dice_topic(GAME_ID, "alice", 1), DiceMessage(1, "alice", commit).payload())
        run_both(lambda: any(message.secret for message in dice_of(spy, "bob", 1)))
        assert dice_of(spy, "bob", 1)[-1] == DiceMessage(1, "bob", bobs.commit, bob_secret)
        spy.publish(dice_topic(GAME_ID, "alice", 1), DiceMessage(1, "alice", commit, "0" * 64).payload())
        run_both(lambda: "does not open" in bob.snapshot()["note"])
        assert bob.snapshot()["note"] == ("refused alice's dice for roll 1: alice's secret does not open its "
                                          "commitment")
        spy.publish(dice_topic(GAME_ID, "alice", 1), DiceMessage(1, "alice", commit, alice_secret).payload())
        refused = f"refused alice's move 1 (roll 6+6): 'roll 6+6' is not the roll the fair dice gave ({fair})"
        run_both(lambda: bob.snapshot()["note"] == refused and spectator.note == refused)
        assert bob.state.history == [] and bob.status_text().startswith("rolling the fair dice: waiting for "
                                                                        "alice's roll")
        spy.send(MoveMessage(1, fair, "alice", hash_after(game, fair)), retain=True)
        run_both(lambda: bob.state.history and spectator.state.history)
        assert bob.journal.moves() == [fair] == [str(move) for move in spectator.state.history]
        reasons = [json.loads(payload)["reason"] for payload in spy.wait_for("/by/bob/refused", 2)]
        assert reasons == ["alice's secret does not open its commitment",
                           f"'roll 6+6' is not the roll the fair dice gave ({fair})"]
        assert remote_words(bob.snapshot()).endswith("; fair dice: every seat rolls them together through the "
                                                     "broker (no board's own dice are read)")
    finally:
        bob.close()
        watcher.close()


def test_two_boards_roll_the_same_fair_dice_and_a_spectator_checks_every_roll(tables, hands, tmp_path, mosquitto,
                                                                                spy):
    game = game_class("groups-of-three")()
    alice, alice_mock, alice_clock = remote_table(tables, tmp_path, mosquitto.port, game, 0, journal="a.sqlite3")
    bob, bob_mock, bob_clock = remote_table(tables, tmp_path, mosquitto.port, game, 1, journal="b.sqlite3")
    boards = [(alice, hands.Hands(alice, alice_mock, alice_clock)), (bob, hands.Hands(bob, bob_mock, bob_clock))]
    spy.publish(header_topic(GAME_ID), alice.remote.header.payload())
    watcher, watched, _ = join(Broker("127.0.0.1", mosquitto.port), GAME_ID, "carol", wait=10)
    spectator = Spectator(watcher, watched)
    rng, deadline = random.Random(5), time.monotonic() + 60
    try:
        while sum(move.startswith("roll") for move in bob.journal.moves()) < 4:
            assert time.monotonic() < deadline, f"alice: {alice.status_text()}; bob: {bob.status_text()}"
            for board, person in boards:
                if board.state.is_chance_node() or board.remote_turn and board.carry is None:
                    person.run(0.01)
                elif board.carry is not None:
                    person.play(board.state, board.carry.move)
                else:
                    person.play(board.state, pick(board.state, rng))
            spectator.follow()
            time.sleep(0.002)
        moves = bob.journal.moves()
        for board, person in boards:  # each has all of them, and the spectator too
            run_until(person, lambda: (spectator.follow(), len(board.state.history) >= len(moves))[1])
        run_until(person, lambda: (spectator.follow(), len(spectator.state.history) >= len(moves))[1])
        assert alice.journal.moves()[:len(moves)] == moves == [str(m) for m in spectator.state.history][:len(moves)]
        replayed = game.new_initial_state()
        chain = Chain(replayed)
        for seq, move in enumerate(moves, 1):
            if replayed.is_chance_node():  # every roll is the one derived from both secrets, as published
                secrets = [next(message.secret for message in dice_of(spy, name, seq) if message.secret)
                           for name in ("alice", "bob")]
                assert move == derive(chain.head, seq, secrets, replayed.chance_outcomes())
            replayed.apply(move)
            chain.record(replayed)
    finally:
        alice.close()
        bob.close()
        watcher.close()


def test_a_board_restarted_between_commit_and_reveal_reveals_what_it_committed_to(tables, hands, tmp_path,
                                                                                  mosquitto, spy):
    """The board is alice's, whose roll begins the game; the spy plays bob."""
    game = game_class("groups-of-three")()
    alice, mock, clock = remote_table(tables, tmp_path, mosquitto.port, game, 0)
    person = hands.Hands(alice, mock, clock)
    run_until(person, lambda: dice_of(spy, "alice", 1))
    [committed] = dice_of(spy, "alice", 1)
    with pytest.raises(IllegalMoveError, match="every seat rolls fair dice together"):
        alice.play("roll 6+6")  # the page's move by its name: no way round the dice
    alice.close()  # the power goes before bob commits
    remote = host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "alice", game, alice.seats, clock)
    alice = Daemon(game, alice.hal, alice.wiring, Journal(tmp_path / "j.sqlite3"), clock, loop=tables.LOOP,
                   seats=alice.seats, remote=remote)
    person.daemon = alice
    try:
        bob_secret = "5" * 64
        spy.publish(dice_topic(GAME_ID, "bob", 1),
                DiceMessage(1, "bob", commitment(GAME_ID, "bob", 1, bob_secret)).payload())
        run_until(person, lambda: dice_of(spy, "alice", 1)[-1].secret)
        revealed = dice_of(spy, "alice", 1)[-1]
        assert revealed.commit == committed.commit and revealed.opens(GAME_ID)
        spy.publish(dice_topic(GAME_ID, "bob", 1),
                DiceMessage(1, "bob", commitment(GAME_ID, "bob", 1, bob_secret), bob_secret).payload())
        run_until(person, lambda: alice.state.history)
        fair = derive(position_hash(game.new_initial_state()), 1, [revealed.secret, bob_secret], ROLLS)
        assert alice.journal.moves() == [fair]
        [sent] = [json.loads(payload) for payload in spy.wait_for("/by/alice/move/1")]
        assert sent["move"] == fair
    finally:
        alice.close()


def test_joining_with_other_dice_than_the_hosts_is_refused_saying_which_to_give(tables, hands, tmp_path, mosquitto,
                                                                               spy, capsys):
    game = game_class("groups-of-three")()
    url = f"mqtt://127.0.0.1:{mosquitto.port}/{GAME_ID}"
    spy.publish(header_topic(GAME_ID), game_header(game, SEATS, "alice").payload())
    arguments = ["sim", "--journal", str(tmp_path / "j.sqlite3"), "--join", url, "--name", "bob", "--wait", "5"]
    assert main([*arguments, "--entered-dice"]) == 2
    assert capsys.readouterr().err.endswith(f"gameboard: error: the game {GAME_ID} rolls fair dice through the "
                                            "broker: leave --entered-dice out (dice entered by hand need every "
                                            "seat to agree when the game is set up)\n")
    spy.publish(header_topic(GAME_ID), game_header(game, SEATS, "alice", BY_HAND).payload())
    assert main(arguments) == 2
    assert capsys.readouterr().err.endswith(f"gameboard: error: the game {GAME_ID} rolls its dice by hand, entered "
                                            "at each board, as its host chose: join with --entered-dice to agree to "
                                            "it, or play a game with fair dice\n")
    spy.publish(header_topic(GAME_ID), game_header(game, SEATS, "alice").payload())
    bob, mock, clock = remote_table(tables, tmp_path, mosquitto.port, game, 1, journal="b.sqlite3", dice=BY_HAND)
    try:  # a board whose [dice] mode is "entered"
        run_until(hands.Hands(bob, mock, clock), lambda: "remote" in bob.faults)
        assert bob.status_text() == ("the remote game cannot go on: the broker's game g1 is not this board's: dice "
                                     "'fair' against 'by hand'; play it under another game id, or agree on the dice: "
                                     '[dice] mode = "entered" on a board, --entered-dice on a page, asks for dice by '
                                     "hand, and every seat must ask for the same")
    finally:
        bob.close()


def test_a_game_agreed_by_hand_takes_each_seats_entered_roll(tables, hands, tmp_path, mosquitto, spy):
    game = game_class("groups-of-three")()
    alice, mock, clock = remote_table(tables, tmp_path, mosquitto.port, game, 0, dice=BY_HAND)
    person = hands.Hands(alice, mock, clock)
    spy.publish(header_topic(GAME_ID), alice.remote.header.payload())
    participant, joined, seats = join(Broker("127.0.0.1", mosquitto.port), GAME_ID, "bob", wait=10)
    bobs_clock = ManualClock()
    session = SimSession(joined.name, dict(joined.options), journal=tmp_path / "bob.sqlite3", clock=bobs_clock,
                         seats=[str(seat) for seat in seats], entered_dice=True, auto=True, remote=participant)
    rng = random.Random(1)

    def bob_catches_up(plies: int) -> bool:
        """Bob's page a moment on, its auto hands carrying out alice's moves: whether it has ``plies``."""
        bobs_clock.advance(0.05)
        session.step()
        return len(session.daemon.journal.moves()) >= plies
    try:
        assert session.view()["remote"].endswith("; dice by hand, as every seat agreed")
        assert alice.status_text() == "roll the dice and enter the roll"
        person.play(alice.state, alice.state.parse_move("roll 6+6"))  # alice's real dice, entered
        while not alice.remote_turn:
            person.play(alice.state, pick(alice.state, rng))
        alices = alice.journal.moves()
        run_until(person, lambda: bob_catches_up(len(alices)), timeout=30)
        assert session.daemon.journal.moves() == alices and session.view()["dice_entry"]
        session.act({"type": "dice", "text": "roll 6+6"})  # bob's, trusted as both agreed
        run_until(person, lambda: bob_catches_up(0) and len(alice.journal.moves()) > len(alices))
        assert alice.journal.moves() == [*alices, "roll 6+6"] == session.daemon.journal.moves()
        assert not dice_of(spy, "alice", 1) and not dice_of(spy, "bob", len(alices) + 1)
    finally:
        session.close()
        alice.close()


def test_three_participants_and_a_spectator_derive_one_roll_from_three_secrets_in_seat_order(mosquitto):
    """Over-Pass for three through the broker, the participants without boards: each commits, reveals once it
    holds both others' commitments, and all four derive the roll from the secrets in the header's order."""
    game = game_class("overpass")(players=3)
    state, rng = game.new_initial_state(), random.Random(3)
    while not state.is_chance_node():
        state.push(pick(state, rng))
    names = ("carol", "alice", "bob")  # the header's seat order, not the names'
    header = game_header(game, tuple(Seat("remote", holder=name) for name in names), "carol")
    broker, clock = Broker("127.0.0.1", mosquitto.port), ManualClock()
    keys = [hashlib.sha256(name.encode()).hexdigest() for name in names]
    participants = [Participant(Link(broker, GAME_ID, name), header, clock) for name in (*names, "dave")]
    dice = [FairDice(participant, key) for participant, key in zip(participants, [*keys, None])]
    chain = Chain(state)
    try:
        deadline = time.monotonic() + 10
        while None in [fair.roll(state, chain) for fair in dice]:  # each takes its part
            assert time.monotonic() < deadline, [fair.waiting(state) for fair in dice]
            for participant in participants:
                participant.hear()
            time.sleep(0.01)
        seq = len(state.history) + 1
        secrets = [secret_for(key, seq) for key in keys]
        expected = derive(chain.head, seq, secrets, state.chance_outcomes())
        assert {fair.roll(state, chain) for fair in dice} == {expected}
        in_name_order = [secrets[names.index(name)] for name in sorted(names)]
        assert derive(chain.head, seq, in_name_order, state.chance_outcomes()) != expected  # the order matters
    finally:
        for participant in participants:
            participant.close()
