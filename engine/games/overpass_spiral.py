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
from functools import cache, cached_property
from typing import Any, ClassVar

from engine.bitsets import mask_of
from engine.board import LineBoard
from engine.boards import load_board
from engine.core import Move, Option
from engine.games.removal_puzzle import Capture, RemovalPuzzle, Step

try:  # the moves in C (setup.py builds it when it can); ``steps`` here is the definition
    from engine.games import _spiral_fast  # type: ignore[attr-defined]
except ImportError:
    _spiral_fast = None  # type: ignore[assignment]

LOW_BITS = (1 << 64) - 1


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
    def exit_mask(self) -> int:
        """The exit points, whose pieces keep to the perimeter."""
        return mask_of(self.index[p] for p in self.line_board.exits)

    @cached_property
    def perimeter_masks(self) -> tuple[int, ...]:
        """For each intersection, its neighbours along the perimeter (the steps a piece on an exit may take)."""
        edges = self.line_board.perimeter
        return tuple(mask_of(self.index[q] for q in self.line_board.neighbours[p] if (p, q) in edges)
                     for p in self.locations)

    def steps(self, mask: int) -> Iterator[Step]:
        """Every legal move, worked out once per group of touching pieces rather than once per piece.

        A piece off the exits passes over the rest of its group (the pieces connected to it
        along the lines), so within a group every piece sees the same landings: each empty
        point beside another piece of the group, that piece passed last.  Pieces on exits
        keep to the perimeter and are asked one by one.  Same moves, same order as
        ``steps_from`` piece by piece, about twice as fast (the solvers' hot loop).
        """
        return iter([(start, code >> 7, code & 127) for start, codes in self._landings_by_piece(mask)
                     for code in codes if code & 127 != start])

    def listing_is_cheap(self) -> bool:
        return fast_spiral(self.board_name) is not None

    def moves(self, mask: int) -> list[Move]:
        """``steps`` made into moves: in C when it is built (the same moves in the same order), else
        straight from the landings, each move looked up once made."""
        fast = fast_spiral(self.board_name)
        if fast is not None:
            listed: list[Move] = fast.moves(mask & LOW_BITS, mask >> 64)
            return listed
        moves: list[Move] = []
        rows = self._capture_rows
        for start, codes in self._landings_by_piece(mask):
            row = rows[start]
            moves.extend([row.get(code) or self._capture(start, code) for code in codes if code & 127 != start])
        return moves

    def _landings_by_piece(self, mask: int) -> Iterator[tuple[int, list[int]]]:
        """Each piece that may move (in board order) with its landings, each coded ``landing << 7 | last``
        (sorted, so in (landing, last) order); a piece off the exits may not pass last over itself,
        which the caller leaves out."""
        near, exits = self.neighbour_masks, self.exit_mask
        landings: dict[int, list[int]] = {}  # a group -> its coded landings
        pieces = mask
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            start = low.bit_length() - 1
            if exits & low:
                yield start, [to << 7 | last for _, to, last in self.steps_from(mask, start)]
                continue
            if not near[start] & mask:
                continue  # alone: nothing to pass over
            group = next((g for g in landings if g & low), 0) or self.group(mask, low)
            codes = landings.get(group)
            if codes is None:
                codes = landings[group] = _landings(near, mask, group)
            yield start, codes

    @cached_property
    def _capture_rows(self) -> tuple[dict[int, Move], ...]:
        """For each start, its moves made so far by coded landing (see ``_landings_by_piece``)."""
        assert len(self.locations) <= 128, "a landing code keeps an intersection in 7 bits"
        return tuple({} for _ in self.locations)

    def _capture(self, start: int, code: int) -> Move:
        move = self._capture_rows[start][code] = self.move_of((start, code >> 7, code & 127))
        return move

    def steps_from(self, mask: int, start: int) -> Iterator[Step]:
        """``bridge_reach`` on bitsets: the pieces connected to ``start`` (itself left out) are the bridge,
        the empty points beside them the landings, and each bridge piece beside a landing a last piece."""
        near = self.perimeter_masks if self.exit_mask >> start & 1 else self.neighbour_masks
        others = mask & ~(1 << start)
        crossed = self.group(others, near[start] & others, near)
        landings: dict[int, list[int]] = {}
        pieces = crossed
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            last = low.bit_length() - 1
            empty = near[last] & ~mask & ~(1 << start)
            while empty:
                spot = empty & -empty
                empty ^= spot
                landings.setdefault(spot.bit_length() - 1, []).append(last)
        for to in sorted(landings):
            for last in landings[to]:
                yield start, to, last


def _landings(near: tuple[int, ...], mask: int, group: int) -> list[int]:
    """Each empty point beside a piece of ``group`` with that piece, coded ``landing << 7 | last``, sorted."""
    codes = []
    while group:
        low = group & -group
        group ^= low
        last = low.bit_length() - 1
        empty = near[last] & ~mask
        while empty:
            spot = empty & -empty
            empty ^= spot
            codes.append((spot.bit_length() - 1) << 7 | last)
    codes.sort()
    return codes


@cache
def fast_spiral(board_name: str) -> Any:
    """The board's steps handed to the C listing (``_spiral_fast.Spiral``), which keeps the moves it
    makes; None when that module was not built.  One per board, so no game holds it."""
    if _spiral_fast is None:
        return None
    board = load_board(board_name)
    assert isinstance(board, LineBoard)
    points = tuple(board.points)
    index = {p: i for i, p in enumerate(points)}
    return _spiral_fast.Spiral(
        near=[[index[q] for q in board.neighbours[p]] for p in points],
        perimeter=[[index[q] for q in board.neighbours[p] if (p, q) in board.perimeter] for p in points],
        exits=[index[p] for p in board.exits],
        make=lambda start, to, last: Capture(points[start], points[to], points[last]))
