"""Solving the removal puzzles (Crooked Jumps and the Over-Pass Spiral): one search for both.

A depth-first search over positions as bitsets.  Every move removes a piece, so no
position repeats on one path and a position met again by another path is already known
to fail: a memo cuts those branches.  From a symmetric start (the board has eight
symmetries) the memo keeps one canonical position per symmetry class, since mirror
images then come up all the time; from an asymmetric one they hardly ever do, and the
memo keeps positions as they are, which is several times faster.  Every key in the memo
is itself a failed position, so one memo serves both.  Searching for the centre, a
position with no piece near enough to it is cut at once (``may_reach_centre``).  A hint
for one piece anywhere looks positions of six pieces up in the puzzle's endgame table,
where one ships (``endgame.py``).  Before it searches a move to the end, it probes every
move with a small search that may give up (``PROBES``): a wrong move early on otherwise
costs a whole subtree proved to fail before the next is tried.  The search stops at the
first solution, at the time limit, or when every reachable position has been seen, which
proves that none exists.  It keeps the best position found on the way (fewest pieces,
then on the centre), so a stopped search still has something to show.

On the Spiral the search runs compiled when setup.py could build it (``_removal_fast.c``,
on the C listing of the Spiral's moves): the same search step for step, the same answer, path
and count of positions (tests/engine/test_removal_fast.py), some 30 times as many positions a
second (about 1.1 million here, 33,000 in Python, 2026-11-28).  The Python search below is the
definition, and the search of Crooked Jumps, whose positions it answers at once anyway.

A hint searches for the puzzle's win (one piece; in the centre when the puzzle demands
it) from the person's position.  When every position reachable from there fails, it
steps back through the moves made, one at a time, keeping the memo: a position already
known to fail is not searched again, so finding the move that lost the puzzle costs
little more than the search that proved it lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import State
from engine.games.overpass_spiral import OverPassSpiral
from engine.games.removal_puzzle import RemovalPuzzle, RemovalPuzzleState, Step
from engine.solvers import (
    Budget,
    Hint,
    Progress,
    ProgressCallback,
    Solution,
    SolverError,
    Stop,
    find_loss,
    known_rest,
    plural,
)
from engine.solvers.endgame import EndgameTable, shipped_table
from engine.solvers.symmetry import Symmetries

try:  # the search compiled for the Spiral (setup.py builds it when it can); ``_search`` here is the definition
    from engine.solvers import _removal_fast  # type: ignore[attr-defined]
except ImportError:
    _removal_fast = None  # type: ignore[assignment]

#: How many positions pass between two looks at the clock.
CHECK_EVERY = 2048
#: Beyond this many remembered positions the memo stops growing (memory), the search goes on.
MEMO_LIMIT = 3_000_000
#: Where one piece anywhere wins, the share of a solve's time the search for the centre gets first.
CENTRE_SHARE = 0.5
#: Once a hint has proved its position lost, the share of its time limit left to step back to the move that
#: lost it.  Stepping back finds that move at once or hardly ever (bench/puzzle_hints.py, the Spiral after
#: 16-26 moves: within 0.1 s, or not within 10 s), and the person should not wait the rest of the limit for
#: an answer they already have.
LOSS_SHARE = 1 / 3
#: Probes, by the pieces on the board: (from this many pieces up, the positions a probe may search).
#: At such a position each move is first tried with a search that gives up after its budget, and
#: only then is each move searched to the end.  A way on, when one exists, is most often a short
#: dive; a wrong move costs a whole subtree proved to fail.  The probe finds the dive without
#: proving its siblings lost first.  A probe may itself probe with the smaller budgets of the rows
#: below its own (bench/puzzle_hints.py measured these).
PROBES = ((9, 32), (13, 256), (17, 2048))


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
    """Depth-first searches of a removal puzzle for one piece in the centre, or (``centre`` false) anywhere.

    Runs from several starts (``run``) share the memo of failed positions, which is sound
    as long as each run before ended having exhausted its start.  An endgame ``table`` of
    positions that can end with one piece anywhere (only for ``centre`` false) answers for
    its size of position at once; the few moves after one that wins are then searched.
    ``compiled`` (the default) runs the compiled search where one was built for the game
    (``compiled_search``); the Python one otherwise, the definition.
    """

    def __init__(self, game: RemovalPuzzle, budget: Budget, progress: ProgressCallback | None = None,
                 centre: bool = True, table: EndgameTable | None = None, compiled: bool = True) -> None:
        if centre and table is not None:
            raise ValueError("an endgame table answers for one piece anywhere, not in the centre")
        self.game = game
        self.table = table
        self.budget = budget
        self.progress = progress
        self.centre = centre
        self.goal = game.is_goal if centre else game.is_success
        self.symmetries = Symmetries(game.symmetries, len(game.locations))
        self.seen: set[int] = set()
        self.path: list[Step] = []
        self.best: tuple[tuple[int, int], list[Step], int] = ((0, 0), [], 0)
        self.positions = 0
        self.next_report = 0.0
        self.key: Callable[[int], int] = self.symmetries.canonical
        self.compiled = compiled_search(game, centre, table) if compiled else None

    def run(self, start: int) -> SearchReport:
        began = time.monotonic()
        self.next_report = began
        if self.compiled is not None:
            solved, exhausted, path, best = self.compiled.run(start, self._time_up, PROBES, CHECK_EVERY, MEMO_LIMIT)
            self.positions = self.compiled.positions
            return SearchReport(path, solved, exhausted, best, self.positions, time.monotonic() - began)
        self.path, self.best = [], (self._rank(start), [], start)
        self.key = self.symmetries.canonical if self.symmetries.symmetric(start) else int
        solved = exhausted = False
        try:
            solved = self._search(start) is True
            exhausted = not solved
        except _OutOfTime:
            pass
        _, path, mask = self.best
        return SearchReport(path, solved, exhausted, mask, self.positions, time.monotonic() - began)

    def _rank(self, mask: int) -> tuple[int, int]:
        return mask.bit_count(), 0 if self.game.is_goal(mask) else 1

    def _note(self, mask: int) -> None:
        """Keep ``mask`` as the best position found if it is (the path to it is the current one)."""
        rank = self._rank(mask)
        if rank < self.best[0]:
            self.best = (rank, list(self.path), mask)

    def _search(self, mask: int, limit: int | None = None, rows: int = len(PROBES)) -> bool | None:
        """Whether ``mask`` leads to the goal (the path to it then in ``self.path``); None when the search
        passed ``limit`` positions (counted in ``self.positions``) before it could say.

        Only positions proved to fail go into the memo.  A position whose row of ``PROBES`` is
        among the first ``rows`` first tries each move with a search of that row's budget.
        """
        pieces = mask.bit_count()
        if pieces <= self.best[0][0]:
            self._note(mask)
        if self.goal(mask):
            return True
        if self.centre and not self.game.may_reach_centre(mask):
            return False
        key = self.key(mask)
        if key in self.seen:
            return False
        self.positions += 1
        if self.positions % CHECK_EVERY == 0:
            self._tick()
        if limit is not None and self.positions > limit:
            return None
        if self.table is not None and pieces == self.table.pieces + 1:
            if self._into_table(mask):
                return True
            children = []
        else:
            children = self._ordered(mask)
        row = _row(pieces, rows)
        if row is not None and len(children) > 1:
            budget = PROBES[row][1]
            for step, child in children:
                self.path.append(step)
                probe = self.positions + budget
                found = self._search(child, probe if limit is None else min(probe, limit), row)
                if found:
                    return True
                self.path.pop()
                if limit is not None and self.positions > limit:
                    return None
            seen, key_of = self.seen, self.key
            children = [(step, child) for step, child in children if key_of(child) not in seen]
        for step, child in children:
            self.path.append(step)
            found = self._search(child, limit, rows)
            if found:
                return True
            self.path.pop()
            if found is None:  # past the same limit: no answer from here either
                return None
        if len(self.seen) < MEMO_LIMIT:
            self.seen.add(key)
        return False

    def _into_table(self, mask: int) -> bool:
        """Whether a move leads into the endgame table's winning positions; if one does, the way on from there.

        A position the table does not hold fails: it goes into the memo, which is cheaper to ask next time."""
        table, seen, key = self.table, self.seen, self.key
        assert table is not None
        for step in self.game.steps(mask):
            child = mask ^ (1 << step[0]) ^ (1 << step[1]) ^ (1 << step[2])
            known = key(child)
            if known in seen:
                continue
            self.path.append(step)
            if child in table:
                self.table = None  # the few moves left are searched plainly
                try:
                    if self._search(child):
                        return True
                finally:
                    self.table = table
            elif len(seen) < MEMO_LIMIT:
                seen.add(known)
            self._note(child)
            self.path.pop()
        return False

    def _ordered(self, mask: int) -> list[tuple[Step, int]]:
        """The moves to positions not yet known to fail, most promising first: fewest stranded pieces after,
        then landing nearest the centre."""
        game, seen, key = self.game, self.seen, self.key
        children = [(step, child) for step in game.steps(mask)
                    for child in (mask ^ (1 << step[0]) ^ (1 << step[1]) ^ (1 << step[2]),) if key(child) not in seen]
        children.sort(key=lambda sc: (game.stranded(sc[1]), game.centre_distance[sc[0][1]]))
        return children

    def _tick(self) -> None:
        if self._time_up(self.positions, self.best[0][0]):
            raise _OutOfTime

    def _time_up(self, positions: int, best_pieces: int) -> bool:
        """Whether the search must end (asked every ``CHECK_EVERY`` positions); reports progress if not."""
        if self.budget.spent():
            return True
        now = time.monotonic()
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + 0.5
            self.progress(Progress(self.budget.elapsed(), positions, best_pieces, None,
                                   "depth-first search (best: pieces left)"))
        return False


def compiled_search(game: RemovalPuzzle, centre: bool, table: EndgameTable | None) -> Any:
    """``_removal_fast.Search`` for ``game`` when it was built and knows the game's moves (the Spiral's), else None."""
    if _removal_fast is None or not isinstance(game, OverPassSpiral):
        return None
    board, index = game.line_board, game.index
    distances = sorted(set(game.centre_distance))  # the move order compares them: their ranks do as well
    return _removal_fast.Search(
        near=[[index[q] for q in board.neighbours[p]] for p in game.locations],
        perimeter=[[index[q] for q in board.neighbours[p] if (p, q) in board.perimeter] for p in game.locations],
        exits=[index[p] for p in board.exits],
        symmetries=[list(perm) for perm in game.symmetries],
        distance_ranks=[distances.index(d) for d in game.centre_distance],
        rings=list(game.centre_rings),
        goal=game.goal,
        centre=centre,
        any_single=not centre and not game.centre_required,
        table_pieces=table.pieces if table else 0,
        table_ranks=table.ranks if table else None)


def _row(pieces: int, rows: int) -> int | None:
    """The row of ``PROBES`` for a position of ``pieces`` pieces (the last whose threshold it meets) when it is
    among the first ``rows``; otherwise None."""
    row = next((k for k in reversed(range(len(PROBES))) if pieces >= PROBES[k][0]), None)
    return row if row is not None and row < rows else None


def _removal_state(state: State) -> RemovalPuzzleState:
    if not isinstance(state, RemovalPuzzleState):
        raise SolverError(f"the removal-puzzle solver needs a Crooked Jumps or Over-Pass Spiral position, "
                          f"not a {state.game.name} one")
    return state


def solve_removal(state: State, time_limit: float, progress: ProgressCallback | None = None,
                  stop: Stop | None = None) -> Solution:
    """Search a removal puzzle from ``state`` and say what was found, in a player's words.

    The search for the centre cuts positions that cannot end there, so when it fails, a second
    search with the time left looks for the best ending anywhere, to show.  Where one piece
    anywhere is already a win (the Spiral), the centre gets ``CENTRE_SHARE`` of the time, so
    that win is not crowded out.  A position on a winning line that ships, one that ends in
    the centre, is answered with the rest of that line and no search.
    """
    state = _removal_state(state)
    game = state.game
    line = known_rest(state, ())
    if line and game.is_goal(_after(game, state.mask, line)):
        return Solution(list(line), True, False, None, None,
                        f"solved in {len(line)} moves, leaving one piece, in the centre: the rest of a line that "
                        f"ships with the puzzle (engine/solvers/data/lines.json, replayed when loaded)")
    budget = Budget(time_limit, stop)
    share = 1.0 if game.centre_required else CENTRE_SHARE
    report = RemovalSearch(game, Budget(time_limit * share, stop), progress).run(state.mask)
    searched = f"{report.positions:,} positions (symmetric ones counted once) in {report.seconds:.1f} s"
    shown = report
    if not report.solved and report.best_mask.bit_count() > 1 and not budget.spent():
        rest = Budget(time_limit - budget.elapsed(), stop)
        anywhere = RemovalSearch(game, rest, progress, centre=False).run(state.mask)
        if anywhere.best_mask.bit_count() < report.best_mask.bit_count():
            shown = anywhere
    moves = [str(game.move_of(step)) for step in shown.path]
    best = describe(game, shown.best_mask)
    if report.solved:
        explanation = (f"solved in {len(moves)} moves ({chains(report.path)} when a piece's consecutive moves "
                       f"count as one), leaving {best}; {searched}")
    elif report.exhausted and shown.best_mask.bit_count() == 1 and not game.centre_required:
        explanation = (f"one piece can be left, but never in the centre: every position that could still end "
                       f"there was examined ({searched}); the moves below leave {best}")
    elif report.exhausted:
        explanation = (f"no solution: every position reachable from the start that could still end in the centre "
                       f"was examined ({searched}) and none leaves one piece in the centre; the best leaves {best}")
    elif shown.best_mask.bit_count() == 1:
        explanation = (f"all but one piece taken off, leaving {best}; no way to leave it in the centre found "
                       f"{budget.ended()} (search not finished: {searched})")
    else:
        explanation = (f"no solution found {budget.ended()} (search not finished: {searched}); "
                       f"the best found leaves {best}")
    return Solution(moves, report.solved, report.solved, None, None, explanation)


def describe(game: RemovalPuzzle, mask: int) -> str:
    """A position's result in words: how many pieces, and where the last one stands."""
    if mask.bit_count() != 1:
        return f"{mask.bit_count()} pieces"
    where = game.locations[mask.bit_length() - 1]
    return "one piece, in the centre" if where == "center" else f"one piece, on {where}"


def _after(game: RemovalPuzzle, mask: int, moves: Sequence[str]) -> int:
    """The position after ``moves`` (in notation, ``start>removed>to``) from ``mask``."""
    for text in moves:
        for point in text.split(">"):
            mask ^= 1 << game.index[point]
    return mask


def chains(path: list[Step]) -> int:
    """How many turns the moves make when a piece moving on from where it landed continues its turn."""
    return sum(1 for k, step in enumerate(path) if k == 0 or step[0] != path[k - 1][1])


def removal_hint(state: State, time_limit: float, stop: Stop | None = None, known: Sequence[str] = ()) -> Hint:
    """The next move of a way to the puzzle's win from ``state`` (``known``'s when the game follows it), or the
    move since which there is none."""
    state = _removal_state(state)
    game = state.game
    budget = Budget(time_limit, stop)
    aim = "one piece in the centre" if game.centre_required else "one piece"
    if game.is_success(state.mask):
        return Hint((), None, f"solved: {describe(game, state.mask)}")
    moves = known_rest(state, known)
    table = None if game.centre_required or moves else shipped_table(game.name)  # loaded only to search
    search = RemovalSearch(game, budget, centre=game.centre_required, table=table)
    report = None if moves else search.run(state.mask)
    if report is not None and report.solved:
        moves = tuple(str(game.move_of(step)) for step in report.path)
    if moves:
        if game.is_goal(_after(game, state.mask, moves)):
            aim = "one piece in the centre"  # the ideal, where only one piece was asked for
        return Hint(moves, None, f"{plural(len(moves), 'more move')} to {aim}")
    assert report is not None
    if not report.exhausted:
        return Hint((), None, f"no way to {aim} found {budget.ended()}; the best found leaves "
                              f"{describe(game, report.best_mask)}")

    seconds = min(time_limit - budget.elapsed(), time_limit * LOSS_SHARE)
    search.budget = Budget(seconds, stop)

    def solvable(earlier: State) -> bool | None:
        assert isinstance(earlier, RemovalPuzzleState)
        report = search.run(earlier.mask)  # the memo of failed positions carries over: it stays sound
        return True if report.solved else False if report.exhausted else None

    return find_loss(state, solvable, aim, seconds)
