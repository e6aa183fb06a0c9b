"""``gameboard solve PUZZLE``: run a puzzle's solver, showing its progress, and print the result.

The search starts from the puzzle's start (with ``--option``), from a saved position
(``--position``), or from the game a journal holds (``--journal``: the board's or the
simulator's).  ``--hint`` asks what the hint button would say there instead, ``--chains``
the fewest chains of jumps.  Ctrl-C ends the search and prints the best found so far.
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
import textwrap
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from engine.core import EngineError, State
from engine.errors import GameboardError
from engine.registry import new_game, state_from_json
from engine.solvers import SOLVERS, Hint, Progress, Solution, hinter, solver
from engine.solvers.chains import FewestChains, fewest_chains
from firmware_host.commands.arguments import add_option_argument, game_options
from firmware_host.thinker import PUZZLE_HINT_S


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve", help="solve a solitaire puzzle (the best found within a time limit), or give its hint",
        description="Search a puzzle from its start, a saved position or a journal's game; Ctrl-C prints the "
                    "best found so far.")
    parser.add_argument("puzzle", choices=sorted(SOLVERS), help="the puzzle to solve")
    parser.add_argument("--time-limit", type=_seconds, default=None, metavar="S",
                        help=f"seconds to search before printing the best found (default 30; "
                             f"{PUZZLE_HINT_S:g} with --hint, as on the board; 600 with --chains)")
    add_option_argument(parser, "pieces=20")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--position", type=Path, metavar="FILE",
                       help='a saved position: JSON {"game", "options", "position"}, as a journal keeps a setup')
    where.add_argument("--journal", type=Path, nargs="?", const=..., metavar="PATH",
                       help="from the game in this journal (the unfinished one, else the last of this puzzle); "
                            "without PATH, the simulator's journal")
    asked = parser.add_mutually_exclusive_group()
    asked.add_argument("--hint", action="store_true",
                       help="say what the hint button says there: the next move, or the move that lost the puzzle")
    asked.add_argument("--chains", action="store_true",
                       help="crooked-jumps: the fewest chains (one piece's consecutive jumps counting as one), "
                            "proved by a search of every position reachable in fewer")
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    parser.set_defaults(handler=solve_puzzle)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r}: the time limit must be a number of seconds more than 0 "
                                         "(Ctrl-C stops the search sooner)")
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
    state = starting_state(args)
    stop = threading.Event()
    if args.hint:
        with stopped_by_ctrl_c(stop):
            hint = hinter(args.puzzle)(state, time_limit=args.time_limit or PUZZLE_HINT_S, stop=stop)
        print_hint(args.puzzle, state, hint)
        return 0 if hint.moves else 1
    display = None if args.quiet else ProgressLine(sys.stderr)
    try:
        with stopped_by_ctrl_c(stop):
            if args.chains:
                return _print_chains(args.puzzle, fewest_chains(state, args.time_limit or 600.0, display, stop))
            solution = solver(args.puzzle)(time_limit=args.time_limit or 30.0, progress=display, state=state,
                                           stop=stop)
    finally:
        if display:
            display.close()
    print_solution(args.puzzle, solution)
    return 0 if solution.solved else 1


def _print_chains(puzzle: str, found: FewestChains) -> int:
    print(f"{puzzle}: {found.explanation}")
    _print_moves("moves: ", found.moves, sys.stdout)
    return 0 if found.moves else 1


@contextmanager
def stopped_by_ctrl_c(stop: threading.Event) -> Iterator[None]:
    """Ctrl-C sets ``stop`` (the search then ends with its best) instead of raising KeyboardInterrupt."""
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def starting_state(args: argparse.Namespace) -> State:
    """The position to search from: the puzzle's start with the options, a saved position, or a journal's game."""
    options = game_options(args.option)
    if (args.position or args.journal) and options:
        raise GameboardError("--option sets up a new puzzle; a saved position or a journal's game carries its own "
                             "options: give one or the other")
    if args.position:
        state = _saved_position(args.position)
    elif args.journal:
        state = _journal_game(_default_journal() if args.journal is ... else args.journal, args.puzzle)
    else:
        try:
            state = new_game(args.puzzle, **options)
        except EngineError as exc:
            raise GameboardError(f"--option: {exc}") from None
    if state.game.name != args.puzzle:
        where = args.position or args.journal
        instead = (f"run `gameboard solve {state.game.name}` on it" if state.game.name in SOLVERS else
                   f"{state.game.name} is not a puzzle; `gameboard solve` solves {', '.join(sorted(SOLVERS))}")
        raise GameboardError(f"{where} holds a {state.game.name} position, not {args.puzzle}: {instead}")
    return state


def _saved_position(path: Path) -> State:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise GameboardError(f"{path}: cannot read it ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where, why = (f":{exc.lineno}:{exc.colno}", exc.msg) if isinstance(exc, json.JSONDecodeError) else \
            ("", "not a text file")
        raise GameboardError(f"{path}{where}: not a saved position ({why}); expected JSON "
                             f'{{"game": ..., "options": {{...}}, "position": {{...}}}}') from None
    try:
        return state_from_json(data)
    except EngineError as exc:
        raise GameboardError(f"{path}: {exc}") from None


def _default_journal() -> Path:
    from firmware_host.commands.sim import state_dir

    return state_dir() / "sim-journal.sqlite3"


def _journal_game(path: Path, puzzle: str) -> State:
    """The journal's unfinished game if it is this puzzle, else its last game of this puzzle, with its history."""
    from firmware_host.salvage import read_journal

    if not path.is_file():
        raise GameboardError(f"{path}: no such journal; give the path of one (the board's is in its configuration, "
                             f"[journal] path)")
    reading = read_journal(path)
    games = [game for game in reading.games if game.name == puzzle]
    if not games:
        raise GameboardError(f"{path}: no {puzzle} game in this journal")
    chosen = next((game for game in reversed(games) if game.record.finished is None), games[-1])
    state = state_from_json(json.loads(chosen.record.setup))
    for move in chosen.record.moves:
        state.apply(move.move)
    return state


def print_solution(puzzle: str, solution: Solution, out: TextIO | None = None) -> None:
    """The verdict, the figures, then the moves in notation, wrapped (to stdout by default)."""
    out = out or sys.stdout
    print(f"{puzzle}: {solution.explanation}", file=out)
    if solution.cost is not None:
        proof = "optimal" if solution.optimal else f"lower bound {solution.lower_bound}"
        print(f"cost {solution.cost} ({proof})", file=out)
    _print_moves("moves: ", solution.moves, out)


def print_hint(puzzle: str, state: State, hint: Hint, out: TextIO | None = None) -> None:
    """Where the position is, the hint's words, its move and the rest of the solution."""
    out = out or sys.stdout
    print(f"{puzzle}, after {len(state.history)} moves: {hint.explanation}", file=out)
    if hint.moves:
        print(f"hint: {hint.moves[0]}", file=out)
        _print_moves("then: ", hint.moves[1:], out)
    if hint.lost_at is not None:
        print(f"the last position with a solution: after move {hint.lost_at}", file=out)


def _print_moves(label: str, moves: Any, out: TextIO) -> None:
    if moves:
        print(textwrap.fill(" ".join(moves), width=88, initial_indent=label, subsequent_indent=" " * len(label),
                            break_on_hyphens=False), file=out)
