"""Over-Pass's moves: the value of each kind of move, its cost in points and its notation.

The turn's phases are here too, with the moves of those that do not depend on the board:
``overpass`` (the rules), ``overpass_tables`` (every board move made once) and
``overpass_centre`` (the Center Square search) all read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import ClassVar

from engine.core import Move
from engine.games.dice import ROLLS

ENTER, ROLL, MOVE, OVER = "enter", "roll", "move", "over"
PHASES = (ENTER, ROLL, MOVE, OVER)

@dataclass(frozen=True, slots=True)
class Enter(Move):
    """A piece of the turn's colour from its reserve onto the Center Square (not a move: free)."""

    cost: ClassVar[int] = 0

    def __str__(self) -> str:
        return "enter"


@dataclass(frozen=True, slots=True)
class BoardMove(Move):
    """A move on the board, paid from the turn's points.  Its fields are intersections, and
    ``points`` lists them: the Center Square rule asks it of every move of a turn, so it is kept."""

    points: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: Whether the piece on ``points[0]`` leaves it empty (all but a Trade).
    moves_first_piece_away: ClassVar[bool] = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", tuple(getattr(self, f.name) for f in fields(self) if f.init))


@dataclass(frozen=True, slots=True)
class OverPassMove(BoardMove):
    """Over a bridge of pieces to an empty intersection; the path leaves no trace, so (from, to) names it."""

    start: str
    end: str
    cost: ClassVar[int] = 1

    def __str__(self) -> str:
        return f"O {self.start}-{self.end}"


@dataclass(frozen=True, slots=True)
class Trade(BoardMove):
    """Two pieces of different colours on parallel lines swap places (``a`` first in board order)."""

    a: str
    b: str
    cost: ClassVar[int] = 1
    moves_first_piece_away: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"T {self.a}={self.b}"


@dataclass(frozen=True, slots=True)
class Slide(BoardMove):
    """One step outward along a line onto an empty intersection."""

    start: str
    end: str
    cost: ClassVar[int] = 2

    def __str__(self) -> str:
        return f"S {self.start}-{self.end}"


@dataclass(frozen=True, slots=True)
class Exit(BoardMove):
    """The mover's own piece off an exit point onto their home pile."""

    point: str
    cost: ClassVar[int] = 1

    def __str__(self) -> str:
        return f"X {self.point}"


@dataclass(frozen=True, slots=True)
class EndTurn(Move):
    """The turn is over (the Center Square is empty)."""

    button: ClassVar[str | None] = "end_turn"
    cost: ClassVar[int] = 0

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class ReturnCenter(Move):
    """No moves within the points left can empty the Center Square: its piece goes back to its
    reserve and the turn ends."""

    cost: ClassVar[int] = 0

    def __str__(self) -> str:
        return "return"


#: The moves of the phases that do not depend on the board.
PHASE_MOVES: dict[str, tuple[Move, ...]] = {ENTER: (Enter(),), ROLL: tuple(roll for roll, _ in ROLLS), OVER: ()}
