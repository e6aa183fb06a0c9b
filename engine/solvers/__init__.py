"""Puzzle solvers, one module each, found by puzzle name and imported only when asked for.

Every solver is a function ``solve(*, time_limit, progress=None, state=None) -> Solution``:

* ``time_limit``: seconds it may search; it then returns the best it has;
* ``progress``: called now and then with a ``Progress`` (for a display), never required;
* ``state``: the puzzle position to solve from (a state of the puzzle's game, maybe a
  smaller instance); None means the puzzle's own start.

The ``Solution`` says what was found and how sure it is, in words a player can read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Protocol

from engine.core import EngineError, State

#: Puzzle name -> "module:function".  A solver is added here and nowhere else.
SOLVERS: dict[str, str] = {
    "full-house": "engine.solvers.full_house:solve",
    "crooked-jumps": "engine.solvers.crooked_jumps:solve",
    "overpass-spiral": "engine.solvers.overpass_spiral:solve",
}


@dataclass(frozen=True)
class Solution:
    """What a solver found.

    ``moves``: the moves in the puzzle game's notation, replayable with ``state.apply``
    (the best found when not solved, possibly empty).  ``solved``: the moves reach the
    goal.  ``optimal``: no shorter solution exists (the search proved it).
    ``cost``: the puzzle's measure of the moves (Full House: steps; adds are free).
    ``lower_bound``: no solution costs less, when known.  ``explanation``: a sentence for
    the player, e.g. why no solution exists or how far the search got.
    """

    moves: list[str]
    solved: bool
    optimal: bool
    cost: int | None
    lower_bound: int | None
    explanation: str


@dataclass(frozen=True)
class Progress:
    """A solver's progress: time spent, positions examined, best cost found, proven bound."""

    elapsed: float
    explored: int
    best: int | None
    lower_bound: int | None
    stage: str


ProgressCallback = Callable[[Progress], None]


class SolverFunction(Protocol):
    def __call__(self, *, time_limit: float, progress: ProgressCallback | None = None,
                 state: State | None = None) -> Solution: ...


class SolverError(EngineError):
    """An unknown puzzle, or one whose solver is not installed yet."""


def solver(puzzle: str) -> SolverFunction:
    """The solve function of ``puzzle``."""
    if puzzle not in SOLVERS:
        raise SolverError(f"unknown puzzle {puzzle!r}; puzzles: {', '.join(SOLVERS)}")
    module_name, function = SOLVERS[puzzle].split(":")
    try:
        module = import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise SolverError(f"the solver for {puzzle} is not written yet ({module_name} is missing)") from None
    found = getattr(module, function, None)
    if not callable(found):
        raise SolverError(f"the solver for {puzzle} is not written yet ({module_name} has no {function}())")
    return found
