"""Groups-of-Three: bring pieces in through T-shaped groups of compartments, then bear them off.

Pieces stand in the compartments of the Over-Pass board and step across shared sides
(never through a corner, never into an occupied compartment).  The four transit
triangles may be crossed, not rested in: entering costs one step, leaving another,
and a piece that entered one must leave it with its very next step.  A piece that
steps from one of the eight triangles around the Center Square into it is borne off.
Stepping into a compartment of a group-of-three whose other two compartments hold
exactly one piece lets the mover add a reserve piece to the empty one, free; the
adds are offered until the next step or the end of the turn.

The movement lives in ``CompartmentState`` (shared with the Full House puzzle);
``GroupsOfThreeState`` adds the dice, the turns and the colours.  Occupancy is kept
both per compartment (the colour) and as one integer bitmask, so the add test is a
few bit operations and a snapshot is a few tuples.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, ClassVar

from engine.bitsets import mask_of, members
from engine.board import CENTER, LineBoard
from engine.boards import BoardFileError, load_board, read_data
from engine.core import (CHANCE, TERMINAL, Change, Content, Footprint, Game, Move, Option, Outcome,
                         PositionError, State)
from engine.games.dice import ROLLS, Roll
from engine.games.pieces import DISPLAY, OVERPASS_COLOURS, seats
from engine.geometry import GeometryError

DATA_FILE = Path(__file__).parent / "data" / "groups_of_three.json"
PIECES_PER_COLOUR = 10
#: The position keys of the pieces' movement, shared with the Full House puzzle.
MOVEMENT_KEYS = ("pieces", "reserve", "borne_off", "pending_adds")
#: Steps available when nothing limits them (the Full House puzzle).
UNLIMITED = sys.maxsize


class LayoutFileError(BoardFileError):
    """The Groups-of-Three data file names a place that cannot be used."""


# -- the compartment network -----------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The compartments as index tables, built once: everything a step or an add reads.

    Compartment ``i`` is ``faces[i]``; sets of compartments are integer bitmasks.
    ``groups_at[i]`` lists, for each group-of-three containing ``i``, its other two.
    """

    faces: tuple[str, ...]
    index: dict[str, int]
    adjacent: tuple[tuple[int, ...], ...]
    center: int
    transit: frozenset[int]
    #: Where no piece may rest or be added: the Center Square and the transit spaces.
    no_rest: frozenset[int]
    groups: tuple[tuple[int, int, int], ...]
    groups_at: tuple[tuple[tuple[int, int], ...], ...]
    starts: dict[str, tuple[int, ...]]
    full_house_start: tuple[int, ...]

    def add_targets(self, occupied: int, entered: int) -> tuple[int, ...]:
        """The compartments a reserve piece may fill after a piece stepped into ``entered``.

        A group qualifies when exactly one of its other two compartments is occupied
        (the one just left counts as empty); the empty one is the target unless no
        piece may rest there.  Distinct groups give distinct targets.  A piece borne
        off never stands in the Center Square, so bearing off gives no add.
        """
        if entered == self.center:
            return ()
        targets: list[int] = []
        for a, b in self.groups_at[entered]:
            a_in, b_in = occupied >> a & 1, occupied >> b & 1
            if a_in != b_in:
                empty = b if a_in else a
                if empty not in self.no_rest and empty not in targets:
                    targets.append(empty)
        return tuple(targets)

    @property
    def max_adds_per_step(self) -> int:
        """The most reserve pieces one step can bring in (a search bound)."""
        return max(len(pairs) for i, pairs in enumerate(self.groups_at) if i != self.center)

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board's quarter turns and mirrors, the identity first, as permutations of the compartments; only
        those that keep every side, every group and where no piece may rest (a layout need not be symmetric)."""
        board = load_board("overpass")
        sides = {(i, j) for i, near in enumerate(self.adjacent) for j in near}
        groups = {frozenset(g) for g in self.groups}
        found = []
        for a, b, swap in itertools.product((1, -1), (1, -1), (False, True)):
            try:
                perm = []
                for face in self.faces:
                    x, y = board.centre if face == CENTER else board.places[face].xy
                    x, y = (y, x) if swap else (x, y)
                    perm.append(self.index[board.face_at((a * x, b * y))])
            except GeometryError:
                continue
            if (len(set(perm)) == len(perm) and {(perm[i], perm[j]) for i, j in sides} == sides
                    and {frozenset(perm[c] for c in g) for g in groups} == groups
                    and {perm[c] for c in self.no_rest} == self.no_rest):
                found.append(tuple(perm))
        return tuple(found)


def _place(board: LineBoard, where: str, raw: object) -> str:
    """The compartment id at a data-file point, or a LayoutFileError naming it."""
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw)):
        raise LayoutFileError(f"{DATA_FILE}: {where}: {raw!r} is not a point [x, y]")
    try:
        return board.face_at((float(raw[0]), float(raw[1])))
    except GeometryError:
        raise LayoutFileError(f"{DATA_FILE}: {where}: the point {raw} lies in no compartment; give a point "
                              f"inside one (the Center Square has half-width 1)") from None


def _places(board: LineBoard, where: str, raw: object) -> list[str]:
    """The compartment ids of a data-file list of points, each named once."""
    if not isinstance(raw, list) or not raw:
        raise LayoutFileError(f"{DATA_FILE}: {where} must be a non-empty list of points [x, y]")
    found = [_place(board, f"{where}[{k}]", point) for k, point in enumerate(raw)]
    if len(set(found)) != len(found):
        raise LayoutFileError(f"{DATA_FILE}: {where} names one compartment twice: {found}")
    return found


@cache
def load_layout() -> Layout:
    """Read the data file against the Over-Pass board, checking every place it names."""
    board = load_board("overpass")
    data = read_data(DATA_FILE)
    faces = tuple(board.faces)
    index = {f: i for i, f in enumerate(faces)}
    transit = _places(board, "transit", data.get("transit"))
    if CENTER in transit:
        raise LayoutFileError(f"{DATA_FILE}: transit: the Center Square cannot be a transit space")
    for face in transit:
        if any(face in group for group in board.t_groups):
            raise LayoutFileError(f"{DATA_FILE}: transit: {face} is part of a group-of-three; a transit space "
                                  f"must not be, or a piece crossing it could be shut in by an add")
    starts_raw = data.get("start")
    if not isinstance(starts_raw, dict) or sorted(starts_raw) != sorted(OVERPASS_COLOURS):
        raise LayoutFileError(f"{DATA_FILE}: start must map each of {', '.join(OVERPASS_COLOURS)} "
                              f"to a list of points")
    starts = {colour: _places(board, f"start.{colour}", starts_raw[colour]) for colour in OVERPASS_COLOURS}
    full_house = data.get("full_house")
    if not isinstance(full_house, dict):
        raise LayoutFileError(f'{DATA_FILE}: full_house must be an object with a "start" list of points')
    fh_start = _places(board, "full_house.start", full_house.get("start"))
    used: dict[str, str] = {}
    for where, places in [*((f"start.{c}", p) for c, p in starts.items()), ("full_house.start", fh_start)]:
        for face in places:
            if face == CENTER or face in transit:
                raise LayoutFileError(f"{DATA_FILE}: {where}: {face} is the Center Square or a transit "
                                      f"space, where no piece may rest")
            if where.startswith("start.") and used.setdefault(face, where) != where:
                raise LayoutFileError(f"{DATA_FILE}: {where}: {face} is also in {used[face]}")
    groups = tuple(tuple(index[f] for f in group) for group in board.t_groups)
    groups_at = tuple(tuple((g[(k + 1) % 3], g[(k + 2) % 3]) for g in groups for k in range(3) if g[k] == i)
                      for i in range(len(faces)))
    return Layout(
        faces=faces, index=index,
        adjacent=tuple(tuple(index[n] for n in board.face_adjacency[f]) for f in faces),
        center=index[CENTER], transit=frozenset(index[f] for f in transit),
        no_rest=frozenset(index[f] for f in [*transit, CENTER]),
        groups=groups, groups_at=groups_at,
        starts={c: tuple(index[f] for f in places) for c, places in starts.items()},
        full_house_start=tuple(index[f] for f in fh_start),
    )


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


# -- the game ------------------------------------------------------------------------------


class GroupsOfThree(Game):
    """Groups-of-Three for 2 to 4 players (two colours each, used turn about, with two)."""

    name = "groups-of-three"
    title = "Groups-of-Three"
    board_name = "overpass"
    options_spec: ClassVar[dict[str, Option]] = {
        "players": Option(2, (2, 3, 4), "number of players; with two, each commands two colours"),
    }
    pieces: ClassVar[dict[str, str]] = dict(DISPLAY)
    position_keys = (*MOVEMENT_KEYS, "turn", "points")

    @property
    def num_players(self) -> int:
        return self.options["players"]

    @cached_property
    def colours(self) -> tuple[str, ...]:
        """The colours in play: three players omit blue."""
        return OVERPASS_COLOURS[:3] if self.num_players == 3 else OVERPASS_COLOURS

    @cached_property
    def seat_colours(self) -> tuple[tuple[int, ...], ...]:
        """Each player's colours, as indices into ``colours``."""
        return tuple(tuple(self.colours.index(c) for c in seat) for seat in seats(self.num_players))

    @property
    def locations(self) -> tuple[str, ...]:
        return load_layout().faces

    def new_initial_state(self) -> GroupsOfThreeState:
        state = GroupsOfThreeState(self)
        for k, colour in enumerate(self.colours):
            state._place_pieces(k, state.layout.starts[colour])
            state.reserve[k] = PIECES_PER_COLOUR - state.on_board[k]
        return state

    def _read_position(self, position: dict[str, Any]) -> GroupsOfThreeState:
        state = GroupsOfThreeState(self)
        state._load_movement(position, PIECES_PER_COLOUR)
        state._load_turn(position)
        return state

    def player_name(self, player: int) -> str:
        return " and ".join(self.colours[c] for c in self.seat_colours[player])


class GroupsOfThreeState(CompartmentState):
    """A Groups-of-Three position: the compartments, the turn and the steps the dice left."""

    game: GroupsOfThree

    def __init__(self, game: GroupsOfThree) -> None:
        super().__init__(game, game.colours)
        #: Turns completed so far; fixes the player (turn mod players) and their colour.
        self.turn = 0
        #: Steps left this turn, or None before the dice are rolled.
        self.points: int | None = None

    def _finished(self, colour: int) -> bool:
        return not self.reserve[colour] and not self.on_board[colour]

    def _winner(self) -> int | None:
        for player, own in enumerate(self.game.seat_colours):
            if all(self._finished(c) for c in own):
                return player
        return None

    def _mover(self) -> int:
        """The colour of this turn: a player's colours take turns, skipping one already home."""
        players = self.game.num_players
        own = self.game.seat_colours[self.turn % players]
        colour = own[(self.turn // players) % len(own)]
        if self._finished(colour):
            colour = next((c for c in own if not self._finished(c)), colour)
        return colour

    def _steps_left(self) -> int:
        return self.points or 0

    @property
    def current_player(self) -> int:
        if self._winner() is not None:
            return TERMINAL
        if self.points is None:
            return CHANCE
        return self.turn % self.game.num_players

    def turn_piece(self) -> Content:
        return None if self._winner() is not None else self.colours[self._mover()]

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return list(ROLLS) if self.current_player == CHANCE else []

    def generate_moves(self) -> Iterator[Move]:
        player = self.current_player
        if player == TERMINAL:
            return
        if player == CHANCE:
            yield from (roll for roll, _ in ROLLS)
            return
        yield from self._movement()
        if self.transit < 0:
            yield EndTurn()

    def _play(self, move: Move) -> None:
        if isinstance(move, Step):
            self._play_step(move)
            self.points -= 1
        elif isinstance(move, Add):
            self._play_add(move)
        elif isinstance(move, Roll):
            self.points = move.low + move.high
        else:
            self.turn += 1
            self.points = None
            self.pending = ()

    def outcome(self) -> Outcome | None:
        winner = self._winner()
        if winner is None:
            return None
        others = -1.0 / (self.game.num_players - 1)
        return Outcome((winner,), f"{self.game.player_name(winner)} brought in and bore off every piece",
                       tuple(1.0 if p == winner else others for p in range(self.game.num_players)))

    def _snapshot(self) -> Any:
        return super()._snapshot(), self.turn, self.points

    def _restore(self, snapshot: Any) -> None:
        movement, self.turn, self.points = snapshot
        super()._restore(movement)

    def position(self) -> dict[str, Any]:
        return {**self._movement_position(), "turn": self.turn, "points": self.points}

    def _load_turn(self, position: dict[str, Any]) -> None:
        """Set the turn and the steps left, checking them against the pieces."""
        turn, points = position.get("turn", 0), position.get("points")
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
            raise PositionError(f"position: turn {turn!r} must be a count of turns played (0 or more)")
        if points is not None and (not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 12):
            raise PositionError(f"position: points {points!r} must be null (dice not rolled) or 0..12")
        self.turn, self.points = turn, points
        mover = self._mover()
        if points is None and (self.transit >= 0 or self.pending):
            raise PositionError("position: a piece in a transit space or pending adds need a turn under way "
                                "(points not null)")
        if self.transit >= 0 and (self.cells[self.transit] != mover or points < 1):
            raise PositionError(f"position: the piece in transit space {self.layout.faces[self.transit]} must be "
                                f"the mover's ({self.colours[mover]}) with a step left to leave it")
        for k, colour in enumerate(self.colours):
            if self.reserve[k] and self.on_board[k] < self.keep_on_board:
                raise PositionError(f"position: {colour} has reserve pieces but only {self.on_board[k]} on the "
                                    f"board; the rules keep at least {self.keep_on_board} there")
