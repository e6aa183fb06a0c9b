"""Speed of Mono-Line and the removal puzzles: random moves per second, and each solver's time.

Run: ``/work/venv/bin/python bench/puzzles.py [--solver-seconds S]``.  Prints figures;
asserts nothing (timings belong here, not in the tests).
"""

from __future__ import annotations

import argparse
import random
import time

from engine import new_game
from engine.solvers import solver


def random_moves_per_second(name: str, seconds: float = 2.0, **options: object) -> tuple[float, int]:
    """Whole random games, legal moves listed at every step: moves per second and games played."""
    rng = random.Random(1)
    moves = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = new_game(name, **options)
        while not state.is_terminal():
            state.push(rng.choice(list(state.legal_moves)))
            moves += 1
        games += 1
    return moves / (time.perf_counter() - started), games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solver-seconds", type=float, default=30.0, help="time limit for each solver")
    args = parser.parse_args()
    runs = [("mono-line", {"mode": "strict"}), ("mono-line", {"mode": "faithful"}),
            ("mono-line", {"mode": "friendly"}), ("crooked-jumps", {}), ("overpass-spiral", {})]
    for name, options in runs:
        rate, games = random_moves_per_second(name, **options)
        label = f"{name} {' '.join(f'{k}={v}' for k, v in options.items())}".strip()
        print(f"{label:28} {rate:10,.0f} random moves/s  ({games} games)")
    for puzzle in ("crooked-jumps", "overpass-spiral"):
        started = time.perf_counter()
        solution = solver(puzzle)(time_limit=args.solver_seconds)
        print(f"solve {puzzle:22} {time.perf_counter() - started:7.2f} s  {solution.explanation}")


if __name__ == "__main__":
    main()
