"""Computer seats through the daemon on the mock board: the computer's turn decided in its worker
process, carried out by a person's hands as the LEDs show it, and only that move accepted."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import time

import pytest

from engine.ai.player import plan_turn
from engine.positions import random_position
from engine.registry import game_class
from firmware_host.presenter import PALETTE
from firmware_host.seats import Seat, parse_seat, parse_seats
from firmware_host.thinker import NICENESS, Answer, Question, Thinker, Thinking
from firmware_host.tracker import Status
from hal.mock import Noise

COMPUTER = Seat("computer", "easy")
HUMAN = Seat()
#: Wall-clock seconds the worker may take before a test gives up: a guard against a hang, not a speed check.
PATIENCE = 60.0
#: A bouncing, bumping board: the tracker must still follow the hands.
NOISE = Noise(bounce_time=0.004, bounce_probability=0.3, bump_probability=0.05, bump_time=0.1)


def await_computer(daemon, person) -> int:
    """Step the loop until the computer's step is shown or made; returns the loop steps taken meanwhile."""
    steps, plies, deadline = 0, len(daemon.state.history), time.monotonic() + PATIENCE
    while daemon.snapshot()["carry"] is None and len(daemon.state.history) == plies:
        assert time.monotonic() < deadline, f"the computer gave no move: {daemon.status_text()}"
        person.run(0.01)
        steps += 1
        time.sleep(0.002)
    return steps


def await_whole_turn(daemon, person) -> None:
    """Step the loop until the computer has planned the rest of its turn."""
    deadline = time.monotonic() + PATIENCE
    while daemon.thinker.busy:
        assert time.monotonic() < deadline, f"the computer did not finish its turn: {daemon.status_text()}"
        person.run(0.01)
        time.sleep(0.002)


def play(daemon, mock, person, pick, plies: int, seed: int = 0) -> int:
    """Up to ``plies`` moves: the people's at random, the computer's carried out from what it shows.
    Returns how many the computer made; after each, the board must be the game's."""
    rng = random.Random(seed)
    made = 0
    for _ in range(plies):
        state = daemon.state
        if state.is_terminal():
            break
        player = state.current_player
        if player >= 0 and daemon.seats[player].computer:
            plies_before = len(state.history)
            await_computer(daemon, person)
            carry = daemon.snapshot()["carry"]
            if carry is not None:  # a move with nothing to carry out (Over-Pass's end) is made by itself
                decided = daemon.snapshot()["decided"]
                assert decided["by"] == "computer" and carry["move"] == decided["moves"][decided["step"]]
                person.play(state, state.parse_move(carry["move"]))
            assert len(daemon.state.history) > plies_before
            made += 1
        else:
            person.play(state, pick(state, rng))
        board = {loc: piece for loc, piece in daemon.state.contents().items() if piece}
        assert mock.contents == board, daemon.status_text()
    return made


#: (game, options, plies): None plays the game to its end; the long ones (hundreds of plies and more) play their first
#: plies here and whole games in ``bench/guided.py --against easy``.
GAMES = [("squareoff", {}, None), ("hexover", {}, None), ("mono-line", {}, None), ("overpass", {"players": 2}, 30),
         ("groups-of-three", {}, 30), ("pawns-crossing", {}, 16), ("full-house", {}, 30),
         ("crooked-jumps", {}, None), ("overpass-spiral", {}, None)]


@pytest.mark.parametrize(("name", "options", "plies"), GAMES, ids=[g[0] for g in GAMES])
def test_a_game_against_the_computer_on_a_noisy_board(tables, hands, tmp_path, name, options, plies):
    players = game_class(name)(**options).num_players
    seats = (COMPUTER,) if players == 1 else (HUMAN, COMPUTER) + (HUMAN,) * (players - 2)
    daemon, mock, clock = tables.open_board(game_class(name)(**options), tmp_path / "j.sqlite3", noise=NOISE,
                                            seats=seats)
    try:
        assert play(daemon, mock, hands.Hands(daemon, mock, clock), hands.pick, plies or 1000) >= 1
        assert plies or daemon.state.is_terminal(), "played to the end"
    finally:
        daemon.close()


def squareoff_against_the_computer(tables, hands, tmp_path, **options):
    """Square Off, black a person, white the computer; black has placed on p1 and the computer has decided."""
    daemon, mock, clock = tables.open_board(game_class("squareoff")(), tmp_path / "j.sqlite3",
                                            seats=(HUMAN, COMPUTER), **options)
    person = hands.Hands(daemon, mock, clock)
    person.play(daemon.state, daemon.state.parse_move("p1"))
    steps = await_computer(daemon, person)
    return daemon, mock, person, steps


def test_the_scan_loop_keeps_running_while_the_computer_thinks(tables, hands, tmp_path):
    daemon, _, _, steps = squareoff_against_the_computer(tables, hands, tmp_path)
    try:
        # Every step returned while the worker searched: none of them waited for it.
        assert steps >= 2 and not daemon.thinker.busy
        worker = daemon.thinker._process.pid
        assert os.getpriority(os.PRIO_PROCESS, worker) == min(19, os.nice(0) + NICENESS), "the worker yields"
    finally:
        daemon.close()


def test_the_computers_move_is_shown_and_only_it_is_accepted(tables, hands, tmp_path):
    daemon, mock, person, _ = squareoff_against_the_computer(tables, hands, tmp_path)
    try:
        snapshot = daemon.snapshot()
        target = snapshot["carry"]["put"][0]
        assert snapshot["carry"]["move"] == target and snapshot["decided"]["text"] == f"computer: {target}"
        assert f"white (computer): {target}: put a white on {target}" in daemon.status_text()
        assert daemon.lights.colours[target] in (PALETTE["carry_to"], PALETTE["destination"])
        other = next(p for p, content in daemon.state.contents().items() if content is None and p != target)
        assert daemon.state.parse_move(other) in daemon.state.legal_moves  # legal, but not the computer's
        mock.place(other, "white")
        person.run(3.0)
        assert len(daemon.state.history) == 1 and daemon.tracker.view.status is Status.OUT_OF_SYNC
        assert any(fix.source == other for fix in daemon.tracker.view.fixes)
        mock.lift(other)
        person.play(daemon.state, daemon.state.parse_move(target))  # checks that it is accepted
    finally:
        daemon.close()


def test_a_restart_in_the_computers_turn_shows_the_same_move(tables, hands, tmp_path):
    daemon, mock, person, _ = squareoff_against_the_computer(tables, hands, tmp_path)
    shown = daemon.snapshot()["carry"]["move"]
    daemon.close()
    again, _, clock = tables.open_board(game_class("squareoff")(), tmp_path / "j.sqlite3", seats=(HUMAN, COMPUTER),
                                        contents=mock.contents)
    try:
        assert len(again.state.history) == 1, "the journal's game resumed"
        await_computer(again, hands.Hands(again, mock, clock))
        assert again.snapshot()["carry"]["move"] == shown
    finally:
        again.close()


def test_the_hint_shows_the_computers_best_move_for_a_person_and_goes_when_a_move_begins(tables, hands, tmp_path):
    daemon, mock, clock = tables.open_board(game_class("squareoff")(), tmp_path / "j.sqlite3")
    person = hands.Hands(daemon, mock, clock)
    try:
        mock.buttons.press("hint")
        person.run(0.01)
        assert daemon.snapshot()["thinking"] and "the hint is thinking" in daemon.status_text()
        await_computer(daemon, person)
        snapshot = daemon.snapshot()
        assert snapshot["decided"]["by"] == "hint"
        target = snapshot["carry"]["put"][0]
        assert daemon.lights.colours[target] == PALETTE["hint"]
        mock.place(target, "black")  # the person follows it: a move begins, the hint goes
        person.run(0.1)
        assert daemon.snapshot()["carry"] is None
        person.settle()
        assert str(daemon.state.history[-1]) == target
    finally:
        daemon.close()


def test_hints_can_be_turned_off(tables, hands, tmp_path):
    daemon, mock, clock = tables.open_board(game_class("squareoff")(), tmp_path / "j.sqlite3", hints=False)
    try:
        mock.buttons.press("hint")
        hands.Hands(daemon, mock, clock).run(0.05)
        assert not daemon.thinker.busy and daemon.snapshot()["note"] == "hints are off (the hints setting)"
    finally:
        daemon.close()


def test_seats_are_read_from_their_words_with_clear_errors():
    assert parse_seat("human") == HUMAN and parse_seat("computer") == Seat("computer", "normal")
    assert parse_seat("computer:hard") == Seat("computer", "hard")
    with pytest.raises(ValueError, match="no computer level 'expert'; levels: easy, normal, hard"):
        parse_seat("computer:expert")
    with pytest.raises(ValueError, match=r"write human, computer, computer:LEVEL \(levels: easy, normal, hard\) "
                                         "or remote:NAME"):
        parse_seat("robot")
    assert parse_seat("remote:bob") == Seat("remote", holder="bob") and str(Seat("remote", holder="bob")) == "remote:bob"
    with pytest.raises(ValueError, match="write remote:NAME"):
        parse_seat("remote:bob smith")
    with pytest.raises(ValueError, match="3 seats for a game of 2 players"):
        parse_seats(["human", "computer", "human"], 2)
    assert parse_seats([], 3) == (HUMAN,) * 3


def test_undo_at_a_persons_turn_takes_back_the_computers_answer_too(tables, hands, tmp_path):
    daemon, mock, person, _ = squareoff_against_the_computer(tables, hands, tmp_path)
    try:
        answer = daemon.snapshot()["carry"]["move"]
        person.play(daemon.state, daemon.state.parse_move(answer))
        assert [str(move) for move in daemon.state.history] == ["p1", answer]
        mock.buttons.press("undo")
        person.run(0.05)
        assert daemon.state.history == [] and daemon.tracker.view.status is Status.RESTORING
        assert {fix.source for fix in daemon.tracker.view.fixes} == {"p1", answer}
    finally:
        daemon.close()


def test_a_daemon_killed_in_the_computers_turn_shows_the_same_move_again_and_its_worker_ends(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    target = Path(__file__).with_name("computer_kill_target.py")
    journal = tmp_path / "journal.sqlite3"

    def run_until_shown(seed: int):
        process = subprocess.Popen([sys.executable, str(target), str(journal), str(seed)], stdout=subprocess.PIPE,
                                   text=True)
        worker = int(process.stdout.readline().split()[1])
        shown = process.stdout.readline().split()[1]
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        return worker, shown

    worker, first = run_until_shown(1)
    deadline = time.monotonic() + PATIENCE
    while True:  # the worker notices its daemon is gone
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "the computer's worker outlived its killed daemon"
        time.sleep(0.1)
    # Planned afresh, the turn would differ (a deadline's plan does, run to run; here the seed differs too): the
    # journal kept the turn decided, and the restarted daemon shows it.
    _, again = run_until_shown(2)
    assert again == first


def collect(thinker: Thinker) -> list[Answer]:
    """Every reply to the question asked, until the last."""
    replies, deadline = [], time.monotonic() + PATIENCE
    while not replies or not replies[-1].done:
        assert time.monotonic() < deadline, "the worker gave no answer"
        reply = thinker.answer()
        if reply is None:
            time.sleep(0.01)
        else:
            assert not reply.error, reply.error
            replies.append(reply)
    return replies


def test_the_worker_sends_the_computers_turn_step_by_step_and_a_hint_whole():
    state = random_position("overpass", {"players": 2}, 10, 1)
    expected = tuple(str(move) for move in plan_turn(state, "easy", 3, simulations=8))
    assert len(expected) > 1, "a turn of several steps"
    thinker = Thinker(Thinking(simulations=8))
    try:
        thinker.ask(Question(("computer", state.current_player, len(state.history), 0), state.to_json(), "easy", 3))
        replies = collect(thinker)
        assert [reply.moves for reply in replies] == [expected[:n] for n in range(1, len(expected) + 1)]
        assert [reply.done for reply in replies] == [False] * (len(expected) - 1) + [True] and not thinker.busy
        thinker.ask(Question(("hint", state.current_player, len(state.history), 0), state.to_json(), "easy", 3))
        assert [reply.moves for reply in collect(thinker)] == [expected], "a hint shows the whole turn at once"
        # Steps kept over a restart are continued, not planned again.
        thinker.ask(Question(("computer", state.current_player, len(state.history), 1), state.to_json(), "easy", 3,
                             planned=expected[:1]))
        assert collect(thinker)[0].moves[:1] == expected[:1]
    finally:
        thinker.close()


def test_following_the_hint_through_a_turn_shows_each_step_without_planning_again(tables, hands, tmp_path):
    daemon, mock, clock = tables.open_board(game_class("overpass")(players=2), tmp_path / "j.sqlite3")
    person = hands.Hands(daemon, mock, clock)
    try:
        rng = random.Random(4)
        while len(daemon.state.history) < 8 or daemon.state.is_chance_node():
            person.play(daemon.state, hands.pick(daemon.state, rng))
        mock.buttons.press("hint")
        await_computer(daemon, person)
        plan = daemon.snapshot()["decided"]
        assert plan["by"] == "hint" and len(plan["moves"]) > 1, "an Over-Pass turn of several steps"
        assert f"hint: {plan['moves'][0]}, then {plan['moves'][1]}" in daemon.status_text()
        for step, move in enumerate(plan["moves"][:-1]):
            person.play(daemon.state, daemon.state.parse_move(move))
            assert daemon.snapshot()["carry"] is None, "the hint goes once a move is made"
            mock.buttons.press("hint")
            person.run(0.01)
            snapshot = daemon.snapshot()
            assert not snapshot["thinking"], "the turn's plan is kept: nothing is planned again"
            assert snapshot["carry"]["move"] == plan["moves"][step + 1]
            assert f"hint: {plan['moves'][step + 1]}" in daemon.status_text()
    finally:
        daemon.close()


def test_a_restart_after_the_first_step_of_a_turn_shows_it_and_plans_only_the_rest(tables, hands, tmp_path):
    journal = tmp_path / "j.sqlite3"
    daemon, mock, clock = tables.open_board(game_class("overpass")(players=2), journal, seats=(HUMAN, COMPUTER))
    person, rng = hands.Hands(daemon, mock, clock), random.Random(2)
    try:
        while True:  # to a computer's turn of several steps
            if daemon.state.current_player == 1:
                await_computer(daemon, person)
                await_whole_turn(daemon, person)
                if len(daemon.snapshot()["decided"]["moves"]) > 1 and daemon.carry is not None:
                    break
                play(daemon, mock, person, hands.pick, 1)
            else:
                person.play(daemon.state, hands.pick(daemon.state, rng))
        first = daemon.snapshot()["decided"]["moves"][0]
    finally:
        daemon.close()
    # Killed with only its first step decided: what the journal holds then.
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE decided_turns SET moves = ?, complete = 0", (json.dumps([first]),))
    again, mock, clock = tables.open_board(game_class("overpass")(players=2), journal, seats=(HUMAN, COMPUTER),
                                           contents=mock.contents)
    try:
        assert again.snapshot()["carry"]["move"] == first, "shown again at once, as before the restart"
        assert again.thinker.busy and again.thinker.asked.planned == (first,), "only the rest is planned"
        assert f"(computer) (roll " in again.status_text() and f": {first}, then thinking...: " in again.status_text()
        await_whole_turn(again, hands.Hands(again, mock, clock))
        decided = again.snapshot()["decided"]
        assert decided["moves"][0] == first and again.snapshot()["carry"]["move"] == first
    finally:
        again.close()
