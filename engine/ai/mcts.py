"""Monte Carlo tree search over the State API, walking one state with push and pop.

Each simulation descends the tree from the root by UCT, pushing the moves it walks (the
game's candidates where it narrows them); a chance node's outcome is sampled by its
probability; the first new node met is added, then a playout (``state.random_move``
steps, or the game's playout policy) runs until the game ends or a cut-off, where
``evaluate`` scores the position.  Every player's value is backed up to the nodes that
player moved into, so each seat maximises its own return (2-4 players alike), and a
player who moves several times in a row (a turn of steps under one roll) is searched as
one plan.  Every push is popped before the simulation ends: the state is left as it was
found.  After OpenSpiel's ``mcts.py``, without clones; ``search_dealt`` is the
information-set search of its ``ismcts.py`` for positions with hidden values.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from engine.ai.evaluate import Values, evaluate
from engine.core import CHANCE, TERMINAL, Move, State

Evaluator = Callable[[State], Values]


@dataclass(frozen=True)
class Settings:
    """How a search spends its budget: ``simulations``, or fewer where ``deadline`` comes first."""

    simulations: int
    #: When the search stops with the best found so far, on ``clock``; None runs every simulation.
    deadline: float | None = None
    #: The clock the deadline is read on: the wall's on the board, the process's CPU in the arena.
    clock: Callable[[], float] = time.monotonic
    #: The exploration constant of UCT (values lie in [-1, 1]).
    uct_c: float = 1.4
    #: Playout steps before the position is scored by the evaluation instead of played out.
    playout_plies: int = 200
    #: How a playout picks its moves: ``state.random_move`` unless a game's random play says too little.
    playout_move: Callable[[State, random.Random], Move] | None = None
    #: The moves the tree tries at a decision: every legal move unless a game narrows them.
    candidates: Callable[[State], list[Move]] | None = None


class Node:
    """A move in the tree: who made it, how often it was tried, the values its mover got."""

    __slots__ = ("move", "mover", "visits", "total", "children", "outcomes")

    def __init__(self, move: Move | None, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.children: list[Node] | None = None  # at a decision: every legal move, once expanded
        self.outcomes: dict[Move, Node] | None = None  # at a chance node: the outcomes met so far

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def best_child(self) -> Node:
        """The most visited move; ties go to the better mean, then to the earlier in the tree's order."""
        assert self.children
        return max(self.children, key=lambda child: (child.visits, child.mean()))


def search(state: State, settings: Settings, rng: random.Random, evaluator: Evaluator = evaluate,
           root: Node | None = None) -> Node:
    """The root of a tree grown from ``state`` (left unchanged) to ``settings.simulations`` visits, or
    as many as the deadline leaves time for (at least enough to try a move).

    ``root`` continues a tree grown before for this position (the subtree of the move that led
    here): only the simulations it lacks are run.
    """
    if root is None:
        root = Node(None, state.current_player)
    try:
        while root.visits < settings.simulations and not (root.children and _late(settings)):
            _simulate(state, root, settings, rng, evaluator)
    except _Late:
        pass
    return root


def search_dealt(deals: Sequence[State], settings: Settings, rng: random.Random,
                 evaluator: Evaluator = evaluate, root: Node | None = None) -> Node:
    """Information-set search, after OpenSpiel's ``ismcts.py``: one tree of moves grown over several
    positions a seat cannot tell apart (``deals``, each left unchanged), walked in turn, one per
    simulation.  Deals may part later in the tree (a revealed value sends a token home in one, back
    in another): a walk passes over the moves not legal in its deal and adds those new to the tree.
    ``root`` continues a tree grown before over the same deals."""
    if root is None:
        root = Node(None, deals[0].current_player)
    try:
        while root.visits < settings.simulations and not (root.children and _late(settings)):
            _simulate(deals[root.visits % len(deals)], root, settings, rng, evaluator, dealt=True)
    except _Late:
        pass
    return root


#: Playout steps between two looks at the clock: a simulation met by the deadline is dropped within these.
PLIES_PER_LOOK = 4


class _Late(Exception):
    """The deadline came during a playout: the simulation is dropped (its pushes popped, nothing backed up)."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while a search runs to a deadline.  A tree is made of nodes that
    hold only their children, so reference counting frees it; but the collector, woken by the nodes'
    allocation, walks every one of them: a full pass over an Over-Pass Spiral tree at ``hard`` took up
    to 195 ms here (about 1 s on a Pi 4) and carried turns past their deadlines.  It runs again after."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _late(settings: Settings) -> bool:
    return settings.deadline is not None and settings.clock() >= settings.deadline


def _simulate(state: State, root: Node, settings: Settings, rng: random.Random, evaluator: Evaluator,
              dealt: bool = False) -> None:
    node, path = root, [root]
    try:
        while True:
            player = state.current_player
            if player == TERMINAL:
                break
            if player == CHANCE:
                move = state.random_move(rng)
                if node.outcomes is None:
                    node.outcomes = {}
                child = node.outcomes.get(move)
                if child is None:
                    child = node.outcomes[move] = Node(move, CHANCE)
            elif not dealt:
                if node.children is None:
                    moves = settings.candidates(state) if settings.candidates else state.legal_moves
                    node.children = [Node(move, player) for move in moves]
                    rng.shuffle(node.children)
                child = _select(node, settings.uct_c)
            else:
                child = _select_dealt(node, state, player, settings, rng)
            state.push(child.move)  # type: ignore[arg-type]
            path.append(child)
            node = child
            if child.visits == 0:
                break
        values = _playout(state, settings, rng, evaluator, may_drop=root.visits > 0)
    finally:
        for _ in range(len(path) - 1):
            state.pop()
    for visited in path:
        visited.visits += 1
        if visited.mover >= 0:
            visited.total += values[visited.mover]


def _select(node: Node, uct_c: float, allowed: set[Move] | None = None) -> Node:
    """An untried move first (in the tree's shuffled order), else the best upper confidence bound;
    among the ``allowed`` moves only, where given."""
    children = node.children if allowed is None else [c for c in node.children or () if c.move in allowed]
    assert children
    log_n = math.log(node.visits) if node.visits else 0.0
    best, best_score = children[0], -math.inf
    for child in children:
        if child.visits == 0:
            return child
        score = child.total / child.visits + uct_c * math.sqrt(log_n / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best


def _select_dealt(node: Node, state: State, player: int, settings: Settings, rng: random.Random) -> Node:
    """``_select`` among the moves legal in this deal, the tree's children gaining any it lacks."""
    legal = settings.candidates(state) if settings.candidates else list(state.legal_moves)
    if node.children is None:
        node.children = [Node(move, player) for move in legal]
        rng.shuffle(node.children)
    else:
        known = {child.move for child in node.children}
        node.children.extend(Node(move, player) for move in legal if move not in known)
    allowed = set(legal)
    return _select(node, settings.uct_c, allowed if len(allowed) < len(node.children) else None)


def _playout(state: State, settings: Settings, rng: random.Random, evaluator: Evaluator,
             may_drop: bool = False) -> Values:
    """Steps of the playout policy until the end or the cut-off, scored, and every step taken back.  Where it
    ``may_drop`` (the tree has a visit), a playout that meets the deadline raises ``_Late``: a long playout (a
    Square Off game to its end is 15 ms on a Raspberry Pi 4) does not carry the search past it."""
    pushed = 0
    pick = settings.playout_move or _random_move
    watch = may_drop and settings.deadline is not None
    try:
        while pushed < settings.playout_plies and state.current_player != TERMINAL:
            if watch and pushed % PLIES_PER_LOOK == PLIES_PER_LOOK - 1 and _late(settings):
                raise _Late
            state.push(pick(state, rng))
            pushed += 1
        return evaluator(state)
    finally:
        for _ in range(pushed):
            state.pop()


def _random_move(state: State, rng: random.Random) -> Move:
    return state.random_move(rng)
