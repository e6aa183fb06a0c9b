"""The computer's seats, and the one ``Thinker`` they and the hint button ask.

The scan loop never waits for the computer: a question goes to the worker process and its
answer is taken, when it has come, at a later scan (``heard``).  The computer's turn comes step by
step, so its first step is shown while the rest is planned; each answer is kept in the journal, so
that a restart carries out the same turn rather than one planned again to a deadline (which differs
from run to run).  A worker that fails is asked again ``THINK_RETRIES`` times about one position.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.ai.levels import DEFAULT_LEVEL
from engine.core import State
from engine.solvers import SOLVERS
from firmware_host import words
from firmware_host.decided import Decided
from firmware_host.journal import Journal, JournalWriteError
from firmware_host.seats import Seat
from firmware_host.thinker import Question, Thinker

#: Times the computer is asked again about one position after its process failed, before giving up.
THINK_RETRIES = 2


@dataclass(frozen=True)
class Heard:
    """An answer taken from the worker: a turn or a hint decided, or (``retry``) the question to ask again."""

    decided: Decided | None = None
    retry: bool = False


class Computer:
    """Decides the computer's seats' turns (``decide``) and answers hints (``ask_hint``) with one worker."""

    enforced = True

    def __init__(self, thinker: Thinker, seats: tuple[Seat, ...], journal: Journal, seed: int,
                 say: Callable[[str], None]) -> None:
        self.thinker = thinker
        self.seats = seats
        self.journal = journal
        self.seed = seed
        self.say = say
        #: How often the worker failed since its last answer.
        self.failures = 0
        #: Whether the computer's turn kept in the journal may be taken up (once, on resuming).
        self.resuming = True

    def decide(self, state: State, history: Sequence[str], turn_start: int, shown: Decided | None) -> Decided | None:
        """The computer's turn: the one shown while the history follows it, the one the journal kept (on resuming),
        else None while the worker is asked about the position where the turn began."""
        player = state.current_player
        decided = shown
        step = decided.step(history) if decided is not None and decided.player == player else None
        question = self.question(state, history, "computer", turn_start) if step is None else None
        if question is not None and self.resuming:
            decided = self._kept_turn(question, player)
            step = decided.step(history) if decided else None
            if decided is not None and step is not None and not decided.complete:
                self.thinker.ask(replace(question, planned=decided.moves))  # the rest of the turn
        self.resuming = False
        if step is None:
            self._settle(question)
            return None
        return decided

    def drop(self) -> None:
        """Nothing is to be decided here (a person's turn): the question out is dropped."""
        self.resuming = False
        self._settle(None)

    def _settle(self, question: Question | None) -> None:
        """Ask ``question`` unless it is out already; drop any other question out."""
        asked = self.thinker.asked
        if asked is not None and (question is None or asked.key != question.key):
            self.thinker.cancel()
        if question is not None and self.thinker.asked is None:
            self.thinker.ask(question)

    def asking(self, by: str) -> bool:
        """Whether a question ``by`` ("computer", "hint") is out."""
        return self.thinker.asked is not None and self.thinker.asked.key[0] == by

    def ask_hint(self, state: State, history: Sequence[str]) -> None:
        self.thinker.ask(self.question(state, history, "hint", len(state.history)))

    def heard(self, state: State, history: Sequence[str]) -> Heard | None:
        """The worker's answer, if one has come.  A computer's turn that no longer leads to the position
        on the board is asked again from it; a turn is kept in the journal for a restart."""
        answer = self.thinker.answer()
        if answer is None:
            return None
        by, player, ply, _ = answer.key
        if answer.error:
            self.failures += 1
            retry = by == "computer" and self.failures <= THINK_RETRIES
            self.say(words.computer_failed(answer.error, retry if by == "computer" else None))
            return Heard(retry=retry)
        self.failures = 0
        decided = Decided(by, player, ply, answer.moves, answer.done)
        if by == "hint":
            if answer.note:
                self.say(words.hint_note(answer.note))
            return Heard(decided)
        if decided.step(history) is None:  # the turn's start was left for a plan that does not lead here
            self.thinker.ask(self.question(state, history, "computer", len(history)))
            return Heard()
        try:
            self.journal.keep_turn(json.dumps(answer.key), answer.moves, answer.done)
        except JournalWriteError as exc:  # the turn is shown all the same: only a restart would plan it again
            self.say(words.turn_not_kept(exc))
        return Heard(decided)

    def question(self, state: State, history: Sequence[str], by: str, ply: int) -> Question:
        """What to ask about the position at ``ply`` (the start of the turn to decide).  A puzzle's hint
        is asked with the moves from the start, so that it can tell which move lost the puzzle."""
        asked_from = 0 if by == "hint" and state.game.name in SOLVERS else ply
        later = [state.pop() for _ in range(len(state.history) - asked_from)]
        try:
            position = state.to_json()
        finally:
            for move in reversed(later):
                state.push(move)
        player = state.current_player
        level = self.seats[player].level if by == "computer" else DEFAULT_LEVEL
        moves = tuple(history[asked_from:ply])
        key = (by, player, ply, zlib.crc32(json.dumps([position, moves], sort_keys=True).encode()))
        return Question(key, position, level or DEFAULT_LEVEL, self.seed, moves)

    def _kept_turn(self, question: Question, player: int) -> Decided | None:
        """The computer's turn the journal kept for ``question`` before a restart, as far as it was planned."""
        kept = self.journal.kept_turn(json.dumps(question.key))
        return None if kept is None else Decided("computer", player, question.key[2], *kept)
