"""Groups-of-Three: bring pieces in through T-shaped groups of compartments, then bear them off.

Pieces stand in the compartments of the Over-Pass board and step across shared sides
(never through a corner, never into an occupied compartment).  The four transit
triangles may be crossed, not rested in: entering costs one step, leaving another,
and a piece that entered one must leave it with its very next step.  A piece that
steps from one of the eight triangles around the Center Square into it is borne off.
Stepping into a compartment of a group-of-three whose other two compartments hold
exactly one piece lets the mover add a reserve piece to the empty one, free; the
adds are offered until the next step or the end of the turn.

The compartments and the data file are read in ``groups_of_three_layout``; the movement lives
in ``CompartmentState`` (``groups_of_three_movement``, shared with the Full House puzzle);
``GroupsOfThreeState`` here adds the dice, the turns and the colours.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import Any, ClassVar

from engine.core import CHANCE, TERMINAL, Content, Game, Move, Option, Outcome, PositionError
from engine.games.dice import ROLLS, Roll
from engine.games.groups_of_three_layout import load_layout
from engine.games.groups_of_three_movement import MOVEMENT_KEYS, Add, CompartmentState, EndTurn, Step
from engine.games.pieces import DISPLAY, OVERPASS_COLOURS, seats

PIECES_PER_COLOUR = 10


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

    def piece_set(self) -> dict[str, int]:
        return {colour: PIECES_PER_COLOUR for colour in self.colours}

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
