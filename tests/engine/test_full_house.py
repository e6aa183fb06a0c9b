"""The Full House puzzle as a game: Groups-of-Three movement, colours ignored, no dice, no bearing off."""

import pytest

from engine import TERMINAL, OptionError, PositionError
from engine.games.full_house import FullHouse
from engine.games.groups_of_three_layout import load_layout


def texts(state):
    return sorted(map(str, state.legal_moves))


def at(pieces, *, total=40, moves=0, pending=()):
    return FullHouse(pieces=total).state_from_position({
        "pieces": {face: "piece" for face in pieces}, "reserve": {"piece": total - len(pieces)},
        "borne_off": {"piece": 0}, "pending_adds": list(pending), "moves": moves})


def test_the_puzzle_starts_from_the_three_pieces_of_the_data_file():
    state = FullHouse().new_initial_state()
    layout = load_layout()
    assert sorted(f for f, c in state.contents().items() if c) == sorted(
        layout.faces[i] for i in layout.full_house_start)
    assert state.position()["reserve"] == {"piece": 37}
    assert state.current_player == 0 and not state.is_chance_node()


def test_moves_are_unlimited_and_only_steps_count():
    state = at(["f33", "f57"])
    for text in ("f33-f49", "+f33", "f49-f64", "f64-f49"):
        state.apply(text)
    assert state.moves == 3


def test_colours_are_ignored_any_piece_moves_and_fills_a_group():
    state = at(["f33", "f57"])
    assert {t.split("-")[0] for t in texts(state) if "-" in t} == {"f33", "f57"}


def test_no_piece_is_borne_off():
    state = at(["f1", "f8", "f40"])
    assert "f1-center" not in texts(state)


def test_a_transit_space_is_still_crossed_in_two_moves():
    state = at(["f13", "f40"])
    state.apply("f13-f9")
    assert texts(state) == ["f9-f1", "f9-f13", "f9-f14", "f9-f2"]


def test_the_puzzle_ends_when_every_piece_is_on_the_board():
    state = at(["f33", "f57"], total=3)
    state.apply("f33-f49")
    state.apply("+f33")
    assert state.current_player == TERMINAL
    assert state.outcome().reason == "all 3 pieces on the board in 1 move"


def test_fewer_pieces_than_the_start_is_refused():
    with pytest.raises(OptionError, match="full-house: option pieces=2 is not from 3 to 92"):
        FullHouse(pieces=2)


def test_a_position_with_pieces_borne_off_is_refused():
    position = at(["f33", "f57"]).position() | {"borne_off": {"piece": 1}, "reserve": {"piece": 37}}
    with pytest.raises(PositionError, match="bears no piece off"):
        FullHouse().state_from_position(position)


def test_a_position_with_the_wrong_number_of_pieces_is_refused():
    position = at(["f33", "f57"]).position() | {"reserve": {"piece": 30}}
    with pytest.raises(PositionError, match="piece has 32 pieces"):
        FullHouse().state_from_position(position)
