"""Mono-Line: place pieces on intersections no opponent's line reaches; the last to place wins.

Two players, each owning two colours of ten pieces.  A piece may go on an empty
intersection that shares no drawn line with an opponent's piece; pieces never move.
The player to move who cannot place loses.  The rules also let a player win by
noticing, at the start of their turn, two opposing pieces on one line, which can
only happen when a blocked placement was let stand: the ``mode`` option says how a
blocked placement is treated:

* ``strict`` (default): refused, with the reason (the electronic board's referee);
* ``faithful``: it stands, and the opponent may claim the win at the start of
  their turn (the printed rules, mistakes and all);
* ``friendly``: it is held with a warning until the player either takes it back or
  ends the turn to let it stand ("opponents may point out bad moves").

Positions are bitsets over the 104 drawn intersections, so a move is a few integer
operations; the Center Square covers the centre, which takes no part.
"""

from __future__ import annotations

import random

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from engine.board import LineBoard
from engine.core import (
    TERMINAL,
    Change,
    Content,
    Footprint,
    Game,
    IllegalMoveError,
    Move,
    Option,
    Outcome,
    PositionError,
    State,
)
from engine.games.pieces import DISPLAY, seats

MODES = ("strict", "faithful", "friendly")
PIECES_PER_COLOUR = 10


@dataclass(frozen=True)
class Place(Move):
    """A piece of ``colour`` onto the empty intersection ``point`` (drop notation ``red@p12``)."""

    colour: str
    point: str

    def __str__(self) -> str:
        return f"{self.colour}@{self.point}"


@dataclass(frozen=True)
class TakeBack(Move):
    """Friendly mode: lift the warned piece again, to place it elsewhere."""

    point: str

    def __str__(self) -> str:
        return f"lift {self.point}"


@dataclass(frozen=True)
class EndTurn(Move):
    """Friendly mode: declare the turn over, letting a warned placement stand."""

    button: ClassVar[str | None] = "end_turn"

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True)
class Claim(Move):
    """Announce two opposing pieces sharing a line, at the start of one's turn: it wins."""

    button: ClassVar[str | None] = "confirm"

    def __str__(self) -> str:
        return "claim"


class MonoLine(Game):
    """The game's fixed data: intersections as bit indices and, for each, the bits it sees."""

    name = "mono-line"
    title = "Mono-Line"
    board_name = "overpass"
    options_spec: ClassVar[dict[str, Option]] = {
        "mode": Option("strict", MODES,
                       "blocked placements: strict refuses them, faithful lets them stand and the opponent "
                       "may claim the win, friendly warns and asks to take back or end the turn"),
    }
    pieces: ClassVar[dict[str, str]] = {colour: DISPLAY[colour] for seat in seats(2) for colour in seat}
    position_keys = ("pieces", "to_move", "pending", "claimed_by")

    @property
    def num_players(self) -> int:
        return 2

    @cached_property
    def locations(self) -> tuple[str, ...]:
        board = self.board
        assert isinstance(board, LineBoard)
        return tuple(board.visible_points)

    @cached_property
    def index(self) -> dict[str, int]:
        return {point: i for i, point in enumerate(self.locations)}

    @cached_property
    def sight(self) -> tuple[int, ...]:
        """For each intersection, the bitset of the others on a drawn line through it."""
        masks = [0] * len(self.locations)
        for line in self.board.drawn_lines:
            line_mask = sum(1 << self.index[p] for p in line.points)
            for p in line.points:
                masks[self.index[p]] |= line_mask
        return tuple(mask & ~(1 << i) for i, mask in enumerate(masks))

    @cached_property
    def placements(self) -> dict[str, tuple[Place, ...]]:
        """Each colour's placement on each intersection (by index), made once: a listing hands them out."""
        return {colour: tuple(Place(colour, point) for point in self.locations) for colour in self.pieces}

    @cached_property
    def owner(self) -> dict[str, int]:
        return {colour: player for player, seat in enumerate(seats(2)) for colour in seat}

    def piece_set(self) -> dict[str, int]:
        return {colour: PIECES_PER_COLOUR for colour in self.pieces}

    def new_initial_state(self) -> MonoLineState:
        return MonoLineState(self)

    def _read_position(self, position: dict[str, Any]) -> MonoLineState:
        return MonoLineState.from_position(self, position)

    def player_name(self, player: int) -> str:
        return " and ".join(seats(2)[player])


class MonoLineState(State):
    """A Mono-Line position: who holds which intersection, who is to move, any claim or warned piece."""

    game: MonoLine

    def __init__(self, game: MonoLine) -> None:
        super().__init__(game)
        self.board: list[Content] = [None] * len(game.locations)
        self.occupied = [0, 0]   # per player: bitset of their pieces
        self.sight = [0, 0]      # per player: bitset of intersections their pieces see (blocked to the other)
        self.to_move = 0
        self.pending: str | None = None     # friendly mode: the warned placement awaiting take-back or end
        self.claimed_by: int | None = None

    # -- rules -----------------------------------------------------------------

    @property
    def mode(self) -> str:
        return self.game.options["mode"]

    def supply(self, colour: str) -> int:
        """Pieces of ``colour`` not yet on the board."""
        return PIECES_PER_COLOUR - self.board.count(colour)

    def conflict(self) -> bool:
        """Whether two opposing pieces share a line (only after a blocked placement stood)."""
        return bool(self.occupied[0] & self.sight[1])

    def empty_points(self) -> int:
        return ~(self.occupied[0] | self.occupied[1]) & ((1 << len(self.board)) - 1)

    def open_points(self, player: int) -> int:
        """Bitset of the empty intersections ``player`` may place on without being blocked."""
        return self.empty_points() & ~self.sight[1 - player]

    def closing(self) -> list[tuple[int, int]]:
        """(intersection index, how many intersections still open to the opponent a piece there would
        close) for every intersection open to the player to move."""
        sight = self.game.sight
        theirs = self.open_points(1 - self.to_move)
        mine = self.open_points(self.to_move)
        counts = []
        while mine:
            low = mine & -mine
            point = low.bit_length() - 1
            counts.append((point, (sight[point] & theirs).bit_count()))
            mine ^= low
        return counts

    def placing_colour(self) -> str:
        """The colour of the player to move with the most pieces left (the colour of a placement changes
        nothing but which supply it draws on)."""
        return max(seats(2)[self.to_move], key=self.supply)

    def can_place(self, player: int) -> bool:
        return bool(self.open_points(player)) and any(self.supply(c) for c in seats(2)[player])

    def blocked_reason(self, point: str) -> str | None:
        """Why ``point`` is blocked to the player to move, naming a line-sharing opponent piece."""
        i = self.game.index[point]
        opponent = 1 - self.to_move
        seen_by = self.game.sight[i] & self.occupied[opponent]
        if not seen_by:
            return None
        j = (seen_by & -seen_by).bit_length() - 1
        return (f"{point} shares a line with {self.board[j]} at {self.game.locations[j]}: "
                f"it belongs to {self.game.player_name(opponent)}")

    @property
    def current_player(self) -> int:
        if self.claimed_by is not None:
            return TERMINAL
        if self.pending is None and not self.conflict() and not self.can_place(self.to_move):
            return TERMINAL
        return self.to_move

    def generate_moves(self) -> Iterator[Move]:
        if self.current_player == TERMINAL:
            return
        if self.pending is not None:
            yield TakeBack(self.pending)
            yield EndTurn()
            return
        if self.conflict():
            yield Claim()
        allowed = self.open_points(self.to_move) if self.mode == "strict" else self.empty_points()
        rows = [self.game.placements[c] for c in seats(2)[self.to_move] if self.supply(c)]
        points = []
        while allowed:
            low = allowed & -allowed
            points.append(low.bit_length() - 1)
            allowed ^= low
        yield from [row[i] for i in points for row in rows]

    def random_move(self, rng: random.Random) -> Move:
        """As ``generate_moves`` would list them, one drawn evenly, without listing every placement."""
        if self.pending is not None or self.conflict() or self.current_player == TERMINAL:
            return super().random_move(rng)
        allowed = self.open_points(self.to_move) if self.mode == "strict" else self.empty_points()
        colours = [c for c in seats(2)[self.to_move] if self.supply(c)]
        nth = rng.randrange(allowed.bit_count())
        for _ in range(nth):
            allowed &= allowed - 1  # drop the lowest point
        return self.game.placements[rng.choice(colours)][(allowed & -allowed).bit_length() - 1]

    def parse_move(self, text: str) -> Move:
        """As the default, but a blocked placement in strict mode says which piece blocks it."""
        _, at, point = text.strip().partition("@")
        if (at and self.mode == "strict" and point in self.game.index and self.pending is None
                and self.current_player == self.to_move and self.board[self.game.index[point]] is None):
            reason = self.blocked_reason(point)
            if reason:
                raise IllegalMoveError(f"{text.strip()!r} is refused: {reason}")
        return super().parse_move(text)

    def warning(self, move: Move) -> str | None:
        """What a friendly opponent would point out about ``move`` before it is made."""
        if isinstance(move, Place):
            return self.blocked_reason(move.point)
        return None

    def footprint(self, move: Move) -> Footprint:
        if isinstance(move, Place):
            return Footprint((Change(move.point, None, move.colour),))
        if isinstance(move, TakeBack):
            return Footprint((Change(move.point, self.board[self.game.index[move.point]], None),))
        return Footprint()

    def _play(self, move: Move) -> None:
        if isinstance(move, Claim):
            self.claimed_by = self.to_move
        elif isinstance(move, Place):
            blocked = self.blocked_reason(move.point) is not None
            self._put(move.point, move.colour)
            if blocked and self.mode == "friendly":
                self.pending = move.point
            else:
                self.to_move = 1 - self.to_move
        elif isinstance(move, TakeBack):
            self._lift(move.point)
            self.pending = None
        elif isinstance(move, EndTurn):
            self.pending = None
            self.to_move = 1 - self.to_move

    def _put(self, point: str, colour: str) -> None:
        i = self.game.index[point]
        player = self.game.owner[colour]
        self.board[i] = colour
        self.occupied[player] |= 1 << i
        self.sight[player] |= self.game.sight[i]

    def _lift(self, point: str) -> None:
        i = self.game.index[point]
        player = self.game.owner[self.board[i]]
        self.board[i] = None
        self.occupied[player] &= ~(1 << i)
        self._recompute_sight(player)

    def _recompute_sight(self, player: int) -> None:
        mask, pieces = 0, self.occupied[player]
        while pieces:
            low = pieces & -pieces
            mask |= self.game.sight[low.bit_length() - 1]
            pieces ^= low
        self.sight[player] = mask

    def outcome(self) -> Outcome | None:
        if self.claimed_by is not None:
            winner = self.claimed_by
            reason = f"{self.game.player_name(winner)} found two opposing pieces sharing a line"
        elif self.current_player == TERMINAL:
            winner = 1 - self.to_move
            reason = f"{self.game.player_name(self.to_move)} cannot place a piece"
        else:
            return None
        return Outcome((winner,), reason, tuple(1.0 if p == winner else -1.0 for p in range(2)))

    def turn_piece(self) -> Content:
        if self.current_player == TERMINAL:
            return None
        colours = seats(2)[self.to_move]
        return max(colours, key=self.supply)

    # -- contents, positions, snapshots -----------------------------------------

    def contents(self) -> dict[str, Content]:
        return dict(zip(self.game.locations, self.board))

    def position(self) -> dict[str, Any]:
        return {
            "pieces": {p: c for p, c in zip(self.game.locations, self.board) if c is not None},
            "to_move": self.to_move,
            "pending": self.pending,
            "claimed_by": self.claimed_by,
        }

    @classmethod
    def from_position(cls, game: MonoLine, position: dict[str, Any]) -> MonoLineState:
        """Set up and check a position: known points and colours, supplies, the mode's rules."""
        state = cls(game)
        pieces = position.get("pieces", {})
        if not isinstance(pieces, dict):
            raise PositionError('mono-line: "pieces" must map intersections to colours, e.g. {"p12": "red"}')
        for point, colour in pieces.items():
            if point not in game.index:
                raise PositionError(f"mono-line: {point!r} is not an intersection of the board (p1..p104; "
                                    f"the covered centre is not played)")
            if colour not in game.owner:
                raise PositionError(f"mono-line: {point} holds {colour!r}; colours are {', '.join(game.owner)}")
            state._put(point, colour)
        for colour in game.owner:
            if state.supply(colour) < 0:
                raise PositionError(f"mono-line: {PIECES_PER_COLOUR - state.supply(colour)} {colour} pieces; "
                                    f"each colour has {PIECES_PER_COLOUR}")
        state.to_move = position.get("to_move", 0)
        if state.to_move not in (0, 1):
            raise PositionError(f"mono-line: to_move is {state.to_move!r}; it must be 0 or 1")
        state.claimed_by = position.get("claimed_by")
        if state.claimed_by not in (None, 0, 1):
            raise PositionError(f"mono-line: claimed_by is {state.claimed_by!r}; it must be null, 0 or 1")
        state.pending = position.get("pending")
        if state.pending is not None and (game.options["mode"] != "friendly"
                                          or game.owner.get(pieces.get(state.pending)) != state.to_move):
            raise PositionError(f"mono-line: pending {state.pending!r} must be a piece of the player to move, "
                                f"in friendly mode only")
        if game.options["mode"] == "strict" and state.conflict():
            raise PositionError("mono-line: two opposing pieces share a line, which strict mode never allows; "
                                "load the position with mode=faithful or mode=friendly")
        return state

    def _snapshot(self) -> Any:
        return (tuple(self.board), tuple(self.occupied), tuple(self.sight), self.to_move, self.pending,
                self.claimed_by)

    def _restore(self, snapshot: Any) -> None:
        board, occupied, sight, self.to_move, self.pending, self.claimed_by = snapshot
        self.board, self.occupied, self.sight = list(board), list(occupied), list(sight)
