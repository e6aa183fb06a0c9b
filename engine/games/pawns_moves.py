"""Pawns Crossing's moves and their notation, and every slide of a board's lines with the slide
that undoes it (the same line pushed from the other end)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.boards.pawns_layout import PawnsBoard
from engine.core import Move

PHASES = ("place", "choose", "dice", "tokens", "pawns", "over")


@dataclass(frozen=True)
class PlacePawn(Move):
    """Set-up: a pawn into the hole of its owner's choice."""

    colour: str
    hole: str

    def __str__(self) -> str:
        return f"place {self.colour} {self.hole}"


@dataclass(frozen=True)
class Roll(Move):
    """Choose the token turn: roll your dice."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Dice(Move):
    """A chance outcome: the face of each rolled die (0 is blank)."""

    faces: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return "dice " + " ".join(f"{c}={f if f else 'blank'}" for c, f in self.faces)


@dataclass(frozen=True)
class TokenMove(Move):
    """A token from one space to another, as its die allows."""

    token: str
    origin: str
    target: str

    def __str__(self) -> str:
        return f"{self.token} {self.origin}>{self.target}"


@dataclass(frozen=True)
class Declare(Move):
    """Announce that a token has reached its destination tile: it is revealed."""

    token: str
    tile: str

    def __str__(self) -> str:
        return f"declare {self.token} {self.tile}"


@dataclass(frozen=True)
class PawnMove(Move):
    """A pawn to another open hole, or off the board (``target`` empty) when forced late."""

    colour: str
    origin: str
    target: str

    def __str__(self) -> str:
        return f"pawn {self.colour} {self.origin}>{self.target or 'off'}"


@dataclass(frozen=True)
class Slide(Move):
    """The Pusher pushes a row or column one tile and domino along ``direction``."""

    line: str
    direction: str

    def __str__(self) -> str:
        return f"slide {self.line} {self.direction}"


@dataclass(frozen=True)
class EndTurn(Move):
    """Stop before using every die or moving the second pawn."""

    button: ClassVar[str | None] = "end_turn"

    def __str__(self) -> str:
        return "end turn"


def reverse_slides(board: PawnsBoard) -> dict[Slide, Slide]:
    """Every slide of ``board``, mapped to the slide that undoes it."""
    return {Slide(line.id, a): Slide(line.id, b) for line in board.lines.values()
            for a, b in ((line.forward, line.backward), (line.backward, line.forward))}


def dice_outcomes(faces: tuple[int, ...], colours: tuple[str, ...]) -> list[tuple[Move, float]]:
    """A roll of one die per colour of a seat: every combination of ``faces``, equally likely."""
    outcomes: list[tuple[tuple[str, int], ...]] = [()]
    for colour in colours:
        outcomes = [o + ((colour, f),) for o in outcomes for f in faces]
    p = 1.0 / len(outcomes)
    return [(Dice(o), p) for o in outcomes]
