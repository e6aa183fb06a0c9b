"""The Full House solver's searches over ``full_house_space``: a beam for a first solution, A* for a
proven bound, and ``Search.exhaust`` to settle a bound for good (see ``full_house`` for how they share
the time)."""

from __future__ import annotations

import time

from engine.solvers import Budget, Progress, ProgressCallback
from engine.solvers.full_house_space import Action, Space
from engine.solvers.symmetry import Symmetries

#: Nodes A* may keep before it stops with the bound it has (about 0.4 KB each: some 200 MB).
MAX_NODES = 500_000
#: The first beam's width: narrow, for a quick first solution that A* can prune with.
FIRST_WIDTH = 16
#: The share of the time limit after which A* gives way to wider beams.
ASTAR_SHARE = 0.5
#: Seconds between progress reports.
REPORT_EVERY = 0.25


class Search:
    """One solve call: the clock, the counters, the best solution and the progress reports."""

    def __init__(self, space: Space, start: int, budget: Budget, progress: ProgressCallback | None) -> None:
        self.space, self.start = space, start
        self.budget = budget
        self.progress = progress
        self.explored = 0
        self.best: list[Action] | None = None
        self.lower_bound = space.heuristic(start >> 7)
        self.next_report = 0.0

    def report(self, stage: str, force: bool = False) -> None:
        now = time.monotonic()
        if self.progress and (force or now >= self.next_report):
            self.next_report = now + REPORT_EVERY
            self.progress(Progress(self.budget.elapsed(), self.explored, len(self.best) if self.best is not None else None,
                                   self.lower_bound, stage))

    def found(self, actions: list[Action]) -> None:
        if self.best is None or len(actions) < len(self.best):
            self.best = actions

    def beam(self, width: int, share: float) -> bool:
        """One beam search; False when it ran out of time (``share`` of the budget)."""
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
                if self.budget.spent(share):
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

    def astar(self, share: float) -> str:
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
                if self.budget.spent(share):
                    return "time"
                if len(g_of) > MAX_NODES:
                    return "memory"
                self.report("A* proving the bound")
            for child, action in space.successors(key, every_subset=True):
                if g_of.get(child, g + 2) > g + 1:
                    g_of[child] = g + 1
                    parent[child] = (key, action)
                    buckets.setdefault(g + 1 + space.heuristic(child >> 7), []).append((g + 1, child))

    def exhaust(self, bound: int, cap: int) -> str:
        """Whether a way of at most ``bound`` steps exists, settled by seeing every position one could pass.

        Breadth first, the positions whose steps so far plus the heuristic are within ``bound``,
        one per symmetry class (a position with a piece in a transit space is kept as it stands).
        Memory goes on the positions kept, not on every child generated as in A*, so this reaches
        bounds A* runs out of memory before.  Returns "solved" (a position holding every piece was
        reached), "none" (no such way exists), "memory" (over ``cap`` positions) or "time";
        ``explored`` counts the positions expanded.
        """
        space = self.space
        symmetries = Symmetries(space.layout.symmetries, len(space.layout.faces))

        def canonical(key: int) -> int:
            return key if key & 127 else symmetries.canonical(key >> 7) << 7

        seen = {canonical(self.start)}
        layer = list(seen)
        for steps in range(bound + 1):
            following: list[int] = []
            for key in layer:
                if (key >> 7).bit_count() == space.total:
                    return "solved"
                for child, _ in space.successors(key, every_subset=True):
                    if steps + 1 + space.heuristic(child >> 7) <= bound:
                        child = canonical(child)
                        if child not in seen:
                            seen.add(child)
                            following.append(child)
                self.explored += 1
                if not self.explored & 1023:
                    if self.budget.spent():
                        return "time"
                    if len(seen) > cap:
                        return "memory"
                    self.report(f"every way of {bound} steps or fewer")
            layer = following
        return "none"


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


def run_searches(space: Space, start: int, budget: Budget, progress: ProgressCallback | None,
                 known: list[Action] | None = None) -> tuple[Search, str]:
    """A first beam (or a ``known`` solution), then A* for half the time, then wider beams while the time lasts:
    the search and how A* ended (optimal, none, time or memory)."""
    search = Search(space, start, budget, progress)
    if known:
        search.found(known)
    else:
        search.beam(FIRST_WIDTH, 1.0)
    ending = search.astar(ASTAR_SHARE)
    width = FIRST_WIDTH
    while ending in ("time", "memory") and width < 4096 and search.beam(width * 4, 1.0):
        width *= 4
    search.report("done", force=True)
    return search, ending
