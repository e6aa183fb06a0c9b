"""Where the location ids of ``gameboard board draw --ids`` go, so that no two overlap.

Each label is tried at a few places around its location (beside a point, inside an
area), first where it hides no other point either, then where it hides no other
label; a label that fits nowhere is tried again smaller.  A label's box is its
``textLength`` wide (the SVG forces the text to that width) and one font size tall,
``ASCENT`` of it above the baseline.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import GameboardError

Box = tuple[float, float, float, float]  # left, top, right, bottom, in page pixels

#: Width of a character as a fraction of the font size (ids are short: "p104", "d1.1e-n").
CHAR_WIDTH = 0.58
#: How much of a label's box lies above its baseline.
ASCENT = 0.78
#: Labels are not made smaller than this (px): below it they cannot be read.
SMALLEST_FONT = 6.0


@dataclass(frozen=True)
class Anchor:
    """A location to label: its centre and the radius of what is drawn there (px)."""

    text: str
    x: float
    y: float
    radius: float
    area: bool


@dataclass(frozen=True)
class Label:
    text: str
    x: float  # the middle of the text
    baseline: float
    size: float

    @property
    def width(self) -> float:
        return CHAR_WIDTH * self.size * len(self.text)

    @property
    def box(self) -> Box:
        half = self.width / 2
        return (self.x - half, self.baseline - ASCENT * self.size, self.x + half,
                self.baseline + (1 - ASCENT) * self.size)


def place_labels(anchors: list[Anchor], size: float, page: tuple[float, float]) -> list[Label]:
    """Labels for every anchor, points first (they have the least room), none overlapping."""
    placed: list[Label] = []
    points = [a for a in anchors if not a.area]
    for anchor in sorted(anchors, key=lambda a: a.area):
        placed.append(_place(anchor, size, page, placed, points))
    return placed


def _place(anchor: Anchor, size: float, page: tuple[float, float], placed: list[Label],
           points: list[Anchor]) -> Label:
    while True:
        candidates = [c for c in _candidates(anchor, size) if _on_page(c.box, page)
                      and not any(_overlap(c.box, other.box) for other in placed)]
        clear = [c for c in candidates if not any(_covers(c.box, p) for p in points if p is not anchor)]
        if clear or candidates:
            return (clear or candidates)[0]
        if size <= SMALLEST_FONT:
            raise GameboardError(f"at {page[0]:.0f} px wide the ids do not fit (no room for {anchor.text}); "
                                 "draw wider with --width")
        size = max(SMALLEST_FONT, size * 0.85)


def _candidates(anchor: Anchor, size: float) -> list[Label]:
    """Inside an area first; beside the location (above, below, right, left, then the
    corners), and the same a step further out."""
    width = CHAR_WIDTH * size * len(anchor.text)
    mid = (ASCENT - 0.5) * size  # baseline offset that centres the box on y
    x, y = anchor.x, anchor.y
    spots = [(x, y + mid), (x, y + mid - 0.6 * size), (x, y + mid + 0.6 * size)] if anchor.area else []
    for step in (0.15 * size, 1.2 * size):
        reach = anchor.radius + step
        above, below = y - reach - (1 - ASCENT) * size, y + reach + ASCENT * size
        right, left = x + reach + width / 2, x - reach - width / 2
        spots += [(x, above), (x, below), (right, y + mid), (left, y + mid),
                  (right, above), (left, above), (right, below), (left, below)]
    return [Label(anchor.text, cx, cy, size) for cx, cy in spots]


def _on_page(box: Box, page: tuple[float, float]) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= page[0] and box[3] <= page[1]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _covers(box: Box, point: Anchor) -> bool:
    """Whether the box hides part of a point's disc."""
    nearest_x = min(max(point.x, box[0]), box[2])
    nearest_y = min(max(point.y, box[1]), box[3])
    return (nearest_x - point.x) ** 2 + (nearest_y - point.y) ** 2 < point.radius ** 2
