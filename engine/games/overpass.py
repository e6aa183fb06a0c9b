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
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from engine.board import CENTER, LineBoard
from engine.boards import load_board
from engine.core import (
    CHANCE,
    TERMINAL,
    Change,
    Content,
    EngineError,
    Footprint,
    Game,
    IllegalMoveError,
    Move,
    Option,
    OptionError,
    Outcome,
    PositionError,
    State,
)
from engine.games.bridges import BridgeWalk, bridge_destinations, walk_bridges
from engine.games.dice import DIE_FACES, ROLLS, Roll
from engine.games.overpass_centre import ClearingBounds, clearing_plan, moves_keeping_a_plan
from engine.games.pieces import DISPLAY, OVERPASS_COLOURS, seats

try:  # the turn moves in C (setup.py builds it when it can); these Python rules are the definition
    from engine.games import _overpass_fast  # type: ignore[attr-defined]
except ImportError:
    _overpass_fast = None  # type: ignore[assignment]

LAYOUT_FILE = Path(__file__).parent / "data" / "overpass.json"

ENTER, ROLL, MOVE, OVER = "enter", "roll", "move", "over"
PHASES = (ENTER, ROLL, MOVE, OVER)


class LayoutFileError(EngineError):
    """The start layout file cannot be used; the message names the file and the fix."""


# -- moves --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Enter(Move):
    """A piece of the turn's colour from its reserve onto the Center Square (not a move: free)."""

    cost: ClassVar[int] = 0

    def __str__(self) -> str:
        return "enter"


@dataclass(frozen=True, slots=True)
class BoardMove(Move):
    """A move on the board, paid from the turn's points.  Its fields are intersections, and
    ``points`` lists them: the Center Square rule asks it of every move of a turn, so it is kept."""

    points: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: Whether the piece on ``points[0]`` leaves it empty (all but a Trade).
    moves_first_piece_away: ClassVar[bool] = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", tuple(getattr(self, f.name) for f in fields(self) if f.init))


@dataclass(frozen=True, slots=True)
class OverPassMove(BoardMove):
    """Over a bridge of pieces to an empty intersection; the path leaves no trace, so (from, to) names it."""

    start: str
    end: str
    cost: ClassVar[int] = 1

    def __str__(self) -> str:
        return f"O {self.start}-{self.end}"


@dataclass(frozen=True, slots=True)
class Trade(BoardMove):
    """Two pieces of different colours on parallel lines swap places (``a`` first in board order)."""

    a: str
    b: str
    cost: ClassVar[int] = 1
    moves_first_piece_away: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"T {self.a}={self.b}"


@dataclass(frozen=True, slots=True)
class Slide(BoardMove):
    """One step outward along a line onto an empty intersection."""

    start: str
    end: str
    cost: ClassVar[int] = 2

    def __str__(self) -> str:
        return f"S {self.start}-{self.end}"


@dataclass(frozen=True, slots=True)
class Exit(BoardMove):
    """The mover's own piece off an exit point onto their home pile."""

    point: str
    cost: ClassVar[int] = 1

    def __str__(self) -> str:
        return f"X {self.point}"


@dataclass(frozen=True, slots=True)
class EndTurn(Move):
    """The turn is over (the Center Square is empty)."""

    button: ClassVar[str | None] = "end_turn"
    cost: ClassVar[int] = 0

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class ReturnCenter(Move):
    """No moves within the points left can empty the Center Square: its piece goes back to its
    reserve and the turn ends."""

    cost: ClassVar[int] = 0

    def __str__(self) -> str:
        return "return"


#: The moves of the phases that do not depend on the board.
PHASE_MOVES: dict[str, tuple[Move, ...]] = {ENTER: (Enter(),), ROLL: tuple(roll for roll, _ in ROLLS), OVER: ()}


# -- data ---------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The start: pieces per colour, and the intersections each colour starts on."""

    pieces_per_colour: int
    start: dict[str, tuple[str, ...]]


def load_layout(board: LineBoard, path: Path = LAYOUT_FILE) -> Layout:
    """Read and check the start layout: each colour on two opposite intersections of the cover's edge."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LayoutFileError(f"{path}: cannot read the start layout ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise LayoutFileError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    count = data.get("pieces_per_colour") if isinstance(data, dict) else None
    start = data.get("start") if isinstance(data, dict) else None
    if not isinstance(count, int) or count < 2:
        raise LayoutFileError(f'{path}: "pieces_per_colour" must be a whole number of at least 2, not {count!r}')
    if not isinstance(start, dict) or set(start) != set(OVERPASS_COLOURS):
        raise LayoutFileError(f'{path}: "start" must map each of {", ".join(OVERPASS_COLOURS)} '
                              f'to its two intersections, e.g. "black": ["p1", "p3"]')
    edge = set(board.on_cover_edge)
    seen: set[str] = set()
    for colour, points in start.items():
        if (not isinstance(points, list) or len(points) != 2 or not all(isinstance(p, str) for p in points)
                or not set(points) <= edge
                or board.xy(points[0]) != tuple(-v for v in board.xy(points[1]))):
            raise LayoutFileError(f'{path}: "start"."{colour}" = {points!r}: give two diagonally opposite '
                                  f'intersections around the Center Square, from {", ".join(sorted(edge))}')
        if seen & set(points):
            raise LayoutFileError(f'{path}: "start"."{colour}" reuses {", ".join(sorted(seen & set(points)))}')
        seen.update(points)
    return Layout(count, {colour: tuple(points) for colour, points in start.items()})


@cache
def shipped_layout(board_name: str) -> Layout:
    """The layout file that ships with the game, read once per process."""
    return load_layout(rule_tables(board_name).board)


@dataclass(frozen=True)
class Tables:
    """The board facts the rules read on every move, and every move value, made once.

    Generating a turn hands out these shared (immutable) moves instead of building
    hundreds of new ones.
    """

    board: LineBoard
    points: tuple[str, ...]
    exits: frozenset[str]
    perimeter: frozenset[tuple[str, str]]
    #: start -> end -> the Over-Pass between them.
    over_passes: dict[str, dict[str, OverPassMove]]
    #: start -> the Slides one step outward from it.
    slides: dict[str, tuple[Slide, ...]]
    #: a -> b -> the Trade of a and b, for each b after a (board order) such that a line
    #: through a and a different line through b are parallel.
    trades: dict[str, dict[str, Trade]]
    #: b -> a -> the same Trades, looked up from their second point.
    traded_with: dict[str, dict[str, Trade]]
    exit_moves: dict[str, Exit]

    def along_perimeter(self, a: str, b: str) -> bool:
        return (a, b) in self.perimeter


@cache
def rule_tables(board_name: str) -> Tables:
    """The rule tables of a board, derived once per process."""
    board = load_board(board_name)
    points = tuple(board.points)
    through = {p: {(line.direction, line.index) for line in board.lines_through[p]} for p in points}

    def parallel(a: str, b: str) -> bool:
        return any(da == db and ia != ib for da, ia in through[a] for db, ib in through[b])

    trades = {a: {b: Trade(a, b) for b in points[i + 1:] if parallel(a, b)} for i, a in enumerate(points)}
    traded_with: dict[str, dict[str, Trade]] = {b: {} for b in points}
    for a, partners in trades.items():
        for b, trade in partners.items():
            traded_with[b][a] = trade
    return Tables(
        board, points, frozenset(board.exits), board.perimeter,
        over_passes={a: {b: OverPassMove(a, b) for b in points if b != a} for a in points},
        slides={a: tuple(Slide(a, b) for b in board.outward[a]) for a in points},
        trades=trades, traded_with=traded_with, exit_moves={p: Exit(p) for p in board.exits})


@cache
def fast_core(board_name: str) -> Any:
    """The board's tables and move objects handed to the C listing (``_overpass_fast.Core``), by
    intersection index; None when that module was not built."""
    if _overpass_fast is None:
        return None
    tables = rule_tables(board_name)
    points, board = tables.points, tables.board
    index = {p: i for i, p in enumerate(points)}
    return _overpass_fast.Core(
        centre=index[CENTER],
        near=[[index[q] for q in board.neighbours[p]] for p in points],
        slide_ends=[[index[slide.end] for slide in tables.slides[p]] for p in points],
        exits=[index[p] for p in tables.exits],
        perimeter=[[tables.along_perimeter(a, b) for b in points] for a in points],
        parallel=[[b in tables.trades[a] for b in points] for a in points],
        over_pass=[[tables.over_passes[a].get(b) for b in points] for a in points],
        slide=[list(tables.slides[p]) for p in points],
        trade=[[tables.trades[a].get(b) for b in points] for a in points],
        exit_move=[tables.exit_moves.get(p) for p in points])


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
        return _state_at(self, position)


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
        tables, cells, budget = self.game.tables, self.cells, self.budget
        moves: list[BoardMove] = []
        if budget < 1:
            return moves
        movable = self._movable()
        may_exit = self.exits_allowed()
        reaches = self._over_pass_reaches(movable if pieces is None else [p for p in movable if p in pieces])
        for point, reach in reaches.items():
            if point in tables.exits and may_exit and cells[point] == self.colour:
                moves.append(tables.exit_moves[point])
            over_pass = tables.over_passes[point]
            moves.extend(over_pass[end] for end in reach)
            if budget >= 2:  # a Slide the same as an Over-Pass is left to the cheaper Over-Pass
                moves.extend(slide for slide in tables.slides[point]
                             if cells[slide.end] is None and slide.end not in reach)
        tradeable = [point for point in movable if point not in tables.exits]
        if pieces is None:
            for i, a in enumerate(tradeable):
                colour, trade_with = cells[a], tables.trades[a]
                moves.extend(trade_with[b] for b in tradeable[i + 1:] if b in trade_with and cells[b] != colour)
            return moves
        can_trade = set(tradeable)
        for point in tradeable:  # the trades of the chosen pieces, with either point first
            if point in pieces:
                colour = cells[point]
                moves.extend(trade for other, trade in tables.traded_with[point].items()
                             if other in can_trade and other not in pieces and cells[other] != colour)
                moves.extend(trade for other, trade in tables.trades[point].items()
                             if other in can_trade and cells[other] != colour)
        return moves

    def _movable(self) -> list[str]:
        """The pieces the mover may move, in board order: any piece but another player's on an exit point."""
        cells, exits, owner, player = self.cells, self.game.tables.exits, self.game.owner, self.current_player
        return [p for p in self.game.tables.points
                if cells[p] is not None and (p not in exits or owner[cells[p]] == player)]

    def _over_pass_reaches(self, starts: list[str]) -> dict[str, Iterable[str]]:
        """Each of ``starts`` (movable pieces, in board order) with where it can Over-Pass to.

        The pieces of one colour share their bridges, so they are searched together; a
        piece on an exit point, held to the perimeter, is searched alone.
        """
        tables, cells, exits = self.game.tables, self.cells, self.game.tables.exits
        occupied = cells.__getitem__  # a piece code is truthy, an empty point None
        by_colour: dict[str, list[str]] = {}
        for point in starts:
            if point not in exits:
                by_colour.setdefault(cells[point], []).append(point)
        found: dict[str, Iterable[str]] = {}
        for colour, same in by_colour.items():
            found.update(bridge_destinations(tables.board, same, occupied, lambda q, own=colour: cells[q] != own))
        for point in starts:
            if point in exits:
                found[point] = self.bridge_walk(point).landings
        return {point: found[point] for point in starts}

    def bridge_walk(self, start: str, until: Callable[[str], bool] | None = None) -> BridgeWalk:
        """The bridges open to the piece on ``start`` (over pieces not of its colour, along the
        perimeter only from an exit point), walked up to the landing ``until`` accepts."""
        tables, cells = self.game.tables, self.cells
        colour = cells[start]
        return walk_bridges(tables.board, start, cells.__getitem__, lambda q: cells[q] != colour,
                            tables.along_perimeter if start in tables.exits else None, until)

    def relies_on(self, move: BoardMove) -> frozenset[str]:
        """The intersections ``move`` needs as they are: those it changes, a bridge for an
        Over-Pass, and every exit point for an Exit (any Exit changes the home pile, and so
        whether this one wins)."""
        if isinstance(move, OverPassMove):
            return frozenset((*move.points, *self.bridge_walk(move.start, move.end.__eq__).path_to(move.end)))
        if isinstance(move, Exit):
            return self.game.tables.exits
        return frozenset(move.points)

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


def _state_at(game: OverPass, position: dict[str, Any]) -> OverPassState:
    """Build a state from ``OverPassState.position()`` data, refusing what the rules cannot reach."""
    colours = game.turn_colours
    turn = position.get("turn")
    if turn not in colours:
        raise PositionError(f"turn={turn!r}: give the colour to move, one of {', '.join(colours)}")
    phase = position.get("phase", ENTER)
    if phase not in PHASES:
        raise PositionError(f"phase={phase!r}: one of {', '.join(PHASES)}")
    board = position.get("board", {})
    if not isinstance(board, dict):
        raise PositionError('"board" must map intersections to colours, e.g. {"p1": "black"}')
    cells: dict[str, Content] = dict.fromkeys(game.tables.points)
    for point, colour in board.items():
        if point not in cells:
            raise PositionError(f"board: {point!r} is not an intersection (p1..p{len(cells) - 1} or center)")
        if colour not in colours:
            raise PositionError(f"board: {point} holds {colour!r}, not a colour in play ({', '.join(colours)})")
        cells[point] = colour
    piles = {name: _read_counts(position.get(name), name, colours) for name in ("reserve", "home")}
    on_board = Counter(board.values())
    for colour in colours:
        total = on_board[colour] + piles["reserve"][colour] + piles["home"][colour]
        if total != game.layout.pieces_per_colour:
            raise PositionError(f"{colour}: {total} pieces on the board, in reserve and at home; "
                                f"there are {game.layout.pieces_per_colour}")
    roll, budget = _read_roll(position.get("roll"), position.get("budget", 0), phase)
    state = OverPassState(game, cells, piles["reserve"], piles["home"], colours.index(turn), phase, roll, budget)
    _check_phase(state)
    return state


def _read_counts(raw: object, name: str, colours: tuple[str, ...]) -> dict[str, int]:
    if not isinstance(raw, dict) or set(raw) != set(colours) or not all(
            isinstance(n, int) and n >= 0 for n in raw.values()):
        raise PositionError(f'"{name}" must give a count of 0 or more for each of {", ".join(colours)}')
    return {c: raw[c] for c in colours}


def _read_roll(raw: object, budget: object, phase: str) -> tuple[tuple[int, int] | None, int]:
    if phase in (ENTER, ROLL):
        if raw is not None or budget != 0:
            raise PositionError(f'phase {phase}: the dice are not rolled yet, so "roll" is null and "budget" 0')
        return None, 0
    if (not isinstance(raw, list) or len(raw) != 2 or not all(isinstance(d, int) and d in DIE_FACES for d in raw)
            or raw[0] > raw[1]):
        raise PositionError(f'roll={raw!r}: two dice from 1 to 6, smaller first, e.g. [3, 4]')
    if not isinstance(budget, int) or not 0 <= budget <= sum(raw):
        raise PositionError(f"budget={budget!r}: the points left, from 0 to the roll's {sum(raw)}")
    return (raw[0], raw[1]), budget


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
