"""Random playouts of every registered game, checking the engine's contract on every state.

In the spirit of OpenSpiel's RandomSimTest: one generic test that each new game gets
for free.  Game modules add their own rule-specific invariants in their own tests.
"""

import random

import pytest

from engine import CHANCE, TERMINAL, Footprint, PositionError, available_games, state_from_json

GAMES = available_games()
#: Every state is checked in full, so the budget is in games and states; each game's own tests play thousands more.
GAMES_PER_GAME = 12
STATES_PER_GAME = 2500
MOVE_CAP = 1500


def check_state(state, rng: random.Random) -> None:
    """The contract every state keeps, whatever the game."""
    moves = list(state.legal_moves)
    player = state.current_player
    assert player in (CHANCE, TERMINAL) or 0 <= player < state.game.num_players
    assert state.is_terminal() == (not moves), "terminal exactly when no move is legal"
    if state.is_terminal():
        assert state.outcome() is not None
    else:
        assert state.outcome() is None
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert sorted(map(str, (m for m, _ in outcomes))) == sorted(map(str, moves))
    assert set(state.contents()) == set(state.game.locations)

    copy = state_from_json(state.to_json())
    assert copy.position() == state.position()
    assert copy.contents() == state.contents()
    assert sorted(map(str, copy.legal_moves)) == sorted(map(str, moves))
    assert copy.current_player == player

    texts = [str(m) for m in moves]
    assert len(set(texts)) == len(texts), "two legal moves share a notation"
    for move in rng.sample(moves, min(len(moves), 6)):
        assert state.parse_move(str(move)) == move
        before, position = state.contents(), state.position()
        footprint = state.footprint(move)
        state.push(move)
        assert set(Footprint.between(before, state.contents()).changes) == set(footprint.changes), (
            f"footprint of {move} differs from the change it makes")
        state.pop()
        assert state.position() == position, f"pop after {move} did not restore the position"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts_keep_the_contract(name):
    rng = random.Random(name)
    game = GAMES[name]()
    checked = 0
    for _ in range(GAMES_PER_GAME):
        if checked >= STATES_PER_GAME:
            break
        state = game.new_initial_state()
        for _ in range(MOVE_CAP):
            check_state(state, rng)
            checked += 1
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply(rng.choices(outcomes, weights)[0])
            else:
                state.apply(rng.choice(list(state.legal_moves)))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_position_with_a_key_the_game_does_not_take_is_refused_naming_the_keys_it_takes(name):
    game = GAMES[name]()
    saved = game.new_initial_state().to_json()
    position = saved["position"]
    keys = ", ".join(position)
    # the audit's case: the board given under another name was read as an empty board
    for wrong in ({**position, "cells": next(iter(position.values()))}, {"cells": next(iter(position.values()))}):
        with pytest.raises(PositionError, match=f"{name} position: unknown key 'cells'; it takes {keys}$"):
            game.state_from_position(wrong)
    with pytest.raises(PositionError, match="saved position: unknown key 'cells'; it takes game, options, position"):
        state_from_json({**saved, "cells": position})
    with pytest.raises(PositionError, match=f"{name} position: give an object with the keys {keys}$"):
        game.state_from_position(list(position))
    assert game.position_keys == tuple(position), "position_keys lists what position() writes"
