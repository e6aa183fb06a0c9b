"""A person at the mock board: makes engine moves with lifts, slides and places, and answers the daemon.

The daemon runs with a ``ManualClock``; every physical action is followed by a few loop
iterations, as a real hand takes time between touching pieces.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.core import Change, Move, State
from firmware_host.daemon import Daemon
from firmware_host.tracker import Status
from hal.clock import ManualClock
from hal.dice import EnteredDice
from hal.mock import MockBoard

STEP = 0.01  # seconds of board time per daemon iteration in these tests


class Hands:
    """Plays moves on ``mock`` and drives ``daemon`` until it accepts each."""

    def __init__(self, daemon: Daemon, mock: MockBoard, clock: ManualClock, seed: int = 0) -> None:
        self.daemon = daemon
        self.mock = mock
        self.clock = clock
        self.rng = random.Random(seed)
        board = daemon.state.game.board
        self.where = {loc: place.xy for loc, place in getattr(board, "places", board.locations).items()}

    def run(self, seconds: float) -> None:
        """Let the loop run for ``seconds`` of board time."""
        for _ in range(max(1, round(seconds / STEP))):
            self.clock.advance(STEP)
            self.daemon.step()

    def pause(self) -> None:
        """A hand's pause between two actions: 20 to 150 ms."""
        self.run(self.rng.uniform(0.02, 0.15))

    def settle(self, limit: float = 10.0) -> None:
        """Run until the hand's effects have passed and the daemon waits for a person, at most ``limit`` seconds."""
        daemon = self.daemon
        for _ in range(round(limit / STEP)):
            seen = daemon.scanner.board()
            at_rest = all(seen[loc] == daemon.wiring.expected(self.mock.contents.get(loc)) for loc in seen)
            if at_rest and not (daemon.tracker.waiting or daemon.scanner.debouncer.pending):
                return
            self.run(STEP)

    # -- making moves ---------------------------------------------------------------------

    def play(self, state: State, move: Move) -> None:
        """Make ``move`` (legal in ``state``, the position the daemon follows) and see it accepted."""
        plies = len(self.daemon.state.history)
        if state.is_chance_node():
            dice = self.daemon.hal.dice
            assert isinstance(dice, EnteredDice)
            dice.enter(str(move))
        elif not state.footprint(move).changes:
            if move.button and self.daemon.tracker.expectation.buttons.get(move.button) == move:
                self.mock.buttons.press(move.button)
            else:
                self.daemon.play(str(move))
        else:
            self.handle(state.footprint(move).changes)
        self.run(STEP)
        self.settle()
        self.answer(move)
        # The computer's next step may follow at once where a hand has nothing to do (Over-Pass's end).
        assert len(self.daemon.state.history) > plies, (
            f"{move} not accepted: {self.daemon.status_text()} / {self.daemon.tracker.view.status}")
        assert self.daemon.state.history[plies] == move

    def answer(self, move: Move) -> None:
        """If the daemon asks for confirmation, step the hint button to ``move`` and confirm."""
        view = self.daemon.tracker.view
        if view.status is not Status.CONFIRM:
            return
        names = [str(plan.move) for plan in view.candidates]
        assert str(move) in names, f"{move} not among the candidates {names}"
        while str(view.candidates[view.selected].move) != str(move):
            self.mock.buttons.press("hint")
            self.run(STEP)
            view = self.daemon.tracker.view
        self.mock.buttons.press("confirm")
        self.run(STEP)

    def handle(self, changes: Sequence[Change]) -> None:
        """Lift what goes, slide what moves, place what comes, flip what turns, with pauses between."""
        removed = [c for c in changes if c.before is not None and c.after is None]
        added = [c for c in changes if c.before is None and c.after is not None]
        turned = [c for c in changes if c.before is not None and c.after is not None]
        self.rng.shuffle(removed)
        for change in turned:
            # The piece that turns up here may come from another turned location (a Trade): lift them all first.
            self.mock.lift(change.location)
            self.pause()
        for arrival in added:
            source = next((c for c in removed if c.before == arrival.after), None)
            if source is not None:
                removed.remove(source)
                self.mock.move(source.location, arrival.location, via=self.between(source.location, arrival.location))
            else:
                self.mock.place(arrival.location, arrival.after)
            self.pause()
        for change in removed:
            self.mock.lift(change.location)
            self.pause()
        for change in turned:
            self.mock.place(change.location, change.after)
            self.pause()

    def between(self, source: str, target: str) -> list[str]:
        """The empty locations a piece slid straight from ``source`` to ``target`` passes over, in order."""
        (x0, y0), (x1, y1) = self.where[source], self.where[target]
        length = math.dist((x0, y0), (x1, y1))
        passed = []
        for loc, (x, y) in self.where.items():
            if loc in (source, target) or loc in self.mock.contents or loc not in self.daemon.watched:
                continue
            t = ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / (length * length)
            if 0 < t < 1 and abs((x - x0) * (y1 - y0) - (y - y0) * (x1 - x0)) / length < 0.15 * length:
                passed.append((t, loc))
        return [loc for _, loc in sorted(passed)]


def expressible(state: State) -> list[Move]:
    """The moves a person can make on the board: those with no cheaper move of the same footprint."""
    footprints = {move: state.footprint(move) for move in state.legal_moves}
    cheapest: dict[tuple, int] = {}
    for footprint in footprints.values():
        cheapest[footprint.changes] = min(footprint.cost, cheapest.get(footprint.changes, footprint.cost))
    return [move for move, footprint in footprints.items()
            if not footprint.changes or footprint.cost == cheapest[footprint.changes]]


def pick(state: State, rng: random.Random) -> Move:
    """A random move a person can make (at a chance node: a roll by its probability)."""
    if state.is_chance_node():
        moves, weights = zip(*state.chance_outcomes())
        return rng.choices(moves, weights)[0]
    return rng.choice(expressible(state))
