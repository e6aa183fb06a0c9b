"""Over-Pass's start layout: how many pieces each colour has and where its first two stand,
read from ``data/overpass.json`` and checked against the board."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.board import LineBoard
from engine.core import EngineError
from engine.games.overpass_tables import rule_tables
from engine.games.pieces import OVERPASS_COLOURS

LAYOUT_FILE = Path(__file__).parent / "data" / "overpass.json"


class LayoutFileError(EngineError):
    """The start layout file cannot be used; the message names the file and the fix."""


@dataclass(frozen=True)
class Layout:
    """The start: pieces per colour, and the intersections each colour starts on."""

    pieces_per_colour: int
    start: dict[str, tuple[str, ...]]


def load_layout(board: LineBoard, path: Path = LAYOUT_FILE) -> Layout:
    """Read and check the start layout: each colour on two opposite intersections of the cover's edge."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LayoutFileError(f"{path}: cannot read the start layout ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise LayoutFileError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    count = data.get("pieces_per_colour") if isinstance(data, dict) else None
    start = data.get("start") if isinstance(data, dict) else None
    if not isinstance(count, int) or count < 2:
        raise LayoutFileError(f'{path}: "pieces_per_colour" must be a whole number of at least 2, not {count!r}')
    if not isinstance(start, dict) or set(start) != set(OVERPASS_COLOURS):
        raise LayoutFileError(f'{path}: "start" must map each of {", ".join(OVERPASS_COLOURS)} '
                              f'to its two intersections, e.g. "black": ["p1", "p3"]')
    edge = set(board.on_cover_edge)
    seen: set[str] = set()
    for colour, points in start.items():
        if (not isinstance(points, list) or len(points) != 2 or not all(isinstance(p, str) for p in points)
                or not set(points) <= edge
                or board.xy(points[0]) != tuple(-v for v in board.xy(points[1]))):
            raise LayoutFileError(f'{path}: "start"."{colour}" = {points!r}: give two diagonally opposite '
                                  f'intersections around the Center Square, from {", ".join(sorted(edge))}')
        if seen & set(points):
            raise LayoutFileError(f'{path}: "start"."{colour}" reuses {", ".join(sorted(seen & set(points)))}')
        seen.update(points)
    return Layout(count, {colour: tuple(points) for colour, points in start.items()})


@cache
def shipped_layout(board_name: str) -> Layout:
    """The layout file that ships with the game, read once per process."""
    return load_layout(rule_tables(board_name).board)
