"""Puzzle solvers, one module each, found by puzzle name and imported only when asked for.

Every solver module has two functions:

* ``solve(*, time_limit, progress=None, state=None, stop=None) -> Solution``, the best
  solution it can find: ``time_limit`` seconds it may search (it then returns the best it
  has); ``progress`` is called now and then with a ``Progress`` (for a display), never
  required; ``state`` is the position to solve from (a state of the puzzle's game, maybe a
  smaller instance), None for the puzzle's own start; ``stop`` ends the search early, with
  the best found, once it is set (Ctrl-C);
* ``hint(state, *, time_limit, stop=None, known=()) -> Hint``, for a person at the board:
  the next move of a solution from ``state``, or, when none exists, since which move of
  ``state.history`` the position was lost.  ``known`` is a winning line from the game's
  start found before (the last hint's); while the history follows it, its next move is
  the hint at once; so is a line that ships (``data/lines.json``) through the position.

The ``Solution`` and the ``Hint`` say what was found and how sure it is, in words a player
can read.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Protocol

from engine.core import EngineError, Move, State

#: Puzzle name -> "module:function".  A solver is added here and nowhere else.
SOLVERS: dict[str, str] = {
    "full-house": "engine.solvers.full_house:solve",
    "crooked-jumps": "engine.solvers.crooked_jumps:solve",
    "overpass-spiral": "engine.solvers.overpass_spiral:solve",
}
#: Winning lines that ship, from puzzles' own starts: a hint on one of them answers at once.
LINES = Path(__file__).parent / "data" / "lines.json"


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


@dataclass(frozen=True)
class Hint:
    """What to tell a person stuck in a puzzle.

    ``moves``: a solution from the position, its first move the hint (empty when none is known).
    ``lost_at``: when no solution exists from the position, the ply (a length of its history)
    of the last position before that still had one: undo to it.  None when a solution is
    known, or when the search could not tell in time.  ``explanation``: the words to show.
    ``lost``: the search proved that no solution exists from the position (a search that ran
    out of time proves nothing).
    """

    moves: tuple[str, ...]
    lost_at: int | None
    explanation: str
    lost: bool = False


ProgressCallback = Callable[[Progress], None]


class Stop(Protocol):
    """Asks a search to end early with the best it has (a ``threading.Event``)."""

    def is_set(self) -> bool: ...


#: The clock a search's time limit runs on: the wall's, as a person at the board waits.  A bench on a shared
#: machine may set the process's CPU time (``time.process_time``), fair under load.
CLOCK: Callable[[], float] = time.monotonic


class Budget:
    """When a search must end: at its time limit (on ``CLOCK``), or as soon as ``stop`` is set."""

    def __init__(self, seconds: float, stop: Stop | None = None) -> None:
        self.seconds = seconds
        self.clock = CLOCK
        self.started = self.clock()
        self.stop = stop

    @property
    def stopped(self) -> bool:
        return self.stop is not None and self.stop.is_set()

    def spent(self, share: float = 1.0) -> bool:
        """Whether the search must end now (``share``: of the time limit, for a stage of it)."""
        return self.stopped or self.clock() >= self.started + self.seconds * share

    def elapsed(self) -> float:
        return self.clock() - self.started

    def ended(self) -> str:
        """Why a search ended unfinished, in words: "stopped after 3.1 s" (Ctrl-C), "within 30 s"."""
        return f"stopped after {self.elapsed():.1f} s" if self.stopped else f"within {self.seconds:g} s"


def find_loss(state: State, solvable: Callable[[State], bool | None], aim: str, seconds: float) -> Hint:
    """The hint for a position proved to have no way to ``aim``: step back through ``state.history`` to the last
    position that has one (``solvable`` says True, False, or None when it cannot tell in time).

    Only what was proved is said: a position whose search ran out of time is neither lost nor
    won, so the words stop at the last position proved lost before it.  ``state`` is left as it was.
    """
    popped: list[Move] = []
    try:
        while state.history:
            popped.append(state.pop())
            verdict = solvable(state)
            if verdict:
                ply = len(state.history)
                return Hint((), ply, f"no way to {aim} from here: move {ply + 1} ({popped[-1]}) lost it; "
                                     f"undo {plural(len(popped), 'move')} to play on from before it", lost=True)
            if verdict is None:
                proved = f", nor from {plural(len(popped) - 1, 'move')} back" if len(popped) > 1 else ""
                within = f"within {seconds:.3g} s" if seconds > 0 else "(proving this took all the hint's time)"
                return Hint((), None, f"no way to {aim} from here{proved}; whether there is one from "
                                      f"{plural(len(popped), 'move')} back was not found {within}", lost=True)
    finally:
        for move in reversed(popped):
            state.push(move)
    return Hint((), None, f"no way to {aim} from here, nor from any position since the start", lost=True)


def plural(n: int, noun: str) -> str:
    """"1 move", "3 moves"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


class SolverFunction(Protocol):
    def __call__(self, *, time_limit: float, progress: ProgressCallback | None = None,
                 state: State | None = None, stop: Stop | None = None) -> Solution: ...


class HintFunction(Protocol):
    def __call__(self, state: State, *, time_limit: float, stop: Stop | None = None,
                 known: Sequence[str] = ()) -> Hint: ...


def known_rest(state: State, known: Sequence[str]) -> tuple[str, ...]:
    """The rest of a winning line through ``state``: ``known`` (moves from the game's start) when the history
    follows it, else a line that ships (``data/lines.json``) when the position is one of its."""
    history = [str(move) for move in state.history]
    if len(known) > len(history) and list(known[:len(history)]) == history:
        return tuple(known[len(history):])
    options = json.dumps(state.game.options, sort_keys=True)
    return _shipped_rests(state.game.name, options).get(json.dumps(state.position(), sort_keys=True), ())


@cache
def _shipped_rests(name: str, options: str) -> dict[str, tuple[str, ...]]:
    """For each position along the shipped lines of puzzle ``name`` with ``options`` (JSON): the line from there."""
    from engine.registry import new_game

    rests: dict[str, tuple[str, ...]] = {}
    for line in json.loads(LINES.read_text(encoding="utf-8"))["lines"]:
        if line["game"] != name or json.dumps(line["options"], sort_keys=True) != options:
            continue
        state = new_game(name, **line["options"])
        for n, text in enumerate(line["moves"]):
            rests.setdefault(json.dumps(state.position(), sort_keys=True), tuple(line["moves"][n:]))
            state.apply(text)
    return rests


class SolverError(EngineError):
    """An unknown puzzle, or one whose solver is not installed yet."""


def solver(puzzle: str) -> SolverFunction:
    """The solve function of ``puzzle``."""
    found: SolverFunction = _function(puzzle, SOLVERS.get(puzzle, ":").split(":")[1])
    return found


def hinter(puzzle: str) -> HintFunction:
    """The hint function of ``puzzle`` (in the module of its solver)."""
    found: HintFunction = _function(puzzle, "hint")
    return found


def _function(puzzle: str, function: str) -> Callable:
    if puzzle not in SOLVERS:
        raise SolverError(f"unknown puzzle {puzzle!r}; puzzles: {', '.join(SOLVERS)}")
    module_name = SOLVERS[puzzle].split(":")[0]
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
