"""The order the LED strip (and the sensor chain beside it) passes the places.

Two styles, chosen per board in kit.json: ``serpentine`` runs along rows, top row
first, turning back at each end; ``shortest`` starts at the top-left place, goes to the
nearest place not yet visited, then 2-opt reverses stretches of the route while that
shortens it.  Both work on the LEDs' drill centres (page mm, y down).
"""

from __future__ import annotations

import math

from engine.geometry import Coord

#: 2-opt stops after this many passes over every pair of edges, improving or not.
PASSES = 30


def serpentine(points: dict[str, Coord], row_tolerance: float) -> list[str]:
    """Rows of places whose y lie within ``row_tolerance`` of the row's first, alternately left and right."""
    rows: list[list[str]] = []
    first_y = 0.0
    for place in sorted(points, key=lambda p: (points[p][1], points[p][0])):
        if not rows or points[place][1] - first_y > row_tolerance:
            rows.append([])
            first_y = points[place][1]
        rows[-1].append(place)
    order = []
    for number, row in enumerate(rows):
        order += sorted(row, key=lambda p: points[p][0], reverse=bool(number % 2))
    return order


def shortest(points: dict[str, Coord]) -> list[str]:
    """Nearest neighbour from the top-left place, then 2-opt: a short open path through every place."""
    names = list(points)
    xy = [points[name] for name in names]
    start = min(range(len(names)), key=lambda i: (xy[i][0] + xy[i][1], xy[i][0]))
    left = set(range(len(names))) - {start}
    tour = [start]
    while left:
        here = xy[tour[-1]]
        nearest = min(left, key=lambda i: (math.dist(here, xy[i]), i))
        tour.append(nearest)
        left.remove(nearest)
    _two_opt(tour, xy)
    return [names[i] for i in tour]


def _two_opt(tour: list[int], xy: list[Coord]) -> None:
    """Reverse tour[i:j+1] wherever that shortens the open path; the first place stays first."""
    n = len(tour)
    for _ in range(PASSES):
        improved = False
        for i in range(1, n - 1):
            a, b = xy[tour[i - 1]], xy[tour[i]]
            ab = math.dist(a, b)
            for j in range(i + 1, n):
                c = xy[tour[j]]
                if j + 1 < n:
                    d = xy[tour[j + 1]]
                    gain = ab + math.dist(c, d) - math.dist(a, c) - math.dist(b, d)
                else:  # the open end: reversing the tail only moves b to the end
                    gain = ab - math.dist(a, c)
                if gain > 1e-9:
                    tour[i:j + 1] = reversed(tour[i:j + 1])
                    b = xy[tour[i]]
                    ab = math.dist(a, b)
                    improved = True
        if not improved:
            return


def route(style: str, points: dict[str, Coord], row_tolerance: float) -> list[str]:
    return serpentine(points, row_tolerance) if style == "serpentine" else shortest(points)


def split_even(order: list[str], most: int) -> list[list[str]]:
    """The route cut into as few strips as keep each within ``most`` LEDs, as even as can be."""
    count = max(1, math.ceil(len(order) / most))
    size, extra = divmod(len(order), count)
    strips, start = [], 0
    for number in range(count):
        length = size + (1 if number < extra else 0)
        strips.append(order[start:start + length])
        start += length
    return strips


def path_length(points: list[Coord]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:]))
