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

    def steps_from(self, mask: int, start: int) -> Iterator[Step]:
        for over, to in self.jumps[start]:
            if mask >> over & 1 and not mask >> to & 1:
                yield start, to, over
