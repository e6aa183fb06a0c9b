"""What the page is given to show: the new-game form's fields, what a click would do, the LED legend,
the faults banner, the buttons' names."""

import time

import pytest

from engine.registry import available_games
from firmware_host.sim import SimError, SimSession
from firmware_host.web.view import snapshot_view
from hal.clock import ManualClock
from tests.sim.test_web import mirrored_squareoff


#: The deal these tests describe (the aces on the bottom row); a game asking for no seed is dealt afresh.
SEED_0 = {"seed": 0}


def session(tmp_path, game, options=None):
    return SimSession(game, options, journal=tmp_path / "journal.sqlite3", seed=3, clock=ManualClock())


def test_the_new_game_form_gets_every_games_options_and_the_current_values(tmp_path):
    view = session(tmp_path, "pawns-crossing", {"players": 3}).view()
    games = {game["name"]: game for game in view["games"]}
    assert list(games) == list(available_games())
    assert games["pawns-crossing"]["options"] == {
        "players": {"default": 2, "choices": [2, 3, 4], "help": "number of players"},
        "seed": {"default": 0, "choices": [],
                 "help": "seed of the shuffled tiles and dominoes, the token values and the start rolls; left "
                         "out, each new game on the board, in the simulator or the arena is dealt from a fresh one"},
        "fair_colours": {"default": False, "choices": [False, True],
                         "help": "2 players: one takes the colours with the longest and shortest ace-to-destination "
                                 "totals"},
    }
    assert games["hexover"]["options"] == {}
    assert games["pawns-crossing"]["deal"] == "seed" and games["hexover"]["deal"] is None
    dealt = view["options"].pop("seed")
    assert view["options"] == {"players": 3, "fair_colours": False} and type(dealt) is int


def test_the_hint_button_is_called_hint(tmp_path):
    buttons = {button["name"]: button["label"] for button in session(tmp_path, "squareoff").view()["buttons"]}
    assert buttons["hint"] == "Hint"


def test_what_a_click_on_a_stack_does_is_said_before_it_happens(tmp_path):
    sim = session(tmp_path, "pawns-crossing", SEED_0)
    view = sim.view()
    assert view["clicks"] == {"t3.3": "lifts the green piece off this stack of 3",
                              "t3.4": "lifts the black piece off this stack of 3",
                              "t4.1": "lifts the red piece off this stack of 3",
                              "t4.4": "lifts the blue piece off this stack of 3"}
    assert view["hand_hint"] == "a click on a piece lifts it; take a piece from the box to put one on the board"

    sim.act({"type": "take", "piece": "green"})
    view = sim.view()
    assert view["hand_hint"] == ("a click on an empty place puts the green piece there, on a tile adds it to the "
                                 "pieces there, on another piece lifts that one too")
    assert view["clicks"]["t4.1"] == "puts the green piece on this stack of 3"
    assert view["clicks"]["t1.1"] == "puts the green piece here"
    sim.act({"type": "click", "loc": "t4.1"})
    assert sim.mock.contents["t4.1"] == "green+red+red+red"
    assert sim.view()["clicks"]["t4.1"] == "lifts the red piece off this stack of 4"


def test_a_piece_lifted_off_a_stack_can_be_put_back_on_it(tmp_path):
    """A second click on the stack once lifted another piece: the lifted one could never go back."""
    sim = session(tmp_path, "pawns-crossing", SEED_0)
    sim.act({"type": "click", "loc": "t4.1"})
    assert sim.mock.contents["t4.1"] == "red+red" and [held.piece for held in sim.hand] == ["red"]
    assert sim.view()["clicks"]["t4.1"] == "puts the red piece back on this stack of 2"
    sim.act({"type": "click", "loc": "t4.1"})
    assert sim.mock.contents["t4.1"] == "red+red+red" and sim.hand == []


def test_the_rest_of_a_stack_is_lifted_so_the_sensors_see_it_lifted_whole(tmp_path):
    sim = session(tmp_path, "pawns-crossing", SEED_0)
    assert sim.view()["rest_of_stack"] is None
    with pytest.raises(SimError, match="did not come off a stack that still holds pieces"):
        sim.act({"type": "lift_rest"})
    sim.act({"type": "click", "loc": "t4.1"})
    assert sim.view()["rest_of_stack"] == "t4.1"
    sim.act({"type": "lift_rest"})
    assert sim.mock.contents.get("t4.1") is None and [held.origin for held in sim.hand] == ["t4.1"] * 3
    assert sim.view()["rest_of_stack"] is None


def test_off_a_stack_a_piece_in_hand_lifts_the_piece_clicked(tmp_path):
    """A domino's half or a hole holds one piece: a click there with a piece in hand lifts it too (as for a Trade)."""
    sim = session(tmp_path, "pawns-crossing")
    sim.mock.set_contents({**sim.mock.contents, "d1.1e-n": "blue"})
    sim.act({"type": "take", "piece": "red"})
    assert sim.view()["clicks"]["d1.1e-n"] == "lifts the blue piece"
    sim.act({"type": "click", "loc": "d1.1e-n"})
    assert [held.piece for held in sim.hand] == ["red", "blue"] and sim.mock.contents.get("d1.1e-n") is None
    assert sim.view()["clicks"]["d1.1e-n"] == "puts the red piece here"


def test_a_click_on_an_empty_place_with_nothing_in_hand_is_refused(tmp_path):
    sim = session(tmp_path, "squareoff")
    assert sim.view()["clicks"] == {}
    with pytest.raises(SimError, match="nothing in hand"):
        sim.act({"type": "click", "loc": "p1"})


def steps(daemon, clock, count=10):
    for _ in range(count):
        clock.advance(0.1)
        daemon.step()


def legend_worked_out(daemon, clock):
    """Wait (in real time: a thread of its own plays the game a little) until the daemon knows the lights its game
    can show, and step it once so that its subscribers are sent the narrowed legend."""
    daemon.lights.legend  # asked for once: the work begins
    deadline = time.monotonic() + 20
    while not daemon.lights.legend_known:
        assert time.monotonic() < deadline, "the game's lights were never worked out"
        time.sleep(0.01)
    steps(daemon, clock, 1)


def test_the_simulator_shows_the_legend_and_a_banner_while_a_fault_lasts(tmp_path):
    sim = session(tmp_path, "squareoff")
    legend_worked_out(sim.daemon, sim.clock)
    view = sim.view()
    assert view["legend"] == sim.daemon.lights.legend and view["faults"] == []
    assert {light["name"] for light in view["legend"]} >= {"turn_black", "turn_white", "destination", "removal"}
    sim.mock.unplug_sensors()
    steps(sim.daemon, sim.clock)
    assert sim.view()["faults"] == [{"kind": "sensors", "head": "the board cannot see",
                                     "problem": "the mock board's sensor cable is unplugged"}]
    sim.mock.repair_sensors()
    steps(sim.daemon, sim.clock)
    assert sim.view()["faults"] == []


def test_the_mirror_shows_the_legend_and_a_banner_while_a_fault_lasts(tmp_path):
    daemon, mock, clock, mirror = mirrored_squareoff(tmp_path)
    legend_worked_out(daemon, clock)
    assert mirror.view()["legend"] == daemon.lights.legend
    assert {light["name"] for light in mirror.view()["legend"] if light["blinks"]} == {"todo_put", "todo_remove",
                                                                                      "fault_sensors", "fault_journal"}
    mock.unplug_sensors()
    steps(daemon, clock)
    assert [fault["head"] for fault in mirror.view()["faults"]] == ["the board cannot see"]
    daemon.close()



def test_the_page_says_what_went_wrong_on_the_way_from_the_sensors(tmp_path):
    sim = session(tmp_path, "squareoff")
    assert sim.view()["sensor_errors"] == ""
    snapshot = sim.daemon.snapshot()
    snapshot["sensors"]["errors"] = {"lost": 1, "crc": 2}  # as a serial link counts them
    assert snapshot_view(snapshot)["sensor_errors"] == "sensors: crc 2, lost 1 since the start"
