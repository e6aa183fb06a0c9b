"""Dice sources: rolled by the daemon, or rolled by hand and entered by the players."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from engine.errors import GameboardError
from hal.base import DiceSource


class DiceEntryError(GameboardError, ValueError):
    """An entered roll that is not one of the outcomes on offer; the message lists them."""


class RandomDice(DiceSource):
    """The daemon rolls: an outcome drawn by its probability from a seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, outcomes: Sequence[tuple[str, float]]) -> str:
        if not outcomes:
            raise DiceEntryError("a roll needs at least one outcome")
        texts = [text for text, _ in outcomes]
        weights = [probability for _, probability in outcomes]
        return self._rng.choices(texts, weights)[0]


class EnteredDice(DiceSource):
    """The players roll real dice and enter the result (a button panel, the web page).

    Entries queue up; ``roll`` takes the oldest, or returns None while there is none.
    """

    def __init__(self) -> None:
        self._entries: deque[str] = deque()

    def enter(self, outcome: str) -> None:
        """Queue a roll as the outcome text, such as "roll 3+4"."""
        self._entries.append(outcome.strip())

    def roll(self, outcomes: Sequence[tuple[str, float]]) -> str | None:
        if not self._entries:
            return None
        entry = self._entries.popleft()
        offered = [text for text, _ in outcomes]
        if entry not in offered:
            raise DiceEntryError(f"{entry!r} is not a roll on offer here; enter one of: {', '.join(offered)}")
        return entry
