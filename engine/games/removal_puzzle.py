"""What the solitaire removal puzzles of the Over-Pass board share (Crooked Jumps, the Over-Pass Spiral).

In a removal puzzle one player moves a piece and removes another until no move is
left; the aim is a single piece, in the centre.  Positions are bitsets over the
intersections (the covered centre included), so the solvers can search them without
building move objects.  Starting layouts live in ``engine/games/data/<puzzle>.json``,
naming intersections by their coordinates.
"""

from __future__ import annotations

import json
import random
from abc import abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from engine.bitsets import mask_of, members
from engine.board import CENTER, LineBoard
from engine.core import (
    TERMINAL,
    Change,
    Content,
    Footprint,
    Game,
    Move,
    OptionError,
    Outcome,
    PositionError,
    State,
)
from engine.errors import GameboardError
from engine.geometry import GeometryError

DATA = Path(__file__).parent / "data"
PIECE = "piece"  # colour does not matter: every piece is the same to the puzzle

#: A move as bit indices: (the moving piece's start, where it lands, the piece removed).
Step = tuple[int, int, int]


class LayoutFileError(GameboardError, ValueError):
    """A puzzle layout file that cannot be used; the message names the file, the entry and the fix."""


@dataclass(frozen=True)
class Capture(Move):
    """Move the piece on ``start`` over ``removed`` (which is taken off) to ``to``: ``p9>p1>center``."""

    start: str
    to: str
    removed: str

    def __str__(self) -> str:
        return f"{self.start}>{self.removed}>{self.to}"


class RemovalPuzzle(Game):
    """A one-player puzzle on the Over-Pass intersections whose every move removes one piece."""

    board_name = "overpass"
    pieces: ClassVar[dict[str, str]] = {PIECE: "#8d6e63"}
    position_keys = ("pieces",)
    #: The file in ``engine/games/data`` holding the named layouts.
    layout_file: ClassVar[str]
    #: Whether the last piece must stand on the centre to win (otherwise the centre is the ideal).
    centre_required: ClassVar[bool]

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        layouts = read_layouts(DATA / self.layout_file)
        if self.options["layout"] not in layouts:
            raise OptionError(f"{self.name}: no layout {self.options['layout']!r} in "
                              f"engine/games/data/{self.layout_file}; layouts: {', '.join(layouts)}")

    @property
    def num_players(self) -> int:
        return 1

    @cached_property
    def line_board(self) -> LineBoard:
        board = self.board
        assert isinstance(board, LineBoard)
        return board

    @cached_property
    def locations(self) -> tuple[str, ...]:
        return tuple(self.line_board.points)

    @cached_property
    def index(self) -> dict[str, int]:
        return {point: i for i, point in enumerate(self.locations)}

    @cached_property
    def goal(self) -> int:
        return self.index[CENTER]

    @cached_property
    def start_mask(self) -> int:
        """The starting layout chosen by the ``layout`` option, as a bitset."""
        return mask_of(self.index[p] for p in load_layout(self.layout_file, self.options["layout"], self.line_board))

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board's symmetries (quarter turns and mirrors) as permutations of the indices.

        Derived from the coordinates, so they hold for whatever geometry the board file draws;
        a map that does not carry every intersection onto one is not a symmetry and is left out.
        """
        board = self.line_board
        found = []
        for a in (1, -1):
            for b in (1, -1):
                for swap in (False, True):
                    try:
                        found.append(tuple(self.index[board.point_at(_transform(self._xy(p), a, b, swap))]
                                           for p in self.locations))
                    except GeometryError:
                        continue
        return tuple(found)

    def _xy(self, point: str) -> tuple[float, float]:
        return self.line_board.centre if point == CENTER else self.line_board.xy(point)

    def steps(self, mask: int) -> Iterator[Step]:
        """Every legal move of the position ``mask``, as bit indices."""
        pieces = mask
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            yield from self.steps_from(mask, low.bit_length() - 1)

    @abstractmethod
    def steps_from(self, mask: int, start: int) -> Iterator[Step]:
        """The legal moves of the piece on bit ``start`` of the position ``mask``."""

    @cached_property
    def neighbour_masks(self) -> tuple[int, ...]:
        """For each intersection, the bitset of its neighbours along the lines."""
        return tuple(mask_of(self.index[q] for q in self.line_board.neighbours[p]) for p in self.locations)

    @cached_property
    def centre_distance(self) -> tuple[float, ...]:
        return tuple(0.0 if p == CENTER else self.line_board.radius(p) for p in self.locations)

    def around(self, mask: int) -> int:
        """``mask`` and every intersection next to one of it along the lines."""
        near = self.neighbour_masks
        for i in members(mask):
            mask |= near[i]
        return mask

    def group(self, mask: int, seed: int, near: tuple[int, ...] | None = None) -> int:
        """The pieces of ``mask`` connected to those of the bitset ``seed`` (part of ``mask``) along the lines,
        or along the steps of ``near`` (a neighbour mask per intersection) when given."""
        near, group, frontier = near or self.neighbour_masks, 0, seed
        while frontier:
            group |= frontier
            grown = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                grown |= near[low.bit_length() - 1]
            frontier = grown & mask & ~group
        return group

    @cached_property
    def centre_rings(self) -> tuple[int, ...]:
        """``centre_rings[r]``: the bitset of the intersections at most ``r`` steps from the centre along the lines."""
        rings, reached = [], 1 << self.goal
        while not rings or reached != rings[-1]:
            rings.append(reached)
            reached = self.around(reached)
        return tuple(rings)

    def may_reach_centre(self, mask: int) -> bool:
        """Whether a piece stands near enough to the centre to end there: a necessary condition, cheap to test.

        A move takes a piece off and brings another one step (read it so: the jumping piece is
        the one taken off, and the piece it jumped, or passed over last, steps onto the landing
        beside it: the same position follows).  With k pieces, k - 1 moves are left, so the piece
        that ends in the centre takes at most k - 1 steps: one must stand within k - 1 of it.
        """
        rings = self.centre_rings
        return bool(mask & rings[min(mask.bit_count() - 1, len(rings) - 1)])

    def stranded(self, mask: int) -> int:
        """How many pieces have no piece next to them: none of them can move or be taken until one comes."""
        count, pieces, near = 0, mask, self.neighbour_masks
        while pieces:
            low = pieces & -pieces
            if not mask & near[low.bit_length() - 1]:
                count += 1
            pieces ^= low
        return count

    def is_goal(self, mask: int) -> bool:
        return mask == 1 << self.goal

    def is_success(self, mask: int) -> bool:
        """Whether a finished position counts as a win: one piece, on the centre if required."""
        return self.is_goal(mask) or (not self.centre_required and mask.bit_count() == 1)

    def new_initial_state(self) -> RemovalPuzzleState:
        return RemovalPuzzleState(self, self.start_mask)

    def _read_position(self, position: dict[str, Any]) -> RemovalPuzzleState:
        pieces = position.get("pieces")
        if not isinstance(pieces, list) or not all(isinstance(p, str) for p in pieces):
            raise PositionError(f'{self.name}: a position is {{"pieces": [intersection, ...]}}, e.g. ["p1", "center"]')
        unknown = [p for p in pieces if p not in self.index]
        if unknown:
            raise PositionError(f"{self.name}: {unknown[0]!r} is not an intersection (p1..p104 or center)")
        if len(set(pieces)) != len(pieces):
            raise PositionError(f"{self.name}: an intersection is listed twice; one piece per intersection")
        return RemovalPuzzleState(self, mask_of(self.index[p] for p in pieces))

    def move_of(self, step: Step) -> Capture:
        move = self._captures.get(step)
        if move is None:
            start, to, removed = step
            points = self.locations
            move = self._captures[step] = Capture(points[start], points[to], points[removed])
        return move

    def listing_is_cheap(self) -> bool:
        """Whether ``moves`` costs little more than ``has_move`` (then the end of a game is read from
        the listing, which the next listing reuses)."""
        return False

    def has_move(self, mask: int) -> bool:
        """Whether the position ``mask`` has a legal move: piece by piece, up to the first."""
        return next(RemovalPuzzle.steps(self, mask), None) is not None

    def moves(self, mask: int) -> list[Move]:
        """Every legal move of the position ``mask``, in the order of ``steps``."""
        captures, move_of = self._captures, self.move_of
        return [captures.get(step) or move_of(step) for step in self.steps(mask)]

    @cached_property
    def _captures(self) -> dict[Step, Capture]:
        """Each step's move, made once: listing the moves is a dict lookup a step (at most a few
        thousand steps exist on a board)."""
        return {}


class RemovalPuzzleState(State):
    """A removal-puzzle position: the set of occupied intersections, one integer."""

    game: RemovalPuzzle

    def __init__(self, game: RemovalPuzzle, mask: int) -> None:
        super().__init__(game)
        self.mask = mask
        #: The position whose moves were listed last, and those moves: the end of the game is
        #: read from them rather than worked out again.
        self._listed: tuple[int, list[Move]] = (-1, [])

    @property
    def current_player(self) -> int:
        mask, moves = self._listed
        if mask != self.mask:
            if not self.game.listing_is_cheap():
                return 0 if self.game.has_move(self.mask) else TERMINAL
            moves = self._list()
        return 0 if moves else TERMINAL

    def generate_moves(self) -> Iterator[Move]:
        mask, moves = self._listed
        return iter(moves if mask == self.mask else self._list())

    def _list(self) -> list[Move]:
        moves = self.game.moves(self.mask)
        self._listed = (self.mask, moves)
        return moves

    def random_move(self, rng: random.Random) -> Move:
        """A random piece that can move, then one of its moves: without listing every piece's."""
        mask, game = self.mask, self.game
        pieces = [i for i in range(mask.bit_length()) if mask >> i & 1]
        while pieces:
            j = rng.randrange(len(pieces))
            steps = list(game.steps_from(mask, pieces[j]))
            if steps:
                return game.move_of(rng.choice(steps))
            pieces[j] = pieces[-1]
            pieces.pop()
        raise ValueError("no legal move: the puzzle is over")

    def footprint(self, move: Move) -> Footprint:
        assert isinstance(move, Capture)
        return Footprint((Change(move.start, PIECE, None), Change(move.removed, PIECE, None),
                          Change(move.to, None, PIECE)))

    def takes_off(self, move: Move) -> tuple[str, ...]:
        assert isinstance(move, Capture)
        return (move.removed,)

    def _play(self, move: Move) -> None:
        assert isinstance(move, Capture)
        index = self.game.index
        self.mask ^= (1 << index[move.start]) | (1 << index[move.removed]) | (1 << index[move.to])

    def outcome(self) -> Outcome | None:
        if self.current_player != TERMINAL:
            return None
        left = self.mask.bit_count()
        if self.game.is_goal(self.mask):
            return Outcome((0,), "solved: one piece left, in the centre", (1.0,))
        if self.game.is_success(self.mask):
            return Outcome((0,), "one piece left, though not in the centre", (0.5,))
        return Outcome((), f"no move left with {left} piece{'s' if left != 1 else ''} on the board", (0.0,))

    def contents(self) -> dict[str, Content]:
        return {p: PIECE if self.mask >> i & 1 else None for p, i in self.game.index.items()}

    def position(self) -> dict[str, Any]:
        return {"pieces": [p for p, i in self.game.index.items() if self.mask >> i & 1]}

    def turn_piece(self) -> Content:
        return None if self.current_player == TERMINAL else PIECE

    def _snapshot(self) -> Any:
        return self.mask

    def _restore(self, snapshot: Any) -> None:
        self.mask = snapshot


def _transform(xy: tuple[float, float], a: int, b: int, swap: bool) -> tuple[float, float]:
    x, y = (xy[1], xy[0]) if swap else xy
    return a * x, b * y


def read_layouts(path: Path) -> dict[str, Any]:
    """The named layouts of a puzzle data file, with JSON errors turned into a located message."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LayoutFileError(f"{path}: cannot read the layout file ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise LayoutFileError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    layouts = data.get("layouts") if isinstance(data, dict) else None
    if not isinstance(layouts, dict) or not layouts:
        raise LayoutFileError(f'{path}: expected {{"layouts": {{"name": {{"pieces": [[x, y], ...]}}}}}}')
    return layouts


def load_layout(file_name: str, name: str, board: LineBoard) -> list[str]:
    """The intersections of layout ``name`` in ``file_name``, located by their coordinates."""
    path = DATA / file_name
    layouts = read_layouts(path)
    if name not in layouts:
        raise LayoutFileError(f"{path}: no layout {name!r}; layouts: {', '.join(layouts)}")
    pieces = layouts[name].get("pieces") if isinstance(layouts[name], dict) else None
    if not isinstance(pieces, list):
        raise LayoutFileError(f'{path}: layout {name!r} needs "pieces": a list of [x, y] intersections')
    points = []
    for n, xy in enumerate(pieces, 1):
        if (not isinstance(xy, list) or len(xy) != 2
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in xy)):
            raise LayoutFileError(f"{path}: layout {name!r}, piece {n} ({json.dumps(xy)}): write a point as [x, y]")
        try:
            points.append(board.point_at((float(xy[0]), float(xy[1]))))
        except GeometryError:
            raise LayoutFileError(f"{path}: layout {name!r}, piece {n} at {xy}: no intersection there; "
                                  f"`gameboard board info overpass` lists them") from None
    duplicate = next((p for p in points if points.count(p) > 1), None)
    if duplicate:
        raise LayoutFileError(f"{path}: layout {name!r} places two pieces on {duplicate}")
    return points
