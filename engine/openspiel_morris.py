"""Square Off in OpenSpiel's ``nine_mens_morris`` terms: the same points, moves and boards, side by side.

Both play nine pieces each on the 24-point board, place then slide, capture after a
mill (any piece when every opposing piece stands in one) and end at two pieces.  They
part where a player is down to three pieces: OpenSpiel lets them fly, Square Off does
not.  OpenSpiel's points are mapped to ours by where they sit in its text diagram, not
by a hand-written table.  A fact about our notation read by the comparison test
(tests/engine/test_squareoff_openspiel.py) and ``bench/openspiel_moves.py``; it takes
OpenSpiel's states as they come and imports nothing of OpenSpiel's.
"""

from __future__ import annotations

from typing import Any

from engine.boards import load_board
from engine.core import State

NUM_POINTS = 24
#: OpenSpiel's players: 0 places first with "W", 1 with "B".
COLOUR_OF_PLAYER = ("white", "black")
SYMBOL = {"W": "white", "B": "black", ".": None}


def diagram(spiel: Any) -> list[str]:
    """The board rows of OpenSpiel's text picture (the lines before the first blank one)."""
    return str(spiel).split("\n\n")[0].split("\n")


def openspiel_points(spiel: Any) -> list[tuple[int, int]]:
    """(row, column) of OpenSpiel's points 0..23 in its diagram, in reading order."""
    cells = [(r, c) for r, line in enumerate(diagram(spiel)) for c, ch in enumerate(line) if ch in SYMBOL]
    assert len(cells) == NUM_POINTS
    return cells


def point_map(spiel: Any) -> list[str]:
    """Our point id for each OpenSpiel point: both boards are the same 7x7 lattice of places."""
    cells = openspiel_points(spiel)
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    board = load_board("squareoff")
    xs = sorted({board.xy(p)[0] for p in board.points})
    ys = sorted({board.xy(p)[1] for p in board.points}, reverse=True)
    return [board.point_at((xs[cols.index(c)], ys[rows.index(r)])) for r, c in cells]


def capturing(spiel: Any) -> bool:
    """Whether OpenSpiel's player to move is to take a piece (its actions are then points)."""
    return "Capture time!" in str(spiel)


def notation(action: int, taking: bool, ours: list[str]) -> str:
    """Our notation of OpenSpiel's ``action``; ``taking`` when it is a capture."""
    if action < NUM_POINTS:
        return f"x{ours[action]}" if taking else ours[action]
    origin, target = divmod(action - NUM_POINTS, NUM_POINTS)
    return f"{ours[origin]}-{ours[target]}"


def openspiel_contents(spiel: Any, ours: list[str]) -> dict[str, str | None]:
    rows = diagram(spiel)
    return {ours[k]: SYMBOL[rows[r][c]] for k, (r, c) in enumerate(openspiel_points(spiel))}


def flying(state: State) -> bool:
    """True once a player is down to three pieces: OpenSpiel's flying rule starts there."""
    hands = state.position()["in_hand"]  # type: ignore[attr-defined]
    counts = dict(hands)
    for colour in state.contents().values():
        if colour:
            counts[colour] += 1
    return min(counts.values()) <= 3
