"""Random play of every game against python-chess's, in one run: moves per second and the ratio.

Two modes, each a move = one ``push``, as a search makes it (a step of a turn, a dice roll, a
button move such as ``end`` all count):

- *random move*: ``state.random_move(rng)``, a playout's way, which a game may make without
  listing every move;
- *list all*: ``list(state.legal_moves)`` first, as the LEDs at a lift and a search's node need
  it, then a random one of them (at a dice roll, by the dice's odds).

python-chess's move is the same in both: its legal moves listed (``list(board.legal_moves)``)
and a random one pushed.  It is measured again before each game, which is compared with that
figure: a shared machine's load drifts over a run.  Time is the process's CPU time
(``time.process_time``), as the arena's: on a machine shared with other work the wall clock
counts their time too.  A finished game is started again from the
same game object (its tables and layout already read).  python-chess comes with the bench extra
(``pip install -e '.[bench]'``).
Run from the repository: ``.venv/bin/python bench/random_play.py [seconds per case and mode] [game ...]``
(every game when none is named).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

from engine.core import Move, State
from engine.registry import game_class

CASES: list[tuple[str, dict[str, Any]]] = [
    ("overpass", {"players": 2}), ("overpass", {"players": 3}), ("overpass", {"players": 4}),
    ("groups-of-three", {}), ("mono-line", {}), ("full-house", {}), ("crooked-jumps", {}),
    ("overpass-spiral", {}), ("squareoff", {"variant": "classic"}), ("squareoff", {"variant": "jump-off"}),
    ("squareoff", {"variant": "trading-places"}), ("hexover", {}), ("pawns-crossing", {}),
]


def random_move(state: State, rng: random.Random) -> Move:
    return state.random_move(rng)


def listed_move(state: State, rng: random.Random) -> Move:
    moves = list(state.legal_moves)
    return state.random_move(rng) if state.is_chance_node() else rng.choice(moves)


MODES: dict[str, Callable[[State, random.Random], Move]] = {"random move": random_move, "list all": listed_move}


def game_rate(name: str, options: dict[str, Any], pick: Callable[[State, random.Random], Move],
              seconds: float) -> float:
    rng = random.Random(0)
    game = game_class(name)(**options)
    state = game.new_initial_state()
    moves = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        if state.is_terminal():
            state = game.new_initial_state()
        state.push(pick(state, rng))
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
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        if board.is_game_over(claim_draw=False):
            board = chess.Board()
        board.push(rng.choice(list(board.legal_moves)))
        moves += 1
    return moves / elapsed


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    if chess_rate(0.01) is None:
        print("python-chess is not installed (pip install -e '.[bench]'): no ratio")
    print(f"{'moves/s (x python-chess)':<32}{'python-chess':>12}" + "".join(f"{mode:>22}" for mode in MODES))
    names = sys.argv[2:]
    for name, options in CASES:
        if names and name not in names:
            continue
        label = " ".join([name, *(f"{k}={v}" for k, v in options.items())])
        chess = chess_rate(seconds)
        cells = [f"{chess:>12,.0f}" if chess else f"{'-':>12}"]
        for pick in MODES.values():
            rate = game_rate(name, options, pick, seconds)
            cells.append(f"{rate:>15,.0f}" + (f" {rate / chess:5.2f}x" if chess else " " * 7))
        print(f"{label:<32}{''.join(cells)}", flush=True)


if __name__ == "__main__":
    main()
