"""The Pawns Crossing board: the fixed grid of places that tiles and dominoes slide through.

Tiles and dominoes move when a row or column slides, so the sensed locations are the
physical places of the grid, not the pieces of equipment: tile places ``t<row>.<col>``,
the halves of the domino slots (``d1.1e-n`` is the north half of the domino east of
tile place 1.1, ``d1.1s-w`` the west half of the one south of it), the holes
``h<row>.<col>`` (south-east of tile place row.col) and the halves of the places the
Pusher may lie in (``push-w1-n``: west end of row 1, north half).  Rows count from the
north, columns from the west.  The game maps each place to what lies there now.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from engine.board import Board, Location, Shape, Stroke
from engine.boards import BoardFileError, read_data
from engine.geometry import Coord, snap_point

#: A half-domino's place in its slot: the first half is the north or west one.
FIRST, SECOND = 0, 1


@dataclass(frozen=True)
class Slot:
    """A place a domino lies in: its halves (north or west first) and the tiles both halves touch.

    Slots between two tiles join both; a Pusher place touches only the edge tile.
    """

    id: str
    halves: tuple[str, str]
    tiles: tuple[str, ...]


@dataclass(frozen=True)
class Line:
    """A row or column that slides: tile places and domino slots in order, west or north first.

    ``ends`` are the Pusher places before the first tile and after the last; pushing
    from the first end moves the line ``forward`` (east or south).
    """

    id: str
    tiles: tuple[str, ...]
    slots: tuple[str, ...]
    ends: tuple[str, str]
    forward: str
    backward: str


@dataclass(frozen=True)
class Equipment:
    """The kit a game is dealt from (a piecepack's tiles and dice, a domino set)."""

    suits: dict[str, str]
    ranks: tuple[int, ...]
    dominoes: tuple[tuple[int, int], ...]
    die_faces: tuple[int, ...]

    @property
    def tiles(self) -> tuple[tuple[str, int], ...]:
        return tuple((suit, rank) for suit in self.suits for rank in self.ranks)


class PawnsBoard(Board):
    """Places, slots, holes, slidable lines and the links tokens move along."""

    def __init__(self, name: str, title: str, locations: dict[str, Location], shapes: list[Shape],
                 strokes: list[Stroke], grid: list[list[str]], slots: dict[str, Slot],
                 pusher_places: dict[str, Slot], holes: dict[str, tuple[str, ...]],
                 lines: dict[str, Line], equipment: Equipment) -> None:
        super().__init__(name, title, locations, strokes, shapes)
        #: Tile places by [row][column], north-west first.
        self.grid = grid
        self.tile_places: tuple[str, ...] = tuple(t for row in grid for t in row)
        #: Domino slots between tiles, row slots first.
        self.slots = slots
        self.pusher_places = pusher_places
        #: Hole -> the half-dominoes around it (north, south, west, east).
        self.holes = holes
        self.lines = lines
        self.equipment = equipment
        #: Half place -> (slot or Pusher place, FIRST or SECOND).
        self.half_slot: dict[str, tuple[str, int]] = {
            half: (slot.id, index) for group in (slots, pusher_places)
            for slot in group.values() for index, half in enumerate(slot.halves)}
        self.pusher_halves = frozenset(h for p in pusher_places.values() for h in p.halves)
        self.links = _links(self.tile_places, slots, pusher_places, holes)

    def halves(self, place: str) -> tuple[str, str]:
        """The two half-spaces of a domino slot or a Pusher place."""
        return (self.slots.get(place) or self.pusher_places[place]).halves

    def facts(self) -> dict[str, object]:
        facts = super().facts()
        facts.update({"tiles": len(self.tile_places), "dominoes": len(self.slots), "holes": len(self.holes),
                      "pusher_places": len(self.pusher_places), "slidable_lines": len(self.lines)})
        return facts


def _links(tiles: tuple[str, ...], slots: dict[str, Slot], pusher_places: dict[str, Slot],
           holes: dict[str, tuple[str, ...]]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Space -> (neighbouring space, hole passed or ''): the steps a token may take."""
    links: dict[str, list[tuple[str, str]]] = {t: [] for t in tiles}
    for slot in list(slots.values()) + list(pusher_places.values()):
        first, second = slot.halves
        links[first] = [(second, "")]
        links[second] = [(first, "")]
        for half in slot.halves:
            for tile in slot.tiles:
                links[half].append((tile, ""))
                links[tile].append((half, ""))
    for hole, around in holes.items():
        for a, b in combinations(around, 2):
            links[a].append((b, hole))
            links[b].append((a, hole))
    return {space: tuple(steps) for space, steps in links.items()}


def _number(path: Path, data: dict[str, Any], key: str, parent: str = "") -> float:
    value = data.get(key)
    label = f"{parent}.{key}" if parent else key
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
        raise BoardFileError(f"{path}: {label} must be a number >= 0 (inches), not {value!r}")
    return float(value)


def _count(path: Path, data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 2:
        raise BoardFileError(f"{path}: {key} must be a whole number >= 2, not {value!r}")
    return value


def _rect(centre: Coord, width: float, height: float) -> tuple[Coord, ...]:
    x, y = centre
    return tuple(snap_point(p) for p in ((x - width / 2, y - height / 2), (x + width / 2, y - height / 2),
                                         (x + width / 2, y + height / 2), (x - width / 2, y + height / 2)))


def read_equipment(path: Path, raw: object, places: int, slots: int) -> Equipment:
    """Check the kit against the grid: one tile per tile place, one domino per slot plus the Pusher."""
    if not isinstance(raw, dict):
        raise BoardFileError(f'{path}: needs "equipment": an object with suits, ranks, dominoes and die_faces')
    suits = raw.get("suits")
    if not isinstance(suits, dict) or not suits or not all(
            isinstance(c, str) and c.startswith("#") for c in suits.values()):
        raise BoardFileError(f'{path}: equipment.suits must map each suit to a display colour "#rrggbb"')
    ranks = raw.get("ranks")
    if not isinstance(ranks, list) or not ranks or ranks[0] != 1 or not all(
            isinstance(r, int) and r >= 1 for r in ranks) or len(set(ranks)) != len(ranks):
        raise BoardFileError(f"{path}: equipment.ranks must be distinct whole numbers starting with 1 "
                             f"(the ace), not {ranks!r}")
    if len(suits) * len(ranks) != places:
        raise BoardFileError(f"{path}: {len(suits)} suits x {len(ranks)} ranks make {len(suits) * len(ranks)} "
                             f"tiles, but the grid has {places} tile places; make them agree")
    spec = raw.get("dominoes", {})
    top = spec.get("max_pips") if isinstance(spec, dict) else None
    if not isinstance(top, int) or isinstance(top, bool) or top < 1:
        raise BoardFileError(f"{path}: equipment.dominoes.max_pips must be a whole number >= 1, not {top!r}")
    full = [(a, b) for a in range(top + 1) for b in range(a, top + 1)]
    leave_out = set()
    for pair in spec.get("leave_out", []):
        if not isinstance(pair, list) or len(pair) != 2 or tuple(sorted(pair)) not in full:
            raise BoardFileError(f"{path}: equipment.dominoes.leave_out: {pair!r} is not a domino of the "
                                 f"double-{top} set; write it as [a, b]")
        leave_out.add(tuple(sorted(pair)))
    dominoes = tuple(d for d in full if d not in leave_out)
    if len(dominoes) != slots + 1:
        raise BoardFileError(f"{path}: the domino set leaves {len(dominoes)} dominoes, but the grid needs "
                             f"{slots} between the tiles plus the Pusher ({slots + 1}); adjust leave_out")
    faces = raw.get("die_faces")
    if not isinstance(faces, list) or not faces or not all(isinstance(f, int) and f >= 0 for f in faces):
        raise BoardFileError(f"{path}: equipment.die_faces must list whole numbers >= 0 (0 is blank), "
                             f"not {faces!r}")
    return Equipment(dict(suits), tuple(ranks), dominoes, tuple(faces))


def build(path: Path) -> PawnsBoard:
    """Derive every place, slot, hole, line and link of the grid described in ``path``."""
    data = read_data(path)
    rows, columns = _count(path, data, "rows"), _count(path, data, "columns")
    tile = _number(path, data, "tile_size")
    domino = data.get("domino")
    if not isinstance(domino, dict):
        raise BoardFileError(f'{path}: needs "domino": {{"length": ..., "width": ...}} in inches')
    length, width = _number(path, domino, "length", "domino"), _number(path, domino, "width", "domino")
    gap = _number(path, data, "pusher_gap")
    if not 0 < length <= tile or width <= 0 or tile <= 0:
        raise BoardFileError(f"{path}: a domino ({length} x {width}) must be positive and no longer than "
                             f"the tile side ({tile}): its halves lie along the tile edge")
    pitch = tile + width

    def tile_xy(r: int, c: int) -> Coord:
        return snap_point(((c - (columns + 1) / 2) * pitch, ((rows + 1) / 2 - r) * pitch))

    locations: dict[str, Location] = {}
    shapes: list[Shape] = []
    strokes: list[Stroke] = []

    def add_slot(slot_id: str, centre: Coord, vertical: bool, tiles: tuple[str, ...], kind: str) -> Slot:
        x, y = centre
        if vertical:
            parts = (("n", (x, y + length / 4)), ("s", (x, y - length / 4)))
            size = (width, length / 2)
            strokes.append(Stroke(snap_point((x - width / 2, y)), snap_point((x + width / 2, y))))
        else:
            parts = (("w", (x - length / 4, y)), ("e", (x + length / 4, y)))
            size = (length / 2, width)
            strokes.append(Stroke(snap_point((x, y - width / 2)), snap_point((x, y + width / 2))))
        halves = []
        for side, xy in parts:
            half = f"{slot_id}-{side}"
            locations[half] = Location(half, kind, snap_point(xy), _rect(xy, *size))
            halves.append(half)
        outline = _rect(centre, *((width, length) if vertical else (length, width)))
        shapes.append(Shape(outline, "domino" if kind == "half" else "transparent"))
        return Slot(slot_id, (halves[0], halves[1]), tiles)

    grid = [[f"t{r}.{c}" for c in range(1, columns + 1)] for r in range(1, rows + 1)]
    for r in range(1, rows + 1):
        for c in range(1, columns + 1):
            place = grid[r - 1][c - 1]
            locations[place] = Location(place, "tile", tile_xy(r, c), _rect(tile_xy(r, c), tile, tile))
            shapes.append(Shape(locations[place].outline, "tile", place))

    slots: dict[str, Slot] = {}
    lines: dict[str, Line] = {}
    for r in range(1, rows + 1):
        row = grid[r - 1]
        ids = []
        for c in range(1, columns):
            x, y = tile_xy(r, c)
            slot = add_slot(f"d{r}.{c}e", (x + pitch / 2, y), True, (row[c - 1], row[c]), "half")
            slots[slot.id] = slot
            ids.append(slot.id)
        lines[f"row{r}"] = Line(f"row{r}", tuple(row), tuple(ids), (f"push-w{r}", f"push-e{r}"), "east", "west")
    for c in range(1, columns + 1):
        column = tuple(grid[r][c - 1] for r in range(rows))
        ids = []
        for r in range(1, rows):
            x, y = tile_xy(r, c)
            slot = add_slot(f"d{r}.{c}s", (x, y - pitch / 2), False, (column[r - 1], column[r]), "half")
            slots[slot.id] = slot
            ids.append(slot.id)
        lines[f"col{c}"] = Line(f"col{c}", column, tuple(ids), (f"push-n{c}", f"push-s{c}"), "south", "north")

    holes: dict[str, tuple[str, ...]] = {}
    for r in range(1, rows):
        for c in range(1, columns):
            hole = f"h{r}.{c}"
            x, y = tile_xy(r, c)
            xy = snap_point((x + pitch / 2, y - pitch / 2))
            locations[hole] = Location(hole, "hole", xy, _rect(xy, width, width))
            holes[hole] = (slots[f"d{r}.{c}e"].halves[1], slots[f"d{r + 1}.{c}e"].halves[0],
                           slots[f"d{r}.{c}s"].halves[1], slots[f"d{r}.{c + 1}s"].halves[0])

    reach = tile / 2 + gap + width / 2
    pusher_places: dict[str, Slot] = {}
    for r in range(1, rows + 1):
        for place, c, sign in ((f"push-w{r}", 1, -1), (f"push-e{r}", columns, 1)):
            x, y = tile_xy(r, c)
            pusher_places[place] = add_slot(place, (x + sign * reach, y), True, (grid[r - 1][c - 1],), "pusher")
    for c in range(1, columns + 1):
        for place, r, sign in ((f"push-n{c}", 1, 1), (f"push-s{c}", rows, -1)):
            x, y = tile_xy(r, c)
            pusher_places[place] = add_slot(place, (x, y + sign * reach), False, (grid[r - 1][c - 1],), "pusher")

    equipment = read_equipment(path, data.get("equipment"), rows * columns, len(slots))
    return PawnsBoard(str(data.get("name", path.stem)), str(data.get("title", path.stem)), locations, shapes,
                      strokes, grid, slots, pusher_places, holes, lines, equipment)
