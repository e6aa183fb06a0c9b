"""Random play of every game against python-chess's, in one run: moves per second and the ratio.

A move is one push of ``state.random_move(rng)``, as a search's playout makes it: a step
of a turn, a dice roll, a button move (``end``) all count; python-chess's is one random
legal move (``random.choice(list(board.legal_moves))``) and its push.  A finished game is
started again from the same game object (its tables and layout already read).
python-chess comes with the bench extra (``pip install -e '.[bench]'``).
Run from the repository: ``.venv/bin/python bench/random_play.py [seconds per case]``.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from engine.registry import game_class

CASES: list[tuple[str, dict[str, Any]]] = [
    ("overpass", {"players": 2}), ("overpass", {"players": 3}), ("overpass", {"players": 4}),
    ("groups-of-three", {}), ("mono-line", {}), ("full-house", {}), ("crooked-jumps", {}),
    ("overpass-spiral", {}), ("squareoff", {"variant": "classic"}), ("squareoff", {"variant": "jump-off"}),
    ("squareoff", {"variant": "trading-places"}), ("hexover", {}), ("pawns-crossing", {}),
]


def game_rate(name: str, options: dict[str, Any], seconds: float) -> float:
    rng = random.Random(0)
    game = game_class(name)(**options)
    state = game.new_initial_state()
    moves = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        if state.is_terminal():
            state = game.new_initial_state()
        state.push(state.random_move(rng))
        moves += 1
    return moves / elapsed


def chess_rate(seconds: float) -> float | None:
    try:
        import chess
    except ModuleNotFoundError:
        return None
    rng = random.Random(0)
    board = chess.Board()
    moves = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        if board.is_game_over(claim_draw=False):
            board = chess.Board()
        board.push(rng.choice(list(board.legal_moves)))
        moves += 1
    return moves / elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    chess = chess_rate(seconds)
    if chess is None:
        print("python-chess is not installed (pip install -e '.[bench]'): no ratio")
    else:
        print(f"{'python-chess':<30} {chess:>9,.0f} moves/s")
    for name, options in CASES:
        rate = game_rate(name, options, seconds)
        label = " ".join([name, *(f"{k}={v}" for k, v in options.items())])
        ratio = f"{rate / chess:5.2f}x" if chess else ""
        print(f"{label:<30} {rate:>9,.0f} moves/s  {ratio}")


if __name__ == "__main__":
    main()
