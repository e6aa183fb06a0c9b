"""Over-Pass Spiral: Over-Pass moves that remove the last piece passed over; the spiral from data; the solver."""

import json
import random
from pathlib import Path

import pytest

from engine import TERMINAL, new_game, state_from_json
from engine.games.overpass_spiral import OverPassSpiral
from engine.solvers import overpass_spiral as spiral_solver
from engine.solvers import solver

RECORDS = Path(__file__).parent.parent / "data" / "overpass_spiral"


def position(*pieces):
    return OverPassSpiral().state_from_position({"pieces": list(pieces)})


def moves_from(state, start):
    return sorted(str(m) for m in state.legal_moves if m.start == start)


def replay(state, moves):
    for move in moves:
        state.apply(move)
    return state


def test_all_40_pieces_start_in_the_spiral_with_the_centre_empty():
    state = new_game("overpass-spiral")
    pieces = state.position()["pieces"]
    assert len(pieces) == 40 and "center" not in pieces
    assert "p1" in pieces  # the spiral starts beside the Center Square


def test_a_piece_passes_over_a_chain_of_pieces_to_the_first_empty_intersection_and_the_last_one_goes():
    state = position("p11", "p3", "center", "p1")  # a chain along the hidden spoke under the Center Square
    assert "p11>p1>p9" in moves_from(state, "p11")
    state.apply("p11>p1>p9")
    assert state.position() == {"pieces": ["p3", "p9", "center"]}  # only the last piece passed over is removed


def test_the_bridge_may_turn_along_the_lines():
    state = position("p9", "p1", "p4")  # p4 is not next to p1: the bridge is p1 alone
    assert moves_from(state, "p9") == ["p9>p1>center", "p9>p1>p5", "p9>p1>p8"]
    state = position("p9", "p1", "center", "p4")
    assert "p9>p4>p12" in moves_from(state, "p9")  # over p1, turn at the covered centre, over p4


def test_the_move_ends_at_the_first_empty_intersection_never_passing_over_one():
    state = position("p9", "p1")
    assert all(m.to in ("p5", "p8", "center") for m in state.legal_moves if m.start == "p9")


def test_each_possible_last_piece_is_its_own_move():
    state = position("p9", "p5", "p1", "p2")  # center is next to both p1 and p2
    assert {"p9>p1>center", "p9>p2>center"} <= set(moves_from(state, "p9"))


def test_a_piece_on_an_exit_point_keeps_to_the_perimeter():
    state = position("p97", "p89")
    assert moves_from(state, "p97") == ["p97>p89>p104"]
    assert "p89>p97>p90" in moves_from(state, "p89")


def test_no_move_without_a_piece_to_pass_over():
    state = position("p1", "p3")
    assert state.current_player == TERMINAL and state.outcome().winners == ()


def test_one_piece_left_anywhere_meets_the_challenge_and_in_the_centre_is_the_ideal():
    solved = position("center")
    assert solved.outcome().winners == (0,) and solved.outcome().returns == (1.0,)
    elsewhere = position("p40")
    assert elsewhere.outcome().winners == (0,) and elsewhere.outcome().returns == (0.5,)
    assert "not in the centre" in elsewhere.outcome().reason


def test_footprint_moves_one_piece_and_removes_the_last_passed():
    state = position("p11", "p3", "center", "p1")
    footprint = state.footprint(next(m for m in state.legal_moves if str(m) == "p11>p1>p9"))
    assert footprint.after() == {"p11": None, "p1": None, "p9": "piece"}


def test_random_play_keeps_the_invariants():
    game = OverPassSpiral()
    rng = random.Random(3)
    for _ in range(4):
        state = game.new_initial_state()
        count = 40
        while not state.is_terminal():
            move = rng.choice(list(state.legal_moves))
            before, snapshot = state.contents(), state.position()
            footprint = state.footprint(move)
            state.push(move)
            assert {k: v for k, v in state.contents().items() if before[k] != v} == footprint.after()
            count -= 1
            assert len(state.position()["pieces"]) == count
            state.pop()
            assert state.position() == snapshot
            state.push(move)
        assert state_from_json(state.to_json()).position() == state.position()
        assert state.outcome() is not None


def test_the_registry_finds_the_solver():
    assert solver("overpass-spiral") is spiral_solver.solve


def test_solver_small_instance_reaches_the_centre():
    state = position("p11", "p3", "center", "p1")
    solution = spiral_solver.solve(time_limit=5, state=state)
    assert solution.solved and len(solution.moves) == 3
    assert replay(state, solution.moves).position() == {"pieces": ["center"]}


def test_solver_proves_when_one_piece_can_never_reach_the_centre():
    solution = spiral_solver.solve(time_limit=5, state=position("p97", "p89"))
    assert not solution.solved and len(solution.moves) == 1
    assert solution.explanation.startswith("one piece can be left, but never in the centre")


def test_the_last_piece_can_end_in_the_centre_and_the_solver_says_so_from_the_line_that_ships():
    solution = spiral_solver.solve(time_limit=0.0)
    assert solution.solved and "lines.json" in solution.explanation
    assert replay(new_game("overpass-spiral"), solution.moves).position() == {"pieces": ["center"]}
    record = json.loads((RECORDS / "one_piece_in_the_centre.json").read_text())
    assert solution.moves == record["moves"]


def test_solver_on_the_spiral_returns_playable_moves_within_the_time_limit():
    start = new_game("overpass-spiral")
    start.apply("p1>p5>p2")  # off the line that ships: the solver searches
    solution = spiral_solver.solve(time_limit=1.0, state=start.clone())
    state = replay(start, solution.moves)
    assert len(state.position()["pieces"]) == 39 - len(solution.moves)
    assert solution.solved or "search not finished" in solution.explanation


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.json")), ids=lambda p: p.stem)
def test_golden_records_replay(path):
    record = json.loads(path.read_text())
    state = replay(OverPassSpiral(**record["options"]).new_initial_state(), record["moves"])
    assert state.position() == record["final_position"]
