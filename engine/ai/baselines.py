"""Players to measure the computer against: one that plays at random, one greedy for its own turn."""

from __future__ import annotations

import random

from engine.ai import hidden
from engine.ai.evaluate import evaluate
from engine.core import Move, State

#: Positions the greedy player may evaluate for one decision: it looks as deep into its own turn as fits.
GREEDY_BUDGET = 4000


class RandomPlayer:
    """Any legal move, drawn with ``state.random_move``."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        return state.random_move(self.rng)


class GreedyPlayer:
    """The move after which the evaluation likes the mover's position best at the end of its own turn
    (ties at random).

    A turn may be several plies of one player (Square Off's capture after a mill, Over-Pass's
    steps under one roll): one ply ahead would see nothing of a capture, so the player looks
    through its own consecutive plies, taking the best of its continuations, as deep as
    ``budget`` evaluated positions allow (the whole turn where it fits; a depth is used only if
    every move was looked at to it).  Where the rules hide values it judges a position sampled
    from what its seat can see.  ``decisions`` and ``told_apart`` count its decisions with more
    than one move and those where its values did not tie every move.
    """

    def __init__(self, seed: int = 0, budget: int = GREEDY_BUDGET) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)
        self.budget = budget
        self.decisions = 0
        self.told_apart = 0

    def choose(self, state: State) -> Move:
        player = state.current_player
        if hidden.hides_values(state):
            state = hidden.sample(state, player, self.rng)
        moves = list(state.legal_moves)
        values = turn_values(state, moves, self.budget)
        best_value = max(values)
        best = [move for move, value in zip(moves, values) if value == best_value]
        if len(moves) > 1:
            self.decisions += 1
            self.told_apart += len(best) < len(moves)
        return self.rng.choice(best)


class _OutOfBudget(Exception):
    pass


def turn_values(state: State, moves: list[Move], budget: int) -> list[float]:
    """Each move's value to the player to move at the end of its turn (the best of its own continuations),
    looked at one ply deeper at a time while the whole depth fits in ``budget`` evaluations (a depth
    whose estimate, every cut-off position branching as the first, does not fit is not tried)."""
    player = state.current_player
    values: list[float] = []
    depth = 0
    while True:
        left, cut = [budget], [0]
        try:
            deeper = [_value_after(state, move, player, depth, left, cut) for move in moves]
        except _OutOfBudget:
            return values or deeper_than_budget(state, moves, player)
        values = deeper
        used = budget - left[0]
        if not cut[0] or used - cut[0] + cut[0] * len(moves) > budget:
            return values
        depth += 1


def deeper_than_budget(state: State, moves: list[Move], player: int) -> list[float]:
    """One ply ahead, whatever the budget: a player always has a value for each move."""
    return [_value_after(state, move, player, 0, [len(moves)], [0]) for move in moves]


def _value_after(state: State, move: Move, player: int, depth: int, left: list[int], cut: list[int]) -> float:
    """The value after ``move`` at the end of the turn, or ``depth`` plies on (counting those ``cut`` there)."""
    state.push(move)
    try:
        if state.current_player != player or depth == 0:
            cut[0] += state.current_player == player
            left[0] -= 1
            if left[0] < 0:
                raise _OutOfBudget
            return evaluate(state)[player]
        return max(_value_after(state, following, player, depth - 1, left, cut) for following in state.legal_moves)
    finally:
        state.pop()
