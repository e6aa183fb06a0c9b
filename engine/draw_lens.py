"""How a board's drawing is warped so that its crowded places get room on a screen.

The Over-Pass board is played in a small patch around its Center Square while its
star points reach far out: drawn to scale, the centre's pieces are too small to click.
A board's data file may ask for a fisheye under ``"drawing"``; it spreads the centre and
compresses the empty rim, and strokes, shapes and locations all go through it alike, so
the drawing keeps its topology (straight strokes become gentle curves).  Boards that ask
for nothing are drawn to scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.board import Board
from engine.boards import BoardFileError, board_names, data_path, read_data
from engine.geometry import Coord


class ToScale:
    """The identity: a board drawn as its data file measures it."""

    def point(self, p: Coord) -> Coord:
        return p

    def edge(self, a: Coord, b: Coord) -> list[Coord]:
        """The straight edge a-b as drawn: its points from a to b."""
        return [self.point(a), self.point(b)]


@dataclass(frozen=True)
class Fisheye(ToScale):
    """A radial map about ``centre``: true to shape within ``flat_radius``; beyond it the
    scale falls as 1 / (1 + d / halving_distance), d the distance past the flat middle
    (half the scale at one ``halving_distance`` out, a third at two)."""

    centre: Coord
    flat_radius: float
    halving_distance: float

    def point(self, p: Coord) -> Coord:
        dx, dy = p[0] - self.centre[0], p[1] - self.centre[1]
        r = math.hypot(dx, dy)
        if r <= self.flat_radius:
            return p
        k = self.halving_distance
        shrink = (self.flat_radius + k * math.log1p((r - self.flat_radius) / k)) / r
        return (self.centre[0] + dx * shrink, self.centre[1] + dy * shrink)

    def edge(self, a: Coord, b: Coord) -> list[Coord]:
        """Enough points along a-b that the curve it becomes looks smooth (none where it stays flat)."""
        if max(math.dist(a, self.centre), math.dist(b, self.centre)) <= self.flat_radius:
            return [a, b]
        pieces = max(1, min(24, math.ceil(math.dist(a, b) / (self.halving_distance / 3))))
        return [self.point((a[0] + (b[0] - a[0]) * i / pieces, a[1] + (b[1] - a[1]) * i / pieces))
                for i in range(pieces + 1)]


def lens_of(board: Board) -> ToScale:
    """The lens the board's data file asks for under ``"drawing"``, or true scale."""
    fisheye = _fisheye_setting(board.name)
    return ToScale() if fisheye is None else Fisheye(_middle(board), *fisheye)


def _fisheye_setting(name: str) -> tuple[float, float] | None:
    """``drawing.fisheye`` from the board's data file."""
    if name not in board_names():
        return None
    path = data_path(name)
    drawing = read_data(path).get("drawing", {})
    example = '"drawing": {"fisheye": {"flat_radius": 2, "halving_distance": 2}}'
    if not isinstance(drawing, dict) or not isinstance(drawing.get("fisheye", {}), dict):
        raise BoardFileError(f"{path}: drawing must be an object like {example}")
    fisheye = drawing.get("fisheye")
    if fisheye is None:
        return None
    flat, halving = fisheye.get("flat_radius"), fisheye.get("halving_distance")
    if not (_number(flat) and flat >= 0 and _number(halving) and halving > 0):
        raise BoardFileError(f"{path}: drawing.fisheye needs flat_radius >= 0 and halving_distance > 0, "
                             f"in board units (not {flat!r} and {halving!r}); e.g. {example}")
    return float(flat), float(halving)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def bounds(points: list[Coord]) -> tuple[float, float, float, float]:
    """The smallest box holding the points: (left, bottom, right, top)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _middle(board: Board) -> Coord:
    """The middle of the locations' extent: the lens looks at the middle of the board."""
    x0, y0, x1, y1 = bounds([loc.xy for loc in board.locations.values()])
    return ((x0 + x1) / 2, (y0 + y1) / 2)
