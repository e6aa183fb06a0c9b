"""The move tracker: whole-board matching of the observed board against the legal moves' footprints.

Per accepted position it is given an ``Expectation`` (``firmware_host.expectation``),
built once: what each location should read, and every legal move as a ``Plan`` keyed
by what it makes the sensors read.  Per debounced change it updates only the changed
locations, so a scan costs a few set operations however many moves there are.  It
never guesses:

- a move is accepted when the board matches exactly one move's footprint (as far as
  the sensors can tell) for the settle time; moves with the same physical effect that
  differ only in cost resolve to the cheapest, and the note says so;
- moves the sensors cannot tell apart (or a move that is also a takeback) wait for
  the confirm button, with ``hint`` stepping through them; so does a move that would
  read the same made with other pieces the hand held (presence sensors see a Pawns
  Crossing token, never its colour): the plan then says what its places must hold
  (``Plan.unsure``), for the status to name;
- a move the sensors cannot see at all (a flip under reed switches, a Trade under
  presence sensing) is offered when the hand has touched its locations and the
  board is back in sync, again waiting for confirm; a bump put back changes
  nothing without that button, and a confirm pressed while the bump is under way
  is kept: it makes the move if the board comes back to the same offer;
- the previous position put back is a takeback, unless it only lifts pieces that a
  legal move may still carry on (the piece a placement put down, lifted to move on);
- a lifted piece that no legal move takes is a dead end, shown at once; a board that
  matches nothing and holds still for the settle time shows its fixes, and after
  ``out_of_sync`` seconds it is out of sync; after an undo, a new game or a restart it
  shows them at once (restoring), and accepts no move until the board matches the game
  again.

While the board waits it shows where a piece from the box may be placed and which
pieces may be taken off; once the possible moves agree on what is left to do (the
piece put down, a capture still to take off, a flip an analog sensor can see) that is
a list of ``Todo`` for the LEDs and the status.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum

from engine.core import Move, stack_pieces
from engine.geometry import Coord
from firmware_host.expectation import Expectation, Plan, Takeback
from firmware_host.fixes import Fix, board_fixes
from firmware_host.todo import Todo
from wiring.model import Observation


class Status(str, Enum):
    READY = "ready"  # the board matches the game
    MOVING = "moving"  # pieces lifted or moved, some legal move still possible
    SETTLING = "settling"  # the board shows one move; it must hold still for the settle time
    CONFIRM = "confirm"  # moves the sensors cannot tell apart await the confirm button
    UNMATCHED = "unmatched"  # matches nothing, not yet for long
    OUT_OF_SYNC = "out_of_sync"  # matched nothing for a while: the fixes are shown
    RESTORING = "restoring"  # after an undo, new game or restart: put the position back


@dataclass(frozen=True)
class TrackerView:
    """What the tracker has to show: the presenter lights it, the snapshot reports it."""

    status: Status
    lifted: frozenset[str] = frozenset()
    destinations: frozenset[str] = frozenset()
    removals: frozenset[str] = frozenset()
    candidates: tuple[Plan, ...] = ()
    selected: int = 0
    fixes: tuple[Fix, ...] = ()
    note: str = ""
    #: What is left of the move under way once every possible move agrees on it.
    todo: tuple[Todo, ...] = ()
    #: Lifted pieces that no legal move takes: put them back.
    dead_ends: frozenset[str] = frozenset()


@dataclass
class _Timers:
    changed: float = 0.0  # when the board last changed
    unmatched_since: float | None = None


class MoveTracker:
    """Follows the observed board between accepted positions and says when a move is made."""

    def __init__(self, where: Mapping[str, Coord], settle: float, out_of_sync: float) -> None:
        self.where = where
        self.settle = settle
        self.out_of_sync = out_of_sync
        self.expectation: Expectation | None = None
        self.observed: dict[str, Observation] = {}
        self.differing: set[str] = set()
        self._touched: set[str] = set()
        #: Moves the sensors cannot see, offered for confirmation: they wait until a move is made.
        self._waiting: TrackerView | None = None
        #: The offer a disturbance (a bump) interrupted, a confirm pressed meanwhile, and the plan it made.
        self._interrupted: TrackerView | None = None
        self._armed: Move | None = None
        self._confirmed: Plan | None = None
        self._restoring = False
        self._timers = _Timers()
        self._view = TrackerView(Status.READY)

    # -- inputs ------------------------------------------------------------------------

    def expect(self, expectation: Expectation, observed: Mapping[str, Observation], now: float,
               restoring: bool = False) -> None:
        """A new position to follow (after a move, an undo, a new game or a restart)."""
        self.expectation = expectation
        self.observed = {loc: observed.get(loc) for loc in expectation.expected}
        self.differing = {loc for loc, value in self.observed.items() if value != expectation.expected[loc]}
        self._touched = set()
        self._waiting = None
        self._interrupted = self._armed = self._confirmed = None
        self._restoring = restoring and bool(self.differing)
        self._timers = _Timers(changed=now)
        self._view = self._classify(now)

    def observe(self, changes: Mapping[str, Observation], now: float) -> None:
        """Debounced changes of the board: update the differing locations and what they may mean."""
        expected = self.expectation.expected
        touched = False
        for location, value in changes.items():
            if location not in expected:
                continue
            self.observed[location] = value
            touched = True
            if value == expected[location]:
                self.differing.discard(location)
            else:
                self.differing.add(location)
                self._touched.add(location)
        if touched:
            self._timers.changed = now
            before, self._view = self._view, self._classify(now)
            self._follow_offer(before)

    def hold(self, now: float) -> None:
        """The board may have changed unseen (the sensors could not see it): nothing is taken on what was seen before.

        A settling move must hold still for the settle time from ``now``, and a kept
        confirm press is forgotten.
        """
        self._timers.changed = now
        self._interrupted = self._armed = self._confirmed = None

    def poll(self, now: float) -> Plan | None:
        """The move to accept now (settled and unambiguous, or confirmed), if any; also moves the timers on."""
        view = self._view
        if self._confirmed is not None:
            return self._confirmed
        if view.status is Status.SETTLING and now - self._timers.changed >= self.settle:
            return view.candidates[0]
        if view.status is Status.UNMATCHED:
            if now - self._timers.unmatched_since >= self.out_of_sync:
                self._view = self._with_fixes(Status.OUT_OF_SYNC)
                self._interrupted = self._armed = None
            elif not view.fixes and now - self._timers.changed >= self.settle:  # held still: it is a mistake
                self._view = replace(view, fixes=self._with_fixes(Status.UNMATCHED).fixes)
        return None

    def confirm(self) -> Plan | None:
        """The confirm button: the selected candidate, when some await confirmation.

        Pressed while a disturbance interrupts an offer, the press is kept (``armed``)
        and makes the move if the board comes back to that offer.
        """
        view = self._view
        if view.status is Status.CONFIRM:
            return view.candidates[view.selected]
        if self._interrupted is not None:
            self._armed = self._interrupted.candidates[self._interrupted.selected].move
        return None

    @property
    def armed(self) -> bool:
        """Whether a confirm press waits for a disturbed offer to come back."""
        return self._armed is not None

    def _follow_offer(self, before: TrackerView) -> None:
        """Remember the offer a disturbance interrupts; when the board settles, a kept press confirms it."""
        self._confirmed = None
        view = self._view
        if view.status in (Status.UNMATCHED, Status.MOVING):
            if before.status is Status.CONFIRM:
                self._interrupted = before
            return
        armed, self._interrupted, self._armed = self._armed, None, None
        if view.status is Status.CONFIRM and armed is not None:
            for index, plan in enumerate(view.candidates):
                if plan.move == armed:
                    self._view = replace(view, selected=index)
                    self._confirmed = plan

    def next_candidate(self) -> bool:
        """The hint button while candidates wait: select the next; False when none wait."""
        view = self._view
        if view.status is not Status.CONFIRM or len(view.candidates) < 2:
            return False
        self._view = replace(view, selected=(view.selected + 1) % len(view.candidates))
        if self._waiting is view:
            self._waiting = self._view
        return True

    @property
    def view(self) -> TrackerView:
        return self._view

    @property
    def touched(self) -> frozenset[str]:
        """The locations the hand was seen at since the board was last as the game expects."""
        return frozenset(self._touched)

    @property
    def waiting(self) -> bool:
        """Whether time alone can change the view (settling, or counting towards out of sync)."""
        return self._view.status in (Status.SETTLING, Status.UNMATCHED)

    # -- classification ------------------------------------------------------------------

    def _classify(self, now: float) -> TrackerView:
        differing = self.differing
        if not differing:
            self._restoring = False
            self._timers.unmatched_since = None
            return self._in_sync()
        if self._restoring:
            return self._with_fixes(Status.RESTORING)
        expectation = self.expectation
        matches = expectation.by_reading.get(frozenset((loc, self.observed[loc]) for loc in differing))
        if matches and not self._in_hand(matches):
            self._timers.unmatched_since = None
            return self._matched(matches)
        possible = self._possible()
        if possible:
            self._timers.unmatched_since = None
            return self._moving(possible)
        if self._view.status is Status.OUT_OF_SYNC:
            return self._with_fixes(Status.OUT_OF_SYNC)
        if self._timers.unmatched_since is None:
            self._timers.unmatched_since = now
        lifted = frozenset(loc for loc in differing if self.observed[loc] is None)
        dead_ends = frozenset(loc for loc in lifted if all(isinstance(plan.move, Takeback)
                                                            for plan in expectation.touching.get(loc, ())))
        return TrackerView(Status.UNMATCHED, lifted=lifted, dead_ends=dead_ends)

    def _in_sync(self) -> TrackerView:
        """Back in sync: offer the invisible moves within the locations the hand touched, then forget the touch.

        A neighbour bumped on the way may have been touched too, so the moves that
        explain most of the touch come first (confirm makes the first unless hint steps on).
        Once offered they wait, through bumps put back, until a move is made.
        """
        touched = frozenset(self._touched)
        if touched:
            unseen = tuple(sorted((self._checked(plan) for plan in self.expectation.invisible
                                   if plan.locations <= touched),
                                  key=lambda plan: (-len(plan.locations), str(plan.move))))
            if unseen:
                self._waiting = TrackerView(Status.CONFIRM, candidates=unseen,
                                            note="the sensors cannot see this move: press confirm to make it")
        self._touched = set()
        choices = self.expectation.choices
        return self._waiting or TrackerView(Status.READY, destinations=choices.places, removals=choices.takeoffs)

    def _matched(self, matches: list[Plan]) -> TrackerView:
        """One move settles; the cheapest of equal footprints settles; anything else (a takeback too, a piece
        that could be another of its stack) is confirmed."""
        matches = [self._checked(plan) for plan in matches]
        takebacks = [plan for plan in matches if isinstance(plan.move, Takeback)]
        distinct = {plan.footprint.changes for plan in matches}
        unsure = any(plan.unsure for plan in matches)
        if len(distinct) == 1 and (not takebacks or len(matches) == 1) and not unsure:
            cheapest = min(matches, key=lambda plan: plan.footprint.cost)
            tied = [plan for plan in matches if plan.footprint.cost == cheapest.footprint.cost]
            if len(tied) == 1:
                note = ""
                if len(matches) > 1:
                    others = ", ".join(str(plan.move) for plan in matches if plan is not cheapest)
                    note = f"took {cheapest.move}, the cheapest of the moves that look the same ({others})"
                return TrackerView(Status.SETTLING, candidates=(cheapest,), note=note)
        moves = sorted((plan for plan in matches if not isinstance(plan.move, Takeback)),
                       key=lambda plan: str(plan.move))
        note = ("the sensors cannot tell these pieces apart: confirm said which is where" if unsure
                else "several moves look the same to the sensors: hint picks, confirm makes it")
        return TrackerView(Status.CONFIRM, candidates=(*moves, *takebacks), note=note)

    def _checked(self, plan: Plan) -> Plan:
        """The plan with what the sensors cannot check of it, now that the hand touched what it did."""
        unsure = self.expectation.unsure(plan.footprint, frozenset(self._touched))
        return replace(plan, unsure=unsure) if unsure else plan

    def _in_hand(self, matches: list[Plan]) -> bool:
        """Whether a board that reads as a takeback is rather a piece lifted on its way somewhere.

        Taking back a placement only lifts pieces, which is also how the next move of
        the placed piece begins; while such a move is possible, the hand is moving, and
        the undo button is the way to take the placement back.
        """
        return (all(isinstance(plan.move, Takeback) for plan in matches)
                and all(after is None for plan in matches for _, after in plan.reading)
                and any(not isinstance(plan.move, Takeback) for plan in self._possible()))

    def _possible(self) -> list[Plan]:
        """Moves still possible: each differing location is part of the move and reads its after, or is in the hand."""
        touching = self.expectation.touching
        differing = iter(self.differing)
        first = next(differing)
        candidates = touching.get(first, [])
        for location in differing:
            if not candidates:
                return []
            others = {id(plan) for plan in touching.get(location, ())}
            candidates = [plan for plan in candidates if id(plan) in others]
        observed = self.observed
        return [plan for plan in candidates
                if all(observed[loc] is None or (loc, observed[loc]) in plan.reading for loc in self.differing)]

    def _moving(self, possible: list[Plan]) -> TrackerView:
        """Where the possible moves may still end and what they take; what is left to do, once they agree on it."""
        observed = self.observed
        destinations: set[str] = set()
        removals: set[str] = set()
        left: set[frozenset[tuple[str, Observation]]] = set()
        lifted = frozenset(loc for loc in self.differing if observed[loc] is None)
        expected = self.expectation.expected
        for plan in possible:
            seen = {location for location, _ in plan.reading}
            remaining = frozenset((location, after) for location, after in plan.reading if observed[location] != after)
            # A stack lifted whole to move a piece of it: the rest goes back, a change the sensors cannot see.
            remaining |= {(location, expected[location]) for location in lifted if location not in seen}
            left.add(remaining)
            for location, after in remaining:
                (destinations if after is not None else removals).add(location)
        todo: tuple[Todo, ...] = ()
        if len(left) == 1:
            remaining_locations = {location for location, _ in next(iter(left))}
            seen = {location for location, _ in possible[0].reading}
            todo = tuple(Todo.of(change) if change.location in seen else self._back(change.location, possible)
                         for change in possible[0].footprint.changes if change.location in remaining_locations)
        return TrackerView(Status.MOVING, lifted=lifted, destinations=frozenset(destinations - lifted),
                           removals=frozenset(removals), todo=todo)

    @staticmethod
    def _back(location: str, possible: list[Plan]) -> Todo:
        """What goes on a stack lifted whole: what every possible move leaves there, or else "the rest"."""
        after = {plan.footprint.after()[location] for plan in possible}
        return Todo("put", location, tuple(stack_pieces(after.pop())) if len(after) == 1 else ())

    def _with_fixes(self, status: Status) -> TrackerView:
        expectation = self.expectation
        fixes = board_fixes(self.differing, self.observed, expectation.expected, expectation.contents, self.where)
        return TrackerView(status, fixes=fixes)
