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

``Search.exhaust`` settles a bound for good (``bench/full_house_proof.py``): every position a
way within it could pass, breadth first, one per symmetry class.

The nodes and their steps are in ``full_house_space``, the searches in ``full_house_search``;
this module chooses what to search and words the answers (``solve``, ``hint``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

from engine.core import State
from engine.games.full_house import FullHouse, FullHouseState
from engine.games.groups_of_three_layout import Layout
from engine.games.groups_of_three_movement import Add, Step
from engine.solvers import Budget, Hint, ProgressCallback, Solution, SolverError, Stop, known_rest, plural
from engine.solvers.full_house_search import Search, run_searches
from engine.solvers.full_house_space import Action, Space, node_key, subsets

#: Seconds a hint searches at most: the shortest solution it finds then is good enough to point the way.
HINT_S = 1.5
#: Why a single piece is stuck for good.
LONE_PIECE = ("a piece brings another in only by entering a group-of-three that already holds one other piece, "
              "so at least two pieces must be on the board")


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
    layout, space = state.layout, Space(state.layout, state.game.target)
    best: tuple[int, int, list[str], bool] | None = None
    bounds, explored, memory = [], 0, False
    for adds, known in choices:
        occupied = state.occupied | sum(1 << add for add in adds)
        if occupied.bit_count() < 2:
            continue
        search, ending = run_searches(space, node_key(occupied, state.transit),
                                      Budget(seconds / len(choices), stop), progress, known)
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


def _proved_bound(search: Search, ending: str) -> int | None:
    """The fewest moves a search proved its start needs: its solution's when it proved it shortest (A* finished),
    None when it proved there is none; otherwise the bound it reached."""
    if ending in ("optimal", "none"):
        return len(search.best) if search.best is not None else None
    return search.lower_bound


def _add_choices(state: FullHouseState) -> list[tuple[int, ...]]:
    """The adds still open that may be taken before the next step: each choice of them the reserve allows,
    the most first (adds are free, but leaving a compartment empty may help)."""
    return [adds for adds in subsets(state.pending) if len(adds) <= state.reserve[0]]


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
