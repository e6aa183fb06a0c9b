"""How fast this machine searches, as a multiple of a Raspberry Pi 4: levels are deadlines on a Pi 4.

``measure`` times a fixed piece of pure-Python work shaped like a search's (a walk over a small
board of its own: moves listed into a list, pushed on a dict and popped again) on the CPU clock,
best of a few short runs, and divides by the rate a Raspberry Pi 4 reaches.  The work is the
module's own, not the engine's: it timed random play in the games until 2026-11-28, and Over-Pass's
moves listed in C then made this machine measure 11x a Pi 4 rather than 5x, so a Pi 4 would have
taken itself for two and thought half the time a level gives.  There is no Pi 4 in the project's
CI: ``PI4_RATE`` is this development machine's rate divided by ``PI4_SLOWER``, the factor an
outside audit measured for CPython on a Pi 4 against these cores (4-6).  A level's deadline on the
machine at hand is then its Pi 4 seconds divided by the speed: the same level does the same work,
and so plays as strongly, wherever it runs, and a Pi 4 meets the deadline the level names.
"""

from __future__ import annotations

import random
import time

#: This machine's rate (steps of ``_walk`` a CPU second; 2026-11-28, idle): the model's yardstick.
HERE_RATE = 430_000
#: How many times slower a Raspberry Pi 4 runs this Python than the machine that set ``HERE_RATE``.
PI4_SLOWER = 5.0
#: Steps of ``_walk`` a CPU second on a Raspberry Pi 4 (modelled: see the module's docstring).
PI4_RATE = HERE_RATE / PI4_SLOWER
#: A Raspberry Pi 4's speed: deadlines are kept as they are.
PI4 = 1.0
#: Points of the walk's board, and steps a walk takes before undoing them all.
POINTS, WALK = 24, 60


def measure(seconds: float = 0.04, runs: int = 4) -> float:
    """This machine's speed as a multiple of a Raspberry Pi 4's (1.0 on a Pi 4, about 5 on the development machine).

    The best of ``runs`` short runs of ``seconds`` of CPU each: another process sharing the cores slows
    a run (caches, clock rate) but never speeds it up, so the fastest is the machine's own rate.
    """
    return max(_rate(seconds) for _ in range(runs)) / PI4_RATE


def _rate(seconds: float) -> float:
    """Steps of ``_walk`` a CPU second, walking for ``seconds``."""
    rng = random.Random(0)
    near = {p: ((p + 1) % POINTS, (p + 5) % POINTS, (p - 1) % POINTS) for p in range(POINTS)}
    steps = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds:
        steps += _walk(near, rng)
    return steps / max(spent, 1e-9)


def _walk(near: dict[int, tuple[int, int, int]], rng: random.Random) -> int:
    """``WALK`` steps on a board of ``POINTS``: each lists the empty points beside the pieces, moves a piece to
    one and records it; then every step is undone.  Returns the steps taken."""
    board: dict[int, int] = {p: 1 for p in range(0, POINTS, 3)}
    history: list[tuple[int, int]] = []
    for _ in range(WALK):
        moves = [(p, q) for p in board for q in near[p] if q not in board]
        if not moves:
            break
        p, q = moves[rng.randrange(len(moves))]
        board[q] = board.pop(p)
        history.append((p, q))
    for p, q in reversed(history):
        board[p] = board.pop(q)
    return len(history)
