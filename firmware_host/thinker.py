"""The computer thinks in another process, so the scan loop never waits for it.

``Thinker.ask`` hands a position (its JSON), a level and a seed to a worker process;
``Thinker.answer`` polls for the reply without blocking.  The computer's turn comes step by
step: each reply holds the steps decided so far (``Answer.done`` on the last), so the board
lights the first step of an Over-Pass turn while the rest is planned.  The worker plans within
the level's deadline on a Raspberry Pi 4 divided by the machine's speed (``Thinking``): given,
or measured by the first worker and passed on to the next (``engine/ai/speed.py``).  A
question about a position that is no longer on the board is dropped: asking another while the worker is busy
stops that worker and starts a fresh one.  A worker that dies is started again at the
next question, and its death is reported as the answer's error.  A worker whose daemon
was killed (SIGKILL, a power cut of the process) ends by itself within ``PARENT_CHECK_S``.
The worker runs at a lower priority than the daemon (``NICENESS``): the daemon sets it, and where a
sandbox forbids that (a unit without ``setpriority``) it says so once and the worker thinks at the
daemon's priority.  Ctrl-C in a terminal reaches the whole foreground process group; the worker is
started with SIGINT blocked, so only the daemon hears it, and the daemon stops the worker.

A hint in a puzzle comes from the puzzle's solver, not from the computer player: the
next move of a solution, or since which move there is none, so the question carries the
game's moves from its start.  The worker remembers the last winning line it found for a
game: a person who follows the hints gets the next one at once.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine.ai.levels import HINT_SECONDS
from engine.core import Move, State

#: A spawned worker imports only the engine: nothing of the daemon's threads or hardware.
CONTEXT = multiprocessing.get_context("spawn")
#: How often an idle worker checks that the daemon that started it is still there (seconds).
PARENT_CHECK_S = 1.0
#: The worker's niceness added to the daemon's: on a Raspberry Pi's four cores the scan loop comes first.
NICENESS = 10
#: Seconds a puzzle's hint may search before it says what it has proved (docs/puzzles.md: how long hints take):
#: a person at a Raspberry Pi 4 waits at most this (a faster machine searches more in the same wait).
PUZZLE_HINT_S = 3.0


@dataclass(frozen=True)
class Thinking:
    """How fast the computer thinks: the machine's ``speed`` as a multiple of a Raspberry Pi 4's (None:
    measured by the worker), or ``simulations`` a step and no deadline (reproducible: tests)."""

    speed: float | None = None
    simulations: int | None = None
    #: A hint's deadline on a Raspberry Pi 4 (the level's, if that is shorter).
    hint_seconds: float = HINT_SECONDS
    #: A puzzle hint's limit on the wall clock, as a person waits (a test checking what a hint says, not how
    #: fast, raises it: a loaded machine would otherwise cut the search short).
    puzzle_seconds: float = PUZZLE_HINT_S


@dataclass(frozen=True)
class Question:
    """``state`` (JSON) then ``moves`` lead to the position asked about; ``key[0]`` is who asks.
    ``planned``: the turn's steps already decided (kept over a restart), which the answer continues."""

    key: Any
    state: dict[str, Any]
    level: str
    seed: int
    moves: tuple[str, ...] = ()
    planned: tuple[str, ...] = ()


@dataclass(frozen=True)
class Answer:
    """The moves decided, or ``error``; ``note``: words to show with them (a puzzle hint's verdict).
    A computer's turn comes in replies of the steps decided so far: ``done`` on the last.  ``speed``:
    the machine's speed the worker thought at."""

    key: Any
    moves: tuple[str, ...] = ()
    error: str = ""
    note: str = ""
    done: bool = True
    speed: float | None = None


def _work(questions: Any, answers: Any, thinking: Thinking = Thinking()) -> None:
    """The worker's loop: answer each question; end when the daemon is gone (killed, it sends nothing)."""
    daemon = multiprocessing.parent_process()
    if thinking.speed is None and thinking.simulations is None:
        from engine.ai.speed import measure

        speed = measure()
        print(f"gameboard: the computer thinks at {speed:.1f}x a Raspberry Pi 4's speed here (measured; "
              "[computer] speed sets it)", file=sys.stderr, flush=True)
        thinking = replace(thinking, speed=speed)
    #: For each puzzle start asked about (its JSON): the last winning line found, as moves from the start.
    lines: dict[str, tuple[str, ...]] = {}
    while True:
        try:
            question = questions.get(timeout=PARENT_CHECK_S)
        except queue.Empty:
            if daemon is not None and not daemon.is_alive():
                return
            continue
        if question is None:
            return
        try:
            _answer(question, lines, thinking, answers.put)
        except Exception as exc:  # the worker reports, the daemon decides what to show
            answers.put(Answer(question.key, error=f"{type(exc).__name__}: {exc}", speed=thinking.speed))


def _answer(question: Question, lines: dict[str, tuple[str, ...]], thinking: Thinking,
            reply: Callable[[Answer], None]) -> None:
    """The computer's turn, step by step, or a hint: from the puzzle's solver in a puzzle (``lines``: the winning
    lines found so far), else the computer's best turn, whole, within the hint's seconds."""
    from engine.ai.player import Computer
    from engine.ai.speed import PI4
    from engine.registry import state_from_json
    from engine.solvers import SOLVERS, hinter

    state = state_from_json(question.state)
    for text in question.moves:
        state.apply(text)
    speed = thinking.speed
    if question.key[0] == "hint" and state.game.name in SOLVERS:
        start = json.dumps(question.state, sort_keys=True)
        hint = hinter(state.game.name)(state, time_limit=thinking.puzzle_seconds, known=lines.get(start, ()))
        if hint.moves:
            lines[start] = (*question.moves, *hint.moves)
        reply(Answer(question.key, hint.moves[:1], note=hint.explanation, speed=speed))
        return
    hint = question.key[0] == "hint"
    computer = Computer(question.level, question.seed, speed=speed or PI4, simulations=thinking.simulations,
                        seconds=thinking.hint_seconds if hint else None)
    player = state.current_player
    for text in question.planned:  # steps kept over a restart: the rest of the turn continues them
        state.apply(text)
    decided = list(question.planned)
    if state.current_player != player:
        reply(Answer(question.key, tuple(decided), speed=speed))
        return
    new: list[Move] = []
    done = False
    for move in computer.steps(state):
        new.append(move)
        decided.append(str(move))
        done = _hands_over(state, new, player)
        if done or not hint:  # a hint is shown whole; the computer's turn step by step
            reply(Answer(question.key, tuple(decided), done=done, speed=speed))
    if not done:  # the plan ended where the turn goes on: it is all there is
        reply(Answer(question.key, tuple(decided), speed=speed))


def _hands_over(state: State, moves: list[Move], player: int) -> bool:
    """Whether ``player``'s turn is over after ``moves`` (another player or the dice next, the game over, or a
    puzzle's move made); ``state`` is left as it was."""
    for move in moves:
        state.push(move)
    try:
        return state.current_player != player or state.game.num_players == 1
    finally:
        for _ in moves:
            state.pop()


class Thinker:
    """One worker process, started at the first question."""

    def __init__(self, thinking: Thinking = Thinking()) -> None:
        #: How fast the computer thinks; a speed measured by a worker is kept for the next one.
        self.thinking = thinking
        self._process: Any = None
        self._questions: Any = None
        self._answers: Any = None
        self.asked: Question | None = None
        #: Whether the worker's priority could not be lowered and the log said so (once per daemon).
        self._priority_refused = False

    @property
    def busy(self) -> bool:
        return self.asked is not None

    def ask(self, question: Question) -> None:
        """Think about ``question``; a question still being thought about is abandoned."""
        if self.asked is not None or not self._alive():
            self._restart()
        self.asked = question
        self._questions.put(question)

    def answer(self) -> Answer | None:
        """The reply to the question asked, once it is ready (never blocks): for a computer's turn, each step
        decided so far, the question answered once ``done``."""
        if self.asked is None:
            return None
        try:
            reply: Answer = self._answers.get_nowait()
        except queue.Empty:
            if self._alive():
                return None
            reply = Answer(self.asked.key, error=f"the computer's process stopped (exit code {self._process.exitcode})")
        if reply.speed is not None and self.thinking.speed is None:
            self.thinking = replace(self.thinking, speed=reply.speed)
        if reply.key != self.asked.key:
            return None  # a reply to an abandoned question
        if reply.done:
            self.asked = None
        return reply

    def cancel(self) -> None:
        """Forget the question asked; the worker is stopped if it is still thinking."""
        if self.asked is not None:
            self.asked = None
            self._stop()

    def close(self) -> None:
        self.asked = None
        self._stop()

    def _alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def _restart(self) -> None:
        self._stop()
        self._questions, self._answers = CONTEXT.Queue(), CONTEXT.Queue()
        process = CONTEXT.Process(target=_work, args=(self._questions, self._answers, self.thinking),
                                  name="gameboard-computer", daemon=True)
        # SIGINT blocked while starting: the worker inherits the mask, so Ctrl-C never interrupts it.
        interrupts = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            process.start()  # kept only once started: a process that failed to start has nothing to stop
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, interrupts)
        self._process = process
        assert process.pid is not None  # started
        self._lower_priority(process.pid)

    def _lower_priority(self, pid: int) -> None:
        """``NICENESS`` below the daemon, so the scan loop comes first; a sandbox that forbids it is said once."""
        try:
            os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS))
        except ProcessLookupError:
            pass  # it died at once: the next answer() says so
        except PermissionError as exc:
            if not self._priority_refused:
                self._priority_refused = True
                print(f"gameboard: the computer's process cannot lower its priority ({exc.strerror}): it thinks at "
                      "the daemon's, which may slow the scan loop on a busy Pi; a systemd unit must allow "
                      "SystemCallFilter=setpriority (docs/daemon.md)", file=sys.stderr, flush=True)

    def _stop(self) -> None:
        if self._process is None:
            return
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(timeout=2)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
        for channel in (self._questions, self._answers):
            channel.close()
            channel.cancel_join_thread()
        self._process = None
