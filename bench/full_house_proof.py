"""Prove Full House's fewest moves: check the potential, then A* from the start with its bound.

Two parts, each timed:

1. every step's inequality for the potential that ships
   (``engine/solvers/data/full-house-potential.json``), checked exactly: the premise of the bound;
2. A* from the book's start (the solver's own, ``engine/solvers/full_house.py``) with the 36-move
   line that ships as its best, until every position that could still lead to a shorter solution
   is expanded (the bound reaches 36: proved) or the node cap is reached.

Run: ``.venv/bin/python bench/full_house_proof.py [--pieces N] [--nodes N]``.
"""

from __future__ import annotations

import argparse
import time

from engine.games.full_house import FullHouse
from engine.solvers import Budget, known_rest
from engine.solvers import full_house as solver
from engine.solvers.full_house_bound import shipped_potential


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, default=40, help="pieces to bring onto the board (default 40)")
    parser.add_argument("--nodes", type=int, default=solver.MAX_NODES, help="A*'s node cap")
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
    print(f"bound at the start: {space.heuristic(state.occupied)} moves "
          f"(two pieces per step alone: {-(-(args.pieces - state.occupied.bit_count()) // space.per_step)})")
    solver.MAX_NODES = args.nodes
    search = solver._Search(space, start, Budget(24 * 3600.0), None)
    rest = known_rest(state, ())
    if rest:
        search.found(solver._actions(layout, rest))
    else:
        search.beam(solver.FIRST_WIDTH, 1.0)
    began = time.perf_counter()
    ending = search.astar(1.0)
    seconds = time.perf_counter() - began
    best = len(search.best) if search.best is not None else None
    if ending == "optimal":
        print(f"A*: {best} moves, and no fewer: every position that could lead to a shorter solution expanded "
              f"({search.explored:,} positions, {seconds:.0f} s)")
    elif ending == "none":
        print(f"A*: no solution exists ({search.explored:,} positions, {seconds:.0f} s)")
    else:
        print(f"A*: stopped at its {ending} cap ({search.explored:,} positions expanded, {seconds:.0f} s): "
              f"best {best} moves, at least {search.lower_bound} proved")


if __name__ == "__main__":
    main()
