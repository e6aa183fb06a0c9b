"""The fewest chains that solve a removal puzzle: a chain is one piece's consecutive moves.

A breadth-first search whose every edge is a whole chain: from each position, every
piece's every series of one or more moves, each position on the way a chain's end.  The
first layer holding the goal gives the fewest chains, proved: every position reachable
with fewer chains has been seen by then.  Positions are kept one per symmetry class (the
board's eight symmetries), and the chains found are mapped back onto the board to give
moves that replay.  Every position seen is kept in memory: for Crooked Jumps' standard
layout 72,838 classes, 19 s (``gameboard solve crooked-jumps --chains``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core import State
from engine.games.removal_puzzle import RemovalPuzzle, RemovalPuzzleState, Step
from engine.solvers import Budget, Progress, ProgressCallback, SolverError, Stop, plural
from engine.solvers.removal import chains
from engine.solvers.symmetry import Symmetries

#: A chain: the steps of one piece, in order.
Chain = tuple[Step, ...]


@dataclass(frozen=True)
class FewestChains:
    """``moves``: a solution with ``chains`` chains (notation); ``proved``: none has fewer; ``positions``:
    symmetry classes seen; ``explanation``: in words."""

    moves: tuple[str, ...]
    chains: int | None
    proved: bool
    positions: int
    explanation: str


def fewest_chains(state: State, time_limit: float, progress: ProgressCallback | None = None,
                  stop: Stop | None = None) -> FewestChains:
    """The fewest chains from ``state`` to the puzzle's goal (one piece in the centre)."""
    if not isinstance(state, RemovalPuzzleState):
        raise SolverError(f"chains are counted in Crooked Jumps or the Over-Pass Spiral, not {state.game.name}")
    game, budget = state.game, Budget(time_limit, stop)
    symmetries = Symmetries(game.symmetries, len(game.locations))
    canonical = symmetries.canonical
    start = canonical(state.mask)
    #: class -> (the class it came from, the chain from that class's canonical mask, the mask it led to)
    parent: dict[int, tuple[int, Chain, int] | None] = {start: None}
    layer, depth = [start], 0
    while layer:
        if any(game.is_goal(mask) for mask in layer):
            break
        depth += 1
        following = []
        for mask in layer:
            for chain, after in _chains_from(game, mask):
                key = canonical(after)
                if key not in parent:
                    parent[key] = (mask, chain, after)
                    following.append(key)
            if budget.spent():
                return FewestChains((), None, False, len(parent),
                                    f"no answer {budget.ended()}: every position reachable in "
                                    f"{plural(depth - 1, 'chain')} has been searched ({len(parent):,} positions, "
                                    f"symmetric ones counted once)")
        if progress is not None:
            progress(Progress(budget.elapsed(), len(parent), None, depth, f"chains: {len(following):,} new positions"))
        layer = following
    searched = f"{len(parent):,} positions (symmetric ones counted once) in {budget.elapsed():.0f} s"
    goal = next((mask for mask in layer if game.is_goal(mask)), None)
    if goal is None:
        return FewestChains((), None, True, len(parent), f"no solution: {searched}, none with one piece in the centre")
    steps = _unfold(symmetries, state.mask, goal, parent)
    assert chains(steps) == depth
    moves = tuple(str(game.move_of(step)) for step in steps)
    if depth == 0:
        return FewestChains((), 0, True, 1, "solved already: one piece, in the centre")
    fewer = "the start" if depth == 1 else f"every position reachable in {plural(depth - 1, 'chain')}"
    return FewestChains(moves, depth, True, len(parent),
                        f"{plural(depth, 'chain')} ({plural(len(moves), 'move')}), and no fewer: {fewer} was searched "
                        f"({searched})")


def _chains_from(game: RemovalPuzzle, mask: int) -> list[tuple[Chain, int]]:
    """Every chain from ``mask``: each piece's series of one or more moves, with the position each leaves."""
    found: list[tuple[Chain, int]] = []
    pieces = mask
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        frontier: list[tuple[Chain, int]] = [((), mask)]
        at = low.bit_length() - 1
        while frontier:
            chain, current = frontier.pop()
            where = chain[-1][1] if chain else at
            for step in game.steps_from(current, where):
                after = current ^ (1 << step[0]) ^ (1 << step[1]) ^ (1 << step[2])
                longer = (*chain, step)
                found.append((longer, after))
                frontier.append((longer, after))
    return found


def _unfold(symmetries: Symmetries, start: int, goal: int,
            parent: dict[int, tuple[int, Chain, int] | None]) -> list[Step]:
    """The chains from the start class to ``goal`` as moves on the board: each found from a class's canonical
    mask, so each is carried through the symmetries that relate the canonical masks to the real position."""
    links = []
    key = goal
    while (link := parent[key]) is not None:
        links.append((key, link))
        key = link[0]
    # The symmetry taking the start's canonical mask to the real start, then one more per chain.
    current = symmetries.relating(key, start)
    steps: list[Step] = []
    for key, (_, chain, after) in reversed(links):
        steps.extend(tuple(current[i] for i in step) for step in chain)  # type: ignore[misc]
        relate = symmetries.relating(key, after)
        current = tuple(current[relate[i]] for i in range(len(current)))
    return steps
