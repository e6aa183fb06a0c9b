"""The hint button in a puzzle, through the daemon on the mock board: the next move of a solution from
wherever the person is, shown on the LEDs, or since which move the puzzle has been lost."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

from engine import new_game
from firmware_host.presenter import PALETTE
from firmware_host.thinker import Thinking

#: Wall-clock seconds the worker may take before a test gives up: a guard against a hang, not a speed check.
PATIENCE = 60.0
GOLDEN = Path(__file__).parents[1] / "data"


def patient(tables) -> Thinking:
    """These tests check what a hint says, not how fast: a loaded machine must not cut a puzzle's search short."""
    return replace(tables.QUICK, puzzle_seconds=PATIENCE)


def ask_hint(daemon, person) -> dict:
    """Press hint and step the loop until the answer has come; the daemon's snapshot then."""
    daemon.hal.buttons.press("hint")
    person.run(0.01)
    deadline = time.monotonic() + PATIENCE
    while daemon.thinker.busy:
        assert time.monotonic() < deadline, f"the hint gave no answer: {daemon.status_text()}"
        person.run(0.01)
        time.sleep(0.002)
    return daemon.snapshot()


def test_following_the_hints_solves_crooked_jumps_from_the_start(tables, hands, tmp_path):
    daemon, mock, clock = tables.open_board(new_game("crooked-jumps"), tmp_path / "j.sqlite3", thinking=patient(tables))
    person = hands.Hands(daemon, mock, clock)
    try:
        while not daemon.state.is_terminal():
            snapshot = ask_hint(daemon, person)
            carry = snapshot["carry"]
            assert carry is not None, snapshot["note"]
            assert snapshot["decided"]["by"] == "hint" and snapshot["note"].startswith("hint: ")
            start, removed, to = carry["move"].split(">")
            assert daemon.lights.colours[start] == daemon.lights.colours[to] == PALETTE["hint"]
            assert daemon.lights.colours[removed] == PALETTE["removal"]
            assert f"move the piece from {start} to {to}; then take" in daemon.status_text()
            assert "more move" in snapshot["note"] and "in the centre" in snapshot["note"]
            person.play(daemon.state, daemon.state.parse_move(carry["move"]))
        assert daemon.state.outcome().returns == (1.0,)
        assert len(daemon.state.history) == 15
    finally:
        daemon.close()


#: A game of Crooked Jumps that is lost at its seventh move and stuck after its twelfth, with four pieces left.
LOST = ["p12>p4>center", "p10>p14>p20", "p7>p11>p14", "p14>p20>p28", "p9>p5>p10", "p13>p10>p5", "p2>p5>p9",
        "p9>p16>p12", "p1>center>p2", "p12>p15>p11", "p3>p11>p7", "p6>p2>p5"]


def test_a_lost_puzzle_says_which_move_lost_it_even_once_stuck(tables, hands, tmp_path):
    daemon, mock, clock = tables.open_board(new_game("crooked-jumps"), tmp_path / "j.sqlite3", thinking=patient(tables))
    person = hands.Hands(daemon, mock, clock)
    try:
        for text in LOST[:9]:
            person.play(daemon.state, daemon.state.parse_move(text))
        snapshot = ask_hint(daemon, person)
        assert snapshot["carry"] is None and snapshot["decided"] is None
        assert snapshot["note"] == ("hint: no way to one piece in the centre from here: move 7 (p2>p5>p9) lost it; "
                                    "undo 3 moves to play on from before it")
        for text in LOST[9:]:
            person.play(daemon.state, daemon.state.parse_move(text))
        assert daemon.state.is_terminal()
        snapshot = ask_hint(daemon, person)
        assert "hint" in snapshot["buttons"]
        assert snapshot["note"].endswith("move 7 (p2>p5>p9) lost it; undo 6 moves to play on from before it")
    finally:
        daemon.close()


def test_the_hint_in_full_house_is_the_first_step_of_a_solution(tables, hands, tmp_path):
    daemon, mock, clock = tables.open_board(new_game("full-house", pieces=10), tmp_path / "j.sqlite3", thinking=patient(tables))
    person = hands.Hands(daemon, mock, clock)
    try:
        while not daemon.state.is_terminal():
            snapshot = ask_hint(daemon, person)
            assert snapshot["carry"] is not None, snapshot["note"]
            person.play(daemon.state, daemon.state.parse_move(snapshot["carry"]["move"]))
        assert daemon.state.is_solved() and daemon.state.moves == 7, "the hints follow an optimal solution"
    finally:
        daemon.close()


def test_the_hint_in_the_spiral_from_a_position_half_way(tables, hands, tmp_path):
    record = json.loads((GOLDEN / "overpass_spiral" / "one_piece_left.json").read_text())
    state = new_game("overpass-spiral", **record["options"])
    for text in record["moves"][:30]:
        state.apply(text)
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3", thinking=patient(tables))
    person = hands.Hands(daemon, mock, clock)
    try:
        snapshot = ask_hint(daemon, person)
        assert snapshot["carry"] is not None, snapshot["note"]
        state.apply(snapshot["carry"]["move"])
        assert snapshot["note"] == "hint: 9 more moves to one piece"
    finally:
        daemon.close()
