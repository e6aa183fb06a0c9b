"""Planar line drawings: from straight segments to points, lines and faces.

A line board (Over-Pass, Square Off) is described by the segments a person would
draw.  This module nodes them (splits every segment where another touches or
crosses it), merges collinear edges into maximal straight lines and walks the
planar graph to find the faces.  Coordinates are floats snapped to a grid fine
enough for boards drawn from radicals such as sqrt(2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations

from engine.errors import GameboardError

Coord = tuple[float, float]

SNAP = 1e-6


class GeometryError(GameboardError, ValueError):
    """The drawing cannot be turned into a board; the message says why."""


def snap(x: float) -> float:
    value = round(x / SNAP) * SNAP
    return 0.0 if value == 0 else round(value, 6)


def snap_point(p: Coord) -> Coord:
    return (snap(p[0]), snap(p[1]))


def direction_key(a: Coord, b: Coord) -> float:
    """The undirected direction of a-b as an angle in degrees in [0, 180)."""
    angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 180.0
    angle = round(angle, 4) % 180.0
    return angle


@dataclass
class Line:
    """A maximal straight line: its points in order from one end to the other."""

    index: int
    direction: float
    points: list[int]

    @property
    def ends(self) -> tuple[int, int]:
        return self.points[0], self.points[-1]


@dataclass
class Face:
    """A bounded face: its boundary vertices counter-clockwise and its corners."""

    index: int
    boundary: list[int]
    corners: list[int]
    area: float
    edges: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class PlanarDrawing:
    points: list[Coord]
    edges: set[tuple[int, int]]
    lines: list[Line]
    faces: list[Face]


def _segment_intersection(p: Coord, q: Coord, r: Coord, s: Coord) -> list[Coord]:
    """Points shared by segments pq and rs (a crossing, a touch, or an overlap's ends)."""
    d1 = (q[0] - p[0], q[1] - p[1])
    d2 = (s[0] - r[0], s[1] - r[1])
    cross = d1[0] * d2[1] - d1[1] * d2[0]
    rp = (r[0] - p[0], r[1] - p[1])
    len1 = math.hypot(*d1)
    len2 = math.hypot(*d2)
    tol = 1e-9
    if abs(cross) <= tol * len1 * len2:
        # Parallel: shared points only if collinear; then the overlap's ends.
        if abs(rp[0] * d1[1] - rp[1] * d1[0]) > 1e-7 * len1:
            return []
        shared = []
        for point in (p, q, r, s):
            if _on_segment(point, p, q) and _on_segment(point, r, s):
                shared.append(point)
        return shared
    t = (rp[0] * d2[1] - rp[1] * d2[0]) / cross
    u = (rp[0] * d1[1] - rp[1] * d1[0]) / cross
    eps = 1e-9
    if -eps <= t <= 1 + eps and -eps <= u <= 1 + eps:
        return [(p[0] + t * d1[0], p[1] + t * d1[1])]
    return []


def _on_segment(x: Coord, p: Coord, q: Coord) -> bool:
    d = (q[0] - p[0], q[1] - p[1])
    length2 = d[0] ** 2 + d[1] ** 2
    t = ((x[0] - p[0]) * d[0] + (x[1] - p[1]) * d[1]) / length2
    if t < -1e-9 or t > 1 + 1e-9:
        return False
    px = (p[0] + t * d[0], p[1] + t * d[1])
    return math.hypot(px[0] - x[0], px[1] - x[1]) <= 1e-6


def node_segments(segments: list[tuple[Coord, Coord]]) -> tuple[list[Coord], set[tuple[int, int]]]:
    """Split segments at every shared point: the vertices and the edges between them."""
    on_segment: list[set[Coord]] = [{snap_point(a), snap_point(b)} for a, b in segments]
    for (i, (p, q)), (j, (r, s)) in combinations(enumerate(segments), 2):
        for x in _segment_intersection(p, q, r, s):
            point = snap_point(x)
            on_segment[i].add(point)
            on_segment[j].add(point)
    index: dict[Coord, int] = {}
    points: list[Coord] = []
    edges: set[tuple[int, int]] = set()
    for (a, _), members in zip(segments, on_segment):
        ordered = sorted(members, key=lambda m: math.hypot(m[0] - a[0], m[1] - a[1]))
        ids = []
        for point in ordered:
            if point not in index:
                index[point] = len(points)
                points.append(point)
            ids.append(index[point])
        for u, v in zip(ids, ids[1:]):
            if u != v:
                edges.add((min(u, v), max(u, v)))
    return points, edges


def maximal_lines(points: list[Coord], edges: set[tuple[int, int]]) -> list[Line]:
    """Chain collinear edges through shared vertices into maximal straight lines."""
    by_vertex: dict[tuple[int, float], list[int]] = {}
    for u, v in edges:
        key = direction_key(points[u], points[v])
        by_vertex.setdefault((u, key), []).append(v)
        by_vertex.setdefault((v, key), []).append(u)
    seen: set[tuple[int, int]] = set()
    lines: list[Line] = []
    for u, v in sorted(edges):
        if (u, v) in seen:
            continue
        key = direction_key(points[u], points[v])
        chain = [u, v]
        for forward in (True, False):
            while True:
                end, before = (chain[-1], chain[-2]) if forward else (chain[0], chain[1])
                nxt = [w for w in by_vertex.get((end, key), []) if w != before]
                if not nxt:
                    break
                if forward:
                    chain.append(nxt[0])
                else:
                    chain.insert(0, nxt[0])
        for a, b in zip(chain, chain[1:]):
            seen.add((min(a, b), max(a, b)))
        lines.append(Line(len(lines), key, chain))
    return lines


def _signed_area(polygon: list[Coord]) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(polygon, polygon[1:] + polygon[:1])) / 2


def faces_of(points: list[Coord], edges: set[tuple[int, int]]) -> list[Face]:
    """The bounded faces of a connected planar graph, by walking half-edges."""
    around: dict[int, list[int]] = {}
    for u, v in edges:
        around.setdefault(u, []).append(v)
        around.setdefault(v, []).append(u)
    for u, neighbours in around.items():
        neighbours.sort(key=lambda w: math.atan2(points[w][1] - points[u][1], points[w][0] - points[u][0]))
    visited: set[tuple[int, int]] = set()
    faces: list[Face] = []
    for u, v in sorted((a, b) for e in edges for a, b in (e, e[::-1])):
        if (u, v) in visited:
            continue
        cycle = []
        a, b = u, v
        while (a, b) not in visited:
            visited.add((a, b))
            cycle.append(a)
            # Turn as far left as possible: the next edge around b clockwise from b->a.
            ring = around[b]
            k = ring.index(a)
            a, b = b, ring[(k - 1) % len(ring)]
        polygon = [points[i] for i in cycle]
        area = _signed_area(polygon)
        if area <= 1e-9:
            continue  # the outer face runs clockwise
        corners = [
            cycle[i]
            for i in range(len(cycle))
            if _is_corner(points[cycle[i - 1]], points[cycle[i]], points[cycle[(i + 1) % len(cycle)]])
        ]
        face_edges = [(min(x, y), max(x, y)) for x, y in zip(cycle, cycle[1:] + cycle[:1])]
        faces.append(Face(len(faces), cycle, corners, area, face_edges))
    return faces


def _is_corner(a: Coord, b: Coord, c: Coord) -> bool:
    cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
    return abs(cross) > 1e-7 * math.hypot(b[0] - a[0], b[1] - a[1]) * math.hypot(c[0] - b[0], c[1] - b[1])


def is_connected(count: int, edges: set[tuple[int, int]]) -> bool:
    neighbours: dict[int, list[int]] = {i: [] for i in range(count)}
    for u, v in edges:
        neighbours[u].append(v)
        neighbours[v].append(u)
    seen = {0}
    stack = [0]
    while stack:
        for w in neighbours[stack.pop()]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return len(seen) == count


def planar_drawing(segments: list[tuple[Coord, Coord]]) -> PlanarDrawing:
    """Node the segments and derive lines and faces; the drawing must be connected."""
    points, edges = node_segments(segments)
    if not is_connected(len(points), edges):
        raise GeometryError("the drawing falls apart into separate pieces: every segment must touch the rest")
    return PlanarDrawing(points, edges, maximal_lines(points, edges), faces_of(points, edges))
