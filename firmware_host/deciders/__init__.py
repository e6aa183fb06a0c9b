"""Who decides each seat's moves, behind one question: "is a move decided for this seat, and which?".

A person at this board (``person.py``) decides with their hands: nothing is decided elsewhere and
every legal move is accepted.  The computer (``computer.py``) and a remote participant (``remote.py``) decide
elsewhere: the loop shows the decided move's next step on the LEDs and accepts only it (``enforced``),
and until it is decided accepts nothing.  A hint (``hint.py``) is the same question asked of the
computer on a person's turn, shown and not enforced.  The loop asks the seat to move at each new
position and never asks which kind it is talking to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.core import State
from firmware_host.decided import Decided


class Decider(Protocol):
    #: Whether only the decided move is accepted (none before it is decided); False: every legal move.
    enforced: bool

    def decide(self, state: State, history: Sequence[str], turn_start: int, shown: Decided | None) -> Decided | None:
        """The turn decided for the player to move at ``state`` (whose turn began at ply ``turn_start``), or None
        (not yet, or nothing to decide); ``shown``: the turn decided before, whose steps may go on."""
        ...

