"""Prove Full House's fewest moves: check the potential, then rule out every way shorter than the best.

Two parts, each timed:

1. every step's inequality for the potential that ships
   (``engine/solvers/data/full-house-potential.json``), checked exactly: the premise of the bound;
2. for each bound from the start's own up, every position a way of that many steps or fewer
   could pass, breadth first, one per symmetry class (``_Search.exhaust`` in
   ``engine/solvers/full_house.py``): none holding every piece proves one move more is needed;
   one that does proves the bound is the fewest.  It stops at the first bound it cannot
   finish within the positions cap.

Run: ``.venv/bin/python bench/full_house_proof.py [--pieces N] [--positions N]``.
"""

from __future__ import annotations

import argparse
import time

from engine.games.full_house import FullHouse
from engine.solvers import Budget
from engine.solvers import full_house as solver
from engine.solvers.full_house_bound import shipped_potential

#: Positions kept at most per bound (some 150 bytes each); ruling out 33 moves keeps 444,139.
POSITIONS = 500_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=40, help="pieces to bring onto the board (default 40)")
    parser.add_argument("--positions", type=int, default=POSITIONS, help=f"positions kept at most (default {POSITIONS:,})")
    args = parser.parse_args()
    state = FullHouse(pieces=args.pieces).new_initial_state()
    layout = state.layout
    potential = shipped_potential(layout)
    if potential is None:
        raise SystemExit("no potential ships for this layout: run bench/full_house_potential.py")
    began = time.perf_counter()
    bad = next(potential.violations(), None)
    if bad is not None:
        raise SystemExit(f"the potential is not sound: {bad}")
    print(f"potential: every step's inequality holds, checked exactly ({time.perf_counter() - began:.1f} s)")
    space = solver._Space(layout, args.pieces)
    start = solver._key(state.occupied, state.transit)
    bound = space.heuristic(state.occupied)
    print(f"bound at the start: {bound} moves (two pieces per step alone: "
          f"{-(-(args.pieces - state.occupied.bit_count()) // space.per_step)})")
    while True:
        search = solver._Search(space, start, Budget(float("inf")), None)
        began = time.perf_counter()
        ending = search.exhaust(bound, args.positions)
        seconds = time.perf_counter() - began
        seen = f"{search.explored:,} positions, symmetric ones counted once, {seconds:.0f} s"
        if ending == "solved":
            print(f"{bound} moves bring all {args.pieces} pieces onto the board, and no fewer ({seen})")
            return
        if ending == "none":
            print(f"no way of {bound} moves or fewer: at least {bound + 1} proved ({seen})")
            bound += 1
            continue
        print(f"ways of {bound} moves or fewer: stopped on reaching {args.positions:,} positions, {search.explored:,} "
              f"of them expanded ({seconds:.0f} s); at least {bound} proved")
        return


if __name__ == "__main__":
    main()
