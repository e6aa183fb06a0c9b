"""Sealed hidden values (Pawns Crossing): a board commits to what it dealt before play, a declaration opens
its token's seal, every board and spectator refuses a value that does not, and all is opened at the end.

The dishonest peer is a bare paho client publishing what a test makes up, through a real Mosquitto."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from pathlib import Path

import pytest

from engine.core import Move, State
from engine.games.pawns_moves import Declare
from engine.games.pawns_setup import NULL, colour_of
from engine.hidden import deal_unseen, revealed, seen_by
from engine.registry import game_class
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker
from firmware_host.remote.messages import parse_message
from firmware_host.remote.moves import Chain, mover
from firmware_host.remote.participant import game_header
from firmware_host.remote.protocol import BY_HAND, MoveMessage, Opening, ProtocolError, header_topic, move_topic, seal
from firmware_host.remote.seals import (
    Opened,
    Seals,
    end_check,
    openings,
    opened_topic,
    revealed_values,
    salt,
    sealing,
    seals_topic,
)
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat
from hal.clock import ManualClock
from tests.remote.peers import Spy

GAME_ID = "g1"
DOCS = Path(__file__).parents[2] / "docs" / "remote.md"
#: Bob's secret key of the game: the salts of his seals derive from it.
BOB_KEY = bytes(range(100, 132)).hex()
ALICE_KEY = bytes(range(200, 232)).hex()
GAME = game_class("pawns-crossing")()
SEATS = (HUMAN, Seat("remote", holder="bob"))


@pytest.fixture
def bob(mosquitto):
    peer = Spy(mosquitto.port, GAME_ID, "bob")
    yield peer
    peer.close()


def players_seals(state: State, player: int, key: str) -> bytes:
    return Seals("bob", sealing(state, (player,), key)).payload()


def lying_spot(seed: int) -> tuple[State, Declare, str]:
    """A position reached by random play where bob (player 1) may declare a token on a tile whose rank is not
    the token's value, and another of his tokens still out holds that rank: the declaration and that token."""
    state, rng = GAME.new_initial_state(), random.Random(seed)
    while True:
        if state.current_player == 1:
            for move in state.legal_moves:
                if isinstance(move, Declare):
                    rank = state.tile_at[move.tile][1]
                    other = next((token for token, value in state.values.items()
                                  if value == rank and token != move.token
                                  and colour_of(token) == colour_of(move.token) and state.where[token]), None)
                    if state.values[move.token] not in (rank, NULL) and other:
                        return state, move, other
        state.push(state.random_move(rng))


def started(state: State) -> Chain:
    """The chain of a game begun at ``state``'s position (its moves so far are its setup, as on alice's board)."""
    return Chain(GAME.state_from_position(state.position()))


def lie(state: State, declare: Declare, other: str, chain: Chain) -> MoveMessage:
    """Bob's declaration of ``declare.token`` as the rank of its tile (its value is another), with the chained
    hash the lie leads to (``chain`` covers ``state``'s moves) and the salt of his seal."""
    lied = GAME.state_from_position(state.position())
    rank = lied.tile_at[declare.tile][1]
    lied.values[other], lied.values[declare.token] = lied.values[declare.token], rank
    lied.push(declare)
    return MoveMessage(len(chain) + 1, str(declare), "bob", chain.following(lied),
                       {declare.token: Opening(rank, salt(BOB_KEY, declare.token))})


def honest(state: State, move: Move, chain: Chain, by: str = "bob", key: str = BOB_KEY) -> MoveMessage:
    """``move`` as its maker publishes it (``chain`` covers ``state``'s moves), a declaration opening its
    token's seal."""
    reveal = openings(key, revealed(state, move))
    state.push(move)
    try:
        return MoveMessage(len(chain) + 1, str(move), by, chain.following(state), reveal)
    finally:
        state.pop()


def run_until(hands, condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out: {hands.daemon.status_text()}"
        hands.run(0.01)
        time.sleep(0.002)


def alices_board(tables, tmp_path, port: int, state: State):
    """Alice's board (seat 0) from ``state``, knowing her own values and guessing bob's."""
    alices = GAME.state_from_position(deal_unseen(state, seen_by(state, 0), random.Random(7)))
    clock = ManualClock()
    remote = host(Broker("127.0.0.1", port), GAME_ID, "alice", GAME, SEATS, clock)
    return tables.open_board(alices, tmp_path / "alice.sqlite3", seats=SEATS, clock=clock, remote=remote)


# -- the format ------------------------------------------------------------------------------------


def test_the_worked_example_in_the_docs_is_what_a_board_seals_and_opens() -> None:
    text = DOCS.read_text()
    block = re.search(r"### Sealed hidden values.*?```text\n(.*?)```", text, re.S).group(1)
    example = dict(line.split(None, 1) for line in block.strip().splitlines())
    key, token, value, salted = example["key"], example["token"], int(example["value"]), example["salt"]
    assert salt(key, token) == salted
    assert example["input"] == f"{token}:{value}:{salted}"
    assert seal(token, value, salted) == hashlib.sha256(example["input"].encode()).hexdigest() == example["seal"]
    assert Opening(value, salted).opens(token, example["seal"])
    assert not Opening(value - 1, salted).opens(token, example["seal"])
    message = MoveMessage(3, f"declare {token} t1.1", "bob", "0" * 16, {token: Opening(value, salted)})
    reveal = json.loads(message.payload())["reveal"]
    assert reveal == {token: {"value": value, "salt": salted}}
    assert parse_message(GAME_ID, move_topic(GAME_ID, "bob", 3), message.payload()) == message


@pytest.mark.parametrize(("reveal", "expected"), [
    ({"blue-c": 4}, 'blue-c must be {"value": N, "salt": HEX}'),
    ({"blue-c": {"value": 4, "salt": "f1" * 32, "why": 1}}, 'blue-c must be {"value": N, "salt": HEX}'),
    ({"blue-c": {"value": True, "salt": "f1" * 32}}, "blue-c's value must be a whole number"),
    ({"blue-c": {"value": 4, "salt": "F1" * 32}}, "blue-c's salt must be 64 lowercase hex digits"),
    ({"blue-c": {"value": 4, "salt": "f1"}}, "blue-c's salt must be 64 lowercase hex digits"),
    ({"BLUE C": {"value": 4, "salt": "f1" * 32}}, "is not a token's name"),
])
def test_a_reveal_of_another_shape_is_refused_with_the_reason(reveal, expected) -> None:
    payload = json.dumps({"v": 3, "seq": 3, "move": "declare blue-c t1.1", "hash": "x", "reveal": reveal}).encode()
    with pytest.raises(ProtocolError, match=re.escape(expected)):
        parse_message(GAME_ID, move_topic(GAME_ID, "bob", 3), payload)
    with pytest.raises(ProtocolError, match="64 lowercase hex"):
        parse_message(GAME_ID, seals_topic(GAME_ID, "bob"), b'{"v": 3, "seals": {"blue-c": "x"}}')


def test_a_declaration_reveals_exactly_its_token_opening_its_seal_and_no_other_move_reveals() -> None:
    state, declare, other = lying_spot(2)
    bobs = Seals("bob", sealing(state, (1,), BOB_KEY))
    chain = started(state)
    assert revealed_values(state, str(declare), honest(state, declare, chain).reveal, bobs) == {
        declare.token: state.values[declare.token]}
    with pytest.raises(ValueError, match="it must reveal its token"):
        revealed_values(state, str(declare), {}, bobs)
    with pytest.raises(ValueError, match=f"it reveals {other}; it must reveal its token {declare.token}"):
        revealed_values(state, str(declare), openings(BOB_KEY, {other: state.values[other]}), bobs)
    with pytest.raises(ValueError, match="does not open bob's seal"):
        revealed_values(state, str(declare), lie(state, declare, other, chain).reveal, bobs)
    ordinary = next(move for move in state.legal_moves if not isinstance(move, Declare))
    with pytest.raises(ValueError, match="it must reveal nothing"):
        revealed_values(state, str(ordinary), honest(state, declare, chain).reveal, bobs)
    hexover = game_class("hexover")().new_initial_state()  # a reveal in a game hiding nothing is refused, not a crash
    with pytest.raises(ValueError, match="this game hides no values"):
        revealed_values(hexover, "h8", honest(state, declare, chain).reveal, None)


# -- in play, through a real Mosquitto -----------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_declared_value_that_does_not_open_its_seal_is_refused_shown_and_reported(tables, hands, tmp_path,
                                                                                      mosquitto, bob, seed):
    state, declare, other = lying_spot(seed)
    alice, mock, clock = alices_board(tables, tmp_path, mosquitto.port, state)
    person = hands.Hands(alice, mock, clock)
    guessed = alice.journal.setup()["position"]["tokens"][declare.token]["value"]
    try:
        bob.send(lie(state, declare, other, started(state)), retain=True)  # before his seals: not even checked
        person.run(0.5)
        assert "waiting for bob's seals" in alice.status_text() and alice.carry is None
        assert not bob.heard_on("/refused")
        bob.publish(seals_topic(GAME_ID, "bob"), players_seals(state, 1, BOB_KEY))
        run_until(person, lambda: "does not open bob's seal" in alice.snapshot()["note"])
        refusal = json.loads(bob.wait_for("/by/alice/refused")[0])
        assert refusal["seq"] == 1 and "does not open bob's seal" in refusal["reason"]
        assert alice.carry is None and alice.journal.moves() == []
        assert alice.journal.setup()["position"]["tokens"][declare.token]["value"] == guessed  # nothing learnt
        refitted = GAME.state_from_position(state.position())  # seals made again to fit the lie: not taken
        refitted.values[declare.token] = refitted.tile_at[declare.tile][1]
        bob.publish(seals_topic(GAME_ID, "bob"), players_seals(refitted, 1, BOB_KEY))
        run_until(person, lambda: "bob published other seals than it did first" in alice.snapshot()["note"])
        # the truth, opening the first seals, is accepted
        bob.send(honest(state, declare, started(state)), retain=True)
        run_until(person, lambda: alice.carry is not None)
        assert alice.carry.move == declare and alice.state.values[declare.token] == state.values[declare.token]
    finally:
        alice.close()


def test_a_spectator_waits_for_the_seals_and_refuses_a_declared_value_that_does_not_open_one(tables, mosquitto, bob):
    state, declare, other = lying_spot(2)
    history, start = list(state.history), GAME.new_initial_state()
    keys = {"alice": ALICE_KEY, "bob": BOB_KEY}
    header = game_header(GAME, (HUMAN, Seat("remote", holder="bob")), "alice", BY_HAND)  # its rolls are drawn, as by hand
    bob.publish(header_topic(GAME_ID), header.payload())  # as the host would have
    replayed = GAME.new_initial_state()
    chain = Chain(replayed)
    for move in history:  # every move as its maker published it, then bob's lie
        by = header.seats[mover(replayed)]
        bob.send(honest(replayed, move, chain, by, keys[by]), retain=True)
        replayed.push(move)
        chain.record(replayed)
    bob.send(lie(state, declare, other, chain), retain=True)
    watcher, watched, _ = join(Broker("127.0.0.1", mosquitto.port), GAME_ID, "carol", wait=10)
    spectator = Spectator(watcher, watched)
    try:
        follow(spectator, lambda: "waiting for alice's seals" in spectator.status())
        assert not spectator.state.history
        for name, player in (("alice", 0), ("bob", 1)):
            bob.publish(seals_topic(GAME_ID, name), Seals(name, sealing(start, (player,), keys[name])).payload())
        follow(spectator, lambda: "does not open bob's seal" in spectator.note)
        assert len(spectator.state.history) == len(history)
        bob.send(honest(state, declare, chain), retain=True)  # the truth is followed
        follow(spectator, lambda: len(spectator.state.history) == len(history) + 1)
        assert spectator.state.values[declare.token] == state.values[declare.token]
    finally:
        watcher.close()


def follow(spectator: Spectator, condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out: {spectator.status()} - {spectator.note}"
        spectator.follow()
        time.sleep(0.01)


# -- at the game's end -----------------------------------------------------------------------------


def last_move_to_win(seed: int = 33) -> State:
    """A position where alice (player 0) wins with her next move, a declaration: a game played at random to its
    end (declaring every token that may go home), less its last move; 8,612 plies with this seed."""
    state, rng = GAME.new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.push(state.random_move(rng))
            continue
        moves = list(state.legal_moves)
        home = [move for move in moves if isinstance(move, Declare)
                and state.values[move.token] in (NULL, state.tile_at[move.tile][1])]
        state.push(home[0] if home else rng.choice(moves))
    assert state.outcome().winners == (0,)
    state.pop()
    return state


@pytest.fixture(scope="module")
def endgame() -> State:
    return last_move_to_win()


def bobs_tokens_out(state: State) -> list[str]:
    return sorted(token for token in state.token_values(1) if state.where[token])


def dealt_twice(state: State) -> tuple[dict[str, int], str]:
    """Bob's values with one of a token still out made another's (a value twice in a colour), and the set his
    colour shows then.  (In this long random game that token was declared wrongly once: its value, shown then,
    is kept, so the check names that lie as well.)"""
    values, token = state.token_values(1), bobs_tokens_out(state)[0]
    values[token] = next(value for value in (2, 3, 4) if value != values[token])
    colour = colour_of(token)
    return values, f"{colour}'s values {sorted(v for t, v in values.items() if colour_of(t) == colour)}"


@pytest.mark.parametrize(("cheat", "expected"), [
    (None, "every hidden value checks out against its seal"),
    ("unopened", "waiting for bob to open their seals"),
    ("wrong salt", "does not open its seal"),
    ("two of a value", "are not the set [2, 3, 4]"),
    ("shown otherwise", "was shown in play as"),
])
def test_at_the_end_every_opening_is_checked_against_its_seal_what_was_shown_and_the_set(endgame, cheat, expected):
    final = GAME.state_from_position(endgame.position())
    final.push(next(move for move in final.legal_moves if isinstance(move, Declare)
                    and final.values[move.token] in (NULL, final.tile_at[move.tile][1]) and final.tokens_left(0) == 1))
    assert final.is_terminal()
    values = final.token_values(1)
    if cheat == "two of a value":  # bob dealt himself a value twice in a colour, and sealed it
        values, colour_values = dealt_twice(final)
    if cheat == "shown otherwise":  # seals of other values than the ones declared in play
        home = next(token for token, value in values.items() if not final.where[token])
        values[home] = 4 if values[home] != 4 else 3
    header = game_header(GAME, SEATS, "alice")
    heard = {"bob": Seals("bob", {token: seal(token, value, salt(BOB_KEY, token)) for token, value in values.items()})}
    opened = openings(BOB_KEY, values)
    if cheat == "wrong salt":
        token = bobs_tokens_out(final)[0]
        opened[token] = Opening(opened[token].value, salt(ALICE_KEY, token))
    shown = {} if cheat == "unopened" else {"bob": Opened("bob", opened)}
    assert expected in end_check(final, header, heard, shown, "alice")
    if cheat == "two of a value":
        found = end_check(final, header, heard, shown, "alice")
        assert found.startswith("bob cheated: ") and f"{colour_values} are not the set [2, 3, 4]" in found


def test_at_the_end_a_board_opens_all_its_seals_and_shows_a_dealer_who_cheated(tables, hands, tmp_path, mosquitto,
                                                                             bob, endgame):
    dealt, colour_values = dealt_twice(endgame)  # bob dealt himself a value twice, sealed it, never declared it
    bob.publish(seals_topic(GAME_ID, "bob"), Seals("bob", {token: seal(token, value, salt(BOB_KEY, token))
                                                           for token, value in dealt.items()}).payload())
    alice, mock, clock = alices_board(tables, tmp_path, mosquitto.port, endgame)
    person = hands.Hands(alice, mock, clock)
    try:
        winning = next(move for move in alice.state.legal_moves if isinstance(move, Declare)
                       and alice.state.values[move.token] in (NULL, alice.state.tile_at[move.tile][1]))
        person.play(alice.state, winning)
        assert alice.state.is_terminal()
        run_until(person, lambda: "waiting for bob to open their seals" in alice.status_text())
        sealed = json.loads(bob.wait_for("/by/alice/seals")[0])["seals"]
        opened = json.loads(bob.wait_for("/by/alice/opened")[0])["opened"]
        assert {token: entry["value"] for token, entry in opened.items()} == endgame.token_values(0)
        assert all(Opening(**entry).opens(token, sealed[token]) for token, entry in opened.items())
        bob.publish(opened_topic(GAME_ID, "bob"), Opened("bob", openings(BOB_KEY, dealt)).payload())
        run_until(person, lambda: "bob cheated" in alice.status_text())
        assert "bob cheated: " in alice.status_text()
        assert f"{colour_values} are not the set [2, 3, 4]" in alice.status_text()
        mosquitto.restart()  # losing every retained message: alice publishes her seals and openings again
        late = Spy(mosquitto.port, GAME_ID, "carol")
        try:
            run_until(person, lambda: late.heard_on("/by/alice/seals") and late.heard_on("/by/alice/opened"))
            assert json.loads(late.heard_on("/by/alice/seals")[-1])["seals"] == sealed
            assert json.loads(late.heard_on("/by/alice/opened")[-1])["opened"] == opened
        finally:
            late.close()
    finally:
        alice.close()


def test_a_board_that_restarts_seals_the_same_values_with_the_same_salts(tables, tmp_path, mosquitto):
    def board():
        remote = host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "alice", GAME, SEATS, ManualClock())
        daemon, *_ = tables.open_board(GAME, tmp_path / "alice.sqlite3", seats=SEATS, remote=remote)
        return daemon

    first = board()
    sealed, key = first.remote.own_seals, first.journal.remote_key
    first.close()
    again = board()
    try:
        assert again.journal.remote_key == key and again.remote.own_seals == sealed
        assert set(sealed.seals) == set(again.state.token_values(0))
        assert all(Opening(value, salt(key, token)).opens(token, sealed.seals[token])
                   for token, value in again.state.token_values(0).items())
    finally:
        again.close()
