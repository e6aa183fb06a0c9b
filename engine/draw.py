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

from engine.board import Board
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
#: The colour of a line marked on the board (a winning path).
LINE = "#ffd400"
FILLS = {"cover": "#8a6a43", "red": "#c8584a", "white": "#f7f2e6", "tile": "#f1e7d0", "domino": "#fbfaf5"}
#: A piece's radius is at most this fraction of the drawing's larger side...
LARGEST_PIECE = 0.035
#: ... and this fraction of the distance to the nearest point, so neighbours never touch.
POINT_ROOM = 0.42
#: A piece in an area (compartment, cell, tile) fits this much of the area's inner circle.
AREA_ROOM = 0.9


#: How a blinking LED alternates: with the board's blink, or with a fault's flash of the whole board.
RHYTHMS = ("blink", "flash")


@dataclass(frozen=True)
class Blink:
    """An LED that alternates: the colour of its second phase (None: dark) and its rhythm (one of ``RHYTHMS``)."""

    other: RGB | None
    rhythm: str = "blink"


@dataclass(frozen=True)
class Arrow:
    """A move drawn as an arrow: through the centres of ``through`` (the piece's place, any bridge, where it
    goes), in ``colour``; ``kind`` names it for a page ("last_move", "carry", "hint")."""

    through: tuple[str, ...]
    colour: RGB
    kind: str


@dataclass
class Overlay:
    """What to draw over the board: pieces by location, LED colours (the first phase of a blinking one, whose
    second is in ``blinks``), arrows, a line to mark (a winning path) and labels."""

    pieces: Mapping[str, str] = field(default_factory=dict)
    leds: Mapping[str, RGB] = field(default_factory=dict)
    piece_colours: Mapping[str, str] = field(default_factory=dict)
    show_ids: bool = False
    blinks: Mapping[str, Blink] = field(default_factory=dict)
    arrows: tuple[Arrow, ...] = ()
    line: tuple[str, ...] = ()


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
    return Drawing(board, width).document(overlay or Overlay())


class Drawing:
    """A board drawn ``width`` pixels wide: its layout worked out once, then drawn whole (``document``) or, for
    a page that keeps it, the board once (``frame``) and each place's pieces and lights, and the arrows, as
    they change (``area``, ``spot``, ``marks``).  The frame holds a ``data-area`` group for each area and a
    ``data-spot`` group for each location, which those fill, and the ``marks`` group."""

    def __init__(self, board: Board, width: int) -> None:
        if width not in WIDTHS:
            raise ValueError(f"a drawing {width} pixels wide: give a width from {WIDTHS.start} to {WIDTHS.stop - 1}")
        self.board = board
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
        halo = [(x + d * radii[loc_id], y + d * radii[loc_id]) for loc_id, (x, y) in centres.items()
                for d in (-2.2, 2.2)]
        x0, y0, x1, y1 = bounds(margin + halo)
        page = Page(x0, y1, width / (x1 - x0))
        self.width, self.height = width, round((y1 - y0) * page.scale)
        self._shapes = [(page.points(path), fill) for path, fill in shapes]
        self._strokes = [(page.points(path), hidden) for path, hidden in strokes]
        self._outlines = {loc_id: page.points(outline) for loc_id, outline in outlines.items()}
        self.centres = {loc_id: page.xy(xy) for loc_id, xy in centres.items()}
        self.radii = {loc_id: r * page.scale for loc_id, r in radii.items()}
        self._rooms = {loc_id: r * page.scale for loc_id, r in room.items()}

    def document(self, overlay: Overlay) -> str:
        """The whole drawing with ``overlay`` on it."""
        return self.frame(overlay.show_ids, overlay)

    def frame(self, ids: bool, overlay: Overlay | None = None) -> str:
        """The board without pieces, lights or arrows (with ``overlay``: with them), and its locations' ids
        (``ids``), in a ``labels`` group a page may hide."""
        width, height, board = self.width, self.height, self.board
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
               f'height="{height}" class="gameboard board-{escape(board.name)}">',
               f"<title>{escape(board.title)}</title>",
               f'<rect width="{width}" height="{height}" fill="{PAPER}"/>']
        for points, fill in self._shapes:
            out.append(f'<polygon points="{points}" fill="{FILLS.get(fill, fill)}" stroke="{INK}" '
                       f'stroke-width="1.5" class="shape shape-{escape(fill)}" pointer-events="none"/>')
        out.append('<g class="areas">')  # above the shapes, so a lit cell shows
        out += [f'<g data-area="{escape(loc_id)}">{self.area(loc_id, overlay) if overlay else ""}</g>'
                for loc_id in self._outlines]
        out.append("</g>")
        for points, hidden in self._strokes:
            dash = ' stroke-dasharray="4 4" opacity="0.5"' if hidden else ""
            out.append(f'<polyline points="{points}" fill="none" stroke="{INK}" stroke-width="2" '
                       f'stroke-linecap="round" stroke-linejoin="round" pointer-events="none"{dash}/>')
        out.append('<g class="spots">')
        out += [f'<g data-spot="{escape(loc_id)}">{self.spot(loc_id, overlay) if overlay else ""}</g>'
                for loc_id in board.locations]
        out.append("</g>")
        out.append(f'<g class="marks" pointer-events="none">{self.marks(overlay) if overlay else ""}</g>')
        if ids:
            out.append(_labels(board, self.centres, self.radii, (width, height)))
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def area(self, location_id: str, overlay: Overlay) -> str:
        """A compartment, cell or tile: a polygon that can be lit and clicked ("" for a point)."""
        points = self._outlines.get(location_id)
        if points is None:
            return ""
        led, blink = overlay.leds.get(location_id), overlay.blinks.get(location_id)
        fill = f"rgb{led}" if led else "transparent"
        parts = [f'<polygon points="{points}" fill="{fill}" fill-opacity="{0.55 if led else 0}" '
                 f'class="area{_phase(blink, 1) if led else ""}" data-loc="{escape(location_id)}"/>']
        if blink and blink.other:
            parts.append(f'<polygon points="{points}" fill="rgb{blink.other}" fill-opacity="0.55" '
                         f'class="area-off{_phase(blink, 2)}" pointer-events="none"/>')
        return "".join(parts)

    def spot(self, location_id: str, overlay: Overlay) -> str:
        """The marker of a location: its LED ring and its pieces, or a dot to click."""
        location = self.board.locations[location_id]
        cx, cy = self.centres[location_id]
        rad = self.radii[location_id]
        content = overlay.pieces.get(location_id)
        stack = f' data-stack="{escape(content)}"' if content else ""
        parts = [f'<g class="loc loc-{escape(location.kind)}" data-loc="{escape(location_id)}"{stack}>']
        led, blink = overlay.leds.get(location_id), overlay.blinks.get(location_id)
        ring = f'cx="{cx:.2f}" cy="{cy:.2f}" r="{rad * 1.35:.2f}" fill="none" stroke-width="{rad * 0.45:.2f}"'
        if led:
            parts.append(f'<circle {ring} stroke="rgb{led}" class="led{_phase(blink, 1)}"/>')
        if blink and blink.other:
            parts.append(f'<circle {ring} stroke="rgb{blink.other}" class="led-off{_phase(blink, 2)}"/>')
        if content:
            parts += _stack(stack_pieces(content), cx, cy, rad, self._rooms[location_id], overlay.piece_colours)
        elif not location.outline:  # a dot, inside a transparent disc that takes the clicks
            parts.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{rad:.2f}" fill="transparent" class="hit"/>'
                         f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{rad * 0.28:.2f}" fill="{INK}" class="spot"/>')
        parts.append("</g>")
        return "".join(parts)

    def marks(self, overlay: Overlay) -> str:
        """The line marked (a winning path) and the arrows, each outlined in ink to be seen on any colour."""
        parts = []
        if len(overlay.line) > 1:
            points = " ".join(f"{x:.2f},{y:.2f}" for x, y in (self.centres[loc] for loc in overlay.line))
            width = 0.9 * min(self.radii[loc] for loc in overlay.line)
            parts.append(f'<g class="line"><polyline points="{points}" fill="none" stroke="{INK}" '
                         f'stroke-width="{width + 4:.2f}" stroke-linecap="round" stroke-linejoin="round"/>'
                         f'<polyline points="{points}" fill="none" stroke="{LINE}" stroke-width="{width:.2f}" '
                         f'stroke-linecap="round" stroke-linejoin="round" opacity="0.9"/></g>')
        parts += [self._arrow(arrow) for arrow in overlay.arrows if len(arrow.through) > 1]
        return "".join(parts)

    def _arrow(self, arrow: Arrow) -> str:
        """A shaft from the edge of the first place's piece to the head, whose tip touches the last place's LED
        ring, each outlined in ink."""
        points = [self.centres[loc] for loc in arrow.through]
        start, end = self.radii[arrow.through[0]], self.radii[arrow.through[-1]]
        width = max(3.0, 0.3 * min(start, end))
        points[0] = _towards(points[0], points[1], 0.7 * start)
        tip = _towards(points[-1], points[-2], 0.9 * end)
        points[-1] = base = _towards(tip, points[-2], 3.2 * width)
        (x, y), (tx, ty) = base, tip
        across = 0.6 * 3.2 * width / (math.dist(base, tip) or 1.0)  # half the head's width, per unit of length
        nx, ny = (ty - y) * across, (x - tx) * across
        shaft = " ".join(f"{px:.2f},{py:.2f}" for px, py in points)
        head = f"{tx:.2f},{ty:.2f} {x + nx:.2f},{y + ny:.2f} {x - nx:.2f},{y - ny:.2f}"
        colour = f"rgb{arrow.colour}"
        return (f'<g class="arrow arrow-{escape(arrow.kind)}" data-through="{escape(" ".join(arrow.through))}">'
                f'<polyline points="{shaft}" fill="none" stroke="{INK}" stroke-width="{width + 3:.2f}" '
                f'stroke-linejoin="round"/><polygon points="{head}" fill="{INK}" stroke="{INK}" stroke-width="3" '
                f'stroke-linejoin="round"/><polyline points="{shaft}" fill="none" stroke="{colour}" '
                f'stroke-width="{width:.2f}" stroke-linejoin="round"/><polygon points="{head}" fill="{colour}"/></g>')


def _phase(blink: Blink | None, phase: int) -> str:
    """The classes of a blinking LED's phase (1 or 2) that a page's style animates; "" for a steady one."""
    return f" {blink.rhythm} phase{phase}" if blink else ""


def _towards(a: tuple[float, float], b: tuple[float, float], distance: float) -> tuple[float, float]:
    """The point ``distance`` from ``a`` towards ``b`` (at most half way)."""
    length = math.dist(a, b) or 1.0
    step = min(distance, length / 2) / length
    return a[0] + (b[0] - a[0]) * step, a[1] + (b[1] - a[1]) * step


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
