"""Over-Pass Spiral solver: the removal-puzzle search of Crooked Jumps, run on the spiral.

Every Over-Pass move removes one piece, so the search, its symmetry memo and its
explanations are the same as for Crooked Jumps; only the moves differ, and those come
from the game.  The goal searched for is the book's harder question, one piece left in
the centre; a single piece elsewhere (the first question) is reported as the best found.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import State
from engine.games.overpass_spiral import OverPassSpiral
from engine.solvers import Hint, ProgressCallback, Solution, Stop
from engine.solvers.removal import removal_hint, solve_removal


def solve(*, time_limit: float, progress: ProgressCallback | None = None, state: State | None = None,
          stop: Stop | None = None) -> Solution:
    """Solve the Over-Pass Spiral from ``state`` (default: the standard spiral)."""
    return solve_removal(state or OverPassSpiral().new_initial_state(), time_limit, progress, stop)


def hint(state: State, *, time_limit: float, stop: Stop | None = None, known: Sequence[str] = ()) -> Hint:
    """The next move towards the win from ``state``, or the move that lost it."""
    return removal_hint(state, time_limit, stop, known)
