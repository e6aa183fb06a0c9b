"""Crooked Jumps: single jumps that may turn corners, removal, the centre goal, layouts from data."""

import json
import random

import pytest

from engine import TERMINAL, OptionError, PositionError, state_from_json
from engine.games import removal_puzzle
from engine.games.crooked_jumps import CrookedJumps
from engine.games.removal_puzzle import PIECE, Capture, LayoutFileError, RemovalPuzzle, load_layout


def position(*pieces, **options):
    return CrookedJumps(**options).state_from_position({"pieces": list(pieces)})


def moves(state):
    return sorted(map(str, state.legal_moves))


def test_standard_layout_is_16_pieces_on_the_three_small_squares_with_the_centre_empty():
    state = CrookedJumps().new_initial_state()
    assert sorted(state.position()["pieces"], key=lambda p: int(p[1:])) == [f"p{i}" for i in range(1, 17)]
    assert state.contents()["center"] is None


def test_a_piece_jumps_over_an_adjacent_piece_onto_the_empty_intersection_beyond_and_removes_it():
    state = position("p9", "p1")  # p9-p1-center is a line (through the covered centre)
    assert "p9>p1>center" in moves(state)
    state.apply("p9>p1>center")
    assert state.position() == {"pieces": ["center"]}


def test_a_jump_may_turn_a_corner_at_the_jumped_piece_following_the_lines():
    state = position("p5", "p1")  # p5-p1 runs vertically, p1-p9 and p1-center horizontally
    assert moves(state) == ["p1>p5>p10", "p1>p5>p2", "p1>p5>p9", "p5>p1>center", "p5>p1>p8", "p5>p1>p9"]
    straight = position("p5", "p1", jumps="straight")
    assert moves(straight) == ["p5>p1>p8"]  # the vertical line ends at p5: no straight jump over it


def test_only_one_piece_is_jumped_at_a_time_never_two_adjacent_ones():
    state = position("p9", "p1", "center")  # in line: p9, p1, center, then p3 empty
    assert sorted(str(m) for m in state.legal_moves if m.start == "p9") == ["p9>p1>p5", "p9>p1>p8"]


def test_a_jump_lands_only_on_an_empty_intersection_and_never_back_on_its_start():
    state = position("p9", "p1", "p3")
    assert all(m.to not in ("p9", "p1", "p3") for m in state.legal_moves)


def test_chains_are_jumps_in_turn_by_the_same_piece():
    state = position("p9", "p1", "p2", "p13")
    state.apply("p9>p1>center")
    state.apply("center>p2>p10")  # the same piece jumps on, turning the corner under the Center Square
    assert state.position() == {"pieces": ["p10", "p13"]}


def test_one_piece_left_in_the_centre_solves_the_puzzle():
    state = position("p9", "p1")
    state.apply("p9>p1>center")
    assert state.current_player == TERMINAL
    assert state.outcome().winners == (0,) and "in the centre" in state.outcome().reason


def test_one_piece_left_elsewhere_or_a_stuck_board_does_not():
    assert position("p9").outcome().winners == ()
    stuck = position("p97", "p104")
    assert stuck.current_player == TERMINAL and "2 pieces" in stuck.outcome().reason


def test_a_jump_footprint_lifts_two_pieces_and_sets_one_down():
    state = position("p9", "p1")
    footprint = state.footprint(Capture("p9", "center", "p1"))
    assert footprint.before() == {"p9": PIECE, "p1": PIECE, "center": None}
    assert footprint.after() == {"p9": None, "p1": None, "center": PIECE}


def test_the_board_has_eight_symmetries_found_from_the_coordinates():
    game = CrookedJumps()
    assert len(game.symmetries) == 8
    centre = game.index["center"]
    assert all(perm[centre] == centre for perm in game.symmetries)


@pytest.mark.parametrize("bad, message", [
    ({"pieces": "p1"}, "a position is"),
    ({"pieces": ["p105"]}, "not an intersection"),
    ({"pieces": ["p1", "p1"]}, "listed twice"),
])
def test_bad_positions_are_refused(bad, message):
    with pytest.raises(PositionError, match=message):
        CrookedJumps().state_from_position(bad)


def test_an_unknown_layout_names_the_ones_there_are():
    with pytest.raises(OptionError, match="layouts: standard, ring"):
        CrookedJumps(layout="diagram")


def test_layout_file_errors_name_the_file_the_piece_and_the_fix(tmp_path, monkeypatch):
    board = CrookedJumps().line_board
    monkeypatch.setattr(removal_puzzle, "DATA", tmp_path)
    (tmp_path / "bad.json").write_text('{"layouts": {"a": {"pieces": [[1, 0], [0.5, 0.5]]}}}')
    with pytest.raises(LayoutFileError, match=r"bad.json: layout 'a', piece 2 at \[0.5, 0.5\]: no intersection"):
        load_layout("bad.json", "a", board)
    (tmp_path / "broken.json").write_text('{"layouts": {\n  "a": [}}')
    with pytest.raises(LayoutFileError, match=r"broken.json:2:\d+: not valid JSON"):
        load_layout("broken.json", "a", board)
    (tmp_path / "twice.json").write_text('{"layouts": {"a": {"pieces": [[1, 0], [1.0000001, 0]]}}}')
    with pytest.raises(LayoutFileError, match="two pieces on p1"):
        load_layout("twice.json", "a", board)


@pytest.mark.parametrize("options", [{}, {"jumps": "straight"}, {"layout": "ring"}])
def test_random_play_keeps_the_invariants(options):
    game = CrookedJumps(**options)
    rng = random.Random(json.dumps(options))
    for _ in range(30):
        state = game.new_initial_state()
        count = len(state.position()["pieces"])
        while not state.is_terminal():
            move = rng.choice(list(state.legal_moves))
            before, snapshot = state.contents(), state.position()
            footprint = state.footprint(move)
            state.push(move)
            assert {k: v for k, v in state.contents().items() if before[k] != v} == footprint.after()
            state.pop()
            assert state.position() == snapshot
            state.push(move)
            assert len(state.position()["pieces"]) == count - 1  # every jump removes exactly one piece
            count -= 1
            assert state_from_json(json.loads(json.dumps(state.to_json()))).position() == state.position()
        assert state.outcome() is not None


@pytest.mark.parametrize("jumps", ["crooked", "straight"])
def test_the_flat_listing_finds_the_jumps_of_each_piece_in_order(jumps):
    game, rng = CrookedJumps(jumps=jumps), random.Random(jumps)
    for _ in range(300):
        mask = sum(1 << i for i in rng.sample(range(len(game.locations)), rng.randint(1, 90)))
        assert list(game.steps(mask)) == list(RemovalPuzzle.steps(game, mask))
