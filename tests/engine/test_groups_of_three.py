"""Groups-of-Three: each rule sentence checked on a position built for it (see docs/rules.md)."""

import json
from collections import Counter

import pytest

from engine import CHANCE, TERMINAL, Change, Footprint, IllegalMoveError, PositionError, state_from_json
from engine.games import groups_of_three_layout
from engine.games.groups_of_three import GroupsOfThree
from engine.games.groups_of_three_layout import LayoutFileError, load_layout

#: Two white pieces far from the action keep the second player in the game.
WHITE_AWAY = {"f90": "white", "f92": "white"}


def state_at(pieces, *, points=6, turn=0, reserve=None, players=2):
    """A position with ``pieces``; colours absent are home, reserves fill the rest up to 10."""
    game = GroupsOfThree(players=players)
    on_board = Counter(pieces.values())
    reserve = {c: (reserve or {}).get(c, 0 if not on_board[c] else 10 - on_board[c]) for c in game.colours}
    borne_off = {c: 10 - on_board[c] - reserve[c] for c in game.colours}
    return game.state_from_position({"pieces": pieces, "reserve": reserve, "borne_off": borne_off,
                                     "turn": turn, "points": points, "pending_adds": []})


def texts(state):
    return sorted(map(str, state.legal_moves))


def steps_from(state, face):
    return sorted(t for t in texts(state) if t.startswith(f"{face}-"))


def adds(state):
    return sorted(t for t in texts(state) if t.startswith("+"))


# -- the layout ----------------------------------------------------------------------


def test_transit_spaces_are_the_four_corner_triangles_between_the_diamond_and_the_square():
    layout = load_layout()
    assert sorted(layout.faces[i] for i in layout.transit) == ["f10", "f11", "f12", "f9"]


def test_the_board_has_36_groups_of_three():
    assert len(load_layout().groups) == 36


def test_each_colour_starts_with_three_pieces_and_seven_in_reserve():
    state = GroupsOfThree(players=4).new_initial_state()
    assert Counter(c for c in state.contents().values() if c) == {c: 3 for c in ("black", "white", "red", "blue")}
    assert state.position()["reserve"] == {c: 7 for c in ("black", "white", "red", "blue")}


def test_three_players_omit_blue():
    state = GroupsOfThree(players=3).new_initial_state()
    assert "blue" not in state.contents().values()
    assert state.game.colours == ("black", "white", "red")


def test_a_layout_point_outside_every_compartment_is_reported_with_the_file(tmp_path, monkeypatch):
    bad = tmp_path / "layout.json"
    bad.write_text('{"transit": [[99, 99]], "start": {}, "full_house": {}}')
    monkeypatch.setattr(groups_of_three_layout, "DATA_FILE", bad)
    load_layout.cache_clear()
    try:
        with pytest.raises(LayoutFileError, match=r"layout\.json: transit\[0\]: the point \[99, 99\] lies in no"):
            load_layout()
    finally:
        load_layout.cache_clear()


@pytest.mark.parametrize("where, point, message", [
    ("start", [1.5, 1.5], "start.black: f9 is the Center Square or a transit space"),
    ("transit", [4.3, 0.8], "transit: f33 is part of a group-of-three"),
])
def test_a_layout_place_where_no_piece_may_be_is_refused(tmp_path, monkeypatch, where, point, message):
    data = groups_of_three_layout.read_data(groups_of_three_layout.DATA_FILE)
    if where == "start":
        data["start"]["black"][0] = point
    else:
        data["transit"][0] = point
    bad = tmp_path / "layout.json"
    bad.write_text(json.dumps(data))
    monkeypatch.setattr(groups_of_three_layout, "DATA_FILE", bad)
    load_layout.cache_clear()
    try:
        with pytest.raises(LayoutFileError, match=message):
            load_layout()
    finally:
        load_layout.cache_clear()


# -- turns and dice --------------------------------------------------------------------


def test_a_turn_starts_with_two_dice_whose_total_is_the_steps():
    state = GroupsOfThree().new_initial_state()
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21 and sum(p for _, p in outcomes) == pytest.approx(1)
    state.apply("roll 3+4")
    assert state.points == 7 and state.current_player == 0


def test_two_players_alternate_their_two_colours():
    state = GroupsOfThree(players=2).new_initial_state()
    seen = []
    for _ in range(4):
        state.apply("roll 1+1")
        seen.append((state.current_player, state.turn_piece()))
        state.apply("end")
    assert seen == [(0, "black"), (1, "white"), (0, "red"), (1, "blue")]


def test_a_colour_with_every_piece_home_hands_its_turns_to_the_other():
    state = state_at({"f25": "red", "f26": "red"} | WHITE_AWAY, turn=0)  # black is all home
    assert state.turn_piece() == "red"


def test_unused_steps_lapse_when_the_turn_ends():
    state = state_at({"f25": "black", "f26": "black"} | WHITE_AWAY, points=9)
    state.apply("f25-f17")
    state.apply("end")
    assert state.points is None and state.current_player == CHANCE and state.turn_piece() == "white"


# -- moving the pieces ------------------------------------------------------------------


def test_players_move_only_their_own_pieces():
    state = state_at({"f25": "black", "f26": "black", "f27": "red", "f28": "red"} | WHITE_AWAY)
    sources = {t.split("-")[0] for t in texts(state) if "-" in t}
    assert sources == {"f25", "f26"}


def test_a_move_crosses_a_shared_side_in_any_direction():
    state = state_at({"f25": "black", "f40": "black"} | WHITE_AWAY)
    assert steps_from(state, "f25") == ["f25-f17", "f25-f18", "f25-f33", "f25-f34"]


def test_no_move_through_a_corner():
    # f1 and f2 meet only at the corner (1, 1) of the Center Square.
    state = state_at({"f1": "black", "f40": "black", "f41": "black"} | WHITE_AWAY)
    assert "f1-f2" not in texts(state)
    assert "f1-f8" in texts(state)


def test_no_move_into_an_occupied_compartment_whoever_holds_it():
    state = state_at({"f25": "black", "f17": "black", "f18": "white", "f90": "white"})
    assert steps_from(state, "f25") == ["f25-f33", "f25-f34"]


def test_a_step_costs_one_point():
    state = state_at({"f25": "black", "f40": "black"} | WHITE_AWAY, points=3)
    state.apply("f25-f17")
    assert state.points == 2


# -- transit spaces ------------------------------------------------------------------------


def test_entering_a_transit_space_needs_two_steps_left():
    one = state_at({"f13": "black", "f40": "black"} | WHITE_AWAY, points=1)
    two = state_at({"f13": "black", "f40": "black"} | WHITE_AWAY, points=2)
    assert "f13-f9" not in texts(one)
    assert "f13-f9" in texts(two)


def test_a_piece_in_a_transit_space_must_leave_it_with_the_next_step():
    state = state_at({"f13": "black", "f40": "black"} | WHITE_AWAY, points=5)
    state.apply("f13-f9")
    assert texts(state) == ["f9-f1", "f9-f13", "f9-f14", "f9-f2"]  # no other piece, no end of turn
    state.apply("f9-f2")
    assert state.points == 3 and "end" in texts(state)


# -- bearing off ---------------------------------------------------------------------------


def test_reaching_the_center_square_from_a_surrounding_triangle_bears_off_at_no_extra_cost():
    state = state_at({"f1": "black", "f40": "black", "f41": "black"} | WHITE_AWAY, points=2)
    footprint = state.footprint(state.parse_move("f1-center"))
    assert footprint == Footprint((Change("f1", "black", None),), cost=1)
    state.apply("f1-center")
    assert state.points == 1 and state.contents()["center"] is None
    assert state.position()["borne_off"]["black"] == 1


def test_only_the_eight_triangles_around_the_center_square_lead_into_it():
    assert sorted(load_layout().faces[i] for i in load_layout().adjacent[load_layout().center]) == [
        f"f{k}" for k in range(1, 9)]


def test_with_reserve_pieces_a_colour_keeps_two_on_the_board():
    three = state_at({"f1": "black", "f40": "black", "f41": "black"} | WHITE_AWAY)
    two = state_at({"f1": "black", "f40": "black"} | WHITE_AWAY)
    assert "f1-center" in texts(three)
    assert "f1-center" not in texts(two)


def test_with_the_reserve_empty_the_last_pieces_may_bear_off():
    state = state_at({"f1": "black"} | WHITE_AWAY, reserve={"black": 0})
    assert "f1-center" in texts(state)


def test_bearing_off_gives_no_add_though_the_center_square_is_in_a_group():
    # (center, f1, f8) is a group: f8 is occupied and f1 empties, yet the piece never stands in the centre.
    state = state_at({"f1": "black", "f8": "black", "f40": "black"} | WHITE_AWAY)
    state.apply("f1-center")
    assert adds(state) == []


# -- bringing in pieces ------------------------------------------------------------------


def test_entering_a_group_with_exactly_one_other_occupied_adds_to_the_empty_one_free():
    # Group (f57, f33, f49): f57 is occupied, f33 empties as the piece steps to f49.
    state = state_at({"f33": "black", "f57": "white", "f90": "white", "f40": "black"}, points=4)
    state.apply("f33-f49")
    assert adds(state) == ["+f33"]
    footprint = state.footprint(state.parse_move("+f33"))
    assert footprint == Footprint((Change("f33", None, "black"),), cost=0)
    state.apply("+f33")
    assert state.points == 3 and state.position()["reserve"]["black"] == 7


def test_no_add_when_both_other_compartments_are_occupied():
    state = state_at({"f48": "black", "f57": "white", "f33": "white", "f40": "black"})
    state.apply("f48-f49")
    assert adds(state) == []


def test_no_add_when_neither_other_compartment_is_occupied():
    state = state_at({"f48": "black", "f40": "black"} | WHITE_AWAY)
    state.apply("f48-f49")
    assert adds(state) == []


def test_no_add_with_the_reserve_empty():
    state = state_at({"f33": "black", "f57": "white", "f90": "white", "f40": "black"}, reserve={"black": 0})
    state.apply("f33-f49")
    assert adds(state) == []


def test_two_groups_at_once_allow_two_additions():
    # f49 is in (f57, f33, f49) and (f64, f48, f49); f57 and f64 are occupied.
    state = state_at({"f33": "black", "f57": "black", "f64": "white", "f90": "white"})
    state.apply("f33-f49")
    assert adds(state) == ["+f33", "+f48"]
    state.apply("+f48")
    state.apply("+f33")
    assert state.position()["reserve"]["black"] == 6 and adds(state) == []


def test_moving_within_a_group_may_add():
    # Diagram 6: from f49 to f33 inside the group (f57, f33, f49); f57 occupied, f49 left empty.
    state = state_at({"f49": "black", "f57": "black"} | WHITE_AWAY)
    state.apply("f49-f33")
    assert adds(state) == ["+f49"]


def test_leaving_and_reentering_a_group_adds_again_for_two_moves():
    state = state_at({"f33": "black", "f57": "black"} | WHITE_AWAY, points=4)
    state.apply("f33-f25")
    state.apply("f25-f33")
    assert adds(state) == ["+f49"] and state.points == 2


def test_an_add_must_be_taken_before_the_next_step():
    state = state_at({"f33": "black", "f57": "black"} | WHITE_AWAY, points=4)
    state.apply("f33-f49")
    state.apply("f57-f65")
    assert "+f33" not in texts(state)
    with pytest.raises(IllegalMoveError):
        state.apply("+f33")


# -- winning --------------------------------------------------------------------------------


def test_the_first_to_bring_in_and_bear_off_every_piece_wins():
    state = state_at({"f1": "black"} | WHITE_AWAY, reserve={"black": 0})  # red is all home
    state.apply("f1-center")
    assert state.current_player == TERMINAL
    assert state.outcome().winners == (0,) and state.outcome().returns == (1.0, -1.0)
    assert list(state.legal_moves) == []


def test_a_two_colour_player_wins_only_with_both_colours_home():
    state = state_at({"f1": "black", "f25": "red", "f26": "red"} | WHITE_AWAY, reserve={"black": 0})
    state.apply("f1-center")
    assert state.outcome() is None and state.current_player == 0


# -- positions ----------------------------------------------------------------------------------


def test_positions_round_trip_through_json():
    state = state_at({"f33": "black", "f57": "black"} | WHITE_AWAY, points=4)
    state.apply("f33-f49")
    copy = state_from_json(state.to_json())
    assert copy.position() == state.position() and texts(copy) == texts(state)


@pytest.mark.parametrize("change, message", [
    ({"pieces": {"f200": "black"}}, "'f200' is not a compartment"),
    ({"pieces": {"center": "black"}}, "'center' is not a compartment"),
    ({"pieces": {"f25": "green"}}, "'green' is not one of black, white, red, blue"),
    ({"reserve": {"black": 7}}, '"reserve" must give a count for each of'),
    ({"reserve": {"black": 6, "white": 7, "red": 7, "blue": 7}}, "black has 9 pieces"),
    ({"points": 13}, "points 13 must be null"),
    ({"turn": -1}, "turn -1 must be a count"),
    ({"pending_adds": ["f33"]}, "pending_adds"),
])
def test_bad_positions_are_refused_with_the_reason(change, message):
    position = GroupsOfThree(players=4).new_initial_state().position() | {"points": 5} | change
    with pytest.raises(PositionError, match=message):
        GroupsOfThree(players=4).state_from_position(position)


def test_a_colour_with_reserve_but_one_piece_on_the_board_is_refused():
    with pytest.raises(PositionError, match="black has reserve pieces but only 1 on the board"):
        state_at({"f25": "black"} | WHITE_AWAY)


def test_two_pieces_in_transit_spaces_are_refused():
    with pytest.raises(PositionError, match="only the piece crossing one"):
        state_at({"f9": "black", "f10": "black"} | WHITE_AWAY)
