"""Full House: a wide beam search for the fewest moves that bring every piece onto the board.

The solver's own beam (``engine/solvers/full_house.py``: from each layer, every step with all
its adds; the ``--width`` positions with the most pieces on the board, then the most groups
holding exactly one piece, are kept) run wider than a hint or ``gameboard solve`` can afford.
A beam proves nothing about shorter solutions; the line it finds is replayed through the
state API and printed.

Run: ``.venv/bin/python bench/full_house_best.py [--width 20000] [--pieces 40]``.
2026-11-27, this machine: width 20,000 finds 36 moves for 40 pieces in 132 s
(widths up to 4,096, those of ``gameboard solve``, find 37).
"""

from __future__ import annotations

import argparse
import math
import time

from engine import new_game
from engine.solvers import Budget, Progress
from engine.solvers.full_house import _notation
from engine.solvers.full_house_search import Search
from engine.solvers.full_house_space import Space, node_key


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=20_000, help="positions kept per layer (default 20000)")
    parser.add_argument("--pieces", type=int, default=40, help="pieces that must end on the board (default 40)")
    args = parser.parse_args()

    state = new_game("full-house", pieces=args.pieces)
    started = time.monotonic()
    last = [0.0]

    def progress(report: Progress) -> None:
        if report.elapsed - last[0] >= 30:
            last[0] = report.elapsed
            print(f"  {report.elapsed:5.0f} s: {report.explored:,} positions", flush=True)

    search = Search(Space(state.layout, args.pieces), node_key(state.occupied, state.transit),
                     Budget(math.inf), progress)
    search.beam(args.width, 1.0)
    seconds = time.monotonic() - started
    if search.best is None:
        print(f"no solution found by a beam {args.width:,} wide ({seconds:.0f} s)")
        return
    moves = _notation(state.layout, search.best)
    for text in moves:
        state.apply(text)
    assert state.is_solved(), "the line does not replay"
    print(f"{len(search.best)} moves bring all {args.pieces} pieces onto the board, replayed "
          f"(a beam {args.width:,} wide, {search.explored:,} positions, {seconds:.0f} s):")
    print(" ".join(moves))


if __name__ == "__main__":
    main()
