"""What an accepted position gives the move tracker, built once per position.

An ``Expectation`` holds what each location should read, and every legal move as a
``Plan`` keyed by what it makes the sensors read (and a ``Takeback`` to the previous
position), so that ``firmware_host.tracker`` matches a changed board with a few set
operations however many moves there are.  Its ``Choices`` are what the board offers
while it waits: where a piece from the box may be placed, which pieces may be taken
off.  ``Expectation.unsure`` says what the sensors cannot check of a move (presence
sensors see a Pawns Crossing token, never its colour), for a person to confirm.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core import STACK, Change, Content, Footprint, Move, State, stack_pieces
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
    #: Those a legal move carries a piece from to another place (not only takes it off: a capture, an exit).
    carried: frozenset[str] = frozenset()
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
        carried: set[str] = set()
        stacks: set[str] = set()
        for plan in self.plans:
            if isinstance(plan.move, Takeback):
                continue
            todos = [Todo.of(change) for change in plan.footprint.changes if change.location in self.expected]
            seen = {location for location, _ in plan.reading}
            puts = [todo for todo in todos if todo.kind == "put"]
            removes = [todo for todo in todos if todo.kind == "remove"]
            movable |= {todo.location for todo in removes}
            if puts:
                carried |= {todo.location for todo in removes}
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
                       frozenset(carried | stacks), frozenset(stacks))

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

