"""The C listing of the Over-Pass Spiral's moves (engine/games/_spiral_fast.c) against ``steps``,
the definition, over many positions: the same moves in the same order."""

import random

import pytest

from engine.games.overpass_spiral import OverPassSpiral, fast_spiral

pytestmark = pytest.mark.skipif(
    fast_spiral("overpass") is None,
    reason="engine/games/_spiral_fast.c was not built (no C compiler or Python headers at install): "
           "the engine lists the Spiral's moves in Python alone")


def test_random_boards_and_played_positions_list_the_steps_in_order():
    game, rng = OverPassSpiral(), random.Random("spiral fast")
    masks = [sum(1 << i for i in rng.sample(range(len(game.locations)), rng.randint(1, 90))) for _ in range(800)]
    state = game.new_initial_state()
    for _ in range(800):  # whole games: pieces on the exits, lone pieces, the end
        if state.is_terminal():
            state = game.new_initial_state()
        masks.append(state.mask)
        state.push(state.random_move(rng))
    assert any(mask & game.exit_mask for mask in masks)
    for mask in masks:
        assert game.moves(mask) == [game.move_of(step) for step in game.steps(mask)], sorted(
            game.locations[i] for i in range(len(game.locations)) if mask >> i & 1)


def test_the_c_listing_refuses_a_board_it_cannot_hold():
    with pytest.raises(ValueError, match="at most 128 intersections"):
        type(fast_spiral("overpass"))(near=[[]] * 129, perimeter=[[]] * 129, exits=[], make=print)
