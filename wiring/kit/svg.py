"""A drawing as SVG at 1:1: width and height in millimetres, one user unit a millimetre.

Each layer is a group Inkscape shows as a layer (and LightBurn, Carbide Create or
Easel pick up by its colour); every drill hole is a circle with an id naming its place.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from wiring.kit.drawing import LAYERS, Circle, Drawing, Path, Shape, Text


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _shape(shape: Shape) -> str:
    ident = f" id={quoteattr(shape.id)}" if shape.id else ""
    if isinstance(shape, Circle):
        x, y = shape.centre
        return f'<circle{ident} cx="{_number(x)}" cy="{_number(y)}" r="{_number(shape.radius)}"/>'
    if isinstance(shape, Text):
        x, y = shape.xy
        return (f'<text{ident} x="{_number(x)}" y="{_number(y)}" font-size="{_number(shape.size)}" '
                f'text-anchor="{shape.anchor}">{escape(shape.text)}</text>')
    assert isinstance(shape, Path)
    points = " ".join(f"{_number(x)},{_number(y)}" for x, y in shape.points)
    tag = "polygon" if shape.closed else "polyline"
    dash = ' stroke-dasharray="2 1.5"' if shape.dashed else ""
    return f'<{tag}{ident} points="{points}"{dash}/>'


def svg_document(drawing: Drawing) -> str:
    """The whole drawing, one group a layer, at true scale."""
    w, h = _number(drawing.width), _number(drawing.height)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" '
           f'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
           f'width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">',
           f"<title>{escape(drawing.title)}</title>"]
    for layer in LAYERS:
        shapes = drawing.on(layer.name)
        if not shapes:
            continue
        fill = layer.colour if layer.name in ("labels", "led-route", "chips") else "none"
        out.append(f'<g id="{layer.name}" inkscape:groupmode="layer" inkscape:label="{layer.name}" '
                   f'stroke="{layer.colour}" stroke-width="{_number(layer.width)}" fill="none" '
                   f'font-family="Helvetica, Arial, sans-serif">')
        out.append(f"<desc>{escape(layer.about)}</desc>")
        for shape in shapes:
            text = _shape(shape)
            if isinstance(shape, Text):  # text is filled, not stroked
                text = text.replace("<text", f'<text fill="{fill}" stroke="none"', 1)
            out.append(text)
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
