"""A board at true scale: millimetres per unit, a drill centre for each sensor and each LED, the outline.

The scale comes from the board's size (the outline's longer side) or from the spacing
(the distance between the two closest places).  Page coordinates are millimetres
from the outline's top-left corner, y downward, as SVG and a sheet of paper have them.
No lens: a distance on the template is the geometry's distance times ``mm_per_unit``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

from engine.board import Board
from engine.geometry import Coord
from wiring.kit.data import FREE_ANGLES, BoardKit, KitError

#: A free LED keeps clear of this many nearest places (their sensors and their LEDs).
NEIGHBOURS = 12
UNITS_MM = {"mm": 1.0, "cm": 10.0, "m": 1000.0, "in": 25.4}
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(mm|cm|m|in)\s*$")


#: An example for each option that takes a length.
EXAMPLES = {"--size": "420mm", "--spacing": "30mm", "--clearance": "8mm"}


def parse_length(option: str, text: str) -> float:
    """``"420mm"``, ``"42 cm"``, ``"16.5in"`` in millimetres; anything else is a ``KitError`` naming ``option``."""
    example = f"{option} {EXAMPLES.get(option, '420mm')}"
    found = _LENGTH.match(text)
    if not found:
        bare = re.fullmatch(r"\s*[\d.]+\s*", text)
        why = "give a length with a unit" if bare else "not a length"
        raise KitError(f"{option} {text}: {why}, e.g. {example} (units: {', '.join(UNITS_MM)})")
    value = float(found.group(1)) * UNITS_MM[found.group(2)]
    if value <= 0:
        raise KitError(f"{option} {text}: a length must be more than 0, e.g. {example}")
    return value


@dataclass(frozen=True)
class Drill:
    """A hole to drill: what goes in it (sensor or led), for which place, where (page mm), how wide."""

    part: str
    place: str
    xy: Coord
    diameter: float


@dataclass(frozen=True)
class Closest:
    """The two drill centres of different places nearest each other."""

    a: Drill
    b: Drill
    distance: float

    def describe(self) -> str:
        apart = math.floor(self.distance * 10) / 10  # 7.96 mm is "7.9", never "8.0" beside an 8 mm clearance
        return (f"the {_part_name(self.a.part)} of {self.a.place} and the {_part_name(self.b.part)} of "
                f"{self.b.place} sit {apart:.1f} mm apart")


def _part_name(part: str) -> str:
    return "LED" if part == "led" else part


def closest_distance_units(board: Board) -> float:
    """The distance between the two closest places of the board, in its own units."""
    centres = [location.xy for location in board.locations.values()]
    return min(math.dist(a, b) for a, b in combinations(centres, 2))


def drawn_points(board: Board) -> list[Coord]:
    """Every point the drawing reaches, in board units: strokes, shapes, outlines, places."""
    points = [p for stroke in board.strokes if not stroke.hidden for p in (stroke.a, stroke.b)]
    points += [p for shape in board.shapes for p in shape.outline]
    points += [p for location in board.locations.values() for p in (location.xy, *location.outline)]
    return points


class Layout:
    """``board`` at ``mm_per_unit``, with the kit's margins, holes and LED offsets."""

    def __init__(self, board: Board, kit: BoardKit, mm_per_unit: float) -> None:
        self.board = board
        self.kit = kit
        self.mm_per_unit = mm_per_unit
        points = drawn_points(board)
        self.left = min(p[0] for p in points)
        self.top = max(p[1] for p in points)
        extent = board_extent(board)
        self.width = extent[0] * mm_per_unit + 2 * kit.margin_mm
        self.height = extent[1] * mm_per_unit + 2 * kit.margin_mm

    @classmethod
    def of_size(cls, board: Board, kit: BoardKit, size_mm: float) -> Layout:
        """The outline's longer side ``size_mm`` long."""
        room = size_mm - 2 * kit.margin_mm
        if room <= 0:
            raise KitError(f"--size {size_mm:g}mm leaves no room inside the {kit.margin_mm:g} mm margins "
                           f"(margin_mm in wiring/kit/kit.json); give a larger size")
        return cls(board, kit, room / max(board_extent(board)))

    @classmethod
    def of_spacing(cls, board: Board, kit: BoardKit, spacing_mm: float) -> Layout:
        """The two closest places ``spacing_mm`` apart."""
        return cls(board, kit, spacing_mm / closest_distance_units(board))

    def page(self, p: Coord) -> Coord:
        """A board point in page millimetres (from the outline's top-left corner, y down)."""
        return (self.kit.margin_mm + (p[0] - self.left) * self.mm_per_unit,
                self.kit.margin_mm + (self.top - p[1]) * self.mm_per_unit)

    @property
    def size(self) -> float:
        return max(self.width, self.height)

    @property
    def spacing(self) -> float:
        return closest_distance_units(self.board) * self.mm_per_unit

    @cached_property
    def sensors(self) -> dict[str, Drill]:
        """Each place's sensor, under the place's centre."""
        return {place: Drill("sensor", place, self.page(location.xy), self.kit.sensor_hole_mm)
                for place, location in self.board.locations.items()}

    @cached_property
    def leds(self) -> dict[str, Drill]:
        """Each place's LED beside its sensor, as kit.json says for the place's kind.

        A free LED takes, of ``FREE_ANGLES``, the direction farthest from the neighbouring sensors and
        the LEDs placed before it; the most crowded places choose first.
        """
        sensors = {place: drill.xy for place, drill in self.sensors.items()}
        kinds = {place: location.kind for place, location in self.board.locations.items()}
        found: dict[str, Coord] = {}
        for place, xy in sensors.items():
            offset = self.kit.led_offset(kinds[place])
            if offset.angle is not None:
                found[place] = _beside(xy, offset.vector())
        free = [place for place in sensors if place not in found]
        if free:
            near = _neighbours(sensors, NEIGHBOURS)
            for place in sorted(free, key=lambda p: (near[p][0][0], list(sensors).index(p))):
                offset = self.kit.led_offset(kinds[place])
                others = [sensors[q] for _, q in near[place]] + [found[q] for _, q in near[place] if q in found]
                candidates = [_beside(sensors[place], offset.vector(angle)) for angle in FREE_ANGLES]
                area = self.area(place)  # a compartment's light shows in it where it can
                candidates = [led for led in candidates if not area or _inside(area, led)] or candidates
                found[place] = max(candidates, key=lambda led: min(math.dist(led, other) for other in others))
        return {place: Drill("led", place, found[place], self.kit.led_hole_mm) for place in sensors}

    def area(self, place: str) -> tuple[Coord, ...]:
        """The outline of an area place (a compartment, cell, tile) on the page; empty for a point."""
        return tuple(self.page(p) for p in self.board.locations[place].outline)

    def drills(self) -> list[Drill]:
        return [*self.sensors.values(), *self.leds.values()]

    def closest(self) -> Closest:
        """The nearest two drill centres that belong to different places (a place's own pair is set by kit.json).

        A sweep along x: only holes closer in x than the best pair so far are compared.
        """
        drills = sorted(self.drills(), key=lambda drill: drill.xy[0])
        best: Closest | None = None
        for i, a in enumerate(drills):
            for b in drills[i + 1:]:
                if best is not None and b.xy[0] - a.xy[0] >= best.distance:
                    break
                if a.place != b.place:
                    distance = math.dist(a.xy, b.xy)
                    if best is None or distance < best.distance:
                        best = Closest(a, b, distance)
        assert best is not None
        return best

    def smallest_scale(self, clearance: float) -> float:
        """The smallest mm per unit (to 0.1 %) from which every two drill centres of different places keep
        ``clearance``: searched upward in steps of 5 %, then halved between the last too close and the first
        that keeps it (free LEDs move with the scale, so no formula gives it)."""
        # no pair of sensors may be closer: the closest two places set a first bound
        low = high = max(self.mm_per_unit, clearance / closest_distance_units(self.board))
        while Layout(self.board, self.kit, high).closest().distance < clearance:
            low, high = high, high * 1.05
        while high - low > high * 0.001:
            middle = (low + high) / 2
            if Layout(self.board, self.kit, middle).closest().distance < clearance:
                low = middle
            else:
                high = middle
        return high

    def check_clearance(self, clearance: float, asked: str) -> None:
        """Refuse the layout when drill centres of two places sit closer than ``clearance`` mm, naming both."""
        closest = self.closest()
        if closest.distance + 1e-9 >= clearance:
            return
        scale = self.smallest_scale(clearance)
        bigger = Layout(self.board, self.kit, scale)
        raise KitError(f"{asked}: {closest.describe()}, closer than the {clearance:g} mm clearance; "
                       f"give --size {math.ceil(bigger.size)}mm (or --spacing {math.ceil(bigger.spacing * 10) / 10:g}mm)"
                       f" or more, or a smaller --clearance")

    def check_areas(self) -> None:
        """Every area's LED lies inside its area: a light beside it would show the neighbour lit."""
        for place, led in self.leds.items():
            area = self.area(place)
            if area and not _inside(area, led.xy):
                kind = self.board.locations[place].kind
                distance = self.kit.led_offset(kind).distance_mm
                raise KitError(f"the LED of {place} falls outside its {kind} ({distance:g} mm from its sensor in "
                               f"so small a {kind}): give a larger size, or a smaller led_offset for {kind} in "
                               f"wiring/kit/kit.json")

    def check_inside(self) -> None:
        """Every hole lies inside the outline; an LED poking out means the margin is too small."""
        for drill in self.drills():
            x, y = drill.xy
            r = drill.diameter / 2
            if x - r < 0 or y - r < 0 or x + r > self.width or y + r > self.height:
                raise KitError(f"the {_part_name(drill.part)} hole of {drill.place} reaches past the outline; "
                               f"raise margin_mm for {self.board.name} in wiring/kit/kit.json")


def _inside(outline: tuple[Coord, ...], p: Coord) -> bool:
    """Whether ``p`` lies inside the polygon ``outline`` (even-odd crossings)."""
    inside = False
    for (x1, y1), (x2, y2) in zip(outline, outline[1:] + outline[:1]):
        if (y1 > p[1]) != (y2 > p[1]) and p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _beside(xy: Coord, vector: tuple[float, float]) -> Coord:
    """A point ``vector`` (mm, y up as on the board) from ``xy`` on the page (y down)."""
    return (xy[0] + vector[0], xy[1] - vector[1])


def _neighbours(points: dict[str, Coord], count: int) -> dict[str, list[tuple[float, str]]]:
    """Each point's ``count`` nearest others, nearest first, as (distance, name)."""
    return {p: sorted((math.dist(xy, other), q) for q, other in points.items() if q != p)[:count]
            for p, xy in points.items()}


def board_extent(board: Board) -> tuple[float, float]:
    """The drawing's width and height in board units."""
    points = drawn_points(board)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return max(xs) - min(xs), max(ys) - min(ys)


def checked_layout(board: Board, kit: BoardKit, size: str | None = None, spacing: str | None = None,
                   clearance: str | None = None) -> Layout:
    """The layout ``--size`` or ``--spacing`` asks for (neither: the board's size_mm in kit.json), refused when
    holes of two places sit closer than ``--clearance`` (default the kit's), an LED leaves its compartment or a
    hole the outline.  The template, the route and the parts list all start here, so one size means one board."""
    if spacing is not None:
        layout = Layout.of_spacing(board, kit, parse_length("--spacing", spacing))
        asked = f"--spacing {spacing}"
    else:
        layout = Layout.of_size(board, kit, parse_length("--size", size) if size is not None else kit.size_mm)
        asked = f"--size {size}" if size is not None else f"the default size ({kit.size_mm:g} mm, size_mm in kit.json)"
    layout.check_clearance(parse_length("--clearance", clearance) if clearance else kit.clearance_mm, asked)
    layout.check_areas()
    layout.check_inside()
    return layout
