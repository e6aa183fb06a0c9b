"""Full House: the Groups-of-Three movement, colours ignored, until every piece is on the board.

Solitaire Challenge 1: from a three-piece start, bring all 40 pieces onto the board
in as few moves as possible, with unlimited moves (no dice, no turns).  Only steps
count; adds are free, as in the game.  A piece borne off could never come back, so
the puzzle offers no bearing off.  The ``pieces`` option sets how many pieces must
end on the board (40 in the book), which gives small instances for tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

from engine.bitsets import members
from engine.core import TERMINAL, Content, Game, Move, Option, Outcome, PositionError
from engine.games.groups_of_three_layout import load_layout
from engine.games.groups_of_three_movement import MOVEMENT_KEYS, UNLIMITED, Add, CompartmentState, Step, move_tables

PIECE = "piece"
BOOK_PIECES = 40


class FullHouse(Game):
    """The Full House puzzle as a one-player game."""

    name = "full-house"
    title = "Full House"
    board_name = "overpass"
    options_spec: ClassVar[dict[str, Option]] = {
        # From the start's 3 pieces (the layout file's full_house_start) to 92.
        "pieces": Option(BOOK_PIECES, tuple(range(3, 93)),
                         "pieces that must end on the board (40 in the book; as few as the start's 3 for a smaller "
                         "puzzle)"),
    }
    #: Colours are ignored: every piece is the same, shown in natural wood.
    pieces: ClassVar[dict[str, str]] = {PIECE: "#c8a165"}
    position_keys = (*MOVEMENT_KEYS, "moves")

    @property
    def num_players(self) -> int:
        return 1

    @property
    def locations(self) -> tuple[str, ...]:
        return load_layout().faces

    @property
    def target(self) -> int:
        return self.options["pieces"]

    def piece_set(self) -> dict[str, int]:
        return {PIECE: self.target}

    def new_initial_state(self) -> FullHouseState:
        start = load_layout().full_house_start
        state = FullHouseState(self)
        state._place_pieces(0, start)
        state.reserve[0] = self.target - len(start)
        return state

    def _read_position(self, position: dict[str, Any]) -> FullHouseState:
        state = FullHouseState(self)
        state._load_movement(position, self.target)
        moves = position.get("moves", 0)
        if not isinstance(moves, int) or isinstance(moves, bool) or moves < 0:
            raise PositionError(f"position: moves {moves!r} must be a count of the moves made (0 or more)")
        if state.borne_off[0]:
            raise PositionError("position: borne_off must be 0: the Full House puzzle bears no piece off")
        state.moves = moves
        return state


class FullHouseState(CompartmentState):
    """A Full House position: the pieces, the reserve and the moves made so far."""

    bear_off: ClassVar[bool] = False
    game: FullHouse

    def __init__(self, game: FullHouse) -> None:
        super().__init__(game, (PIECE,))
        #: Steps made so far: the puzzle's score (adds are free).
        self.moves = 0

    def _mover(self) -> int:
        return 0

    def _steps_left(self) -> int:
        return UNLIMITED

    def is_solved(self) -> bool:
        return not self.reserve[0]

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_solved() or not any(self._movement()) else 0

    def turn_piece(self) -> Content:
        return None if self.is_solved() else PIECE

    def generate_moves(self) -> Iterator[Move]:
        if not self.is_solved():
            yield from self._movement()

    def random_move(self, rng: random.Random) -> Move:
        """An add or a piece drawn at random, then one of that piece's steps: without listing every step."""
        if self.is_solved():
            raise ValueError("no legal move: the puzzle is solved")
        steps, adds = move_tables()
        choices = [(True, i) for i in (self.pending if self.reserve[0] else ())]
        choices += [(False, i) for i in ((self.transit,) if self.transit >= 0 else members(self.occupied))]
        while choices:
            j = rng.randrange(len(choices))
            is_add, i = choices[j]
            if is_add:
                return adds[i]
            exits = self._exits(i, 0, UNLIMITED)
            if exits:
                return steps[i][rng.choice(exits)]
            choices[j] = choices[-1]
            choices.pop()
        raise ValueError("no legal move: no piece can step")

    def _play(self, move: Move) -> None:
        if isinstance(move, Step):
            self._play_step(move)
            self.moves += 1
        elif isinstance(move, Add):
            self._play_add(move)

    def outcome(self) -> Outcome | None:
        if self.is_solved():
            moves = f"{self.moves} move" + ("" if self.moves == 1 else "s")
            return Outcome((0,), f"all {self.game.target} pieces on the board in {moves}", (1.0,))
        if not any(self._movement()):
            return Outcome((), "no piece can move", (0.0,))
        return None

    def _snapshot(self) -> Any:
        return super()._snapshot(), self.moves

    def _restore(self, snapshot: Any) -> None:
        movement, self.moves = snapshot
        super()._restore(movement)

    def position(self) -> dict[str, Any]:
        return {**self._movement_position(), "moves": self.moves}
