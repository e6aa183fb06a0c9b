"""Plain UCT: an honest opponent to measure the computer against, sharing nothing of its search.

After OpenSpiel's ``MCTSBot`` with its ``RandomRolloutEvaluator``, at the defaults of OpenSpiel's
MCTS example: exploration constant 2, one random playout per new node, ``solve=True`` (a
terminal position's returns are proven and backed up, MCTS-Solver).  A node is played out the
first time it is reached and expanded (every legal move, shuffled) the next; unvisited moves
are tried first; a chance node's outcome is sampled by its probability; every node is credited
with the returns of the seat that moved into it, so each seat maximises its own return (a turn
of several steps is several plies of one seat); the move played is the most visited (a proven
win first, a proven loss last).  Playouts are ``state.random_move`` to the game's end: no
evaluation, no candidate moves, no playout policy.  The state is walked with push and pop and
left as found.

Two choices where OpenSpiel's own defaults do not reach:

- **Games whose random games run very long.**  A playout stops after ``PLAYOUT_CAP`` plies and
  counts a draw (all returns 0), as OpenSpiel's evaluator does with ``max_length``: random
  Over-Pass (2 players) games end after 2,400-4,000 plies and Groups-of-Three after
  5,800-10,100, within the cap; random Pawns Crossing games mostly run past 20,000 plies, so
  there most playouts are draws and plain UCT plays little better than at random.  That is
  what plain UCT is in such a game, not a handicap added here.
- **Hidden values** (Pawns Crossing).  ``MCTSBot`` would read the real values; this player reads
  only what its seat sees: it deals ``DEALS`` positions consistent with that view, grows one
  tree in each (the simulations shared out in turn) and plays the move most of them choose
  (determinised UCT, ties to the most visits over all trees).  Chance nodes are never proven.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable

from engine.ai import hidden
from engine.ai.levels import DEFAULT_LEVEL, level
from engine.ai.mcts import collector_paused
from engine.ai.speed import PI4
from engine.core import CHANCE, TERMINAL, Move, State

#: OpenSpiel's MCTS example's exploration constant (returns lie in [-1, 1]).
UCT_C = 2.0
#: Plies after which a playout stops and counts a draw (see the module's docstring).
PLAYOUT_CAP = 10_000
#: Positions dealt from a seat's view where the rules hide values, one tree each.
DEALS = 8
#: The best return a game gives (a win): a move proven to reach it is played at once.
MAX_UTILITY = 1.0
#: A search with a deadline stops at it or here, whichever comes first.
MAX_SIMULATIONS = 1_000_000
#: The share of the time left in a turn that one step may take, as the computer shares its turns.
STEP_SHARE = 0.5


class Node:
    """A move in the tree: who made it, how often it was tried, their total return, its proven returns."""

    __slots__ = ("move", "player", "visits", "total", "outcome", "children", "chances")

    def __init__(self, move: Move | None, player: int) -> None:
        self.move = move
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.outcome: tuple[float, ...] | None = None
        self.children: list[Node] | None = None  # at a decision: every legal move, once expanded
        self.chances: dict[Move, Node] | None = None  # at a chance node: the outcomes met so far

    def uct(self, parent_visits: int, uct_c: float) -> float:
        if self.outcome is not None:
            return self.outcome[self.player]
        if self.visits == 0:
            return math.inf
        return self.total / self.visits + uct_c * math.sqrt(math.log(parent_visits) / self.visits)

    def key(self) -> tuple[float, int, float]:
        """OpenSpiel's order of the moves to play: proven value, then visits, then total return."""
        return (0.0 if self.outcome is None else self.outcome[self.player], self.visits, self.total)

    def best_child(self) -> Node:
        assert self.children
        return max(self.children, key=Node.key)


def search(state: State, simulations: int, rng: random.Random, *, deadline: float | None = None,
           clock: Callable[[], float] = time.process_time, uct_c: float = UCT_C,
           playout_cap: int = PLAYOUT_CAP) -> Node:
    """The root of a tree grown from ``state`` (left unchanged): ``simulations`` simulations, fewer where
    ``deadline`` on ``clock`` comes first (once every move has a node) or the root is proven."""
    root = Node(None, state.current_player)
    while not _grown(root, simulations):
        if root.children and deadline is not None and clock() >= deadline:
            break
        simulate(state, root, rng, uct_c, playout_cap)
    return root


def simulate(state: State, root: Node, rng: random.Random, uct_c: float = UCT_C, playout_cap: int = PLAYOUT_CAP) -> None:
    """One simulation: down the tree by UCT to a node not yet played out, a playout, the returns backed up."""
    node, path = root, [root]
    try:
        while node.visits > 0 and state.current_player != TERMINAL:
            player = state.current_player
            if player == CHANCE:
                move = state.random_move(rng)
                if node.chances is None:
                    node.chances = {}
                child = node.chances.get(move)
                if child is None:
                    child = node.chances[move] = Node(move, CHANCE)
            else:
                if node.children is None:
                    node.children = [Node(move, player) for move in state.legal_moves]
                    rng.shuffle(node.children)  # as OpenSpiel: no bias from the order moves are listed in
                parent_visits = node.visits
                child = max(node.children, key=lambda c: c.uct(parent_visits, uct_c))
            state.push(child.move)  # type: ignore[arg-type]
            path.append(child)
            node = child
        if state.current_player == TERMINAL:
            returns = state.returns()
            node.outcome = returns
            solved = True
        else:
            returns = playout(state, rng, playout_cap)
            solved = False
    finally:
        for _ in range(len(path) - 1):
            state.pop()
    _back_up(path, returns, solved)


def playout(state: State, rng: random.Random, cap: int = PLAYOUT_CAP) -> tuple[float, ...]:
    """The returns at the end of random moves from ``state`` (all 0, a draw, if ``cap`` plies do not end it)."""
    pushed = 0
    try:
        while pushed < cap and state.current_player != TERMINAL:
            state.push(state.random_move(rng))
            pushed += 1
        return state.returns()
    finally:
        for _ in range(pushed):
            state.pop()


def _back_up(path: list[Node], returns: tuple[float, ...], solved: bool) -> None:
    """Each node credited with the returns of the seat that moved into it (a chance outcome: the nearest
    seat above it); proven returns carried up while a seat's best move is proven (MCTS-Solver)."""
    for depth in range(len(path) - 1, -1, -1):
        node = path[depth]
        decider = depth
        while path[decider].player == CHANCE:
            decider -= 1
        node.visits += 1
        node.total += returns[path[decider].player]
        if not solved:
            continue
        if node.chances is not None:
            solved = False  # a chance node is never proven: its outcomes are only sampled
        elif node.children:
            seat = node.children[0].player
            best, every = None, True
            for child in node.children:
                if child.outcome is None:
                    every = False
                elif best is None or child.outcome[seat] > best[seat]:
                    best = child.outcome
            if best is not None and (every or best[seat] == MAX_UTILITY):
                node.outcome = best
            else:
                solved = False


class UCTPlayer:
    """Plain UCT at a level's budget: a whole turn within the level's seconds on a Raspberry Pi 4 divided
    by ``speed``, read on ``clock``, as the computer (``engine.ai.player.Computer``) gets them.  A step
    searches for ``STEP_SHARE`` of the turn's time left, and where the move it finds ends the turn,
    on to the turn's deadline (most games' turns are one step: those take the whole time, as the
    computer's do).  ``simulations`` instead gives each decision a fixed number of simulations and
    no deadline: the same game and seed then give the same moves."""

    def __init__(self, level_name: str = DEFAULT_LEVEL, seed: int = 0, *, speed: float = PI4,
                 simulations: int | None = None, clock: Callable[[], float] = time.process_time,
                 playout_cap: int = PLAYOUT_CAP) -> None:
        self.level = level(level_name)
        self.rng = random.Random(seed)
        self.speed = speed
        self.simulations = simulations
        self.clock = clock
        self.playout_cap = playout_cap
        self.name = f"uct:{self.level.name}"
        #: The history after this player's last move, that move, and its turn's deadline.
        self._turn: tuple[int, Move | None, float] = (-1, None, 0.0)

    @property
    def seconds(self) -> float | None:
        """A whole turn's deadline on this machine, in seconds of ``clock``; None with a fixed budget."""
        return None if self.simulations is not None else self.level.seconds / self.speed

    def choose(self, state: State) -> Move:
        player = state.current_player
        if player in (CHANCE, TERMINAL):
            raise ValueError("plain UCT chooses at a player's decision, not at a dice roll or the end")
        legal = list(state.legal_moves)
        deadline, turn_deadline = self._deadlines(state)
        if len(legal) == 1:
            move = legal[0]
        else:
            # Where values are hidden, trees in positions dealt from the seat's view (see the module's docstring).
            dealt = [hidden.sample(state, player, self.rng) for _ in range(DEALS)] if hidden.hides_values(state) else []
            trees = Trees(dealt or [state], player, self.rng, self.playout_cap)
            budget = self.simulations or MAX_SIMULATIONS
            with collector_paused():  # as the computer's search: neither player's turn pays for a collection
                move = trees.grow(budget, deadline, self.clock)
                if deadline is not None and self.clock() < turn_deadline and _ends_turn(state, move, player):
                    move = trees.grow(budget, turn_deadline, self.clock)
            if dealt:
                move = state.parse_move(str(move))
        self._turn = (len(state.history) + 1, move, turn_deadline)
        return move

    def _deadlines(self, state: State) -> tuple[float | None, float]:
        """When this step's search stops (a share of the time its turn has left; None with a fixed
        number of simulations), and when the turn ends (a new turn gets the level's seconds)."""
        seconds = self.seconds
        if seconds is None:
            return None, 0.0
        now = self.clock()
        after, move, turn_deadline = self._turn
        if not (len(state.history) == after and move is not None and state.history[-1] is move):
            turn_deadline = now + seconds
        return now + max(0.0, turn_deadline - now) * STEP_SHARE, turn_deadline


class Trees:
    """One tree in each of some positions (one, or deals of a position with hidden values), grown in turn,
    a simulation each, and read together: the move most of them would play (ties to the most visits)."""

    def __init__(self, states: list[State], player: int, rng: random.Random, playout_cap: int = PLAYOUT_CAP) -> None:
        self.states = states
        self.roots = [Node(None, player) for _ in states]
        self.rng = rng
        self.playout_cap = playout_cap

    def grow(self, simulations: int, deadline: float | None, clock: Callable[[], float]) -> Move:
        """Simulations until each tree has ``simulations`` (or a proven root), or ``deadline`` on ``clock``
        once every tree has a node for each move; the move chosen, a move of the first position's tree."""
        while True:
            growing = [i for i, root in enumerate(self.roots) if not _grown(root, simulations)]
            if not growing:
                break
            if deadline is not None and all(root.children for root in self.roots) and clock() >= deadline:
                break
            for index in growing:
                simulate(self.states[index], self.roots[index], self.rng, playout_cap=self.playout_cap)
        if len(self.roots) == 1:
            return self.roots[0].best_child().move  # type: ignore[return-value]
        votes: Counter[str] = Counter()
        visits: Counter[str] = Counter()
        for root in self.roots:
            votes[str(root.best_child().move)] += 1
            for child in root.children or ():
                visits[str(child.move)] += child.visits
        chosen = max(votes, key=lambda text: (votes[text], visits[text]))
        return self.states[0].parse_move(chosen)


def _grown(root: Node, simulations: int) -> bool:
    """Whether a tree has had its simulations (and every move a node), or its root is proven."""
    return root.outcome is not None or (root.visits >= simulations and root.children is not None)


def _ends_turn(state: State, move: Move, player: int) -> bool:
    """Whether ``player`` hands over after ``move`` (or the game ends): the turn has no step after it."""
    state.push(move)
    try:
        return state.current_player != player
    finally:
        state.pop()
