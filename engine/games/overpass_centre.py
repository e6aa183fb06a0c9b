"""Over-Pass's Center Square rule: can the centre still be emptied with the points left?

"Before the turn ends, the player must ensure that the Center Square is empty - even if
this means making a disadvantageous move or using up precious dice counts."  The centre
empties only when its piece leaves (an Over-Pass for 1 point, or a Slide onto an empty spoke
end for 2), but other moves may open the way first: a Trade that changes the colour on the
centre or on a spoke end, a move that frees a landing for the bridge out.  ``clearing_plan``
finds a cheapest such sequence within the points left, or proves there is none (then the
piece may ``return``); a move is legal only if some plan still fits after it.

The search deepens one point at a time.  Three facts keep it small:

- a move that changes none of the intersections a plan relies on leaves that plan playable,
  so most moves of a turn are judged without a search (``moves_keeping_a_plan``);
- with no way out, a single move opens one only if it moves a piece on the centre, a spoke
  end, the pieces a bridge from the centre reaches or their neighbours, so the last move
  before the way out is looked for there only;
- within one roll the board alone decides the answer, so what is proved about a board is
  kept for the rest of the turn (``OverPassState.clearing_bounds``).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass
from typing import Protocol

from engine.board import CENTER
from engine.core import Content
from engine.games.bridges import BridgeWalk
from engine.games.overpass_moves import BoardMove
from engine.games.overpass_tables import Tables

#: A board seen this turn (its contents in board order) -> the fewest points a plan to empty
#: its Center Square can cost: fewer has been searched and failed.
ClearingBounds = dict[tuple[Content, ...], int]


@dataclass(frozen=True)
class Plan:
    """Moves that empty the Center Square, their cost, and the intersections whose contents
    they rely on: a move that changes none of these leaves the plan playable."""

    moves: tuple[BoardMove, ...]
    cost: int
    relies_on: frozenset[str]


#: The dearest move's cost (a Slide): with this much to spare, every move leaves a plan affordable.
MOST_A_MOVE_COSTS = 2

#: The Center Square is empty: nothing to do as long as nothing lands on it.
NOTHING_TO_DO = Plan((), 0, frozenset((CENTER,)))


class _HasTables(Protocol):
    """A game with Over-Pass's rule tables (``OverPass``)."""

    @property
    def tables(self) -> Tables: ...


class SearchedState(Protocol):
    """What the search reads of an Over-Pass position and does to it (``OverPassState`` has it all):
    named here so that this module needs nothing of the game's, which calls it."""

    cells: dict[str, Content]
    budget: int
    clearing_bounds: ClearingBounds

    @property
    def game(self) -> _HasTables: ...

    def push(self, move: BoardMove) -> None: ...

    def pop(self) -> object: ...

    def is_terminal(self) -> bool: ...

    def board_moves(self, pieces: Container[str] | None = None) -> list[BoardMove]: ...

    def bridge_walk(self, start: str, until: Callable[[str], bool] | None = None) -> BridgeWalk: ...

    def relies_on(self, move: BoardMove) -> frozenset[str]: ...


def clearing_plan(state: SearchedState, budget: int, hint: tuple[BoardMove, ...] = ()) -> Plan | None:
    """A cheapest plan that empties the Center Square for at most ``budget`` points, or None;
    the moves of ``hint`` (a plan that was good a move ago) are tried first."""
    if state.cells[CENTER] is None:
        return NOTHING_TO_DO
    for limit in range(1, budget + 1):
        plan = _search(state, limit, hint)
        if plan is not None:
            return plan
    return None


def moves_keeping_a_plan(state: SearchedState, moves: list[BoardMove], plan: Plan) -> list[BoardMove]:
    """The ``moves`` after which the Center Square can still be emptied with the points then left
    (or that win the game, which then has no next turn); ``plan`` is one for now, and a move that
    leaves it playable and affordable needs no search."""
    spare, keeps = state.budget - plan.cost, plan.relies_on.isdisjoint
    if spare >= MOST_A_MOVE_COSTS:
        return [move for move in moves if keeps(move.points) or _still_clearable_after(state, move, plan)]
    return [move for move in moves
            if move.cost <= spare and keeps(move.points) or _still_clearable_after(state, move, plan)]


def _still_clearable_after(state: SearchedState, move: BoardMove, plan: Plan) -> bool:
    if move.points[0] == CENTER and move.moves_first_piece_away:
        return True  # it empties the Center Square
    state.push(move)
    clearable = state.is_terminal() or clearing_plan(state, state.budget, plan.moves) is not None
    state.pop()
    return clearable


def _search(state: SearchedState, limit: int, hint: tuple[BoardMove, ...]) -> Plan | None:
    """A plan for at most ``limit`` points (depth first; a win ends a line of play)."""
    key = tuple(state.cells.values())
    bounds = state.clearing_bounds
    if bounds.get(key, 0) > limit:
        return None
    way_out = _way_out(state)
    if isinstance(way_out, Plan):
        return way_out if way_out.cost <= limit else None
    if limit >= 2:  # room for a move before the way out
        for move in _openings(state, limit, way_out, hint):
            state.push(move)
            rest = None if state.is_terminal() else _search(state, limit - move.cost, hint)
            state.pop()
            if rest is not None:
                return Plan((move, *rest.moves), move.cost + rest.cost, rest.relies_on | state.relies_on(move))
    bounds[key] = max(bounds.get(key, 0), limit + 1)
    return None


def _way_out(state: SearchedState) -> Plan | frozenset[str]:
    """The move that takes the piece off the Center Square now, cheapest first, as a plan; when
    there is none, the intersections a single move must change to open one: the centre, its
    spoke ends, the pieces a bridge from it reaches and their neighbours."""
    tables, cells = state.game.tables, state.cells
    walk = state.bridge_walk(CENTER, until=lambda landing: True)  # one landing is enough
    if walk.landings:
        end = walk.landings[0]
        return Plan((tables.over_passes[CENTER][end],), 1, frozenset((CENTER, end, *walk.path_to(end))))
    for slide in tables.slides[CENTER]:
        if cells[slide.end] is None:
            return Plan((slide,), slide.cost, frozenset(slide.points))
    neighbours = tables.board.neighbours
    return frozenset((CENTER, *neighbours[CENTER], *walk.crossed, *(n for p in walk.crossed for n in neighbours[p])))


def _openings(state: SearchedState, limit: int, region: frozenset[str],
              hint: tuple[BoardMove, ...]) -> Iterator[BoardMove]:
    """The moves worth trying within ``limit`` points, the moves of ``hint`` first (made lazily:
    often the first works).  A move that leaves a single point for the way out must move a piece
    in ``region``."""
    def worth(move: BoardMove) -> bool:
        return move.cost < limit and (move.cost <= limit - 2 or not region.isdisjoint(move.points))

    yield from (move for move in hint if worth(move) and move in state.board_moves(move.points[:1]))
    yield from (move for move in state.board_moves(region) if move.cost < limit)
    if limit > 2:
        yield from (move for move in state.board_moves() if move.cost <= limit - 2 and region.isdisjoint(move.points))
