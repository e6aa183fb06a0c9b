"""Mono-Line: placement, blocking along drawn lines, the three modes, claims and the end."""

import json
import random
from pathlib import Path

import pytest

from engine import TERMINAL, IllegalMoveError, PositionError, state_from_json
from engine.games.mono_line import Claim, EndTurn, MonoLine, Place, TakeBack
from engine.games.pieces import seats

RECORDS = Path(__file__).parent.parent / "data" / "mono_line"


def setup(mode="strict", pieces=None, to_move=0, **extra):
    return MonoLine(mode=mode).state_from_position({"pieces": pieces or {}, "to_move": to_move, **extra})


def test_pieces_go_on_the_104_drawn_intersections_not_the_covered_centre():
    state = MonoLine().new_initial_state()
    assert len(state.game.locations) == 104 and "center" not in state.game.locations
    assert len(state.legal_moves) == 104 * 2  # every intersection, in either of the player's colours
    with pytest.raises(IllegalMoveError):
        state.apply("black@center")


def test_an_intersection_on_a_line_with_an_opponent_piece_is_refused_with_the_reason():
    state = setup(pieces={"p5": "black"}, to_move=1)
    with pytest.raises(IllegalMoveError, match="p1 shares a line with black at p5"):
        state.apply("white@p1")  # p5-p1-p8 is a drawn line
    assert Place("white", "p1") not in state.legal_moves


def test_lines_are_the_drawn_ones_so_the_hidden_spokes_connect_nothing():
    # p1 and p3 lie on the spoke under the Center Square, which is not drawn.
    state = setup(pieces={"p1": "black"}, to_move=1)
    state.apply("white@p3")
    assert state.position()["pieces"] == {"p1": "black", "p3": "white"}


def test_a_line_connects_its_far_ends():
    state = setup(pieces={"p42": "white"}, to_move=0)  # the line p42 p26 p18 p19 p28 p47
    with pytest.raises(IllegalMoveError, match="p47 shares a line with white at p42"):
        state.apply("black@p47")


def test_an_intersection_far_from_every_opponent_line_is_open():
    state = setup(pieces={"p5": "black"}, to_move=1)
    state.apply("blue@p7")  # no drawn line joins p5 and p7
    assert state.current_player == 0


def test_a_player_may_share_lines_with_their_own_other_colour_and_need_not_alternate():
    state = setup(pieces={"p5": "black", "p104": "white"}, to_move=0)
    state.apply("red@p1")
    state.apply("white@p97")
    state.apply("red@p8")
    assert state.position()["pieces"]["p8"] == "red"


def test_each_colour_has_ten_pieces():
    ten_black = {p: "black" for p in ("p97", "p98", "p99", "p100", "p101", "p102", "p103", "p104", "p89", "p90")}
    state = setup(pieces=ten_black)
    assert {m.colour for m in state.legal_moves if isinstance(m, Place)} == {"red"}
    with pytest.raises(PositionError, match="11 black pieces"):
        setup(pieces={**ten_black, "p93": "black"})


def test_pieces_never_move_and_turns_alternate():
    state = MonoLine().new_initial_state()
    state.apply("black@p1")
    assert state.current_player == 1
    assert all(isinstance(m, Place) and m.point != "p1" for m in state.legal_moves)


def test_the_player_who_cannot_place_loses():
    state = MonoLine().new_initial_state()
    rng = random.Random(4)  # a game that ends with the loser still holding pieces
    while not state.is_terminal():
        state.apply(rng.choice(list(state.legal_moves)))
    loser = state.to_move
    assert any(state.supply(c) for c in seats(2)[loser])
    pieces = state.position()["pieces"]
    for point in set(state.game.locations) - set(pieces):  # checked from the drawn lines, not the bitsets
        assert any(point in line.points and any(pieces.get(q) in seats(2)[1 - loser] for q in line.points)
                   for line in state.game.board.drawn_lines), f"{point} was open"
    outcome = state.outcome()
    assert outcome.winner == 1 - loser and "cannot place" in outcome.reason


def test_a_player_without_pieces_left_cannot_place():
    black = ["p97", "p98", "p99", "p100", "p101", "p102", "p103", "p104", "p89", "p90",
             "p91", "p92", "p93", "p94", "p95", "p96", "p73", "p74", "p75", "p76"]
    state = setup(pieces={p: ("black" if i < 10 else "red") for i, p in enumerate(black)})
    assert state.current_player == TERMINAL
    assert state.outcome().winner == 1


def test_strict_mode_never_lets_opposing_pieces_share_a_line():
    with pytest.raises(PositionError, match="mode=faithful"):
        setup(pieces={"p5": "black", "p1": "white"})
    state = MonoLine().new_initial_state()
    rng = random.Random(11)
    while not state.is_terminal():
        assert Claim() not in state.legal_moves
        state.apply(rng.choice(list(state.legal_moves)))
        assert not state.conflict()


def test_faithful_mode_lets_a_blocked_placement_stand_and_the_opponent_claims_the_win():
    state = setup("faithful", pieces={"p5": "black"}, to_move=1)
    state.apply("white@p1")
    assert state.current_player == 0
    assert Claim() in state.legal_moves
    state.apply("claim")
    assert state.is_terminal()
    assert state.outcome().winner == 0 and "sharing a line" in state.outcome().reason


def test_a_claim_is_made_before_placing_so_a_missed_one_passes_to_the_other_player():
    state = setup("faithful", pieces={"p5": "black"}, to_move=1)
    state.apply("white@p1")
    state.apply("black@p97")  # black did not notice
    assert state.current_player == 1 and Claim() in state.legal_moves  # the first to notice wins
    state.apply("claim")
    assert state.outcome().winner == 1


def test_no_claim_without_two_opposing_pieces_on_a_line():
    state = setup("faithful", pieces={"p5": "black", "p7": "white"})
    assert Claim() not in state.legal_moves


def test_friendly_mode_warns_and_holds_the_piece_until_taken_back_or_the_turn_is_ended():
    state = setup("friendly", pieces={"p5": "black"}, to_move=1)
    assert state.warning(Place("white", "p1")) == "p1 shares a line with black at p5: it belongs to black and red"
    assert state.warning(Place("white", "p7")) is None
    state.apply("white@p1")
    assert state.current_player == 1
    assert sorted(map(str, state.legal_moves)) == ["end", "lift p1"]
    state.apply("lift p1")
    assert "p1" not in state.position()["pieces"] and state.current_player == 1
    state.apply("white@p1")
    state.apply("end")
    assert state.current_player == 0 and Claim() in state.legal_moves


def test_an_open_placement_in_friendly_mode_ends_the_turn_at_once():
    state = setup("friendly", pieces={"p5": "black"}, to_move=1)
    state.apply("white@p7")
    assert state.current_player == 0 and state.pending is None


def test_button_moves_have_empty_footprints():
    state = setup("friendly", pieces={"p5": "black"}, to_move=1)
    state.apply("white@p1")
    assert state.footprint(EndTurn()).changes == () and EndTurn.button == "end_turn"
    assert state.footprint(TakeBack("p1")).after() == {"p1": None}
    assert Claim.button == "confirm" and state.footprint(Claim()).changes == ()


def test_a_placement_footprint_is_the_colour_appearing():
    state = MonoLine().new_initial_state()
    assert state.footprint(Place("red", "p40")).after() == {"p40": "red"}
    assert state.footprint(Place("red", "p40")).before() == {"p40": None}


@pytest.mark.parametrize("bad, message", [
    ({"pieces": {"center": "black"}}, "not an intersection"),
    ({"pieces": {"p1": "green"}}, "colours are"),
    ({"pieces": [], "to_move": 0}, "must map intersections"),
    ({"to_move": 2}, "must be 0 or 1"),
    ({"claimed_by": 5}, "claimed_by"),
    ({"pieces": {"p1": "black"}, "pending": "p1"}, "friendly mode only"),
])
def test_bad_positions_are_refused_with_the_reason(bad, message):
    with pytest.raises(PositionError, match=message):
        MonoLine().state_from_position(bad)


@pytest.mark.parametrize("mode", ["strict", "faithful", "friendly"])
def test_random_games_keep_the_invariants(mode):
    game = MonoLine(mode=mode)
    rng = random.Random(mode)
    for _ in range(15):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert state.current_player in (0, 1)  # never a chance node: no dice
            moves = list(state.legal_moves)
            move = rng.choice(moves)
            before, position = state.contents(), state.position()
            footprint = state.footprint(move)
            state.push(move)
            changed = {k: v for k, v in state.contents().items() if before[k] != v}
            assert footprint.after() == changed
            copy = state_from_json(json.loads(json.dumps(state.to_json())))
            assert copy.position() == state.position() and copy.sight == state.sight
            state.pop()
            assert state.position() == position
            state.push(move)
        assert state.outcome() is not None
        assert sum(1 for c in state.board if c) <= 40


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.json")), ids=lambda p: p.stem)
def test_golden_records_replay(path):
    record = json.loads(path.read_text())
    state = MonoLine(**record["options"]).new_initial_state()
    for text in record["moves"]:
        state.apply(text)
    assert state.position() == record["final_position"]
    assert state.outcome().winners == tuple(record["winners"])


def test_the_whose_turn_light_shows_a_colour_of_the_player_to_move_with_pieces_left():
    state = MonoLine().new_initial_state()
    assert state.turn_piece() == "black"
    state.apply("black@p97")
    assert state.turn_piece() == "white"
    ten_white = {p: "white" for p in ("p98", "p99", "p100", "p101", "p102", "p103", "p104", "p89", "p90", "p91")}
    assert setup(pieces=ten_white, to_move=1).turn_piece() == "blue"
