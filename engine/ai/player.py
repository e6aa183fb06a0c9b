"""The computer as a player: a level, a seed, and a move for any position it is asked about.

``Computer.plan`` searches from the position as its seat sees it, for the rest of the
turn: where the rules hide values (Pawns Crossing) one search walks several positions
dealt consistent with that view (information-set search), so it never plays from values
it could not know.  The random numbers of a plan come from the seed and the seat's view
of the position planned from alone: with a fixed budget (``simulations``) the same position
and seed give the same plan, whatever came before and in whatever process it runs; to a
deadline, the plan also depends on how much the machine searched in the time.
"""

from __future__ import annotations

import json
import random
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Protocol

from engine.ai import hidden
from engine.ai.candidates import candidates
from engine.ai.levels import DEFAULT_LEVEL, DEFAULT_PLAYOUT_PLIES, PLAYOUT_PLIES, level
from engine.ai.mcts import Node, Settings, collector_paused, search, search_dealt
from engine.ai.playout import playout_move
from engine.ai.speed import PI4
from engine.core import CHANCE, TERMINAL, Move, State

#: Positions a decision's search walks in turn where values are hidden, each dealt from the seat's view.
DEALS = 16
#: A search with a deadline stops at it or here, whichever comes first.
MAX_SIMULATIONS = 1_000_000
#: The share of a turn's time its first step may take, where steps follow it (they need the rest).
STEP_SHARE = 0.5
#: Raspberry Pi 4 seconds the first step of a turn of several may take: the board lights it meanwhile.
FIRST_STEP_SECONDS = 1.0


class Player(Protocol):
    """Anything that picks moves: the computer, the arena's baselines."""

    name: str

    def choose(self, state: State) -> Move:
        """A legal move for the player to move in ``state``, which is left as it was."""
        ...


class Computer:
    """Monte Carlo tree search at a named level: a whole turn within the level's deadline.

    The deadline is the level's seconds on a Raspberry Pi 4 (or ``seconds``, a hint's) divided by
    ``speed``, this machine's speed as a multiple of a Pi 4's (``engine/ai/speed.py``), read on
    ``clock``.  ``simulations`` instead gives each step a fixed number of simulations and no deadline:
    the same position and seed then give the same turn on any machine, as tests and reproducible
    benches need.

    A turn of several moves is planned at its start (``steps``, ``plan``) and carried out move by
    move, as on the board: asked again within the turn, it plays the next move of that plan.
    """

    def __init__(self, level_name: str = DEFAULT_LEVEL, seed: int = 0, *, speed: float = PI4,
                 simulations: int | None = None, clock: Callable[[], float] = time.monotonic,
                 seconds: float | None = None) -> None:
        self.level = level(level_name)
        self.seed = seed
        self.speed = speed
        self.simulations = simulations
        self.clock = clock
        #: A whole turn's deadline on a Raspberry Pi 4: the level's, or less (a hint's).
        self.pi4_seconds = self.level.seconds if seconds is None else min(seconds, self.level.seconds)
        self.name = f"computer:{self.level.name}"
        #: The turn planned last: the history it was planned after, and its moves.
        self._planned: tuple[tuple[Move, ...], list[Move]] = ((), [])

    @property
    def seconds(self) -> float | None:
        """A whole turn's deadline on this machine, in seconds of ``clock``; None with a fixed budget."""
        return None if self.simulations is not None else self.pi4_seconds / self.speed

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
        """The moves the player to move makes for the rest of the turn (``steps``, all of them)."""
        return list(self.steps(state))

    def steps(self, state: State) -> Iterator[Move]:
        """The moves the player to move makes for the rest of the turn, each given as soon as it is
        decided, so that the board can show a step while the next is planned: until another player
        (or the dice) is to move, or the game ends; one move in a puzzle, whose one player never hands over.

        Each move continues the tree grown for the one before (the subtree of the move played): only
        the simulations that subtree lacks are run.  With a deadline, the turn's time is shared out by
        ``TurnClock``.  ``state`` is as it was found whenever a move is given, and once the turn is done.
        """
        player = state.current_player
        if player in (CHANCE, TERMINAL):
            raise ValueError("the computer chooses at a player's decision, not at a dice roll or the end")
        rng = random.Random(self._seed_for(state, player))
        seconds = self.seconds
        turn = None if seconds is None else TurnClock(self.clock, seconds, FIRST_STEP_SECONDS / self.speed)
        #: Every tree of the turn, freed once it is over: freeing the moves not played (10^5 nodes and more in
        #: an Over-Pass turn at hard) takes milliseconds, which would carry the turn past its deadline.
        trees: list[Node] = []
        # The collector is paused for the whole turn, between its steps too: once woken it would walk the trees.
        with collector_paused():
            yield from self._steps(state, player, turn, rng, trees)

    def _steps(self, state: State, player: int, turn: TurnClock | None, rng: random.Random,
               trees: list[Node]) -> Iterator[Move]:
        """``steps`` once its clock and seed are set: each step searched, given, and the state put back."""
        moves: list[Move] = []
        pushed = 0  # the moves of ``moves`` pushed on ``state`` now
        root: Node | None = None  # the tree grown so far for the position reached
        try:
            while True:
                move, root = self._step(state, player, turn, root, rng, trees, first=not moves)
                moves.append(move)
                state.push(move)
                pushed += 1
                more = state.current_player == player and state.game.num_players > 1
                for _ in range(pushed):
                    state.pop()
                pushed = 0
                yield move
                if not more:
                    return
                for earlier in moves:
                    state.push(earlier)
                    pushed += 1
        finally:
            for _ in range(pushed):
                state.pop()

    def _step(self, state: State, player: int, turn: TurnClock | None, root: Node | None, rng: random.Random,
              trees: list[Node], first: bool) -> tuple[Move, Node | None]:
        """The next step of the turn (the ``first``?), and the subtree below it (None where none is kept); the
        trees searched are added to ``trees``."""
        if hidden.hides_values(state):
            return self._search_deals(state, player, turn, trees, first), None
        if turn is not None and turn.out_of_time():  # no time to list the moves (0.2-3 ms in Over-Pass on a Pi 4)
            move = _best_known(root, state, self.settings(state), rng)
        elif len(legal := list(state.legal_moves)) == 1:
            move = legal[0]
        else:
            deadline = turn.step_deadline(root, first) if turn else None
            root = search(state, self.settings(state, deadline), rng, root=root)
            trees.append(root)
            move = root.best_child().move  # type: ignore[assignment]
            while turn is not None and not turn.out_of_time() and _ends_turn(state, move, player):
                # The turn looks like a single step: it may take the whole turn's time, while its best move ends it.
                root = search(state, self.settings(state, turn.stretch()), rng, root=root)
                move = root.best_child().move  # type: ignore[assignment]
        return move, next((child for child in root.children or () if child.move == move), None) if root else None

    def _search_deals(self, state: State, player: int, turn: TurnClock | None, trees: list[Node],
                      first: bool) -> Move:
        """The move tried most by one search over ``DEALS`` positions the seat cannot tell apart."""
        rng = random.Random(self._seed_for(state, player))
        if turn is None or not turn.out_of_time():
            legal = list(state.legal_moves)
            if len(legal) == 1:
                return legal[0]
        deals = [hidden.sample(state, player, rng)]
        while len(deals) < DEALS and not (turn is not None and turn.out_of_time()):  # a deal is 0.7 ms on a Pi 4
            deals.append(hidden.sample(state, player, rng))
        if turn is not None and turn.out_of_time():  # a move of one deal: a playout reads the values it walks
            return state.parse_move(str(_best_known(None, deals[0], self.settings(state), rng)))
        root = search_dealt(deals, self.settings(state, turn.step_deadline(None, first) if turn else None), rng)
        trees.append(root)
        move = state.parse_move(str(root.best_child().move))
        while turn is not None and not turn.out_of_time() and _ends_turn(state, move, player):
            root = search_dealt(deals, self.settings(state, turn.stretch()), rng, root=root)
            move = state.parse_move(str(root.best_child().move))
        return move

    def _seed_for(self, state: State, player: int) -> int:
        """The decision's seed: this computer's, mixed with the position as the seat sees it."""
        seen = hidden.hides_values(state)
        view = state.position_seen_by(player) if seen else state.position()  # type: ignore[attr-defined]
        return zlib.crc32(json.dumps(view, sort_keys=True).encode(), self.seed)


class TurnClock:
    """How a turn's deadline is shared among its steps.

    A step that ends the turn (the player changes after it: most games' only step) may take all
    the time left, as long as its best move still ends the turn (looked at every quarter of a
    first step's time).  The first step of a turn of several takes at most ``first`` seconds (a
    second on a Raspberry Pi 4, so the board lights it at once) and at most ``STEP_SHARE`` of the
    turn; each later step an equal share of the time left among the steps its tree still expects.
    Once the deadline has passed, the clock is read no more: each step left plays the best its
    tree knows, so the turn ends within one simulation of the deadline however many steps remain.
    """

    def __init__(self, clock: Callable[[], float], seconds: float, first: float) -> None:
        self.clock = clock
        self.start = clock()
        self.deadline = self.start + seconds
        self.first = first
        self._late = False

    def out_of_time(self) -> bool:
        if not self._late:
            self._late = self.clock() >= self.deadline
        return self._late

    def stretch(self) -> float:
        """When a step that ends the turn looks again whether its best move still does: a quarter of a first
        step's time on, at most the deadline (a step that turns out to have steps after it is given then)."""
        return min(self.deadline, self.clock() + self.first / 4)

    def step_deadline(self, root: Node | None, first: bool) -> float:
        """When the search for the next step stops (the turn's ``first``?): ``root`` is its tree so far."""
        now = self.clock()
        left = max(0.0, self.deadline - now)
        if first:
            return now + min(self.first, left * STEP_SHARE)
        return now + (left * STEP_SHARE if root is None else left / _steps_expected(root))


def _steps_expected(root: Node) -> int:
    """How many steps the turn still has from ``root``'s position, by the tree's most tried line: one more
    where that line ends on the player's own step, not knowing what follows it."""
    steps, node = 0, root
    while node.children or node.outcomes:
        best = max(node.children or (), key=lambda child: child.visits, default=None)
        if best is None or best.mover != root.mover or best.visits == 0:  # the dice or another player next
            return max(1, steps)
        steps, node = steps + 1, best
    return steps + 1


def _ends_turn(state: State, move: Move, player: int) -> bool:
    """Whether ``player`` hands over after ``move`` (or the game ends): the turn has no step after it.  A turn
    with a forced step after it (Over-Pass's ``end`` once the roll is spent) still shows this one within the
    first step's time."""
    state.push(move)
    try:
        return state.current_player != player or state.game.num_players == 1
    finally:
        state.pop()


def _best_known(root: Node | None, state: State, settings: Settings, rng: random.Random) -> Move:
    """A step with no time left: the move the tree tried most, else the move a playout would make."""
    if root is not None and root.children and any(child.visits for child in root.children):
        return root.best_child().move  # type: ignore[return-value]
    return (settings.playout_move or (lambda s, r: s.random_move(r)))(state, rng)


def plan_turn(state: State, level_name: str = DEFAULT_LEVEL, seed: int = 0, *, speed: float = PI4,
              simulations: int | None = None, clock: Callable[[], float] = time.monotonic) -> list[Move]:
    """The moves the player to move makes for the rest of the turn (``Computer.plan``)."""
    return Computer(level_name, seed, speed=speed, simulations=simulations, clock=clock).plan(state)
