"""Over-Pass rules, one sentence of the rule book at a time (see docs/rules.md for the table).

Positions are set up through ``state_from_position``, the path a saved game takes, on
the real board.  Reference points used below (x, y with the Center Square's half-width 1):
p1 (1, 0) and p3 (-1, 0) end the hidden horizontal spoke p9-p1-center-p3-p11; p2, p4 the
vertical one; p5..p8 are the cover's corners; p97..p104 the exit points.
"""

from collections import Counter

import pytest

from engine import CHANCE, TERMINAL, Change, Footprint
from engine.core import IllegalMoveError, OptionError
from engine.games.overpass import OverPass
from engine.games.overpass_moves import EndTurn, Enter, Exit, OverPassMove, ReturnCenter, Slide, Trade

PIECES = 10


def setup(board, turn="black", roll=(6, 6), budget=None, players=4, reserves_empty=False, home=None,
          goal="one"):
    """A state after the roll with ``board`` on the intersections; the other pieces in reserve
    (or, with ``reserves_empty``, at home: then every colour needs a piece on the board)."""
    game = OverPass(players=players, goal=goal)
    on_board = Counter(board.values())
    home = {c: (home or {}).get(c, 0) for c in game.turn_colours}
    rest = {c: PIECES - on_board[c] - home[c] for c in game.turn_colours}
    if reserves_empty:
        home = {c: home[c] + rest[c] for c in game.turn_colours}
        rest = dict.fromkeys(game.turn_colours, 0)
    return game.state_from_position({
        "turn": turn, "phase": "move", "roll": sorted(roll), "budget": sum(roll) if budget is None else budget,
        "board": board, "reserve": rest, "home": home})


def texts(state):
    return {str(m) for m in state.legal_moves}


def over_passes_from(state, point):
    return {str(m) for m in state.legal_moves if isinstance(m, OverPassMove) and m.start == point}


# -- preparing to play ---------------------------------------------------------


def test_four_players_start_with_two_pieces_each_opposite_around_the_center_square():
    state = OverPass().new_initial_state()
    board = state.position()["board"]
    for colour in ("black", "white", "red", "blue"):
        a, b = (p for p, c in board.items() if c == colour)
        assert state.game.tables.board.xy(a) == tuple(-v for v in state.game.tables.board.xy(b))
        assert {a, b} <= set(state.game.tables.board.on_cover_edge)
    assert state.reserve == dict.fromkeys(("black", "white", "red", "blue"), 8)
    assert state.contents()["center"] is None


def test_three_players_omit_one_colour():
    state = OverPass(players=3).new_initial_state()
    assert set(state.position()["board"].values()) == {"black", "white", "red"}
    assert state.game.num_players == 3 and "blue" not in state.reserve


def test_two_players_command_two_colours_with_separate_reserves():
    game = OverPass(players=2)
    state = game.new_initial_state()
    assert game.seats == (("black", "red"), ("white", "blue"))
    assert state.reserve == dict.fromkeys(("black", "white", "red", "blue"), 8)
    assert len(state.position()["board"]) == 8


def test_two_players_alternate_turns_and_colours_turn_by_turn():
    state = OverPass(players=2).new_initial_state()
    seen = []
    for _ in range(4):
        seen.append((state.current_player, state.turn_piece()))
        state.apply("enter")
        state.apply("roll 1+1")
        state.apply(next(m for m in state.legal_moves if isinstance(m, OverPassMove) and m.start == "center"))
        state.apply("end")
    assert seen == [(0, "black"), (1, "white"), (0, "red"), (1, "blue")]
    assert (state.current_player, state.turn_piece()) == (0, "black")


def test_turns_follow_the_seats_from_the_first_player():
    state = OverPass(players=3).new_initial_state()
    order = []
    for _ in range(4):
        order.append(state.current_player)
        state.apply("enter")
        state.apply("roll 1+1")
        state.apply(next(m for m in state.legal_moves if isinstance(m, OverPassMove) and m.start == "center"))
        state.apply("end")
    assert order == [0, 1, 2, 0]


def test_goal_both_is_only_for_two_players():
    with pytest.raises(OptionError, match="two-player"):
        OverPass(players=4, goal="both")


# -- taking a turn -------------------------------------------------------------


def test_a_turn_begins_with_a_reserve_piece_onto_the_center_square_for_free():
    state = OverPass().new_initial_state()
    assert [str(m) for m in state.legal_moves] == ["enter"]
    assert state.footprint(Enter()) == Footprint((Change("center", None, "black"),), 0)
    state.apply("enter")
    assert state.reserve["black"] == 7 and state.contents()["center"] == "black"
    assert state.current_player == CHANCE


def test_no_piece_is_entered_from_an_empty_reserve():
    board = {"p1": "black", "p3": "white", "p5": "red", "p7": "blue"}
    state = setup(board, turn="blue", reserves_empty=True, roll=(1, 2))
    state.apply("end")
    assert state.turn_piece() == "black"
    assert state.current_player == CHANCE
    assert state.contents()["center"] is None


def test_two_players_enter_from_the_pile_of_the_turns_colour():
    board = {"p1": "black", "p2": "white", "p5": "red", "p6": "blue"}
    state = setup(board, turn="white", players=2, home={"red": 9})
    assert state.reserve["red"] == 0 and state.reserve["black"] == 9
    state.apply("end")
    assert state.turn_piece() == "red" and state.current_player == CHANCE, "red's pile is empty: no entry"
    state.apply("roll 1+1")
    state.apply("end")
    assert state.turn_piece() == "blue" and [str(m) for m in state.legal_moves] == ["enter"]
    state.apply("enter")
    assert state.contents()["center"] == "blue" and state.reserve["blue"] == 8


def test_the_dice_are_two_six_sided_dice_giving_the_budget():
    state = OverPass().new_initial_state()
    state.apply("enter")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    probability = {str(m): p for m, p in outcomes}
    assert probability["roll 3+3"] == pytest.approx(1 / 36)
    assert probability["roll 3+4"] == pytest.approx(2 / 36)
    state.apply("roll 3+4")
    assert state.budget == 7 and state.current_player == 0


def test_the_turn_cannot_end_while_the_center_square_is_occupied():
    state = OverPass().new_initial_state()
    state.apply("enter")
    state.apply("roll 2+2")
    assert "end" not in texts(state) and "return" not in texts(state)
    state.apply("O center-p9")
    assert "end" in texts(state)
    assert EndTurn.button == "end_turn" and state.footprint(EndTurn()).changes == ()


def test_a_turn_may_end_with_points_unused():
    state = setup({"p1": "black", "p5": "white"}, roll=(6, 6))
    assert "end" in texts(state)
    state.apply("end")
    assert state.turn_piece() == "white"


def test_the_center_square_piece_returns_to_reserve_when_it_cannot_leave():
    # black on center, boxed in by its own colour on all four spoke ends: no Over-Pass, no Slide
    board = {"center": "black", "p1": "black", "p2": "black", "p3": "black", "p4": "black"}
    state = setup(board, roll=(1, 2))
    assert "return" in texts(state) and "end" not in texts(state)
    move = ReturnCenter()
    assert state.footprint(move).after() == {"center": None}
    reserve = state.reserve["black"]
    state.apply("return")
    assert state.contents()["center"] is None
    assert state.reserve["black"] == reserve + 1
    assert state.turn_piece() == "white"


def test_no_return_while_a_move_can_empty_the_center_square():
    board = {"center": "black", "p1": "white"}
    assert "return" not in texts(setup(board, roll=(1, 2)))
    # with no points left nothing can empty it: the piece goes back
    assert texts(setup(board, roll=(1, 2), budget=0)) == {"return"}


#: Black on the centre, boxed in by black on the four spoke ends: no move of its own leaves.
BOXED = {"center": "black", "p1": "black", "p2": "black", "p3": "black", "p4": "black"}


def test_no_return_when_two_moves_empty_the_center_square_and_only_moves_towards_that_are_legal():
    # a Trade puts white on the centre (or on a spoke end), then an Over-Pass leaves over black;
    # a Slide (2 points) or anything else leaves no point for the way out
    state = setup({**BOXED, "p25": "white"}, roll=(1, 1))
    assert texts(state) == {"T p25=center", "T p1=p25", "T p2=p25", "T p3=p25", "T p4=p25"}
    state.apply("T p25=center")  # 1 point left: only the way out
    assert texts(state) == {f"O center-p{n}" for n in range(5, 13)}


def test_points_spent_elsewhere_may_not_leave_the_center_square_occupied():
    # the way out is a Slide onto p4 (2 points); a Slide of p60 first would leave 1
    state = setup({"center": "black", "p1": "black", "p2": "black", "p3": "black", "p60": "white"}, roll=(1, 2))
    assert "S p60-p67" not in texts(state) and "return" not in texts(state)
    with pytest.raises(IllegalMoveError):
        state.apply("S p60-p67")
    assert texts(state) == {"S center-p4", "T p1=p60", "T p2=p60", "T p3=p60", "T p60=center"}
    state.apply("T p1=p60")  # 2 points left: Slide out, or Over-Pass over the white p1 now
    assert {"S center-p4", "O center-p5", "O center-p8", "O center-p9"} <= texts(state)
    assert "S p60-p67" not in texts(state)
    state.apply("O center-p9")
    assert "end" in texts(state)


def test_pieces_of_every_colour_may_open_the_way_but_points_spent_elsewhere_may_not():
    board = {**{p: "red" for p in BOXED}, "p25": "white", "p60": "blue", "p61": "black"}
    state = setup(board, turn="red", roll=(1, 1))
    others = {"p25", "p60", "p61"}
    assert texts(state) == ({f"T {p}=center" for p in others}
                            | {f"T {spoke}={p}" for spoke in ("p1", "p2", "p3", "p4") for p in others})
    assert {"T p25=p60", "T p60=p61"} <= {str(m) for m in state.board_moves()}, "trades elsewhere: not legal"
    assert {"T p25=p60", "T p60=p61"} <= texts(setup(board, turn="red", roll=(1, 2))), "legal with a point spare"


def test_a_piece_moved_off_the_bridges_edge_frees_a_landing_for_the_way_out():
    # black's bridge out is the white p1-p5-p8, walled in by black; a black wall piece leaving
    # over the white ring (p13..p16) frees its place, and the centre piece lands there
    board = {"center": "black", "p1": "white", **dict.fromkeys(("p2", "p3", "p4", "p9", "p10", "p11", "p12"), "black"),
             **dict.fromkeys(("p5", "p6", "p7", "p8", "p13", "p14", "p15", "p16"), "white")}
    state = setup(board, roll=(1, 1))
    assert texts(state) == {f"O {wall}-{landing}" for wall, landings in (
        ("p9", ("p17", "p18", "p23", "p24")), ("p10", ("p17", "p18", "p19", "p20")),
        ("p12", ("p21", "p22", "p23", "p24"))) for landing in landings}
    state.apply("O p10-p19")
    assert texts(state) == {"O center-p10"}


def test_return_only_when_no_sequence_of_moves_within_the_points_empties_the_center_square():
    spoke_slides = {"S p1-p5", "S p1-p8", "S p1-p9", "S p2-p5", "S p2-p6", "S p2-p10",
                    "S p3-p6", "S p3-p7", "S p3-p11", "S p4-p7", "S p4-p8", "S p4-p12"}
    # a spoke end slides away (2), then the centre piece slides after it (2): 4 points
    assert texts(setup(BOXED, roll=(1, 2))) == spoke_slides | {"return"}
    assert texts(setup(BOXED, roll=(2, 2))) == spoke_slides
    state = setup(BOXED, roll=(2, 2))
    state.apply("S p1-p9")
    assert texts(state) == {"S center-p1"}


def test_a_piece_on_an_exit_point_cannot_open_the_way_for_another_player():
    # never traded, moved only by its owner: the white piece on p97 is no help to black
    assert "return" in texts(setup({**BOXED, "p97": "white"}, roll=(1, 2)))
    assert "return" not in texts(setup({**BOXED, "p33": "white"}, roll=(1, 2)))


def test_too_few_points_left_for_the_way_out_let_the_piece_return():
    # the only way out is a Slide (2 points); with 1 left any move may still be made, then return
    board = {"center": "black", "p1": "black", "p2": "black", "p3": "black", "p60": "white"}
    assert texts(setup(board, roll=(1, 2), budget=1)) == {"T p1=p60", "T p2=p60", "T p3=p60", "T p60=center",
                                                            "return"}


def test_a_move_onto_the_empty_center_square_needs_points_to_leave_it_again():
    board = {"p9": "white", "p1": "black"}
    assert "O p9-center" in texts(setup(board, roll=(1, 1)))
    assert "O p9-center" not in texts(setup(board, roll=(1, 1), budget=1))


def test_the_exit_that_wins_is_legal_with_the_center_square_occupied():
    # the game ends at once: no turn ends, so nothing is left to empty
    board = {"center": "white", "p97": "black"}
    assert "X p97" in texts(setup(board, roll=(1, 1), home={"black": 9}))
    assert "X p97" not in texts(setup(board, roll=(1, 1), home={"black": 8})), "the Slide out needs both points"
    state = setup(board, roll=(1, 1), home={"black": 9})
    state.apply("X p97")
    assert state.outcome().winners == (0,)


# -- moving the pieces ---------------------------------------------------------


def test_any_player_may_move_any_piece_not_on_an_exit_point():
    state = setup({"p9": "white", "p1": "red", "p20": "blue"}, turn="black", roll=(1, 1))
    assert "O p9-center" in texts(state)  # white's piece, over red, moved by black
    assert any(isinstance(m, Slide) and m.start == "p20" for m in state.legal_moves)  # blue's piece


def test_only_one_piece_rests_on_an_intersection():
    state = setup({"p9": "white", "p1": "red", "center": "blue"}, roll=(1, 1))
    destinations = {m.end for m in state.legal_moves if isinstance(m, (OverPassMove, Slide))}
    assert not destinations & {p for p, c in state.contents().items() if c}


def test_a_turn_may_mix_the_move_types_within_the_budget():
    state = setup({"p9": "white", "p1": "red", "p26": "blue", "p13": "black"}, roll=(2, 3))
    for move in ("O p9-center", "T p13=p26", "O center-p9", "S p13-p17"):
        state.apply(move)
    assert state.budget == 0
    assert texts(state) == {"end"}


# -- Over-Pass -----------------------------------------------------------------


def test_over_pass_goes_over_a_connected_bridge_in_any_direction_for_one_point():
    # p9 -> over p1 -> over center -> over p3 -> p11, and back the other way
    state = setup({"p9": "black", "p1": "white", "center": "red", "p3": "blue"}, roll=(1, 2))
    assert "O p9-p11" in texts(state)
    move = state.parse_move("O p9-p11")
    footprint = state.footprint(move)
    assert footprint.cost == 1
    assert footprint.before() == {"p9": "black", "p11": None}  # the bridge is not touched
    state.apply(move)
    assert state.budget == 2
    assert {p: c for p, c in state.contents().items() if c} == {
        "p11": "black", "p1": "white", "center": "red", "p3": "blue"}


def test_over_pass_may_change_direction_along_the_lines():
    # over p1 (horizontal spoke) then up the cover's side over p5 to p2
    state = setup({"p9": "black", "p1": "white", "p5": "red"}, roll=(1, 2))
    assert "O p9-p2" in texts(state)


def test_over_pass_never_passes_over_the_moving_pieces_own_colour():
    state = setup({"p9": "black", "p1": "black", "center": "red"}, roll=(1, 2))
    assert not over_passes_from(state, "p9") & {"O p9-center", "O p9-p3"}
    # the same bridge carries a white piece
    state = setup({"p9": "white", "p1": "black", "center": "red"}, roll=(1, 2))
    assert "O p9-p3" in texts(state)


def test_over_pass_never_passes_over_an_empty_intersection():
    # p1 occupied, center empty, p3 occupied: the move ends on center, never reaches p11
    state = setup({"p9": "black", "p1": "white", "p3": "red"}, roll=(1, 2))
    assert "O p9-center" in texts(state)
    assert "O p9-p11" not in texts(state)


def test_over_pass_needs_a_line_between_the_pieces_of_the_bridge():
    # p13 and p14 are close but no line joins them: the bridge stops at p13
    state = setup({"p9": "black", "p13": "white", "p14": "red"}, roll=(1, 2))
    assert "p14" not in state.game.tables.board.neighbours["p13"]
    assert over_passes_from(state, "p9") == {"O p9-p10", "O p9-p17", "O p9-p18"}


def test_an_over_pass_needs_at_least_one_piece_to_pass_over():
    state = setup({"p20": "black"}, roll=(1, 2))
    assert not any(isinstance(m, OverPassMove) for m in state.legal_moves)


def test_over_pass_onto_an_exit_point():
    # p89 -> over p97? no: p89's outward neighbours are exit points; from p73 over p89 onto p97
    state = setup({"p73": "black", "p89": "white"}, roll=(1, 2))
    assert {"O p73-p97", "O p73-p104"} <= texts(state)


def test_the_hidden_center_connects_along_the_hidden_spokes_only():
    board = OverPass().tables.board
    assert set(board.neighbours["center"]) == {"p1", "p2", "p3", "p4"}
    # a bridge over a corner of the cover (p5) leads around the centre, not into it
    assert over_passes_from(setup({"p9": "black", "p5": "white"}), "p9") == {"O p9-p1", "O p9-p2", "O p9-p10"}
    assert "O p9-center" in texts(setup({"p9": "black", "p1": "white"}))


def test_an_exit_point_piece_moves_only_by_its_owner():
    board = {"p97": "white", "p89": "red"}
    assert not over_passes_from(setup(board, turn="black", roll=(1, 2)), "p97")
    assert over_passes_from(setup(board, turn="white", roll=(1, 2)), "p97")


def test_an_exit_point_piece_over_passes_only_along_the_perimeter():
    # from p97 over p89: p104 is along the perimeter, p73 and p88 lead back inside
    state = setup({"p97": "white", "p89": "red"}, turn="white", roll=(1, 2))
    assert over_passes_from(state, "p97") == {"O p97-p104"}
    # the same bridge leads a piece off the perimeter inward
    assert over_passes_from(setup({"p104": "black", "p89": "red"}), "p104") == {"O p104-p97"}
    assert {"O p88-p73", "O p88-p97"} <= texts(setup({"p88": "black", "p89": "red"}))


def test_others_may_pass_over_a_piece_on_an_exit_point():
    state = setup({"p89": "black", "p97": "white"}, roll=(1, 2))
    assert "O p89-p90" in texts(state)


# -- Trade -----------------------------------------------------------------------


def test_trade_swaps_two_pieces_of_different_colours_for_one_point():
    # p13 rests on a 135-degree line only; p26 on 0, 90 and 135-degree lines
    state = setup({"p13": "black", "p26": "white"}, roll=(1, 2))
    move = state.parse_move("T p13=p26")
    assert isinstance(move, Trade)
    footprint = state.footprint(move)
    assert footprint.cost == 1
    assert footprint.after() == {"p13": "white", "p26": "black"}
    state.apply(move)
    assert state.budget == 2
    assert state.contents()["p13"] == "white"


def test_trade_needs_different_colours():
    assert not any(isinstance(m, Trade) for m in setup({"p13": "black", "p26": "black"}).legal_moves)


def test_trade_needs_separate_parallel_lines_through_both_pieces():
    # p13 (135 degrees only) and p9 (vertical only): no pair of parallel lines
    assert "T p9=p13" not in texts(setup({"p9": "black", "p13": "white"}))
    # p9 (vertical) and p17 (vertical and 135): vertical lines 13 and 1 are parallel
    assert "T p9=p17" in texts(setup({"p9": "black", "p17": "white"}))


def test_a_line_that_stops_at_a_piece_does_not_hold_it():
    # p13-p10 is a horizontal line ending at p13; p13 rests only on its 135-degree line
    board = OverPass().tables.board
    assert any(line.direction == 0 for line in board.lines_ending["p13"])
    # p10 rests on a horizontal line; p13 does not, and they share no other direction
    assert "T p10=p13" not in texts(setup({"p10": "black", "p13": "white"}))


def test_sharing_one_line_is_not_enough_to_trade():
    # p13 and p17 share the 135-degree line, but p13 rests on no other
    assert "T p13=p17" not in texts(setup({"p13": "black", "p17": "white"}))


def test_pieces_sharing_a_line_trade_when_they_also_rest_on_separate_parallel_lines():
    # p17 and p26 share the vertical line 1; their 135-degree lines 3 and 2 are parallel
    assert "T p17=p26" in texts(setup({"p17": "black", "p26": "white"}))


def test_trade_through_the_hidden_spokes():
    # center rests on both spokes; p2 on a horizontal line parallel to the horizontal spoke
    assert "T p2=center" in texts(setup({"center": "black", "p2": "white"}))


def test_a_trade_takes_the_movers_own_colour_out_of_a_bridge():
    # "If you want to use the Over-Pass move, but your own pieces are in the pathway, use a Trade"
    # three points: the Trade, the Over-Pass onto the centre, and one left to leave it again
    state = setup({"p9": "black", "p1": "black", "p26": "white"}, roll=(1, 2))
    assert "O p9-center" not in texts(state)
    state.apply("T p1=p26")
    assert "O p9-center" in texts(state)


def test_pieces_on_exit_points_are_never_traded_not_even_by_their_owner():
    board = {"p97": "black", "p89": "white", "p26": "red"}
    state = setup(board, turn="black")
    assert not any(isinstance(m, Trade) and "p97" in (m.a, m.b) for m in state.legal_moves)


# -- Slide ---------------------------------------------------------------------


def test_slide_goes_one_step_outward_onto_an_empty_intersection_for_two_points():
    state = setup({"p20": "black"}, roll=(1, 2))
    slides = {m.end for m in state.legal_moves if isinstance(m, Slide) and m.start == "p20"}
    board = state.game.tables.board
    assert slides == set(board.outward["p20"])
    assert all(board.radius(p) > board.radius("p20") for p in slides)
    move = state.parse_move(f"S p20-{min(slides)}")
    assert state.footprint(move).cost == 2
    state.apply(move)
    assert state.budget == 1
    assert not any(isinstance(m, Slide) for m in state.legal_moves), "a Slide costs 2, 1 is left"


def test_slide_never_onto_an_occupied_intersection_nor_inward():
    board = OverPass().tables.board
    blocker = board.outward["p20"][0]
    state = setup({"p20": "black", blocker: "black"}, roll=(1, 2))
    slides = {m.end for m in state.legal_moves if isinstance(m, Slide) and m.start == "p20"}
    assert blocker not in slides
    assert not slides & (set(board.neighbours["p20"]) - set(board.outward["p20"]))


def test_a_slide_that_an_over_pass_also_makes_is_left_to_the_cheaper_over_pass():
    # p9 to p5: adjacent outward? no, inward. Use p1 -> p9: adjacent outward and reachable over p5
    state = setup({"p1": "black", "p5": "white"}, roll=(1, 2))
    assert "O p1-p9" in texts(state)
    assert "S p1-p9" not in texts(state)
    with pytest.raises(IllegalMoveError, match="an Over-Pass makes the same move for 1 point: O p1-p9"):
        state.parse_move("S p1-p9")
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.parse_move("S p1-p5")
    assert "S p1-p8" in texts(state)


def test_pieces_on_exit_points_cannot_slide():
    state = setup({"p97": "black"}, roll=(1, 2))
    assert not any(isinstance(m, Slide) for m in state.legal_moves)


# -- Exit ----------------------------------------------------------------------


def test_exit_takes_the_movers_own_piece_to_the_home_pile_for_one_point():
    state = setup({"p97": "black", "p98": "white"}, roll=(2, 4))
    assert "X p97" in texts(state) and "X p98" not in texts(state)
    footprint = state.footprint(Exit("p97"))
    assert footprint.cost == 1 and footprint.after() == {"p97": None}
    state.apply("X p97")
    assert state.home["black"] == 1 and state.budget == 5


def test_exit_only_from_an_exit_point():
    assert not any(isinstance(m, Exit) for m in setup({"p89": "black"}, roll=(2, 4)).legal_moves)


def test_exit_needs_an_even_roll_while_any_reserve_is_not_empty():
    assert "X p97" not in texts(setup({"p97": "black"}, roll=(2, 3)))
    assert "X p97" in texts(setup({"p97": "black"}, roll=(1, 3)))  # even sum of odd dice
    # black's own reserve is empty, the others' are not: still only on an even roll
    state = setup({"p97": "black"}, roll=(2, 3), home={"black": 9})
    assert state.reserve["black"] == 0
    assert "X p97" not in texts(state)


def test_exit_on_any_roll_once_every_reserve_is_empty():
    board = {"p97": "black", "p3": "white", "p5": "red", "p7": "blue"}
    assert "X p97" in texts(setup(board, roll=(2, 3), reserves_empty=True))


def test_two_player_exit_only_the_colour_of_the_turn():
    state = setup({"p104": "black", "p98": "red", "p90": "white"}, players=2, roll=(2, 4))
    assert "X p104" in texts(state) and "X p98" not in texts(state)
    assert "O p98-p97" in texts(state), "the player's other colour still moves along the perimeter"


def test_first_to_exit_all_ten_wins_with_three_or_four_players():
    state = setup({"p97": "black"}, roll=(2, 4), home={"black": 9})
    state.apply("X p97")
    assert state.current_player == TERMINAL and not list(state.legal_moves)
    outcome = state.outcome()
    assert outcome.winners == (0,)
    assert outcome.returns == (1.0, -1 / 3, -1 / 3, -1 / 3)


def test_two_player_goal_one_colour():
    state = setup({"p97": "black", "p98": "red"}, players=2, roll=(2, 4), home={"black": 9})
    state.apply("X p97")
    assert state.outcome().winners == (0,)
    assert state.outcome().reason == "black and red exited every black piece"


def test_two_player_goal_both_colours():
    state = setup({"p97": "black", "p98": "red"}, players=2, goal="both", roll=(2, 4), home={"black": 9})
    state.apply("X p97")
    assert state.outcome() is None and state.home["black"] == 10
    state = setup({"p97": "black"}, players=2, goal="both", roll=(2, 4), home={"black": 9, "red": 10})
    state.apply("X p97")
    assert state.outcome().winners == (0,)
