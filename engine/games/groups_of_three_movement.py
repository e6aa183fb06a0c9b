"""The Groups-of-Three movement, shared with the Full House puzzle: the moves (steps, adds, the
end of a turn) and ``CompartmentState``, pieces in compartments moved by those rules.

Occupancy is kept both per compartment (the colour) and as one integer bitmask, so the add
test is a few bit operations and a snapshot is a few tuples.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from engine.bitsets import mask_of, members
from engine.board import CENTER
from engine.core import Change, Content, Footprint, Game, Move, PositionError, State
from engine.games.groups_of_three_layout import load_layout

#: The position keys of the pieces' movement, shared with the Full House puzzle.
MOVEMENT_KEYS = ("pieces", "reserve", "borne_off", "pending_adds")
#: Steps available when nothing limits them (the Full House puzzle).
UNLIMITED = sys.maxsize


# -- moves ---------------------------------------------------------------------


@dataclass(frozen=True)
class Step(Move):
    """A piece crosses a shared side (``f33-f49``); into the centre it is borne off (``f1-center``)."""

    source: str
    target: str

    def __str__(self) -> str:
        return f"{self.source}-{self.target}"


@dataclass(frozen=True)
class Add(Move):
    """A reserve piece onto the empty compartment of a group just entered (``+f64``), free."""

    target: str

    def __str__(self) -> str:
        return f"+{self.target}"


@dataclass(frozen=True)
class EndTurn(Move):
    """The mover ends the turn; steps left over lapse."""

    button: ClassVar[str | None] = "end_turn"

    def __str__(self) -> str:
        return "end"


@cache
def move_tables() -> tuple[tuple[dict[int, Step], ...], tuple[Add, ...]]:
    """Every step (by source, then target) and every add (by compartment) of the layout, made once:
    listing the moves hands them out."""
    layout = load_layout()
    faces = layout.faces
    return (tuple({target: Step(faces[source], faces[target]) for target in layout.adjacent[source]}
                  for source in range(len(faces))),
            tuple(Add(face) for face in faces))


@cache
def neighbour_masks() -> tuple[int, ...]:
    """Each compartment's neighbours as a bitset."""
    return tuple(mask_of(near) for near in load_layout().adjacent)


@cache
def known_steps() -> tuple[dict[int, tuple[Step, ...]], ...]:
    """Per source compartment: its steps by (its neighbours' occupancy << 2 | may bear off << 1 |
    may cross a transit space), as met: at most a few hundred keys a compartment."""
    return tuple({} for _ in load_layout().faces)


# -- the shared movement -------------------------------------------------------------


class CompartmentState(State):
    """Pieces in compartments, moved by the Groups-of-Three rules: steps, transit, adds.

    Subclasses say which colour moves (``_mover``), how many steps it has left
    (``_steps_left``) and whether bearing off is allowed (``bear_off``).
    """

    bear_off: ClassVar[bool] = True
    #: While a colour has reserve pieces, bearing off may not leave it fewer than this on the board.
    keep_on_board: ClassVar[int] = 2

    def __init__(self, game: Game, colours: tuple[str, ...]) -> None:
        super().__init__(game)
        self.layout = load_layout()
        self.colours = colours
        #: Piece code by colour index, with None last so that an empty cell (-1) reads None.
        self._codes: tuple[Content, ...] = (*colours, None)
        self.cells: list[int] = [-1] * len(self.layout.faces)  # colour index, -1 when empty
        self.occupied = 0
        self.on_board = [0] * len(colours)
        self.reserve = [0] * len(colours)
        self.borne_off = [0] * len(colours)
        #: Compartments a reserve piece may still be added to, after the last step.
        self.pending: tuple[int, ...] = ()
        #: The transit space holding the piece that must step out next, or -1.
        self.transit = -1

    # -- subclass hooks ----------------------------------------------------------

    def _mover(self) -> int:
        """The colour index moving now (meaningful only where moves are generated)."""
        raise NotImplementedError

    def _steps_left(self) -> int:
        raise NotImplementedError

    # -- movement ----------------------------------------------------------------

    def _place_pieces(self, colour: int, compartments: tuple[int, ...]) -> None:
        for i in compartments:
            self.cells[i] = colour
            self.occupied |= 1 << i
            self.on_board[colour] += 1

    def _may_bear_off(self, colour: int) -> bool:
        return self.bear_off and (not self.reserve[colour] or self.on_board[colour] > self.keep_on_board)

    def _exits(self, source: int, colour: int, steps_left: int) -> list[int]:
        """Where the piece in ``source`` may step with ``steps_left`` steps to go."""
        return self._step_targets(colour, steps_left)(source)

    def _step_targets(self, colour: int, steps_left: int) -> Callable[[int], list[int]]:
        """``_exits`` for any source, with what the position decides for every source worked out once."""
        layout, occupied, bear_off = self.layout, self.occupied, self._may_bear_off(colour)
        center, transit, adjacent, may_cross = layout.center, layout.transit, layout.adjacent, steps_left >= 2
        return lambda source: [target for target in adjacent[source]
                               if (bear_off if target == center
                                   else not occupied >> target & 1 and (may_cross or target not in transit))]

    def _movement(self) -> Iterator[Move]:
        """Adds still open, then steps: only out of the transit space while a piece is in one."""
        colour, (steps, adds) = self._mover(), move_tables()
        if self.reserve[colour]:
            yield from [adds[i] for i in self.pending]
        steps_left = self._steps_left()
        if steps_left <= 0:
            return
        cells, occupied, targets = self.cells, self.occupied, self._step_targets(colour, steps_left)
        near, known = neighbour_masks(), known_steps()
        # a source's steps follow from its neighbours' occupancy and the two flags alone
        flags = self._may_bear_off(colour) << 1 | (steps_left >= 2)
        sources = (self.transit,) if self.transit >= 0 else (
            i for i in members(occupied) if cells[i] == colour)
        for source in sources:
            key = (occupied & near[source]) << 2 | flags
            found = known[source].get(key)
            if found is None:
                row = steps[source]
                found = known[source][key] = tuple(row[target] for target in targets(source))
            yield from found

    def _play_step(self, move: Step) -> None:
        layout = self.layout
        source, target = layout.index[move.source], layout.index[move.target]
        colour = self.cells[source]
        self.cells[source] = -1
        self.occupied &= ~(1 << source)
        if target == layout.center:
            self.on_board[colour] -= 1
            self.borne_off[colour] += 1
        else:
            self.cells[target] = colour
            self.occupied |= 1 << target
        self.transit = target if target in layout.transit else -1
        self.pending = layout.add_targets(self.occupied, target)

    def _play_add(self, move: Add) -> None:
        target, colour = self.layout.index[move.target], self._mover()
        self.reserve[colour] -= 1
        self._place_pieces(colour, (target,))
        self.pending = tuple(i for i in self.pending if i != target)

    def footprint(self, move: Move) -> Footprint:
        if isinstance(move, Step):
            piece = self.colours[self.cells[self.layout.index[move.source]]]
            changes = [Change(move.source, piece, None)]
            if move.target != CENTER:
                changes.append(Change(move.target, None, piece))
            return Footprint(tuple(changes), cost=1)
        if isinstance(move, Add):
            return Footprint((Change(move.target, None, self.colours[self._mover()]),))
        return Footprint()

    def contents(self) -> dict[str, Content]:
        return dict(zip(self.layout.faces, map(self._codes.__getitem__, self.cells)))

    # -- snapshots -----------------------------------------------------------------

    def _snapshot(self) -> Any:
        return (tuple(self.cells), self.occupied, tuple(self.on_board), tuple(self.reserve),
                tuple(self.borne_off), self.pending, self.transit)

    def _restore(self, snapshot: Any) -> None:
        cells, self.occupied, on_board, reserve, borne_off, self.pending, self.transit = snapshot
        self.cells, self.on_board, self.reserve, self.borne_off = (
            list(cells), list(on_board), list(reserve), list(borne_off))

    # -- positions ---------------------------------------------------------------------

    def _movement_position(self) -> dict[str, Any]:
        faces, colours = self.layout.faces, self.colours
        return {
            "pieces": {faces[i]: colours[self.cells[i]] for i in members(self.occupied)},
            "reserve": dict(zip(colours, self.reserve)),
            "borne_off": dict(zip(colours, self.borne_off)),
            "pending_adds": [faces[i] for i in self.pending],
        }

    def _load_movement(self, position: dict[str, Any], pieces_per_colour: int) -> None:
        """Set pieces, reserves and pending adds from a position, checking each value."""
        layout, colour_index = self.layout, {c: k for k, c in enumerate(self.colours)}
        pieces = position.get("pieces")
        if not isinstance(pieces, dict):
            raise PositionError('position: "pieces" must map compartments (f1..f96) to piece codes')
        for face, piece in pieces.items():
            if face not in layout.index or face == CENTER:
                raise PositionError(f"position: pieces: {face!r} is not a compartment a piece may stand "
                                    f"in (f1..f{len(layout.faces) - 1})")
            if piece not in colour_index:
                raise PositionError(f"position: pieces: {face}: {piece!r} is not one of "
                                    f"{', '.join(self.colours)}")
            self._place_pieces(colour_index[piece], (layout.index[face],))
        for key, counts in (("reserve", self.reserve), ("borne_off", self.borne_off)):
            raw = position.get(key)
            if not isinstance(raw, dict) or sorted(raw) != sorted(self.colours):
                raise PositionError(f'position: "{key}" must give a count for each of {", ".join(self.colours)}')
            for colour, count in raw.items():
                if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                    raise PositionError(f"position: {key}: {colour}: {count!r} is not a count")
                counts[colour_index[colour]] = count
        for k, colour in enumerate(self.colours):
            total = self.on_board[k] + self.reserve[k] + self.borne_off[k]
            if total != pieces_per_colour:
                raise PositionError(f"position: {colour} has {total} pieces (board {self.on_board[k]}, reserve "
                                    f"{self.reserve[k]}, borne off {self.borne_off[k]}); it must have "
                                    f"{pieces_per_colour}")
        in_transit = [layout.faces[i] for i in layout.transit if self.cells[i] >= 0]
        if len(in_transit) > 1:
            raise PositionError(f"position: pieces rest in transit spaces {', '.join(sorted(in_transit))}; "
                                f"only the piece crossing one may be there")
        self.transit = layout.index[in_transit[0]] if in_transit else -1
        pending = position.get("pending_adds", [])
        if not isinstance(pending, list) or any(
                face not in layout.index or layout.index[face] in layout.no_rest
                or self.occupied >> layout.index[face] & 1 for face in pending):
            raise PositionError(f"position: pending_adds {pending!r} must list empty compartments "
                                f"where a piece may rest")
        self.pending = tuple(layout.index[face] for face in pending)
