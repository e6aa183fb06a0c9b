"""The game's header, for real: written again by its host after a broker lost it, kept in a joiner's journal
so that the joiner resumes without the broker, and compared on what matters (the options as the game
resolves them)."""

from __future__ import annotations

import threading
import time

import pytest

from engine.registry import game_class
from firmware_host.cli import build_parser
from firmware_host.commands.sim import remote_seat
from firmware_host.journal import Journal
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker
from firmware_host.remote.moves import published
from firmware_host.remote.participant import Participant
from firmware_host.remote.protocol import Header, header_topic, position_hash
from firmware_host.seats import HUMAN, Seat
from firmware_host.sim import SimSession
from hal.clock import ManualClock
from tests.remote.intruders import connect
from tests.sim import clicks

GAME_ID = "friday"
BOB = Seat("remote", holder="bob")


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


def test_a_joined_page_restarted_without_its_broker_takes_its_game_up_from_its_journal(mosquitto, tmp_path):
    """bob's page joins, carries out alice's first move and closes; the broker dies (kill -9); bob's page
    starts again meanwhile and takes the game up from its journal, waiting for the broker, not exiting.
    The broker comes back without its retained messages, and bob's next move reaches alice."""
    broker, journal = Broker("127.0.0.1", mosquitto.port), tmp_path / "bob.sqlite3"
    game = game_class("hexover")()
    alice = Hearing(host(broker, GAME_ID, "alice", game, (HUMAN, BOB)))
    args = build_parser().parse_args(["sim", "--join", f"mqtt://127.0.0.1:{mosquitto.port}/{GAME_ID}", "--name",
                                      "bob", "--journal", str(journal), "--wait", "5"])
    bob, clock = page(args, journal)
    try:
        state = game.new_initial_state()
        state.apply(next(iter(state.legal_moves)))
        alice.participant.publish(published(state, "alice", lambda player: player == 0)[1])
        run_until(bob, clock, lambda: bob.daemon.journal.plies == 1, "bob's page did not carry out alice's move")
        assert bob.daemon.journal.moves() == [str(state.history[0])]
        bob.close()
        mosquitto.kill()
        bob, clock = page(args, journal)  # before: "no game friday on ... (the broker ... cannot be reached)"
        assert [str(move) for move in bob.daemon.state.history] == [str(state.history[0])]
        assert "cannot be reached" in bob.view()["remote"]
        mosquitto.start()  # with nothing retained
        run_until(bob, clock, lambda: bob.daemon.remote.heard_header is not None, "bob's page did not hear the header")
        assert bob.daemon.remote.problem == ""
        move = next(iter(bob.daemon.state.legal_moves))
        clicks.Player(bob, clock).make(move)
        wait_until(lambda: alice.participant.candidates(2), "alice did not hear bob's move 2")
        assert alice.participant.candidates(2)[0].move == str(move)
    finally:
        bob.close()
        alice.stop()


def run_until(session: SimSession, clock: ManualClock, done, what: str, timeout: float = 15.0) -> None:
    """Run the page's loop, its hands and its clock, until ``done()``: what the broker sends comes in real time."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"{what}: {session.daemon.status_text()}"
        clicks.Player(session, clock).wait(clicks.HAND_PAUSE)
        time.sleep(0.005)


def page(args, journal):
    """bob's page as `gameboard sim --join` starts it: its part in the game, then the simulated board."""
    participant, name, options, seats = remote_seat(args, {}, journal)
    clock = ManualClock()
    return SimSession(name, options, journal=journal, clock=clock, seats=seats, auto=True, remote=participant), clock


def test_the_journal_keeps_the_header_of_the_unfinished_remote_game(tmp_path):
    state = game_class("hexover")().new_initial_state()
    journal = Journal(tmp_path / "j.sqlite3")
    journal.start(state, "friday", '{"v": 2}')
    journal.close()
    again = Journal(tmp_path / "j.sqlite3")
    assert (again.unfinished_header("friday"), again.unfinished_header("saturday")) == ('{"v": 2}', None)
    assert again.resume() is not None and again.remote_header == '{"v": 2}'
    again.start(state)  # a game on the board alone closes it
    assert (again.unfinished_header("friday"), again.remote_header) == (None, None)
    again.start(state, "saturday")  # a game begun by a release that kept no header
    assert again.unfinished_header("saturday") is None
