"""Full House solver: the fewest steps that bring every piece onto the board.

Pieces are indistinguishable, so a search node is the set of occupied compartments
(an integer bitmask) plus the transit space a piece must leave next (or none), packed
into one integer.  The moves are the game's own (``Layout.add_targets`` decides the
adds), so a solution replays on ``FullHouseState`` exactly.

Two searches share the time limit:

* a narrow beam search finds a first solution fast (an upper bound); it always takes
  every add, which is what a player does;
* A* then proves a lower bound, or optimality, pruned by that upper bound.  Its
  heuristic, the pieces still in reserve divided by the most one step can bring in
  (rounded up), never overestimates and drops by at most one per step, so A* expands
  nodes in rising f = steps + heuristic: the f it has reached is a proven lower bound,
  reaching a goal proves it optimal, and running out of nodes proves no solution
  exists.  A* tries every subset of the adds, since leaving a compartment empty may help;
* if A* cannot finish in half the time, wider beams use the rest to improve the upper bound.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from engine.games.full_house import FullHouse, FullHouseState
from engine.games.groups_of_three import Add, Layout, Step, members
from engine.solvers import Progress, ProgressCallback, Solution

#: A step (source, target) with the compartments filled by the adds it triggered.
Action = tuple[int, int, tuple[int, ...]]

#: Nodes A* may keep before it stops with the bound it has (about 0.4 KB each: some 200 MB).
MAX_NODES = 500_000
#: The first beam's width: narrow, for a quick first solution that A* can prune with.
FIRST_WIDTH = 16
#: The share of the time limit after which A* gives way to wider beams.
ASTAR_SHARE = 0.5
#: Seconds between progress reports.
REPORT_EVERY = 0.25


def _key(occupied: int, transit: int) -> int:
    """One integer per node: the low 7 bits hold the transit index + 1 (boards under 127 compartments)."""
    return occupied << 7 | (transit + 1)


class _Space:
    """The puzzle's positions as integers and the steps between them."""

    def __init__(self, layout: Layout, total: int) -> None:
        self.layout = layout
        self.total = total
        self.per_step = layout.max_adds_per_step
        #: The groups that can give a piece (none that holds the Center Square).
        self.group_masks = [sum(1 << i for i in group) for group in layout.groups
                            if not layout.no_rest.intersection(group)]
        self.rng = random.Random(0)

    def heuristic(self, occupied: int) -> int:
        """Steps still needed at least: each step brings in at most ``per_step`` pieces."""
        return -(-(self.total - occupied.bit_count()) // self.per_step)

    def score(self, occupied: int) -> tuple[int, int, float]:
        """How promising a beam node is: pieces on the board, then groups holding exactly one
        piece (a piece stepping into either empty member brings one in), then chance."""
        armed = 0
        for mask in self.group_masks:
            if (occupied & mask).bit_count() == 1:
                armed += 1
        return occupied.bit_count(), armed, self.rng.random()

    def successors(self, key: int, every_subset: bool) -> Iterator[tuple[int, Action]]:
        """Each node one step away, with the step and the adds taken."""
        layout = self.layout
        occupied, transit = key >> 7, (key & 127) - 1
        reserve = self.total - occupied.bit_count()
        for source in (transit,) if transit >= 0 else members(occupied):
            left = occupied & ~(1 << source)
            for target in layout.adjacent[source]:
                if target == layout.center or occupied >> target & 1:
                    continue
                moved = left | 1 << target
                then = target if target in layout.transit else -1
                targets = layout.add_targets(moved, target)[:reserve] if reserve else ()
                for adds in (_subsets(targets) if every_subset else (targets,)):
                    filled = moved
                    for add in adds:
                        filled |= 1 << add
                    yield _key(filled, then), (source, target, adds)


def _subsets(items: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every subset, the largest first."""
    result: list[tuple[int, ...]] = [()]
    for item in items:
        result += [subset + (item,) for subset in result]
    return sorted(result, key=len, reverse=True)


class _Search:
    """One solve call: the clock, the counters, the best solution and the progress reports."""

    def __init__(self, space: _Space, start: int, time_limit: float, progress: ProgressCallback | None) -> None:
        self.space, self.start = space, start
        self.began = time.monotonic()
        self.deadline = self.began + time_limit
        self.progress = progress
        self.explored = 0
        self.best: list[Action] | None = None
        self.lower_bound = space.heuristic(start >> 7)
        self.next_report = 0.0

    def report(self, stage: str, force: bool = False) -> None:
        now = time.monotonic()
        if self.progress and (force or now >= self.next_report):
            self.next_report = now + REPORT_EVERY
            self.progress(Progress(now - self.began, self.explored, len(self.best) if self.best is not None else None,
                                   self.lower_bound, stage))

    def found(self, actions: list[Action]) -> None:
        if self.best is None or len(actions) < len(self.best):
            self.best = actions

    def beam(self, width: int, until: float) -> bool:
        """One beam search; False when it ran out of time."""
        space, stage = self.space, f"beam search, width {width}"
        layer: dict[int, tuple[int, Action] | None] = {self.start: None}
        layers = [layer]
        seen = {self.start}
        while layer:
            if self.best is not None and len(layers) >= len(self.best):
                return True
            children: dict[int, tuple[int, Action]] = {}
            for key in layer:
                for child, action in space.successors(key, every_subset=False):
                    if child not in seen and child not in children:
                        children[child] = (key, action)
                if time.monotonic() >= until:
                    return False
            self.explored += len(children)
            self.report(stage)
            goals = [child for child in children if (child >> 7).bit_count() == space.total]
            if goals:
                layers.append(children)
                self.found(_path(layers, goals[0]))
                return True
            kept = sorted(children, key=lambda child: space.score(child >> 7), reverse=True)[:width]
            layer = {child: children[child] for child in kept}
            seen.update(kept)
            layers.append(layer)
        return True

    def astar(self, until: float) -> str:
        """A* below the best cost found; returns how it ended: optimal, none, time or memory."""
        space = self.space
        g_of: dict[int, int] = {self.start: 0}
        parent: dict[int, tuple[int, Action] | None] = {self.start: None}
        buckets: dict[int, list[tuple[int, int]]] = {space.heuristic(self.start >> 7): [(0, self.start)]}
        f = min(buckets)
        while True:
            while f not in buckets or not buckets[f]:
                buckets.pop(f, None)
                if not buckets:
                    return "none"
                f = min(buckets)
            self.lower_bound = max(self.lower_bound, f)
            if self.best is not None and f >= len(self.best):
                return "optimal"
            g, key = buckets[f].pop()
            if g != g_of[key]:
                continue
            if (key >> 7).bit_count() == space.total:
                self.found(_chain(parent, key))
                return "optimal"
            self.explored += 1
            if not self.explored & 1023:
                if time.monotonic() >= until:
                    return "time"
                if len(g_of) > MAX_NODES:
                    return "memory"
                self.report("A* proving the bound")
            for child, action in space.successors(key, every_subset=True):
                if g_of.get(child, g + 2) > g + 1:
                    g_of[child] = g + 1
                    parent[child] = (key, action)
                    buckets.setdefault(g + 1 + space.heuristic(child >> 7), []).append((g + 1, child))


def _path(layers: list[dict[int, tuple[int, Action] | None]], goal: int) -> list[Action]:
    actions: list[Action] = []
    key = goal
    for layer in reversed(layers[1:]):
        key, action = layer[key]
        actions.append(action)
    return actions[::-1]


def _chain(parent: dict[int, tuple[int, Action] | None], goal: int) -> list[Action]:
    actions: list[Action] = []
    link = parent[goal]
    while link is not None:
        key, action = link
        actions.append(action)
        link = parent[key]
    return actions[::-1]


def _notation(layout: Layout, actions: list[Action]) -> list[str]:
    faces, moves = layout.faces, []
    for source, target, adds in actions:
        moves.append(str(Step(faces[source], faces[target])))
        moves.extend(str(Add(faces[add])) for add in adds)
    return moves


def solve(*, time_limit: float = 30.0, progress: ProgressCallback | None = None,
          state: FullHouseState | None = None) -> Solution:
    """The fewest steps from ``state`` (the book's start by default) to a full board."""
    state = state if state is not None else FullHouse().new_initial_state()
    layout, total = state.layout, state.game.target
    space = _Space(layout, total)
    start = _key(state.occupied, state.transit)
    if state.is_solved():
        return Solution([], True, True, 0, 0, f"all {total} pieces are already on the board")
    if state.occupied.bit_count() < 2:
        return Solution([], False, True, None, None,
                        "no solution: a piece brings another in only by entering a group-of-three that already "
                        "holds one other piece, so at least two pieces must be on the board")
    search = _Search(space, start, time_limit, progress)
    search.beam(FIRST_WIDTH, search.deadline)
    ending = search.astar(search.began + time_limit * ASTAR_SHARE)
    width = FIRST_WIDTH
    while ending in ("time", "memory") and width < 4096 and search.beam(width * 4, search.deadline):
        width *= 4
    search.report("done", force=True)
    moves = _notation(layout, search.best or [])
    if search.best is None:
        if ending == "none":
            return Solution([], False, True, None, None,
                            f"no solution: every one of the {search.explored:,} positions reachable from the start "
                            f"was searched and none has {total} pieces on the board")
        return Solution([], False, False, None, search.lower_bound,
                        f"no solution found in {time_limit:g} s; any solution needs at least "
                        f"{search.lower_bound} moves")
    cost = len(search.best)
    if ending in ("optimal", "none"):
        return Solution(moves, True, True, cost, cost, f"{cost} moves bring all {total} pieces onto the board; "
                        f"the search proved no shorter solution exists")
    why = "time limit" if ending == "time" else "memory limit"
    return Solution(moves, True, False, cost, search.lower_bound,
                    f"best found: {cost} moves bring all {total} pieces onto the board; the search stopped at its "
                    f"{why} having proved at least {search.lower_bound} moves are needed")
