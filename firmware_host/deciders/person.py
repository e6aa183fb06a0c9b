"""A person at this board: decides with their hands, so nothing is decided elsewhere."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import State
from firmware_host.decided import Decided
from firmware_host.deciders.computer import Computer


class Person:
    """A person's seat (and the dice's, and the game's end): every legal move is accepted.  No answer from the
    computer is wanted then: a question still out (about a position taken back, a hint) is dropped."""

    enforced = False

    def __init__(self, computer: Computer) -> None:
        self.computer = computer

    def decide(self, state: State, history: Sequence[str], turn_start: int, shown: Decided | None) -> None:
        self.computer.drop()
