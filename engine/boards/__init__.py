"""The boards, each read from one geometry data file in this folder.

``load_board(name)`` reads and derives a board once per process.  A malformed file
raises ``BoardFileError`` naming the file and what is wrong.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import import_module
from pathlib import Path

from engine.board import Board, LineBoard
from engine.errors import GameboardError
from engine.geometry import Coord, GeometryError

DATA = Path(__file__).parent

#: Board name -> the module building it from its data file (line boards need none).
BUILDERS: dict[str, str] = {
    "overpass": "line",
    "squareoff": "line",
    "hexover": "engine.boards.hexgrid",
    "pawns": "engine.boards.pawns_layout",
}


class BoardFileError(GameboardError, ValueError):
    """A board data file that cannot be used; the message names the file and the fix."""


def board_names() -> list[str]:
    return list(BUILDERS)


def data_path(name: str) -> Path:
    return DATA / f"{name}.json"


def read_data(path: Path) -> dict:
    """Parse a board data file, turning JSON errors into a message with the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardFileError(f"{path}: cannot read the board file ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardFileError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise BoardFileError(f"{path}: the file must hold a JSON object")
    return data


def parse_segments(path: Path, where: str, raw: object) -> list[tuple[Coord, Coord]]:
    """Check and convert a list of [[x, y], [x, y]] segments."""
    if not isinstance(raw, list):
        raise BoardFileError(f"{path}: {where} must be a list of segments [[x1, y1], [x2, y2]]")
    segments = []
    for n, item in enumerate(raw, 1):
        label = f"{where}, segment {n} ({json.dumps(item)})"
        if not isinstance(item, list) or len(item) != 2:
            count = len(item) if isinstance(item, list) else "no"
            raise BoardFileError(f"{path}: {label} has {count} points; a segment needs exactly two, [[x1, y1], [x2, y2]]")
        points = []
        for point in item:
            if (not isinstance(point, list) or len(point) != 2
                    or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in point)):
                raise BoardFileError(f"{path}: {label}: a point must be two numbers [x, y]")
            points.append((float(point[0]), float(point[1])))
        if points[0] == points[1]:
            raise BoardFileError(f"{path}: {label} has zero length: its two points are the same")
        segments.append((points[0], points[1]))
    return segments


def line_board_from_file(path: Path) -> LineBoard:
    data = read_data(path)
    groups = data.get("segments")
    if not isinstance(groups, dict) or not groups:
        raise BoardFileError(f'{path}: needs "segments": an object of named groups of segments')
    segments = [s for group, raw in groups.items() for s in parse_segments(path, f'segments "{group}"', raw)]
    hidden_block = data.get("hidden", {})
    hidden = parse_segments(path, "hidden segments", hidden_block.get("segments", [])) if hidden_block else []
    try:
        return LineBoard(data.get("name", path.stem), data.get("title", path.stem), segments, hidden,
                         compartments_played=bool(data.get("compartments_played", True)))
    except GeometryError as exc:
        raise BoardFileError(f"{path}: {exc}") from None


@cache
def load_board(name: str) -> Board:
    """The board called ``name``, derived from its data file (cached per process)."""
    if name not in BUILDERS:
        raise BoardFileError(f"unknown board {name!r}; the boards are: {', '.join(BUILDERS)}")
    builder = BUILDERS[name]
    if builder == "line":
        return line_board_from_file(data_path(name))
    return import_module(builder).build(data_path(name))
