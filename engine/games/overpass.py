"""Over-Pass: race your pieces from the Center Square to the exit points, moving anyone's.

Two to four players, ten pieces per colour (two colours each in the two-player game,
used turn about).  A turn: a piece from the reserve onto the Center Square (the
covered centre intersection), a roll of two dice for a budget of points, then any
moves within it: Over-Pass (1) over a bridge of pieces not of the moving piece's
colour, Trade (1) of two pieces of different colours resting on parallel lines, Slide
(2) one step outward, Exit (1) of one's own colour from an exit point.  The turn ends,
with the Center Square empty, by the ``end`` button; no move may leave it impossible to
empty (``overpass_centre``).  The first to bring home all their pieces wins.  Rule
readings are recorded in ``docs/rules.md``.

The position is a plain dict point -> colour; the rule tables (exit points, trade
partners, outward steps, every move value) are made once per board, so generating a
turn's moves is a few dict lookups per piece.  Listing a whole turn (hundreds of moves, each
checked against the Center Square rule) is done in C by ``_overpass_fast.c`` when setup.py could
build it; these Python rules stay the definition it is tested against
(``tests/engine/test_overpass_fast.py``) and are used without it.

This module holds the game and its state, the one entry the registry and the tests use; its
parts stand beside it: ``overpass_moves`` (the moves and their notation), ``overpass_tables``
(every move value and board fact, made once), ``overpass_layout`` (the start), ``overpass_board_moves``
(the moves before the Center Square rule), ``overpass_centre`` (that rule's search) and
``overpass_position`` (reading a saved position).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Iterator, Sequence
from typing import Any, ClassVar

from engine.board import CENTER
from engine.core import (CHANCE, TERMINAL, Change, Content, Footprint, Game, IllegalMoveError, Move, Option,
                         OptionError, Outcome, PositionError, State)
from engine.games import overpass_board_moves
from engine.games.bridges import BridgeWalk
from engine.games.dice import ROLLS, Roll
from engine.games.overpass_centre import ClearingBounds, clearing_plan, moves_keeping_a_plan
from engine.games.overpass_layout import shipped_layout
from engine.games.overpass_moves import (ENTER, MOVE, OVER, PHASE_MOVES, ROLL, BoardMove, EndTurn, Enter, Exit,
                                         OverPassMove, ReturnCenter, Slide, Trade)
from engine.games.overpass_position import read_position
from engine.games.overpass_tables import fast_core, rule_tables
from engine.games.pieces import DISPLAY, seats


# -- the game -----------------------------------------------------------------


class OverPass(Game):
    """Over-Pass with its options: the colours in play, who commands each, the turn order."""

    name = "overpass"
    title = "Over-Pass"
    board_name = "overpass"
    options_spec: ClassVar[dict[str, Option]] = {
        "players": Option(4, (2, 3, 4), "number of players; two players command two colours each"),
        "goal": Option("one", ("one", "both"),
                       "two-player game: exit all pieces of one of your colours, or of both, to win"),
    }
    pieces: ClassVar[dict[str, str]] = dict(DISPLAY)
    position_keys = ("turn", "phase", "roll", "budget", "board", "reserve", "home")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        players = self.options["players"]
        if players != 2 and self.options["goal"] != "one":
            raise OptionError(f"{self.name}: goal={self.options['goal']!r} is for the two-player game; "
                              f"with {players} players each exits all of their one colour")
        self.seats = seats(players)
        #: Colours in turn order: in the two-player game the players alternate, and so do their colours.
        self.turn_colours: tuple[str, ...] = tuple(
            seat[k] for k in range(len(self.seats[0])) for seat in self.seats)
        self.owner: dict[str, int] = {c: player for player, seat in enumerate(self.seats) for c in seat}
        self.tables = rule_tables(self.board_name)
        self.layout = shipped_layout(self.board_name)
        #: For the C listing: each colour's code (0 for an empty intersection), each intersection's
        #: index, and per player which colour codes they may move off an exit point.
        self.colour_codes: dict[str | None, int] = {None: 0} | {c: i + 1 for i, c in enumerate(self.turn_colours)}
        self.point_index = {point: i for i, point in enumerate(self.tables.points)}
        self.movable_codes = tuple(bytes([0, *(self.owner[c] == player for c in self.turn_colours)])
                                   for player in range(len(self.seats)))

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def locations(self) -> tuple[str, ...]:
        return self.tables.points

    def player_name(self, player: int) -> str:
        return " and ".join(self.seats[player])

    def piece_set(self) -> dict[str, int]:
        return {colour: self.layout.pieces_per_colour for colour in self.turn_colours}

    def new_initial_state(self) -> OverPassState:
        cells: dict[str, Content] = dict.fromkeys(self.tables.points)
        for colour in self.turn_colours:
            for point in self.layout.start[colour]:
                cells[point] = colour
        reserve = {c: self.layout.pieces_per_colour - len(self.layout.start[c]) for c in self.turn_colours}
        return OverPassState(self, cells, reserve, dict.fromkeys(self.turn_colours, 0), 0, ENTER, None, 0)

    def has_won(self, home: dict[str, int], player: int) -> bool:
        """Whether ``player`` has exited enough: every colour they command, or one under goal "one"."""
        done = [home[c] == self.layout.pieces_per_colour for c in self.seats[player]]
        return all(done) if self.options["goal"] == "both" else any(done)

    def _read_position(self, position: dict[str, Any]) -> OverPassState:
        parts = read_position(position, self.turn_colours, self.tables.points, self.layout.pieces_per_colour)
        state = OverPassState(self, *parts)
        _check_phase(state)
        return state


class OverPassState(State):
    """A position: the intersections, each colour's reserve and home counts, whose turn, the budget."""

    game: OverPass

    def __init__(self, game: OverPass, cells: dict[str, Content], reserve: dict[str, int],
                 home: dict[str, int], turn: int, phase: str, roll: tuple[int, int] | None, budget: int) -> None:
        super().__init__(game)
        self.cells = cells
        self.reserve = reserve
        self.home = home
        self.turn = turn
        self.phase = phase
        self.roll = roll
        self.budget = budget
        #: The turn moves of this position and their notations, kept until it changes: the
        #: daemon, ``apply`` and a search ask for them again and again.
        self._moves: list[Move] | None = None
        self._by_text: dict[str, Move] | None = None
        #: What the Center Square search proved this turn (see ``overpass_centre``): shared by
        #: the turn's positions, since within one roll the board alone decides it.
        self.clearing_bounds: ClearingBounds = {}

    # -- whose turn ------------------------------------------------------------

    @property
    def colour(self) -> str:
        """The colour the player to move represents this turn."""
        return self.game.turn_colours[self.turn]

    @property
    def current_player(self) -> int:
        if self.phase == ROLL:
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self.game.owner[self.colour]

    def turn_piece(self) -> Content:
        return None if self.phase == OVER else self.colour

    def exits_allowed(self) -> bool:
        """Exit needs an even roll (the dice's sum) while any reserve pile still holds a piece."""
        return self.roll is not None and (sum(self.roll) % 2 == 0 or not any(self.reserve.values()))

    # -- moves -----------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return list(ROLLS) if self.phase == ROLL else []

    def generate_moves(self) -> Iterator[Move]:
        return iter(self._legal())

    def _legal(self) -> Sequence[Move]:
        if self.phase != MOVE:
            return PHASE_MOVES[self.phase]
        if self._moves is None:
            self._moves = self._turn_moves()
        return self._moves

    def random_move(self, rng: random.Random) -> Move:
        """A legal move for a playout without listing the turn: ``end`` (once the Center Square is
        empty) or a random piece, then one of that piece's moves; another piece if it has none."""
        if self.phase != MOVE or self._moves is not None:
            return super().random_move(rng)
        moves_of = self._moves_of_a_piece()
        choices: list[str | None] = list(self._movable())
        if self.cells[CENTER] is None:
            choices.append(None)  # end the turn
        while choices:
            i = rng.randrange(len(choices))
            point = choices[i]
            choices[i] = choices[-1]
            choices.pop()
            if point is None:
                return EndTurn()
            moves = moves_of(point)
            if moves is None:
                break  # nothing can empty the Center Square: every board move and return, listed whole (rare)
            if moves:
                return rng.choice(moves)
        return super().random_move(rng)

    def _moves_of_a_piece(self) -> Callable[[str], list[Move] | None]:
        """The legal moves of the piece on a point (its own and its Trades), or None when nothing can
        empty the Center Square; in C when it is built."""
        core = fast_core(self.game.board_name)
        if core is None:
            plan = clearing_plan(self, self.budget)
            return lambda point: None if plan is None else list(
                moves_keeping_a_plan(self, self.board_moves((point,)), plan))
        args, index = self._core_arguments(), self.game.point_index
        return lambda point: core.turn_moves(*args, index[point])

    def _core_arguments(self) -> tuple[Any, ...]:
        """This position as the C listing reads it (see ``_overpass_fast.c``)."""
        game, colour = self.game, self.colour
        codes = game.colour_codes
        per_colour = game.layout.pieces_per_colour
        to_win = per_colour - self.home[colour]
        if not game.has_won({**self.home, colour: per_colour}, game.owner[colour]):
            to_win = per_colour + 1  # exits of this colour alone cannot win (goal "both")
        return (bytes(map(codes.__getitem__, self.cells.values())), game.movable_codes[game.owner[colour]],
                codes[colour], self.budget, self.exits_allowed(), to_win, self.clearing_bounds)

    def _turn_moves(self) -> list[Move]:
        """The board moves that keep the Center Square emptiable, then ``end`` once it is empty;
        every board move and ``return`` when nothing can empty it.  Listed in C when it is built
        (the same moves as ``turn_moves_by_the_rules``, in the same order)."""
        core = fast_core(self.game.board_name)
        if core is None:
            return self.turn_moves_by_the_rules()
        moves: list[Move] | None = core.turn_moves(*self._core_arguments())
        if moves is None:
            return [*self.board_moves(), ReturnCenter()]
        if self.cells[CENTER] is None:
            moves.append(EndTurn())
        return moves

    def turn_moves_by_the_rules(self) -> list[Move]:
        """``_turn_moves`` in Python: the definition the C listing is checked against."""
        plan = clearing_plan(self, self.budget)
        if plan is None:
            return [*self.board_moves(), ReturnCenter()]
        moves: list[Move] = list(moves_keeping_a_plan(self, self.board_moves(), plan))
        if self.cells[CENTER] is None:
            moves.append(EndTurn())
        return moves

    def board_moves(self, pieces: Container[str] | None = None) -> list[BoardMove]:
        """The moves within the points left that move a piece standing on ``pieces`` (any piece
        when None), before the Center Square rule."""
        return overpass_board_moves.board_moves(self.game.tables, self.cells, self.budget, self._movable(),
                                                self.colour, self.exits_allowed(), pieces)

    def _movable(self) -> list[str]:
        """The pieces the mover may move, in board order: any piece but another player's on an exit point."""
        cells, exits, owner, player = self.cells, self.game.tables.exits, self.game.owner, self.current_player
        return [p for p in self.game.tables.points
                if cells[p] is not None and (p not in exits or owner[cells[p]] == player)]

    def bridge_walk(self, start: str, until: Callable[[str], bool] | None = None) -> BridgeWalk:
        """The bridges open to the piece on ``start``, walked up to the landing ``until`` accepts."""
        return overpass_board_moves.bridge_walk(self.game.tables, self.cells, start, until)

    def relies_on(self, move: BoardMove) -> frozenset[str]:
        """The intersections ``move`` needs as they are (``overpass_board_moves.relies_on``)."""
        return overpass_board_moves.relies_on(self.game.tables, self.cells, move)

    def passes_over(self, move: Move) -> tuple[str, ...]:
        """An Over-Pass's bridge: the pieces on a shortest way from its start to its end."""
        if isinstance(move, OverPassMove):
            return self.bridge_walk(move.start, move.end.__eq__).path_to(move.end)
        return ()

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``; a Slide that an Over-Pass also makes names the Over-Pass."""
        if self._by_text is None:
            self._by_text = {str(move): move for move in self._legal()}
        text = text.strip()
        move = self._by_text.get(text)
        if move is not None:
            return move
        kind, _, rest = text.partition(" ")
        if kind == "S" and f"O {rest}" in self._by_text:
            raise IllegalMoveError(f"{text!r}: an Over-Pass makes the same move for 1 point: O {rest}")
        return super().parse_move(text)  # not legal: raises with the reason

    def footprint(self, move: Move) -> Footprint:
        cells = self.cells
        if isinstance(move, (OverPassMove, Slide)):
            piece = cells[move.start]
            changes = (Change(move.start, piece, None), Change(move.end, None, piece))
        elif isinstance(move, Trade):
            first, second = cells[move.a], cells[move.b]
            changes = (Change(move.a, first, second), Change(move.b, second, first))
        elif isinstance(move, Exit):
            changes = (Change(move.point, cells[move.point], None),)
        elif isinstance(move, Enter):
            changes = (Change(CENTER, None, self.colour),)
        elif isinstance(move, ReturnCenter):
            changes = (Change(CENTER, cells[CENTER], None),)
        else:
            changes = ()
        return Footprint(changes, move.cost)

    # -- playing ---------------------------------------------------------------

    def _snapshot(self) -> Any:
        return (self.cells.copy(), self.reserve.copy(), self.home.copy(), self.turn, self.phase, self.roll,
                self.budget, self._moves, self._by_text, self.clearing_bounds)

    def _restore(self, snapshot: Any) -> None:
        """Back to the saved position, with its moves if they were listed (a search pops a lot)."""
        (self.cells, self.reserve, self.home, self.turn, self.phase, self.roll, self.budget,
         self._moves, self._by_text, self.clearing_bounds) = snapshot

    def _play(self, move: Move) -> None:
        self._moves = self._by_text = None
        cells = self.cells
        self.budget -= move.cost
        if isinstance(move, (OverPassMove, Slide)):
            cells[move.end], cells[move.start] = cells[move.start], None
        elif isinstance(move, Trade):
            cells[move.a], cells[move.b] = cells[move.b], cells[move.a]
        elif isinstance(move, Exit):
            colour = cells[move.point]
            cells[move.point] = None
            self.home[colour] += 1
            if self.game.has_won(self.home, self.game.owner[colour]):
                self.phase = OVER
        elif isinstance(move, Roll):
            self.roll = (move.low, move.high)
            self.budget = move.low + move.high
            self.phase = MOVE
            self.clearing_bounds = {}  # the roll fixes what the turn's moves are
        elif isinstance(move, Enter):
            cells[CENTER] = self.colour
            self.reserve[self.colour] -= 1
            self.phase = ROLL
        elif isinstance(move, ReturnCenter):
            self.reserve[cells[CENTER]] += 1
            cells[CENTER] = None
            self._next_turn()
        elif isinstance(move, EndTurn):
            self._next_turn()

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % len(self.game.turn_colours)
        self.roll, self.budget = None, 0
        self.phase = ENTER if self.reserve[self.colour] else ROLL

    # -- reading the position --------------------------------------------------

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        game = self.game
        winner = game.owner[self.colour]
        home = [c for c in game.seats[winner] if self.home[c] == game.layout.pieces_per_colour]
        others = -1.0 / (game.num_players - 1)
        return Outcome((winner,), f"{game.player_name(winner)} exited every {' and '.join(home)} piece",
                       tuple(1.0 if p == winner else others for p in range(game.num_players)))

    def contents(self) -> dict[str, Content]:
        return dict(self.cells)

    def position(self) -> dict[str, Any]:
        return {
            "turn": self.colour,
            "phase": self.phase,
            "roll": list(self.roll) if self.roll else None,
            "budget": self.budget,
            "board": {p: c for p, c in self.cells.items() if c is not None},
            "reserve": dict(self.reserve),
            "home": dict(self.home),
        }


def _check_phase(state: OverPassState) -> None:
    """The phase must agree with the board: an empty Center Square between turns, a winner iff over."""
    center = state.cells[CENTER]
    if state.phase == ENTER and (center is not None or not state.reserve[state.colour]):
        raise PositionError(f"phase enter: the Center Square must be empty and {state.colour} must have a "
                            f"piece in reserve")
    if state.phase == ROLL and center not in (None, state.colour):
        raise PositionError(f"phase roll: the Center Square holds {center}, but only {state.colour}'s "
                            f"entered piece can be there before the roll")
    if state.phase == ROLL and center is None and state.reserve[state.colour]:
        raise PositionError(f"phase roll: {state.colour} has pieces in reserve, so one is entered onto the "
                            f"Center Square before the roll (phase enter)")
    winners = [p for p in range(state.game.num_players) if state.game.has_won(state.home, p)]
    if state.phase == OVER and winners != [state.game.owner[state.colour]]:
        raise PositionError(f"phase over: {state.colour} must have just exited the last piece it needed")
    if state.phase != OVER and winners:
        raise PositionError(f"{state.game.player_name(winners[0])} has already exited their pieces: "
                            f'the phase is "over"')
