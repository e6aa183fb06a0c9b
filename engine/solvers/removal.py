"""Solving the removal puzzles (Crooked Jumps and the Over-Pass Spiral): one search for both.

A depth-first search over positions as bitsets.  Every move removes a piece, so no
position repeats on one path and a position met again by another path (or as a
mirror image or rotation of one: the board has eight symmetries) is already known to
fail: a memo of canonical positions cuts those branches.  The search stops at the
first solution, at the time limit, or when every reachable position has been seen,
which proves that none exists.  It keeps the best position found on the way (fewest
pieces, then on the centre), so a stopped search still has something to show.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.core import State
from engine.games.removal_puzzle import RemovalPuzzle, RemovalPuzzleState, Step
from engine.solvers import Progress, ProgressCallback, Solution, SolverError

#: How many positions pass between two looks at the clock.
CHECK_EVERY = 2048
#: Beyond this many remembered positions the memo stops growing (memory), the search goes on.
MEMO_LIMIT = 3_000_000


@dataclass
class SearchReport:
    """Where a search got to: the moves to its best position, and whether that solves the puzzle."""

    path: list[Step]
    solved: bool
    exhausted: bool
    best_mask: int
    positions: int
    seconds: float


class _OutOfTime(Exception):
    pass


class RemovalSearch:
    """One depth-first search of a removal puzzle from a start position."""

    def __init__(self, game: RemovalPuzzle, time_limit: float, progress: ProgressCallback | None = None) -> None:
        self.game = game
        self.time_limit = time_limit
        self.progress = progress
        self.tables = symmetry_tables(game.symmetries, len(game.locations))
        self.seen: set[int] = set()
        self.path: list[Step] = []
        self.best: tuple[tuple[int, int], list[Step], int] | None = None
        self.positions = 0
        self.started = 0.0
        self.next_report = 0.0

    def canonical(self, mask: int) -> int:
        """The smallest image of ``mask`` under the board's symmetries: one key per symmetry class."""
        return min(_permute(mask, table) for table in self.tables)

    def run(self, start: int) -> SearchReport:
        self.started = time.monotonic()
        self.next_report = self.started
        solved = exhausted = False
        try:
            solved = self._dfs(start)
            exhausted = not solved
        except _OutOfTime:
            pass
        assert self.best is not None
        _, path, mask = self.best
        return SearchReport(path, solved, exhausted, mask, self.positions, time.monotonic() - self.started)

    def _rank(self, mask: int) -> tuple[int, int]:
        return mask.bit_count(), 0 if self.game.is_goal(mask) else 1

    def _dfs(self, mask: int) -> bool:
        rank = self._rank(mask)
        if self.best is None or rank < self.best[0]:
            self.best = (rank, list(self.path), mask)
        if self.game.is_goal(mask):
            return True
        key = self.canonical(mask)
        if key in self.seen:
            return False
        if len(self.seen) < MEMO_LIMIT:
            self.seen.add(key)
        self.positions += 1
        if self.positions % CHECK_EVERY == 0:
            self._tick()
        for step, child in self._ordered(mask):
            self.path.append(step)
            if self._dfs(child):
                return True
            self.path.pop()
        return False

    def _ordered(self, mask: int) -> list[tuple[Step, int]]:
        """The moves, most promising first: fewest stranded pieces after, then landing nearest the centre."""
        game = self.game
        children = [(step, mask ^ (1 << step[0]) ^ (1 << step[1]) ^ (1 << step[2])) for step in game.steps(mask)]
        children.sort(key=lambda sc: (game.stranded(sc[1]), game.centre_distance[sc[0][1]]))
        return children

    def _tick(self) -> None:
        now = time.monotonic()
        if now - self.started > self.time_limit:
            raise _OutOfTime
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + 0.5
            assert self.best is not None
            self.progress(Progress(now - self.started, self.positions, self.best[0][0], None,
                                   "depth-first search (best: pieces left)"))


def symmetry_tables(symmetries: tuple[tuple[int, ...], ...], size: int) -> list[list[list[int]]]:
    """Per symmetry, per byte of a bitset, the image of each byte value: permuting costs a few lookups."""
    tables = []
    for perm in symmetries:
        chunks = []
        for base in range(0, size, 8):
            images = [1 << perm[base + j] if base + j < size else 0 for j in range(8)]
            table = [0] * 256
            for value in range(1, 256):
                low = value & -value
                table[value] = table[value ^ low] | images[low.bit_length() - 1]
            chunks.append(table)
        tables.append(chunks)
    return tables


def _permute(mask: int, table: list[list[int]]) -> int:
    image, k = 0, 0
    while mask:
        image |= table[k][mask & 255]
        mask >>= 8
        k += 1
    return image


def solve_removal(state: State, time_limit: float, progress: ProgressCallback | None = None) -> Solution:
    """Search a removal puzzle from ``state`` and say what was found, in a player's words."""
    if not isinstance(state, RemovalPuzzleState):
        raise SolverError(f"the removal-puzzle solver needs a Crooked Jumps or Over-Pass Spiral position, "
                          f"not a {state.game.name} one")
    game = state.game
    report = RemovalSearch(game, time_limit, progress).run(state.mask)
    moves = [str(game.move_of(step)) for step in report.path]
    best = describe(game, report.best_mask)
    searched = f"{report.positions:,} positions (symmetric ones counted once) in {report.seconds:.1f} s"
    if report.solved:
        explanation = (f"solved in {len(moves)} moves ({chains(report.path)} when a piece's consecutive moves "
                       f"count as one), leaving {best}; {searched}")
    elif report.exhausted and game.is_success(report.best_mask):
        explanation = (f"one piece can be left, but never in the centre: every one of {searched} was examined; "
                       f"the moves below leave {best}")
    elif report.exhausted:
        explanation = (f"no solution: every position reachable from the start was examined ({searched}) and "
                       f"none leaves one piece{' in the centre' if game.centre_required else ''}; the best "
                       f"leaves {best}")
    elif game.is_success(report.best_mask):
        explanation = (f"all but one piece taken off, leaving {best}; no way to leave it in the centre found "
                       f"within {time_limit:g} s (search not finished: {searched})")
    else:
        explanation = (f"no solution found within {time_limit:g} s (search not finished: {searched}); "
                       f"the best found leaves {best}")
    return Solution(moves, report.solved, report.solved, None, None, explanation)


def describe(game: RemovalPuzzle, mask: int) -> str:
    """A position's result in words: how many pieces, and where the last one stands."""
    if mask.bit_count() != 1:
        return f"{mask.bit_count()} pieces"
    where = game.locations[mask.bit_length() - 1]
    return "one piece, in the centre" if where == "center" else f"one piece, on {where}"


def chains(path: list[Step]) -> int:
    """How many turns the moves make when a piece moving on from where it landed continues its turn."""
    return sum(1 for k, step in enumerate(path) if k == 0 or step[0] != path[k - 1][1])
