"""Positions of random play: what the computer's tests and benchmarks search from, the same for both."""

from __future__ import annotations

import random
from typing import Any

from engine.core import State
from engine.registry import new_game


def random_position(name: str, options: dict[str, Any], plies: int, seed: int) -> State:
    """A position of ``name`` after ``plies`` random moves (fewer if the game ends), at a player's decision (dice
    rolled), the same for the same ``seed``."""
    rng = random.Random(seed)
    state = new_game(name, **options)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.push(state.random_move(rng))
    while state.is_chance_node():
        state.push(state.random_move(rng))
    return state
