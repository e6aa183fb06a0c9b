"""Random moves per second for every Square Off variant and for Hexover.

Each random move generates the legal moves, picks one and pushes it, as a search or
the daemon's hint would; a game that ends is started again.  Run from the repository:
``/work/venv/bin/python bench/squareoff_hexover.py [seconds per game]``.
"""

from __future__ import annotations

import random
import sys
import time

from engine import new_game

CASES: list[tuple[str, dict[str, str]]] = [
    ("squareoff", {"variant": "classic"}),
    ("squareoff", {"variant": "jump-off"}),
    ("squareoff", {"variant": "trading-places"}),
    ("hexover", {}),
]


def random_moves_per_second(name: str, options: dict[str, str], seconds: float) -> tuple[float, int]:
    """Moves per second over ``seconds`` of random play, and the games finished."""
    rng = random.Random(0)
    state = new_game(name, **options)
    moves = games = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        if state.is_terminal():
            state, games = new_game(name, **options), games + 1
        state.push(rng.choice(list(state.generate_moves())))
        moves += 1
    return moves / elapsed, games


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    for name, options in CASES:
        rate, games = random_moves_per_second(name, options, seconds)
        label = f"{name} {options.get('variant', '')}".strip()
        print(f"{label:<26} {rate:>10,.0f} random moves/s   ({games} games finished)")


if __name__ == "__main__":
    main()
