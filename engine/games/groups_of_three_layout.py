"""Groups-of-Three's compartment network: the compartments of the Over-Pass board as index tables,
with the transit spaces, the groups-of-three and the starts read from ``data/groups_of_three.json``
and checked against the board; shared with the Full House puzzle."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from engine.board import CENTER, LineBoard
from engine.boards import BoardFileError, load_board, read_data
from engine.games.pieces import OVERPASS_COLOURS
from engine.geometry import GeometryError

DATA_FILE = Path(__file__).parent / "data" / "groups_of_three.json"


class LayoutFileError(BoardFileError):
    """The Groups-of-Three data file names a place that cannot be used."""


@dataclass(frozen=True)
class Layout:
    """The compartments as index tables, built once: everything a step or an add reads.

    Compartment ``i`` is ``faces[i]``; sets of compartments are integer bitmasks.
    ``groups_at[i]`` lists, for each group-of-three containing ``i``, its other two.
    """

    faces: tuple[str, ...]
    index: dict[str, int]
    adjacent: tuple[tuple[int, ...], ...]
    center: int
    transit: frozenset[int]
    #: Where no piece may rest or be added: the Center Square and the transit spaces.
    no_rest: frozenset[int]
    groups: tuple[tuple[int, int, int], ...]
    groups_at: tuple[tuple[tuple[int, int], ...], ...]
    starts: dict[str, tuple[int, ...]]
    full_house_start: tuple[int, ...]

    def add_targets(self, occupied: int, entered: int) -> tuple[int, ...]:
        """The compartments a reserve piece may fill after a piece stepped into ``entered``.

        A group qualifies when exactly one of its other two compartments is occupied
        (the one just left counts as empty); the empty one is the target unless no
        piece may rest there.  Distinct groups give distinct targets.  A piece borne
        off never stands in the Center Square, so bearing off gives no add.
        """
        if entered == self.center:
            return ()
        targets: list[int] = []
        for a, b in self.groups_at[entered]:
            a_in, b_in = occupied >> a & 1, occupied >> b & 1
            if a_in != b_in:
                empty = b if a_in else a
                if empty not in self.no_rest and empty not in targets:
                    targets.append(empty)
        return tuple(targets)

    @property
    def max_adds_per_step(self) -> int:
        """The most reserve pieces one step can bring in (a search bound)."""
        return max(len(pairs) for i, pairs in enumerate(self.groups_at) if i != self.center)

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board's quarter turns and mirrors, the identity first, as permutations of the compartments; only
        those that keep every side, every group and where no piece may rest (a layout need not be symmetric)."""
        board = load_board("overpass")
        sides = {(i, j) for i, near in enumerate(self.adjacent) for j in near}
        groups = {frozenset(g) for g in self.groups}
        found = []
        for a, b, swap in itertools.product((1, -1), (1, -1), (False, True)):
            try:
                perm = []
                for face in self.faces:
                    x, y = board.centre if face == CENTER else board.places[face].xy
                    x, y = (y, x) if swap else (x, y)
                    perm.append(self.index[board.face_at((a * x, b * y))])
            except GeometryError:
                continue
            if (len(set(perm)) == len(perm) and {(perm[i], perm[j]) for i, j in sides} == sides
                    and {frozenset(perm[c] for c in g) for g in groups} == groups
                    and {perm[c] for c in self.no_rest} == self.no_rest):
                found.append(tuple(perm))
        return tuple(found)


def _place(board: LineBoard, where: str, raw: object) -> str:
    """The compartment id at a data-file point, or a LayoutFileError naming it."""
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw)):
        raise LayoutFileError(f"{DATA_FILE}: {where}: {raw!r} is not a point [x, y]")
    try:
        return board.face_at((float(raw[0]), float(raw[1])))
    except GeometryError:
        raise LayoutFileError(f"{DATA_FILE}: {where}: the point {raw} lies in no compartment; give a point "
                              f"inside one (the Center Square has half-width 1)") from None


def _places(board: LineBoard, where: str, raw: object) -> list[str]:
    """The compartment ids of a data-file list of points, each named once."""
    if not isinstance(raw, list) or not raw:
        raise LayoutFileError(f"{DATA_FILE}: {where} must be a non-empty list of points [x, y]")
    found = [_place(board, f"{where}[{k}]", point) for k, point in enumerate(raw)]
    if len(set(found)) != len(found):
        raise LayoutFileError(f"{DATA_FILE}: {where} names one compartment twice: {found}")
    return found


@cache
def load_layout() -> Layout:
    """Read the data file against the Over-Pass board, checking every place it names."""
    board = load_board("overpass")
    data = read_data(DATA_FILE)
    faces = tuple(board.faces)
    index = {f: i for i, f in enumerate(faces)}
    transit = _places(board, "transit", data.get("transit"))
    if CENTER in transit:
        raise LayoutFileError(f"{DATA_FILE}: transit: the Center Square cannot be a transit space")
    for face in transit:
        if any(face in group for group in board.t_groups):
            raise LayoutFileError(f"{DATA_FILE}: transit: {face} is part of a group-of-three; a transit space "
                                  f"must not be, or a piece crossing it could be shut in by an add")
    starts_raw = data.get("start")
    if not isinstance(starts_raw, dict) or sorted(starts_raw) != sorted(OVERPASS_COLOURS):
        raise LayoutFileError(f"{DATA_FILE}: start must map each of {', '.join(OVERPASS_COLOURS)} "
                              f"to a list of points")
    starts = {colour: _places(board, f"start.{colour}", starts_raw[colour]) for colour in OVERPASS_COLOURS}
    full_house = data.get("full_house")
    if not isinstance(full_house, dict):
        raise LayoutFileError(f'{DATA_FILE}: full_house must be an object with a "start" list of points')
    fh_start = _places(board, "full_house.start", full_house.get("start"))
    used: dict[str, str] = {}
    for where, places in [*((f"start.{c}", p) for c, p in starts.items()), ("full_house.start", fh_start)]:
        for face in places:
            if face == CENTER or face in transit:
                raise LayoutFileError(f"{DATA_FILE}: {where}: {face} is the Center Square or a transit "
                                      f"space, where no piece may rest")
            if where.startswith("start.") and used.setdefault(face, where) != where:
                raise LayoutFileError(f"{DATA_FILE}: {where}: {face} is also in {used[face]}")
    groups = tuple(tuple(index[f] for f in group) for group in board.t_groups)
    groups_at = tuple(tuple((g[(k + 1) % 3], g[(k + 2) % 3]) for g in groups for k in range(3) if g[k] == i)
                      for i in range(len(faces)))
    return Layout(
        faces=faces, index=index,
        adjacent=tuple(tuple(index[n] for n in board.face_adjacency[f]) for f in faces),
        center=index[CENTER], transit=frozenset(index[f] for f in transit),
        no_rest=frozenset(index[f] for f in [*transit, CENTER]),
        groups=groups, groups_at=groups_at,
        starts={c: tuple(index[f] for f in places) for c, places in starts.items()},
        full_house_start=tuple(index[f] for f in fh_start),
    )
