"""Boards: the places a piece can stand, and how they relate.

Every board exposes ``locations``: the places a sensor sits under, each with an id,
a kind and a position for drawing.  A line board adds the topology the games use,
all derived from its drawing (see ``engine.geometry``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

from engine.geometry import Coord, GeometryError, PlanarDrawing, planar_drawing, snap_point

CENTER = "center"


@dataclass(frozen=True)
class Location:
    """A place on the board that one sensor reads and one or more LEDs light."""

    id: str
    kind: str
    xy: Coord
    outline: tuple[Coord, ...] = ()


@dataclass(frozen=True)
class Stroke:
    """A straight line of the drawing; hidden strokes lie under a cover."""

    a: Coord
    b: Coord
    hidden: bool = False


@dataclass(frozen=True)
class Shape:
    """A filled polygon of the drawing (a cell colour, a covering square, a tile)."""

    outline: tuple[Coord, ...]
    fill: str
    label: str = ""


@dataclass
class Board:
    """What every board offers: its locations and how to draw it."""

    name: str
    title: str
    locations: dict[str, Location]
    strokes: list[Stroke] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)

    def facts(self) -> dict[str, object]:
        """Derived counts, for ``gameboard board info``."""
        kinds: dict[str, int] = {}
        for location in self.locations.values():
            kinds[location.kind] = kinds.get(location.kind, 0) + 1
        return {"locations": len(self.locations), "by_kind": kinds}


def _polar_key(p: Coord, centre: Coord = (0.0, 0.0)) -> tuple[float, float]:
    dx, dy = p[0] - centre[0], p[1] - centre[1]
    return (round(math.hypot(dx, dy), 5), round(math.atan2(dy, dx) % (2 * math.pi), 5))


@dataclass(frozen=True)
class BoardLine:
    """A maximal straight line through the intersections, in order."""

    index: int
    direction: float
    points: tuple[str, ...]


class LineBoard(Board):
    """A board of lines and intersections, with the compartments between them.

    Intersections are ``p1``, ``p2``, ... and compartments ``f1``, ``f2``, ..., both
    numbered outward from the centre, counter-clockwise from the east.  A board may
    declare a covered centre (Over-Pass): hidden strokes cross under a covering
    square, and the single location ``center`` is both the hidden intersection and
    the covering compartment.
    """

    def __init__(self, name: str, title: str, segments: list[tuple[Coord, Coord]],
                 hidden: list[tuple[Coord, Coord]] = (), centre: Coord = (0.0, 0.0),
                 compartments_played: bool = True) -> None:
        self.visible: PlanarDrawing = planar_drawing(segments)
        self.centre = snap_point(centre)
        network = planar_drawing(list(segments) + list(hidden)) if hidden else self.visible
        self.network = network
        covered = bool(hidden)

        vis_points = self.visible.points
        order = sorted(range(len(vis_points)), key=lambda i: _polar_key(vis_points[i], self.centre))
        point_id: dict[Coord, str] = {vis_points[i]: f"p{n}" for n, i in enumerate(order, 1)}
        if covered:
            point_id[self.centre] = CENTER
        missing = [p for p in network.points if p not in point_id]
        if missing:
            raise GeometryError(f"hidden strokes create intersections not on the drawing: {missing[:3]}")
        self._net_id = [point_id[p] for p in network.points]

        faces = sorted(self.visible.faces, key=lambda f: _polar_key(_centroid(vis_points, f.boundary), self.centre))
        self.face_ids: list[str] = []
        locations: dict[str, Location] = {}
        for i in order:
            locations[point_id[vis_points[i]]] = Location(point_id[vis_points[i]], "point", vis_points[i])
        self.cover_face: str | None = None
        number = 1
        for face in faces:
            outline = tuple(vis_points[v] for v in face.boundary)
            if covered and _contains(outline, self.centre):
                fid = CENTER
                self.cover_face = CENTER
            else:
                fid = f"f{number}"
                number += 1
            self.face_ids.append(fid)
            if fid == CENTER:
                locations[fid] = Location(fid, "center", self.centre, outline)
            else:
                locations[fid] = Location(fid, "face", _centroid(vis_points, face.boundary), outline)
        if covered and self.cover_face is None:
            raise GeometryError("the hidden centre lies in no compartment of the drawing")
        self._faces_sorted = faces
        strokes = [Stroke(vis_points[u], vis_points[v]) for u, v in sorted(self.visible.edges)]
        strokes += [Stroke(snap_point(a), snap_point(b), hidden=True) for a, b in hidden]
        shapes = [Shape(locations[CENTER].outline, "cover")] if covered else []
        #: Every intersection and compartment; ``locations`` holds those that are played.
        self.places = locations
        played = locations if compartments_played else {
            k: v for k, v in locations.items() if v.kind != "face"}
        super().__init__(name, title, played, strokes, shapes)

    # -- intersections and lines -------------------------------------------------

    @cached_property
    def points(self) -> list[str]:
        """Every intersection a piece may stand on, the covered centre included."""
        return [loc.id for loc in self.places.values() if loc.kind == "point"] + (
            [CENTER] if self.cover_face else [])

    @cached_property
    def visible_points(self) -> list[str]:
        return [loc.id for loc in self.places.values() if loc.kind == "point"]

    @cached_property
    def _point_at_xy(self) -> dict[Coord, str]:
        return {loc.xy: loc.id for loc in self.places.values() if loc.kind == "point"}

    def xy(self, location: str) -> Coord:
        return self.places[location].xy

    def radius(self, location: str) -> float:
        x, y = self.xy(location)
        return math.hypot(x - self.centre[0], y - self.centre[1])

    @cached_property
    def lines(self) -> list[BoardLine]:
        """Maximal straight lines of the playing network (hidden strokes included)."""
        return [BoardLine(line.index, line.direction, tuple(self._net_id[p] for p in line.points))
                for line in self.network.lines]

    @cached_property
    def drawn_lines(self) -> list[BoardLine]:
        """Maximal straight lines as drawn (the covered centre takes no part)."""
        return [BoardLine(line.index, line.direction, tuple(self._point_at_xy[self.visible.points[p]] for p in line.points))
                for line in self.visible.lines]

    @cached_property
    def lines_through(self) -> dict[str, tuple[BoardLine, ...]]:
        """The lines that pass through each intersection (continue on both sides)."""
        return _through(self.lines, self.points)

    @cached_property
    def lines_ending(self) -> dict[str, tuple[BoardLine, ...]]:
        """The lines that terminate at each intersection."""
        return _ending(self.lines, self.points)

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        """Intersections one step away along a line."""
        result: dict[str, set[str]] = {p: set() for p in self.points}
        for line in self.lines:
            for a, b in zip(line.points, line.points[1:]):
                result[a].add(b)
                result[b].add(a)
        return {p: tuple(sorted(v, key=self.points.index)) for p, v in result.items()}

    @cached_property
    def steps(self) -> dict[str, tuple[tuple[str, str, int], ...]]:
        """For each intersection: (neighbour, beyond-or-'' , line index) along every line."""
        result: dict[str, list[tuple[str, str, int]]] = {p: [] for p in self.points}
        for line in self.lines:
            pts = line.points
            for k, p in enumerate(pts):
                for d in (-1, 1):
                    if 0 <= k + d < len(pts):
                        beyond = pts[k + 2 * d] if 0 <= k + 2 * d < len(pts) else ""
                        result[p].append((pts[k + d], beyond, line.index))
        return {p: tuple(v) for p, v in result.items()}

    @cached_property
    def outward(self) -> dict[str, tuple[str, ...]]:
        """Neighbours along a line that lie farther from the centre."""
        return {p: tuple(q for q in self.neighbours[p] if self.radius(q) > self.radius(p) + 1e-6)
                for p in self.points}

    @cached_property
    def exits(self) -> tuple[str, ...]:
        """The outermost intersections."""
        far = max(self.radius(p) for p in self.visible_points)
        return tuple(p for p in self.visible_points if self.radius(p) > far - 1e-6)

    @cached_property
    def perimeter(self) -> frozenset[tuple[str, str]]:
        """Steps along the outer boundary of the drawing, in both directions.

        An edge is on the perimeter unless compartments lie on both of its sides.
        """
        sides: dict[tuple[int, int], int] = {e: 0 for e in self.visible.edges}
        for face in self.visible.faces:
            for e in face.edges:
                sides[e] += 1
        pts = self.visible.points
        pairs = set()
        for (u, v), count in sides.items():
            if count < 2:
                a, b = self._point_at_xy[pts[u]], self._point_at_xy[pts[v]]
                pairs.update({(a, b), (b, a)})
        return frozenset(pairs)

    @cached_property
    def on_cover_edge(self) -> tuple[str, ...]:
        """Intersections on the boundary of the covering square."""
        if not self.cover_face:
            return ()
        outline = self.places[CENTER].outline
        return tuple(sorted((self._point_at_xy[p] for p in outline), key=self.points.index))

    def parallel(self, a: BoardLine, b: BoardLine) -> bool:
        return a.index != b.index and a.direction == b.direction

    # -- compartments -----------------------------------------------------------

    @cached_property
    def faces(self) -> list[str]:
        """Every compartment, the covered centre included."""
        return [loc.id for loc in self.places.values() if loc.kind in ("face", "center")]

    @cached_property
    def _face_of_index(self) -> dict[int, str]:
        return {face.index: fid for face, fid in zip(self._faces_sorted, self.face_ids)}

    @cached_property
    def face_adjacency(self) -> dict[str, tuple[str, ...]]:
        """Compartments sharing a boundary of positive length (never a mere corner)."""
        by_edge: dict[tuple[int, int], list[str]] = {}
        for face in self.visible.faces:
            for e in face.edges:
                by_edge.setdefault(e, []).append(self._face_of_index[face.index])
        result: dict[str, set[str]] = {f: set() for f in self.faces}
        for owners in by_edge.values():
            if len(owners) == 2:
                a, b = owners
                result[a].add(b)
                result[b].add(a)
        return {f: tuple(sorted(v, key=self.faces.index)) for f, v in result.items()}

    @cached_property
    def corner_count(self) -> dict[str, int]:
        return {self._face_of_index[f.index]: len(f.corners) for f in self.visible.faces}

    @cached_property
    def triangles(self) -> tuple[str, ...]:
        return tuple(f for f in self.faces if self.corner_count[f] == 3)

    @cached_property
    def around_cover(self) -> tuple[str, ...]:
        """Compartments that share a side with the covering square."""
        return self.face_adjacency[CENTER] if self.cover_face else ()

    def face_at(self, point: Coord) -> str:
        """The compartment containing a point (for data files that name places by position)."""
        for fid in self.faces:
            if _contains(self.places[fid].outline, point):
                return fid
        raise GeometryError(f"no compartment contains the point {point}")

    def point_at(self, point: Coord) -> str:
        """The intersection at a position (within a small tolerance)."""
        target = snap_point(point)
        for pid in self.points:
            x, y = self.xy(pid) if pid != CENTER else self.centre
            if math.hypot(x - target[0], y - target[1]) < 1e-3:
                return pid
        raise GeometryError(f"no intersection at {point}")

    @cached_property
    def t_junctions(self) -> tuple[str, ...]:
        """Intersections where exactly one drawn line passes through and exactly one ends."""
        through = _through(self.drawn_lines, self.visible_points)
        ending = _ending(self.drawn_lines, self.visible_points)
        return tuple(p for p in self.visible_points if len(through[p]) == 1 and len(ending[p]) == 1)

    @cached_property
    def t_groups(self) -> tuple[tuple[str, str, str], ...]:
        """Groups-of-three at the T-junctions: (spanning compartment, one side, other side)."""
        pts = self.visible.points
        groups = []
        for junction in self.t_junctions:
            spanning, sides = None, []
            for face in self.visible.faces:
                ids = [self._point_at_xy[pts[v]] for v in face.boundary]
                if junction not in ids:
                    continue
                fid = self._face_of_index[face.index]
                corner_ids = {self._point_at_xy[pts[v]] for v in face.corners}
                if junction in corner_ids:
                    sides.append(fid)
                else:
                    spanning = fid
            if spanning is not None and len(sides) == 2:  # not on the outer edge
                    groups.append((spanning, *sorted(sides, key=self.faces.index)))
        return tuple(groups)

    def facts(self) -> dict[str, object]:
        facts = super().facts()
        facts.update({
            "intersections": len(self.visible_points),
            "lines": len(self.drawn_lines),
            "compartments": len(self.faces),
            "triangles": len(self.triangles),
            "exits": len(self.exits),
            "t_groups": len(self.t_groups),
        })
        if self.cover_face:
            facts.update({"cover_edge_intersections": len(self.on_cover_edge),
                          "center_triangles": sum(1 for f in self.around_cover if f in self.triangles)})
        return facts


def _through(lines: list[BoardLine], points: list[str]) -> dict[str, tuple[BoardLine, ...]]:
    """For each point, the lines that continue on both sides of it."""
    result: dict[str, list[BoardLine]] = {p: [] for p in points}
    for line in lines:
        for p in line.points[1:-1]:
            result[p].append(line)
    return {p: tuple(v) for p, v in result.items()}


def _ending(lines: list[BoardLine], points: list[str]) -> dict[str, tuple[BoardLine, ...]]:
    """For each point, the lines that end there."""
    result: dict[str, list[BoardLine]] = {p: [] for p in points}
    for line in lines:
        for p in {line.points[0], line.points[-1]}:
            result[p].append(line)
    return {p: tuple(v) for p, v in result.items()}


def _centroid(points: list[Coord], boundary: list[int]) -> Coord:
    polygon = [points[i] for i in boundary]
    area = cx = cy = 0.0
    for a, b in zip(polygon, polygon[1:] + polygon[:1]):
        w = a[0] * b[1] - b[0] * a[1]
        area += w
        cx += (a[0] + b[0]) * w
        cy += (a[1] + b[1]) * w
    return snap_point((cx / (3 * area), cy / (3 * area)))


def _contains(outline: tuple[Coord, ...] | list[Coord], p: Coord) -> bool:
    inside = False
    n = len(outline)
    for i in range(n):
        (x1, y1), (x2, y2) = outline[i], outline[(i + 1) % n]
        if (y1 > p[1]) != (y2 > p[1]):
            x = x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1)
            if x > p[0]:
                inside = not inside
    return inside
