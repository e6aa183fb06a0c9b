"""The computer as a player: a level, a seed, and a move for any position it is asked about.

``Computer.plan`` searches from the position as its seat sees it, for the rest of the
turn: where the rules hide values (Pawns Crossing) one search walks several positions
dealt consistent with that view (information-set search), so it never plays from values
it could not know.  The random numbers of a plan come from the seed and the seat's view
of the position planned from alone: the same position and seed give the same plan,
whatever came before and in whatever process it runs.
"""

from __future__ import annotations

import json
import random
import time
import zlib
from collections.abc import Callable
from typing import Protocol

from engine.ai import hidden
from engine.ai.candidates import candidates
from engine.ai.levels import DEFAULT_LEVEL, DEFAULT_PLAYOUT_PLIES, PLAYOUT_PLIES, level
from engine.ai.mcts import Node, Settings, search, search_dealt
from engine.ai.playout import playout_move
from engine.ai.speed import PI4
from engine.core import CHANCE, TERMINAL, Move, State

#: Positions a decision's search walks in turn where values are hidden, each dealt from the seat's view.
DEALS = 16
#: A search with a deadline stops at it or here, whichever comes first.
MAX_SIMULATIONS = 1_000_000
#: The share of the time left in a turn that one step of it may take (the steps after it need the rest).
STEP_SHARE = 0.5


class Player(Protocol):
    """Anything that picks moves: the computer, the arena's baselines."""

    name: str

    def choose(self, state: State) -> Move:
        """A legal move for the player to move in ``state``, which is left as it was."""
        ...


class Computer:
    """Monte Carlo tree search at a named level: a whole turn within the level's deadline.

    The deadline is the level's seconds on a Raspberry Pi 4 divided by ``speed``, this machine's
    speed as a multiple of a Pi 4's (``engine/ai/speed.py``), read on ``clock``.  ``simulations``
    instead gives each step a fixed number of simulations and no deadline: the same position and
    seed then give the same turn on any machine, as tests and reproducible benches need.

    A turn of several moves is planned at its start (``plan``) and carried out move by move, as
    on the board: asked again within the turn, it plays the next move of that plan.
    """

    def __init__(self, level_name: str = DEFAULT_LEVEL, seed: int = 0, *, speed: float = PI4,
                 simulations: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.level = level(level_name)
        self.seed = seed
        self.speed = speed
        self.simulations = simulations
        self.clock = clock
        self.name = f"computer:{self.level.name}"
        #: The turn planned last: the history it was planned after, and its moves.
        self._planned: tuple[tuple[Move, ...], list[Move]] = ((), [])

    @property
    def seconds(self) -> float | None:
        """A whole turn's deadline on this machine, in seconds of ``clock``; None with a fixed budget."""
        return None if self.simulations is not None else self.level.seconds / self.speed

    def settings(self, state: State, deadline: float | None = None) -> Settings:
        name = state.game.name
        return Settings(self.simulations or MAX_SIMULATIONS, deadline=deadline, clock=self.clock,
                        playout_plies=PLAYOUT_PLIES.get(name, DEFAULT_PLAYOUT_PLIES),
                        playout_move=playout_move(name), candidates=candidates(name))

    def choose(self, state: State) -> Move:
        before, moves = self._planned
        done = len(state.history) - len(before)
        if 0 < done < len(moves) and tuple(state.history) == (*before, *moves[:done]):
            return moves[done]
        moves = self.plan(state)
        self._planned = (tuple(state.history), moves)
        return moves[0]

    def plan(self, state: State) -> list[Move]:
        """The moves the player to move makes for the rest of the turn: until another player (or the
        dice) is to move, or the game ends; one move in a puzzle, whose one player never hands over.

        Each move continues the tree grown for the one before (the subtree of the move played): only
        the simulations that subtree lacks are run.  The state is left as it was.
        """
        player = state.current_player
        if player in (CHANCE, TERMINAL):
            raise ValueError("the computer chooses at a player's decision, not at a dice roll or the end")
        rng = random.Random(self._seed_for(state, player))
        seconds = self.seconds
        turn_deadline = None if seconds is None else self.clock() + seconds
        moves: list[Move] = []
        root: Node | None = None  # the tree grown so far for the position reached
        try:
            while state.current_player == player and not (moves and state.game.num_players == 1):
                settings = self.settings(state, self._step_deadline(turn_deadline))
                if hidden.hides_values(state):
                    move = self._search_deals(state, player, settings, random.Random(self._seed_for(state, player)))
                else:
                    legal = list(state.legal_moves)
                    if len(legal) > 1:
                        root = search(state, settings, rng, root=root)
                        move = root.best_child().move  # type: ignore[assignment]
                    else:
                        move = legal[0]
                    root = next((child for child in root.children or () if child.move == move), None) if root else None
                moves.append(move)
                state.push(move)
        finally:
            for _ in moves:
                state.pop()
        return moves

    def _step_deadline(self, turn_deadline: float | None) -> float | None:
        """When the search for the next step of a turn stops: a share of the turn's time left."""
        if turn_deadline is None:
            return None
        now = self.clock()
        return now + max(0.0, turn_deadline - now) * STEP_SHARE

    def _search_deals(self, state: State, player: int, settings: Settings, rng: random.Random) -> Move:
        """The move tried most by one search over ``DEALS`` positions the seat cannot tell apart."""
        legal = list(state.legal_moves)
        if len(legal) == 1:
            return legal[0]
        deals = [hidden.sample(state, player, rng) for _ in range(DEALS)]
        chosen = search_dealt(deals, settings, rng).best_child().move
        return state.parse_move(str(chosen))

    def _seed_for(self, state: State, player: int) -> int:
        """The decision's seed: this computer's, mixed with the position as the seat sees it."""
        seen = hidden.hides_values(state)
        view = state.position_seen_by(player) if seen else state.position()  # type: ignore[attr-defined]
        return zlib.crc32(json.dumps(view, sort_keys=True).encode(), self.seed)


def plan_turn(state: State, level_name: str = DEFAULT_LEVEL, seed: int = 0, *, speed: float = PI4,
              simulations: int | None = None) -> list[Move]:
    """The moves the player to move makes for the rest of the turn (``Computer.plan``)."""
    return Computer(level_name, seed, speed=speed, simulations=simulations).plan(state)
