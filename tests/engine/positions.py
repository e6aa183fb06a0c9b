"""Positions of random play for the tests of the computer and its baselines."""

from __future__ import annotations

import random

from engine import new_game
from engine.core import State


def random_position(name: str, options: dict, plies: int, seed: int) -> State:
    """A position after ``plies`` random moves, at a player's decision (dice rolled)."""
    rng = random.Random(seed)
    state = new_game(name, **options)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.push(state.random_move(rng))
    while state.is_chance_node():
        state.push(state.random_move(rng))
    return state
