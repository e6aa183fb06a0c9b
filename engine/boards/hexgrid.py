"""Hexagonal boards of hexagonal cells (Hexover), derived from a small data file.

The file gives the board's side, its winning paths (a start cell, a direction and a
length each) and the starting disks; this module derives the cells, their outlines,
the six rays from every cell that outflanking walks along, and the red cells (those
on no path).  Cells are named ``h1``, ``h2``, ... outward from the centre and
counter-clockwise from the east, like the line boards' points.
"""

from __future__ import annotations

import math
from functools import cached_property
from pathlib import Path

from engine.board import Board, Location, Shape, Stroke
from engine.boards import BoardFileError, read_data
from engine.geometry import Coord, snap_point

Axial = tuple[int, int]

#: The six steps between neighbouring cells, in axial coordinates (pointy side up).
DIRECTIONS: dict[str, Axial] = {"E": (1, 0), "NE": (0, 1), "NW": (-1, 1), "W": (-1, 0), "SW": (0, -1), "SE": (1, -1)}
#: Size of the marks at a path's ends, as a fraction of a cell.
PATH_END_MARK = 0.28


def hex_distance(a: Axial) -> int:
    """Steps from the centre cell."""
    q, r = a
    return max(abs(q), abs(r), abs(q + r))


def hexagon(centre: Coord, radius: float) -> tuple[Coord, ...]:
    """A pointy-side-up hexagon's corners, counter-clockwise."""
    x, y = centre
    return tuple(snap_point((x + radius * math.cos(math.radians(30 + 60 * k)),
                             y + radius * math.sin(math.radians(30 + 60 * k)))) for k in range(6))


class HexBoard(Board):
    """Cells with their rays in the six directions, the winning paths and the setup."""

    def __init__(self, name: str, title: str, side: int, cell_radius: float,
                 paths: list[tuple[Axial, ...]], setup: dict[Axial, str]) -> None:
        self.radius = cell_radius
        axials = [(q, r) for q in range(-side + 1, side) for r in range(-side + 1, side)
                  if hex_distance((q, r)) < side]
        axials.sort(key=lambda a: (hex_distance(a), _angle(self._xy(a))))
        #: Cell id -> axial coordinates, and back.
        self.axial: dict[str, Axial] = {f"h{n}": a for n, a in enumerate(axials, 1)}
        self.cell_at: dict[Axial, str] = {a: cell for cell, a in self.axial.items()}
        self.cells: tuple[str, ...] = tuple(self.axial)
        self.paths: tuple[tuple[str, ...], ...] = tuple(tuple(self.cell_at[a] for a in path) for path in paths)
        on_path = {cell for path in self.paths for cell in path}
        #: Cells on no winning path: disks there never count for a path.
        self.red: tuple[str, ...] = tuple(c for c in self.cells if c not in on_path)
        self.setup: dict[str, str] = {self.cell_at[a]: colour for a, colour in setup.items()}
        locations = {cell: Location(cell, "cell", self._xy(a), hexagon(self._xy(a), cell_radius))
                     for cell, a in self.axial.items()}
        shapes = [Shape(loc.outline, "red" if cell in self.red else "white") for cell, loc in locations.items()]
        path_ends = dict.fromkeys(end for path in self.paths for end in (path[0], path[-1]))
        shapes += [Shape(hexagon(locations[end].xy, cell_radius * PATH_END_MARK), "white", "path end")
                   for end in path_ends]
        strokes = [Stroke(locations[path[0]].xy, locations[path[-1]].xy) for path in self.paths]
        super().__init__(name, title, locations, strokes, shapes)

    def _xy(self, a: Axial) -> Coord:
        q, r = a
        return snap_point((math.sqrt(3) * self.radius * (q + r / 2), 1.5 * self.radius * r))

    @cached_property
    def rays(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        """For each cell: the cells beyond it in each direction, nearest first, to the edge."""
        result = {}
        for cell, (q, r) in self.axial.items():
            rays = []
            for dq, dr in DIRECTIONS.values():
                ray, k = [], 1
                while (q + k * dq, r + k * dr) in self.cell_at:
                    ray.append(self.cell_at[(q + k * dq, r + k * dr)])
                    k += 1
                if ray:
                    rays.append(tuple(ray))
            result[cell] = tuple(rays)
        return result

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        return {cell: tuple(ray[0] for ray in rays) for cell, rays in self.rays.items()}

    def facts(self) -> dict[str, object]:
        facts = super().facts()
        facts.update({"cells": len(self.cells), "paths": len(self.paths), "red": len(self.red),
                      "white": len(self.cells) - len(self.red)})
        return facts


def _angle(p: Coord) -> float:
    return round(math.atan2(p[1], p[0]) % (2 * math.pi), 5)


def build(path: Path) -> HexBoard:
    """The board described by ``path`` (see ``hexover.json``), checked with clear errors."""
    data = read_data(path)
    side = data.get("side")
    if not isinstance(side, int) or isinstance(side, bool) or side < 2:
        raise BoardFileError(f'{path}: "side" must be a whole number of cells of at least 2, not {side!r}')
    cell_radius = data.get("cell_radius", 1.0)
    if not isinstance(cell_radius, (int, float)) or cell_radius <= 0:
        raise BoardFileError(f'{path}: "cell_radius" must be a positive number, not {cell_radius!r}')
    raw_paths = data.get("paths")
    if not isinstance(raw_paths, list) or not raw_paths:
        raise BoardFileError(f'{path}: needs "paths": a list of {{"from": [q, r], "direction": "E", "length": 5}}')
    paths = [_read_path(path, side, n, item) for n, item in enumerate(raw_paths, 1)]
    setup = _read_setup(path, side, data.get("setup", {}))
    return HexBoard(data.get("name", path.stem), data.get("title", path.stem), side, float(cell_radius),
                    paths, setup)


def _read_cell(path: Path, side: int, where: str, raw: object) -> Axial:
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in raw)):
        raise BoardFileError(f"{path}: {where}: a cell is two whole numbers [q, r], not {raw!r}")
    cell = (raw[0], raw[1])
    if hex_distance(cell) >= side:
        raise BoardFileError(f"{path}: {where}: cell {raw} is off a board of side {side} "
                             f"(|q|, |r| and |q + r| must stay below {side})")
    return cell


def _read_path(path: Path, side: int, n: int, item: object) -> tuple[Axial, ...]:
    where = f"paths, entry {n}"
    if not isinstance(item, dict):
        raise BoardFileError(f'{path}: {where} must be {{"from": [q, r], "direction": "E", "length": 5}}')
    start = _read_cell(path, side, f"{where} \"from\"", item.get("from"))
    direction, length = item.get("direction"), item.get("length")
    if direction not in DIRECTIONS:
        raise BoardFileError(f"{path}: {where}: direction {direction!r} is not one of {', '.join(DIRECTIONS)}")
    if not isinstance(length, int) or isinstance(length, bool) or length < 2:
        raise BoardFileError(f"{path}: {where}: length must be a whole number of cells of at least 2, not {length!r}")
    dq, dr = DIRECTIONS[direction]
    cells = tuple((start[0] + k * dq, start[1] + k * dr) for k in range(length))
    if hex_distance(cells[-1]) >= side:
        raise BoardFileError(f"{path}: {where}: {length} cells {direction} from {list(start)} leave the board; "
                             "shorten it or start it elsewhere")
    return cells


def _read_setup(path: Path, side: int, raw: object) -> dict[Axial, str]:
    if not isinstance(raw, dict):
        raise BoardFileError(f'{path}: "setup" must map a colour to a list of cells [q, r]')
    setup: dict[Axial, str] = {}
    for colour, cells in raw.items():
        if not isinstance(cells, list):
            raise BoardFileError(f'{path}: setup "{colour}" must be a list of cells [q, r]')
        for raw_cell in cells:
            cell = _read_cell(path, side, f'setup "{colour}"', raw_cell)
            if cell in setup:
                raise BoardFileError(f'{path}: setup: cell {list(cell)} is listed twice ({setup[cell]} and {colour})')
            setup[cell] = colour
    return setup
