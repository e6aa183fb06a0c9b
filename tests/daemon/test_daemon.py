"""End to end on the mock HAL: games played as lifts, slides and places with noise, buttons, dice, sync."""

from __future__ import annotations

import random

import pytest

from engine.registry import available_games, game_class
from firmware_host.config import Hal
from firmware_host.daemon import Daemon, LedSettings
from firmware_host.journal import Journal
from firmware_host.presenter import PALETTE
from hal.clock import ManualClock
from hal.dice import EnteredDice
from hal.mock import MockBoard, Noise
from wiring.model import straight_wiring

MAX_PLIES = 200  # games whose random play may wander on are cut here and compared all the same


def play_game(daemon: Daemon, mock: MockBoard, clock: ManualClock, hands, seed: int, plies: int = MAX_PLIES):
    """Random moves a person can make, played on the board; returns the engine state of those moves."""
    person = hands.Hands(daemon, mock, clock, seed)
    rng = random.Random(seed)
    reference = daemon.state.clone()
    person.run(0.05)
    while not reference.is_terminal() and len(reference.history) < plies:
        move = hands.pick(reference, rng)
        person.play(daemon.state, move)
        reference.push(move)
    return reference


@pytest.mark.parametrize("name", sorted(available_games()))
def test_a_game_played_by_hand_with_noise_ends_in_the_engine_state_of_the_intended_moves(name, hands, tmp_path,
                                                                                           tables):
    game = available_games()[name]()
    daemon, mock, clock = tables.open_board(game, tmp_path / "j.sqlite3", noise=Noise.realistic(), seed=7)
    reference = play_game(daemon, mock, clock, hands, seed=11)
    assert daemon.state.position() == reference.position()
    assert [str(m) for m in daemon.state.history] == [str(m) for m in reference.history]
    assert daemon.journal.moves() == [str(m) for m in reference.history]


def test_the_toy_game_with_every_kind_of_move_plays_to_its_end_under_presence_sensing(toy, hands, tmp_path, tables):
    daemon, mock, clock = tables.open_board(toy.ToyGame(plies=40), tmp_path / "j.sqlite3", noise=Noise.realistic(),
                                            seed=3)
    reference = play_game(daemon, mock, clock, hands, seed=5, plies=1000)
    assert reference.is_terminal()
    assert daemon.state.position() == reference.position()
    kinds = {type(move).__name__ for move in reference.history}
    assert {"Place", "Slide", "Flip", "Pass", "Roll"} <= kinds


def test_the_toy_game_under_analog_sensing_needs_no_confirmation(toy, hands, tmp_path, tables):
    classes = {"black": "north", "white": "south"}
    game = toy.ToyGame(plies=24)
    daemon, mock, clock = tables.open_board(game, tmp_path / "j.sqlite3", sensing="analog", classes=classes,
                                     noise=Noise(analog_jitter=3.0))
    asked = []
    daemon.subscribe(lambda snapshot: asked.append(snapshot["candidates"]) if snapshot["status"] == "confirm" else None)
    reference = play_game(daemon, mock, clock, hands, seed=9, plies=1000)
    assert daemon.state.position() == reference.position()
    assert {"Trade", "Flip"} & {type(move).__name__ for move in reference.history}
    assert not asked


def test_over_pass_under_analog_sensing_tells_the_four_colours_apart(hands, tmp_path, tables):
    classes = {"black": "north", "white": "south", "red": "north_weak", "blue": "south_weak"}
    game = available_games()["overpass"]()
    daemon, mock, clock = tables.open_board(game, tmp_path / "j.sqlite3", sensing="analog", classes=classes,
                                     noise=Noise(analog_jitter=4.0, bounce_time=0.003, bounce_probability=0.5))
    asked = []
    daemon.subscribe(lambda snapshot: asked.append(snapshot["candidates"]) if snapshot["status"] == "confirm" else None)
    reference = play_game(daemon, mock, clock, hands, seed=21, plies=150)
    assert daemon.state.position() == reference.position()
    assert "Trade" in {type(move).__name__ for move in reference.history}
    assert all("takeback" in candidates for candidates in asked)  # only a move that is also a takeback asks


def test_lifting_a_piece_lights_its_destinations_and_the_accepted_move_lights_as_last_move(toy, hands, tmp_path,
                                                                                           tables):
    game = toy.ToyGame(hand=1)
    daemon, mock, clock = tables.open_board(game, tmp_path / "j.sqlite3")
    person = hands.Hands(daemon, mock, clock)
    for text in ("roll 2", "@p1", "roll 2", "@p20"):
        person.play(daemon.state, daemon.state.parse_move(text))
    person.play(daemon.state, daemon.state.parse_move("roll 2"))
    mock.lift("p1")
    person.run(0.05)
    assert mock.leds.location_colour("p1") == PALETTE["lifted"]
    lit = {loc for loc in ("p5", "p8", "p9") if mock.leds.location_colour(loc) == PALETTE["destination"]}
    assert lit == {"p5", "p8", "p9"}
    mock.place("p9", "black")
    person.run(0.5)
    assert str(daemon.state.history[-1]) == "p1-p9"
    assert mock.leds.location_colour("p9") == PALETTE["last_move"] == mock.leds.location_colour("p1")


def test_out_of_sync_lights_the_fix_and_play_resumes_once_the_board_matches(toy, hands, tmp_path, tables):
    daemon, mock, person = tables.toy_table(toy, hands, tmp_path)
    mock.move("p1", "p24")  # not a legal destination
    person.run(tables.LOOP.out_of_sync_ms / 1000 * 0.5)
    assert daemon.snapshot()["status"] == "unmatched"
    person.run(tables.LOOP.out_of_sync_ms / 1000)
    snapshot = daemon.snapshot()
    assert snapshot["status"] == "out_of_sync" and [fix["text"] for fix in snapshot["fixes"]] == ["p24 -> p1"]
    assert mock.leds.location_colour("p24") == PALETTE["fix_from"]
    assert mock.leds.location_colour("p1") == PALETTE["fix_to"]
    assert daemon.status_text() == "out of sync: p24 -> p1"
    mock.move("p24", "p5")  # straight into a legal move: accepted as soon as it matches
    person.run(0.6)
    assert str(daemon.state.history[-1]) == "p1-p5" and daemon.snapshot()["status"] == "ready"


def test_putting_the_previous_position_back_takes_the_move_back_in_the_journal_too(toy, hands, tmp_path, tables):
    daemon, mock, person = tables.toy_table(toy, hands, tmp_path)
    journalled = daemon.journal.moves()
    mock.move("p1", "p5")
    person.run(0.6)
    assert daemon.journal.moves() == [*journalled, "p1-p5"]
    # White's turn (daemon entered dice: none yet); black puts the piece back.
    mock.move("p5", "p1")
    person.run(0.6)
    assert daemon.journal.moves() == journalled and [str(m) for m in daemon.state.history] == journalled
    assert daemon.snapshot()["note"] == "took back the last move"


def test_a_trade_waits_for_confirm_with_its_pieces_blinking(toy, hands, tmp_path, tables):
    daemon, mock, person = tables.trade_awaiting_confirm(toy, hands, tmp_path)
    snapshot = daemon.snapshot()
    assert snapshot["status"] == "confirm" and snapshot["candidates"] == ["trade p1 p9"]
    assert "confirm" in snapshot["buttons"] and daemon.status_text() == (  # presence sensors: which piece is where
        "make p1 hold a white; make p9 hold a black (the sensors cannot tell these pieces apart), "
        "then press confirm for trade p1 p9")
    seen = set()
    for _ in range(10):
        person.run(tables.LOOP.blink_ms / 1000 / 2)
        seen.add(mock.leds.location_colour("p1"))
    assert seen == {PALETTE["selected"], (0, 0, 0)}  # blinking
    mock.buttons.press("confirm")
    person.run(0.05)
    assert str(daemon.state.history[-1]) == "trade p1 p9" and daemon.journal.moves()[-1] == "trade p1 p9"


def test_undo_and_new_game_buttons_guide_the_player_to_restore_the_board(toy, hands, tmp_path, tables):
    daemon, mock, person = tables.toy_table(toy, hands, tmp_path, moves=("roll 2", "@p1", "roll 2", "@p20"))
    mock.buttons.press("undo")
    person.run(0.05)
    assert [str(m) for m in daemon.state.history] == ["roll 2", "@p1", "roll 2"]
    snapshot = daemon.snapshot()
    assert snapshot["status"] == "restoring" and snapshot["history"] == ["roll 2", "@p1", "roll 2"]
    assert [fix["text"] for fix in snapshot["fixes"]] == ["remove the piece on p20"]
    assert mock.leds.location_colour("p20") == PALETTE["fix_from"]
    mock.lift("p20")
    person.run(0.1)
    assert daemon.snapshot()["status"] == "ready"
    mock.buttons.press("new_game")
    person.run(0.05)
    assert daemon.state.history == [] and daemon.snapshot()["status"] == "restoring"
    assert daemon.snapshot()["history"] == []
    assert daemon.status_text() == "restore the position: remove the piece on p1"
    mock.lift("p1")
    person.run(0.1)
    assert daemon.status_text() == "roll the dice and enter the roll"


def test_a_restarted_daemon_resumes_the_game_and_guides_the_board_back(toy, hands, tmp_path, tables):
    daemon, mock, person = tables.toy_table(toy, hands, tmp_path)
    played = [str(m) for m in daemon.state.history]
    daemon.journal.close()
    mock.set_contents({"p2": "black"})  # the board was knocked over and set up wrongly
    hal = Hal(mock.sensors, mock.leds, mock.buttons, EnteredDice())
    again = Daemon(toy.ToyGame(hand=1), hal, daemon.wiring, Journal(tmp_path / "j.sqlite3"), person.clock,
                   loop=tables.LOOP)
    assert [str(m) for m in again.state.history] == played
    assert again.status_text() == "restore the position: p2 -> p1; place white on p20"
    mock.move("p2", "p1")
    mock.place("p20", "white")
    person.daemon = again
    person.run(0.1)
    assert again.snapshot()["status"] == "ready"


def test_every_frame_stays_within_the_current_budget_and_snapshots_are_json(toy, hands, tmp_path, tables):
    import json
    game = toy.ToyGame(hand=4)
    clock = ManualClock()
    wiring = straight_wiring(game.board)
    mock = MockBoard(wiring, clock=clock)
    snapshots = []
    daemon = Daemon(game, Hal(mock.sensors, mock.leds, mock.buttons, EnteredDice()), wiring,
                    Journal(tmp_path / "j.sqlite3"), clock, loop=tables.LOOP,
                    leds=LedSettings(brightness=1.0, current_budget_ma=150.0))
    daemon.subscribe(snapshots.append)
    mock.set_contents({loc: "black" for loc in list(wiring.channels.values())[:12]})  # a dozen pieces to fix
    person = hands.Hands(daemon, mock, clock)
    person.run(tables.LOOP.out_of_sync_ms / 1000 + 0.5)
    assert snapshots and all(s["current_ma"] <= 150.0 for s in snapshots)
    drawn = sum(sum(rgb) for rgb in mock.leds.frame[0]) * 60 / 765
    assert 100 < drawn <= 150.0
    json.dumps(snapshots[-1])


def test_an_idle_board_sends_no_frames_and_subscribers_hear_of_each_accepted_move(toy, hands, tmp_path, tables):
    daemon, mock, person = tables.toy_table(toy, hands, tmp_path)
    heard = []
    daemon.subscribe(lambda snapshot: heard.append(snapshot["history"]))
    shown = mock.leds.frames_shown
    person.run(2.0)
    assert mock.leds.frames_shown == shown and heard == []
    person.play(daemon.state, daemon.state.parse_move("p1-p5"))
    assert heard[-1][-1] == "p1-p5"
    assert mock.leds.frames_shown > shown


def test_an_entered_roll_not_on_offer_is_reported_and_the_right_one_accepted(toy, hands, tmp_path, tables):
    daemon, _, person = tables.toy_table(toy, hands, tmp_path, moves=())
    daemon.hal.dice.enter("roll 6")
    person.run(0.05)
    assert daemon.state.history == [] and "'roll 6' is not a roll on offer" in daemon.snapshot()["note"]
    daemon.hal.dice.enter("roll 1")
    person.run(0.05)
    assert [str(m) for m in daemon.state.history] == ["roll 1"] and daemon.snapshot()["dice"] == "roll 1"


def test_the_roll_shown_is_the_turn_under_ways_own_and_survives_a_restart(tables, hands, tmp_path):
    game = game_class("overpass")(players=2)
    daemon, mock, clock = tables.open_board(game, tmp_path / "j.sqlite3")
    person, rng = hands.Hands(daemon, mock, clock), random.Random(2)
    rolls, handed_over = 0, 0
    try:
        while handed_over < 2:
            state = daemon.state
            player = state.current_player
            rolling = state.is_chance_node()
            person.play(state, hands.pick(state, rng))
            now = daemon.state.current_player
            if rolling:
                rolls += 1
                roll = str(daemon.state.history[-1])
                assert daemon.snapshot()["dice"] == roll and f"({roll})" in daemon.status_text()
            elif now != player and now >= 0:
                handed_over += 1  # the next player enters before rolling: no roll of theirs yet
                assert daemon.snapshot()["dice"] == "" and "(roll" not in daemon.status_text()
            elif now == player and rolls:
                assert daemon.snapshot()["dice"] == roll, "the roll stays for the whole turn"
        while not daemon.state.is_chance_node():
            person.play(daemon.state, hands.pick(daemon.state, rng))
        person.play(daemon.state, hands.pick(daemon.state, rng))
        roll = str(daemon.state.history[-1])
    finally:
        daemon.close()
    again, _, _ = tables.open_board(game, tmp_path / "j.sqlite3", contents=mock.contents)
    try:
        assert again.snapshot()["dice"] == roll, "the journal's game resumes with its turn's roll"
    finally:
        again.close()
