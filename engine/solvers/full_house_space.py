"""The Full House puzzle's positions as integers, for its solver: a node is the set of occupied
compartments (a bitmask) with the transit space a piece must leave next, packed into one integer,
and ``Space`` gives each node's successors, a lower bound of the steps left and a beam's score."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.bitsets import members
from engine.games.groups_of_three_layout import Layout
from engine.solvers.full_house_bound import shipped_potential

#: A step (source, target) with the compartments filled by the adds it triggered.
Action = tuple[int, int, tuple[int, ...]]


def node_key(occupied: int, transit: int) -> int:
    """One integer per node: the low 7 bits hold the transit index + 1 (boards under 127 compartments)."""
    return occupied << 7 | (transit + 1)


class Space:
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
                for adds in (subsets(targets) if every_subset else (targets,)):
                    filled = moved
                    for add in adds:
                        filled |= 1 << add
                    yield node_key(filled, then), (source, target, adds)


def subsets(items: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every subset, the largest first."""
    result: list[tuple[int, ...]] = [()]
    for item in items:
        result += [subset + (item,) for subset in result]
    return sorted(result, key=len, reverse=True)
