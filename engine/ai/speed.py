"""How fast this machine searches, as a multiple of a Raspberry Pi 4: levels are deadlines on a Pi 4.

``measure`` times a short piece of the search's own work (random moves pushed and popped in
Square Off, Over-Pass and Hexover from their starts) on the CPU clock, best of a few short runs,
and divides by the rate
a Raspberry Pi 4 reaches.  There is no Pi 4 in the project's CI: ``PI4_RATE`` is this
development machine's rate divided by ``PI4_SLOWER``, the factor an outside audit measured
for CPython on a Pi 4 against these cores (4-6).  A level's deadline on the machine at hand is
then its Pi 4 seconds divided by the speed: the same level does the same work, and so plays
as strongly, wherever it runs, and a Pi 4 meets the deadline the level names.
"""

from __future__ import annotations

import random
import time

from engine.core import State

#: This machine's rate (pushes and pops a CPU second; 2026-11-28, idle): the model's yardstick.
HERE_RATE = 33_000
#: How many times slower a Raspberry Pi 4 runs this Python than the machine that set ``HERE_RATE``.
PI4_SLOWER = 5.0
#: Random moves pushed and popped a CPU second on a Raspberry Pi 4 (modelled: see the module's docstring).
PI4_RATE = HERE_RATE / PI4_SLOWER
#: A Raspberry Pi 4's speed: deadlines are kept as they are.
PI4 = 1.0
#: Plies a walk pushes before popping them all.
WALK = 60


def measure(seconds: float = 0.04, runs: int = 4) -> float:
    """This machine's speed as a multiple of a Raspberry Pi 4's (1.0 on a Pi 4, about 5 on the development machine).

    The best of ``runs`` short runs of ``seconds`` of CPU each: another process sharing the cores slows
    a run (caches, clock rate) but never speeds it up, so the fastest is the machine's own rate.
    """
    from engine.registry import new_game

    games = [new_game("squareoff"), new_game("overpass", players=2), new_game("hexover")]
    return max(_rate(games, seconds) for _ in range(runs)) / PI4_RATE


def _rate(games: list[State], seconds: float) -> float:
    """Random moves pushed and popped a CPU second, walking ``games`` from their starts for ``seconds``."""
    rng = random.Random(0)
    moves = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds:
        for state in games:
            pushed = 0
            while pushed < WALK and not state.is_terminal():
                state.push(state.random_move(rng))
                pushed += 1
            for _ in range(pushed):
                state.pop()
            moves += pushed
    return moves / max(spent, 1e-9)
