"""The remote-play protocol: topics, messages, the position hash; what breaks it is refused with the reason."""

from __future__ import annotations

import json
import random

import pytest

from engine.games.pawns_moves import Declare
from engine.hidden import PUBLIC, deal_unseen, facts, learn, revealed, seen_by
from engine.registry import game_class
from firmware_host.remote.link import Broker, LinkError, game_address
from firmware_host.remote.messages import parse_message
from firmware_host.remote.moves import Chain, check, published
from firmware_host.remote.protocol import (
    Header,
    MoveMessage,
    Opening,
    Presence,
    ProtocolError,
    Refusal,
    Rewrite,
    move_topic,
    position_hash,
    rewrite_topic,
)


def test_a_move_message_goes_through_its_topic_and_payload_unchanged() -> None:
    message = MoveMessage(12, "O p12-p31", "alice", "0123456789abcdef", {"red-c": Opening(5, "ab" * 32)})
    assert move_topic("friday", "alice", 12) == "gameboard/v3/friday/by/alice/move/12"
    assert parse_message("friday", move_topic("friday", "alice", 12), message.payload()) == message
    header = Header("hexover", {}, ("alice", "bob"), "alice", "abc")
    assert parse_message("friday", "gameboard/v3/friday/header", header.payload()) == header
    assert header.held_by("bob") == (1,) and header.differences(header) == []
    assert parse_message("friday", "gameboard/v3/friday/by/bob/presence", b"offline") == Presence("bob", False)
    refusal = Refusal("bob", 3, "p1", "not legal")
    assert parse_message("friday", "gameboard/v3/friday/by/bob/refused", refusal.payload()) == refusal
    assert parse_message("friday", "gameboard/v3/friday/by/alice/move/12", b"") is None  # a retained move cleared
    rewrite = Rewrite("alice", MoveMessage(2, "h9", "bob", "0123456789abcdef"),
                      MoveMessage(2, "declare red-a t1.1", "bob", "fedcba9876543210", {"red-a": Opening(4, "cd" * 32)}))
    assert rewrite_topic("friday", "alice", 2) == "gameboard/v3/friday/by/alice/rewrite/2"
    assert parse_message("friday", rewrite_topic("friday", "alice", 2), rewrite.payload()) == rewrite
    later = json.dumps({**json.loads(message.payload()), "prev": "abc", "note": {"x": [1]}}).encode()
    assert parse_message("friday", move_topic("friday", "alice", 12), later) == message  # fields it does not know


@pytest.mark.parametrize(("topic", "payload", "expected"), [
    ("gameboard/v3/friday/by/alice/move/3", b"\xff\xfe", "move 3 from alice is not JSON"),
    ("gameboard/v3/friday/by/alice/move/3", b"[1, 2]", "move 3 from alice must be a JSON object"),
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 1, "seq": 3}', "is protocol version 1; this board speaks 3"),
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 3, "seq": 4, "move": "p1", "hash": "x"}',
     "its seq 4 is not its topic's"),
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 3, "seq": 3, "move": 7, "hash": "x"}',
     '"move" is missing or of the wrong kind'),
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 3, "seq": true, "move": "p1", "hash": "x"}',
     '"seq" is missing or of the wrong kind'),
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 3, "seq": 3, "move": "p1", "hash": "x", "reveal": [1]}',
     '"reveal" must map tokens to'),
    *[("gameboard/v3/friday/by/alice/move/3", b'{"v": 3, "seq": 3, "move": "p1", "hash": "x", "reveal": %s}' % reveal,
       expected)
      for reveal, expected in ((b'{"red-a": true}', "red-a must be"), (b'{"red-a": 3.0}', "red-a must be"),
                               (b'{"red-a": "3"}', "red-a must be"), (b'{"red-a": null}', "red-a must be"),
                               (b'{"red-a": 3}', "red-a must be"), (b'{"a b": 3}', "is not a token's name"))],
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 3.0, "seq": 3, "move": "p1", "hash": "x"}',
     "is protocol version 3.0; this board speaks 3"),
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 3, "seq": 3, "move": "p1", "hash": NaN}', "is not JSON"),
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 3, "seq": 3' + b"0" * 4400 + b"}",
     r"is not JSON \(a number of more than 4300 digits\)"),
    ("gameboard/v3/friday/by/alice/move/3", b"[" * 60_000, r"is not JSON \(nested more than 100 deep\)"),
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 3, "seq": 3, "move": "%s", "hash": "x"}' % (b"p" * 300),
     '"move" has 300 characters, more than 256'),
    ("gameboard/v3/friday/by/alice/refused", b'{"v": 3, "seq": -1, "move": "p1", "reason": "no"}',
     '"seq" -1 is not a ply from 1 to 1000000'),
    ("gameboard/v3/friday/by/alice/refused", b'{"v": 3, "seq": 1, "move": "p1", "reason": "%s"}' % (b"x" * 5000),
     '"reason" has 5000 characters, more than 4096'),
    ("gameboard/v3/friday/by/alice/move/3", b'{"v": 3, "seq": 3, "move": "p1", "hash": "%s"}' % (b"f" * 200),
     '"hash" has 200 characters, more than 128'),
    ("gameboard/v3/friday/by/alice/presence", b"maybe", "the presence of alice must be online or offline"),
    *[(f"gameboard/v3/friday/by/alice/move/{seq}", b'{"v": 3, "seq": 1, "move": "p1", "hash": "x"}',
       "is not one of the protocol's") for seq in ("\u00b2", "\u0661", "01", "+1", " 1", "1000001", "1" * 4400)],
    ("gameboard/v3/friday/by/alice/move/0", b"{}", "is not one of the protocol's"),
    ("gameboard/v3/friday/by/alice/rewrite/2", b'{"v": 3, "seq": 2, "by": "bob", "applied": {"move": "h9"}, '
                                               b'"refused": {"move": "h10", "hash": "x"}}',
     '"hash" is missing or of the wrong kind'),
    ("gameboard/v3/friday/by/alice/rewrite/2", b'{"v": 3, "seq": 2, "by": "b b", "applied": {}, "refused": {}}',
     "the rewriter 'b b' must be"),
    ("gameboard/v3/friday/by/alice/rewrite/²", b"{}", "is not one of the protocol's"),
    ("gameboard/v3/friday/by/al ice/move/3", b"{}", "is not one of the protocol's"),
    ("gameboard/v3/friday/secrets", b"{}", "is not one of the protocol's"),
    ("gameboard/v3/saturday/header", b"{}", "is not under gameboard/v3/friday/"),
    ("gameboard/v3/friday/header", b'{"v": 3, "game": "hexover", "options": {}, "seats": ["a b"], "host": "a", '
                                   b'"setup": "x"}'[0:], "a seat's holder 'a b' must be 1-64 letters"),
    ("gameboard/v3/friday/by/alice/move/3", b"{" + b" " * 70_000 + b"}", "more than 65536"),
])
def test_a_message_that_breaks_the_protocol_is_refused_with_the_reason(topic: str, payload: bytes,
                                                                       expected: str) -> None:
    with pytest.raises(ProtocolError, match=expected):
        parse_message("friday", topic, payload)


def test_broker_addresses_are_read_or_refused_in_one_line() -> None:
    assert Broker.parse("mqtt://127.0.0.1") == Broker("127.0.0.1", 1883)
    with_password = Broker.parse("mqtts://bob@broker.example", password="p@ss")
    assert with_password == Broker("broker.example", 8883, True, "bob", "p@ss")
    assert "p@ss" not in f"{with_password} {with_password!r}"  # the password is never shown
    for address in ("mqtts://bob:p%40ss@broker.example", "mqtts://bob:p%40ss@broker.example/friday"):
        with pytest.raises(LinkError, match=r"'mqtts://bob:\*\*\*@broker.example(/friday)?': a password in the address "
                                            r"is shown .*: \[remote\] password_file or password in the "
                                            r"configuration, --password-file FILE on a command line") as refused:
            game_address(address) if address.endswith("friday") else Broker.parse(address)
        assert "p%40ss" not in str(refused.value)
    assert game_address("mqtt://host:1884/friday") == (Broker("host", 1884), "friday")
    with pytest.raises(LinkError, match="end the address with the game id"):
        game_address("mqtt://host:1884")
    with pytest.raises(LinkError, match="write only mqtt://HOST"):
        Broker.parse("mqtt://host/friday")
    with pytest.raises(LinkError, match="write mqtt://HOST"):
        Broker.parse("tcp://host")


def test_the_position_hash_is_of_what_everyone_sees() -> None:
    game = game_class("pawns-crossing")()
    mine = game.new_initial_state()
    theirs = game.state_from_position(deal_unseen(mine, seen_by(mine, PUBLIC), random.Random(7)))
    assert theirs.values != mine.values  # the same board, other hidden values
    assert position_hash(theirs) == position_hash(mine)
    hexover = game_class("hexover")().new_initial_state()
    before = position_hash(hexover)
    hexover.apply(next(iter(hexover.legal_moves)))
    assert position_hash(hexover) != before


def test_each_moves_hash_binds_the_history_before_it() -> None:
    game = game_class("squareoff")()
    one, other = game.new_initial_state(), game.new_initial_state()
    for move in ("p5", "p20", "p3"):
        one.apply(move)
    for move in ("p3", "p20", "p5"):
        other.apply(move)
    assert position_hash(one) == position_hash(other)  # the same position ...
    assert Chain(one).head != Chain(other).head  # ... reached by another history
    chain = Chain(one)
    one.apply("p11")
    chain.record(one)
    assert Chain(one).hashes == chain.hashes  # extended as the game goes: the same as built from the history
    reply = MoveMessage(4, "p11", "bob", chain.head)
    one.pop()
    chain.cut(3)
    assert check(one, chain, reply, "bob") == one.parse_move("p11")
    assert check(other, Chain(other), reply, "bob").startswith("it leads to history ")
    assert published(one, chain, ("alice", "bob"))[3] == MoveMessage(3, "p3", "alice", chain.hashes[3])


def test_a_revealed_value_is_learnt_by_swapping_with_a_guess() -> None:
    game = game_class("pawns-crossing")()
    truth = game.new_initial_state()
    position = deal_unseen(truth, seen_by(truth, PUBLIC), random.Random(3))
    colour_tokens = sorted(t for t in truth.values if t.startswith(next(iter(truth.values))[:1]))
    token = colour_tokens[0]
    learnt = learn(json.loads(json.dumps(position)), {token: truth.values[token]}, fixed=())
    assert learnt["tokens"][token]["value"] == truth.values[token]
    assert sorted(e["value"] for t, e in learnt["tokens"].items() if t in colour_tokens) == \
        sorted(truth.values[t] for t in colour_tokens)  # still the colour's values, each once
    with pytest.raises(ValueError, match=f"token {token} is known to hold"):
        learn(json.loads(json.dumps(learnt)), {token: truth.values[token] + 100}, fixed={token})
    with pytest.raises(ValueError, match="left may hold 99"):
        learn(json.loads(json.dumps(position)), {token: 99}, fixed=())
    with pytest.raises(ValueError, match="no token 'zz' to reveal"):
        learn(position, {"zz": 1}, fixed=())
    with pytest.raises(ValueError, match=f"token {token}: True is not a value"):  # True == 1 would pass for 1
        learn(position, {token: True}, fixed=())
    hexover = game_class("hexover")().new_initial_state().position()
    with pytest.raises(ValueError, match="this game hides no values: a move reveals none"):
        learn(hexover, {"t1": 3}, fixed=())


def test_a_declaration_reveals_the_token_value_and_nothing_else_does() -> None:
    state = game_class("pawns-crossing")().new_initial_state()
    token = next(iter(state.values))
    assert revealed(state, Declare(token, "x")) == {token: state.values[token]}
    assert revealed(state, next(iter(state.legal_moves))) == {}
    assert facts(state, [0]) == set(state.token_values(0))
    assert facts(game_class("hexover")().new_initial_state(), [0]) == set()
