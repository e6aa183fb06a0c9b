"""Crooked Jumps (Challenge 2): jump over one adjacent piece, which is removed; end with one piece in the centre.

The jump "may change direction and/or turn corners": it reaches the jumped piece along
one line and may leave it along another.  A chain of jumps is a series of single jumps
by the same piece: each is one move here, one lift and one removal that the board's
sensors can follow, and since any piece may jump at any time the chains reach exactly
the positions the single jumps reach.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import ClassVar

from engine.core import Option
from engine.games.removal_puzzle import RemovalPuzzle, Step


class CrookedJumps(RemovalPuzzle):
    """Challenge 2: jump over one adjacent piece, turning corners as the lines allow; end in the centre."""

    name = "crooked-jumps"
    title = "Crooked Jumps"
    layout_file = "crooked_jumps.json"
    centre_required = True
    options_spec: ClassVar[dict[str, Option]] = {
        "layout": Option("standard", (), "the starting layout, by name, from engine/games/data/crooked_jumps.json"),
        "jumps": Option("crooked", ("crooked", "straight"),
                        "crooked: a jump may turn a corner at the piece it jumps over; straight: only along one line"),
    }

    @cached_property
    def jumps(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each intersection: every (adjacent piece jumped over, intersection landed on).

        A straight jump lands just beyond along the same line; a crooked one may land on any
        neighbour of the jumped piece but the start, following whichever line it likes there.
        """
        board, index = self.line_board, self.index
        if self.options["jumps"] == "straight":
            return tuple(tuple((index[over], index[beyond]) for over, beyond, _ in board.steps[p] if beyond)
                         for p in self.locations)
        return tuple(tuple((index[over], index[to]) for over in board.neighbours[p]
                           for to in board.neighbours[over] if to != p)
                     for p in self.locations)

    def steps(self, mask: int) -> Iterator[Step]:
        """``steps_from`` piece by piece in one flat loop: the listing's and the solvers' hot loop."""
        by_over, pieces = self._jumps_by_over, mask
        found: list[Step] = []
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            for over, steps in by_over[low.bit_length() - 1]:
                if mask >> over & 1:
                    found.extend(step for step in steps if not mask >> step[1] & 1)
        return iter(found)

    @cached_property
    def _jumps_by_over(self) -> tuple[tuple[tuple[int, tuple[Step, ...]], ...], ...]:
        """``jumps`` as steps grouped by the piece jumped over (in their order): one test of that
        piece rules out all its landings."""
        grouped = []
        for start, jumps in enumerate(self.jumps):
            by_over: dict[int, list[Step]] = {}
            for over, to in jumps:
                by_over.setdefault(over, []).append((start, to, over))
            grouped.append(tuple((over, tuple(steps)) for over, steps in by_over.items()))
        return tuple(grouped)

    def steps_from(self, mask: int, start: int) -> Iterator[Step]:
        for over, to in self.jumps[start]:
            if mask >> over & 1 and not mask >> to & 1:
                yield start, to, over
