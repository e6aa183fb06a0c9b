"""Square Off: nine pieces each, placed then moved, capturing whenever three stand in a row.

The rows, steps and jumps come from the board's derived lines, so a board file with
more lines (diagonals, say) changes the game without touching this module.  A capture
is a move of its own: the player who formed a row stays on turn to lift one opposing
piece, which is what the board's sensors see.  The variants add moves (Jump Off's
jump, Trading Places' trade) and one restriction (Jump Off's wait before re-forming
a row); see the Square Off section of ``docs/rules.md`` for every reading chosen.

The game and its state are here; the moves and the board's tables are in ``squareoff_moves``,
reading a saved position in ``squareoff_position``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import TERMINAL, Change, Content, Footprint, Move, Option, Outcome, State
from engine.games.squareoff_moves import (COLOURS, EMPTY, PIECES_EACH, Capture, Jump, Place, Slide, Tables, Trade,
                                          tables)
from engine.games.squareoff_position import read_position
from engine.games.two_colours import TwoColourGame

VARIANTS: tuple[str, ...] = ("classic", "jump-off", "trading-places")
#: A player reduced to this many pieces (seven captured) has lost.
LOSING_COUNT = 2


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

    def piece_set(self) -> dict[str, int]:
        return {colour: PIECES_EACH for colour in COLOURS}

    def new_initial_state(self) -> SquareOffState:
        first = COLOURS.index(self.options["first_player"])
        return SquareOffState(self, [EMPTY] * len(self.locations), (PIECES_EACH, PIECES_EACH), first)

    def _read_position(self, position: dict[str, Any]) -> SquareOffState:
        return SquareOffState(self, *read_position(self, self.tables, position))


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
