"""What to do to make the physical board match the game: each extra piece paired with the nearest missing place.

Used when the board is out of sync, after an undo or a new game, and on resume after a
power cut.  A piece that stands where none should is moved to the nearest place that
lacks one it can fill (any piece under presence sensing, one of the same class under
analog Hall sensing); what cannot be paired is taken off or brought from the box.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.core import Content
from engine.geometry import Coord
from wiring.model import Observation


@dataclass(frozen=True)
class Fix:
    """One correction: move the piece on ``source`` to ``target``; no source: bring ``piece``; no target: remove it."""

    source: str | None
    target: str | None
    piece: Content

    def __str__(self) -> str:
        if self.source and self.target:
            return f"{self.source} -> {self.target}"
        if self.target:
            return f"place {self.piece or 'a piece'} on {self.target}"
        return f"remove the piece on {self.source}"


def board_fixes(
    differing: Iterable[str],
    observed: Mapping[str, Observation],
    expected: Mapping[str, Observation],
    contents: Mapping[str, Content],
    where: Mapping[str, Coord],
) -> tuple[Fix, ...]:
    """The moves that turn ``observed`` into ``expected`` on the ``differing`` locations, nearest pairs first."""
    extras: list[str] = []
    missing: list[str] = []
    for location in sorted(differing):
        if observed.get(location) is not None:
            extras.append(location)
        if expected.get(location) is not None:
            missing.append(location)
    pairs = sorted(
        (math.dist(where[extra], where[hole]), extra, hole)
        for extra in extras for hole in missing
        if extra != hole and observed.get(extra) == expected.get(hole)
    )
    fixes: list[Fix] = []
    used_extras: set[str] = set()
    used_holes: set[str] = set()
    for _, extra, hole in pairs:
        if extra not in used_extras and hole not in used_holes:
            used_extras.add(extra)
            used_holes.add(hole)
            fixes.append(Fix(extra, hole, contents.get(hole)))
    fixes += [Fix(extra, None, None) for extra in extras if extra not in used_extras]
    fixes += [Fix(None, hole, contents.get(hole)) for hole in missing if hole not in used_holes]
    return tuple(fixes)
