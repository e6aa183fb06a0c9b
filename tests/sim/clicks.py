"""A person at the simulator page: engine moves turned into the page's actions, and nothing else.

``hand_actions`` turns a move's footprint into clicks, flips, takes from the box and
drops, in an order the simulator's hands can carry out: a piece leaves its place
before another arrives there, a Trade is two lifts then two places, a piece changing
colour in place is turned over.  ``Player`` sends those actions to a ``SimSession``
on a ``ManualClock``, lets time pass as a hand does, answers a confirmation with
hint and confirm, and checks that the daemon accepted exactly the intended move.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Change, Move, State, stack_pieces
from firmware_host.sim import SimSession
from firmware_host.tracker import Status
from hal.clock import ManualClock
from tests.daemon.hands import expressible

Action = dict[str, Any]

#: Seconds between two actions of a hand: well inside the daemon's settle time.
HAND_PAUSE = 0.05
#: Seconds between two scans of the loop: two scans within a pause, so the debouncer sees every touch.
SCAN_PERIOD = 0.025
#: The longest a move may take to be accepted once the hand is off the board (noise included).
SETTLE_LIMIT = 3.0


@dataclass
class _Departure:
    """A piece leaving ``source``: to ``target``, or put away (None); ``held``: lifted, not yet placed."""

    piece: str
    source: str
    target: str | None
    held: bool = False


def _pieces(content: str | None) -> list[str]:
    return sorted(stack_pieces(content))


def _minus(pieces: list[str], others: list[str]) -> list[str]:
    return list((Counter(pieces) - Counter(others)).elements())


def hand_actions(changes: Sequence[Change], codes: Sequence[str], stacks: Callable[[str], bool]) -> list[Action]:
    """The page's actions that make ``changes`` on the board.

    ``codes`` are the game's piece codes in flip order; ``stacks(location)`` tells a
    location that holds several pieces, where a click with a piece in hand adds it and a
    click with none lifts the top piece (the last code in sorted order).  Pieces of a
    code are alike: one put away and its like taken from the box are the same to the game.
    """
    before = {c.location: _pieces(c.before) for c in changes}
    after = {c.location: _pieces(c.after) for c in changes}
    # A stack that stays occupied reads the same to a presence sensor, and only its top piece can be
    # lifted: the hand clears every such stack first (the sensors see them all touched at once) and
    # builds them up again last.
    restacked = [loc for loc, pieces in before.items() if stacks(loc) and pieces and after[loc]]
    actions: list[Action] = [action for loc in restacked for action in
                             [{"type": "click", "loc": loc}, {"type": "drop"}] * len(before[loc])]
    from_box = [(piece, loc) for loc in restacked for piece in after[loc]]
    rest = [loc for loc in before if loc not in restacked]
    leaving = {loc: _minus(before[loc], after[loc]) for loc in rest}
    arriving = {loc: _minus(after[loc], before[loc]) for loc in rest}
    # A piece that changes colour in place, its colour neither coming from nor going elsewhere, is turned over.
    for loc in rest:
        if not stacks(loc) and len(leaving[loc]) == len(arriving[loc]) == 1:
            old, new = leaving[loc][0], arriving[loc][0]
            turned = codes[(codes.index(old) + 1) % len(codes)] == new
            if turned and not any(old in pieces for pieces in arriving.values()) \
                    and not any(new in pieces for pieces in leaving.values()):
                actions.append({"type": "flip", "loc": loc})
                leaving[loc], arriving[loc] = [], []
    departures: list[_Departure] = []
    for loc, pieces in arriving.items():
        for piece in pieces:
            source = next((src for src, gone in leaving.items() if src != loc and piece in gone), None)
            if source is None:
                from_box.append((piece, loc))
            else:
                leaving[source].remove(piece)
                departures.append(_Departure(piece, source, loc))
    departures += [_Departure(piece, loc, None) for loc, gone in leaving.items() for piece in gone]
    carried, put_away = _carry_out(departures, {loc: list(before[loc]) for loc in rest}, stacks)
    actions += carried
    for piece, loc in put_away + from_box:
        actions += [{"type": "take", "piece": piece}, {"type": "click", "loc": loc}]
    return actions


def _carry_out(departures: list[_Departure], board: dict[str, list[str]],
               stacks: Callable[[str], bool]) -> tuple[list[Action], list[tuple[str, str]]]:
    """The actions that carry out ``departures``, and the (piece, location) arrivals left to take from the box.

    A piece is lifted from the top of its place and carried where it goes once nothing
    has still to leave there; moves come first, then pieces put away.  A cycle (a
    Trade) is broken by holding a piece while the others move or, where stacks are
    involved (a click on a stack with a piece in hand adds it there), by putting one
    away and taking its like from the box at the end.
    """
    actions: list[Action] = []
    from_box: list[tuple[str, str]] = []
    pending = list(departures)

    def free(location: str) -> bool:
        return not any(d.source == location and not d.held for d in pending)

    def lift(departure: _Departure) -> None:
        board[departure.source].remove(departure.piece)
        actions.append({"type": "click", "loc": departure.source})

    def on_top(departure: _Departure) -> bool:
        return not departure.held and board[departure.source][-1] == departure.piece

    while pending:
        ready = next((d for d in pending if d.held and free(d.target)), None) \
            or next((d for d in pending if d.target is not None and on_top(d) and free(d.target)), None)
        if ready is not None:
            if not ready.held:
                lift(ready)
            actions.append({"type": "click", "loc": ready.target})
            pending.remove(ready)
            continue
        away = next((d for d in pending if d.target is None and on_top(d)), None)
        if away is not None:
            lift(away)
            actions.append({"type": "drop"})
            pending.remove(away)
            continue
        cycle = next(d for d in pending if on_top(d))
        lift(cycle)
        if any(stacks(d.source) or (d.target is not None and stacks(d.target)) for d in pending):
            # A held piece would be stacked by the next click on a stack: put it away instead.
            actions.append({"type": "drop"})
            pending.remove(cycle)
            from_box.append((cycle.piece, cycle.target))
        else:
            cycle.held = True
    return actions, from_box


class Player:
    """Plays chosen moves on a ``SimSession`` through ``act`` only, checking each is accepted.

    A reference state follows the intended moves and the daemon's rolls: after every
    move the daemon's history must be exactly that, and the board must show it.
    """

    def __init__(self, session: SimSession, clock: ManualClock) -> None:
        self.session = session
        self.clock = clock
        self.reference = session.daemon.state.clone()
        self.start = len(session.daemon.state.history)
        #: How often each kind of action was sent (buttons by name): which paths a game went through.
        self.used: Counter[str] = Counter()

    def wait(self, seconds: float) -> None:
        """Leave the board alone for ``seconds``, the loop scanning every ``SCAN_PERIOD``."""
        for _ in range(max(1, round(seconds / SCAN_PERIOD))):
            self.clock.advance(SCAN_PERIOD)
            self.session.step()

    def settle(self, plies: int) -> None:
        """Wait, at most ``SETTLE_LIMIT`` seconds, until the daemon has taken a move or asks for confirmation.

        A person reads the board once the hand's effects have passed: a bumped piece has
        dropped back and the sensors read the pieces at rest.
        """
        daemon, mock = self.session.daemon, self.session.mock
        for _ in range(round(SETTLE_LIMIT / HAND_PAUSE)):
            self.wait(HAND_PAUSE)
            at_rest = all(seen == daemon.wiring.expected(mock.contents.get(loc))
                          for loc, seen in daemon.scanner.board().items()) and not daemon.scanner.debouncer.pending
            taken = len(daemon.state.history) > plies and not daemon.state.is_chance_node()
            if at_rest and (taken or daemon.tracker.view.status is Status.CONFIRM) and not daemon.tracker.waiting:
                return

    def ready(self) -> None:
        """Wait until the daemon sees the board set up as the game expects (and has rolled, if it must)."""
        daemon = self.session.daemon
        for _ in range(round(SETTLE_LIMIT / HAND_PAUSE)):
            if daemon.tracker.view.status is Status.READY and not daemon.state.is_chance_node():
                return
            self.wait(HAND_PAUSE)
        raise AssertionError(f"the daemon never got ready: {daemon.status_text()}")

    def act(self, action: Action) -> None:
        """One action of the hand, after a pause in which the loop scans the board."""
        self.wait(HAND_PAUSE)
        self.session.act(action)
        self.used[action["name"] if action["type"] == "button" else action["type"]] += 1

    def make(self, move: Move) -> None:
        """Make ``move`` as a person would, and see the daemon accept exactly it."""
        session = self.session
        daemon = session.daemon
        state = daemon.state
        plies = len(state.history)
        footprint = state.footprint(move)
        if footprint.changes:
            for action in hand_actions(footprint.changes, list(state.game.pieces), session.stacks):
                self.act(action)
        elif move.button and daemon.tracker.expectation.buttons.get(move.button) == move:
            self.act({"type": "button", "name": move.button})
        else:
            assert str(move) in daemon.snapshot()["moves"], f"{move} is not offered by its text"
            self.act({"type": "play", "text": str(move)})
        self.settle(plies)
        self.answer(move)
        self.settle(plies)
        self.check(move)

    def answer(self, move: Move) -> None:
        """If the daemon waits for confirmation, press hint until ``move`` is selected, then confirm."""
        view = self.session.daemon.tracker.view
        if view.status is not Status.CONFIRM:
            return
        names = [str(plan.move) for plan in view.candidates]
        assert str(move) in names, f"{move} is not among the candidates {names}"
        for _ in range((names.index(str(move)) - view.selected) % len(names)):
            self.act({"type": "button", "name": "hint"})
        self.act({"type": "button", "name": "confirm"})

    def check(self, move: Move) -> None:
        """The daemon took ``move`` and then only what it makes by itself; the board shows the new position."""
        session, reference = self.session, self.reference
        self.catch_up()
        done = len(reference.history)
        reference.push(move)
        self.catch_up()
        history = session.daemon.state.history[self.start:]
        assert history[done:] == reference.history[done:], (
            f"wanted {move}; the daemon: {session.daemon.status_text()}; took {[str(m) for m in history[done:]]}")
        assert not session.hand, f"pieces left in hand: {session.hand}"
        expected = {loc: piece for loc, piece in reference.contents().items() if piece is not None}
        assert dict(session.mock.contents) == expected

    def catch_up(self) -> None:
        """Follow the moves the daemon made by itself: rolls, and a computer's steps with nothing to carry
        out (Over-Pass's end)."""
        reference, seats = self.reference, self.session.daemon.seats
        history = self.session.daemon.state.history[self.start:]
        while len(history) > len(reference.history):
            move = history[len(reference.history)]
            if reference.is_chance_node():
                assert move in [outcome for outcome, _ in reference.chance_outcomes()], f"{move} is not a roll on offer"
            elif not seats[reference.current_player].computer or reference.footprint(move).changes:
                return
            reference.push(move)


Score = Callable[[State, Move], tuple[float, ...]]


def _distance(state: State, location: str) -> float:
    board = state.game.board
    return math.hypot(*getattr(board, "places", board.locations)[location].xy)


def outward(state: State, move: Move) -> tuple[int, float]:
    """Races to the edge and capture games: pieces the move takes off the board, then how far it carries pieces
    from the centre."""
    changes = state.footprint(move).changes
    off = sum(len(_pieces(c.before)) - len(_pieces(c.after)) for c in changes)
    return off, sum((len(_pieces(c.after)) - len(_pieces(c.before))) * _distance(state, c.location) for c in changes)


def _offered(state: State, move: Move, kind: str) -> int:
    """How many moves of type ``kind`` the position after ``move`` offers."""
    state.push(move)
    offered = 0 if state.is_chance_node() else sum(1 for m in state.legal_moves if type(m).__name__ == kind)
    state.pop()
    return offered


def bring_in_and_bear_off(state: State, move: Move) -> tuple[float, ...]:
    """Groups-of-Three: bear off, else bring a piece in, else step where a piece may be brought in, else inward."""
    off, outwards = outward(state, move)
    return max(off, 0), max(-off, 0), _offered(state, move, "Add"), -outwards


def preferring(*kinds: str, opening: str) -> Score:
    """Moves of the named types first, in that order, those opening a move of type ``opening`` first among them.

    Pawns Crossing: declare a token home, else move one onto a tile where it may be declared, else roll.
    """
    def score(state: State, move: Move) -> tuple[float, ...]:
        name = type(move).__name__
        if name not in kinds:
            return 0, 0
        return len(kinds) - kinds.index(name), _offered(state, move, opening)
    return score


class Greedy:
    """A seeded person: a move that ends the game if any, else mostly one that scores best, else any."""

    def __init__(self, score: Score, seed: int, greed: float = 0.9) -> None:
        self.score = score
        self.rng = random.Random(seed)
        self.greed = greed

    def __call__(self, state: State) -> Move:
        moves = expressible(state)
        ending = []
        for move in moves:
            state.push(move)
            if state.is_terminal():
                ending.append(move)
            state.pop()
        if ending:
            return self.rng.choice(ending)
        if self.rng.random() < self.greed:
            scores = {move: self.score(state, move) for move in moves}
            best = max(scores.values())
            moves = [move for move in moves if scores[move] == best]
        return self.rng.choice(moves)


class Script:
    """A person following a written solution (a puzzle solver's), move by move in notation."""

    def __init__(self, moves: Sequence[str]) -> None:
        self.moves = list(moves)

    def __call__(self, state: State) -> Move:
        return state.parse_move(self.moves[len(state.history)])
