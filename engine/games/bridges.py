"""Over-Pass bridges: where a piece can go by passing over a chain of pieces.

The Over-Pass move (the Over-Pass game, the Over-Pass Spiral puzzle) carries a piece
over any number of connected, occupied intersections, changing direction as it likes
along the lines, and ends on the first empty intersection reached.  The pieces passed
over form the "bridge"; which of them is the last one passed over matters to the
puzzle, which removes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.board import LineBoard


def bridge_reach(board: LineBoard, start: str, occupied: Callable[[str], bool],
                 may_cross: Callable[[str], bool],
                 may_step: Callable[[str, str], bool] | None = None) -> dict[str, frozenset[str]]:
    """Empty intersections reachable from ``start`` by passing over a connected chain of
    occupied intersections along the lines (each crossed piece allowed by ``may_cross``,
    each step a->b allowed by ``may_step``), each mapped to the set of crossed pieces from
    which the final hop onto it can be made (the "last piece passed over").

    The start counts as empty once its piece has left, so no bridge leads back over it,
    and it is never a destination.  A walk that revisits a crossed piece reaches nothing
    a simple path does not, so each piece is explored once.
    """
    neighbours = board.neighbours
    crossed: set[str] = set()
    frontier: list[str] = []
    landings: dict[str, set[str]] = {}
    here = start
    candidates = neighbours[start]
    while True:
        for there in candidates:
            if there == start or there in crossed or (may_step is not None and not may_step(here, there)):
                continue
            if not occupied(there):
                if here != start:  # at least one piece must be passed over
                    landings.setdefault(there, set()).add(here)
            elif may_cross(there):
                crossed.add(there)
                frontier.append(there)
        if not frontier:
            break
        here = frontier.pop()
        candidates = neighbours[here]
    return {point: frozenset(lasts) for point, lasts in landings.items()}


def bridge_destinations(board: LineBoard, starts: Iterable[str], occupied: Callable[[str], bool],
                        may_cross: Callable[[str], bool]) -> dict[str, tuple[str, ...]]:
    """The destinations ``bridge_reach`` finds (without the last pieces), for many starts at
    once: the pieces of one colour, which no bridge of theirs may cross, moving freely.

    A bridge is a connected group of crossable pieces.  Each group and the empty
    intersections next to it are found once, and a start reaches the landings of the
    groups beside it: linear in the pieces, where a search per start is quadratic in a
    big cluster.  ``may_cross`` must refuse every start.
    """
    neighbours = board.neighbours
    group_of: dict[str, int] = {}
    landings: list[dict[str, None]] = []  # ordered sets: the same input gives the same order

    def flood(first: str) -> int:
        group, landing = len(landings), {}
        landings.append(landing)
        group_of[first] = group
        frontier = [first]
        while frontier:
            for there in neighbours[frontier.pop()]:
                if there in group_of or there in landing:
                    continue
                if not occupied(there):
                    landing[there] = None
                elif may_cross(there):
                    group_of[there] = group
                    frontier.append(there)
        return group

    result: dict[str, tuple[str, ...]] = {}
    for start in starts:
        reached: dict[str, None] = {}
        for first in neighbours[start]:
            if first in group_of:
                reached.update(landings[group_of[first]])
            elif occupied(first) and may_cross(first):
                reached.update(landings[flood(first)])
        result[start] = tuple(reached)
    return result


@dataclass(frozen=True)
class BridgeWalk:
    """Every piece and landing a bridge from ``start`` reaches, each with the intersection it
    was first reached from: a shortest way to each landing, to show what an Over-Pass needs."""

    start: str
    #: A crossed piece or a landing -> the intersection the walk came from.
    came_from: dict[str, str]
    crossed: tuple[str, ...]
    landings: tuple[str, ...]

    def path_to(self, landing: str) -> tuple[str, ...]:
        """The pieces passed over on a shortest way to ``landing``, in order."""
        path = []
        here = self.came_from[landing]
        while here != self.start:
            path.append(here)
            here = self.came_from[here]
        return tuple(reversed(path))


def walk_bridges(board: LineBoard, start: str, occupied: Callable[[str], bool], may_cross: Callable[[str], bool],
                 may_step: Callable[[str, str], bool] | None = None,
                 until: Callable[[str], bool] | None = None) -> BridgeWalk:
    """``bridge_reach`` breadth first, keeping the way: the landings in the order found (all of
    them, or up to the first that ``until`` accepts), the pieces crossed, and a shortest bridge to
    each landing."""
    neighbours = board.neighbours
    came_from: dict[str, str] = {}
    crossed: list[str] = []
    landings: list[str] = []
    queue = [start]
    for here in queue:  # the queue grows as the walk goes
        for there in neighbours[here]:
            if there == start or there in came_from or (may_step is not None and not may_step(here, there)):
                continue
            if not occupied(there):
                if here != start:  # at least one piece must be passed over
                    came_from[there] = here
                    landings.append(there)
                    if until is not None and until(there):
                        return BridgeWalk(start, came_from, tuple(crossed), tuple(landings))
            elif may_cross(there):
                came_from[there] = here
                crossed.append(there)
                queue.append(there)
    return BridgeWalk(start, came_from, tuple(crossed), tuple(landings))
