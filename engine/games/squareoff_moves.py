"""Square Off's moves and their notation, and the board's tables that hand every one of them out,
made once per board: a listing gives out these shared values rather than building new ones."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.board import LineBoard
from engine.boards import load_board
from engine.core import Move

COLOURS: tuple[str, str] = ("black", "white")
PIECES_EACH = 9
#: A cell's code when no piece stands there (a piece's is its player: 0 or 1).
EMPTY = -1

@dataclass(frozen=True)
class Place(Move):
    """Stage 1: a piece from the hand onto an empty point."""

    point: str

    def __str__(self) -> str:
        return self.point


@dataclass(frozen=True)
class Slide(Move):
    """Stage 2: a piece one step along a line to an empty point."""

    origin: str
    target: str

    def __str__(self) -> str:
        return f"{self.origin}-{self.target}"


@dataclass(frozen=True)
class Jump(Move):
    """Jump Off: over an opposing piece along a line to the empty point behind it."""

    origin: str
    over: str
    target: str

    def __str__(self) -> str:
        return f"{self.origin}^{self.target}"


@dataclass(frozen=True)
class Trade(Move):
    """Trading Places: one's piece and an opposing piece change places."""

    own: str
    other: str

    def __str__(self) -> str:
        return f"{self.own}<>{self.other}"


@dataclass(frozen=True)
class Capture(Move):
    """The step after forming a row: lift one opposing piece off the board."""

    point: str

    def __str__(self) -> str:
        return f"x{self.point}"


@dataclass(frozen=True)
class Tables:
    """The board's topology by point index, derived once per board."""

    points: tuple[str, ...]
    index: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    #: For each point: (jumped point, landing point) along every line.
    jumps: tuple[tuple[tuple[int, int], ...], ...]
    #: Every three consecutive points of a line.
    rows: tuple[tuple[int, int, int], ...]
    #: For each point: the indices of the rows through it.
    rows_at: tuple[tuple[int, ...], ...]
    #: Every move by point index, made once: a listing hands them out.  ``places[i]`` and
    #: ``captures[i]`` at point i, ``slides[i][j]`` from i to j, ``jump_moves[i][k]`` for
    #: ``jumps[i][k]``, ``trades[i][j]`` of one's piece on i with an opposing piece on j.
    places: tuple[Place, ...]
    captures: tuple[Capture, ...]
    slides: tuple[dict[int, Slide], ...]
    jump_moves: tuple[tuple[Jump, ...], ...]
    trades: tuple[tuple[Trade, ...], ...]


@cache
def tables(board_name: str) -> Tables:
    board = load_board(board_name)
    assert isinstance(board, LineBoard)
    points = tuple(board.points)
    index = {p: i for i, p in enumerate(points)}
    rows = tuple((index[a], index[b], index[c]) for line in board.lines
                 for a, b, c in zip(line.points, line.points[1:], line.points[2:]))
    neighbours = tuple(tuple(index[q] for q in board.neighbours[p]) for p in points)
    jumps = tuple(tuple((index[over], index[beyond]) for over, beyond, _ in board.steps[p] if beyond) for p in points)
    return Tables(
        points=points,
        index=index,
        neighbours=neighbours,
        jumps=jumps,
        rows=rows,
        rows_at=tuple(tuple(r for r, row in enumerate(rows) if i in row) for i in range(len(points))),
        places=tuple(Place(p) for p in points),
        captures=tuple(Capture(p) for p in points),
        slides=tuple({j: Slide(p, points[j]) for j in neighbours[i]} for i, p in enumerate(points)),
        jump_moves=tuple(tuple(Jump(p, points[over], points[land]) for over, land in jumps[i])
                         for i, p in enumerate(points)),
        trades=tuple(tuple(Trade(p, q) for q in points) for p in points),
    )
