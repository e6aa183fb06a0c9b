"""Solving Crooked Jumps with the removal-puzzle search (``engine.solvers.removal``)."""

from __future__ import annotations

from engine.core import State
from engine.games.crooked_jumps import CrookedJumps
from engine.solvers import ProgressCallback, Solution
from engine.solvers.removal import solve_removal


def solve(*, time_limit: float, progress: ProgressCallback | None = None, state: State | None = None) -> Solution:
    """Solve Crooked Jumps from ``state`` (default: the standard layout)."""
    return solve_removal(state or CrookedJumps().new_initial_state(), time_limit, progress)
