"""The computer as a player: a level, a seed, and a move for any position it is asked about.

``Computer.choose`` searches from the position as its seat sees it: where the rules
hide values (Pawns Crossing) it searches several sampled positions consistent with
that view and adds up their votes, so it never plays from values it could not know.
The random numbers of a decision come from the seed and the seat's view of the
position alone: the same position and seed give the same move, whatever came before
and in whatever process it runs.
"""

from __future__ import annotations

import json
import random
import zlib
from collections import Counter
from typing import Protocol

from engine.ai import hidden
from engine.ai.levels import DEFAULT_LEVEL, DEFAULT_PLAYOUT_PLIES, PLAYOUT_PLIES, level
from engine.ai.mcts import Settings, best_move, search
from engine.core import CHANCE, TERMINAL, Move, State

#: Sampled positions a decision is spread over where values are hidden.
SAMPLES = 4


class Player(Protocol):
    """Anything that picks moves: the computer, the arena's baselines."""

    name: str

    def choose(self, state: State) -> Move:
        """A legal move for the player to move in ``state``, which is left as it was."""
        ...


class Computer:
    """Monte Carlo tree search at a named level."""

    def __init__(self, level_name: str = DEFAULT_LEVEL, seed: int = 0) -> None:
        self.level = level(level_name)
        self.seed = seed
        self.name = f"computer:{self.level.name}"

    def settings(self, state: State) -> Settings:
        plies = PLAYOUT_PLIES.get(state.game.name, DEFAULT_PLAYOUT_PLIES)
        return Settings(self.level.simulations, playout_plies=plies)

    def choose(self, state: State) -> Move:
        player = state.current_player
        if player in (CHANCE, TERMINAL):
            raise ValueError("the computer chooses at a player's decision, not at a dice roll or the end")
        rng = random.Random(self._seed_for(state, player))
        settings = self.settings(state)
        if not hidden.hides_values(state):
            return best_move(state, settings, rng)
        return self._vote(state, player, settings, rng)

    def _vote(self, state: State, player: int, settings: Settings, rng: random.Random) -> Move:
        """Search ``SAMPLES`` positions the seat cannot tell apart and play the move tried most in all."""
        share = Settings(max(1, settings.simulations // SAMPLES), settings.uct_c, settings.playout_plies)
        votes: Counter[str] = Counter()
        for _ in range(SAMPLES):
            sampled = hidden.sample(state, player, rng)
            root = search(sampled, share, rng)
            for child in root.children or ():
                votes[str(child.move)] += child.visits
        chosen = max(sorted(votes), key=lambda text: votes[text])
        return state.parse_move(chosen)

    def _seed_for(self, state: State, player: int) -> int:
        """The decision's seed: this computer's, mixed with the position as the seat sees it."""
        seen = hidden.hides_values(state)
        view = state.position_seen_by(player) if seen else state.position()  # type: ignore[attr-defined]
        return zlib.crc32(json.dumps(view, sort_keys=True).encode(), self.seed)


def plan_turn(state: State, level_name: str = DEFAULT_LEVEL, seed: int = 0) -> list[Move]:
    """The moves the player to move makes for the rest of the turn: until another player (or the
    dice) is to move, or the game ends; one move in a puzzle, whose one player never hands over.
    The state is left as it was."""
    computer = Computer(level_name, seed)
    player = state.current_player
    moves: list[Move] = []
    try:
        while state.current_player == player and not (moves and state.game.num_players == 1):
            move = computer.choose(state)
            moves.append(move)
            state.push(move)
    finally:
        for _ in moves:
            state.pop()
    return moves
