"""Who decides each seat's moves: a person at this board, the computer at a level, or a remote participant.

A seat is written ``human``, ``computer`` (the default level), ``computer:LEVEL`` or
``remote:NAME`` (the participant NAME, elsewhere, through the broker) in the
configuration, on the command line and in the simulator's form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.levels import DEFAULT_LEVEL, LEVELS
from firmware_host.remote.protocol import NAME

KINDS = ("human", "computer", "remote")


@dataclass(frozen=True)
class Seat:
    kind: str = "human"
    level: str | None = None
    #: The remote participant holding the seat.
    holder: str | None = None

    @property
    def computer(self) -> bool:
        return self.kind == "computer"

    @property
    def remote(self) -> bool:
        return self.kind == "remote"

    def __str__(self) -> str:
        if self.remote:
            return f"remote:{self.holder}"
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
    if kind == "remote":
        if not NAME.fullmatch(level):
            raise ValueError(f"{text!r}: write remote:NAME, NAME the participant holding the seat "
                             "(1-64 letters, digits, '-' or '_')")
        return Seat("remote", holder=level)
    raise ValueError(f"{text!r} is not a seat: write human, computer, computer:LEVEL (levels: {', '.join(LEVELS)}) "
                     "or remote:NAME")


def parse_seats(texts: Sequence[str], players: int) -> tuple[Seat, ...]:
    """One seat per player, in player order; none given means every seat human."""
    if not texts:
        return (HUMAN,) * players
    if len(texts) != players:
        raise ValueError(f"{len(texts)} seat{'s' if len(texts) != 1 else ''} for a game of {players} players: "
                         f"give one per player, e.g. {', '.join(['human'] + ['computer'] * (players - 1))}")
    return tuple(parse_seat(text) for text in texts)
