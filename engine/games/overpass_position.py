"""Reading an Over-Pass position (``OverPassState.position()`` data): each value checked, and
refused with a message naming it when the rules cannot reach it.  What needs the rules of a
turn (the phase against the board, a winner) is checked by the game once the state is made."""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from engine.core import Content, PositionError
from engine.games.dice import DIE_FACES
from engine.games.overpass_moves import ENTER, PHASES, ROLL


class PositionParts(NamedTuple):
    """A position's values, in the order ``OverPassState`` takes them."""

    cells: dict[str, Content]
    reserve: dict[str, int]
    home: dict[str, int]
    turn: int
    phase: str
    roll: tuple[int, int] | None
    budget: int


def read_position(position: dict[str, Any], colours: tuple[str, ...], points: tuple[str, ...],
                  pieces_per_colour: int) -> PositionParts:
    """The parts of a position of ``colours`` (in turn order) on the intersections ``points``."""
    turn = position.get("turn")
    if turn not in colours:
        raise PositionError(f"turn={turn!r}: give the colour to move, one of {', '.join(colours)}")
    phase = position.get("phase", ENTER)
    if phase not in PHASES:
        raise PositionError(f"phase={phase!r}: one of {', '.join(PHASES)}")
    board = position.get("board", {})
    if not isinstance(board, dict):
        raise PositionError('"board" must map intersections to colours, e.g. {"p1": "black"}')
    cells: dict[str, Content] = dict.fromkeys(points)
    for point, colour in board.items():
        if point not in cells:
            raise PositionError(f"board: {point!r} is not an intersection (p1..p{len(cells) - 1} or center)")
        if colour not in colours:
            raise PositionError(f"board: {point} holds {colour!r}, not a colour in play ({', '.join(colours)})")
        cells[point] = colour
    piles = {name: _read_counts(position.get(name), name, colours) for name in ("reserve", "home")}
    on_board = Counter(board.values())
    for colour in colours:
        total = on_board[colour] + piles["reserve"][colour] + piles["home"][colour]
        if total != pieces_per_colour:
            raise PositionError(f"{colour}: {total} pieces on the board, in reserve and at home; "
                                f"there are {pieces_per_colour}")
    roll, budget = _read_roll(position.get("roll"), position.get("budget", 0), phase)
    return PositionParts(cells, piles["reserve"], piles["home"], colours.index(turn), phase, roll, budget)


def _read_counts(raw: object, name: str, colours: tuple[str, ...]) -> dict[str, int]:
    if not isinstance(raw, dict) or set(raw) != set(colours) or not all(
            isinstance(n, int) and n >= 0 for n in raw.values()):
        raise PositionError(f'"{name}" must give a count of 0 or more for each of {", ".join(colours)}')
    return {c: raw[c] for c in colours}


def _read_roll(raw: object, budget: object, phase: str) -> tuple[tuple[int, int] | None, int]:
    if phase in (ENTER, ROLL):
        if raw is not None or budget != 0:
            raise PositionError(f'phase {phase}: the dice are not rolled yet, so "roll" is null and "budget" 0')
        return None, 0
    if (not isinstance(raw, list) or len(raw) != 2 or not all(isinstance(d, int) and d in DIE_FACES for d in raw)
            or raw[0] > raw[1]):
        raise PositionError(f'roll={raw!r}: two dice from 1 to 6, smaller first, e.g. [3, 4]')
    if not isinstance(budget, int) or not 0 <= budget <= sum(raw):
        raise PositionError(f"budget={budget!r}: the points left, from 0 to the roll's {sum(raw)}")
    return (raw[0], raw[1]), budget
