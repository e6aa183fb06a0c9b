"""``gameboard solve PUZZLE``: run a puzzle's solver, showing its progress, and print the result."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TextIO

from engine.solvers import SOLVERS, Progress, Solution, solver


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("solve", help="solve a solitaire puzzle (the best found within a time limit)")
    parser.add_argument("puzzle", choices=sorted(SOLVERS), help="the puzzle to solve")
    parser.add_argument("--time-limit", type=_seconds, default=30.0, metavar="S",
                        help="seconds to search before printing the best found (default 30)")
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    parser.set_defaults(handler=solve_puzzle)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the time limit must be more than 0 seconds")
    return value


class ProgressLine:
    """The solver's progress on one line of stderr: redrawn on a terminal, appended once a second otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.redraw = stream.isatty()
        self.last_printed = -1.0

    def __call__(self, progress: Progress) -> None:
        if not self.redraw and progress.elapsed - self.last_printed < 1.0:
            return
        self.last_printed = progress.elapsed
        best = "-" if progress.best is None else str(progress.best)
        bound = "-" if progress.lower_bound is None else str(progress.lower_bound)
        text = (f"{progress.elapsed:6.1f} s  {progress.explored:>11,} positions  best {best:>4}  "
                f"bound {bound:>4}  {progress.stage}")
        if self.redraw:
            self.stream.write(f"\r\033[K{text}")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.redraw and self.last_printed >= 0:
            self.stream.write("\n")
            self.stream.flush()


def solve_puzzle(args: argparse.Namespace) -> int:
    solve = solver(args.puzzle)
    display = None if args.quiet else ProgressLine(sys.stderr)
    try:
        solution = solve(time_limit=args.time_limit, progress=display)
    finally:
        if display:
            display.close()
    print_solution(args.puzzle, solution)
    return 0 if solution.solved else 1


def print_solution(puzzle: str, solution: Solution, out: TextIO | None = None) -> None:
    """The verdict, the figures, then the moves in notation, wrapped (to stdout by default)."""
    out = out or sys.stdout
    print(f"{puzzle}: {solution.explanation}", file=out)
    if solution.cost is not None:
        proof = "optimal" if solution.optimal else f"lower bound {solution.lower_bound}"
        print(f"cost {solution.cost} ({proof})", file=out)
    if solution.moves:
        print(textwrap.fill(" ".join(solution.moves), width=88, initial_indent="moves: ",
                            subsequent_indent="       ", break_on_hyphens=False), file=out)
