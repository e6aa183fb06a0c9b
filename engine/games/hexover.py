"""Hexover: outflanking on a hexagonal board, won by five of one's colour along a path.

A move places a disk that outflanks opposing disks along any of the six directions;
every outflanked disk flips.  A flip is a location changing between "black" and
"white", so a move's footprint lists each disk to flip: the daemon lights them and,
where the sensors read magnet polarity, checks each was turned.  The cells, rays and
paths all come from the board file (``engine/boards/hexover.json``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.boards import load_board
from engine.boards.hexgrid import HexBoard
from engine.core import TERMINAL, Change, Content, Footprint, Move, Outcome, PositionError, State
from engine.games.two_colours import TwoColourGame

#: Seating order: white plays first.
COLOURS: tuple[str, str] = ("white", "black")
EMPTY = -1


@dataclass(frozen=True)
class Drop(Move):
    """A disk of the mover's colour on an empty cell, flipping what it outflanks."""

    cell: str

    def __str__(self) -> str:
        return self.cell


@dataclass(frozen=True)
class Pass(Move):
    """The only move of a player who can outflank nothing."""

    button = "end_turn"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Tables:
    """The board by cell index, derived once per board."""

    cells: tuple[str, ...]
    index: dict[str, int]
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    paths: tuple[tuple[int, ...], ...]


@cache
def tables(board_name: str) -> Tables:
    board = load_board(board_name)
    assert isinstance(board, HexBoard)
    index = {cell: i for i, cell in enumerate(board.cells)}
    return Tables(
        cells=board.cells,
        index=index,
        rays=tuple(tuple(tuple(index[c] for c in ray) for ray in board.rays[cell]) for cell in board.cells),
        paths=tuple(tuple(index[c] for c in path) for path in board.paths),
    )


class Hexover(TwoColourGame):
    """Hexover for two players on the 61-cell board."""

    name = "hexover"
    title = "Hexover"
    board_name = "hexover"
    colours = COLOURS
    position_keys = ("board", "to_move")

    @property
    def locations(self) -> tuple[str, ...]:
        return self.tables.cells

    @property
    def tables(self) -> Tables:
        return tables(self.board_name)

    def piece_set(self) -> dict[str, int]:
        """One two-sided disk a cell (the board can fill up): a disk is either colour, so it is named "disk"."""
        return {"disk": len(self.locations)}

    def new_initial_state(self) -> HexoverState:
        board = self.board
        assert isinstance(board, HexBoard)
        return self.state_from_position({"board": board.setup, "to_move": COLOURS[0]})

    def _read_position(self, position: dict[str, Any]) -> HexoverState:
        t = self.tables
        if not isinstance(position.get("board", {}), dict):
            raise PositionError('a Hexover position is {"board": {cell: "white"/"black"/null}, "to_move": colour}')
        cells = [EMPTY] * len(t.cells)
        for cell, content in position.get("board", {}).items():
            if cell not in t.index:
                raise PositionError(f"board: {cell!r} is not a cell of the Hexover board ({t.cells[0]}..{t.cells[-1]})")
            if content is not None:
                cells[t.index[cell]] = self.player_of(content, f"board[{cell!r}]")
        mover = self.player_of(position.get("to_move"), '"to_move"')
        winners = {cells[path[0]] for path in t.paths if _complete(cells, path)}
        if len(winners) > 1:
            raise PositionError("board: both colours hold a complete winning path; the game ends at the first")
        return HexoverState(self, cells, mover)


class HexoverState(State):
    """The cells and whose turn it is; the outcome follows from them."""

    game: Hexover

    def __init__(self, game: Hexover, cells: list[int], mover: int) -> None:
        super().__init__(game)
        self.t = game.tables
        self.cells = cells
        self.mover = mover
        #: The cells the mover may drop on, found once per position.
        self.drops, self.result = self._evaluate()

    @property
    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.mover

    def turn_piece(self) -> Content:
        return COLOURS[self.mover] if self.result is None else None

    def generate_moves(self) -> Iterator[Move]:
        if self.result is not None:
            return iter(())
        return iter([Drop(self.t.cells[i]) for i in self.drops] or [Pass()])

    def _drop_cells(self, player: int, first_only: bool = False) -> list[int]:
        """The empty cells where a disk of ``player`` outflanks something (with ``first_only``, the first
        such cell or none).  Inlined: this runs on every push and was most of a random game's time."""
        cells, rays, other = self.cells, self.t.rays, 1 - player
        found = []
        for i, content in enumerate(cells):
            if content != EMPTY:
                continue
            for ray in rays[i]:
                if cells[ray[0]] != other:
                    continue
                for k in ray[1:]:
                    seen = cells[k]
                    if seen != other:
                        break
                else:
                    continue  # the ray ran off the board on opposing disks
                if seen == player:
                    found.append(i)
                    break
            if first_only and found:
                break
        return found

    def flips(self, player: int, cell: int) -> list[int]:
        """Every disk a disk of ``player`` at ``cell`` outflanks, in all six directions."""
        return [k for ray in self.t.rays[cell] for k in self._outflanked(player, ray)]

    def _outflanked(self, player: int, ray: tuple[int, ...]) -> list[int]:
        """The opposing disks next along ``ray`` if a disk of ``player`` closes them off."""
        cells, run = self.cells, []
        for k in ray:
            if cells[k] != 1 - player:
                return run if cells[k] == player else []
            run.append(k)
        return []

    def _evaluate(self) -> tuple[list[int], Outcome | None]:
        """The mover's drop cells and, if the game is over, how it ended."""
        cells = self.cells
        for path in self.t.paths:
            if _complete(cells, path):
                return [], _result((cells[path[0]],), f"{COLOURS[cells[path[0]]]} completed a winning path",
                                   tuple(self.t.cells[k] for k in path))
        drops = self._drop_cells(self.mover)
        if drops or self._drop_cells(1 - self.mover, first_only=True):
            return drops, None
        counts = [cells.count(p) for p in (0, 1)]
        tally = f"neither can move: white {counts[0]}, black {counts[1]}"
        if counts[0] == counts[1]:
            return [], _result((), tally)
        return [], _result((0 if counts[0] > counts[1] else 1,), tally)

    def outcome(self) -> Outcome | None:
        return self.result

    def footprint(self, move: Move) -> Footprint:
        if isinstance(move, Pass):
            return Footprint()
        if not isinstance(move, Drop):
            raise TypeError(f"not a Hexover move: {move!r}")
        own, other = COLOURS[self.mover], COLOURS[1 - self.mover]
        flipped = self.flips(self.mover, self.t.index[move.cell])
        return Footprint((Change(move.cell, None, own),
                          *(Change(self.t.cells[k], other, own) for k in flipped)))

    def _play(self, move: Move) -> None:
        if isinstance(move, Drop):
            target = self.t.index[move.cell]
            for k in self.flips(self.mover, target):
                self.cells[k] = self.mover
            self.cells[target] = self.mover
        self.mover = 1 - self.mover
        self.drops, self.result = self._evaluate()

    def _snapshot(self) -> Any:
        return self.cells[:], self.mover, self.drops, self.result

    def _restore(self, snapshot: Any) -> None:
        cells, self.mover, self.drops, self.result = snapshot
        self.cells[:] = cells

    def contents(self) -> dict[str, Content]:
        return {cell: COLOURS[c] if c != EMPTY else None for cell, c in zip(self.t.cells, self.cells)}

    def position(self) -> dict[str, Any]:
        return {"board": self.contents(), "to_move": COLOURS[self.mover]}


def _complete(cells: list[int], path: tuple[int, ...]) -> bool:
    first = cells[path[0]]
    return first != EMPTY and all(cells[k] == first for k in path)


def _result(winners: tuple[int, ...], reason: str, line: tuple[str, ...] = ()) -> Outcome:
    returns = tuple(0.0 if not winners else (1.0 if p in winners else -1.0) for p in (0, 1))
    return Outcome(winners, reason, returns, line)
