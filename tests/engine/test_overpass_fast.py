"""The C listing of Over-Pass turn moves (engine/games/_overpass_fast.c) against the Python rules,
which are the definition (``OverPassState.turn_moves_by_the_rules``, and a piece's moves by
``moves_keeping_a_plan``), over many positions."""

import random

import pytest

from engine.games.overpass import OverPass
from engine.games.overpass_centre import clearing_plan, moves_keeping_a_plan
from engine.games.overpass_moves import MOVE
from engine.games.overpass_tables import fast_core

pytestmark = pytest.mark.skipif(
    fast_core("overpass") is None,
    reason="engine/games/_overpass_fast.c was not built (no C compiler or Python headers at install): "
           "the engine lists Over-Pass moves by its Python rules alone")

CONFIGS = [(2, "one"), (2, "both"), (3, "one"), (4, "one")]
PLIES = 1000


def agree(state):
    """The same moves both ways in the same order, and the same moves of each piece (a playout's
    random move); each way with its own memo of what the search proved."""
    state.clearing_bounds = {}
    fast = [str(m) for m in state._turn_moves()]
    moves_of = state._moves_of_a_piece()
    pieces = {point: moves_of(point) for point in state._movable()[::6]}  # a few pieces: the reference is slow
    state.clearing_bounds = {}
    rules = [str(m) for m in state.turn_moves_by_the_rules()]
    assert fast == rules, state.position()  # in the same order: a seeded game plays the same moves
    plan = clearing_plan(state, state.budget)
    for point, moves in pieces.items():
        by_the_rules = None if plan is None else moves_keeping_a_plan(state, state.board_moves((point,)), plan)
        assert (moves is None) == (by_the_rules is None), (point, state.position())
        assert list(map(str, moves or [])) == list(map(str, by_the_rules or [])), (point, state.position())


@pytest.mark.parametrize("players, goal", CONFIGS)
def test_random_play_lists_the_same_moves_in_c_as_by_the_rules(players, goal):
    """Exits taken half the time when offered, so games reach their empty reserves and their end."""
    rng = random.Random(f"fast {players} {goal}")
    game = OverPass(players=players, goal=goal)
    state, listed, ends = game.new_initial_state(), 0, 0
    for _ in range(PLIES):
        if state.is_terminal():
            state, ends = game.new_initial_state(), ends + 1
        if state.is_chance_node():
            state.push(state.random_move(rng))
            continue
        if state.phase == MOVE:
            agree(state)
            listed += 1
        moves = list(state.legal_moves)
        exits = [m for m in moves if str(m).startswith("X ")]
        state.push(rng.choice(exits) if exits and rng.random() < 0.5 else rng.choice(moves))
    assert listed > PLIES // 3


def test_crowded_boards_with_few_points_left_list_the_same_moves_and_returns():
    """Random boards of 16 to 38 pieces, the Center Square taken, 0 to 4 points left: the search
    for the way out fails as often as it succeeds."""
    rng = random.Random("crowded")
    game = OverPass(players=4)
    points = [p for p in game.tables.points if p != "center"]
    returns = 0
    for _ in range(150):
        turn = rng.choice(game.turn_colours)
        pool = [c for c in game.turn_colours for _ in range(game.layout.pieces_per_colour)]
        pool.remove(turn)
        rng.shuffle(pool)
        spots = rng.sample(points, rng.randint(16, 38))
        board = dict(zip(spots, pool)) | {"center": turn}
        on_board = {c: list(board.values()).count(c) for c in game.turn_colours}
        roll = sorted((rng.randint(1, 6), rng.randint(1, 6)))
        state = game.state_from_position({
            "turn": turn, "phase": "move", "roll": roll, "budget": rng.randint(0, min(4, sum(roll))), "board": board,
            "reserve": {c: game.layout.pieces_per_colour - on_board[c] for c in game.turn_colours},
            "home": dict.fromkeys(game.turn_colours, 0)})
        agree(state)
        returns += "return" in map(str, state.legal_moves)
    assert 15 < returns < 135, f"both kinds of position are tried: {returns} returns in 150"


def test_the_c_listing_refuses_a_board_of_the_wrong_size():
    with pytest.raises(ValueError, match="105 cells"):
        fast_core("overpass").turn_moves(b"\0" * 3, b"\0\1", 1, 5, True, 10, {})
