"""Over-Pass's rule tables: the board facts the rules read on every move, and every move value,
derived once per board; and the same handed to the C listing (``_overpass_fast.c``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.board import CENTER, LineBoard
from engine.boards import load_board
from engine.games.overpass_moves import Exit, OverPassMove, Slide, Trade

try:  # the turn moves in C (setup.py builds it when it can); the Python rules are the definition
    from engine.games import _overpass_fast  # type: ignore[attr-defined]
except ImportError:
    _overpass_fast = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Tables:
    """The board facts the rules read on every move, and every move value, made once.

    Generating a turn hands out these shared (immutable) moves instead of building
    hundreds of new ones.
    """

    board: LineBoard
    points: tuple[str, ...]
    exits: frozenset[str]
    perimeter: frozenset[tuple[str, str]]
    #: start -> end -> the Over-Pass between them.
    over_passes: dict[str, dict[str, OverPassMove]]
    #: start -> the Slides one step outward from it.
    slides: dict[str, tuple[Slide, ...]]
    #: a -> b -> the Trade of a and b, for each b after a (board order) such that a line
    #: through a and a different line through b are parallel.
    trades: dict[str, dict[str, Trade]]
    #: b -> a -> the same Trades, looked up from their second point.
    traded_with: dict[str, dict[str, Trade]]
    exit_moves: dict[str, Exit]

    def along_perimeter(self, a: str, b: str) -> bool:
        return (a, b) in self.perimeter


@cache
def rule_tables(board_name: str) -> Tables:
    """The rule tables of a board, derived once per process."""
    board = load_board(board_name)
    points = tuple(board.points)
    through = {p: {(line.direction, line.index) for line in board.lines_through[p]} for p in points}

    def parallel(a: str, b: str) -> bool:
        return any(da == db and ia != ib for da, ia in through[a] for db, ib in through[b])

    trades = {a: {b: Trade(a, b) for b in points[i + 1:] if parallel(a, b)} for i, a in enumerate(points)}
    traded_with: dict[str, dict[str, Trade]] = {b: {} for b in points}
    for a, partners in trades.items():
        for b, trade in partners.items():
            traded_with[b][a] = trade
    return Tables(
        board, points, frozenset(board.exits), board.perimeter,
        over_passes={a: {b: OverPassMove(a, b) for b in points if b != a} for a in points},
        slides={a: tuple(Slide(a, b) for b in board.outward[a]) for a in points},
        trades=trades, traded_with=traded_with, exit_moves={p: Exit(p) for p in board.exits})


@cache
def fast_core(board_name: str) -> Any:
    """The board's tables and move objects handed to the C listing (``_overpass_fast.Core``), by
    intersection index; None when that module was not built."""
    if _overpass_fast is None:
        return None
    tables = rule_tables(board_name)
    points, board = tables.points, tables.board
    index = {p: i for i, p in enumerate(points)}
    return _overpass_fast.Core(
        centre=index[CENTER],
        near=[[index[q] for q in board.neighbours[p]] for p in points],
        slide_ends=[[index[slide.end] for slide in tables.slides[p]] for p in points],
        exits=[index[p] for p in tables.exits],
        perimeter=[[tables.along_perimeter(a, b) for b in points] for a in points],
        parallel=[[b in tables.trades[a] for b in points] for a in points],
        over_pass=[[tables.over_passes[a].get(b) for b in points] for a in points],
        slide=[list(tables.slides[p]) for p in points],
        trade=[[tables.trades[a].get(b) for b in points] for a in points],
        exit_move=[tables.exit_moves.get(p) for p in points])
