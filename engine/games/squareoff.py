"""Square Off: nine pieces each, placed then moved, capturing whenever three stand in a row.

The rows, steps and jumps come from the board's derived lines, so a board file with
more lines (diagonals, say) changes the game without touching this module.  A capture
is a move of its own: the player who formed a row stays on turn to lift one opposing
piece, which is what the board's sensors see.  The variants add moves (Jump Off's
jump, Trading Places' trade) and one restriction (Jump Off's wait before re-forming
a row); see the Square Off section of ``docs/rules.md`` for every reading chosen.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.board import LineBoard
from engine.boards import load_board
from engine.core import TERMINAL, Change, Content, Footprint, Move, Option, Outcome, PositionError, State
from engine.games.two_colours import TwoColourGame

COLOURS: tuple[str, str] = ("black", "white")
VARIANTS: tuple[str, ...] = ("classic", "jump-off", "trading-places")
PIECES_EACH = 9
#: A player reduced to this many pieces (seven captured) has lost.
LOSING_COUNT = 2
EMPTY = -1


@dataclass(frozen=True)
class Place(Move):
    """Stage 1: a piece from the hand onto an empty point."""

    point: str

    def __str__(self) -> str:
        return self.point


@dataclass(frozen=True)
class Slide(Move):
    """Stage 2: a piece one step along a line to an empty point."""

    origin: str
    target: str

    def __str__(self) -> str:
        return f"{self.origin}-{self.target}"


@dataclass(frozen=True)
class Jump(Move):
    """Jump Off: over an opposing piece along a line to the empty point behind it."""

    origin: str
    over: str
    target: str

    def __str__(self) -> str:
        return f"{self.origin}^{self.target}"


@dataclass(frozen=True)
class Trade(Move):
    """Trading Places: one's piece and an opposing piece change places."""

    own: str
    other: str

    def __str__(self) -> str:
        return f"{self.own}<>{self.other}"


@dataclass(frozen=True)
class Capture(Move):
    """The step after forming a row: lift one opposing piece off the board."""

    point: str

    def __str__(self) -> str:
        return f"x{self.point}"


@dataclass(frozen=True)
class Tables:
    """The board's topology by point index, derived once per board."""

    points: tuple[str, ...]
    index: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    #: For each point: (jumped point, landing point) along every line.
    jumps: tuple[tuple[tuple[int, int], ...], ...]
    #: Every three consecutive points of a line.
    rows: tuple[tuple[int, int, int], ...]
    #: For each point: the indices of the rows through it.
    rows_at: tuple[tuple[int, ...], ...]
    #: Every move by point index, made once: a listing hands them out.  ``places[i]`` and
    #: ``captures[i]`` at point i, ``slides[i][j]`` from i to j, ``jump_moves[i][k]`` for
    #: ``jumps[i][k]``, ``trades[i][j]`` of one's piece on i with an opposing piece on j.
    places: tuple[Place, ...]
    captures: tuple[Capture, ...]
    slides: tuple[dict[int, Slide], ...]
    jump_moves: tuple[tuple[Jump, ...], ...]
    trades: tuple[tuple[Trade, ...], ...]


@cache
def tables(board_name: str) -> Tables:
    board = load_board(board_name)
    assert isinstance(board, LineBoard)
    points = tuple(board.points)
    index = {p: i for i, p in enumerate(points)}
    rows = tuple((index[a], index[b], index[c]) for line in board.lines
                 for a, b, c in zip(line.points, line.points[1:], line.points[2:]))
    neighbours = tuple(tuple(index[q] for q in board.neighbours[p]) for p in points)
    jumps = tuple(tuple((index[over], index[beyond]) for over, beyond, _ in board.steps[p] if beyond) for p in points)
    return Tables(
        points=points,
        index=index,
        neighbours=neighbours,
        jumps=jumps,
        rows=rows,
        rows_at=tuple(tuple(r for r, row in enumerate(rows) if i in row) for i in range(len(points))),
        places=tuple(Place(p) for p in points),
        captures=tuple(Capture(p) for p in points),
        slides=tuple({j: Slide(p, points[j]) for j in neighbours[i]} for i, p in enumerate(points)),
        jump_moves=tuple(tuple(Jump(p, points[over], points[land]) for over, land in jumps[i])
                         for i, p in enumerate(points)),
        trades=tuple(tuple(Trade(p, q) for q in points) for p in points),
    )


class SquareOff(TwoColourGame):
    """Square Off and its variants on the 24-point board (or any line board)."""

    name = "squareoff"
    title = "Square Off"
    board_name = "squareoff"
    options_spec = {
        "variant": Option("classic", VARIANTS, "classic; jump-off adds jumps over a piece; "
                                               "trading-places adds trading a piece for an opposing one"),
        "first_player": Option("black", COLOURS, "the colour of the youngest player, who places first"),
    }
    colours = COLOURS
    position_keys = ("board", "in_hand", "to_move", "captures_owed", "unformed")

    @property
    def locations(self) -> tuple[str, ...]:
        return self.tables.points

    @property
    def tables(self) -> Tables:
        return tables(self.board_name)

    def new_initial_state(self) -> SquareOffState:
        first = COLOURS.index(self.options["first_player"])
        return SquareOffState(self, [EMPTY] * len(self.locations), (PIECES_EACH, PIECES_EACH), first)

    def _read_position(self, position: dict[str, Any]) -> SquareOffState:
        return _state_at(self, position)


class SquareOffState(State):
    """A Square Off position: the points, the hands, who moves, the captures owed."""

    game: SquareOff

    def __init__(self, game: SquareOff, cells: list[int], hands: tuple[int, int], mover: int,
                 captures: tuple[int, ...] = (), unformed: tuple[frozenset[int], frozenset[int]] = (
                     frozenset(), frozenset())) -> None:
        super().__init__(game)
        self.t = game.tables
        self.cells = cells
        self.hands = hands
        #: Whose ordinary turn comes once the captures owed are made.
        self.mover = mover
        #: The players owed a capture, in the order they take it.
        self.captures = captures
        #: Per player, the rows that player's last move broke (Jump Off's wait).
        self.unformed = unformed
        self.result = self._judge()

    # -- the rules ------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self.game.options["variant"]

    @property
    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        return self.captures[0] if self.captures else self.mover

    def turn_piece(self) -> Content:
        player = self.current_player
        return COLOURS[player] if player >= 0 else None

    def generate_moves(self) -> Iterator[Move]:
        if self.result is not None:
            return iter(())
        if self.captures:
            return self._captures(self.captures[0])
        return self._turn_moves(self.mover)

    def _turn_moves(self, player: int) -> Iterator[Move]:
        t, cells = self.t, self.cells
        if self.hands[player]:
            yield from [t.places[i] for i, c in enumerate(cells) if c == EMPTY]
            return
        waiting = self.unformed[player] if self.variant == "jump-off" else frozenset()
        for i, c in enumerate(cells):
            if c != player:
                continue
            slides = t.slides[i]
            yield from [slides[j] for j in t.neighbours[i]
                        if cells[j] == EMPTY and not (waiting and waiting & self._rows(player, j, i))]
            if self.variant == "jump-off":
                for (over, land), jump in zip(t.jumps[i], t.jump_moves[i]):
                    if (cells[over] == 1 - player and cells[land] == EMPTY
                            and not (waiting and waiting & self._rows(player, land, i))):
                        yield jump
        if self.variant == "trading-places":
            tradable = [j for j, c in enumerate(cells) if c == 1 - player and not self._in_row(j)]
            trades = t.trades
            yield from [trades[i][j] for i, c in enumerate(cells) if c == player for j in tradable]

    def _captures(self, player: int) -> Iterator[Move]:
        """Opposing pieces outside rows; all of them when every one stands in a row."""
        victims = [i for i, c in enumerate(self.cells) if c == 1 - player]
        free = [i for i in victims if not self._in_row(i)]
        return iter([self.t.captures[i] for i in (free or victims)])

    def _in_row(self, i: int) -> bool:
        """Whether the piece on ``i`` stands in a row of its colour."""
        cells, rows = self.cells, self.t.rows
        player = cells[i]
        return any(all(cells[k] == player for k in rows[r]) for r in self.t.rows_at[i])

    def _rows(self, player: int, point: int, vacated: int = EMPTY) -> frozenset[int]:
        """The rows of ``player`` through ``point`` once their piece stands there and ``vacated`` is left."""
        cells, rows = self.cells, self.t.rows
        return frozenset(r for r in self.t.rows_at[point]
                         if vacated not in rows[r] and all(k == point or cells[k] == player for k in rows[r]))

    def _judge(self) -> Outcome | None:
        for player, colour in enumerate(COLOURS):
            if self.cells.count(player) + self.hands[player] <= LOSING_COUNT:
                return _win(1 - player, f"{colour} has only {LOSING_COUNT} pieces left")
        if not self.captures and next(self._turn_moves(self.mover), None) is None:
            return _win(1 - self.mover, f"{COLOURS[self.mover]} cannot move")
        return None

    def outcome(self) -> Outcome | None:
        return self.result

    # -- making moves ---------------------------------------------------------

    def footprint(self, move: Move) -> Footprint:
        own, other = COLOURS[self.current_player], COLOURS[1 - self.current_player]
        if isinstance(move, Place):
            changes = [Change(move.point, None, own)]
        elif isinstance(move, (Slide, Jump)):
            changes = [Change(move.origin, own, None), Change(move.target, None, own)]
        elif isinstance(move, Trade):
            changes = [Change(move.own, own, other), Change(move.other, other, own)]
        elif isinstance(move, Capture):
            changes = [Change(move.point, other, None)]
        else:
            raise TypeError(f"not a Square Off move: {move!r}")
        return Footprint(tuple(changes))

    def _play(self, move: Move) -> None:
        player = self.current_player
        if isinstance(move, Capture):
            self.cells[self.t.index[move.point]] = EMPTY
            self.captures = self.captures[1:]
        else:
            self._play_turn(player, move)
        self.result = self._judge()

    def _play_turn(self, player: int, move: Move) -> None:
        cells, index, opponent = self.cells, self.t.index, 1 - player
        formed_for_opponent: frozenset[int] = frozenset()
        if isinstance(move, Place):
            target, vacated = index[move.point], EMPTY
            hands = list(self.hands)
            hands[player] -= 1
            self.hands = (hands[0], hands[1])
        elif isinstance(move, Trade):
            target, vacated = index[move.other], index[move.own]
        else:
            target, vacated = index[move.target], index[move.origin]
        broken = self._rows(player, vacated) if vacated != EMPTY else frozenset()
        if vacated != EMPTY:
            cells[vacated] = opponent if isinstance(move, Trade) else EMPTY
        cells[target] = player
        if isinstance(move, Trade):
            formed_for_opponent = self._rows(opponent, vacated)
        if self.variant == "jump-off":
            unformed = list(self.unformed)
            unformed[player] = broken
            self.unformed = (unformed[0], unformed[1])
        owed = []
        if self._rows(player, target) and opponent in cells:
            owed.append(player)
        if formed_for_opponent:
            owed.append(opponent)
        self.captures = tuple(owed)
        self.mover = opponent

    def _snapshot(self) -> Any:
        return (self.cells[:], self.hands, self.mover, self.captures, self.unformed, self.result)

    def _restore(self, snapshot: Any) -> None:
        cells, self.hands, self.mover, self.captures, self.unformed, self.result = snapshot
        self.cells[:] = cells

    # -- reading the position ---------------------------------------------------

    def contents(self) -> dict[str, Content]:
        return {p: COLOURS[c] if c != EMPTY else None for p, c in zip(self.t.points, self.cells)}

    def position(self) -> dict[str, Any]:
        rows = self.t.rows
        return {
            "board": self.contents(),
            "in_hand": dict(zip(COLOURS, self.hands)),
            "to_move": COLOURS[self.mover],
            "captures_owed": [COLOURS[p] for p in self.captures],
            "unformed": {colour: sorted([self.t.points[k] for k in rows[r]] for r in self.unformed[p])
                         for p, colour in enumerate(COLOURS)},
        }


def _win(winner: int, reason: str) -> Outcome:
    returns = [-1.0, -1.0]
    returns[winner] = 1.0
    return Outcome((winner,), reason, (returns[0], returns[1]))


def _state_at(game: SquareOff, position: dict[str, Any]) -> SquareOffState:
    """Check a JSON position against the rules and set it up."""
    t = game.tables
    board = position.get("board", {})
    if not isinstance(board, dict):
        raise PositionError('"board" must map points ("p1", ...) to "black", "white" or null')
    cells = [EMPTY] * len(t.points)
    for point, content in board.items():
        if point not in t.index:
            raise PositionError(f"board: {point!r} is not a point of the {game.board_name} board "
                                f"({t.points[0]}..{t.points[-1]})")
        if content is not None:
            cells[t.index[point]] = game.player_of(content, f"board[{point!r}]")
    hands_raw = position.get("in_hand", dict.fromkeys(COLOURS, 0))
    if not isinstance(hands_raw, dict) or set(hands_raw) != set(COLOURS) or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= PIECES_EACH for n in hands_raw.values()):
        raise PositionError(f'"in_hand" must be {{"black": n, "white": n}} with 0 <= n <= {PIECES_EACH}, '
                            f"not {hands_raw!r}")
    hands = (hands_raw["black"], hands_raw["white"])
    for player, colour in enumerate(COLOURS):
        on_board = cells.count(player)
        if on_board + hands[player] > PIECES_EACH:
            raise PositionError(f"{colour} has {on_board + hands[player]} pieces ({on_board} on the board, "
                                f"{hands[player]} in hand); each player has {PIECES_EACH}")
    if abs(hands[0] - hands[1]) > 1:
        raise PositionError(f"in_hand: black {hands[0]}, white {hands[1]}: players place in turn, "
                            "so their hands differ by at most one")
    mover = game.player_of(position.get("to_move", game.options["first_player"]), '"to_move"')
    owed_raw = position.get("captures_owed", [])
    if not isinstance(owed_raw, list) or len(owed_raw) > 2:
        raise PositionError(f'"captures_owed" must list at most two colours, not {owed_raw!r}')
    owed = tuple(game.player_of(c, '"captures_owed"') for c in owed_raw)
    if owed and 1 - owed[0] not in cells:
        raise PositionError(f"captures_owed: {COLOURS[owed[0]]} is owed a capture "
                            f"but {COLOURS[1 - owed[0]]} has no piece on the board")
    return SquareOffState(game, cells, hands, mover, owed, _read_unformed(game, position.get("unformed", {})))


def _read_unformed(game: SquareOff, raw: object) -> tuple[frozenset[int], frozenset[int]]:
    t = game.tables
    row_of = {frozenset(t.points[k] for k in row): r for r, row in enumerate(t.rows)}
    if not isinstance(raw, dict) or not set(raw) <= set(COLOURS):
        raise PositionError(f'"unformed" must map "black"/"white" to lists of rows, not {raw!r}')
    result = []
    for colour in COLOURS:
        rows = raw.get(colour, [])
        if rows and game.options["variant"] != "jump-off":
            raise PositionError(f'unformed[{colour!r}]: only Jump Off remembers the rows a move broke')
        if not isinstance(rows, list):
            raise PositionError(f'unformed[{colour!r}] must be a list of rows such as ["p1", "p9", "p17"]')
        found = set()
        for row in rows:
            key = frozenset(row) if isinstance(row, list) else None
            if key not in row_of:
                raise PositionError(f"unformed[{colour!r}]: {row!r} is not three points in a row on this board")
            found.add(row_of[key])
        result.append(frozenset(found))
    return result[0], result[1]
