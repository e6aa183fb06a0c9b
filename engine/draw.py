"""Board diagrams as SVG, like a rulebook's, with an overlay for pieces and LEDs.

The same drawing serves ``gameboard board draw`` and the simulator's page: every
location is a group with ``data-loc`` so a page can find it, colour it and take clicks
on it; its content is on the group as ``data-stack`` ("a+b+c" for a stack), each
piece drawn is marked ``data-piece`` and the one a hand would lift (the last) ``top``.
The board goes through its lens first (see ``engine.draw_lens``), so every size here
is measured on the drawing, not on the board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from engine.board import Board, Location
from engine.core import stack_pieces
from engine.draw_labels import Anchor, place_labels
from engine.draw_lens import ToScale, bounds, lens_of
from engine.geometry import Coord

RGB = tuple[int, int, int]

#: The widths a drawing may have, in pixels: narrower ones cannot hold their labels, wider ones make PNGs of
#: hundreds of megabytes (an SVG scales to any size anyway).
WIDTHS = range(100, 4001)

INK = "#2b2118"
PAPER = "#e9d8b4"
LABEL_INK = "#5a3d9a"
FILLS = {"cover": "#8a6a43", "red": "#c8584a", "white": "#f7f2e6", "tile": "#f1e7d0", "domino": "#fbfaf5"}
#: A piece's radius is at most this fraction of the drawing's larger side...
LARGEST_PIECE = 0.035
#: ... and this fraction of the distance to the nearest point, so neighbours never touch.
POINT_ROOM = 0.42
#: A piece in an area (compartment, cell, tile) fits this much of the area's inner circle.
AREA_ROOM = 0.9


@dataclass
class Overlay:
    """What to draw over the board: pieces by location, LED colours, labels."""

    pieces: Mapping[str, str] = field(default_factory=dict)
    leds: Mapping[str, RGB] = field(default_factory=dict)
    piece_colours: Mapping[str, str] = field(default_factory=dict)
    show_ids: bool = False


@dataclass(frozen=True)
class Page:
    """From the drawing's units (the board through its lens) to the page's pixels."""

    x0: float
    y1: float
    scale: float

    def xy(self, p: Coord) -> tuple[float, float]:
        """A point on the page (y grows upward on the board, downward on the page)."""
        return (p[0] - self.x0) * self.scale, (self.y1 - p[1]) * self.scale

    def points(self, path: list[Coord]) -> str:
        return " ".join(f"{x:.2f},{y:.2f}" for x, y in map(self.xy, path))


def _ring(lens: ToScale, outline: tuple[Coord, ...]) -> list[Coord]:
    """A polygon's outline through the lens: each side as the curve it becomes."""
    return [p for a, b in zip(outline, outline[1:] + outline[:1]) for p in lens.edge(a, b)[:-1]]


def svg(board: Board, overlay: Overlay | None = None, width: int = 800) -> str:
    """The board as an SVG document ``width`` pixels wide (one of ``WIDTHS``)."""
    if width not in WIDTHS:
        raise ValueError(f"a drawing {width} pixels wide: give a width from {WIDTHS.start} to {WIDTHS.stop - 1}")
    overlay = overlay or Overlay()
    lens = lens_of(board)
    strokes = [(lens.edge(stroke.a, stroke.b), stroke.hidden) for stroke in board.strokes]
    shapes = [(_ring(lens, shape.outline), shape.fill) for shape in board.shapes]
    centres = {loc.id: lens.point(loc.xy) for loc in board.locations.values()}
    outlines = {loc.id: _ring(lens, loc.outline) for loc in board.locations.values() if loc.outline}
    drawn = [p for path, _ in strokes + shapes for p in path] + [p for path in outlines.values() for p in path]
    x0, y0, x1, y1 = bounds(drawn + list(centres.values()))
    room = _rooms(centres, outlines)
    largest = LARGEST_PIECE * max(x1 - x0, y1 - y0)
    radii = {loc_id: min(largest, reach) for loc_id, reach in room.items()}
    # a margin, and room around each location for its LED ring (1.6 radii) and a label beside it
    margin = [(x0 - largest, y0 - largest), (x1 + largest, y1 + largest)]
    halo = [(x + d * radii[loc_id], y + d * radii[loc_id]) for loc_id, (x, y) in centres.items() for d in (-2.2, 2.2)]
    x0, y0, x1, y1 = bounds(margin + halo)
    page = Page(x0, y1, width / (x1 - x0))
    height = round((y1 - y0) * page.scale)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" class="gameboard board-{escape(board.name)}">',
           f"<title>{escape(board.title)}</title>",
           f'<rect width="{width}" height="{height}" fill="{PAPER}"/>']
    for path, fill in shapes:
        out.append(f'<polygon points="{page.points(path)}" fill="{FILLS.get(fill, fill)}" '
                   f'stroke="{INK}" stroke-width="1.5" class="shape shape-{escape(fill)}" pointer-events="none"/>')
    for location_id, outline in outlines.items():  # above the shapes, so a lit cell shows
        out.append(_area(location_id, page.points(outline), overlay))
    for path, hidden in strokes:
        dash = ' stroke-dasharray="4 4" opacity="0.5"' if hidden else ""
        out.append(f'<polyline points="{page.points(path)}" fill="none" stroke="{INK}" stroke-width="2" '
                   f'stroke-linecap="round" stroke-linejoin="round" pointer-events="none"{dash}/>')
    spots_px = {loc_id: page.xy(xy) for loc_id, xy in centres.items()}
    radii_px = {loc_id: r * page.scale for loc_id, r in radii.items()}
    for location in board.locations.values():
        out.append(_spot(location, spots_px[location.id], radii_px[location.id], room[location.id] * page.scale,
                         overlay))
    if overlay.show_ids:
        out.append(_labels(board, spots_px, radii_px, (width, height)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _rooms(centres: dict[str, Coord], outlines: dict[str, list[Coord]]) -> dict[str, float]:
    """How far each location's pieces may reach from its centre.

    A point's pieces stay clear of its nearest neighbour's; an area's stay inside it.
    On a lensed board the spread-out centre gets the room, and so the large pieces.
    """
    points = [loc_id for loc_id in centres if loc_id not in outlines]
    room = {}
    for loc_id, centre in centres.items():
        if loc_id in outlines:
            room[loc_id] = AREA_ROOM * _inner_radius(centre, outlines[loc_id])
        else:
            room[loc_id] = POINT_ROOM * min((math.dist(centre, centres[other]) for other in points if other != loc_id),
                                            default=math.inf)
    return room


def _inner_radius(centre: Coord, outline: list[Coord]) -> float:
    """The distance from an area's centre to its nearest side."""
    return min(_distance_to_segment(centre, a, b) for a, b in zip(outline, outline[1:] + outline[:1]))


def _distance_to_segment(p: Coord, a: Coord, b: Coord) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _area(location_id: str, points: str, overlay: Overlay) -> str:
    """A compartment, cell or tile: a polygon that can be lit and clicked."""
    led = overlay.leds.get(location_id)
    fill = f"rgb{led}" if led else "transparent"
    return (f'<polygon points="{points}" fill="{fill}" fill-opacity="{0.55 if led else 0}" '
            f'class="area" data-loc="{escape(location_id)}"/>')


def _spot(location: Location, centre: tuple[float, float], rad: float, room: float, overlay: Overlay) -> str:
    """The marker of a location: its LED ring and its pieces, or a dot to click."""
    cx, cy = centre
    content = overlay.pieces.get(location.id)
    stack = f' data-stack="{escape(content)}"' if content else ""
    parts = [f'<g class="loc loc-{escape(location.kind)}" data-loc="{escape(location.id)}"{stack}>']
    led = overlay.leds.get(location.id)
    if led:
        parts.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{rad * 1.35:.2f}" fill="none" stroke="rgb{led}" '
                     f'stroke-width="{rad * 0.45:.2f}" class="led"/>')
    if content:
        parts += _stack(stack_pieces(content), cx, cy, rad, room, overlay.piece_colours)
    elif not location.outline:  # a dot, inside a transparent disc that takes the clicks
        parts.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{rad:.2f}" fill="transparent" class="hit"/>'
                     f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{rad * 0.28:.2f}" fill="{INK}" class="spot"/>')
    parts.append("</g>")
    return "".join(parts)


def _stack(codes: list[str], cx: float, cy: float, rad: float, room: float, colours: Mapping[str, str]) -> list[str]:
    """Every piece of a location, side by side in the square of half-side ``room``, and how many.

    The last code is the top of the stack: the piece a hand lifts first.
    """
    columns = math.ceil(math.sqrt(len(codes)))
    rows = math.ceil(len(codes) / columns)
    cell = 2 * room / columns
    small = rad if len(codes) == 1 else min(rad, 0.46 * cell)
    parts = []
    for n, code in enumerate(codes):
        row, column = divmod(n, columns)
        in_row = min(columns, len(codes) - row * columns)
        x = cx + (column - (in_row - 1) / 2) * cell
        y = cy + (row - (rows - 1) / 2) * cell
        top = n == len(codes) - 1
        parts.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{small:.2f}" fill="{colours.get(code, "#777777")}" '
                     f'stroke="{INK}" stroke-width="{2.2 if top else 1.2}" class="piece{" top" if top else ""}" '
                     f'data-piece="{escape(code)}"/>')
    if len(codes) > 1:
        badge = max(0.28 * room, 6.5)  # in the square's corner, clear of a 2 x 2 grid's discs
        x, y = cx + room, cy - room
        parts.append(f'<g class="count" pointer-events="none"><circle cx="{x:.2f}" cy="{y:.2f}" '
                     f'r="{badge:.2f}" fill="{PAPER}" stroke="{INK}" stroke-width="1"/>'
                     f'<text x="{x:.2f}" y="{y + 0.45 * badge:.2f}" font-size="{1.3 * badge:.1f}" '
                     f'text-anchor="middle" font-family="sans-serif" font-weight="bold" fill="{INK}">'
                     f"{len(codes)}</text></g>")
    return parts


def _labels(board: Board, centres: dict[str, tuple[float, float]], radii: dict[str, float],
            page: tuple[float, float]) -> str:
    """Every location's id, placed so that no two labels overlap (see ``engine.draw_labels``)."""
    size = max(7.0, min(0.9 * max(radii.values()), 14.0))
    anchors = [Anchor(loc.id, *centres[loc.id], radii[loc.id], bool(loc.outline)) for loc in board.locations.values()]
    parts = [f'<g class="labels" pointer-events="none" font-family="sans-serif" text-anchor="middle" fill="{LABEL_INK}">']
    for label in place_labels(anchors, size, page):
        left, top, right, bottom = label.box
        parts.append(f'<rect x="{left:.2f}" y="{top:.2f}" width="{right - left:.2f}" height="{bottom - top:.2f}" '
                     f'rx="{0.2 * label.size:.2f}" fill="{PAPER}" fill-opacity="0.8" class="label-box"/>'
                     f'<text x="{label.x:.2f}" y="{label.baseline:.2f}" font-size="{label.size:.2f}" '
                     f'textLength="{label.width:.2f}" lengthAdjust="spacingAndGlyphs">{escape(label.text)}</text>')
    parts.append("</g>")
    return "\n".join(parts)
