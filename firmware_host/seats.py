"""Who decides each seat's moves: a person at this board, or the computer at a level.

A seat is written ``human``, ``computer`` (the default level) or ``computer:LEVEL`` in the
configuration, on the command line and in the simulator's form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.levels import DEFAULT_LEVEL, LEVELS

KINDS = ("human", "computer")


@dataclass(frozen=True)
class Seat:
    kind: str = "human"
    level: str | None = None

    @property
    def computer(self) -> bool:
        return self.kind == "computer"

    def __str__(self) -> str:
        return f"computer:{self.level}" if self.computer else "human"


HUMAN = Seat()


def parse_seat(text: str) -> Seat:
    """A seat from its text; a ValueError says what is taken."""
    kind, _, level = str(text).strip().partition(":")
    if kind == "human" and not level:
        return HUMAN
    if kind == "computer":
        level = level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise ValueError(f"{text!r}: no computer level {level!r}; levels: {', '.join(LEVELS)}")
        return Seat("computer", level)
    raise ValueError(f"{text!r} is not a seat: write human, computer or computer:LEVEL "
                     f"(levels: {', '.join(LEVELS)})")


def parse_seats(texts: Sequence[str], players: int) -> tuple[Seat, ...]:
    """One seat per player, in player order; none given means every seat human."""
    if not texts:
        return (HUMAN,) * players
    if len(texts) != players:
        raise ValueError(f"{len(texts)} seat{'s' if len(texts) != 1 else ''} for a game of {players} players: "
                         f"give one per player, e.g. {', '.join(['human'] + ['computer'] * (players - 1))}")
    return tuple(parse_seat(text) for text in texts)
