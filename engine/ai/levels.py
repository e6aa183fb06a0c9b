"""The computer's named levels: how many simulations it spends on a decision.

A level is a simulation budget, not a time: the same position and seed give the same
move on a fast computer and on a Raspberry Pi alike.  ``docs/computer.md`` gives the
seconds per decision each level takes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    name: str
    simulations: int
    help: str


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", 40, "a quick, loose player: a beginner can beat it"),
    Level("normal", 300, "the default: one to three seconds a decision on a Raspberry Pi 4"),
    Level("hard", 1500, "five times the simulations of normal"),
)}
DEFAULT_LEVEL = "normal"

#: Playout steps before the evaluation scores the position, for games whose random games run long.
PLAYOUT_PLIES: dict[str, int] = {"overpass": 24, "groups-of-three": 24, "full-house": 40, "pawns-crossing": 24}
DEFAULT_PLAYOUT_PLIES = 200


def level(name: str) -> Level:
    """The level called ``name``; a ValueError names the levels there are."""
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"no level {name!r}; levels: {', '.join(LEVELS)}") from None
