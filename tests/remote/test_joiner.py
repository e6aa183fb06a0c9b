"""A page that joined a remote game (`gameboard sim --join`), for real: restarted without its broker it takes
its game up again from its journal, and two pages on one computer (docs/remote.md's first example) keep
their games apart."""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path

from engine.registry import game_class
from firmware_host.cli import build_parser
from firmware_host.commands.sim import default_journal, remote_seat, state_dir
from firmware_host.remote.join import host
from firmware_host.remote.link import Broker
from firmware_host.remote.moves import Chain, published
from firmware_host.seats import HUMAN, Seat
from firmware_host.sim import SimSession
from hal.clock import ManualClock
from tests.remote.peers import Hearing, wait_until
from tests.sim import clicks

GAME_ID = "friday"
BOB = Seat("remote", holder="bob")
DOC = Path(__file__).parents[2] / "docs" / "remote.md"


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
        alice.participant.publish(published(state, Chain(state), ("alice", "bob"))[1])
        run_until(bob, clock, lambda: bob.daemon.journal.plies == 1, "bob's page did not carry out alice's move")
        assert bob.daemon.journal.moves() == [str(state.history[0])]
        bob.close()
        mosquitto.kill()
        bob, clock = page(args, journal)  # before: "no game friday on ... (the broker ... cannot be reached)"
        assert [str(move) for move in bob.daemon.state.history] == [str(state.history[0])]
        run_until(bob, clock, lambda: "cannot be reached" in bob.view()["remote"], "bob's page says nothing of it")
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


def test_the_two_pages_of_the_docs_first_example_keep_their_games_apart(mosquitto, tmp_path, monkeypatch):
    """Both pages on one computer, each with its default journal: bob's page carries out alice's move (it
    shared alice's journal before, and could not write the move: UNIQUE constraint failed)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    example = DOC.read_text(encoding="utf-8").split("## Try it on one computer", 1)[1].split("```")[1]
    commands = [shlex.split(line.replace("mqtt://127.0.0.1/", f"mqtt://127.0.0.1:{mosquitto.port}/"))[1:]
                for line in example.splitlines() if line.startswith("gameboard sim ")]
    assert [re.search(r"--name (\w+)", " ".join(command))[1] for command in commands] == ["alice", "bob"]
    alice, alice_clock = page(build_parser().parse_args(commands[0]))
    bob = None
    try:
        run_until(alice, alice_clock, lambda: alice.daemon.remote.heard_header is not None, "alice's header")
        bob, bob_clock = page(build_parser().parse_args([*commands[1], "--wait", "5"]))
        move = next(iter(alice.daemon.state.legal_moves))
        clicks.Player(alice, alice_clock).make(move)
        run_until(bob, bob_clock, lambda: bob.daemon.journal.plies == 1, "bob's page did not take alice's move")
        assert bob.daemon.journal.moves() == alice.daemon.journal.moves() == [str(move)]
    finally:
        alice.close()
        if bob is not None:
            bob.close()


def run_until(session: SimSession, clock: ManualClock, done, what: str, timeout: float = 15.0) -> None:
    """Run the page's loop, its hands and its clock, until ``done()``: what the broker sends comes in real time."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"{what}: {session.daemon.status_text()}"
        clicks.Player(session, clock).wait(clicks.HAND_PAUSE)
        time.sleep(0.005)


def page(args, journal: Path | None = None) -> tuple[SimSession, ManualClock]:
    """A page as `gameboard sim --join` starts it (its journal the default one unless given): its part in the
    game, then the simulated board."""
    journal = journal or state_dir() / default_journal(args)
    participant, name, options, seats = remote_seat(args, {}, journal)
    clock = ManualClock()
    return SimSession(name, options, journal=journal, clock=clock, seats=seats, auto=True, remote=participant), clock
