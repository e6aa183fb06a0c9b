"""Players to measure the computer against: one that plays at random, one greedy for a single move."""

from __future__ import annotations

import random

from engine.ai import hidden
from engine.ai.evaluate import evaluate
from engine.core import Move, State


class RandomPlayer:
    """Any legal move, drawn with ``state.random_move``."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return state.random_move(self.rng)


class GreedyPlayer:
    """The move whose position the evaluation likes best for the mover, one move ahead (ties at random).

    Where the rules hide values it judges a position sampled from what its seat can see.
    """

    def __init__(self, seed: int = 0) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        player = state.current_player
        if hidden.hides_values(state):
            state = hidden.sample(state, player, self.rng)
        best: list[Move] = []
        best_value = -2.0
        for move in state.legal_moves:
            state.push(move)
            value = evaluate(state)[player]
            state.pop()
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return self.rng.choice(best)
