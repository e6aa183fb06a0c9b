"""Over-Pass's moves on the board, before the Center Square rule: each piece's Over-Passes,
Slides, Exits and Trades within the points left, and the bridges an Over-Pass crosses.

Plain functions of the rule tables and the intersections' contents, so that the state
(``overpass``) and the Center Square search (``overpass_centre``) share them.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable

from engine.core import Content
from engine.games.bridges import BridgeWalk, bridge_destinations, walk_bridges
from engine.games.overpass_moves import BoardMove, Exit, OverPassMove
from engine.games.overpass_tables import Tables


def board_moves(tables: Tables, cells: dict[str, Content], budget: int, movable: list[str], colour: str,
                may_exit: bool, pieces: Container[str] | None = None) -> list[BoardMove]:
    """The moves within ``budget`` points that move a piece standing on ``pieces`` (any piece when
    None); ``movable`` lists the pieces the mover may move, in board order, ``colour`` is the
    turn's, which alone may exit, and only when ``may_exit``."""
    moves: list[BoardMove] = []
    if budget < 1:
        return moves
    reaches = over_pass_reaches(tables, cells, movable if pieces is None else [p for p in movable if p in pieces])
    for point, reach in reaches.items():
        if point in tables.exits and may_exit and cells[point] == colour:
            moves.append(tables.exit_moves[point])
        over_pass = tables.over_passes[point]
        moves.extend(over_pass[end] for end in reach)
        if budget >= 2:  # a Slide the same as an Over-Pass is left to the cheaper Over-Pass
            moves.extend(slide for slide in tables.slides[point]
                         if cells[slide.end] is None and slide.end not in reach)
    tradeable = [point for point in movable if point not in tables.exits]
    if pieces is None:
        for i, a in enumerate(tradeable):
            piece, trade_with = cells[a], tables.trades[a]
            moves.extend(trade_with[b] for b in tradeable[i + 1:] if b in trade_with and cells[b] != piece)
        return moves
    can_trade = set(tradeable)
    for point in tradeable:  # the trades of the chosen pieces, with either point first
        if point in pieces:
            piece = cells[point]
            moves.extend(trade for other, trade in tables.traded_with[point].items()
                         if other in can_trade and other not in pieces and cells[other] != piece)
            moves.extend(trade for other, trade in tables.trades[point].items()
                         if other in can_trade and cells[other] != piece)
    return moves


def over_pass_reaches(tables: Tables, cells: dict[str, Content], starts: list[str]) -> dict[str, Iterable[str]]:
    """Each of ``starts`` (movable pieces, in board order) with where it can Over-Pass to.

    The pieces of one colour share their bridges, so they are searched together; a
    piece on an exit point, held to the perimeter, is searched alone.
    """
    exits = tables.exits
    occupied = cells.__getitem__  # a piece code is truthy, an empty point None
    by_colour: dict[str, list[str]] = {}
    for point in starts:
        if point not in exits:
            by_colour.setdefault(cells[point], []).append(point)
    found: dict[str, Iterable[str]] = {}
    for colour, same in by_colour.items():
        found.update(bridge_destinations(tables.board, same, occupied, lambda q, own=colour: cells[q] != own))
    for point in starts:
        if point in exits:
            found[point] = bridge_walk(tables, cells, point).landings
    return {point: found[point] for point in starts}


def bridge_walk(tables: Tables, cells: dict[str, Content], start: str,
                until: Callable[[str], bool] | None = None) -> BridgeWalk:
    """The bridges open to the piece on ``start`` (over pieces not of its colour, along the
    perimeter only from an exit point), walked up to the landing ``until`` accepts."""
    colour = cells[start]
    return walk_bridges(tables.board, start, cells.__getitem__, lambda q: cells[q] != colour,
                        tables.along_perimeter if start in tables.exits else None, until)


def relies_on(tables: Tables, cells: dict[str, Content], move: BoardMove) -> frozenset[str]:
    """The intersections ``move`` needs as they are: those it changes, a bridge for an
    Over-Pass, and every exit point for an Exit (any Exit changes the home pile, and so
    whether this one wins)."""
    if isinstance(move, OverPassMove):
        return frozenset((*move.points, *bridge_walk(tables, cells, move.start, move.end.__eq__).path_to(move.end)))
    if isinstance(move, Exit):
        return tables.exits
    return frozenset(move.points)
