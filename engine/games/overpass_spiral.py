"""Over-Pass Spiral (Challenge 3): Over-Pass moves only, and the last piece passed over is removed.

Forty pieces start in a spiral (layout in ``engine/games/data/overpass_spiral.json``).
A move is the Over-Pass game's move: a piece passes over a connected chain of occupied
intersections along the lines, turning as it likes, to the first empty intersection
reached; here the last piece passed over on the way is taken off the board.  Where the
same landing can be reached with different last pieces, each is a move of its own:
``p30>p17>p12`` moves p30 to p12 having passed last over p17.  Colour does not matter
(the puzzle names no colours); a piece on an exit point keeps to the perimeter, as in
the Over-Pass game.  The aim: one piece left, ideally in the centre.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import ClassVar

from engine.core import Option
from engine.games.bridges import bridge_reach
from engine.games.removal_puzzle import RemovalPuzzle, Step


class OverPassSpiral(RemovalPuzzle):
    """Challenge 3 as a one-player game: every Over-Pass move removes the last piece passed over."""

    name = "overpass-spiral"
    title = "Over-Pass Spiral"
    layout_file = "overpass_spiral.json"
    centre_required = False
    options_spec: ClassVar[dict[str, Option]] = {
        "layout": Option("standard", (), "the starting layout, by name, from engine/games/data/overpass_spiral.json"),
    }

    @cached_property
    def exits(self) -> frozenset[str]:
        return frozenset(self.line_board.exits)

    def along_perimeter(self, a: str, b: str) -> bool:
        return (a, b) in self.line_board.perimeter

    def steps_from(self, mask: int, start: int) -> Iterator[Step]:
        index = self.index

        def occupied(point: str) -> bool:
            return bool(mask >> index[point] & 1)

        point = self.locations[start]
        held = self.along_perimeter if point in self.exits else None
        for landing, lasts in bridge_reach(self.line_board, point, occupied, _any_piece, held).items():
            to = index[landing]
            for last in sorted(index[p] for p in lasts):
                yield start, to, last


def _any_piece(point: str) -> bool:
    """Colour does not matter in the puzzle: every piece may be passed over."""
    return True
