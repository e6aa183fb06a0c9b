"""A template as layered shapes in page millimetres: what the SVG and the PDF writers both draw.

Layers follow what laser and CNC software read: one colour a layer (LightBurn's first
palette colours), hairline strokes for cutting, a circle of the hole's size at every
drill centre (CAM software drills circles at their centres).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.geometry import Coord
from wiring.kit.layout import Layout


@dataclass(frozen=True)
class Layer:
    name: str
    colour: str
    width: float  # stroke width, mm
    about: str


LAYERS = (
    Layer("engrave", "#000000", 0.3, "the board's lines and compartments"),
    Layer("cut", "#FF0000", 0.05, "the outline (hairline)"),
    Layer("sensor-drill", "#0000FF", 0.1, "a hole of the sensor's size at each sensor"),
    Layer("led-drill", "#00A000", 0.1, "a hole of the LED's size at each LED"),
    Layer("led-route", "#FF8000", 0.25, "the LED strips' path, for wiring (not to cut)"),
    Layer("chips", "#8000FF", 0.25, "where each sensor chip goes (the middle of the sensors it reads) and the bus "
                                    "from chip to chip, for wiring under the board (not to cut)"),
    Layer("labels", "#FF00FF", 0.1, "location ids and centre crosses (print only)"),
)
LAYER = {layer.name: layer for layer in LAYERS}


@dataclass(frozen=True)
class Chip:
    """A sensor chip to place under the board: its name, what it reads, where (page mm)."""

    name: str
    reads: str
    xy: Coord


#: A chip's square on the template, mm: the size of a DIP-16 on a scrap of perfboard.
CHIP_MM = 10.0


@dataclass(frozen=True)
class Path:
    layer: str
    points: tuple[Coord, ...]
    closed: bool = False
    id: str = ""
    dashed: bool = False


@dataclass(frozen=True)
class Circle:
    layer: str
    centre: Coord
    radius: float
    id: str = ""


@dataclass(frozen=True)
class Text:
    layer: str
    xy: Coord
    text: str
    size: float  # mm, the font's height
    id: str = ""
    anchor: str = "middle"  # or "start"


Shape = Path | Circle | Text


@dataclass
class Drawing:
    """Shapes in page millimetres on a ``width`` x ``height`` sheet."""

    width: float
    height: float
    title: str
    shapes: list[Shape] = field(default_factory=list)

    def on(self, layer: str) -> list[Shape]:
        return [shape for shape in self.shapes if shape.layer == layer]


def label_size(layout: Layout) -> float:
    """Labels small enough that neighbours' stay apart, large enough to read (1.5-4 mm)."""
    return max(1.5, min(4.0, layout.spacing / 4))


def template_drawing(layout: Layout, strips: list[list[str]] | None = None,
                     chips: list[Chip] | None = None) -> Drawing:
    """The board at true scale: lines to engrave, the outline to cut, drill holes, labels, and the
    LED strips' path when ``strips`` (places in strip order, one list a strip) is given, the sensor
    chips and the bus between them when ``chips`` (in chain order) is."""
    board = layout.board
    drawing = Drawing(layout.width, layout.height, f"{board.title}: template at 1:1 ({layout.size:.0f} mm)")
    add = drawing.shapes.append
    drawn = set()
    for stroke in board.strokes:
        if not stroke.hidden:
            add(Path("engrave", (layout.page(stroke.a), layout.page(stroke.b))))
            drawn.add(frozenset((stroke.a, stroke.b)))
    for shape in board.shapes:  # a shape whose every side is a line already (Over-Pass's cover) is not cut twice
        sides = {frozenset(side) for side in zip(shape.outline, shape.outline[1:] + shape.outline[:1])}
        if not sides <= drawn:
            add(Path("engrave", tuple(layout.page(p) for p in shape.outline), closed=True))
    add(Path("cut", ((0, 0), (layout.width, 0), (layout.width, layout.height), (0, layout.height)), closed=True,
             id="outline"))
    for drill in layout.sensors.values():
        add(Circle("sensor-drill", drill.xy, drill.diameter / 2, id=f"sensor-{drill.place}"))
    for drill in layout.leds.values():
        add(Circle("led-drill", drill.xy, drill.diameter / 2, id=f"led-{drill.place}"))
    size = label_size(layout)
    for place, drill in layout.sensors.items():
        led = layout.leds[place].xy
        away = math.atan2(drill.xy[1] - led[1], drill.xy[0] - led[0])  # the label goes opposite the LED
        reach = drill.diameter / 2 + 0.8 * size
        x, y = drill.xy[0] + reach * math.cos(away), drill.xy[1] + reach * math.sin(away) + 0.35 * size
        add(Text("labels", (x, y), place, size, id=f"label-{place}"))
        for centre in (drill.xy, led):
            arm = 0.6 * drill.diameter
            add(Path("labels", ((centre[0] - arm, centre[1]), (centre[0] + arm, centre[1]))))
            add(Path("labels", ((centre[0], centre[1] - arm), (centre[0], centre[1] + arm))))
    for number, strip in enumerate(strips or []):
        points = tuple(layout.leds[place].xy for place in strip)
        add(Path("led-route", points, id=f"strip-{number}"))
        x, y = points[0]
        add(Text("led-route", (x, y - 1.5 * size), f"strip {number} in", size, id=f"strip-{number}-start"))
    _add_chips(drawing, chips or [], size)
    return drawing


def _add_chips(drawing: Drawing, chips: list[Chip], size: float) -> None:
    """A square where each chip goes, named with the channels it reads, and the bus from each to the next."""
    half = CHIP_MM / 2
    for number, chip in enumerate(chips):
        x, y = chip.xy
        corners = ((x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half))
        drawing.shapes.append(Path("chips", corners, closed=True, id=f"chip-{number}"))
        drawing.shapes.append(Text("chips", (x, y + half + 1.2 * size), f"{chip.name}: {chip.reads}", size))
    if len(chips) > 1:
        drawing.shapes.append(Path("chips", tuple(chip.xy for chip in chips), id="chip-bus", dashed=True))
