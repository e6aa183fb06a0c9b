"""Solving Crooked Jumps with the removal-puzzle search (``engine.solvers.removal``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import State
from engine.games.crooked_jumps import CrookedJumps
from engine.solvers import Hint, ProgressCallback, Solution, Stop
from engine.solvers.removal import removal_hint, solve_removal


def solve(*, time_limit: float, progress: ProgressCallback | None = None, state: State | None = None,
          stop: Stop | None = None) -> Solution:
    """Solve Crooked Jumps from ``state`` (default: the standard layout)."""
    return solve_removal(state or CrookedJumps().new_initial_state(), time_limit, progress, stop)


def hint(state: State, *, time_limit: float, stop: Stop | None = None, known: Sequence[str] = ()) -> Hint:
    """The next move towards the win from ``state``, or the move that lost it."""
    return removal_hint(state, time_limit, stop, known)
