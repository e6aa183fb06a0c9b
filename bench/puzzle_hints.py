"""How long a puzzle's hint takes from the positions a person asks it about.

A typical position: a person who followed a solution for some moves, then made one move
of their own (which may have lost the puzzle), and now presses hint.  For each puzzle,
positions at every few plies along a known solution, each with one deviation drawn at
random (seeded), are asked the hint the daemon asks (``PUZZLE_HINT_S`` at most).  Prints
the times (median, 90th percentile, worst), how many answered within 2 s, and what the
hints said (a move, a lost puzzle with the move that lost it, or no answer in time).
A Raspberry Pi 4 is modelled as four times as slow (``docs/computer.md``), each hint
capped at its time limit (Full House's ``HINT_S``, the others' ``PUZZLE_HINT_S``): it
then answers with what it has.  A hint that follows the last one's line is immediate
and not measured here.

Run: ``.venv/bin/python bench/puzzle_hints.py [--puzzle NAME] [--samples N] [--seed N]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from engine import new_game
from engine.core import State
from engine.solvers import SOLVERS, hinter, solver
from engine.solvers.full_house import HINT_S
from firmware_host.thinker import PUZZLE_HINT_S

GOLDEN = Path(__file__).parents[1] / "tests" / "data" / "overpass_spiral" / "one_piece_left.json"
#: The answer the issue asks for on a development machine.
TARGET_S = 2.0
#: How much slower a Raspberry Pi 4 runs this Python (bench/search.py, docs/computer.md).
PI4_FACTOR = 4.0


def solution_line(puzzle: str) -> list[str]:
    """A known solution from the start: the golden record for the spiral, the solver's for the others."""
    if puzzle == "overpass-spiral":
        return json.loads(GOLDEN.read_text())["moves"]
    return solver(puzzle)(time_limit=5.0).moves


def positions(puzzle: str, samples: int, rng: random.Random) -> list[State]:
    """Positions along the solution, each after one move of the person's own choosing."""
    line = solution_line(puzzle)
    found = []
    for k in range(samples):
        state = new_game(puzzle)
        for text in line[:len(line) * k // samples]:
            state.apply(text)
        if not state.is_terminal():
            state.push(state.random_move(rng))
        found.append(state)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzle", choices=sorted(SOLVERS), action="append", help="the puzzles (default: all)")
    parser.add_argument("--samples", type=int, default=12, help="positions per puzzle (default 12)")
    parser.add_argument("--seed", type=int, default=1, help="draws the moves of one's own (default 1)")
    args = parser.parse_args()
    for puzzle in args.puzzle or sorted(SOLVERS):
        rng = random.Random(args.seed)
        times, said = [], {"a move": 0, "lost": 0, "no answer": 0}
        for state in positions(puzzle, args.samples, rng):
            started = time.perf_counter()
            hint = hinter(puzzle)(state, time_limit=PUZZLE_HINT_S)
            times.append(time.perf_counter() - started)
            said["a move" if hint.moves else "lost" if hint.lost_at is not None else "no answer"] += 1
            print(f"  {puzzle:16} ply {len(state.history):3}  {times[-1]:6.2f} s  {hint.explanation}")
        times.sort()
        within = sum(t <= TARGET_S for t in times)
        cap = HINT_S if puzzle == "full-house" else PUZZLE_HINT_S
        pi = [min(PI4_FACTOR * t, cap) for t in times]
        print(f"{puzzle}: {len(times)} hints: median {statistics.median(times):.2f} s, 90th percentile "
              f"{times[int(0.9 * (len(times) - 1))]:.2f} s, worst {times[-1]:.2f} s; {within} within {TARGET_S:g} s; "
              f"a Pi 4: median {statistics.median(pi):.1f} s, {sum(t <= TARGET_S for t in pi)} within "
              f"{TARGET_S:g} s; " + ", ".join(f"{n} {what}" for what, n in said.items()))


if __name__ == "__main__":
    main()
