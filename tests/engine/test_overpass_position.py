"""Over-Pass positions as JSON and the start layout file: round trips and clear refusals."""

import json

import pytest

from engine import state_from_json
from engine.core import PositionError
from engine.errors import GameboardError
from engine.games.overpass import OverPass
from engine.games.overpass_layout import LayoutFileError, load_layout
from engine.games.overpass_tables import rule_tables


def start_position(**changes):
    position = OverPass().new_initial_state().position()
    position.update(changes)
    return position


def test_the_start_round_trips_through_json():
    state = OverPass(players=2, goal="both").new_initial_state()
    copy = state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.position() == state.position()
    assert copy.game.options == {"players": 2, "goal": "both"}


def test_a_mid_turn_position_round_trips():
    state = OverPass().new_initial_state()
    for move in ("enter", "roll 2+5", "O center-p9"):
        state.apply(move)
    copy = state.game.state_from_position(json.loads(json.dumps(state.position())))
    assert copy.position() == state.position()
    assert copy.budget == 6 and copy.roll == (2, 5)
    assert sorted(map(str, copy.legal_moves)) == sorted(map(str, state.legal_moves))


@pytest.mark.parametrize("changes, message", [
    ({"colour": "black"}, "overpass position: unknown key 'colour'; it takes turn, phase, roll, budget, board"),
    ({"turn": "green"}, "turn='green'"),
    ({"phase": "dance"}, "phase='dance'"),
    ({"board": {"p200": "black"}}, "'p200' is not an intersection"),
    ({"board": ["p1"]}, '"board" must map'),
    ({"board": {"p1": "green"}}, "p1 holds 'green'"),
    ({"reserve": {"black": 8}}, '"reserve" must give a count'),
    ({"home": {"black": -1, "white": 0, "red": 0, "blue": 0}}, '"home" must give a count'),
    ({"reserve": {"black": 9, "white": 8, "red": 8, "blue": 8}}, "black: 11 pieces"),
    ({"roll": [3, 4]}, "the dice are not rolled yet"),
    ({"phase": "move", "roll": [4, 3], "budget": 7}, "smaller first"),
    ({"phase": "move", "roll": [3, 7], "budget": 7}, "two dice from 1 to 6"),
    ({"phase": "move", "roll": [3, 4], "budget": 8}, "budget=8"),
])
def test_a_broken_position_is_refused_with_the_reason(changes, message):
    with pytest.raises(PositionError, match=message.replace("[", r"\[").replace("(", r"\(")):
        OverPass().state_from_position(start_position(**changes))


def test_a_colour_not_in_play_is_refused():
    position = OverPass(players=3).new_initial_state().position()
    position["turn"] = "blue"
    with pytest.raises(PositionError, match="turn='blue'"):
        OverPass(players=3).state_from_position(position)


def test_a_turn_cannot_begin_with_the_center_square_occupied():
    position = start_position(board={**start_position()["board"], "center": "red"},
                              reserve={"black": 8, "white": 8, "red": 7, "blue": 8})
    with pytest.raises(PositionError, match="Center Square must be empty"):
        OverPass().state_from_position(position)


def test_before_the_roll_only_the_turns_entered_piece_is_on_the_center_square():
    position = start_position(phase="roll", board={**start_position()["board"], "center": "red"},
                              reserve={"black": 8, "white": 8, "red": 7, "blue": 8})
    with pytest.raises(PositionError, match="phase roll"):
        OverPass().state_from_position(position)


def test_the_roll_comes_after_the_entry():
    with pytest.raises(PositionError, match="one is entered onto the Center Square before the roll"):
        OverPass().state_from_position(start_position(phase="roll"))


def test_a_won_game_must_be_over_and_an_over_game_won():
    board = {"p1": "white", "p3": "red", "p5": "blue"}
    won = {"turn": "black", "phase": "move", "roll": [2, 2], "budget": 3, "board": board,
           "reserve": {"black": 0, "white": 9, "red": 9, "blue": 9},
           "home": {"black": 10, "white": 0, "red": 0, "blue": 0}}
    with pytest.raises(PositionError, match='the phase is "over"'):
        OverPass().state_from_position(won)
    assert OverPass().state_from_position({**won, "phase": "over"}).outcome().winners == (0,)
    with pytest.raises(PositionError, match="phase over: white"):
        OverPass().state_from_position({**won, "phase": "over", "turn": "white"})


def test_position_errors_are_gameboard_errors():
    assert issubclass(PositionError, GameboardError) and issubclass(LayoutFileError, GameboardError)


# -- the start layout file -------------------------------------------------------

BOARD = rule_tables("overpass").board
GOOD = {"pieces_per_colour": 10,
        "start": {"black": ["p1", "p3"], "white": ["p2", "p4"], "red": ["p5", "p7"], "blue": ["p6", "p8"]}}


def write(tmp_path, data):
    path = tmp_path / "overpass.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1))
    return path


def test_the_shipped_layout_puts_each_colour_opposite_itself_around_the_center_square():
    layout = load_layout(BOARD)
    assert layout.pieces_per_colour == 10
    assert sorted(p for points in layout.start.values() for p in points) == sorted(BOARD.on_cover_edge)


def test_a_layout_file_that_is_not_json_names_the_line(tmp_path):
    path = write(tmp_path, '{\n  "pieces_per_colour": 10,\n  "start": {\n}}}')
    with pytest.raises(LayoutFileError, match=r"overpass.json:4:"):
        load_layout(BOARD, path)


@pytest.mark.parametrize("start, message", [
    ({"black": ["p1", "p3"]}, "must map each of"),
    ({**GOOD["start"], "black": ["p1", "p2"]}, "diagonally opposite"),
    ({**GOOD["start"], "black": ["p9", "p11"]}, "diagonally opposite"),
    ({**GOOD["start"], "white": ["p1", "p3"]}, "reuses p1, p3"),
    ({**GOOD["start"], "red": [["p5"], "p7"]}, "diagonally opposite"),
])
def test_a_bad_layout_is_refused_with_the_fix(tmp_path, start, message):
    with pytest.raises(LayoutFileError, match=message):
        load_layout(BOARD, write(tmp_path, {**GOOD, "start": start}))


def test_a_layout_needs_a_count_of_pieces(tmp_path):
    with pytest.raises(LayoutFileError, match="pieces_per_colour"):
        load_layout(BOARD, write(tmp_path, {**GOOD, "pieces_per_colour": "ten"}))


def test_a_missing_layout_file_is_named(tmp_path):
    with pytest.raises(LayoutFileError, match="nowhere.json: cannot read"):
        load_layout(BOARD, tmp_path / "nowhere.json")
