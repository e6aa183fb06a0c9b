"""The move tracker: whole-board matching of the observed board against the legal moves' footprints.

Per accepted position it builds an ``Expectation`` once: what each location should
read, and every legal move as a ``Plan`` keyed by what it makes the sensors read.  Per
debounced change it updates only the changed locations, so a scan costs a few set
operations however many moves there are.  It never guesses:

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

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from engine.core import STACK, Change, Content, Footprint, Move, State, stack_pieces
from engine.geometry import Coord
from firmware_host.fixes import Fix, board_fixes
from firmware_host.todo import Todo
from wiring.model import Observation, Wiring

#: (location, observation) pairs: what a move makes the sensors read where they change.
Reading = frozenset[tuple[str, Observation]]


@dataclass(frozen=True)
class Takeback(Move):
    """Putting the previous position back: undo the last ``plies`` history entries."""

    plies: int

    def __str__(self) -> str:
        return "takeback"


@dataclass(frozen=True)
class Plan:
    """A move as the sensors see it."""

    move: Move
    footprint: Footprint
    #: The locations whose reading the move changes, with their reading after it.
    reading: Reading
    #: Every location the move changes, seen by the sensors or not.
    locations: frozenset[str]
    #: What the sensors cannot check, as what each place must hold (a person confirms it): filled in
    #: when the move is offered, from ``Expectation.unsure``.
    unsure: tuple[Todo, ...] = ()

    @classmethod
    def unseen(cls, state: State, move: Move) -> Plan:
        """A move made by a button, the dice or its notation: nothing for the sensors to read."""
        return cls(move, state.footprint(move), frozenset(), frozenset())


class Status(str, Enum):
    READY = "ready"  # the board matches the game
    MOVING = "moving"  # pieces lifted or moved, some legal move still possible
    SETTLING = "settling"  # the board shows one move; it must hold still for the settle time
    CONFIRM = "confirm"  # moves the sensors cannot tell apart await the confirm button
    UNMATCHED = "unmatched"  # matches nothing, not yet for long
    OUT_OF_SYNC = "out_of_sync"  # matched nothing for a while: the fixes are shown
    RESTORING = "restoring"  # after an undo, new game or restart: put the position back


@dataclass(frozen=True)
class Choices:
    """What the board offers while it waits: places for pieces from the box, captures, pieces that can move."""

    #: Where a piece from the box may be put, and which pieces.
    places: frozenset[str] = frozenset()
    from_box: frozenset[str] = frozenset()
    #: The pieces a move only takes off (a capture to choose, an exit).
    takeoffs: frozenset[str] = frozenset()
    #: The locations a legal move takes a piece from.
    movable: frozenset[str] = frozenset()
    #: Stacks a legal move takes a piece off while others stay: the sensors see that only if the whole
    #: stack is lifted (then the places its pieces may go light up).
    stacks: frozenset[str] = frozenset()


class Expectation:
    """What the sensors should read now, and every way the board may change from here."""

    def __init__(self, state: State, wiring: Wiring, takeback: tuple[int, Mapping[str, Content]] | None = None,
                 locations: frozenset[str] | None = None, only: Sequence[Move] | None = None) -> None:
        """``only``: the moves accepted here (a move decided elsewhere), None for every legal move."""
        self.contents = state.contents()
        self.wiring = wiring
        watched = locations if locations is not None else frozenset(self.contents)
        self.expected: dict[str, Observation] = {loc: wiring.expected(self.contents.get(loc)) for loc in watched}
        self.plans: list[Plan] = []
        self.buttons: dict[str, Move] = {}
        self.unseen: list[Move] = []  # empty footprint, no button: offered by their text
        if not state.is_chance_node() and not state.is_terminal():
            for move in state.legal_moves if only is None else only:
                footprint = state.footprint(move)
                if footprint.changes:
                    self.plans.append(self._plan(move, footprint, wiring))
                elif move.button and move.button not in self.buttons:
                    self.buttons[move.button] = move
                else:
                    self.unseen.append(move)
        if takeback:
            plies, previous = takeback
            back = Footprint.between(self.contents, previous)
            if back.changes:
                self.plans.append(self._plan(Takeback(plies), back, wiring))
        self.choices = self._choices()
        self.by_reading: dict[Reading, list[Plan]] = {}
        self.touching: dict[str, list[Plan]] = {}
        self.invisible: list[Plan] = []
        for plan in self.plans:
            if not plan.reading:
                self.invisible.append(plan)
                continue
            self.by_reading.setdefault(plan.reading, []).append(plan)
            for location in plan.locations:
                self.touching.setdefault(location, []).append(plan)

    def _choices(self) -> Choices:
        """What the board offers while it waits: where a piece may be put, which pieces a move only takes off."""
        places: set[str] = set()
        pieces: set[str] = set()
        takeoffs: set[str] = set()
        movable: set[str] = set()
        stacks: set[str] = set()
        for plan in self.plans:
            if isinstance(plan.move, Takeback):
                continue
            todos = [Todo.of(change) for change in plan.footprint.changes if change.location in self.expected]
            seen = {location for location, _ in plan.reading}
            puts = [todo for todo in todos if todo.kind == "put"]
            removes = [todo for todo in todos if todo.kind == "remove"]
            movable |= {todo.location for todo in removes}
            stacks |= {todo.location for todo in todos
                       if todo.kind in ("remove", "restack") and todo.location not in seen}
            net = sum(len(stack_pieces(change.after)) - len(stack_pieces(change.before))
                      for change in plan.footprint.changes if change.location in self.expected)
            if net > 0:
                places |= {todo.location for todo in puts}
                pieces |= {piece for todo in puts for piece in todo.pieces}
            elif net < 0 and not puts:
                takeoffs |= {todo.location for todo in removes}
        return Choices(frozenset(places), frozenset(pieces), frozenset(takeoffs), frozenset(movable | stacks),
                       frozenset(stacks))

    def _plan(self, move: Move, footprint: Footprint, wiring: Wiring) -> Plan:
        reading = frozenset((c.location, after) for c in footprint.changes
                            if c.location in self.expected
                            and (after := wiring.expected(c.after)) != self.expected[c.location])
        return Plan(move, footprint, reading, frozenset(footprint.locations))

    def unsure(self, footprint: Footprint, touched: frozenset[str] = frozenset()) -> tuple[Todo, ...]:
        """The places a move leaves holding what the sensors cannot check, as what each must hold.

        Presence sensors see that a place holds a piece, never which (nor how many on a
        Pawns Crossing stack): a token of the wrong colour put where only another colour's
        may go reads as that move.  So where the hand held pieces of several kinds (the
        move carries several, takes one off a stack lifted whole, or the hand ``touched``
        other stacks), each place a piece arrives that would read the same with another
        of them is unsure, with the stacks it came off that read the same whichever piece
        left; and so are the touched stacks the move leaves as they were.  A move that
        puts nothing down is unsure where its loss reads the same.  Where every arriving
        piece is told apart (analog sensors, a lone token) the stacks it came off are too.
        """
        changes = [change for change in footprint.changes if change.location in self.expected]
        others = [location for location in sorted(touched - set(footprint.locations))
                  if len(stack_pieces(self.contents.get(location))) > 1]
        if not others and _one_kind_in_hand(changes):
            return ()
        sources = [change for change in changes if _lost(change)]
        carried = Counter(piece for change in sources for piece in _lost(change)) & Counter(
            piece for change in changes for piece in _gained(change))
        in_hand = set(carried) | {piece for change in sources if len(stack_pieces(change.before)) > 1
                                  for piece in stack_pieces(change.before)}
        in_hand |= {piece for location in others for piece in stack_pieces(self.contents[location])}
        targets = {change.location for change in changes
                   if any(_reads_alike(self.wiring, change, piece, other)
                          for piece in _gained(change) for other in in_hand - {piece})}
        stacks = {change.location for change in sources
                  if self.wiring.expected(change.after) == self.expected[change.location]
                  or any(_reads_alike(self.wiring, change, kept, piece)
                         for kept in set(stack_pieces(change.before)) & set(stack_pieces(change.after))
                         for piece in set(_lost(change)) - {kept})}
        unsure = targets | stacks if targets or not any(_gained(change) for change in changes) else set()
        return tuple(Todo("restack", change.location, tuple(stack_pieces(change.after)))
                     for change in changes if change.location in unsure) + tuple(
            Todo("restack", location, tuple(stack_pieces(self.contents[location]))) for location in others)


def _one_kind_in_hand(changes: Sequence[Change]) -> bool:
    """Whether a move of lone pieces (no stack) carries pieces of one kind at most: each is then known by
    the place it left (the common case, checked first: a position has hundreds of moves)."""
    if any(STACK in (change.before or "") or STACK in (change.after or "") for change in changes):
        return False
    arriving = {change.after for change in changes if change.after}
    return len({change.before for change in changes if change.before in arriving}) < 2


def _lost(change: Change) -> list[str]:
    """The pieces a change takes off its place."""
    return list((Counter(stack_pieces(change.before)) - Counter(stack_pieces(change.after))).elements())


def _gained(change: Change) -> list[str]:
    """The pieces a change puts on its place."""
    return list((Counter(stack_pieces(change.after)) - Counter(stack_pieces(change.before))).elements())


def _reads_alike(wiring: Wiring, change: Change, piece: str, instead: str) -> bool:
    """Whether the sensors read a change's result the same with one ``piece`` there replaced by ``instead``."""
    pieces = stack_pieces(change.after)
    pieces.remove(piece)
    return wiring.expected(STACK.join(sorted([*pieces, instead]))) == wiring.expected(change.after)


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
