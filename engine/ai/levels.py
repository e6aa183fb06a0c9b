"""The computer's named levels: each a deadline for a whole turn on a Raspberry Pi 4.

A search stops at its deadline with the best move found so far.  The deadline is kept in a
Raspberry Pi 4's seconds and divided by the machine's speed (``engine/ai/speed.py``) where the
search runs, so a level does the same work on any machine.  ``docs/computer.md`` gives the
seconds each level takes and how strongly it plays.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    name: str
    #: A whole turn's deadline on a Raspberry Pi 4, in seconds.
    seconds: float
    help: str


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("easy", 1.0, "a quick, loose player: a beginner can beat it (a turn within 1 s on a Raspberry Pi 4)"),
    Level("normal", 3.0, "the default: a turn within 3 s on a Raspberry Pi 4"),
    Level("hard", 10.0, "the strongest: a turn within 10 s on a Raspberry Pi 4"),
)}
DEFAULT_LEVEL = "normal"
#: A hint's deadline on a Raspberry Pi 4, whatever the level (a person is waiting with a hand out).
HINT_SECONDS = 1.0

#: Playout steps before the evaluation scores the position, for games whose random games run long.
PLAYOUT_PLIES: dict[str, int] = {"overpass": 24, "groups-of-three": 24, "full-house": 40, "pawns-crossing": 24}
DEFAULT_PLAYOUT_PLIES = 200


def level(name: str) -> Level:
    """The level called ``name``; a ValueError names the levels there are."""
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"no level {name!r}; levels: {', '.join(LEVELS)}") from None
