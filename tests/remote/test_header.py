"""The game's header, for real: written again by its host after a broker lost it, compared on what matters
(the options as the game resolves them), and kept in the journal (a joined page resumes from it:
test_joiner.py)."""

from __future__ import annotations


import pytest

from engine.registry import game_class
from firmware_host.journal import Journal
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker
from firmware_host.remote.protocol import Header, header_topic, position_hash
from firmware_host.seats import HUMAN, Seat
from tests.remote.peers import Hearing, connect, wait_until

GAME_ID = "friday"
BOB = Seat("remote", holder="bob")


def test_the_host_writes_its_header_again_after_the_broker_lost_it(mosquitto):
    """A kill -9 and a restart without the retained messages: a spectator arriving afterwards finds the game."""
    broker = Broker("127.0.0.1", mosquitto.port)
    alice = Hearing(host(broker, GAME_ID, "alice", game_class("hexover")(), (HUMAN, BOB)))
    try:
        join(broker, GAME_ID, "carol", wait=5)[0].close()  # the header is on the broker
        mosquitto.kill()
        wait_until(lambda: not alice.participant.connected, "alice did not see the broker go")
        mosquitto.start()  # with nothing retained: this broker keeps nothing across a restart
        watcher, game, seats = join(broker, GAME_ID, "carol", wait=10)
        watcher.close()
        assert (game.name, watcher.header, seats) == ("hexover", alice.participant.header,
                                                      (Seat("remote", holder="alice"), BOB))
    finally:
        alice.stop()


@pytest.mark.parametrize(("options", "problem"), [
    ({"players": 2}, ""),  # the goal left out at its default: the same game
    ({"players": 2, "goal": "one"}, ""),
    ({"players": 2, "goal": "both"}, "options {'players': 2, 'goal': 'both'} against {'players': 2, 'goal': 'one'}"),
    ({"players": 2, "speed": 3}, "options {'players': 2, 'speed': 3} against {'players': 2, 'goal': 'one'}"),
])
def test_a_header_is_compared_on_the_options_as_the_game_resolves_them(mosquitto, options, problem):
    """A host written from docs/remote.md alone lists only the options it sets; bob's board checks it."""
    game = game_class("overpass")(players=2)
    header = Header("overpass", options, ("alice", "bob"), "alice", position_hash(game.new_initial_state()))
    third_party = connect(mosquitto.port, "a-third-party-host")
    third_party.publish(header_topic(GAME_ID), header.payload(), qos=1, retain=True).wait_for_publish(5)
    bob = Hearing(host(Broker("127.0.0.1", mosquitto.port), GAME_ID, "bob", game, (Seat("remote", holder="alice"),
                                                                                   HUMAN)))
    try:
        wait_until(lambda: bob.participant.heard_header == header, "bob did not hear the header")
        expected = f"the broker's game {GAME_ID} is not this board's: {problem}; play it under another game id"
        assert bob.participant.problem == (expected if problem else "")
    finally:
        bob.stop()
        third_party.disconnect()
        third_party.loop_stop()


def test_the_journal_keeps_the_header_of_the_unfinished_remote_game(tmp_path):
    state = game_class("hexover")().new_initial_state()
    journal = Journal(tmp_path / "j.sqlite3")
    journal.start(state, "friday", '{"v": 3}')
    journal.close()
    again = Journal(tmp_path / "j.sqlite3")
    assert (again.unfinished_header("friday"), again.unfinished_header("saturday")) == ('{"v": 3}', None)
    assert again.resume() is not None and again.remote_header == '{"v": 3}'
    again.start(state)  # a game on the board alone closes it
    assert (again.unfinished_header("friday"), again.remote_header) == (None, None)
    again.start(state, "saturday")  # a game begun by a release that kept no header
    assert again.unfinished_header("saturday") is None


def test_a_board_resumes_a_remote_game_only_with_the_header_it_was_played_with(tables, tmp_path, mosquitto):
    """The same game id with bob's seat now carol's is another game: begun afresh, not bob's game resumed."""
    game, broker = game_class("hexover")(), Broker("127.0.0.1", mosquitto.port)
    games = []
    for holder in ("bob", "bob", "carol"):
        seats = (HUMAN, Seat("remote", holder=holder))
        daemon, _, _ = tables.open_board(game, tmp_path / "alice.sqlite3", seats=seats,
                                         remote=host(broker, GAME_ID, "alice", game, seats))
        games.append(daemon.journal.game_id)
        daemon.close()
    assert games[0] == games[1] != games[2]
