"""The person's side of a calibration: the questions asked, the keys that answer them.

The person calibrating is the ``Person`` interface: the command gives a terminal
(``firmware_host/commands/calibrate.py``), tests give a scripted person acting on the mock board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from engine.board import Board

READ = ""  # the Enter key: "done, read the sensors"
SKIP = "s"
QUIT = "q"
MOVE = "m"
AGAIN = "r"
YES = "y"
NO = "n"
CARRY_ON = "c"

KIND_NAMES = {"point": "intersection", "face": "compartment", "center": "Center Square"}


@dataclass(frozen=True)
class Ask:
    """One question to the person: what to do, where, and the keys that answer it."""

    phase: str
    text: str
    choices: Mapping[str, str]
    done: int = 0
    total: int = 0
    locations: tuple[str, ...] = ()
    piece_class: str | None = None
    led: tuple[int, int] | None = None


class Person(Protocol):
    """The one calibrating: told what happens, asked to act and answer with a key."""

    def tell(self, text: str) -> None:
        """Show a finding or a problem."""

    def ask(self, question: Ask) -> str:
        """Wait until the person has acted; return one of ``question.choices``."""


class CalibrationPaused(Exception):
    """The person pressed ``q``: everything found so far is saved for the next run."""


def listed(items: Iterable[object]) -> str:
    """``items`` for a sentence: "a, b, c"."""
    return ", ".join(str(item) for item in items)


def where(board: Board, location: str) -> str:
    """``location`` for a person at the board: its kind and where it is on the board's drawing."""
    place = board.locations[location]
    x, y = place.xy
    return f"{location} ({KIND_NAMES.get(place.kind, place.kind)} at {x:.1f}, {y:.1f} on the board drawing)"
