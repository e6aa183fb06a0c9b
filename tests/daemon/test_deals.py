"""A game with a random set-up (Pawns Crossing) is dealt afresh for each new game on the board unless a seed is
asked for; the seed dealt is in the journal, so the game resumes, replays and is checked as it was dealt."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from engine.registry import game_class, state_from_json
from firmware_host.config import Hal
from firmware_host.daemon import Daemon
from firmware_host.journal import Journal
from hal.clock import ManualClock
from hal.dice import EnteredDice
from hal.mock import MockBoard
from wiring.model import straight_wiring

PAWNS = game_class("pawns-crossing")


def board(options: dict, journal, hands, **daemon_options):
    """A daemon on a mock board for Pawns Crossing asked with ``options``, the board set up as it deals; the person
    at it."""
    game = PAWNS(**options)
    clock = ManualClock()
    wiring = straight_wiring(game.board)
    mock = MockBoard(wiring, clock=clock)
    daemon = Daemon(game, Hal(mock.sensors, mock.leds, mock.buttons, EnteredDice()), wiring, Journal(journal),
                    clock, **daemon_options)
    mock.set_contents({loc: piece for loc, piece in daemon.state.contents().items() if piece})
    person = hands.Hands(daemon, mock, clock)
    person.run(1.0)  # the sensors see the board set up
    return daemon, mock, person


def dealt(daemon: Daemon) -> tuple[int, dict[str, str]]:
    return daemon.state.game.options["seed"], daemon.state.layout()


def test_two_new_games_are_dealt_differently_unless_a_seed_is_asked(tmp_path, hands):
    first, _, _ = board({}, tmp_path / "a.sqlite3", hands)
    second, _, person = board({}, tmp_path / "b.sqlite3", hands)
    assert dealt(first) != dealt(second) and first.state.layout() != second.state.layout()
    second.press("new_game")
    assert second.journal.game_id == 2 and dealt(second) not in (dealt(first), (0, PAWNS().new_initial_state().layout()))
    asked, _, _ = board({"seed": 5}, tmp_path / "c.sqlite3", hands)
    assert dealt(asked) == (5, PAWNS(seed=5).new_initial_state().layout())
    asked.press("new_game")
    assert asked.journal.game_id == 2 and dealt(asked) == (5, PAWNS(seed=5).new_initial_state().layout())
    for daemon in (first, second, asked):
        daemon.close()


def test_new_games_are_dealt_from_a_seeded_source_when_given_one(tmp_path, hands):
    """The simulator's --seed: repeatable deals, each new game its own."""
    one, _, _ = board({}, tmp_path / "a.sqlite3", hands, deals=random.Random(3))
    two, _, _ = board({}, tmp_path / "b.sqlite3", hands, deals=random.Random(3))
    assert dealt(one) == dealt(two)
    one.press("new_game")
    assert dealt(one) != dealt(two)
    one.close()
    two.close()


def test_a_restarted_daemon_resumes_the_deal_and_the_journal_replays_it(tmp_path, hands):
    path = tmp_path / "journal.sqlite3"
    daemon, mock, person = board({}, path, hands)
    seed, layout = dealt(daemon)
    state = daemon.state
    for _ in range(2):  # the pawns placed by hand, as the LEDs guide
        person.play(state, next(iter(state.legal_moves)))
    played = [str(move) for move in daemon.state.history]
    daemon.close()

    again, _, _ = board({}, path, hands)  # the same game asked for: it is taken up again, not dealt anew
    assert dealt(again) == (seed, layout) and [str(move) for move in again.state.history] == played
    assert again.journal.game_id == 1
    setup = again.journal.setup()
    assert setup["options"]["seed"] == seed
    replayed = state_from_json(setup)
    for text in again.journal.moves():
        replayed.apply(text)
    assert replayed.position() == again.state.position()
    again.close()

    other, _, _ = board({"players": 3}, path, hands)  # another game asked for: a new one, dealt afresh
    assert other.journal.game_id == 2 and other.state.game.options["players"] == 3
    other.close()
    check = subprocess.run([sys.executable, "-m", "firmware_host.cli", "journal", "check", str(path)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"game 1: pawns-crossing (seed {seed}), 2 moves, finished (abandoned)" in check.stdout


def test_a_journal_kept_before_fresh_deals_resumes_its_seed_0_game(tmp_path, hands):
    """A game an earlier release dealt from seed 0, asked with no seed, is still taken up again."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    journal.start(PAWNS().new_initial_state())
    journal.close()
    daemon, _, _ = board({}, path, hands)
    assert daemon.journal.game_id == 1 and dealt(daemon) == (0, PAWNS().new_initial_state().layout())
    assert json.loads(json.dumps(daemon.state.game.options)) == {"players": 2, "seed": 0, "fair_colours": False}
    daemon.close()
