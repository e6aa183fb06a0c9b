"""Full House solver: the fewest steps that bring every piece onto the board.

Pieces are indistinguishable, so a search node is the set of occupied compartments
(an integer bitmask) plus the transit space a piece must leave next (or none), packed
into one integer.  The moves are the game's own (``Layout.add_targets`` decides the
adds), so a solution replays on ``FullHouseState`` exactly.

Two searches share the time limit:

* a narrow beam search finds a first solution fast (an upper bound); it always takes
  every add, which is what a player does.  On a line that ships (``data/lines.json``: the
  36 moves found by ``bench/full_house_best.py``) the line's rest is that first solution;
* A* then proves a lower bound, or optimality, pruned by that upper bound.  Its
  heuristic, the larger of the pieces still in reserve divided by the most one step can
  bring in (rounded up) and the bound of ``full_house_bound`` (every piece beyond one per
  step must have been prepared), never overestimates and drops by at most one per step,
  so A* expands nodes in rising f = steps + heuristic: the f it has reached is a proven
  lower bound, reaching a goal proves it optimal, and running out of nodes proves no
  solution exists.  A* tries every subset of the adds, since leaving a compartment empty may help;
* if A* cannot finish in half the time, wider beams use the rest to improve the upper bound.

``_Search.exhaust`` settles a bound for good (``bench/full_house_proof.py``): every position a
way within it could pass, breadth first, one per symmetry class.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from engine.bitsets import members
from engine.core import State
from engine.games.full_house import FullHouse, FullHouseState
from engine.games.groups_of_three_layout import Layout
from engine.games.groups_of_three_movement import Add, Step
from engine.solvers import Budget, Hint, Progress, ProgressCallback, Solution, SolverError, Stop, known_rest, plural
from engine.solvers.full_house_bound import shipped_potential
from engine.solvers.symmetry import Symmetries

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
#: Seconds a hint searches at most: the shortest solution it finds then is good enough to point the way.
HINT_S = 1.5
#: Why a single piece is stuck for good.
LONE_PIECE = ("a piece brings another in only by entering a group-of-three that already holds one other piece, "
              "so at least two pieces must be on the board")


def _key(occupied: int, transit: int) -> int:
    """One integer per node: the low 7 bits hold the transit index + 1 (boards under 127 compartments)."""
    return occupied << 7 | (transit + 1)


class _Space:
    """The puzzle's positions as integers and the steps between them."""

    def __init__(self, layout: Layout, total: int) -> None:
        self.layout = layout
        self.total = total
        self.per_step = layout.max_adds_per_step
        self.potential = shipped_potential(layout)
        #: The groups that can give a piece (none that holds the Center Square).
        self.group_masks = [sum(1 << i for i in group) for group in layout.groups
                            if not layout.no_rest.intersection(group)]
        self.rng = random.Random(0)

    def heuristic(self, occupied: int) -> int:
        """Steps still needed at least: each step brings in at most ``per_step`` pieces, and every piece beyond
        one per step must have been prepared (``full_house_bound``)."""
        by_step = -(-(self.total - occupied.bit_count()) // self.per_step)
        if self.potential is None:
            return by_step
        return max(by_step, self.potential.steps_needed(occupied, self.total))

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

    def __init__(self, space: _Space, start: int, budget: Budget, progress: ProgressCallback | None) -> None:
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


def _notation(layout: Layout, actions: list[Action]) -> list[str]:
    faces, moves = layout.faces, []
    for source, target, adds in actions:
        moves.append(str(Step(faces[source], faces[target])))
        moves.extend(str(Add(faces[add])) for add in adds)
    return moves


def _actions(layout: Layout, moves: Sequence[str]) -> list[Action]:
    """Notation (``f48-f49 +f57 ...``, a step first) as the search's actions."""
    actions: list[Action] = []
    for text in moves:
        if text.startswith("+"):
            source, target, adds = actions[-1]
            actions[-1] = (source, target, (*adds, layout.index[text[1:]]))
        else:
            source, target = (layout.index[face] for face in text.split("-"))
            actions.append((source, target, ()))
    return actions


def _search(space: _Space, start: int, budget: Budget, progress: ProgressCallback | None,
            known: list[Action] | None = None) -> tuple[_Search, str]:
    """A first beam (or a ``known`` solution), then A* for half the time, then wider beams while the time lasts:
    the search and how A* ended (optimal, none, time or memory)."""
    search = _Search(space, start, budget, progress)
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


def _full_house_state(state: State | None) -> FullHouseState:
    if state is None:
        return FullHouse().new_initial_state()
    if not isinstance(state, FullHouseState):
        raise SolverError(f"the Full House solver needs a Full House position, not a {state.game.name} one")
    return state


def solve(*, time_limit: float = 30.0, progress: ProgressCallback | None = None, state: State | None = None,
          stop: Stop | None = None) -> Solution:
    """The fewest steps from ``state`` (the book's start by default) to a full board."""
    state = _full_house_state(state)
    layout, total = state.layout, state.game.target
    if state.is_solved():
        return Solution([], True, True, 0, 0, f"all {total} pieces are already on the board")
    if state.occupied.bit_count() < 2:
        return Solution([], False, True, None, None, f"no solution: {LONE_PIECE}")
    if state.pending and len(state.pending) >= state.reserve[0]:
        adds = [str(Add(layout.faces[add])) for add in state.pending[:state.reserve[0]]]
        return Solution(adds, True, True, 0, 0, "the adds still open bring the last pieces onto the board")
    budget = Budget(time_limit, stop)
    rest = known_rest(state, ())
    if rest:  # a line that ships: the adds it takes, then its steps
        opening = tuple(itertools.takewhile(lambda text: text.startswith("+"), rest))
        choices = [(tuple(layout.index[text[1:]] for text in opening), _actions(layout, rest[len(opening):]) or None)]
    else:
        choices = [(adds, None) for adds in _add_choices(state)]
    outcome = _search_choices(state, choices, time_limit, stop, progress)
    open_adds = " (each choice of the adds still open searched)" if len(choices) > 1 else ""
    if outcome.cost is None:
        if outcome.lower is None:
            return Solution([], False, True, None, None,
                            f"no solution: every one of the {outcome.explored:,} positions reachable from the start "
                            f"was searched and none has {total} pieces on the board{open_adds}")
        return Solution([], False, False, None, outcome.lower,
                        f"no solution found {budget.ended()}; any solution needs at least {outcome.lower} moves")
    cost, moves = outcome.cost, outcome.moves
    shipped = " (a line that ships with the puzzle)" if outcome.shipped else ""
    if outcome.proved:
        return Solution(moves, True, True, cost, cost, f"{cost} moves bring all {total} pieces onto the board{shipped}; "
                        f"the search proved no shorter solution exists{open_adds}")
    why = "memory limit" if outcome.memory else "stop" if budget.stopped else "time limit"
    return Solution(moves, True, False, cost, outcome.lower,
                    f"best found: {cost} moves bring all {total} pieces onto the board{shipped}; the search stopped at its "
                    f"{why} having proved at least {outcome.lower} moves are needed{open_adds}")


class _Outcome(NamedTuple):
    """The searches from each choice of the adds still open, together."""

    cost: int | None  # the best solution's steps; None when no search found one
    moves: list[str]  # its moves, its adds first
    shipped: bool  # it is the rest of a line that ships
    lower: int | None  # the fewest steps proved needed; None when proved impossible from every choice
    explored: int
    memory: bool  # a search stopped at its memory cap

    @property
    def proved(self) -> bool:
        """Whether no solution is shorter than the best found, from any choice."""
        return self.cost is not None and (self.lower is None or self.cost <= self.lower)


def _search_choices(state: FullHouseState, choices: list[tuple[tuple[int, ...], list[Action] | None]],
                    seconds: float, stop: Stop | None, progress: ProgressCallback | None) -> _Outcome:
    """Search from ``state`` after each choice of adds (with the known solution from there, if any), each in an
    equal share of ``seconds``; a choice that leaves a lone piece is skipped."""
    layout, space = state.layout, _Space(state.layout, state.game.target)
    best: tuple[int, int, list[str], bool] | None = None
    bounds, explored, memory = [], 0, False
    for adds, known in choices:
        occupied = state.occupied | sum(1 << add for add in adds)
        if occupied.bit_count() < 2:
            continue
        search, ending = _search(space, _key(occupied, state.transit), Budget(seconds / len(choices), stop),
                                 progress, known)
        explored += search.explored
        memory = memory or ending == "memory"
        bounds.append(_proved_bound(search, ending))
        if search.best is not None:
            moves = [str(Add(layout.faces[add])) for add in adds] + _notation(layout, search.best)
            option = (len(search.best), -len(moves), moves, known is not None and search.best is known)
            best = option if best is None or option[:2] < best[:2] else best
    lower = min((bound for bound in bounds if bound is not None), default=None)
    if best is None:
        return _Outcome(None, [], False, lower, explored, memory)
    return _Outcome(best[0], best[2], best[3], lower, explored, memory)


def _proved_bound(search: _Search, ending: str) -> int | None:
    """The fewest moves a search proved its start needs: its solution's when it proved it shortest (A* finished),
    None when it proved there is none; otherwise the bound it reached."""
    if ending in ("optimal", "none"):
        return len(search.best) if search.best is not None else None
    return search.lower_bound


def _add_choices(state: FullHouseState) -> list[tuple[int, ...]]:
    """The adds still open that may be taken before the next step: each choice of them the reserve allows,
    the most first (adds are free, but leaving a compartment empty may help)."""
    return [adds for adds in _subsets(state.pending) if len(adds) <= state.reserve[0]]


def hint(state: State, *, time_limit: float, stop: Stop | None = None, known: Sequence[str] = ()) -> Hint:
    """The next move of the shortest solution found from ``state`` within ``HINT_S`` seconds (of ``known``
    while the game follows it).

    Adds still open may be taken or left, so each choice of them is searched (adds are free).
    """
    state = _full_house_state(state)
    total = state.game.target
    if state.is_solved():
        return Hint((), None, f"solved: all {total} pieces are on the board")
    aim = f"all {total} pieces on the board"
    rest = known_rest(state, known)
    if rest:
        steps = sum(not move.startswith("+") for move in rest)  # adds ("+f57") are free
        return Hint(rest, None, f"{plural(steps, 'more move')} to {aim} (the fewest found)")
    if state.occupied.bit_count() < 2 and not state.pending:
        return Hint((), None, f"impossible from here: {LONE_PIECE}", lost=True)
    seconds = min(time_limit, HINT_S)
    outcome = _search_choices(state, [(adds, None) for adds in _add_choices(state)], seconds, stop, None)
    if outcome.cost is None:
        if outcome.lower is None:  # every choice of the adds searched to the end
            return Hint((), None, f"impossible from here: every one of the {outcome.explored:,} positions reachable "
                                  f"was searched and none has {total} pieces on the board", lost=True)
        return Hint((), None, f"no way to {aim} found within {seconds:g} s; it takes at least "
                              f"{plural(outcome.lower, 'more move')}")
    proof = "the fewest possible" if outcome.proved else "the fewest found"
    return Hint(tuple(outcome.moves), None, f"{plural(outcome.cost, 'more move')} to {aim} ({proof})")
