"""Hints: the computer's best move for a person's turn, asked of the same worker as the computer's seats
(``Computer.ask_hint``), shown in its own colour and never enforced.

A hint is a whole turn: a person following it is shown its next step at once, without asking again.
In a puzzle the hint comes from the puzzle's solver, and once the puzzle is lost it says which move
lost it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import CHANCE, TERMINAL, State
from engine.solvers import SOLVERS
from firmware_host import words
from firmware_host.decided import Decided
from firmware_host.seats import Seat


class Hints:
    """When the hint button may ask, and the last hint's turn while the game follows it."""

    def __init__(self, on: bool, seats: tuple[Seat, ...]) -> None:
        self.on = on
        self.seats = seats
        #: The last hint's whole turn, and the moves before it.
        self._plan: tuple[tuple[str, ...], Decided] | None = None

    def offered(self, state: State) -> bool:
        """Whether the hint button shows the computer's best move now: a person's turn, hints on; in a
        puzzle also once it is over unsolved, to say which move lost it."""
        player = state.current_player
        if state.game.name in SOLVERS and player == TERMINAL:
            outcome = state.outcome()
            return self.on and outcome is not None and not outcome.winners
        return self.on and player not in (CHANCE, TERMINAL) and self.seats[player].kind == "human"

    def refusal(self, state: State, at_rest: bool) -> str:
        """Why the hint button asks nothing now, in words; "" when it may ask."""
        if not self.on:
            return words.HINTS_OFF
        if not self.offered(state):
            return words.HINT_FOR_A_PERSON
        return "" if at_rest else words.HINT_AT_REST

    def heard(self, hint: Decided, history: Sequence[str]) -> bool:
        """Keep the hint's turn; False if it has no move or the game was taken back before its position."""
        if not hint.moves or len(history) < hint.ply:
            return False
        self._plan = (tuple(history[:hint.ply]), hint)
        return True

    def following(self, history: Sequence[str]) -> tuple[Decided, int] | None:
        """The last hint's turn and its step to show now, if the game still follows it and a step is left."""
        if self._plan is None:
            return None
        before, plan = self._plan
        step = plan.step(history) if tuple(history[:plan.ply]) == before else None
        return None if step is None else (plan, step)

    def forget(self) -> None:
        """A new game: the last hint is of another."""
        self._plan = None
