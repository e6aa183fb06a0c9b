"""Board diagrams as SVG, like a rulebook's, with an overlay for pieces and LEDs.

The same drawing serves ``gameboard board draw`` and the simulator's page: every
location is an element with ``data-loc`` so a page can find it, colour it and
take clicks on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from engine.board import Board, Location

RGB = tuple[int, int, int]

INK = "#2b2118"
PAPER = "#e9d8b4"
FILLS = {"cover": "#8a6a43", "red": "#c8584a", "white": "#f7f2e6", "tile": "#f1e7d0", "domino": "#fbfaf5"}


@dataclass
class Overlay:
    """What to draw over the board: pieces by location, LED colours, labels."""

    pieces: Mapping[str, str] = field(default_factory=dict)
    leds: Mapping[str, RGB] = field(default_factory=dict)
    piece_colours: Mapping[str, str] = field(default_factory=dict)
    show_ids: bool = False


def _bounds(board: Board) -> tuple[float, float, float, float]:
    xs: list[float] = []
    ys: list[float] = []
    for stroke in board.strokes:
        xs += [stroke.a[0], stroke.b[0]]
        ys += [stroke.a[1], stroke.b[1]]
    for shape in board.shapes:
        xs += [p[0] for p in shape.outline]
        ys += [p[1] for p in shape.outline]
    for location in board.locations.values():
        xs.append(location.xy[0])
        ys.append(location.xy[1])
        xs += [p[0] for p in location.outline]
        ys += [p[1] for p in location.outline]
    return min(xs), min(ys), max(xs), max(ys)


def _piece_radius(board: Board) -> float:
    """Half the smallest distance between two point-like locations (capped)."""
    spots = [loc.xy for loc in board.locations.values() if not loc.outline]
    best = float("inf")
    for i, a in enumerate(spots):
        for b in spots[i + 1:]:
            d = ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
            if 1e-9 < d < best:
                best = d
    x0, y0, x1, y1 = _bounds(board)
    span = max(x1 - x0, y1 - y0)
    return min(best * 0.42, span * 0.03) if spots else span * 0.03


def _piece_fill(code: str, colours: Mapping[str, str]) -> str:
    """A piece's colour; a location holding several pieces ("red+blue") shows the first."""
    return colours.get(code, colours.get(code.split("+")[0], "#777777"))


def svg(board: Board, overlay: Overlay | None = None, width: int = 800) -> str:
    """The board as an SVG document (y grows upward in board units, downward in SVG)."""
    overlay = overlay or Overlay()
    x0, y0, x1, y1 = _bounds(board)
    r = _piece_radius(board)
    pad = 2.2 * r
    x0, y0, x1, y1 = x0 - pad, y0 - pad, x1 + pad, y1 + pad
    scale = width / (x1 - x0)
    height = round((y1 - y0) * scale)

    def pt(p: tuple[float, float]) -> str:
        return f"{(p[0] - x0) * scale:.2f},{(y1 - p[1]) * scale:.2f}"

    def poly(outline: tuple[tuple[float, float], ...]) -> str:
        return " ".join(pt(p) for p in outline)

    rad = r * scale
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" class="gameboard board-{escape(board.name)}">',
           f"<title>{escape(board.title)}</title>",
           f'<rect width="{width}" height="{height}" fill="{PAPER}"/>']
    for shape in board.shapes:
        out.append(f'<polygon points="{poly(shape.outline)}" fill="{FILLS.get(shape.fill, shape.fill)}" '
                   f'stroke="{INK}" stroke-width="1.5" class="shape shape-{escape(shape.fill)}" pointer-events="none"/>')
    for location in board.locations.values():  # above the shapes, so a lit cell shows
        if location.outline:
            out.append(_area(location, poly(location.outline), overlay))
    for stroke in board.strokes:
        a, b = pt(stroke.a).split(","), pt(stroke.b).split(",")
        dash = ' stroke-dasharray="4 4" opacity="0.5"' if stroke.hidden else ""
        out.append(f'<line x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="{INK}" '
                   f'stroke-width="2" stroke-linecap="round" pointer-events="none"{dash}/>')
    for location in board.locations.values():
        out.append(_spot(location, pt(location.xy), rad, overlay))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _area(location: Location, points: str, overlay: Overlay) -> str:
    """A compartment, cell or tile: a polygon that can be lit and clicked."""
    led = overlay.leds.get(location.id)
    fill = f"rgb{led}" if led else "transparent"
    return (f'<polygon points="{points}" fill="{fill}" fill-opacity="{0.55 if led else 0}" '
            f'class="area" data-loc="{escape(location.id)}"/>')


def _spot(location: Location, centre: str, rad: float, overlay: Overlay) -> str:
    """The marker of a location: its LED ring, its piece, and its id on request."""
    cx, cy = centre.split(",")
    parts = [f'<g class="loc loc-{escape(location.kind)}" data-loc="{escape(location.id)}">']
    led = overlay.leds.get(location.id)
    if led:
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{rad * 1.35:.2f}" fill="none" stroke="rgb{led}" '
                     f'stroke-width="{rad * 0.45:.2f}" class="led"/>')
    piece = overlay.pieces.get(location.id)
    if piece:
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{rad:.2f}" fill="{_piece_fill(piece, overlay.piece_colours)}" '
                     f'stroke="{INK}" stroke-width="1.2" class="piece" data-piece="{escape(piece)}"/>')
    elif not location.outline:  # a dot, inside a transparent disc that takes the clicks
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{rad:.2f}" fill="transparent" class="hit"/>'
                     f'<circle cx="{cx}" cy="{cy}" r="{rad * 0.28:.2f}" fill="{INK}" class="spot"/>')
    if overlay.show_ids:
        parts.append(f'<text x="{cx}" y="{float(cy) - rad * 1.1:.2f}" font-size="{max(rad * 0.9, 7):.1f}" '
                     f'text-anchor="middle" font-family="sans-serif" fill="#5a3d9a">{escape(location.id)}</text>')
    parts.append("</g>")
    return "".join(parts)
