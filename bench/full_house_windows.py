"""How far larger windows take Full House's potential: the bound from windows of N groups along each ring.

The potential that ships (``engine/solvers/full_house_bound.py``) weighs windows of five
compartments: a hub and its two groups-of-three.  A potential over windows of N consecutive
groups of a ring sees more of how steps follow one another; this bench measures the least
surplus (pieces a solution gains over one per step, from the start) such a potential can
prove, for each N asked.  Steps needed from the start are at least the pieces to add less
that surplus.

The linear program is ``bench/full_house_potential.py``'s, built by cutting planes: listing
every pattern around every step is out of reach from three groups on (4,323 columns and 505
million rows; two groups, 2 million).  Each round solves the program with the rows found so far, then, for every
kind of step, pattern of its groups and choice of adds, finds the pattern of the windows'
other compartments that the weights pay least for and adds it as a row when it breaks the
inequality.  That worst pattern is found ring by ring (the windows of the two rings share no
compartment, so the least sum is the sum of each ring's least).  When no row is broken, the
weights satisfy every step's inequality and the bound is the program's.  The weights are held
within +-BOUND while rows are missing; the bench says when that holds the bound up (it does not
for two or three groups).

Writes nothing.  Needs scipy and numpy.
Run: ``.venv/bin/python bench/full_house_windows.py [--groups N ...]`` (default 2 3).
"""

from __future__ import annotations

import argparse
import time
from typing import NamedTuple

import numpy as np
from full_house_potential import MARGIN, TOTAL, Program, _matrix, members_of
from scipy.optimize import linprog

from engine.games.groups_of_three_layout import Layout, load_layout

#: Every weight lies within +-BOUND pieces while the rows are incomplete (the bound of 2 groups needs under 10).
BOUND = 30.0
#: A row is broken when it misses by more than this (the program's own tolerance is far below MARGIN).
TOLERANCE = 1e-6


def rings(layout: Layout) -> list[list[tuple[int, ...]]]:
    """Each ring's groups-of-three in order around it: each shares one compartment with the next."""
    groups = [g for g in layout.groups if not layout.no_rest.intersection(g)]
    unplaced, result = set(range(len(groups))), []
    while unplaced:
        ring = [min(unplaced)]
        unplaced.discard(ring[0])
        while following := [j for j in sorted(unplaced) if set(groups[ring[-1]]) & set(groups[j])]:
            ring.append(following[0])
            unplaced.discard(following[0])
        result.append([groups[j] for j in ring])
    return result


def windows(layout: Layout, span: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """Every run of ``span`` consecutive groups of a ring as a window, with the ring each lies in."""
    cells, ring_of = [], []
    for r, ring in enumerate(rings(layout)):
        for i in range(len(ring)):
            cells.append(tuple(sorted({c for j in range(span) for c in ring[(i + j) % len(ring)]})))
            ring_of.append(r)
    return cells, ring_of


class Cluster(NamedTuple):
    """The windows of one ring that a step touches, their compartments beside the step's, and, per window and
    pattern of those compartments, the window's pattern bits they set."""

    windows: list[int]
    others: list[int]
    bits: np.ndarray


class StepKind(NamedTuple):
    """A step (one of each symmetric set), its clusters, and each (before, after, adds) of its groups' patterns."""

    source: int
    target: int
    clusters: list[Cluster]
    choices: list[tuple[int, int, tuple[int, ...]]]


class CuttingPlanes:
    """The program over windows of ``span`` groups, its rows found a round at a time."""

    def __init__(self, layout: Layout, span: int) -> None:
        cells, self.ring_of = windows(layout, span)
        self.program = Program(layout, cells, list(layout.symmetries))
        self.program.tie()
        self.program.end()
        self.kinds = self._kinds()

    def _kinds(self) -> list[StepKind]:
        program, layout = self.program, self.program.layout
        kinds = []
        for s, x in program.step_kinds():
            near = {s, x, *(c for pair in layout.groups_at[x] for c in pair)} - {layout.center}
            core = sorted(near - {s, x})
            touched = sorted({k for c in near for k in program.windows_at.get(c, ())})
            clusters = []
            for ring in sorted({self.ring_of[k] for k in touched}):
                ks = [k for k in touched if self.ring_of[k] == ring]
                others = sorted({c for k in ks for c in program.cells[k]} - near)
                patterns = np.arange(1 << len(others))
                bits = np.zeros((len(ks), len(patterns)), dtype=np.int64)
                for i, k in enumerate(ks):
                    for j, c in enumerate(others):
                        if c in program.cells[k]:
                            bits[i] |= (patterns >> j & 1) << program.cells[k].index(c)
                clusters.append(Cluster(ks, others, bits))
            kinds.append(StepKind(s, x, clusters, list(program.choices(s, x, core))))
        return kinds

    def solve(self, start: int) -> tuple[float, np.ndarray]:
        program = self.program
        free = [low is None and high is None for low, high in program.bounds()]
        for k in range(len(program.cells)):
            free[program.top + k] = False
        bounds = [(-BOUND, BOUND) if held else (low, high) for held, (low, high) in zip(free, program.bounds())]
        bounds[program.lam] = (-BOUND * TOTAL, BOUND * TOTAL)
        result = linprog(program.objective(start), A_ub=_matrix([r for r, _ in program.rows], program.columns),
                         b_ub=np.array([b for _, b in program.rows]),
                         A_eq=_matrix(program.equalities, program.columns), b_eq=np.zeros(len(program.equalities)),
                         bounds=bounds, method="highs")
        if result.status != 0:
            raise SystemExit(f"the linear program failed: {result.message}")
        #: How much the bound would fall were BOUND lifted a unit: 0 when it holds back no weight that counts.
        self.bound_costs = float(np.abs(result.lower.marginals[free]).sum() + np.abs(result.upper.marginals[free]).sum())
        return result.fun, result.x

    def cut(self, values: np.ndarray) -> int:
        """Add a row for each step, pattern of its groups and choice of adds whose inequality the weights break;
        return how many."""
        program = self.program
        columns = [values[program.w0[k]:program.w0[k + 1]] for k in range(len(program.cells))]
        added = 0
        for kind in self.kinds:
            for before, after, adds in kind.choices:
                change = (values[program.psi + kind.target] - values[program.psi + kind.source]
                          + sum(values[program.psi + c] for c in adds))
                around = 0
                for cluster in kind.clusters:
                    least = np.zeros(cluster.bits.shape[1])
                    for k, bits in zip(cluster.windows, cluster.bits):
                        least += (columns[k][bits | program.pattern(k, after)]
                                  - columns[k][bits | program.pattern(k, before)])
                    worst = int(np.argmin(least))
                    change += least[worst]
                    around |= sum(1 << c for j, c in enumerate(cluster.others) if worst >> j & 1)
                if change < len(adds) - 1 + MARGIN - TOLERANCE:
                    windows = [k for cluster in kind.clusters for k in cluster.windows]
                    row = program.row(kind.source, kind.target, before | around, after | around, adds, windows)
                    program.rows.append((row, 1 - len(adds) - MARGIN))
                    added += 1
        return added


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, nargs="+", default=[2, 3], help="groups per window (default 2 3)")
    args = parser.parse_args()
    layout = load_layout()
    start = sum(1 << c for c in layout.full_house_start)
    to_add = TOTAL - len(members_of(start))
    for span in args.groups:
        began = time.perf_counter()
        planes = CuttingPlanes(layout, span)
        cells = len(planes.program.cells[0])
        rounds = 0
        while True:
            surplus, values = planes.solve(start)
            rounds += 1
            added = planes.cut(values)
            if not added:
                break
        rows = len(planes.program.rows)
        held = "" if planes.bound_costs < 1e-9 else f" (BOUND holds the weights: {planes.bound_costs:.2g} of it)"
        print(f"windows of {span} groups ({cells} compartments): surplus at most {surplus:.4f} pieces, so at least "
              f"{int(np.ceil(to_add - surplus - 1e-9))} moves from the start ({rounds} rounds, {rows:,} rows, "
              f"{time.perf_counter() - began:.0f} s){held}", flush=True)


if __name__ == "__main__":
    main()
