"""Square Off's rules, sentence by sentence (see the Square Off table in docs/rules.md)."""

import pytest

from engine import PositionError, new_game
from engine.games.squareoff import SquareOff


def setup(black: str = "", white: str = "", hands: tuple[int, int] = (0, 0), to_move: str = "black",
          variant: str = "classic", **extra):
    """A state from the points each colour holds, written "p1 p2 ..."."""
    board = {p: "black" for p in black.split()} | {p: "white" for p in white.split()}
    position = {"board": board, "in_hand": {"black": hands[0], "white": hands[1]}, "to_move": to_move, **extra}
    return SquareOff(variant=variant).state_from_position(position)


def legal(state) -> set[str]:
    return {str(m) for m in state.legal_moves}


def play(state, *moves: str):
    for move in moves:
        state.apply(move)
    return state


def changes(state, move: str) -> set[tuple]:
    return {(c.location, c.before, c.after) for c in state.footprint(state.parse_move(move)).changes}


# -- Classic: stage 1 ---------------------------------------------------------------

def test_first_player_option_chooses_who_places_first():
    assert new_game("squareoff").turn_piece() == "black"
    assert new_game("squareoff", first_player="white").turn_piece() == "white"


def test_stage1_places_on_every_empty_point_in_turn():
    state = new_game("squareoff")
    assert legal(state) == {f"p{n}" for n in range(1, 25)}
    assert changes(state, "p7") == {("p7", None, "black")}
    play(state, "p7")
    assert state.turn_piece() == "white"
    assert legal(state) == {f"p{n}" for n in range(1, 25)} - {"p7"}
    assert state.position()["in_hand"] == {"black": 8, "white": 9}


def test_row_formed_by_placement_owes_a_capture_of_the_players_choice():
    state = play(setup(black="p6 p2", white="p9 p13", hands=(7, 7)), "p5")
    assert state.turn_piece() == "black", "the capture is the same player's next step"
    assert legal(state) == {"xp9", "xp13"}
    assert changes(state, "xp13") == {("p13", "white", None)}
    play(state, "xp13")
    assert state.turn_piece() == "white"


def test_pieces_in_a_row_are_protected():
    state = play(setup(black="p6 p2", white="p14 p10 p13 p1", hands=(6, 5)), "p5")
    assert legal(state) == {"xp1"}


def test_when_every_opposing_piece_is_in_a_row_any_may_be_taken():
    state = play(setup(black="p6 p2", white="p14 p10 p13", hands=(6, 6)), "p5")
    assert legal(state) == {"xp14", "xp10", "xp13"}


def test_two_rows_formed_at_once_capture_one_piece():
    state = play(setup(black="p6 p2 p1 p8", white="p22 p23 p24 p21", hands=(4, 5)), "p5")
    play(state, "xp22")
    assert state.turn_piece() == "white"


def test_row_with_no_opposing_piece_on_the_board_captures_nothing():
    state = play(setup(black="p6 p2", hands=(5, 5)), "p5")
    assert state.turn_piece() == "white" and not state.position()["captures_owed"]


def test_captured_pieces_do_not_return():
    state = play(setup(black="p6 p2", white="p9 p13", hands=(7, 7)), "p5", "xp9")
    assert state.position()["in_hand"] == {"black": 6, "white": 7}
    assert state.contents()["p9"] is None
    assert "p9" in legal(state), "the point is free again, the piece is gone"


def test_stage2_starts_for_each_player_once_their_hand_is_empty():
    state = setup(black="p22 p23 p24 p6 p2 p7 p12 p15", white="p1 p9 p17 p10 p18 p13 p11 p19 p3",
                  hands=(1, 0))
    assert all(len(m) <= 3 for m in legal(state)), "black still places"
    play(state, "p4")
    assert legal(state) and all("-" in m for m in legal(state)), "white slides"


# -- Classic: stage 2 ---------------------------------------------------------------

def test_slides_go_to_adjacent_empty_points_along_lines():
    state = setup(black="p1 p22 p23", white="p9 p21 p24")
    assert legal(state) == {"p1-p5", "p1-p8", "p22-p18", "p22-p19", "p23-p19", "p23-p20"}
    assert changes(state, "p1-p5") == {("p1", "black", None), ("p5", None, "black")}


REFORM = dict(black="p6 p2 p5 p20", white="p22 p24 p17 p14")


def test_classic_row_can_be_unformed_and_reformed_to_capture_again():
    state = play(setup(**REFORM), "p5-p1", "p22-p18", "p1-p5")
    assert state.turn_piece() == "black" and legal(state) == {"xp18", "xp24", "xp17", "xp14"}


def test_a_slide_that_forms_a_row_owes_a_capture():
    state = play(setup(black="p6 p2 p1", white="p22 p24 p17"), "p1-p5")
    assert legal(state) == {"xp22", "xp24", "xp17"}


def test_two_pieces_left_ends_the_game():
    state = play(setup(black="p6 p2 p1 p23", white="p22 p24 p17"), "p1-p5", "xp22")
    outcome = state.outcome()
    assert state.is_terminal() and outcome.winner == 0 and "white has only 2 pieces" in outcome.reason


def test_pieces_in_hand_count_towards_the_two_left():
    state = play(setup(black="p6 p2", white="p9", hands=(3, 2)), "p5", "xp9")
    assert state.is_terminal() and state.outcome().winner == 0


def test_a_player_who_cannot_move_loses():
    state = setup(black="p22 p23 p24", white="p18 p19 p20 p17")
    assert state.is_terminal()
    assert state.outcome().winner == 1 and state.outcome().reason == "black cannot move"


# -- Jump Off ---------------------------------------------------------------------

def test_jump_over_an_opposing_piece_to_the_empty_point_behind():
    state = setup(black="p1 p22 p23", white="p9 p21 p24", variant="jump-off")
    assert "p1^p17" in legal(state)
    assert "p1^p17" not in legal(setup(black="p1 p22 p23", white="p9 p21 p24"))
    assert changes(state, "p1^p17") == {("p1", "black", None), ("p17", None, "black")}
    play(state, "p1^p17")
    assert state.contents()["p9"] == "white", "the jumped piece stays"
    assert state.turn_piece() == "white"


def test_no_jump_over_ones_own_piece_or_onto_an_occupied_point():
    state = setup(black="p1 p9 p22", white="p17 p21 p24 p8", variant="jump-off")
    assert not {m for m in legal(state) if "^" in m}


def test_a_jump_that_forms_a_row_captures_any_unprotected_piece():
    state = play(setup(black="p1 p21 p24", white="p9 p22 p23 p20", variant="jump-off"), "p1^p17")
    assert legal(state) == {"xp9", "xp22", "xp23", "xp20"}


def test_jumps_are_stage2_moves():
    state = setup(black="p1", white="p9", hands=(8, 8), variant="jump-off")
    assert "p1^p17" not in legal(state) and "p17" in legal(state)


def test_jump_off_a_blocked_player_may_still_jump():
    state = setup(black="p22 p23 p24", white="p18 p19 p20 p17", variant="jump-off")
    assert not state.is_terminal() and "p22^p21" in legal(state)


def test_jump_off_waits_a_turn_before_reforming_a_row():
    state = play(setup(variant="jump-off", **REFORM), "p5-p1")
    assert state.position()["unformed"]["black"] == [["p5", "p2", "p6"]]
    play(state, "p22-p18")
    assert "p1-p5" not in legal(state) and "p20-p23" in legal(state)
    play(state, "p20-p23", "p18-p22")
    play(state, "p1-p5")
    assert state.turn_piece() == "black" and all(m.startswith("x") for m in legal(state))


def test_jump_off_wait_survives_a_saved_position():
    state = play(setup(variant="jump-off", **REFORM), "p5-p1", "p22-p18")
    copy = state.game.state_from_position(state.position())
    assert legal(copy) == legal(state)


# -- Trading Places -----------------------------------------------------------------

def test_trade_swaps_a_piece_with_an_unprotected_opposing_piece_as_the_move():
    state = setup(black="p1 p22 p23", white="p9 p21 p24 p17", variant="trading-places")
    trades = {m for m in legal(state) if "<>" in m}
    assert trades == {f"{own}<>p9" for own in ("p1", "p22", "p23")}, "p21 p17 p24 stand in a row"
    assert changes(state, "p22<>p9") == {("p22", "black", "white"), ("p9", "white", "black")}
    play(state, "p22<>p9")
    assert state.turn_piece() == "white", "a trade is the whole move"


def test_trades_are_stage2_moves():
    state = setup(black="p1", white="p9", hands=(8, 8), variant="trading-places")
    assert not {m for m in legal(state) if "<>" in m}


def test_a_trade_forming_a_row_for_the_trader_captures():
    state = play(setup(black="p6 p2 p20", white="p5 p22 p24", variant="trading-places"), "p20<>p5")
    assert state.turn_piece() == "black" and legal(state) == {"xp20", "xp22", "xp24"}


def test_a_trade_forming_a_row_for_the_opponent_lets_them_capture_a_traders_piece():
    state = play(setup(black="p1 p22 p23 p14", white="p5 p8 p24", variant="trading-places"), "p1<>p24")
    assert state.turn_piece() == "white" and legal(state) == {"xp22", "xp23", "xp24", "xp14"}
    play(state, "xp23")
    assert state.turn_piece() == "white" and not any(m.startswith("x") for m in legal(state))


def test_a_trade_forming_rows_for_both_the_trader_captures_first():
    state = play(setup(black="p6 p2 p4 p22", white="p5 p8 p7 p24", variant="trading-places"), "p4<>p5")
    assert state.position()["captures_owed"] == ["black", "white"]
    assert legal(state) == {"xp24"}, "white's new row p8 p4 p7 is protected"
    play(state, "xp24")
    assert state.turn_piece() == "white" and legal(state) == {"xp22"}, "black's row is protected"
    play(state, "xp22")
    assert state.turn_piece() == "white" and not any(m.startswith("x") for m in legal(state))


# -- positions ---------------------------------------------------------------------------

@pytest.mark.parametrize("position, message", [
    ({"board": {"p25": "black"}}, "'p25' is not a point"),
    ({"board": {"p1": "red"}}, "'red' is not a colour"),
    ({"board": {f"p{n}": "black" for n in range(1, 10)}, "in_hand": {"black": 1, "white": 1}},
     "black has 10 pieces"),
    ({"in_hand": {"black": 7, "white": 5}}, "differ by at most one"),
    ({"in_hand": {"black": 10, "white": 9}}, "0 <= n <= 9"),
    ({"board": {"p1": "black"}, "captures_owed": ["black"]}, "white has no piece on the board"),
    ({"unformed": {"black": [["p1", "p9", "p17"]]}}, "only Jump Off"),
])
def test_positions_that_break_the_rules_are_refused(position, message):
    with pytest.raises(PositionError, match=message):
        SquareOff().state_from_position(position)


def test_an_unformed_row_must_be_a_row_of_the_board():
    with pytest.raises(PositionError, match="not three points in a row"):
        SquareOff(variant="jump-off").state_from_position({"unformed": {"black": [["p1", "p2", "p3"]]}})
