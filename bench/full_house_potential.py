"""Find Full House's potential (engine/solvers/full_house_bound.py) with a linear program, check it, write it.

The unknowns are the weights of each window's patterns (a window: a hub of a ring and
its two groups-of-three) and of each compartment.  The constraints: for every step, every
pattern of the compartments around it and every choice of its adds, ``adds - 1 <= the
potential's change``.  The objective: the lowest bound on ``most(40) - potential(start)``,
the surplus pieces a solution may gain over one per step.  The weights are kept equal under
the board's symmetries, so only one step of each symmetric set is a constraint (an eighth).  Windows that
also take in the outer compartments beside each inner hub were tried: the same bound (5.66).

The solution is rounded to whole multiples of 1/SCALE (each constraint holds with MARGIN to
spare, which absorbs the rounding), checked exactly for every step, without the symmetries
(``Potential.violations``), and written to
``engine/solvers/data/full-house-potential.json``.  Needs scipy (``pip install scipy``);
two and a half minutes here.

Run: ``.venv/bin/python bench/full_house_potential.py [--dry-run] [--dual]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections.abc import Iterable, Iterator

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix

from engine.games.groups_of_three_layout import Layout, load_layout
from engine.solvers.full_house_bound import DATA_FILE, Potential, fingerprint

TOTAL = 40
#: The potential's unit: weights are whole multiples of 1/SCALE.
SCALE = 1 << 16
#: Each step's inequality holds with this much to spare, more than the rounding to 1/SCALE can take away
#: (a constraint has some twenty terms); it costs the bound about MARGIN per step of a solution.
MARGIN = 1e-3


def windows(layout: Layout) -> list[tuple[int, ...]]:
    """One window per hub: the hub, then the other compartments of its two groups."""
    result = []
    for hub, pairs in enumerate(layout.groups_at):
        useful = [pair for pair in pairs if not layout.no_rest.intersection(pair)]
        if len(useful) == 2:
            result.append((hub, *sorted({c for pair in useful for c in pair})))
    return result


class Program:
    """The linear program's columns and rows."""

    def __init__(self, layout: Layout, cells: list[tuple[int, ...]], perms: list[tuple[int, ...]]) -> None:
        self.layout, self.cells, self.perms = layout, cells, perms
        size = len(layout.faces)
        self.w0 = [0]
        for window in cells:
            self.w0.append(self.w0[-1] + (1 << len(window)))
        self.psi = self.w0[-1]
        self.top = self.psi + size  # per window: the most it holds at the end
        self.out = self.top + len(cells)  # per compartment outside every window: the same
        self.lam = self.out + size
        self.columns = self.lam + 1
        self.windows_at: dict[int, list[int]] = {}
        for k, window in enumerate(cells):
            for c in window:
                self.windows_at.setdefault(c, []).append(k)
        self.rows: list[tuple[dict[int, float], float]] = []
        #: For each row of a step, the step it was first made for: source, target, the position before, the adds.
        self.steps_of_rows: list[tuple[int, int, int, tuple[int, ...]]] = []
        self.equalities: list[dict[int, float]] = []

    def pattern(self, k: int, occupied: int) -> int:
        return sum(1 << j for j, c in enumerate(self.cells[k]) if occupied >> c & 1)

    def tie(self) -> None:
        """Weights equal under each symmetry: a window's pattern and its image's, a compartment and its image."""
        where = {frozenset(window): k for k, window in enumerate(self.cells)}
        for perm in self.perms:
            for c in range(len(perm)):
                if perm[c] != c:
                    self.equalities.append({self.psi + c: 1, self.psi + perm[c]: -1})
            for k, window in enumerate(self.cells):
                image = tuple(perm[c] for c in window)
                m = where[frozenset(image)]
                for p in range(1 << len(window)):
                    q = self.pattern(m, sum(1 << image[j] for j in range(len(window)) if p >> j & 1))
                    if (k, p) != (m, q):
                        self.equalities.append({self.w0[k] + p: 1, self.w0[m] + q: -1})

    def step_kinds(self) -> list[tuple[int, int]]:
        """One step (source, target) of each symmetric set, none into or out of the Center Square."""
        layout = self.layout
        steps = {min((perm[a], perm[b]) for perm in self.perms)
                 for a in range(len(layout.faces)) for b in layout.adjacent[a]}
        return [(s, x) for s, x in sorted(steps) if layout.center not in (s, x)]

    def choices(self, s: int, x: int, cells: list[int]) -> Iterator[tuple[int, int, tuple[int, ...]]]:
        """For the step ``s``-``x``, each pattern of ``cells`` with each choice of its adds: before, after, adds."""
        for bits in range(1 << len(cells)):
            before = 1 << s | sum(1 << c for j, c in enumerate(cells) if bits >> j & 1)
            moved = before ^ (1 << s) ^ (1 << x)
            targets = self.layout.add_targets(moved, x)
            for n in range(len(targets) + 1):
                for adds in itertools.combinations(targets, n):
                    yield before, moved | sum(1 << c for c in adds), adds

    def row(self, s: int, x: int, before: int, after: int, adds: tuple[int, ...],
            windows: Iterable[int]) -> dict[int, float]:
        """The left side of ``adds - 1 <= change`` in the program's form (``row . columns <= 1 - adds``), for the
        step ``s``-``x`` from ``before`` to ``after``; ``windows``: those whose pattern may change."""
        row: dict[int, float] = {self.psi + s: 1, self.psi + x: -1}
        for c in adds:  # an add may refill s
            row[self.psi + c] = row.get(self.psi + c, 0) - 1
        for k in windows:
            p, q = self.pattern(k, before), self.pattern(k, after)
            if p != q:
                row[self.w0[k] + p] = row.get(self.w0[k] + p, 0) + 1
                row[self.w0[k] + q] = row.get(self.w0[k] + q, 0) - 1
        return row

    def steps(self) -> None:
        """``adds - 1 <= change`` for one step of each symmetric set, every pattern around it and choice of adds."""
        seen = set()
        for s, x in self.step_kinds():
            near = {s, x, *(c for pair in self.layout.groups_at[x] for c in pair)}
            touched = sorted({k for c in near for k in self.windows_at.get(c, ())})
            others = sorted(({c for k in touched for c in self.cells[k]} | near) - {s, x, self.layout.center})
            for before, after, adds in self.choices(s, x, others):
                row = self.row(s, x, before, after, adds, touched)
                key = (tuple(sorted((c, v) for c, v in row.items() if v)), 1 - len(adds))
                if key not in seen:
                    seen.add(key)
                    self.rows.append((dict(key[0]), 1 - len(adds) - MARGIN))
                    self.steps_of_rows.append((s, x, before, adds))

    def end(self) -> None:
        """The bound on the potential at the end: per window, its best pattern less lam per piece (shared)."""
        share = [len(self.windows_at.get(c, ())) for c in range(len(self.layout.faces))]
        for k, window in enumerate(self.cells):
            for p in range(1 << len(window)):
                row = {self.top + k: -1.0, self.w0[k] + p: 1.0}
                for j, c in enumerate(window):
                    if p >> j & 1:
                        row[self.psi + c] = row.get(self.psi + c, 0) + 1 / share[c]
                        row[self.lam] = row.get(self.lam, 0) - 1 / share[c]
                self.rows.append((row, 0.0))
        self.outside = [c for c in range(len(share)) if not share[c] and c != self.layout.center]
        for c in self.outside:
            self.rows.append(({self.out + c: -1, self.psi + c: 1, self.lam: -1}, 0.0))

    def objective(self, start: int) -> np.ndarray:
        """The bound on ``most(TOTAL) - potential(start)``: what the program minimises."""
        objective = np.zeros(self.columns)
        objective[self.lam] = TOTAL
        objective[self.top:self.top + len(self.cells)] = 1
        for c in self.outside:
            objective[self.out + c] = 1
        for k in range(len(self.cells)):
            objective[self.w0[k] + self.pattern(k, start)] -= 1
        for c in members_of(start):
            objective[self.psi + c] -= 1
        return objective

    def bounds(self) -> list[tuple[float | None, float | None]]:
        bounds: list[tuple[float | None, float | None]] = [(None, None)] * self.columns
        for k in range(len(self.cells)):
            bounds[self.w0[k]] = (0, 0)  # an empty window weighs nothing
        for c in self.outside:
            bounds[self.out + c] = (0, None)
        return bounds

    def solve(self, start: int, dual: bool = False) -> np.ndarray:
        result = linprog(self.objective(start), A_ub=_matrix([r for r, _ in self.rows], self.columns),
                         b_ub=np.array([b for _, b in self.rows]),
                         A_eq=_matrix(self.equalities, self.columns), b_eq=np.zeros(len(self.equalities)),
                         bounds=self.bounds(), method="highs")
        if result.status != 0:
            raise SystemExit(f"the linear program failed: {result.message}")
        print(f"linear program: surplus at most {result.fun:.4f} pieces over one per step, from the start")
        if dual:
            self.print_dual(result.ineqlin.marginals[:len(self.steps_of_rows)])
        return result.x

    def print_dual(self, marginals: np.ndarray) -> None:
        """The dual solution: a fractional schedule of steps (each standing for its symmetric set) that gains the
        surplus while every window's patterns balance: what a stronger potential must rule out."""
        faces, used = self.layout.faces, sorted((-abs(m), k) for k, m in enumerate(marginals) if abs(m) > 1e-7)
        steps = {n: sum(abs(marginals[k]) for _, k in used if len(self.steps_of_rows[k][3]) == n) for n in (0, 1, 2)}
        print(f"the dual: a fractional schedule of {sum(steps.values()):.2f} steps, {steps[2]:.2f} adding two, "
              f"{steps[1]:.2f} one, {steps[0]:.2f} none ({len(used)} kinds of step):")
        for weight, k in used:
            s, x, before, adds = self.steps_of_rows[k]
            around = " ".join(faces[c] for c in members_of(before) if c != s) or "nothing"
            print(f"  {-weight:6.3f}  {faces[s]}-{faces[x]} adding {' '.join(faces[c] for c in adds) or 'nothing'}; "
                  f"pieces around: {around}")


def members_of(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def _matrix(rows: list[dict[int, float]], columns: int) -> coo_matrix:
    data = [(i, c, v) for i, row in enumerate(rows) for c, v in row.items()]
    return coo_matrix(([v for *_, v in data], ([i for i, *_ in data], [c for _, c, _ in data])),
                      shape=(len(rows), columns)).tocsr()


def exact(layout: Layout, program: Program, x: np.ndarray) -> Potential:
    """The solution rounded to integers in units of ``1/SCALE``: each constraint's ``MARGIN`` absorbs the rounding."""
    ints = [round(float(v) * SCALE) for v in x[:program.psi + len(layout.faces)]]
    scale = SCALE
    weights = [tuple(ints[program.w0[k]:program.w0[k + 1]]) for k in range(len(program.cells))]
    return Potential(layout, program.cells, weights, ints[program.psi:], scale)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="check and report, but do not write the file")
    parser.add_argument("--dual", action="store_true", help="print the dual: the fractional schedule behind the bound")
    args = parser.parse_args()
    began = time.perf_counter()
    layout = load_layout()
    program = Program(layout, windows(layout), list(layout.symmetries))
    program.tie()
    program.steps()
    program.end()
    print(f"{len(program.cells)} windows, {len(program.perms)} symmetries, {len(program.rows):,} rows, "
          f"{len(program.equalities):,} equalities ({time.perf_counter() - began:.0f} s)")
    start = sum(1 << c for c in layout.full_house_start)
    potential = exact(layout, program, program.solve(start, args.dual))
    bad = list(itertools.islice(potential.violations(), 5))
    if bad:
        raise SystemExit("the rounded potential fails at: " + "; ".join(bad))
    needed = potential.steps_needed(start, TOTAL)
    print(f"checked every step exactly (scale {potential.scale}); from the start: at least {needed} moves "
          f"({time.perf_counter() - began:.0f} s)")
    if not args.dry_run:
        write(potential)
        print(f"wrote {DATA_FILE} (layout {fingerprint(layout)})")


def write(potential: Potential) -> None:
    """The data file: one line per window."""
    data = potential.to_json()
    head = {"about": "Full House's potential: window and compartment weights in units of 1/scale, found by "
                     "bench/full_house_potential.py; engine/solvers/full_house_bound.py says what they bound.",
            "layout": data["layout"], "scale": data["scale"]}
    lines = [json.dumps(head, indent=1)[:-2] + ",", ' "windows": [',
             ",\n".join(f"  {json.dumps(window)}" for window in data["windows"]), " ],",
             f' "pieces": {json.dumps(data["pieces"])}', "}"]
    DATA_FILE.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
